"""Every response the bot's requests get validates against the shared OpenAPI's declared 2xx schema."""

from __future__ import annotations

import asyncio
import uuid

import httpx

from minds_sandbox import RunningSandbox
from minds_sandbox_tests.conftest import ContractLog
from minds_sandbox_tests.helpers import (
    LAUNCH_STUDY,
    PRICING_STUDY,
    confirm,
    finish_run,
    generation_started,
    planned_revision,
)
from minds_sandbox_tests.openapi_contract import load_contract

DECLARED_OPERATIONS = {
    ("GET", "/api/v1/auth/me", 200),
    ("GET", "/api/v1/studies", 200),
    ("GET", "/api/v1/audiences", 200),
    ("GET", "/api/v1/minds", 200),
    ("GET", "/api/v1/studies/{studyId}", 200),
    ("GET", "/api/v1/audiences/{audienceId}", 200),
    ("GET", "/api/v1/minds/{mindId}", 200),
    ("GET", "/api/v1/audiences/limits", 200),
    ("POST", "/api/v1/studies", 201),
    ("GET", "/api/v1/research-methods", 200),
    ("POST", "/api/v1/studies/{studyId}/research-plans/preview", 200),
    ("POST", "/api/v1/studies/{studyId}/research-runs", 200),
    ("GET", "/api/v1/studies/{studyId}/research-runs/{runId}", 200),
    ("GET", "/api/v1/studies/{studyId}/messages/{messageId}/answers", 200),
    ("GET", "/api/v1/studies/{studyId}/summary", 200),
    ("POST", "/api/v1/studies/{studyId}/summary", 200),
    ("POST", "/api/v1/studies/{studyId}/export", 200),
    ("GET", "/api/v1/studies/{studyId}/export-status", 200),
    ("POST", "/api/v1/audiences/from-brief", 202),
    ("POST", "/api/v1/audiences/from-brief", 200),
    ("GET", "/api/v1/study-drafts", 200),
    ("GET", "/api/v1/study-templates", 200),
    ("POST", "/api/v1/study-templates/{id}/use", 201),
}


async def test_bot_requests_validate_against_declared_schemas(
    client: httpx.AsyncClient, sandbox: RunningSandbox, contract_log: ContractLog
) -> None:
    me = await client.get("/auth/me")
    assert me.status_code == 200
    studies = (await client.get("/studies")).json()["data"]
    audiences = (await client.get("/audiences", params={"limit": 2})).json()["data"]
    minds = (await client.get("/minds", params={"search": "student"})).json()["data"]
    assert {s["name"] for s in studies} == {"Launch positioning", "Pricing pulse"}
    assert minds and all("student" in f"{m['name']} {m['description']} {m['discipline']}".lower() for m in minds)
    for path in (
        f"/studies/{LAUNCH_STUDY}",
        f"/audiences/{audiences[0]['id']}",
        f"/minds/{minds[0]['id']}",
        "/audiences/limits",
        "/research-methods",
        "/study-drafts",
        f"/studies/{LAUNCH_STUDY}/summary",
        f"/studies/{LAUNCH_STUDY}/analytics",
        f"/studies/{LAUNCH_STUDY}/runs",
    ):
        assert (await client.get(path)).status_code == 200, path
    created = await client.post("/studies", json={"name": "Contract check", "audienceIds": [audiences[0]["id"]]})
    assert created.status_code == 201

    revision = await planned_revision(client, LAUNCH_STUDY, "Check reactions to a refillable deodorant")
    run_id = (await confirm(client, LAUNCH_STUDY, revision)).json()["data"]["runId"]
    run = await finish_run(client, sandbox, LAUNCH_STUDY, run_id)
    message_id = next(a["messageId"] for a in run["artifacts"] if a["kind"] == "response")
    answers = await client.get(f"/studies/{LAUNCH_STUDY}/messages/{message_id}/answers")
    assert answers.json()["messageId"] == message_id

    refresh = asyncio.ensure_future(client.post(f"/studies/{PRICING_STUDY}/summary", json={"force": True}))
    await generation_started(sandbox, PRICING_STUDY)
    sandbox.advance(sandbox.runtime.engine.step)
    assert (await asyncio.wait_for(refresh, timeout=5)).status_code == 200

    export = await client.post(f"/studies/{LAUNCH_STUDY}/export", json={"kind": "executive_brief", "format": "pdf"})
    await client.get(f"/studies/{LAUNCH_STUDY}/export-status", params={"jobId": export.json()["data"]["jobId"]})

    key = {"Idempotency-Key": str(uuid.uuid4())}
    brief = {"text": "Urban cyclists who commute daily in rainy cities", "memberCount": 5}
    assert (await client.post("/audiences/from-brief", json=brief, headers=key)).status_code == 202
    sandbox.advance(10 * sandbox.runtime.engine.step)
    assert (await client.post("/audiences/from-brief", json=brief, headers=key)).status_code == 200

    template = (await client.get("/study-templates")).json()["data"][0]
    used = await client.post(
        f"/study-templates/{template['id']}/use",
        json={"expectedRevision": template["revision"], "requestId": str(uuid.uuid4())},
    )
    assert used.status_code == 201

    assert contract_log.checked >= DECLARED_OPERATIONS
    assert contract_log.violations == []


