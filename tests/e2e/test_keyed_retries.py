"""A person's retry keeps the key, end to end against the Minds sandbox: the sandbox makes the copy but the
answer is lost (a 504 after the work), the bot offers Try again, and Try again gets that same copy back —
exactly one copy exists. Typing the command again asks "make a second copy?" and makes nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.e2e.desk import Desk, action_ids, open_desk, shown


@pytest.fixture
async def desk(tmp_path: Path) -> AsyncIterator[Desk]:
    async with open_desk(tmp_path) as opened:
        yield opened


async def test_a_lost_duplicate_answer_is_tried_again_with_its_key_and_makes_one_copy(desk: Desk) -> None:
    before = await desk.study_names()
    await desk.faults(lost_reply_rates={"POST */duplicate": 1.0})
    since = await desk.type(desk.ben, 'duplicate "Pricing pulse"')
    offer = await desk.private(desk.ben, since, "Try again")
    assert "may or may not have been made" in shown(offer)
    made = await desk.study_names()
    assert made.count("Pricing pulse (copy)") == 1, "the sandbox made the copy; only its answer was lost"

    await desk.faults(lost_reply_rates={})
    since = desk.emu.mark()
    await desk.emu.click_button(user=desk.ben, action_id="duplicate_try_again", channel=offer.channel, ts=offer.ts)
    answer = await desk.private(desk.ben, since, "Duplicated")
    assert "already made for this request, so no second copy" in shown(answer)
    assert (await desk.study_names()).count("Pricing pulse (copy)") == 1
    assert len(await desk.study_names()) == len(before) + 1

    since = await desk.type(desk.ben, 'duplicate "Pricing pulse"')
    question = await desk.private(desk.ben, since, "Make a second copy")
    assert "duplicate_again" in action_ids(question.blocks)
    assert len(await desk.study_names()) == len(before) + 1
