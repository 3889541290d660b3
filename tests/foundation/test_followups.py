"""Follow-up work after a result (its charts, its report) on a graceful stop: finished if under way, within a
grace; cancelled after it."""

from __future__ import annotations

import asyncio

from minds_bot.services import Followups


async def test_a_graceful_stop_lets_a_follow_up_under_way_finish_and_cancels_one_that_would_not() -> None:
    started, finishing, stuck = asyncio.Event(), asyncio.Event(), asyncio.Event()
    done: list[str] = []

    async def chart() -> None:
        started.set()
        await finishing.wait()
        done.append("chart")

    async def never() -> None:
        await stuck.wait()
        done.append("never")

    followups = Followups(grace=0.5)
    followups.spawn(chart, name="chart")
    await started.wait()  # the chart is under way
    stopping = asyncio.create_task(followups.stop())
    await asyncio.sleep(0)  # one turn of the loop: stop() has begun (there is no event to await for that)
    assert not stopping.done()
    finishing.set()
    await stopping
    assert done == ["chart"], "the chart under way was finished, not dropped"

    followups.spawn(never, name="never")
    await followups.stop()  # waits the grace, then cancels
    assert done == ["chart"]
    await followups.settled()