def test_contract_check_rejects_a_wrong_shape() -> None:
    contract = load_contract()
    assert contract.errors("GET", "/api/v1/studies", 200, {"data": [{"id": "x"}]})
    assert contract.errors("GET", "/api/v1/studies", 200, {"data": []}) != []
    assert (
        contract.errors(
            "GET", "/api/v1/studies", 200, {"data": [], "pagination": {"total": 0, "limit": 1, "offset": 0}}
        )
        == []
    )


MIND_OPERATIONS = {
    ("POST", "/api/v1/minds", 201),
    ("GET", "/api/v1/minds/{mindId}/training", 200),
    ("GET", "/api/v1/minds/{mindId}", 200),
    ("PUT", "/api/v1/minds/{mindId}", 200),
    ("POST", "/api/v1/minds/{mindId}/retrain", 200),
    ("GET", "/api/v1/minds/{mindId}/knowledge", 200),
    ("POST", "/api/v1/minds/{mindId}/knowledge", 202),
    ("POST", "/api/v1/minds/{mindId}/regenerate-prompt", 200),
}


async def test_mind_operations_validate_and_training_follows_the_sandbox_clock(
    client: httpx.AsyncClient, sandbox: RunningSandbox, contract_log: ContractLog
) -> None:
    key = {"Idempotency-Key": str(uuid.uuid4())}
    body = {"name": "Nora Night-Shift", "discipline": "Nursing", "mode": "keywords", "keywords": ["night shifts"]}
    created = await client.post("/minds", json=body, headers=key)
    assert created.status_code == 201 and created.json()["training"] == {
        "status": "queued",
        "readyToChat": False,
        "message": "Waiting for a training worker",
        "startedAt": None,
        "completedAt": None,
        "error": None,
    }
    mind_id = created.json()["data"]["id"]
    again = await client.post("/minds", json=body, headers=key)
    assert again.json()["data"]["id"] == mind_id, "the same key and body return the same Mind"
    assert (await client.post("/minds", json={**body, "name": "Other"}, headers=key)).status_code == 409
    assert (await client.post(f"/minds/{mind_id}/retrain")).status_code == 409, "a retrain is already in flight"
    sandbox.advance(sandbox.runtime.engine.step)
    assert (await client.get(f"/minds/{mind_id}/training")).json()["status"] == "running"
    sandbox.advance(2 * sandbox.runtime.engine.step)
    trained = (await client.get(f"/minds/{mind_id}/training")).json()
    assert trained["status"] == "completed" and trained["readyToChat"] is True
    assert (await client.get(f"/minds/{mind_id}")).json()["data"]["readyToChat"] is True

    link = {"link": "https://example.com/night-shift-survey", "description": "Survey of night nurses"}
    added = await client.post(f"/minds/{mind_id}/knowledge", json=link)
    assert added.status_code == 202 and added.json()["data"]["processing"]["status"] == "queued"
    item_id = added.json()["data"]["id"]
    listed = (await client.get(f"/minds/{mind_id}/knowledge")).json()["data"]
    assert listed["total"] == 1 and listed["items"][0]["link"] == link["link"]
    sandbox.advance(sandbox.runtime.engine.step)
    status = (await client.get(f"/minds/{mind_id}/knowledge/{item_id}/status")).json()["data"]
    assert status["readyForRetrieval"] is True
    assert (await client.post(f"/minds/{mind_id}/retrain")).json()["status"] == "queued"
    renamed = await client.put(f"/minds/{mind_id}", json={"name": "Nora Nights"})
    assert renamed.json()["data"]["name"] == "Nora Nights"
    assert (await client.put(f"/minds/{mind_id}", json={"colour": "red"})).status_code == 400
    assert (await client.delete(f"/minds/{mind_id}/knowledge/{item_id}")).status_code == 204
    assert (await client.delete(f"/minds/{mind_id}")).status_code == 204
    assert (await client.get(f"/minds/{mind_id}/training")).status_code == 404

    manual = await client.post("/minds", json={"name": "Quiet One", "discipline": "Retail", "mode": "manual"})
    assert manual.json()["training"]["error"] == {"code": "PROFILE_GEN_FAILED", "retryable": True}
    quiet = manual.json()["data"]["id"]
    assert (await client.post(f"/minds/{quiet}/regenerate-prompt")).status_code == 500, "nothing to build from"
    await client.post(f"/minds/{quiet}/knowledge", json={"link": "https://example.com/q", "description": "Notes"})
    sandbox.advance(sandbox.runtime.engine.step)
    rebuilt = await client.post(f"/minds/{quiet}/regenerate-prompt", json={})
    assert rebuilt.json()["data"]["promptLength"] > 0
    assert (await client.get(f"/minds/{quiet}/training")).json()["readyToChat"] is True
    missing = await client.post("/minds", json={"name": "Cloned", "discipline": "Retail", "mode": "clone"})
    assert missing.status_code == 400 and "personaContext is required" in missing.json()["message"]

    assert contract_log.checked >= MIND_OPERATIONS
    assert contract_log.violations == []


