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


async def test_a_draft_is_read_by_id_and_edited_with_its_revision(
    client: httpx.AsyncClient, contract_log: ContractLog
) -> None:
    body = {"name": "Cups", "payload": {"version": 1, "state": {"questions": [{"text": "Why?"}]}}}
    draft = (await client.post("/study-drafts", json=body)).json()["data"]
    read = (await client.get(f"/study-drafts/{draft['id']}")).json()["data"]
    assert read == draft

    edited = await client.patch(f"/study-drafts/{draft['id']}", json={"expectedRevision": 1, "name": "Cups v2"})
    assert edited.status_code == 200 and edited.json()["data"]["name"] == "Cups v2"
    assert edited.json()["data"]["revision"] == 2 and edited.json()["data"]["payload"] == draft["payload"]
    same = await client.patch(f"/study-drafts/{draft['id']}", json={"expectedRevision": 2, "name": "Cups v2"})
    assert same.json()["data"]["revision"] == 2, "an unchanged state keeps its revision"
    stale = await client.patch(f"/study-drafts/{draft['id']}", json={"expectedRevision": 1, "name": "Cups v3"})
    assert stale.status_code == 409
    assert (await client.get("/study-drafts/00000000-0000-4000-8000-000000000000")).status_code == 404
    assert ("GET", "/api/v1/study-drafts/{id}", 200) in contract_log.checked
    assert ("PATCH", "/api/v1/study-drafts/{id}", 200) in contract_log.checked


async def test_a_template_is_read_edited_with_its_revision_and_deleted(
    client: httpx.AsyncClient, contract_log: ContractLog
) -> None:
    template = (await client.get("/study-templates")).json()["data"][0]
    read = (await client.get(f"/study-templates/{template['id']}")).json()["data"]
    assert read == template
    config = template["configuration"] | {"questions": [{"text": "First?", "response": {"type": "qualitative"}}]}
    edited = await client.patch(
        f"/study-templates/{template['id']}",
        json={"expectedRevision": template["revision"], "name": "Renamed", "configuration": config},
    )
    assert edited.status_code == 200
    saved = edited.json()["data"]
    assert saved["name"] == "Renamed" and saved["revision"] == template["revision"] + 1
    assert [q["text"] for q in saved["configuration"]["questions"]] == ["First?"]
    stale = await client.patch(
        f"/study-templates/{template['id']}", json={"expectedRevision": template["revision"], "name": "Again"}
    )
    assert stale.status_code == 409
    nothing = await client.patch(f"/study-templates/{template['id']}", json={"expectedRevision": saved["revision"]})
    assert nothing.status_code == 400

    deleted = await client.delete(f"/study-templates/{template['id']}")
    assert deleted.status_code == 200 and deleted.json() == {"success": True}
    assert (await client.get(f"/study-templates/{template['id']}")).status_code == 404
    assert ("DELETE", "/api/v1/study-templates/{id}", 200) in contract_log.checked
    assert ("PATCH", "/api/v1/study-templates/{id}", 200) in contract_log.checked
