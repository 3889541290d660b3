"""The per-key response allowance: refused before start; plan_limited mid-run keeps completed questions."""

from __future__ import annotations

import httpx

from minds_sandbox import ManualClock, SandboxConfig
from minds_sandbox_tests.conftest import OTHER_KEY, ContractLog, make_client, sandbox_client
from minds_sandbox_tests.helpers import LAUNCH_STUDY, PRICING_STUDY, confirm, finish_run, planned_revision

LAUNCH_MINDS = 12 + 16  # the two demo Audiences attached to "Launch positioning"


async def test_spent_allowance_refuses_before_start() -> None:
    async with sandbox_client(SandboxConfig(response_allowance=0), clock=ManualClock()) as (sandbox, client):
        revision = await planned_revision(client, LAUNCH_STUDY, "Test a new sneaker drop")
        refused = await confirm(client, LAUNCH_STUDY, revision)
        direct = await client.post(f"/studies/{PRICING_STUDY}/runs", json={"question": "Is $10 fair?"})
    assert refused.status_code == 403
    data = refused.json()["data"]
    assert data["code"] == "PLAN_LIMIT" and data["limitType"] == "responses"
    assert {"currentPlan", "limit", "current", "periodEnd"} <= data.keys()
    assert direct.status_code == 403
    assert not any(r["studyId"] == LAUNCH_STUDY and r["keyFp"] for r in sandbox.runtime.state.runs.values())


async def test_allowance_spent_mid_run_keeps_completed_questions() -> None:
    config = SandboxConfig(response_allowance=LAUNCH_MINDS * 2)
    async with sandbox_client(config, clock=ManualClock()) as (sandbox, client):
        revision = await planned_revision(
            client,
            LAUNCH_STUDY,
            "1. Do you run?\n2. Rate running 1-5\n3. Why do you run?\n4. Where do you run?",
        )
        run_id = (await confirm(client, LAUNCH_STUDY, revision)).json()["data"]["runId"]
        run = await finish_run(client, sandbox, LAUNCH_STUDY, run_id)
        again = await planned_revision(client, LAUNCH_STUDY, "Gauge interest in trail shoes")
        refused = await confirm(client, LAUNCH_STUDY, again)
        async with make_client(sandbox, ContractLog(), key=OTHER_KEY) as other:
            other_key_run = await confirm(other, LAUNCH_STUDY, again)
    assert run["status"] == "plan_limited"
    assert run["completedQuestions"] == 2 and len(run["artifacts"]) == 2
    assert "answerConsistency" not in run
    assert refused.status_code == 403
    assert other_key_run.status_code == 200  # allowances are per key


async def test_allowance_can_be_changed_through_control(sandbox, client: httpx.AsyncClient) -> None:
    async with httpx.AsyncClient() as control:
        changed = await control.put(f"{sandbox.origin}/_sandbox/allowance", json={"limit": 0})
    assert changed.status_code == 200
    revision = await planned_revision(client, LAUNCH_STUDY, "Test a new sneaker drop")
    assert (await confirm(client, LAUNCH_STUDY, revision)).status_code == 403
