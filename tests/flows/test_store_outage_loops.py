"""The background loops while the store cannot be reached: each backs off, logs ONE WARNING line when the outage
starts and ONE INFO line when it ends (with how many attempts failed), never a traceback, and carries on once the
store answers: a run being followed is posted exactly once, also when the store went away between posting its
result and recording it. The store is switched off in process (tests/fakes/outage.py); the real PostgreSQL
stopped and started is tests/durability/test_store_outage.py's. The back-off is shortened; its growth and cap
are tests/store/test_health.py's."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from minds_bot.flows.ask import ask_resume
from minds_bot.flows.chat import ChatCloser
from minds_bot.flows.housekeeping import Housekeeping
from minds_bot.flows.research import approval_resume
from minds_bot.flows.tracking import Observation, RunTracker
from minds_bot.services import Background
from minds_bot.store import MemoryStore, RunKind, SecretBox, StoreUnavailableError, TrackedRun
from minds_bot.store.base import DEFAULT_CLAIM_LEASE
from minds_bot.store.health import OUTAGE_ENDED, OUTAGE_STARTED, Outage
from tests.fakes.bot import START, BotHarness, Clock, bot_harness
from tests.fakes.outage import OUTAGE_ERROR, StoreSwitch, outage_ends, switchable

WAIT = 10.0  # a bound on awaited conditions, never a timing
FAILED_ATTEMPTS = 12  # enough that one line per attempt would show


def fast(name: str) -> Outage:
    return Outage(name, first=0.001, cap=0.004, rng=random.Random(3))


def outage_lines(caplog: pytest.LogCaptureFixture) -> list[tuple[str, str, str]]:
    return [
        (r.levelname, r.getMessage(), r.fields["loop"])  # type: ignore[attr-defined]
        for r in caplog.records
        if r.name == "minds_bot.store.health"
    ]


def assert_no_traceback(caplog: pytest.LogCaptureFixture) -> None:
    assert [r.getMessage() for r in caplog.records if r.exc_info] == []


@dataclass
class Handler:
    """A run that is finished at Minds; posting it is recorded (and may switch the store off right after)."""

    store_switch: StoreSwitch | None = None
    posted: list[str] = field(default_factory=list)
    done: asyncio.Event = field(default_factory=asyncio.Event)
    observe_fails: int = 0

    async def observe(self, run: TrackedRun) -> Observation:
        if self.observe_fails:  # as when the budget ledger in PostgreSQL cannot be reached
            self.observe_fails -= 1
            raise StoreUnavailableError(OUTAGE_ERROR)
        return Observation(visible="completed", terminal=True)

    async def show_progress(self, run: TrackedRun, observation: Observation) -> str | None:
        return None

    async def post_lost(self, run: TrackedRun, reads: int) -> None:
        raise AssertionError("the run is not lost")

    async def post_terminal(self, run: TrackedRun, observation: Observation) -> None:
        self.posted.append(run.run_id)
        self.done.set()
        if self.store_switch is not None:
            self.store_switch.down = True  # the database goes away between the post and its record


def tracked(run_id: str = "run-1") -> TrackedRun:
    return TrackedRun(
        team_id="T1",
        run_id=run_id,
        study_id="S1",
        kind=RunKind.RESEARCH,
        client_request_id="key-1",
        channel_id="C1",
        thread_ts="1733140000.000100",
        next_poll_at=START,
    )


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def store(clock: Clock) -> MemoryStore:
    return MemoryStore(secrets=SecretBox(SecretBox.generate_key()), clock=clock)


def tracker_for(store: MemoryStore, handler: Handler, clock: Clock) -> RunTracker:
    tracker = RunTracker(store=store, handlers={RunKind.RESEARCH: handler}, clock=clock, rng=random.Random(7))
    tracker.outage = fast("run tracker")
    return tracker


async def test_the_run_tracker_backs_off_logs_the_outage_in_two_lines_and_posts_the_run_once(
    store: MemoryStore, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    handler = Handler()
    tracker = tracker_for(store, handler, clock)
    await tracker.track(tracked())
    switch = switchable(store)
    switch.down = True
    with caplog.at_level(logging.INFO), outage_ends() as ends:
        await tracker.start()
        try:
            await switch.refused_at_least(FAILED_ATTEMPTS, "claim_due_runs")
            assert handler.posted == []
            switch.down = False
            await ends.of("run tracker")
            async with asyncio.timeout(WAIT):
                await handler.done.wait()
        finally:
            await tracker.stop()
    assert handler.posted == ["run-1"]
    assert outage_lines(caplog) == [("WARNING", OUTAGE_STARTED, "run tracker"), ("INFO", OUTAGE_ENDED, "run tracker")]
    (ended,) = [r for r in caplog.records if r.getMessage() == OUTAGE_ENDED]
    assert ended.fields["failed_attempts"] >= FAILED_ATTEMPTS  # type: ignore[attr-defined]
    assert_no_traceback(caplog)
    clock.advance(3600)
    assert await tracker.tick() == 0  # nothing left to post


async def test_a_result_posted_just_before_the_store_went_away_is_recorded_once_it_is_back_never_posted_again(
    store: MemoryStore, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    switch = switchable(store)
    handler = Handler(store_switch=switch)
    tracker = tracker_for(store, handler, clock)
    await tracker.track(tracked())
    with caplog.at_level(logging.INFO):
        passing = asyncio.create_task(tracker.tick())
        await switch.refused_at_least(FAILED_ATTEMPTS, "mark_terminal_posted")
        switch.down = False
        async with asyncio.timeout(WAIT):
            assert await passing == 1
    for _ in range(3):  # the claim's lease and more pass: nothing is due
        clock.advance(DEFAULT_CLAIM_LEASE.total_seconds() * 10)
        assert await tracker.tick() == 0
    assert handler.posted == ["run-1"]
    assert_no_traceback(caplog)


async def test_a_poll_the_outage_interrupted_is_due_again_once_its_lease_runs_out_and_posts_once(
    store: MemoryStore, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    handler = Handler(observe_fails=1)
    tracker = tracker_for(store, handler, clock)
    await tracker.track(tracked())
    with caplog.at_level(logging.INFO):
        assert await tracker.tick() == 1  # its read met the outage: nothing recorded, nothing posted
        assert handler.posted == [] and await tracker.tick() == 0  # still leased
        clock.advance(DEFAULT_CLAIM_LEASE.total_seconds() + 1)
        assert await tracker.tick() == 1
    assert handler.posted == ["run-1"]
    assert outage_lines(caplog) == [("WARNING", OUTAGE_STARTED, "run tracker")]
    assert_no_traceback(caplog)


Make = Callable[[BotHarness], Background]


def _housekeeping(bot: BotHarness) -> Background:
    return Housekeeping(store=bot.store, clock=bot.clock, every=3600)


LOOPS: dict[str, tuple[Make, str]] = {
    "housekeeping": (_housekeeping, "prune"),
    "chat closer": (lambda bot: ChatCloser(bot.services, every=3600), "close_idle_chat_threads"),
    "approval resume": (lambda bot: approval_resume(bot.services), "claim_pending_approvals"),
    "ask resume": (lambda bot: ask_resume(bot.services), "claim_pending_direct_asks"),
}


@pytest.mark.parametrize("name", list(LOOPS))
async def test_each_periodic_loop_backs_off_and_logs_one_line_when_the_outage_starts_and_one_when_it_ends(
    name: str, caplog: pytest.LogCaptureFixture
) -> None:
    make, operation = LOOPS[name]
    async with bot_harness() as bot:
        loop: Any = make(bot)
        loop.outage = fast(name)
        switch = switchable(bot.store)
        switch.down = True
        with caplog.at_level(logging.INFO), outage_ends() as ends:
            await loop.start()
            try:
                await switch.refused_at_least(FAILED_ATTEMPTS, operation)
                switch.down = False
                await ends.of(name)
            finally:
                await loop.stop()
    assert outage_lines(caplog) == [("WARNING", OUTAGE_STARTED, name), ("INFO", OUTAGE_ENDED, name)]
    assert_no_traceback(caplog)


async def test_the_digest_scheduler_logs_an_outage_once_and_its_end_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from minds_bot.flows.digests.flow import DigestFlow
    from minds_bot.flows.digests.scheduler import DigestScheduler

    async with bot_harness() as bot:
        scheduler = DigestScheduler(flow=DigestFlow.from_services(bot.services), store=bot.store, clock=bot.clock)
        switch = switchable(bot.store)
        switch.down = True
        with caplog.at_level(logging.INFO):
            for _ in range(FAILED_ATTEMPTS):  # one sweep a minute: each meets the outage
                await scheduler._pass()  # the sweep APScheduler runs
            switch.down = False
            await scheduler._pass()
    assert switch.total("list_digests") == FAILED_ATTEMPTS
    assert outage_lines(caplog) == [
        ("WARNING", OUTAGE_STARTED, "digest scheduler"),
        ("INFO", OUTAGE_ENDED, "digest scheduler"),
    ]
    assert_no_traceback(caplog)
