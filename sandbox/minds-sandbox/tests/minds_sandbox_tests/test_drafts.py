"""Study drafts in the sandbox: created (a repeated key gives the same draft), listed while active, consumed
once (stale revisions refused, repeats return the record), deleted with an empty 204 — replies matching the
declared schemas."""

from __future__ import annotations

import httpx

from minds_sandbox_tests.conftest import ContractLog


async def test_draft_lifecycle(client: httpx.AsyncClient, contract_log: ContractLog) -> None:
    body = {"name": "Cups", "payload": {"version": 1, "state": {"studyId": "s"}}, "idempotencyKey": "key-1"}
    first = await client.post("/study-drafts", json=body)
    again = await client.post("/study-drafts", json=body)
    assert first.status_code == again.status_code == 201
    draft = first.json()["data"]
    assert again.json()["data"]["id"] == draft["id"] and draft["payload"]["state"] == {"studyId": "s"}
    listed = (await client.get("/study-drafts")).json()["data"]
    assert draft["id"] in [d["id"] for d in listed]

    stale = await client.post(f"/study-drafts/{draft['id']}/consume", json={"expectedRevision": 9})
    assert stale.status_code == 409
    consumed = await client.post(f"/study-drafts/{draft['id']}/consume", json={"expectedRevision": 1})
    repeat = await client.post(f"/study-drafts/{draft['id']}/consume", json={"expectedRevision": 1})
    assert consumed.json()["data"]["status"] == repeat.json()["data"]["status"] == "consumed"
    assert draft["id"] not in [d["id"] for d in (await client.get("/study-drafts")).json()["data"]]

    deleted = await client.delete(f"/study-drafts/{draft['id']}")
    assert deleted.status_code == 204 and deleted.content == b""
    assert (await client.delete(f"/study-drafts/{draft['id']}")).status_code == 404
    assert ("POST", "/api/v1/study-drafts", 201) in contract_log.checked
    assert contract_log.violations == []
