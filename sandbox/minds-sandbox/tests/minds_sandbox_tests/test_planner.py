"""The deterministic planner as pure functions."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minds_sandbox import instruments, planner
from minds_sandbox.planner import AudienceRef, PlanInputError

AUDIENCES = [AudienceRef(id="a1", name="First"), AudienceRef(id="a2", name="Second")]


def make(request: str) -> dict:
    return planner.plan_from_request(request=request, audiences=AUDIENCES, locale="en")


@settings(max_examples=60, deadline=None)
@given(st.text(min_size=1, max_size=300).filter(lambda t: t.strip()))
def test_free_text_always_gives_a_valid_plan(text: str) -> None:
    plan = make(text)
    assert 1 <= len(plan["modules"]) <= 3
    assert len(plan["questions"]) >= 2
    assert planner.condition_issues(plan["questions"]) == []
    assert all(q["response"]["type"] in planner.RESPONSE_TYPES for q in plan["questions"])
    assert plan["confirmationQuestions"][0]["options"]
    assert make(text) == plan


def test_a_plain_request_gets_three_to_eight_questions_in_modules() -> None:
    plan = make("Understand how students feel about a refillable water bottle")
    assert 3 <= len(plan["questions"]) <= 8
    listed = [qid for m in plan["modules"] for qid in m["questionIds"]]
    assert listed == [q["id"] for q in plan["questions"]]


def test_numbered_questionnaire_is_kept_in_order() -> None:
    plan = make(
        "Our survey:\n1. Do you drink coffee?\n2. How likely are you to recommend us?\n"
        "3) Which do you prefer? (tea / coffee / juice)\n- Why?"
    )
    assert [q["text"] for q in plan["questions"]] == [
        "Do you drink coffee?",
        "How likely are you to recommend us?",
        "Which do you prefer? (tea / coffee / juice)",
        "Why?",
    ]
    assert [q["response"]["type"] for q in plan["questions"]] == [
        "categorical",
        "scale",
        "categorical",
        "qualitative",
    ]
    assert plan["questions"][2]["response"]["categoricalOptions"] == ["tea", "coffee", "juice"]
    assert plan["objective"] == "Our survey"


@pytest.mark.parametrize("text", ["Don't you agree our shoe is the best?", "How much do you love our app?"])
def test_leading_requests_get_a_framing_warning(text: str) -> None:
    assert make(text)["framingWarnings"]


def test_neutral_request_has_no_framing_warning() -> None:
    assert make("Explore attitudes to second-hand sneakers")["framingWarnings"] == []


def test_leading_fixed_question_is_named_in_the_warning() -> None:
    plan = planner.fixed_plan(
        questions=[{"text": "Do you run?"}, {"text": "Don't you agree running is great?"}],
        audiences=AUDIENCES,
        locale="en",
        objective=None,
    )
    assert plan["framingWarnings"] == ['Question 2 leads the respondent ("don\'t you agree")']


def test_fixed_instrument_rejects_duplicate_ids_and_bad_responses() -> None:
    with pytest.raises(PlanInputError) as duplicate:
        planner.fixed_plan(
            questions=[{"id": "a", "text": "x?"}, {"id": "a", "text": "y?"}],
            audiences=AUDIENCES,
            locale="en",
            objective=None,
        )
    assert "more than once" in str(duplicate.value)
    with pytest.raises(PlanInputError):
        planner.fixed_plan(
            questions=[{"text": "x", "response": {"type": "categorical"}}],
            audiences=AUDIENCES,
            locale="en",
            objective=None,
        )


def test_single_audience_confirmation_is_yes_no() -> None:
    plan = planner.plan_from_request(request="Anything", audiences=AUDIENCES[:1], locale="en")
    assert plan["confirmationQuestions"][0]["options"] == ["Yes", "No"]


SNEAKER_PRICE = "How do Gen Z sneaker buyers in Germany feel about a 140 EUR price for our new running shoe\u2026"


@pytest.mark.parametrize(
    ("request_text", "intent", "topic"),
    [
        (SNEAKER_PRICE, "price", "the new running shoe"),
        (
            "What would parents pay for a $25 monthly snack box subscription?",
            "price",
            "the monthly snack box subscription",
        ),
        (
            'Test our new tagline "Run further, waste less" with young runners',
            "message",  # a tagline is a message test (issue 36), no longer a concept test
            'the tagline "Run further, waste less"',
        ),
        ("Test the launch of our recycled-material running shoe", "concept", "the recycled-material running shoe"),
        ("Are IT directors aware of our compliance audit service?", "awareness", "the compliance audit service"),
        ("Understand how students feel about a refillable water bottle", "open", "the refillable water bottle"),
    ],
)
def test_a_request_is_read_as_a_brief(request_text: str, intent: str, topic: str) -> None:
    brief = instruments.read_brief(request_text)
    assert (brief.intent, brief.topic) == (intent, topic)


def test_the_pricing_pulse_reads_like_a_price_study() -> None:
    plan = planner.plan_from_request(request=SNEAKER_PRICE, audiences=AUDIENCES[:1], locale="en")
    texts = [q["text"] for q in plan["questions"]]
    assert plan["objective"] == (
        "Find out how Gen Z sneaker buyers in Germany judge a price of 140 EUR for the new running shoe, "
        "what they would be willing to pay, and why."
    )
    rating = (
        "How would you rate the value for money of the new running shoe at 140 EUR? "
        "(1 = far too expensive, 5 = very good value)"
    )
    [rated] = [q for q in plan["questions"] if q["text"] == rating]
    assert rated["response"] == {"type": "scale", "scaleRange": [1, 5]}
    assert all("feel about" not in t and 'running"' not in t for t in texts)
    assert plan["confirmationQuestions"] == [
        {
            "id": "cq1",
            "text": "Is 140 EUR the final shelf price of the new running shoe, including VAT?",
            "options": ["Yes", "No"],
        }
    ]


def test_a_preference_request_offers_its_options_and_no_preference() -> None:
    plan = make("Would families prefer oat milk or almond milk?")
    first = plan["questions"][0]
    assert first["text"] == "Which do you prefer: oat milk or almond milk?"
    assert first["response"]["categoricalOptions"] == ["oat milk", "almond milk", "No preference"]
    assert plan["objective"] == "Find out whether families prefer oat milk or almond milk, and why."


@pytest.mark.parametrize(
    "request_text",
    [SNEAKER_PRICE, "x" * 300, "Explore attitudes to second-hand sneakers and what stops people buying them, " * 4],
)
def test_no_question_pastes_the_request_or_cuts_a_word(request_text: str) -> None:
    brief = instruments.read_brief(request_text)
    assert len(brief.topic) <= instruments.TOPIC_MAX_CHARS
    assert brief.topic.split()[-1] in request_text.replace("\u2026", " ").split() or brief.topic == "the idea"
    for question in make(request_text)["questions"]:
        assert request_text.strip() not in question["text"]


@settings(max_examples=40, deadline=None)
@given(st.text(min_size=1, max_size=200).filter(lambda t: t.strip()))
def test_the_objective_is_a_full_sentence(text: str) -> None:
    objective = make(text)["objective"]
    assert objective[0].isupper() and objective.endswith(".")
