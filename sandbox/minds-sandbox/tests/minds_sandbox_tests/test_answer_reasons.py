"""A choice's reason answers the question for the option chosen, and an open result's quotes illustrate the themes
it names (issue #25 follow-up): "Yes — an independent label is something I can check…" for a credibility
question, a price judged against what the Mind would pay, and an Audience's summary that lists every theme with
the count of answers that carry it, its first answers one of each leading theme."""

from __future__ import annotations

from collections import Counter

import pytest

from minds_sandbox import reasons, respondents, seed, topics
from minds_sandbox.engine import with_audience
from minds_sandbox.state import SandboxState

SEED = 7
GEN_Z = "Gen Z sneaker buyers in Germany"
KOREA = "Korean skincare enthusiasts"
LABEL = "Would a third-party label make a carbon-neutral claim more credible?"
SWITCH = "What would make you switch running-shoe brand?"


def minds_of(st: SandboxState, name: str) -> list[dict]:
    audience = next(a for a in st.audiences.values() if a["name"] == name)
    return [with_audience(st, st.minds[m], audience_id=audience["id"]) for m in audience["mindIds"]]


def gen_z() -> list[dict]:
    return minds_of(seed.build_demo_state(SEED), GEN_Z)


def closed(text: str, options: list[str], qid: str = "q1") -> dict:
    return {"id": qid, "text": text, "response": {"type": "categorical", "categoricalOptions": options}}


def answers(minds: list[dict], question: dict) -> list[dict]:
    return [respondents.answer_item(seed=SEED, mind=m, question=question, history=[]) for m in minds]


def test_a_yes_or_no_on_credibility_says_why_the_label_does_or_does_not_make_the_claim_credible() -> None:
    given = answers(gen_z(), closed(LABEL, ["Yes", "No"]))
    for answer in given:
        text = answer["text"]
        assert text.startswith(f"{answer['value']} — ") and text.endswith(".")
        assert "label" in text or "claim" in text, text
        assert text not in ("Yes", "No", "Yes.", "No.")
        assert "curiosity" not in text and "puts me off" not in text
    yes = {a["text"] for a in given if a["value"] == "Yes"}
    no = {a["text"] for a in given if a["value"] == "No"}
    assert yes.isdisjoint(no)


def test_the_exact_reasons_for_a_credibility_question() -> None:
    texts = {a["text"] for a in answers(gen_z(), closed(LABEL, ["Yes", "No"]))}
    assert "No — I'd still want to see how it is made; a label alone doesn't tell me that." in texts
    assert "Yes — a label that says in one line what was checked and by whom makes the claim concrete." in texts


@pytest.mark.parametrize(
    ("text", "options", "kind"),
    [
        (
            "How likely would you be to buy our recycled running shoe?",
            ["Definitely would buy", "Probably would buy", "Probably would not buy", "Definitely would not buy"],
            "intent",
        ),
        (
            "How often do you buy running shoes?",
            ["Never", "Once a year", "Every few months", "Every month"],
            "frequency",
        ),
        ("Do you agree that running shoes should be recyclable?", ["Yes", "No"], "agree"),
        ("How likely are you to recommend our running shoe to a friend?", ["Yes", "Maybe", "No"], "recommend"),
        ("Before today, had you heard of our running shoe?", ["Yes", "No"], "heard"),
    ],
)
def test_a_reason_speaks_to_the_kind_of_question_and_the_direction_of_the_choice(
    text: str, options: list[str], kind: str
) -> None:
    assert reasons.closed_kind(text) == kind
    given = answers(gen_z(), closed(text, options))
    for answer in given:
        said = answer["text"]
        assert said not in options and said.rstrip(".") not in options
        assert said[0].isupper() and said.endswith(".")
        way = reasons.direction(answer["sentiment"])
        yes, unsure, no = reasons._SAYS[kind]
        expected = {"positive": yes, "neutral": unsure, "negative": no}[way].format(field="shoes")
        assert expected in said or expected[:1].upper() + expected[1:] in said, (answer["value"], said)


def test_a_list_that_starts_at_its_low_end_is_positive_at_its_high_end() -> None:
    options = ["Never", "Once a year", "Every few months", "Every month"]
    response = {"type": "categorical", "categoricalOptions": options}
    assert respondents.sentiment(response, "Every month", affinity=0.5) == 1.0
    assert respondents.sentiment(response, "Never", affinity=0.5) == -1.0


def test_a_price_reason_judges_the_asked_price_against_what_the_mind_would_pay() -> None:
    options = ["A bargain", "About right", "Expensive but worth it", "Too expensive"]
    given = answers(gen_z(), closed("Which best describes the price of our running shoe at 140 EUR?", options))
    for answer in given:
        way = reasons.direction(answer["sentiment"])
        ending = {
            "positive": ", so I'd happily pay 140 EUR for shoes.",
            "neutral": ", so it's a stretch to pay 140 EUR for shoes.",
            "negative": "; I'd never pay 140 EUR for shoes.",
        }[way]
        assert answer["text"].startswith("I would pay about ") and answer["text"].endswith(ending), answer


