"""A Study taken from plan to downloaded export over plain HTTP."""

from __future__ import annotations

import csv
import io
import uuid

import httpx

from minds_sandbox import RunningSandbox
from minds_sandbox_tests.helpers import LAUNCH_STUDY, confirm, finish_run, plan


async def test_plan_confirm_run_export_download(client: httpx.AsyncClient, sandbox: RunningSandbox) -> None:
    key = str(uuid.uuid4())
    first = await plan(client, LAUNCH_STUDY, {"request": "Test our new oat-milk energy drink for students"}, key=key)
    assert first.status_code == 200
    draft = first.json()["data"]
    assert draft["revision"] == 1 and 3 <= len(draft["questions"]) <= 8
    cq = draft["confirmationQuestions"][0]
    answered = await plan(
        client,
        LAUNCH_STUDY,
        {"draftPlanId": draft["draftPlanId"], "revision": 1, "answers": {cq["id"]: cq["options"][0]}},
        key=str(uuid.uuid4()),
    )
    assert answered.status_code == 200
    revised = answered.json()["data"]
    assert revised["revision"] == 2 and revised["confirmationQuestions"] == []

    started = await confirm(client, LAUNCH_STUDY, revised)
    assert started.status_code == 200
    run_id = started.json()["data"]["runId"]
    assert started.json()["data"]["status"] == "queued"

    run = await finish_run(client, sandbox, LAUNCH_STUDY, run_id)
    assert run["status"] == "completed"
    assert run["progress"]["pct"] == 100 and run["progress"]["settled"] == len(revised["questions"])

    started_export = await client.post(f"/studies/{LAUNCH_STUDY}/export", json={"kind": "raw_data", "format": "csv"})
    job_id = started_export.json()["data"]["jobId"]
    sandbox.advance(sandbox.runtime.engine.step)
    status = (await client.get(f"/studies/{LAUNCH_STUDY}/export-status", params={"jobId": job_id})).json()["data"]
    assert status["status"] == "completed"

    redirect = await client.get(f"/studies/{LAUNCH_STUDY}/export-download", params={"jobId": job_id})
    assert redirect.status_code == 302
    async with httpx.AsyncClient() as anonymous:
        file = await anonymous.get(redirect.headers["location"])
    assert file.status_code == 200
    rows = list(csv.DictReader(io.StringIO(file.text)))
    assert {r["run_id"] for r in rows} >= {run_id}
