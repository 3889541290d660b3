"""Twenty people pressing Approve & run at once — across two bot processes sharing one SQLite file — start
exactly one research run at Minds; everyone else is told it is already being approved or running."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from minds_bot.store import PlanState, RunKind, SecretBox
from tests.durability.inprocess import Process, click_payload, close_process, drain, open_plan_post, open_process
from tests.fakes.bot import Clock
from tests.fakes.minds_http import FakeMindsAPI, fake_key, ok
from tests.fakes.slack_web import FakeSlack, fake_slack
from tests.slack.plan_samples import serve_approvable_plan

TEAM, CHANNEL, PLAN_TS = "T0001", "C0001", "1733140000.000100"
STUDY_ID = "11111111-1111-4111-8111-111111111111"
RUNS = f"/studies/{STUDY_ID}/research-runs"
REQUESTER, APPROVER = "UREQ", "UAPPROVER"
ADMINS = ("UADMIN1", "UADMIN2", "UADMIN3")
MAY_APPROVE = (REQUESTER, APPROVER, *ADMINS)


@pytest.fixture
async def slack() -> AsyncIterator[FakeSlack]:
    async with fake_slack(unique_ts=True) as fake:
        for admin in ADMINS:
            fake.users[admin] = {"id": admin, "is_admin": True}
        for member in (REQUESTER, APPROVER):
            fake.users[member] = {"id": member, "is_admin": False}
        fake.acting.update(MAY_APPROVE)  # everyone who clicks is in the plan's channel
        yield fake


@pytest.fixture
def api() -> FakeMindsAPI:
    return serve_approvable_plan(FakeMindsAPI().on("POST", RUNS, ok({"runId": "run-1", "status": "queued"})))


@pytest.fixture
async def processes(tmp_path: Path, slack: FakeSlack, api: FakeMindsAPI) -> AsyncIterator[list[Process]]:
    key, clock, path = SecretBox.generate_key(), Clock(), tmp_path / "bot.sqlite3"
    first = await open_process(path, slack=slack, secret_key=key, clock=clock, api=api, minds_key=fake_key())
    second = await open_process(path, slack=slack, secret_key=key, clock=clock, api=api, minds_key=fake_key())
    await first.store.save_plan_post(
        open_plan_post(team_id=TEAM, channel_id=CHANNEL, message_ts=PLAN_TS, study_id=STUDY_ID, requester_id=REQUESTER)
    )
    await second.store.add_approver(team_id=TEAM, channel_id=CHANNEL, user_id=APPROVER)
    try:
        yield [first, second]
    finally:
        for process in (first, second):
            await close_process(process)


async def click_approve(process: Process, slack: FakeSlack, *, user: str, n: int, revision: int = 1) -> None:
    payload = click_payload(
        slack=slack,
        team=TEAM,
        channel=CHANNEL,
        message_ts=PLAN_TS,
        user=user,
        action_id="plan_approve",
        value={"r": revision},
        action_ts=f"1733150000.{n:06d}",
    )
    response = await process.interaction(payload)
    assert response.status == 200


async def assert_one_run(processes: list[Process], slack: FakeSlack, api: FakeMindsAPI, clicks: int) -> None:
    (confirm,) = api.to("POST", RUNS)
    assert json.loads(confirm.body)["revision"] == 1
    refusals = drain(slack)
    assert len(refusals) == clicks - 1
    assert all(r["response_type"] == "ephemeral" and "approv" in r["text"] for r in refusals), refusals
    # One visible "approved" note in the thread, one run followed, one approval on record.
    notes = [c for c in slack.calls_to("chat.postMessage") if "Approved by" in c.get("text", "")]
    assert len(notes) == 1 and notes[0]["thread_ts"] == PLAN_TS
    for process in processes:
        runs = [r for r in await process.store.unfinished_runs() if r.kind == RunKind.RESEARCH]
        assert [r.run_id for r in runs] == ["run-1"]
        post = await process.store.get_plan_post(team_id=TEAM, channel_id=CHANNEL, message_ts=PLAN_TS)
        assert post is not None and post.state == PlanState.RUNNING


async def test_twenty_clicks_across_two_processes_start_one_run(
    processes: list[Process], slack: FakeSlack, api: FakeMindsAPI
) -> None:
    await asyncio.gather(
        *(click_approve(processes[n % 2], slack, user=MAY_APPROVE[n % len(MAY_APPROVE)], n=n + 1) for n in range(20))
    )
    await assert_one_run(processes, slack, api, clicks=20)


async def test_ten_clicks_on_one_process_start_one_run(
    processes: list[Process], slack: FakeSlack, api: FakeMindsAPI
) -> None:
    await asyncio.gather(
        *(click_approve(processes[0], slack, user=MAY_APPROVE[n % len(MAY_APPROVE)], n=n + 1) for n in range(10))
    )
    await assert_one_run(processes[:1], slack, api, clicks=10)


async def test_a_click_on_an_older_revision_starts_nothing(
    processes: list[Process], slack: FakeSlack, api: FakeMindsAPI
) -> None:
    first = processes[0]
    post = await first.store.get_plan_post(team_id=TEAM, channel_id=CHANNEL, message_ts=PLAN_TS)
    assert post is not None
    await first.store.save_plan_post(post.model_copy(update={"revision": 2}))
    await click_approve(processes[1], slack, user=REQUESTER, n=1, revision=1)
    (refusal,) = drain(slack)
    assert "belongs to revision 1, but the plan is now at revision 2" in refusal["text"]
    assert api.to("POST", RUNS) == []
    stored = await first.store.get_plan_post(team_id=TEAM, channel_id=CHANNEL, message_ts=PLAN_TS)
    assert stored is not None and stored.state == PlanState.OPEN


async def test_approving_before_the_workspace_is_connected_leaves_the_plan_open(
    tmp_path: Path, slack: FakeSlack, api: FakeMindsAPI
) -> None:
    process = await open_process(
        tmp_path / "bot.sqlite3", slack=slack, secret_key=SecretBox.generate_key(), clock=Clock(), api=api
    )
    try:
        await process.store.save_plan_post(
            open_plan_post(
                team_id=TEAM, channel_id=CHANNEL, message_ts=PLAN_TS, study_id=STUDY_ID, requester_id=REQUESTER
            )
        )
        payload = click_payload(
            slack=slack,
            team=TEAM,
            channel=CHANNEL,
            message_ts=PLAN_TS,
            user=REQUESTER,
            action_id="plan_approve",
            value={"r": 1},
            action_ts="1733150000.000001",
        )
        await process.interaction(payload)
        (said,) = drain(slack)
        assert "not connected to Minds yet" in said["text"]
        post = await process.store.get_plan_post(team_id=TEAM, channel_id=CHANNEL, message_ts=PLAN_TS)
        assert post is not None and post.state == PlanState.OPEN  # approvable once an admin connects
        assert await process.store.get_approval(team_id=TEAM, draft_plan_id="draft-1", revision=1) is None
        assert api.to("POST", RUNS) == []
    finally:
        await close_process(process)
