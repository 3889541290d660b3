"""Sandbox answers: each Mind answers in its own profile, in grammatical sentences, by question type."""

from __future__ import annotations

import pytest

from minds_sandbox import respondents


def mind(*, occupation: str, location: str = "Denver", top: str = "skepticism") -> dict:
    traits = dict.fromkeys(
        ("priceSensitivity", "sustainabilityFocus", "brandLoyalty", "noveltySeeking", "skepticism"), 0.3
    )
    traits[top] = 0.9
    return {
        "id": f"m-{occupation}",
        "name": "Dana Reyes",
        "discipline": occupation,
        "audienceId": "a1",
        "persona": {"age": 41, "location": location, "occupation": occupation, "traits": traits},
    }


def qualitative(text: str) -> dict:
    return {"id": "q1", "text": text, "response": {"type": "qualitative"}}


@pytest.mark.parametrize(
    ("occupation", "spoken"),
    [
        ("IT director", "an IT director"),
        ("University student", "a university student"),
        ("Apprentice mechanic", "an apprentice mechanic"),
        ("Barista", "a barista"),
        ("HR lead", "an HR lead"),
        ("Sourcing specialist", "a sourcing specialist"),
    ],
)
def test_a_mind_introduces_itself_with_the_right_article_and_case(occupation: str, spoken: str) -> None:
    answer = respondents.answer_item(
        seed=7, mind=mind(occupation=occupation), question=qualitative("What is your first reaction?"), history=[]
    )
    assert f"As {spoken} in Denver, " in answer["text"]
    assert answer["text"][0].isupper() and answer["text"].endswith(".")


def test_a_barrier_question_is_answered_with_the_minds_own_barrier() -> None:
    price_minded = mind(occupation="Barista", top="priceSensitivity")
    answers = {
        respondents.answer_item(
            seed=seed, mind=price_minded, question=qualitative("What, if anything, would stop you?"), history=[]
        )["text"]
        for seed in range(12)
    }
    assert all(
        t.startswith(
            (
                "The main thing would be a price that does not feel fair for what it is.",
                "Not much would stop me. At most a price that does not feel fair for what it is.",
            )
        )
        for t in answers
    )
    assert all("I compare prices before I buy anything." in t for t in answers)


def test_the_profile_decides_the_theme() -> None:
    green = respondents.answer_item(
        seed=1, mind=mind(occupation="Nurse", top="sustainabilityFocus"), question=qualitative("Why?"), history=[]
    )
    loyal = respondents.answer_item(
        seed=1, mind=mind(occupation="Nurse", top="brandLoyalty"), question=qualitative("Why?"), history=[]
    )
    assert (green["theme"], loyal["theme"]) == ("Sustainability", "Brand trust")
