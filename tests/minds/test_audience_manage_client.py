"""Managing an Audience through the client: a delete is proved only by an empty reply, a preview only by Minds'
``success: true`` and a full hypothesis, a Formation read only by that same Formation (catalogue rules 18, 23)."""

from __future__ import annotations

import pytest

from minds_bot.minds import MalformedResponse, MindsClient
from tests.fakes.minds_http import FakeMindsAPI, ok, raw
from tests.minds.samples import AUDIENCE_ID, MIND_ID, uid

BASE = f"/audiences/{AUDIENCE_ID}"
HYPOTHESIS = {
    "intent": "Audience by age",
    "subgroups": [
        {"id": "young", "label": "Under 30", "definition": "Aged under 30"},
        {"id": "older", "label": "30 and over", "definition": "Aged 30 or more"},
    ],
}
PREVIEW = {"memberCount": 12, "softWarn": False, "hardCapExceeded": False, "phase": "hypothesizing"}


@pytest.mark.parametrize(
    ("path", "call"),
    [
        (BASE, lambda m: m.delete_audience(AUDIENCE_ID)),
        (f"{BASE}/members/{MIND_ID}", lambda m: m.remove_audience_member(AUDIENCE_ID, MIND_ID)),
        (f"{BASE}/formations/{uid(7)}", lambda m: m.delete_formation(AUDIENCE_ID, uid(7))),
    ],
)
async def test_a_delete_answered_with_a_body_is_no_proof(api: FakeMindsAPI, client: MindsClient, path, call) -> None:
    api.on("DELETE", path, raw({"deleted": True}))
    with pytest.raises(MalformedResponse):
        await call(client)


@pytest.mark.parametrize(
    "payload",
    [
        {"data": {**PREVIEW, "hypothesis": HYPOTHESIS}},  # no success flag
        {"success": True, "data": {**PREVIEW, "hypothesis": {**HYPOTHESIS, "subgroups": HYPOTHESIS["subgroups"][:1]}}},
        {"success": True, "data": {"hypothesis": HYPOTHESIS}},  # counts missing
    ],
)
async def test_a_malformed_preview_is_an_error(api: FakeMindsAPI, client: MindsClient, payload: object) -> None:
    api.on("POST", f"{BASE}/formations/preview", raw(payload))
    with pytest.raises(MalformedResponse):
        await client.preview_formation(AUDIENCE_ID, user_input="by age")


async def test_the_preview_asks_for_json_and_trims_the_request_to_2000_characters(
    api: FakeMindsAPI, client: MindsClient
) -> None:
    api.on("POST", f"{BASE}/formations/preview", raw({"success": True, "data": {**PREVIEW, "hypothesis": HYPOTHESIS}}))
    preview = await client.preview_formation(AUDIENCE_ID, user_input="  " + "x" * 2500 + "  ")
    sent = api.to("POST", f"{BASE}/formations/preview")[0]
    assert sent.headers["accept"] == "application/json"
    assert len(sent.json()["userInput"]) == 2000
    assert [s.label for s in preview.hypothesis.subgroups] == ["Under 30", "30 and over"]


async def test_a_formation_read_that_names_another_formation_is_an_error(
    api: FakeMindsAPI, client: MindsClient
) -> None:
    other = {"id": uid(8), "name": "Age", "status": "ready", "source": "manual", "visibility": "shared"}
    other |= {"canMutate": True, "subgroups": [], "hypothesis": {}, "progress": None}
    api.on("GET", f"{BASE}/formations/{uid(7)}", ok(other))
    with pytest.raises(MalformedResponse):
        await client.get_formation(AUDIENCE_ID, uid(7))


async def test_members_are_sent_once_each(api: FakeMindsAPI, client: MindsClient) -> None:
    api.on("POST", f"{BASE}/members", ok({"added": 1}))
    await client.add_audience_members(AUDIENCE_ID, [MIND_ID, MIND_ID])
    assert api.to("POST", f"{BASE}/members")[0].json() == {"mindIds": [MIND_ID]}
