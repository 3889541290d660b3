"""The one-question check: a questionnaire is never sent question by question (CATALOGUE §2 F.47-48)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from minds_bot.flows.questions import check_question

SINGLE = [
    "Would you pay $5 a month for faster delivery?",
    "How likely are you to recommend Acme to a friend, from 0 to 10",
    'Rate the tagline "Why wait?" from 1 to 5?',
    "What do you think of the name “Ship it?” for a courier app?",
    "What's the first thing you notice? ",
    "Which of these flavours would you buy: lemon, mango, or cherry?",
    "Is this worth it?!",
    "Describe your morning routine.\nBe specific about coffee.",
    "- Would you switch banks for a 2% bonus?",
]
MULTIPLE = [
    ("Would you pay $5? Would you pay $10?", 2),
    ("What's the best part? Isn't the price too high?", 2),
    ("1. Do you own a car?\n2. How often do you drive?", 2),
    ("1) Age\n2) Income\n3) Region", 3),
    ("- Price\n- Quality", 2),
    ("• Would you buy it\n• Why not", 2),
    ("Q1: Do you cook\nQ2: How often", 2),
    ("a) brand awareness\nb) purchase intent", 2),
    ("How old are you? Where do you live? What do you earn?", 3),
]


@pytest.mark.parametrize("text", SINGLE)
def test_one_standalone_question_may_be_asked(text: str) -> None:
    check = check_question(text)
    assert check.single and check.count == 1 and check.reason == ""


@pytest.mark.parametrize(("text", "count"), MULTIPLE)
def test_two_or_more_questions_are_refused_with_a_reason(text: str, count: int) -> None:
    check = check_question(text)
    assert not check.single
    assert check.count == count
    assert str(count) in check.reason


@pytest.mark.parametrize("text", ["", "   ", "\n"])
def test_empty_text_is_not_a_question(text: str) -> None:
    assert not check_question(text).single


@given(st.text(max_size=400))
def test_never_raises_and_refusals_always_say_why(text: str) -> None:
    check = check_question(text)
    assert check.single or check.reason


@given(st.lists(st.text(alphabet="abcdefgh xyz", min_size=3, max_size=30), min_size=2, max_size=6))
def test_joining_several_questions_is_always_refused(parts: list[str]) -> None:
    text = " ".join(f"{p.strip() or 'why'}?" for p in parts)
    assert not check_question(text).single
