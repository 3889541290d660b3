"""Browsing a workspace through the client: the key check, paged lists and finding a Study by name."""

from __future__ import annotations

import uuid

import pytest

from minds_bot.minds import AuthenticationError, MindsClient, StudyDetail
from minds_bot.render.common import lookup_explanation
from tests.integration.conftest import Harness
from tests.integration.seeds import (
    GEN_Z,
    LAUNCH_STUDY,
    PRICING_STUDY,
    SEEDED_AUDIENCES,
    SEEDED_MINDS,
    SEEDED_STUDIES,
    SKINCARE,
)

EXTRA_STUDIES = 103  # with the two seeded ones, more than one page of 100


async def _create_studies(h: Harness, count: int) -> list[str]:
    created = []
    for n in range(1, count + 1):
        study = await h.minds.create_study(name=f"Weekly tracker #{n:03d}", audience_ids=[GEN_Z])
        created.append(study.id)
    return created


async def test_me_accepts_the_sandbox_key_and_rejects_an_unknown_one(h: Harness) -> None:
    me = await h.minds.me()
    assert me.id and (await h.minds.me()).id == me.id

    bad_key = "minds_" + "z" * 12  # not a well-formed key: the sandbox answers 401 like Minds
    async with MindsClient.create(api_key=bad_key, base_url=h.sandbox.base_url) as stranger:
        with pytest.raises(AuthenticationError) as caught:
            await stranger.me()
    assert bad_key not in str(caught.value) and caught.value.status_code == 401


async def test_studies_are_listed_newest_first_across_pages(h: Harness) -> None:
    created = await _create_studies(h, EXTRA_STUDIES)

    listed = [study async for study in h.minds.iter_studies()]

    assert len(listed) == EXTRA_STUDIES + SEEDED_STUDIES
    assert len({s.id for s in listed}) == len(listed)
    assert [s.id for s in listed[:EXTRA_STUDIES]] == created[::-1]
    assert [s.id for s in listed[EXTRA_STUDIES:]] == [PRICING_STUDY, LAUNCH_STUDY]
    pages = [e.query for e in h.log.matching("GET", "/api/v1/studies")]
    assert [(p["offset"], p["limit"]) for p in pages] == [("0", "100"), ("100", "100")]


async def test_max_items_stops_after_one_page(h: Harness) -> None:
    await _create_studies(h, EXTRA_STUDIES)

    first = [study async for study in h.minds.iter_studies(max_items=3)]

    assert [s.name for s in first] == [f"Weekly tracker #{n:03d}" for n in (103, 102, 101)]
    assert len(h.log.matching("GET", "/api/v1/studies")) == 1


async def test_find_study_exact_fuzzy_ambiguous_and_not_found(h: Harness) -> None:
    await _create_studies(h, EXTRA_STUDIES)
    await h.minds.create_study(name="Concept test", audience_ids=[GEN_Z])
    await h.minds.create_study(name="concept TEST", audience_ids=[SKINCARE])

    exact = await h.minds.find_study("  pricing PULSE ")
    assert exact.kind == "exact" and exact.match is not None and exact.match.id == PRICING_STUDY

    by_id = await h.minds.find_study(LAUNCH_STUDY)
    assert by_id.kind == "exact" and isinstance(by_id.match, StudyDetail)
    assert by_id.match.name == "Launch positioning" and by_id.match.messages

    fuzzy = await h.minds.find_study("Launch positoning")
    assert fuzzy.kind == "fuzzy" and fuzzy.match is not None and fuzzy.match.id == LAUNCH_STUDY

    same_name = await h.minds.find_study("Concept test")
    assert same_name.kind == "ambiguous" and len(same_name.candidates) == 2

    many = await h.minds.find_study("weekly tracker")
    assert many.kind == "ambiguous" and len(many.candidates) == 5
    assert all(c.item.name.startswith("Weekly tracker") for c in many.candidates)

    missing = await h.minds.find_study("Quantum fridge teardown")
    assert missing.kind == "not_found" and missing.exhaustive
    assert missing.scanned == EXTRA_STUDIES + SEEDED_STUDIES + 2
    assert "Quantum fridge teardown" in lookup_explanation(missing)


async def test_unknown_study_id_falls_back_to_a_name_search(h: Harness) -> None:
    unknown = str(uuid.uuid4())
    result = await h.minds.find_study(unknown)
    assert result.kind == "not_found"
    assert [e.status for e in h.log.matching("GET", f"/api/v1/studies/{unknown}")] == [404]


async def test_audiences_and_minds_browse_across_pages(h: Harness) -> None:
    audiences = [a async for a in h.minds.iter_audiences()]
    assert len(audiences) == SEEDED_AUDIENCES
    assert {a.mind_count for a in audiences} == {12, 10, 16}
    found = await h.minds.find_audience("korean skincare")
    assert found.kind == "fuzzy" and found.match is not None and found.match.id == SKINCARE

    for n in range(4):  # 4 copies of 16 Minds: 38 + 64 Minds, two pages of /minds
        copy = await h.minds.duplicate_audience(SKINCARE, idempotency_key=f"copy-{n}", name=f"Skincare copy {n}")
        assert not copy.replayed and copy.audience.mind_count == 16

    minds = [m async for m in h.minds.iter_minds()]
    assert len(minds) == SEEDED_MINDS + 64 and len({m.id for m in minds}) == len(minds)
    offsets = [e.query["offset"] for e in h.log.matching("GET", "/api/v1/minds")]
    assert offsets == ["0", "100"]

    in_seoul = [m async for m in h.minds.iter_minds(search="Seoul")]
    assert 0 < len(in_seoul) < len(minds)
    assert all(m.tags == ["Korean skincare enthusiasts"] for m in in_seoul)
    assert len([a async for a in h.minds.iter_audiences()]) == SEEDED_AUDIENCES + 4


async def test_find_mind_uses_server_search(h: Harness) -> None:
    names = [m["name"] for m in h.sandbox.runtime.state.minds.values()]
    unique = next(n for n in names if names.count(n) == 1)

    found = await h.minds.find_mind(unique)

    assert found.kind == "exact" and found.match is not None and found.match.name == unique
    assert [e.query.get("search") for e in h.log.matching("GET", "/api/v1/minds")] == [unique]


async def test_audience_limits_are_readable(h: Harness) -> None:
    """Found end to end: the sandbox used to send its own field names here, so the bot read it as malformed."""
    limits = await h.minds.audience_limits()

    assert limits.per_audience_cap == 50 and not limits.locked
    assert limits.system_limit is not None and limits.system_limit >= limits.per_audience_cap
    assert [m.mode for m in limits.modes] == ["balanced", "segment_coverage", "benchmark_depth"]  # Minds' three
    balanced = limits.modes[0]
    assert balanced.automatic_sizing_ceiling is not None and balanced.explicit_count_ceiling == 50
    assert limits.scope is not None and limits.checked_at
