"""Sandbox answers depend on the question and the persona (issue #25, "Answers from the question and the
persona"): the same question twice gives the same answers, unrelated questions give different quotes and themes,
an open answer says what was asked for (switching triggers, a price, brands), a price is judged against what the
category costs and how price-sensitive the Mind is, an Audience outside the topic's field answers with less
interest and says so, and a chat reply answers the message."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from minds_sandbox import respondents, seed, topics, voices
from minds_sandbox.engine import with_audience
from minds_sandbox.state import SandboxState

SEED = 7
GEN_Z = "Gen Z sneaker buyers in Germany"
KOREA = "Korean skincare enthusiasts"
SWITCH = "What would make you switch running-shoe brand?"
LABEL = "Would a third-party label make a carbon-neutral claim more credible?"
PRICE_140 = "Which best describes the price of our running shoe at 140 EUR?"
PRICE_OPTIONS = ["A bargain", "About right", "Expensive but worth it", "Too expensive"]


def state() -> SandboxState:
    return seed.build_demo_state(SEED)


def minds_of(st: SandboxState, name: str) -> list[dict]:
    audience = next(a for a in st.audiences.values() if a["name"] == name)
    return [with_audience(st, st.minds[m], audience_id=audience["id"]) for m in audience["mindIds"]]


def open_question(text: str, qid: str = "q1") -> dict:
    return {"id": qid, "text": text, "response": {"type": "qualitative"}}


def answers(minds: list[dict], question: dict) -> list[dict]:
    return [respondents.answer_item(seed=SEED, mind=m, question=question, history=[]) for m in minds]


def result(minds: list[dict], question: dict) -> dict:
    given = answers(minds, question)
    return respondents.output_data(question=question, answers=given, missing=[], audience_names={})


def test_the_same_question_asked_twice_gets_the_same_answers() -> None:
    minds = minds_of(state(), GEN_Z)
    assert answers(minds, open_question(SWITCH)) == answers(minds, open_question(SWITCH))
    assert answers(minds_of(state(), GEN_Z), open_question(SWITCH)) == answers(minds, open_question(SWITCH))


def test_two_unrelated_questions_get_different_quotes_and_themes() -> None:
    minds = minds_of(state(), GEN_Z)
    switch = result(minds, open_question(SWITCH, "q1"))
    label = result(minds, open_question(LABEL, "q2"))
    switch_themes = {t["theme"] for t in switch["themes"]}
    label_themes = {t["theme"] for t in label["themes"]}
    assert switch_themes.isdisjoint(label_themes)
    assert switch_themes <= {
        "A better price",
        "Only a bad experience",
        "Something genuinely new",
        "Proven sustainability",
        "Independent proof",
    }
    assert label_themes <= {
        "Only if independently verified",
        "A certifier I recognise",
        "The brand matters more",
        "Not if it costs more",
        "A clear explanation",
    }
    quotes = {a["message"] for r in (switch, label) for a in r["audiences"][0]["answers"]}
    assert len(quotes) == 2 * len(minds)


def test_themes_are_counted_from_the_answers_they_quote() -> None:
    minds = minds_of(state(), GEN_Z)
    data = result(minds, open_question(SWITCH))
    said = Counter(a.get("theme") for a in answers(minds, open_question(SWITCH)))
    assert {t["theme"]: t["count"] for t in data["themes"]} == dict(said)
    assert sum(t["count"] for t in data["themes"]) == len(minds) == 12
    for theme in data["themes"]:
        assert all(quote in {a["text"] for a in answers(minds, open_question(SWITCH))} for quote in theme["examples"])


def test_an_open_answer_says_what_the_question_asks_for_in_full_sentences() -> None:
    minds = minds_of(state(), GEN_Z)
    switching = answers(minds, open_question(SWITCH))
    assert all(a["text"].endswith(".") and a["text"][0].isupper() for a in switching)
    assert all(" in " in a["text"] and a["text"].count(". ") >= 1 for a in switching)
    price = answers(minds, open_question("What price would feel fair for our recycled running shoe, and why?"))
    assert all(topics.prices_in(a["text"]) for a in price), [a["text"] for a in price]
    assert all("would feel fair to me, because" in a["text"] for a in price)
    brands = answers(minds, open_question("Which brands of running shoes do you buy?"))
    assert all(any(b in a["text"] for b in topics.topic_named("footwear").brands) for a in brands)


def test_an_audience_outside_the_topic_says_it_is_not_its_field() -> None:
    st = state()
    korea = answers(minds_of(st, KOREA), open_question(SWITCH))
    assert {a["theme"] for a in korea} == {"Not my field"}
    first = korea[0]["text"]
    assert first.startswith("Honestly, I don't know much about shoes, so I have no strong view. As a")
    assert first.endswith("I spend my money on skincare, not shoes.")
    gen_z = answers(minds_of(st, GEN_Z), open_question(SWITCH))
    assert "Not my field" not in {a["theme"] for a in gen_z}
    assert sum(len(a["text"]) for a in korea) / len(korea) < sum(len(a["text"]) for a in gen_z) / len(gen_z)


def test_an_audience_outside_the_topic_answers_closed_questions_with_less_interest() -> None:
    st = state()
    scale = {"id": "q3", "text": "How interested are you in our new running shoe?", "response": {"type": "scale"}}
    scale["response"]["scaleRange"] = [1, 5]
    korea = [a["value"] for a in answers(minds_of(st, KOREA), scale)]
    gen_z = [a["value"] for a in answers(minds_of(st, GEN_Z), scale)]
    assert sum(korea) / len(korea) < sum(gen_z) / len(gen_z)
    assert all(2 <= v <= 3 for v in korea)  # neutral to "not for me", never an enthusiast


def price_shares(minds: list[dict], text: str) -> Counter[str]:
    question = {"id": "q4", "text": text, "response": {"type": "categorical", "categoricalOptions": PRICE_OPTIONS}}
    return Counter(a["value"] for a in answers(minds, question))


def test_a_price_above_the_category_is_not_a_bargain_for_price_sensitive_buyers() -> None:
    minds = minds_of(state(), GEN_Z)
    at_140 = price_shares(minds, PRICE_140)
    assert at_140["A bargain"] <= 1
    assert at_140["Too expensive"] + at_140["Expensive but worth it"] >= 9
    at_60 = price_shares(minds, "Which best describes the price of our running shoe at 60 EUR?")
    assert at_60["A bargain"] + at_60["About right"] >= 9


def test_price_sensitivity_decides_how_a_price_looks() -> None:
    mind = minds_of(state(), GEN_Z)[0]
    thrifty = {
        **mind,
        "persona": {**mind["persona"], "traits": {**mind["persona"]["traits"], "priceSensitivity": 0.95}},
    }
    lavish = {**mind, "persona": {**mind["persona"], "traits": {**mind["persona"]["traits"], "priceSensitivity": 0.05}}}
    scale = {"id": "q5", "text": "How would you rate the price of our running shoe at 120 EUR?"}
    scale["response"] = {"type": "scale", "scaleRange": [1, 5]}
    rated = {
        who: respondents.answer_item(seed=SEED, mind=m, question=scale, history=[])["value"]
        for who, m in (("thrifty", thrifty), ("lavish", lavish))
    }
    assert rated["thrifty"] < rated["lavish"]


def test_a_willingness_to_pay_band_follows_the_minds_own_price() -> None:
    minds = minds_of(state(), GEN_Z)
    bands = ["More than 161 EUR", "140–161 EUR", "119–139 EUR", "Less than 119 EUR"]
    question = {"id": "q6", "text": "What is the most you would pay for our running shoe?"}
    question["response"] = {"type": "categorical", "categoricalOptions": bands}
    chosen = Counter(a["value"] for a in answers(minds, question))
    assert chosen["Less than 119 EUR"] >= 8 and chosen["More than 161 EUR"] == 0


def test_a_chat_reply_answers_the_message() -> None:
    st = state()
    gen_z = minds_of(st, GEN_Z)[0]
    reply = voices.chat_reply(
        mind=gen_z, message="Which brands do you wear now?", rng=random.Random(1), role_phrase="a barista"
    )
    assert reply.startswith("Mostly ")
    assert sum(b in reply for b in topics.topic_named("footwear").brands) >= 2
    assert "depends on the price" not in reply
    price = voices.chat_reply(
        mind=gen_z, message="How much would you pay for running shoes?", rng=random.Random(1), role_phrase="a barista"
    )
    assert topics.prices_in(price)
    korea = minds_of(st, KOREA)[0]
    unfit = voices.chat_reply(
        mind=korea, message="Which running shoes do you like?", rng=random.Random(1), role_phrase="a nurse"
    )
    assert unfit.startswith("Honestly, I don't know much about shoes")


def test_a_chat_reply_keeps_to_the_topic_of_the_earlier_messages() -> None:
    gen_z = minds_of(state(), GEN_Z)[0]
    reply = voices.chat_reply(
        mind=gen_z,
        message="And at 140 EUR?",
        rng=random.Random(1),
        role_phrase="a barista",
        earlier=("Which running shoes do you like?",),
    )
    assert reply.startswith("I would pay up to about ") and "140 EUR is more than I would spend." in reply


def test_counts_that_are_not_prices_are_answered_as_a_ladder_not_as_a_price() -> None:
    minds = minds_of(state(), GEN_Z)
    counts = ["0", "1", "2-3", "4 or more"]
    question = {"id": "q7", "text": "How many pairs of running shoes did you buy last year?"}
    question["response"] = {"type": "categorical", "categoricalOptions": counts}
    chosen = Counter(a["value"] for a in answers(minds, question))
    assert len(chosen) >= 2


@pytest.mark.parametrize(
    ("question", "not_my_field"),
    [
        ("Was würde Sie dazu bringen, Ihre Laufschuhmarke zu wechseln?", "Nicht mein Gebiet"),
        ("¿Qué te haría cambiar de marca de zapatillas?", "No es lo mío"),
        ("什么会让你更换跑鞋品牌？", "不是我的领域"),
        ("어떤 이유로 운동화 브랜드를 바꾸시겠습니까?", "제 분야가 아님"),
    ],
)
def test_a_question_in_another_language_is_still_about_its_topic(question: str, not_my_field: str) -> None:
    # Answered in the question's language (issue #36): the theme "Not my field" is said in it too.
    korea = answers(minds_of(state(), KOREA), open_question(question))
    assert {a["theme"] for a in korea} == {not_my_field}


def test_a_choice_comes_with_its_reason() -> None:
    minds = minds_of(state(), GEN_Z)
    question = {"id": "q8", "text": PRICE_140}
    question["response"] = {"type": "categorical", "categoricalOptions": PRICE_OPTIONS}
    for answer in answers(minds, question):
        assert answer["text"].startswith("I would pay about ") and answer["text"].endswith(" EUR for shoes.")
    korea = answers(minds_of(state(), KOREA), question)
    assert {a["text"] for a in korea} == {"I don't know much about shoes, so I have no strong view."}
    scale = {"id": "q9", "text": "How do you feel about recycled materials in general?"}
    scale["response"] = {"type": "scale", "scaleRange": [1, 5]}
    for answer in answers(minds, scale):
        assert answer["text"][0].isupper() and answer["text"].endswith(".")
        assert str(answer["value"]) not in answer["text"]  # the point is shown beside it, never twice
