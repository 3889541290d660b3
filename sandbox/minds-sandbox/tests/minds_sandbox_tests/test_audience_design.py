"""Designing an Audience's sample against the sandbox: an Audience from chosen Minds (declared 201/200 shapes, its
idempotency key, no public link unless asked, missing Minds 404), a respondent dataset's segmentation preview
(every completed row used, outcomes held out, screeners refused, only this account's uploads read) and a build from
a brief with its options (size, mode, links, public link, the reviewed segmentation needing benchmark_depth)."""

from __future__ import annotations

import uuid

import httpx

from minds_sandbox import RunningSandbox
from minds_sandbox_tests.conftest import ContractLog, make_client

DATASET = (
    "respondent_id,age_band,region,nps\n"
    "r1,18-34,North,9\n"
    "r2,18-34,South,7\n"
    "r3,35-54,North,8\n"
    "r4,35-54,North,\n"  # not completed: never used
    "r5,55+,South,10\n"
)
GRID = "question,type,options\nQ1,single,Yes|No\nQ2,scale,1-5\n"
PREVIEW = "/audiences/from-brief/segmentation-preview"


async def _upload(client: httpx.AsyncClient, name: str, content: str) -> str:
    imported = await client.post("/audiences/source-import", json={"files": [{"name": name, "content": content}]})
    assert imported.status_code == 200
    return str(imported.json()["data"]["files"][0]["url"])


async def test_an_audience_from_chosen_minds(client: httpx.AsyncClient, contract_log: ContractLog) -> None:
    minds = (await client.get("/minds", params={"limit": 3})).json()["data"]
    ids = [m["id"] for m in minds]
    key = {"x-minds-idempotency-key": str(uuid.uuid4())}
    body = {"name": "  Coffee fans  ", "mindIds": [ids[0], ids[1], ids[0]]}
    created = await client.post("/audiences", json=body, headers=key)
    assert created.status_code == 201
    data = created.json()["data"]
    assert (data["name"], data["mindIds"], data["mindCount"]) == ("Coffee fans", ids[:2], 2)
    assert data["isLinkSharingEnabled"] is False and data["publicShareId"] is None
    again = await client.post("/audiences", json=body, headers=key)
    assert again.status_code == 200 and again.json()["data"]["id"] == data["id"]
    listed = (await client.get(f"/audiences/{data['id']}")).json()["data"]
    assert [m["id"] for m in listed["minds"]] == ids[:2]
    shared = await client.post("/audiences", json={"name": "Open", "mindIds": ids[:1], "isLinkSharingEnabled": True})
    assert shared.json()["data"]["isLinkSharingEnabled"] is True and shared.json()["data"]["publicShareId"]
    missing = await client.post("/audiences", json={"name": "Ghosts", "mindIds": ["no-such-mind"]})
    assert missing.status_code == 404
    blank = await client.post("/audiences", json={"name": "   ", "mindIds": ids[:1]})
    assert blank.status_code == 400
    assert {("POST", "/api/v1/audiences", 201), ("POST", "/api/v1/audiences", 200)} <= contract_log.checked
    assert contract_log.violations == []


async def test_a_dataset_preview_uses_every_completed_row_and_holds_outcomes_out(client: httpx.AsyncClient) -> None:
    url = await _upload(client, "panel.csv", DATASET)
    reply = await client.post(PREVIEW, json={"file": {"name": "panel.csv", "url": url}})
    assert reply.status_code == 200 and reply.headers["Cache-Control"] == "private, no-store"
    data = reply.json()["data"]
    assert data["rows"] == {"total": 5, "completed": 4, "used": 4}
    roles = {v["key"]: (v["role"], v["selected"]) for v in data["variables"]}
    assert roles == {
        "respondent_id": ("identifier", False),
        "age_band": ("structural", True),
        "region": ("structural", True),
        "nps": ("outcome", False),
    }
    ages = next(v for v in data["variables"] if v["key"] == "age_band")["distribution"]
    assert [(s["label"], s["count"]) for s in ages] == [("18-34", 2), ("35-54", 1), ("55+", 1)]
    assert data["segmentationColumns"] == ["age_band", "region"] and data["relationshipCount"] == 1
    assert data["recommendedMindCount"] == 4  # never more Minds than respondents
    narrowed = await client.post(
        PREVIEW, json={"file": {"name": "panel.csv", "url": url}, "segmentationColumns": ["region"]}
    )
    assert narrowed.json()["data"]["segmentationColumns"] == ["region"]


