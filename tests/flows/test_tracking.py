"""The run tracker follows runs to one terminal post, edits Slack only on change and never resubmits."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field
from datetime import timedelta

import pytest

from minds_bot.flows.tracking import (
    MAX_INTERVAL_SECONDS,
    MAX_NOT_FOUND_READS,
    Observation,
    RunTracker,
    next_interval,
)
from minds_bot.minds import MindsTimeout, NotFound, RateLimited, RateLimiter
from minds_bot.store import MemoryStore, RunKind, SecretBox, TrackedRun
from tests.fakes.bot import START, Clock


@dataclass
class ScriptedHandler:
    """Answers observe() from a script; records what Slack would have been shown."""

    script: list[Observation | Exception]
    shown: list[str] = field(default_factory=list)
    posted: list[str] = field(default_factory=list)
    observed: int = 0
    fail_post: int = 0

    async def observe(self, run: TrackedRun) -> Observation:
        step = self.script[min(self.observed, len(self.script) - 1)]
        self.observed += 1
        if isinstance(step, Exception):
            raise step
        return step

    async def show_progress(self, run: TrackedRun, observation: Observation) -> str | None:
        self.shown.append(observation.visible)
        return run.progress_ts or "1733140000.000200"

    async def post_lost(self, run: TrackedRun, reads: int) -> None:
        self.posted.append(f"lost after {reads}")

    async def post_terminal(self, run: TrackedRun, observation: Observation) -> None:
        if self.fail_post:
            self.fail_post -= 1
            raise RuntimeError("chat.postMessage failed")
        self.posted.append(observation.visible)


def running(text: str) -> Observation:
    return Observation(visible=text, terminal=False)


def done(text: str) -> Observation:
    return Observation(visible=text, terminal=True)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def store(clock: Clock) -> MemoryStore:
    return MemoryStore(secrets=SecretBox(SecretBox.generate_key()), clock=clock)


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


def tracker_for(store: MemoryStore, handler: ScriptedHandler, clock: Clock) -> RunTracker:
    return RunTracker(store=store, handlers={RunKind.RESEARCH: handler}, clock=clock, rng=random.Random(7))


async def poll_until_quiet(tracker: RunTracker, clock: Clock, *, passes: int = 20) -> None:
    for _ in range(passes):
        clock.advance(MAX_INTERVAL_SECONDS * 1.5)
        await tracker.tick()


async def test_slack_is_updated_only_when_the_visible_state_changes_and_the_result_posts_once(
    store: MemoryStore, clock: Clock
) -> None:
    handler = ScriptedHandler(
        [running("queued"), running("queued"), running("1/3"), running("1/3"), running("2/3"), done("completed")]
    )
    tracker = tracker_for(store, handler, clock)
    await tracker.track(tracked())
    await poll_until_quiet(tracker, clock)
    assert handler.shown == ["queued", "1/3", "2/3"]
    assert handler.posted == ["completed"]
    assert handler.observed == 6  # stopped polling at the terminal state
    assert await store.unfinished_runs() == []


async def test_a_failed_poll_is_retried_later_and_never_resubmits(store: MemoryStore, clock: Clock) -> None:
    handler = ScriptedHandler([MindsTimeout(), RateLimited(status_code=429, retry_after=120), done("partial")])
    tracker = tracker_for(store, handler, clock)
    await tracker.track(tracked())
    await tracker.tick()
    clock.advance(MAX_INTERVAL_SECONDS)
    await tracker.tick()  # rate limited: next poll honours Retry-After
    (run,) = await store.unfinished_runs()
    assert run.next_poll_at >= clock.now + timedelta(seconds=120)
    clock.advance(60)
    assert await tracker.tick() == 0
    clock.advance(61)
    await tracker.tick()
    assert handler.posted == ["partial"]


async def test_a_failed_terminal_post_is_released_and_posted_exactly_once_later(
    store: MemoryStore, clock: Clock
) -> None:
    handler = ScriptedHandler([done("completed")], fail_post=1)
    tracker = tracker_for(store, handler, clock)
    await tracker.track(tracked())
    await tracker.tick()
    assert handler.posted == []
    await poll_until_quiet(tracker, clock)
    assert handler.posted == ["completed"]


async def test_two_trackers_on_one_store_post_the_terminal_result_once(store: MemoryStore, clock: Clock) -> None:
    first, second = ScriptedHandler([done("completed")]), ScriptedHandler([done("completed")])
    await store.add_tracked_run(tracked())
    a, b = tracker_for(store, first, clock), tracker_for(store, second, clock)
    await asyncio.gather(a.tick(), b.tick())
    assert len(first.posted) + len(second.posted) == 1


async def test_unfinished_runs_resume_after_a_restart(store: MemoryStore, clock: Clock) -> None:
    before = ScriptedHandler([running("1/3")])
    await tracker_for(store, before, clock).track(tracked())
    await tracker_for(store, before, clock).tick()
    after = ScriptedHandler([running("1/3"), done("completed")])
    await poll_until_quiet(tracker_for(store, after, clock), clock)
    assert after.shown == []  # "1/3" was already on screen before the restart
    assert after.posted == ["completed"]


def test_interval_grows_from_about_2_to_30_seconds() -> None:
    rng = random.Random(1)
    first = next_interval(0, rng=rng)
    assert 1.6 <= first <= 2.4
    assert all(next_interval(n, rng=rng) <= MAX_INTERVAL_SECONDS * 1.2 for n in range(40))
    assert next_interval(30, rng=rng) >= MAX_INTERVAL_SECONDS * 0.8


async def test_a_run_minds_keeps_answering_404_for_is_given_up_once_not_polled_forever(
    store: MemoryStore, clock: Clock
) -> None:
    handler = ScriptedHandler([running("queued"), NotFound(status_code=404)])
    tracker = tracker_for(store, handler, clock)
    await tracker.track(tracked())
    await poll_until_quiet(tracker, clock, passes=MAX_NOT_FOUND_READS * 4)
    assert handler.posted == [f"lost after {MAX_NOT_FOUND_READS}"]
    assert handler.observed == 1 + MAX_NOT_FOUND_READS  # bounded: no read after the last 404
    assert await store.unfinished_runs() == []


async def test_a_passing_404_is_only_retried_and_the_count_starts_again(store: MemoryStore, clock: Clock) -> None:
    gone = NotFound(status_code=404)
    script: list[Observation | Exception] = [gone] * (MAX_NOT_FOUND_READS - 1) + [running("1/3")]
    script += [gone] * (MAX_NOT_FOUND_READS - 1) + [done("completed")]
    handler = ScriptedHandler(script)
    tracker = tracker_for(store, handler, clock)
    await tracker.track(tracked())
    await poll_until_quiet(tracker, clock, passes=len(script) + 3)
    assert handler.shown == ["1/3"] and handler.posted == ["completed"]


@dataclass
class BlockingHandler(ScriptedHandler):
    """Posts a run's result only when ``release`` is set for it (a post waiting for Slack's pace)."""

    release: dict[str, asyncio.Event] = field(default_factory=dict)
    posted_runs: list[str] = field(default_factory=list)
    waiting: asyncio.Event = field(default_factory=asyncio.Event)
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    async def post_terminal(self, run: TrackedRun, observation: Observation) -> None:
        if run.run_id in self.release:
            self.waiting.set()
            await self.release[run.run_id].wait()
        self.posted_runs.append(run.run_id)
        self.changed.set()

    async def next_post(self) -> None:
        await asyncio.wait_for(self.changed.wait(), 5)  # a bound on an awaited event, not a timing
        self.changed.clear()


async def test_a_run_waiting_to_post_does_not_hold_up_the_others(store: MemoryStore, clock: Clock) -> None:
    """A result waiting for a busy channel must not keep a run started later from being followed."""
    slow = asyncio.Event()
    handler = BlockingHandler([done("completed")], release={"run-slow": slow})
    tracker = tracker_for(store, handler, clock)
    await tracker.start()
    try:
        await tracker.track(tracked("run-slow"))
        await asyncio.wait_for(handler.waiting.wait(), 5)  # a bound on an awaited event, not a timing
        await tracker.track(tracked("run-later"))
        await handler.next_post()
        assert handler.posted_runs == ["run-later"]
        slow.set()
        await handler.next_post()
    finally:
        await tracker.stop()
    assert handler.posted_runs == ["run-later", "run-slow"]


async def test_a_workspace_at_its_minds_limit_is_looked_at_later_without_a_read(
    store: MemoryStore, clock: Clock
) -> None:
    handler = ScriptedHandler([done("completed")])
    waits = {"T1": 40.0}

    async def read_delay(team_id: str, *, keep_free: float) -> float:
        return waits.get(team_id, 0.0)

    tracker = RunTracker(
        store=store, handlers={RunKind.RESEARCH: handler}, clock=clock, rng=random.Random(7), read_delay=read_delay
    )
    await tracker.track(tracked())
    assert await tracker.tick() == 1
    assert handler.observed == 0, "no request is spent while the workspace's allowance is used up"
    (run,) = await store.unfinished_runs()
    assert run.next_poll_at >= clock.now + timedelta(seconds=40) and run.attempts == 0
    waits.clear()
    clock.advance(50)
    await tracker.tick()
    assert handler.posted == ["completed"]


async def test_follow_ups_leave_part_of_a_workspaces_minds_minute_to_the_results_people_wait_for(
    store: MemoryStore, clock: Clock
) -> None:
    """A report or a consistency note waits while the workspace's key is 80 % used; a research run does not."""
    limiter = RateLimiter(requests_per_minute=10, clock=lambda: 0.0, sleep=_never)
    for _ in range(8):
        await limiter.acquire()

    async def read_delay(team_id: str, *, keep_free: float) -> float:
        return await limiter.delay(keep_free=keep_free)

    research, consistency = ScriptedHandler([done("completed")]), ScriptedHandler([done("arrived")])
    tracker = RunTracker(
        store=store,
        handlers={RunKind.RESEARCH: research, RunKind.CONSISTENCY: consistency},
        clock=clock,
        rng=random.Random(7),
        read_delay=read_delay,
    )
    await tracker.track(tracked("run-1"))
    await tracker.track(tracked("run-1:consistency").model_copy(update={"kind": RunKind.CONSISTENCY}))
    await tracker.tick()
    assert research.posted == ["completed"]
    assert consistency.observed == 0, "the follow-up waits for room beyond the kept fifth"


async def _never(seconds: float) -> None:
    raise AssertionError("the limiter was not expected to wait")