def test_a_preference_reason_never_repeats_the_option() -> None:
    options = ["Recycled upper", "Carbon-neutral sole", "No preference"]
    given = answers(gen_z(), closed("Which do you prefer: Recycled upper or Carbon-neutral sole?", options))
    for answer in given:
        assert not any(o in answer["text"] for o in options), answer["text"]
        assert answer["text"].startswith(("That one fits me better, because ", "Neither stands out for me"))


# ---------------------------------------------------------------- themes and quotes


def open_result(minds: list[dict], text: str) -> tuple[dict, dict[str, str]]:
    question = {"id": "q2", "text": text, "response": {"type": "qualitative"}}
    given = answers(minds, question)
    names = {m["audienceId"]: m["audienceName"] for m in minds}
    data = respondents.output_data(question=question, answers=given, missing=[], audience_names=names)
    return data, {a["text"]: a["theme"] for a in given}


def named_themes(value: str) -> dict[str, int]:
    named = {}
    for part in value.split(" · "):
        theme, _, counted = part.rpartition(" (")
        count, _, total = counted.rstrip(")").partition(" of ")
        named[theme] = int(count)
    return named


def test_an_audience_summary_lists_its_themes_with_the_answers_that_carry_them() -> None:
    st = seed.build_demo_state(SEED)
    minds = minds_of(st, GEN_Z) + minds_of(st, KOREA)
    data, theme_of = open_result(minds, SWITCH)
    gen_z_summary, korea_summary = (a["value"] for a in data["audiences"])
    assert korea_summary == "Not my field (16 of 16)"
    assert gen_z_summary == (
        "Proven sustainability (5 of 12) · Only a bad experience (4 of 12) · Something genuinely new (3 of 12)"
    )
    for audience in data["audiences"]:
        carried = Counter(theme_of[a["message"]] for a in audience["answers"])
        assert named_themes(audience["value"]) == dict(carried)
        assert list(named_themes(audience["value"]).values()) == sorted(carried.values(), reverse=True)


def test_the_first_answers_of_an_audience_illustrate_its_leading_themes_one_each() -> None:
    data, theme_of = open_result(gen_z(), SWITCH)
    audience = data["audiences"][0]
    leading = list(named_themes(audience["value"]))
    first = [theme_of[a["message"]] for a in audience["answers"][: len(leading)]]
    assert first == leading
    assert first == ["Proven sustainability", "Only a bad experience", "Something genuinely new"]


def test_a_yes_or_no_at_a_price_leads_with_the_answer_and_judges_the_price() -> None:
    # The words agree with the numbers (issue #36): a Mind that would pay less than 140 EUR never "happily" pays
    # it, one that would pay more never finds it "a stretch" or would "never" pay it.
    given = answers(gen_z(), closed("Would you buy our recycled running shoe at 140 EUR?", ["Yes", "No"]))
    for answer in given:
        text = answer["text"]
        assert text.startswith(f"{answer['value']} — ") and "140 EUR for shoes" in text, text
        assert text.count(".") == 1 and text.endswith(".")
        mine = next(p.amount for p in topics.prices_in(text) if p.amount != 140)
        if mine < 140 * 0.97:
            assert "happily" not in text and "could pay" not in text and "within reach" not in text, text
        else:
            assert "never pay" not in text and "stretch" not in text and "more than the" not in text, text
        assert (answer["value"] == "Yes") == (mine >= 140), text  # a Mind buys exactly up to what it would pay


def test_where_a_mind_hears_about_products_is_answered_as_a_place_not_a_mood() -> None:
    options = ["Friends and family", "Social media", "Online reviews", "In stores", "Advertising"]
    given = answers(gen_z(), closed("Where do you usually hear about new products like this?", options))
    for answer in given:
        assert answer["text"].startswith("That is where I notice new products like this most, because I ")
        assert not any(o.lower() in answer["text"].lower() for o in options)


RECYCLED = "Would you pay {extra} euros more for running shoes made from recycled materials?"


def test_an_amount_more_is_judged_on_top_of_the_usual_price_not_as_the_price() -> None:
    # Shoes usually cost 110 EUR in the sandbox: "20 euros more" is 130 EUR, never "a bargain at 20 EUR".
    small, large = (answers(gen_z(), closed(RECYCLED.format(extra=n), ["Yes", "No"])) for n in (5, 60))
    assert sum(a["value"] == "Yes" for a in small) > sum(a["value"] == "Yes" for a in large) == 0
    for answer in small + large:
        assert "I'd happily pay" not in answer["text"] and " EUR more " in answer["text"], answer["text"]


def test_the_exact_reasons_for_an_amount_more() -> None:
    texts = {a["text"] for a in answers(gen_z(), closed(RECYCLED.format(extra=5), ["Yes", "No"]))}
    assert "Yes — I would pay about 125 EUR for shoes, so 5 EUR more is fine with me." in texts
    assert not any("over the" in text for text in texts)  # never "over what I'd pay, but I'd pay it"
    assert "No — I would pay about 90 EUR for shoes; 5 EUR more is too much." in texts


def test_an_open_answer_about_an_amount_more_names_the_usual_price() -> None:
    question = {"id": "q1", "text": RECYCLED.format(extra=20) + " Why?", "response": {"type": "qualitative"}}
    given = answers(gen_z(), question)
    assert given[0]["text"].startswith(
        "I would pay up to about 90 EUR; 20 EUR more than the usual 110 EUR is more than I would spend."
    ), given[0]["text"]
