"""Client parsing for the research tools: malformed replies are errors, never empty or "delivered"."""

from __future__ import annotations

import hashlib

import pytest

from minds_bot.minds import MalformedResponse, MindsClient, ServerError
from tests.fakes.minds_http import FakeMindsAPI, envelope, ok, raw
from tests.minds.samples import AUDIENCE_ID, STUDY_ID, audience, uid


def formation(n: int, *, count: object = 3) -> dict[str, object]:
    subgroup = {"id": uid(100 + n), "label": "18-24", "isAuxiliary": False, "position": 0, "_count": count}
    return {"id": uid(n), "name": f"F{n}", "status": "ready", "subgroups": [subgroup]}


async def test_formations_follow_next_offset_while_has_more(api: FakeMindsAPI, client: MindsClient) -> None:
    path = f"/audiences/{AUDIENCE_ID}/formations"
    more = {"hasMore": True, "nextOffset": 1, "totalCount": 2}
    api.on(
        "GET",
        path,
        raw({"data": [formation(1, count={"memberships": 3})], "pagination": more}),
        raw({"data": [formation(2, count={"memberships": 4})], "pagination": {"hasMore": False}}),
    )
    formations = await client.list_formations(AUDIENCE_ID)
    assert [f.name for f in formations] == ["F1", "F2"]
    assert [s.params.get("offset") for s in api.to("GET", path)] == [None, "1"]


@pytest.mark.parametrize(
    "payload",
    [
        {"data": [formation(1, count={})]},  # a missing member count is not zero
        {"data": {"items": []}},
        {"data": [formation(1, count={"memberships": 1})], "pagination": {"hasMore": True, "nextOffset": 0}},
        {"data": [], "pagination": {"hasMore": True, "nextOffset": 5}},
    ],
)
async def test_malformed_formation_lists_are_errors(api: FakeMindsAPI, client: MindsClient, payload: object) -> None:
    api.on("GET", f"/audiences/{AUDIENCE_ID}/formations", raw(payload))
    with pytest.raises(MalformedResponse):
        await client.list_formations(AUDIENCE_ID)


async def test_invitations_without_email_failures_are_malformed(api: FakeMindsAPI, client: MindsClient) -> None:
    api.on("POST", f"/studies/{STUDY_ID}/invitations", ok({"invited": ["a@example.com"]}))
    with pytest.raises(MalformedResponse):
        await client.invite_to_study(STUDY_ID, emails=["a@example.com"])


async def test_an_invitation_that_fails_on_the_server_is_never_resent(api: FakeMindsAPI, client: MindsClient) -> None:
    api.on("POST", f"/studies/{STUDY_ID}/invitations", envelope(500, message="busy"))
    with pytest.raises(ServerError):
        await client.invite_to_study(STUDY_ID, emails=["a@example.com"])
    assert len(api.to("POST", f"/studies/{STUDY_ID}/invitations")) == 1


async def test_a_recalibration_that_fails_on_the_server_is_never_resent(api: FakeMindsAPI, client: MindsClient) -> None:
    api.on("POST", f"/audiences/{AUDIENCE_ID}/recalibrate", envelope(502, message="bad gateway"))
    with pytest.raises(ServerError):
        await client.recalibrate_audience(AUDIENCE_ID, instruction="x")
    assert len(api.to("POST", f"/audiences/{AUDIENCE_ID}/recalibrate")) == 1


async def test_selection_mode_sends_the_review_universes_entries_exactly_as_minds_gave_them(
    api: FakeMindsAPI, client: MindsClient
) -> None:
    region = {
        "name": "Region",
        "tier": "target",
        "distribution": [{"label": "Urban", "pct": 70, "sourceIdx": 0, "review": {"status": "included"}}],
    }
    grounding = {"distributions": [], "reviewDistributions": [region]}
    detail = {**audience(0, "Parents"), "isPublic": False, "grounding": grounding}
    api.on("GET", f"/audiences/{AUDIENCE_ID}", ok(detail))
    done = {"refreshedMembers": 0, "evolvedMembers": 0, "retrainingMembers": 4, "addedMembers": 0}
    api.on("POST", f"/audiences/{AUDIENCE_ID}/recalibrate", ok(done), ok(done))
    parents = await client.get_audience(AUDIENCE_ID)
    assert parents.grounding is not None
    await client.recalibrate_audience(AUDIENCE_ID, distributions=parents.grounding.review_distributions)
    await client.recalibrate_audience(AUDIENCE_ID, distributions=[])
    sent = [s.json() for s in api.to("POST", f"/audiences/{AUDIENCE_ID}/recalibrate")]
    assert sent == [{"distributions": [region]}, {"distributions": []}]
    with pytest.raises(ValueError):
        await client.recalibrate_audience(AUDIENCE_ID, distributions=[], query="Austria")
    assert len(api.to("POST", f"/audiences/{AUDIENCE_ID}/recalibrate")) == 2


async def test_research_mode_sends_the_query_and_extra_sources(api: FakeMindsAPI, client: MindsClient) -> None:
    done = {"refreshedMembers": 0, "evolvedMembers": 3, "retrainingMembers": 3, "addedMembers": 0}
    api.on("POST", f"/audiences/{AUDIENCE_ID}/recalibrate", ok(done))
    await client.recalibrate_audience(AUDIENCE_ID, query="Austria", links=["https://a.example"], keywords=["x"])
    [sent] = api.to("POST", f"/audiences/{AUDIENCE_ID}/recalibrate")
    assert sent.json() == {"query": "Austria", "sources": {"links": ["https://a.example"], "keywords": ["x"]}}


async def test_model_connections_keep_only_declared_flags(api: FakeMindsAPI, client: MindsClient) -> None:
    connection = {
        "id": uid(1),
        "verifiedAt": "2026-01-01T00:00:00Z",
        "capabilities": {"chat": True, "probe": {"raw": "secret"}},
        "credentials": {"apiKey": "sk-live"},
    }
    api.on("GET", "/model-connections", raw({"data": [connection], "pagination": {"nextCursor": None}}))
    [only] = await client.model_connections()
    assert only.verified and only.capabilities == {"chat": True}
    assert "sk-live" not in repr(only)


def imported(*items: tuple[str, str]) -> dict[str, object]:
    files = [{"name": n, "url": f"https://m/{n}", "sha256": hashlib.sha256(c.encode()).hexdigest()} for n, c in items]
    return {"files": files, "sourcePolicy": "supplied_files"}


async def test_an_import_is_verified_by_count_order_and_checksum(api: FakeMindsAPI, client: MindsClient) -> None:
    sent = [("a.csv", "x,y\n1,2\n"), ("b.md", "# B")]
    api.on(
        "POST",
        "/audiences/source-import",
        ok(imported(*sent)),
        ok(imported(*reversed(sent))),
        ok(imported(sent[0])),
        ok(imported(("a.csv", "tampered"), sent[1])),
        ok({"files": imported(*sent)["files"]}),  # no source policy
    )
    result = await client.import_audience_sources(sent)
    assert [f.name for f in result.files] == ["a.csv", "b.md"]
    for _ in range(4):
        with pytest.raises(MalformedResponse):
            await client.import_audience_sources(sent)


async def test_an_import_after_a_storage_failure_is_repeated_unchanged(api: FakeMindsAPI, client: MindsClient) -> None:
    sent = [("a.csv", "x")]
    api.on("POST", "/audiences/source-import", envelope(502, message="storage"), ok(imported(*sent)))
    await client.import_audience_sources(sent)
    first, second = api.to("POST", "/audiences/source-import")
    assert first.body == second.body
