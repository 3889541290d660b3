"""Small request helpers shared by the sandbox tests."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import httpx

from minds_sandbox import RunningSandbox
from minds_sandbox.ids import stable_id

LAUNCH_STUDY = stable_id("study", "Launch positioning")
PRICING_STUDY = stable_id("study", "Pricing pulse")
TERMINAL = {"completed", "partial", "failed", "cancelled", "plan_limited"}


async def plan(
    client: httpx.AsyncClient, study_id: str, body: dict[str, Any], *, key: str | None = None
) -> httpx.Response:
    headers = {"Idempotency-Key": key} if key else {}
    return await client.post(f"/studies/{study_id}/research-plans/preview", json=body, headers=headers)


async def confirm(client: httpx.AsyncClient, study_id: str, revision: dict[str, Any]) -> httpx.Response:
    return await client.post(
        f"/studies/{study_id}/research-runs",
        json={
            "draftPlanId": revision["draftPlanId"],
            "revision": revision["revision"],
            "confirmation": {"accepted": True},
            "idempotencyKey": str(uuid.uuid4()),
        },
    )


async def finish_run(
    client: httpx.AsyncClient, sandbox: RunningSandbox, study_id: str, run_id: str, *, max_steps: int = 50
) -> dict[str, Any]:
    """Advance the manual clock one step at a time until the run is terminal (bounded)."""
    for _ in range(max_steps):
        body = (await client.get(f"/studies/{study_id}/research-runs/{run_id}")).json()["data"]
        if body["status"] in TERMINAL:
            return body
        sandbox.advance(sandbox.runtime.engine.step)
    raise AssertionError(f"run {run_id} did not finish within {max_steps} steps")


async def planned_revision(client: httpx.AsyncClient, study_id: str, request: str) -> dict[str, Any]:
    response = await plan(client, study_id, {"request": request}, key=str(uuid.uuid4()))
    assert response.status_code == 200, response.text
    return response.json()["data"]


async def generation_started(sandbox: RunningSandbox, study_id: str, *, revision: int | None = None) -> None:
    """Yield to the server until a summary generation (of this revision) is registered; bounded."""
    study = sandbox.runtime.state.studies[study_id]
    for _ in range(10_000):
        generation = study.get("summaryGeneration")
        if generation and (revision is None or generation["revision"] == revision):
            return
        await asyncio.sleep(0)
    raise AssertionError("summary generation never started")
