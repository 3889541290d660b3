"""Contract: DMs when a run ends — the per-person switch, "Notify me" watchers, the once-only sent marker, and the
ended runs the App Home lists as Recent results."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from minds_bot.store import RunResult, Store
from tests.store import factories
from tests.store.conftest import START, FakeClock

CLAIMERS = 40


def result(run_id: str, *, channel: str = "C1", requester: str = "U_REQ", approver: str = "U_APP", at: int = 0):
    return RunResult(
        team_id="T1",
        run_id=run_id,
        channel_id=channel,
        thread_ts="1700000000.000100",
        study_name="Launch message",
        revision=1,
        requester_id=requester,
        approver_id=approver,
        status="completed",
        permalink="https://example.slack.com/archives/C1/p1700000000000100",
        ended_at=START + timedelta(minutes=at),
    )


async def test_dms_are_on_until_a_person_turns_them_off(store: Store) -> None:
    assert await store.run_dms_on(team_id="T1", user_id="U1") is True
    await store.set_run_dms(team_id="T1", user_id="U1", on=False)
    await store.set_run_dms(team_id="T1", user_id="U1", on=False)  # twice is the same
    assert await store.run_dms_on(team_id="T1", user_id="U1") is False
    assert await store.run_dms_on(team_id="T2", user_id="U1") is True  # per workspace
    await store.set_run_dms(team_id="T1", user_id="U1", on=True)
    assert await store.run_dms_on(team_id="T1", user_id="U1") is True


async def test_watchers_are_remembered_once_each_in_order(store: Store, clock: FakeClock) -> None:
    assert await store.watch_run(team_id="T1", run_id="run-1", user_id="U2") is True
    clock.advance(timedelta(seconds=1))
    assert await store.watch_run(team_id="T1", run_id="run-1", user_id="U1") is True
    assert await store.watch_run(team_id="T1", run_id="run-1", user_id="U2") is False
    assert await store.run_watchers(team_id="T1", run_id="run-1") == ["U2", "U1"]
    assert await store.run_watchers(team_id="T1", run_id="run-2") == []


async def test_exactly_one_claimer_sends_each_dm_and_a_release_lets_it_be_sent_later(store: Store) -> None:
    claims = await asyncio.gather(
        *(store.claim_run_notice(team_id="T1", run_id="run-1", user_id="U1") for _ in range(CLAIMERS))
    )
    assert claims.count(True) == 1
    assert await store.claim_run_notice(team_id="T1", run_id="run-1", user_id="U2") is True  # another person
    await store.release_run_notice(team_id="T1", run_id="run-1", user_id="U1")
    assert await store.claim_run_notice(team_id="T1", run_id="run-1", user_id="U1") is True


async def test_a_run_keeps_its_first_recorded_end(store: Store) -> None:
    first = await store.save_run_result(result("run-1"))
    again = await store.save_run_result(result("run-1").model_copy(update={"status": "failed"}))
    assert first.status == again.status == "completed"


async def test_recent_results_cover_my_channels_newest_first(store: Store) -> None:
    await store.save_plan_post(factories.plan_post())  # U_REQ requested a plan in C1
    await store.add_approver(team_id="T1", channel_id="C3", user_id="U_REQ")
    await store.save_run_result(result("run-1", at=1))
    await store.save_run_result(result("run-2", channel="C1", requester="U_OTHER", approver="U_OTHER", at=3))
    await store.save_run_result(result("run-3", channel="C2", requester="U_OTHER", approver="U_OTHER", at=5))
    await store.save_run_result(result("run-4", channel="C3", requester="U_OTHER", approver="U_OTHER", at=2))
    await store.save_run_result(result("run-5", channel="C4", requester="U_X", approver="U_APP", at=4))
    mine = await store.recent_run_results(team_id="T1", user_id="U_REQ", limit=10)
    assert [r.run_id for r in mine] == ["run-2", "run-4", "run-1"]  # not C2: never requested, approved there
    approver = await store.recent_run_results(team_id="T1", user_id="U_APP", limit=2)
    assert [r.run_id for r in approver] == ["run-5", "run-2"]
    assert await store.recent_run_results(team_id="T2", user_id="U_REQ", limit=10) == []


async def test_a_recorded_end_is_read_back_by_its_run(store: Store) -> None:
    await store.save_run_result(result("run-1", channel="C2"))
    found = await store.get_run_result(team_id="T1", run_id="run-1")
    assert found is not None and found.channel_id == "C2"
    assert await store.get_run_result(team_id="T2", run_id="run-1") is None
    assert await store.get_run_result(team_id="T1", run_id="run-9") is None
