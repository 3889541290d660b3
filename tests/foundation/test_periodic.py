"""The one background loop (``services/background.Periodic``): a step every period, again at once when it says
there is more, one line when the store's outage starts and one when it ends, any other failure logged once with
its traceback and the loop going on, and ``stop`` cancelling it. The loops built on it are
tests/flows/test_store_outage_loops.py's."""

from __future__ import annotations

import asyncio
import logging
import random

import pytest

from minds_bot.services import Periodic
from minds_bot.store import StoreUnavailableError
from minds_bot.store.health import OUTAGE_ENDED, OUTAGE_STARTED, Outage

WAIT = 10.0  # a bound on awaited conditions, never a timing


class Steps:
    """A step that fails as scripted (``None``: works; ``True``: works and says there is more), then works."""

    def __init__(self, script: list[object]) -> None:
        self.script = script
        self.calls = 0
        self.rests: list[float] = []
        self.done = asyncio.Event()

    async def __call__(self) -> object:
        self.calls += 1
        if not self.script:
            self.done.set()
            await asyncio.Event().wait()  # the loop stays here until stopped
        outcome = self.script.pop(0)
        if isinstance(outcome, BaseException):
            raise outcome
        return outcome

    async def rest(self, seconds: float) -> None:
        self.rests.append(seconds)


async def run_until_done(steps: Steps, **options: object) -> Periodic:
    loop = Periodic("test loop", step=steps, every=60.0, failure="the test step failed", rest=steps.rest, **options)  # type: ignore[arg-type]
    loop.outage = Outage("test loop", first=0.001, cap=0.004, rng=random.Random(3))
    await loop.start()
    try:
        async with asyncio.timeout(WAIT):
            await steps.done.wait()
    finally:
        await loop.stop()
    return loop


async def test_it_rests_a_period_between_steps_and_goes_on_at_once_when_a_step_says_there_is_more() -> None:
    steps = Steps([None, True, True, None])
    await run_until_done(steps)
    assert steps.calls == 5 and steps.rests == [60.0, 60.0]


async def test_wait_first_rests_a_period_before_the_first_step() -> None:
    steps = Steps([None])
    await run_until_done(steps, wait_first=True)
    assert steps.rests == [60.0, 60.0]


async def test_an_outage_is_one_line_at_its_start_and_one_at_its_end_without_a_traceback(
    caplog: pytest.LogCaptureFixture,
) -> None:
    down = StoreUnavailableError("connection refused")
    steps = Steps([down] * 12 + [None])
    with caplog.at_level(logging.INFO):
        await run_until_done(steps)
    lines = [(r.levelname, r.getMessage()) for r in caplog.records if r.name == "minds_bot.store.health"]
    assert lines == [("WARNING", OUTAGE_STARTED), ("INFO", OUTAGE_ENDED)]
    assert [r for r in caplog.records if r.exc_info] == []
    assert steps.rests == [60.0]  # backed off by the outage's own pause, then the period after the step that worked


async def test_at_least_a_period_backs_off_no_sooner_than_the_period() -> None:
    steps = Steps([StoreUnavailableError("down"), None])
    await run_until_done(steps, at_least_a_period=True)
    assert steps.rests == [60.0, 60.0]


async def test_any_other_failure_is_logged_once_with_its_traceback_and_the_loop_goes_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    steps = Steps([RuntimeError("boom"), None])
    with caplog.at_level(logging.INFO):
        await run_until_done(steps)
    failed = [r for r in caplog.records if r.getMessage() == "the test step failed"]
    assert len(failed) == 1 and failed[0].exc_info is not None
    assert steps.calls == 3 and steps.rests == [60.0, 60.0]


async def test_stop_cancels_the_loop_and_can_be_called_twice() -> None:
    steps = Steps([])
    loop = await run_until_done(steps)
    await loop.stop()
    assert steps.calls == 1
