"""The scheduler wiring: one job per stored digest with a stable id, rebuilt at start and kept in sync with the
store; the catch-up pass posts a missed digest once, once across two bot processes, and backs off on failure."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest
from apscheduler.schedulers.asyncio import AsyncIOScheduler

from minds_bot.flows.digests.flow import DigestFlow
from minds_bot.flows.digests.scheduler import SWEEP_JOB_ID, DigestScheduler, job_id
from minds_bot.minds import MindsClient
from minds_bot.store import ScheduleKind, SecretBox, Store
from tests.fakes.minds_http import FakeMindsAPI
from tests.fakes.slack_web import FakeSlack
from tests.flows.digests.conftest import (
    PRICING,
    Clock,
    build_flow,
    digest,
    open_sqlite,
    research_run,
    run_uid,
    serve_study,
)

THURSDAY_0900_BERLIN = datetime(2025, 3, 27, 8, 0, tzinfo=UTC)
TUESDAY_1000_BERLIN = datetime(2025, 4, 1, 8, 0, tzinfo=UTC)  # after the switch to CEST


@pytest.fixture
async def paused() -> AsyncIterator[AsyncIOScheduler]:
    """A running APScheduler that never runs a job by itself: the test drives every pass."""
    scheduler = AsyncIOScheduler(timezone=UTC)
    scheduler.start(paused=True)
    yield scheduler
    if scheduler.running:
        scheduler.shutdown(wait=False)


def digest_jobs(scheduler: AsyncIOScheduler) -> dict[str, object]:
    return {job.id: job for job in scheduler.get_jobs() if job.id.startswith("digest:")}


async def test_start_rebuilds_one_job_per_stored_digest_with_stable_ids(
    store: Store, flow: DigestFlow, clock: Clock, paused: AsyncIOScheduler
) -> None:
    await store.save_digest(digest(digest_id="dg-a"))
    await store.save_digest(digest(digest_id="dg-b", kind=ScheduleKind.CRON, spec="0 9 * * 1", tz="UTC"))
    scheduler = DigestScheduler(flow=flow, store=store, clock=clock, scheduler=paused)
    await scheduler.start()

    jobs = digest_jobs(paused)
    assert set(jobs) == {job_id("dg-a"), job_id("dg-b")}
    assert paused.get_job(SWEEP_JOB_ID) is not None
    weekly = jobs[job_id("dg-b")]
    assert weekly.coalesce is True and weekly.misfire_grace_time is None and weekly.max_instances == 1
    # "1" is Monday, as in crontab (APScheduler 3 alone would read it as Tuesday).
    fire = weekly.trigger.get_next_fire_time(None, datetime(2025, 6, 1, tzinfo=UTC))
    assert fire == datetime(2025, 6, 2, 9, tzinfo=UTC)

    await scheduler.sync()
    assert set(digest_jobs(paused)) == {job_id("dg-a"), job_id("dg-b")}


async def test_sync_follows_the_store_when_digests_change_or_go(
    store: Store, flow: DigestFlow, clock: Clock, paused: AsyncIOScheduler
) -> None:
    scheduler = DigestScheduler(flow=flow, store=store, clock=clock, scheduler=paused)
    await store.save_digest(digest(digest_id="dg-a"))
    await scheduler.sync()
    await store.save_digest(digest(digest_id="dg-a", spec="17:30"))
    await store.save_digest(digest(digest_id="dg-b"))
    await scheduler.sync()
    jobs = digest_jobs(paused)
    evening = jobs[job_id("dg-a")].trigger.get_next_fire_time(None, datetime(2025, 6, 2, tzinfo=UTC))
    assert evening == datetime(2025, 6, 2, 15, 30, tzinfo=UTC)  # 17:30 CEST

    await store.delete_digest("dg-a")
    await scheduler.sync()
    assert set(digest_jobs(paused)) == {job_id("dg-b")}


async def posted_thursday(store: Store, flow: DigestFlow, api: FakeMindsAPI, clock: Clock) -> None:
    await store.save_digest(digest())
    serve_study(api, PRICING, "Pricing pulse", runs=[], details={})
    clock.set(THURSDAY_0900_BERLIN)
    await flow.run_due("dg-1")
    r1 = run_uid(1)
    serve_study(api, PRICING, "Pricing pulse", runs=[(r1, "completed")], details={r1: research_run(r1, "completed")})


async def test_catch_up_after_downtime_posts_the_missed_digest_once(
    store: Store, flow: DigestFlow, api: FakeMindsAPI, slack: FakeSlack, clock: Clock, paused: AsyncIOScheduler
) -> None:
    await posted_thursday(store, flow, api, clock)
    scheduler = DigestScheduler(flow=flow, store=store, clock=clock, scheduler=paused)
    clock.set(TUESDAY_1000_BERLIN)
    await scheduler.catch_up()
    await scheduler.catch_up()
    assert len(slack.calls_to("chat.postMessage")) == 2  # Thursday's, then one for the five missed mornings


async def test_two_bot_processes_catching_up_on_one_database_post_once(
    sqlite_path: str, box: SecretBox, api: FakeMindsAPI, minds: MindsClient, slack: FakeSlack, clock: Clock
) -> None:
    stores = [await open_sqlite(sqlite_path, box, clock) for _ in range(2)]
    try:
        flows = [build_flow(s, minds=minds, slack=slack, clock=clock) for s in stores]
        await posted_thursday(stores[0], flows[0], api, clock)
        schedulers = [
            DigestScheduler(flow=f, store=s, clock=clock, scheduler=AsyncIOScheduler(timezone=UTC))
            for f, s in zip(flows, stores, strict=True)
        ]
        clock.set(TUESDAY_1000_BERLIN)
        await asyncio.gather(*(s.catch_up() for s in schedulers))
        assert len(slack.calls_to("chat.postMessage")) == 2
    finally:
        for store in stores:
            await store.close()


async def test_a_failed_post_backs_off_before_the_next_attempt(
    store: Store, flow: DigestFlow, api: FakeMindsAPI, slack: FakeSlack, clock: Clock, paused: AsyncIOScheduler
) -> None:
    await posted_thursday(store, flow, api, clock)
    scheduler = DigestScheduler(flow=flow, store=store, clock=clock, scheduler=paused)
    slack.replies["chat.postMessage"] = {"ok": False, "error": "ratelimited"}
    clock.set(TUESDAY_1000_BERLIN)
    await scheduler.catch_up()
    attempts = len(slack.calls_to("chat.postMessage"))
    clock.advance(timedelta(minutes=1))
    await scheduler.catch_up()
    assert len(slack.calls_to("chat.postMessage")) == attempts  # backing off: no attempt

    del slack.replies["chat.postMessage"]
    clock.advance(timedelta(minutes=5))
    await scheduler.catch_up()
    assert len(slack.calls_to("chat.postMessage")) == attempts + 1
    stored = await store.get_digest("dg-1")
    assert stored is not None and stored.last_posted_at == clock.now


async def test_a_stop_while_a_pass_is_under_way_ends_it_without_an_error_in_the_log(
    store: Store, flow: DigestFlow, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    entered, ended = asyncio.Event(), asyncio.Event()
    listed = store.list_digests

    async def slow_list(*args: object, **kwargs: object) -> object:
        if scheduler.apscheduler.get_job(SWEEP_JOB_ID) is not None:  # the first pass, not start's own sync
            entered.set()
            try:
                await asyncio.Event().wait()  # a store that does not answer before the stop
            finally:
                ended.set()
        return await listed(*args, **kwargs)

    store.list_digests = slow_list  # type: ignore[method-assign]
    scheduler = DigestScheduler(flow=flow, store=store, clock=clock)
    await scheduler.start()
    await asyncio.wait_for(entered.wait(), timeout=10)
    await scheduler.stop()
    assert ended.is_set()  # ended by the stop, while the store is still open
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    assert not scheduler.apscheduler.running
