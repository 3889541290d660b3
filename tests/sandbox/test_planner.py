"""The deterministic planner as pure functions."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minds_bot.sandbox.minds_api import planner
from minds_bot.sandbox.minds_api.planner import AudienceRef, PlanInputError

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