MIND_EXTRA_OPERATIONS = {
    ("POST", "/api/v1/minds/{mindId}/regenerate-image", 200),
    ("GET", "/api/v1/minds/{mindId}/patterns", 200),
    ("GET", "/api/v1/minds/{mindId}/knowledge/patterns", 200),
    ("PUT", "/api/v1/minds/{mindId}/knowledge/{itemId}", 200),
    ("POST", "/api/v1/minds/{mindId}/knowledge/enrich", 202),
}


async def test_portraits_patterns_enrichment_and_batch_deletes_follow_the_openapi(
    client: httpx.AsyncClient, sandbox: RunningSandbox, contract_log: ContractLog
) -> None:
    body = {"name": "Nora Nights", "discipline": "Nursing", "mode": "keywords", "keywords": ["night shifts"]}
    mind_id = (await client.post("/minds", json=body)).json()["data"]["id"]
    first = (await client.post(f"/minds/{mind_id}/regenerate-image", json={})).json()["data"]
    assert first == {"mindId": mind_id, "name": "Nora Nights", "enqueued": True}
    kept = (await client.post(f"/minds/{mind_id}/regenerate-image")).json()["data"]
    assert kept["enqueued"] is False and kept["skippedReason"] == "image already set (pass force=true to regenerate)"
    forced = await client.post(f"/minds/{mind_id}/regenerate-image", json={"force": True, "personaContext": "A nurse"})
    assert forced.json()["data"]["enqueued"] is True
    too_long = await client.post(f"/minds/{mind_id}/regenerate-image", json={"personaContext": "x" * 16_001})
    assert too_long.status_code == 400
    assert (await client.get(f"/minds/{mind_id}")).json()["data"]["profileImageUrl"].endswith("/2.png")
    assert (await client.post(f"/minds/{mind_id}/regenerate-embeddings")).status_code == 202

    assert (await client.get(f"/minds/{mind_id}/patterns")).json() == {"data": []}, "no ready knowledge yet"
    link = {"link": "https://example.com/shifts", "description": "Shift survey"}
    item_id = (await client.post(f"/minds/{mind_id}/knowledge", json=link)).json()["data"]["id"]
    sandbox.advance(sandbox.runtime.engine.step)
    rows = (await client.get(f"/minds/{mind_id}/patterns")).json()["data"]
    assert [r["aspect"] for r in rows] == ["Openness to Experience", "Conscientiousness"]
    grouped = (await client.get(f"/minds/{mind_id}/knowledge/patterns")).json()["data"]
    assert grouped["totalPatterns"] == 2 and [f["name"] for f in grouped["frameworks"]] == ["Big Five (OCEAN)", "DISC"]

    renamed = await client.put(f"/minds/{mind_id}/knowledge/{item_id}", json={"description": "  Night survey "})
    assert renamed.json()["data"]["description"] == "Night survey" and "processing" not in renamed.json()["data"]
    assert (await client.put(f"/minds/{mind_id}/knowledge/{item_id}", json={"description": " "})).status_code == 400
    assert (await client.put(f"/minds/{mind_id}/knowledge/{item_id}", json={"link": "x"})).status_code == 400
    enriched = await client.post(f"/minds/{mind_id}/knowledge/enrich", json={"keywords": [" shoes ", "shoes", "sleep"]})
    assert enriched.status_code == 202 and enriched.json()["data"]["keywords"] == ["shoes", "sleep"]
    assert (await client.post(f"/minds/{mind_id}/knowledge/enrich", json={"keywords": []})).status_code == 400
    assert (await client.post(f"/minds/{mind_id}/knowledge/enrich", json={"keywords": [" "]})).status_code == 400
    assert (await client.get(f"/minds/{mind_id}/knowledge")).json()["data"]["total"] == 3

    other = (await client.post("/minds", json={**body, "name": "Other One"})).json()["data"]["id"]
    gone = "00000000-0000-4000-8000-000000000000"
    deleted = await client.request("DELETE", "/minds", json={"mindIds": [mind_id, other, gone]})
    assert deleted.json()["data"]["results"] == [
        {"mindId": mind_id, "deleted": True},
        {"mindId": other, "deleted": True},
        {"mindId": gone, "deleted": False, "error": "Mind not found"},
    ]
    assert (await client.request("DELETE", "/minds", json={"mindIds": []})).status_code == 400
    assert (await client.get(f"/minds/{mind_id}")).status_code == 404

    assert contract_log.checked >= MIND_EXTRA_OPERATIONS
    assert contract_log.violations == []
