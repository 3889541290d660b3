"""State survives a restart with a database file, and the same seed gives the same answers."""

from __future__ import annotations

from pathlib import Path

from minds_sandbox import ManualClock, SandboxConfig
from minds_sandbox_tests.conftest import sandbox_client
from minds_sandbox_tests.helpers import LAUNCH_STUDY, confirm, finish_run, planned_revision


async def test_run_in_progress_resumes_after_restart(tmp_path: Path) -> None:
    config = SandboxConfig(db_path=tmp_path / "sandbox.db")
    clock = ManualClock()
    async with sandbox_client(config, clock=clock) as (sandbox, client):
        revision = await planned_revision(client, LAUNCH_STUDY, "Test a recycled yoga mat")
        run_id = (await confirm(client, LAUNCH_STUDY, revision)).json()["data"]["runId"]
        sandbox.advance(2 * sandbox.runtime.engine.step)
        before = (await client.get(f"/studies/{LAUNCH_STUDY}/research-runs/{run_id}")).json()["data"]
    assert before["status"] == "running" and 0 < before["progress"]["settled"] < before["progress"]["total"]
    async with sandbox_client(config, clock=clock) as (restarted, client):
        resumed = (await client.get(f"/studies/{LAUNCH_STUDY}/research-runs/{run_id}")).json()["data"]
        assert resumed["progress"]["settled"] == before["progress"]["settled"]
        finished = await finish_run(client, restarted, LAUNCH_STUDY, run_id)
        latest = await client.post(
            f"/studies/{LAUNCH_STUDY}/research-plans/preview",
            json={"draftPlanId": revision["draftPlanId"], "loadLatest": True},
        )
    assert finished["status"] == "completed"
    assert finished["artifacts"][0] == resumed["artifacts"][0]
    assert latest.json()["data"]["questions"] == revision["questions"]


async def _answers_for(seed: int) -> list:
    async with sandbox_client(SandboxConfig(seed=seed), clock=ManualClock()) as (sandbox, client):
        revision = await planned_revision(client, LAUNCH_STUDY, "Test a recycled yoga mat")
        run_id = (await confirm(client, LAUNCH_STUDY, revision)).json()["data"]["runId"]
        run = await finish_run(client, sandbox, LAUNCH_STUDY, run_id)
        message = run["artifacts"][2]["messageId"]
        answers = await client.get(f"/studies/{LAUNCH_STUDY}/messages/{message}/answers")
    return [run["artifacts"], answers.json()]


async def test_same_seed_gives_same_answers() -> None:
    first, second, other = await _answers_for(7), await _answers_for(7), await _answers_for(8)
    assert first == second
    assert first != other