async def test_a_screener_a_spreadsheet_and_a_foreign_url_are_refused(
    client: httpx.AsyncClient, sandbox: RunningSandbox
) -> None:
    grid = await _upload(client, "screener.csv", GRID)
    refused = await client.post(PREVIEW, json={"file": {"name": "screener.csv", "url": grid}})
    assert refused.status_code == 400 and refused.json()["data"]["code"] == "QUESTIONNAIRE_NOT_RESPONDENT_DATA"
    xlsx = await client.post(PREVIEW, json={"file": {"name": "panel.xlsx", "url": grid}})
    assert xlsx.status_code == 400
    outside = await client.post(PREVIEW, json={"file": {"name": "panel.csv", "url": "https://example.com/p.csv"}})
    assert outside.status_code == 400 and outside.json()["data"]["code"] == "DATASET_UNREACHABLE"
    url = await _upload(client, "panel.csv", DATASET)
    async with make_client(sandbox, ContractLog(), key="minds_" + "b" * 48) as other:
        foreign = await other.post(PREVIEW, json={"file": {"name": "panel.csv", "url": url}})
    assert foreign.status_code == 400
    huge = await client.post(PREVIEW, json={"file": {"name": "panel.csv", "url": "x" * 300_000}})
    assert huge.status_code == 413, huge.text


async def test_a_build_from_a_brief_keeps_its_options(client: httpx.AsyncClient, sandbox: RunningSandbox) -> None:
    url = await _upload(client, "panel.csv", DATASET)
    preview = (await client.post(PREVIEW, json={"file": {"name": "panel.csv", "url": url}})).json()["data"]
    brief = {
        "text": "Commuters in Lyon who cycle",
        "name": "Lyon cyclists",
        "links": ["https://example.com/report"],
        "audienceCreationMode": "segment_coverage",
        "datasetSegmentation": preview,
    }
    wrong_mode = await client.post("/audiences/from-brief", json=brief, headers={"Idempotency-Key": "k-1"})
    assert wrong_mode.status_code == 400 and wrong_mode.json()["data"]["code"] == "MODE_REQUIRED"
    brief |= {"audienceCreationMode": "benchmark_depth", "isLinkSharingEnabled": True}
    job = (await client.post("/audiences/from-brief", json=brief, headers={"Idempotency-Key": "k-2"})).json()["data"]
    sandbox.advance(10 * sandbox.runtime.engine.step)
    done = (await client.get(f"/audiences/from-brief/jobs/{job['jobId']}")).json()["data"]["result"]
    assert (done["name"], done["mindCount"], done["audienceCreationMode"]) == ("Lyon cyclists", 4, "benchmark_depth")
    assert done["isLinkSharingEnabled"] is True and done["publicShareId"]
    private = {"text": "Parents of toddlers in Leeds", "memberCount": 3}
    job = (await client.post("/audiences/from-brief", json=private, headers={"Idempotency-Key": "k-3"})).json()["data"]
    sandbox.advance(10 * sandbox.runtime.engine.step)
    done = (await client.get(f"/audiences/from-brief/jobs/{job['jobId']}")).json()["data"]["result"]
    assert done["isLinkSharingEnabled"] is False and done["audienceCreationMode"] == "balanced"
    limits = (await client.get("/audiences/limits")).json()["data"]
    assert [m["mode"] for m in limits["modes"]] == ["balanced", "segment_coverage", "benchmark_depth"]
