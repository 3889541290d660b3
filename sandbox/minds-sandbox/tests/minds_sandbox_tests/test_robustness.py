"""Bad input gets a clear envelope, never a crash; auth and signed downloads behave."""

from __future__ import annotations

import httpx
import pytest

from minds_sandbox import RunningSandbox
from minds_sandbox.runtime import SIGNED_URL_TTL_SECONDS
from minds_sandbox_tests.helpers import LAUNCH_STUDY

ENVELOPE_KEYS = {"statusCode", "statusMessage", "message", "url", "error"}


def assert_envelope(response: httpx.Response, status: int) -> dict:
    body = response.json()
    assert response.status_code == status and body.keys() >= ENVELOPE_KEYS and body["error"] is True
    assert body["statusCode"] == status
    return body


async def test_bad_json_is_400(client: httpx.AsyncClient) -> None:
    response = await client.post("/studies", content=b"{not json", headers={"Content-Type": "application/json"})
    assert_envelope(response, 400)
    assert_envelope(await client.post("/studies", json=["a list"]), 400)
    assert_envelope(await client.post("/studies", json={"name": 5}), 400)


async def test_unknown_route_and_id_are_404(client: httpx.AsyncClient) -> None:
    assert_envelope(await client.get("/no/such/route"), 404)
    assert_envelope(await client.get("/studies/00000000-0000-0000-0000-000000000000"), 404)
    assert_envelope(await client.delete("/studies"), 405)


@pytest.mark.parametrize("header", [None, "Bearer nope", "Bearer minds_" + "A" * 48, "Basic x"])
async def test_missing_or_malformed_key_is_401(sandbox: RunningSandbox, header: str | None) -> None:
    headers = {"Authorization": header} if header else {}
    async with httpx.AsyncClient(base_url=sandbox.base_url) as anonymous:
        body = assert_envelope(await anonymous.get("/studies", headers=headers), 401)
    assert "minds_" not in body["message"]


@pytest.mark.parametrize(
    "body",
    [
        {"request": "x", "questions": [{"text": "y"}]},
        {},
        {"questions": []},
        {"questions": "nope"},
        {"questions": [5]},
        {"questions": [{"text": "a", "askIf": 3}]},
        {"draftPlanId": "missing", "revision": 1, "answers": {}},
        {"edits": {"questions": []}},
    ],
)
async def test_bad_plan_requests_get_clear_errors(client: httpx.AsyncClient, body: dict) -> None:
    response = await client.post(f"/studies/{LAUNCH_STUDY}/research-plans/preview", json=body)
    assert response.status_code in (400, 404)
    assert response.json()["message"]


async def test_signed_download_needs_no_key_but_a_valid_unexpired_signature(
    client: httpx.AsyncClient, sandbox: RunningSandbox
) -> None:
    job = (await client.post(f"/studies/{LAUNCH_STUDY}/export", json={"format": "md"})).json()["data"]["jobId"]
    not_ready = await client.get(f"/studies/{LAUNCH_STUDY}/export-download", params={"jobId": job})
    assert_envelope(not_ready, 409)
    sandbox.advance(sandbox.runtime.engine.step)
    location = (await client.get(f"/studies/{LAUNCH_STUDY}/export-download", params={"jobId": job})).headers["location"]
    async with httpx.AsyncClient() as anonymous:
        assert (await anonymous.get(location)).text.startswith("# Launch positioning")
        assert_envelope(await anonymous.get(location[:-1] + ("0" if location[-1] != "0" else "1")), 403)
        sandbox.advance(SIGNED_URL_TTL_SECONDS + 1)
        assert_envelope(await anonymous.get(location), 403)
        assert_envelope(await anonymous.get(f"{sandbox.base_url}/studies/{LAUNCH_STUDY}/export-download"), 401)
