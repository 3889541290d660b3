"""A built Audience matches its brief (issue #36: a "German adults" Audience lived in Amsterdam, Lisbon, Madrid
and Vienna with the occupation "Aged enthusiast"): the place it names, the ages it names, real jobs for each age,
names of that place — in every language a brief may be written in."""

from __future__ import annotations

from typing import Any

import pytest

from minds_sandbox import briefs, respondents, seed
from minds_sandbox.state import Record, SandboxState

GERMAN_CITIES = {"Berlin", "Hamburg", "Munich", "Cologne", "Frankfurt", "Stuttgart", "Leipzig", "Düsseldorf", "Dresden"}
GERMAN_SURNAMES = {
    "Müller",
    "Schmidt",
    "Schneider",
    "Fischer",
    "Weber",
    "Meyer",
    "Wagner",
    "Becker",
    "Hoffmann",
    "Koch",
}
KOREAN_SURNAMES = {"Kim", "Lee", "Park", "Choi", "Jung", "Kang", "Cho", "Yoon"}
SPANISH_CITIES = {"Madrid", "Barcelona", "Valencia", "Seville", "Zaragoza", "Málaga", "Bilbao"}
ALL_JOBS = set(briefs.WORKING) | set(briefs.YOUNG) | set(briefs.RETIRED)


def built(text: str, members: int = 24) -> list[Record]:
    state = SandboxState(seed=7)
    job: dict[str, Any] = {"id": f"job-{text}", "text": text, "name": None, "memberCount": members, "files": []}
    audience = seed.build_audience(state, job, seed.SEED_EPOCH)
    return [state.minds[m] for m in audience["mindIds"]]


def personas(text: str, members: int = 24) -> list[dict[str, Any]]:
    return [m["persona"] | {"name": m["name"], "description": m["description"]} for m in built(text, members)]


def test_german_adults_live_in_german_cities_with_german_names_and_real_jobs_for_their_age() -> None:
    people = personas("German adults who buy running shoes")
    assert {p["location"] for p in people} <= GERMAN_CITIES and len({p["location"] for p in people}) >= 3
    assert all(p["name"].split(" ", 1)[1] in GERMAN_SURNAMES for p in people)
    assert all(18 <= p["age"] <= 75 for p in people)
    assert {p["occupation"] for p in people} <= ALL_JOBS
    assert not any("enthusiast" in p["occupation"].lower() for p in people)
    for p in people:
        if p["age"] <= 22:
            assert p["occupation"] in briefs.YOUNG, p
        elif p["age"] >= 67:
            assert p["occupation"] in briefs.RETIRED, p
        else:
            assert p["occupation"] in briefs.WORKING, p
        assert p["description"] == f"{p['age']}-year-old {respondents.role(p['occupation'])} in {p['location']}"


@pytest.mark.parametrize(
    "text",
    ["Seoul office workers", "서울 직장인 20대", "Office workers in Seoul aged 25-45", "首尔的上班族"],
)
def test_seoul_office_workers_live_in_seoul_and_work_in_offices(text: str) -> None:
    people = personas(text)
    assert {p["location"] for p in people} == {"Seoul"}
    assert all(p["name"].rsplit(" ", 1)[1] in KOREAN_SURNAMES for p in people)
    assert {p["occupation"] for p in people} <= {
        "Office worker",
        "Accountant",
        "Marketing coordinator",
        "HR specialist",
        "Sales manager",
        "Project manager",
        "Customer service representative",
        "Financial analyst",
    }


@pytest.mark.parametrize(
    ("text", "ages"),
    [
        ("Office workers in Seoul aged 25-45", (25, 45)),
        ("서울 직장인 20대", (20, 29)),
        ("Deutsche Erwachsene zwischen 30 und 50 Jahren", (30, 50)),
        ("Adultos en España de 40 a 60 años", (40, 60)),
        ("上海的白领，25-35岁", (25, 35)),
        ("Retirees in the US over 67", (67, 85)),
        ("Gen Z sneaker buyers in Germany", (18, 28)),
    ],
)
def test_the_ages_a_brief_names_are_the_ages_of_its_minds(text: str, ages: tuple[int, int]) -> None:
    assert briefs.ages_of(text) == ages
    people = personas(text)
    assert all(ages[0] <= p["age"] <= ages[1] for p in people)
    assert len({p["age"] for p in people}) >= 4


def test_a_brief_in_spanish_about_spain_lives_in_spanish_cities() -> None:
    people = personas("Adultos en España de 40 a 60 años que compran café")
    assert {p["location"] for p in people} <= SPANISH_CITIES
    assert {p["occupation"] for p in people} <= set(briefs.WORKING)


def test_students_study_and_retirees_are_retired() -> None:
    assert {p["occupation"] for p in personas("Estudiantes universitarios en Madrid")} <= {
        "University student",
        "Graduate student",
        "Vocational student",
        "Design student",
        "Engineering student",
    }
    assert {p["occupation"] for p in personas("Rentner in Deutschland")} <= set(briefs.RETIRED)
    assert all(p["age"] >= 67 for p in personas("Rentner in Deutschland"))


def test_a_brief_naming_no_place_lives_where_its_language_is_spoken() -> None:
    assert {p["location"] for p in personas("Menschen, die gern Tee trinken")} <= GERMAN_CITIES
    assert {p["location"] for p in personas("喜欢喝茶的人")} <= set(briefs.COUNTRIES[3].cities)
    assert all(p["name"].rsplit(" ", 1)[1] in KOREAN_SURNAMES for p in personas("차를 좋아하는 사람들"))


def test_the_seeded_demo_audiences_keep_to_their_briefs() -> None:
    state = seed.build_demo_state(7)
    for spec in seed.DEMO_AUDIENCES:
        audience = next(a for a in state.audiences.values() if a["name"] == spec.name)
        for mind in (state.minds[m] for m in audience["mindIds"]):
            persona = mind["persona"]
            assert persona["location"] in spec.locations
            assert spec.ages[0] <= persona["age"] <= spec.ages[1]
            assert persona["occupation"] in spec.occupations and briefs.suits(persona["occupation"], persona["age"])
