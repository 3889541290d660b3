"""Every record belongs to one workspace: payloads signed for team T2 that point at T1's plan message, digest,
question or Study change nothing of T1's, spend nothing of T1's Minds key and get a refusal. This bot serves
T1 alone (single-workspace mode), so the refusal is the one for people of another workspace."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from minds_bot.render.access import OTHER_WORKSPACE
from minds_bot.store import (
    Digest,
    DirectAsk,
    ExportJob,
    ExportState,
    PlanState,
    ScheduleKind,
    SecretBox,
    WorkspaceSettings,
)
from tests.durability.inprocess import Process, click_payload, close_process, drain, open_plan_post, open_process
from tests.fakes.bot import Clock
from tests.fakes.minds_http import FakeMindsAPI, fake_key
from tests.fakes.slack_web import FakeSlack, fake_slack

T1, T2, CHANNEL, PLAN_TS = "T0001", "T0002", "C0001", "1733140000.000100"
STUDY_ID = "11111111-1111-4111-8111-111111111111"
OWNER = "UREQ"  # T1's requester; T2's payloads carry the same user id (crafted)


@dataclass
class Scene:
    process: Process
    slack: FakeSlack
    api: FakeMindsAPI


@pytest.fixture
async def scene(tmp_path: Path) -> AsyncIterator[Scene]:
    api = FakeMindsAPI()  # no routes: any request to Minds fails the test loudly
    async with fake_slack(unique_ts=True) as slack:
        slack.users[OWNER] = {"id": OWNER, "is_admin": True}
        process = await open_process(
            tmp_path / "bot.sqlite3", slack=slack, secret_key=SecretBox.generate_key(), clock=Clock(), api=api
        )
        store, now = process.store, process.services.clock()
        await store.save_workspace(
            WorkspaceSettings(team_id=T1, minds_key=fake_key(), connected_by=OWNER, connected_at=now)
        )
        await store.save_plan_post(
            open_plan_post(team_id=T1, channel_id=CHANNEL, message_ts=PLAN_TS, study_id=STUDY_ID, requester_id=OWNER)
        )
        await store.save_digest(
            Digest(
                digest_id="dg-t1",
                team_id=T1,
                channel_id=CHANNEL,
                schedule_kind=ScheduleKind.DAILY,
                spec="09:00",
                tz="UTC",
                created_by=OWNER,
            )
        )
        await store.begin_direct_ask(
            DirectAsk(
                client_request_id="ask-t1",
                team_id=T1,
                study_id=STUDY_ID,
                channel_id=CHANNEL,
                question="Would you buy it?",
                requester_id=OWNER,
            )
        )
        await store.add_export(
            ExportJob(
                team_id=T1,
                job_id="job-t1",
                study_id=STUDY_ID,
                kind="full_report",
                format="md",
                requested_by=OWNER,
                channel_id=CHANNEL,
            )
        )
        try:
            yield Scene(process=process, slack=slack, api=api)
        finally:
            await close_process(process)


async def click_from_t2(scene: Scene, action_id: str, value: dict | str, n: int) -> None:
    payload = click_payload(
        slack=scene.slack,
        team=T2,
        channel=CHANNEL,
        message_ts=PLAN_TS,
        user=OWNER,
        action_id=action_id,
        value=value,
        action_ts=f"1733160000.{n:06d}",
    )
    await scene.process.interaction(payload)


async def assert_t1_untouched(scene: Scene) -> None:
    store = scene.process.store
    post = await store.get_plan_post(team_id=T1, channel_id=CHANNEL, message_ts=PLAN_TS)
    assert post is not None and (post.state, post.revision) == (PlanState.OPEN, 1)
    assert await store.get_approval(team_id=T1, draft_plan_id="draft-1", revision=1) is None
    assert await store.get_digest("dg-t1") is not None
    ask = await store.get_direct_ask("ask-t1")
    assert ask is not None and ask.run_id is None
    export = await store.get_export(team_id=T1, job_id="job-t1")
    assert export is not None and export.state == ExportState.QUEUED
    assert await store.unfinished_runs() == []
    assert scene.api.sent == []  # T1's Minds key was never used
    assert [c for c in scene.slack.calls if c[0] in ("chat.postMessage", "chat.update", "files.uploadV2")] == []


@pytest.mark.parametrize(
    ("action_id", "value"),
    [
        ("plan_approve", {"r": 1}),
        ("plan_discard", {"r": 1}),
        ("plan_answer:0:0", {"a": "Yes", "q": "cq1", "r": 1}),
        ("ask_retry", "ask-t1"),
    ],
)
async def test_a_click_from_another_workspace_cannot_touch_this_ones_records(
    scene: Scene, action_id: str, value: dict | str
) -> None:
    await click_from_t2(scene, action_id, value, n=1)
    (said,) = drain(scene.slack)
    assert said["text"] == OTHER_WORKSPACE
    await assert_t1_untouched(scene)


@pytest.mark.parametrize("verb", ["now", "remove"])
async def test_a_digest_command_from_another_workspace_is_refused(scene: Scene, verb: str) -> None:
    await scene.process.command(f"digest {verb} dg-t1", slack=scene.slack, team=T2, channel=CHANNEL, user=OWNER)
    (said,) = drain(scene.slack)
    assert said["text"] == OTHER_WORKSPACE
    await assert_t1_untouched(scene)


async def test_an_export_from_another_workspace_uses_none_of_this_ones_key(scene: Scene) -> None:
    payload = click_payload(
        slack=scene.slack,
        team=T2,
        channel=CHANNEL,
        message_ts=PLAN_TS,
        user=OWNER,
        action_id="study_export",
        value=STUDY_ID,
        action_ts="1733160000.000009",
    )
    await scene.process.interaction(payload)
    (said,) = drain(scene.slack)
    assert said["text"] == OTHER_WORKSPACE
    await assert_t1_untouched(scene)
