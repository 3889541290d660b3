"""The rest of the Minds toolbox against the local demo, as people would use it: cancelling a run from its
progress message, talking to a Mind in a thread, and a Study's analytics."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.e2e.desk import Desk, action_ids, open_desk, shown

LAUNCH = "Launch positioning"


@pytest.fixture
async def desk(tmp_path: Path) -> AsyncIterator[Desk]:
    async with open_desk(tmp_path) as running:
        yield running


async def test_cancel_a_question_from_its_progress_message(desk: Desk) -> None:
    await desk.faults(run_speed=0.001)  # the run stays live long enough to be cancelled
    since = await desk.type(desk.ben, f'ask "{LAUNCH}" Would you buy a shoe made from ocean plastic?')
    parent = await desk.posted(since, lambda m: "asked" in m.text and not m.is_reply)
    progress = await desk.posted(since, lambda m: "run_cancel" in action_ids(m.blocks), thread_ts=parent.ts)

    mark = desk.emu.mark()
    await desk.emu.click_button(user=desk.chloe, action_id="run_cancel", channel=desk.research, ts=progress.ts)
    await desk.private(desk.chloe, mark, "can cancel this run")

    await desk.emu.click_button(user=desk.ben, action_id="run_cancel", channel=desk.research, ts=progress.ts)
    await desk.private(desk.ben, mark, "Minds accepted the cancellation")
    ended = await desk.posted(mark, lambda m: "cancelled" in m.text and m.is_reply, thread_ts=parent.ts)
    assert "no answers" in shown(ended)
    replies = desk.emu.state.replies(desk.research, parent.ts)
    assert not [m for m in replies if "run_cancel" in action_ids(m.blocks)], "the button is gone once cancelled"
