"""A workflow's "Ask Minds a question" step whose bot was killed while Minds was answering is completed by the
bot started again on the same SQLite file: the step's execution id was saved before the question was sent."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from slack_emulator.ids import ts_key
from slack_emulator.state import Message
from tests.durability.parts import WAIT, World, world

LATER = 120.0  # seconds of bot time: past any poll interval


@pytest.fixture
async def w(tmp_path: Path) -> AsyncIterator[World]:
    async with world(tmp_path) as running:
        yield running


async def test_an_ask_step_interrupted_by_a_restart_completes_with_the_result(w: World) -> None:
    ben = next(u.id for u in w.emu.config.users if u.name == "ben")
    research = next(c.id for c in w.emu.config.channels if c.name == "research")
    first = await w.start_bot()
    since = w.emu.mark()
    inputs = {"study": "Launch positioning", "question": "Do you like the new logo?", "channel": research}
    execution, delivery = await w.emu.run_function(callback_id="minds_ask_question", inputs=inputs, user=ben)
    assert delivery.ok

    def queued() -> Message | None:
        replies = [m for m in w.emu.state.messages(research, include_replies=True) if m.is_reply]
        return next((m for m in replies if "Queued at Minds" in m.text and ts_key(m.ts) > ts_key(since)), None)

    await w.emu.wait_for(queued, timeout=WAIT)  # Minds accepted the question and the bot follows it
    await w.crash(first)
    assert w.emu.state.functions[execution.id].status == "running"

    w.finish_runs()  # Minds answers while no bot is running
    w.clock.advance(LATER)
    second = await w.start_bot()
    try:
        step = await w.emu.wait_for_function(execution.id, timeout=WAIT)
    finally:
        await second.stop()
    assert step.status == "completed", step.error
    outputs = step.outputs or {}
    assert outputs["summary"].startswith("Results: Do you like the new logo?")
    assert outputs["n"] > 0 and f"/archives/{research}/" in outputs["thread_link"]
