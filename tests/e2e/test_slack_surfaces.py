"""Slack-native surfaces in the local demo: the message shortcut "Ask Minds about this". The real bot in HTTP
mode, the Slack emulator's signed requests, the Minds sandbox behind it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from minds_bot.sandbox.slack_api.state import Message
from tests.e2e.desk import Desk, action_ids, open_desk, shown

SHORTCUT = "minds_ask_about_message"
LAUNCH = "Launch positioning"


@pytest.fixture
async def desk(tmp_path: Path) -> AsyncIterator[Desk]:
    async with open_desk(tmp_path) as running:
        yield running


async def pick_launch(desk: Desk, view_id: str) -> dict[str, object]:
    options = await desk.emu.request_options(user=desk.ben, action_id="study_options", value="launch", view_id=view_id)
    return next(o for o in options if o["text"]["text"] == LAUNCH)


async def test_a_message_with_one_question_is_asked_and_answered_in_its_thread(desk: Desk) -> None:
    await desk.faults(run_speed=50)
    said = await desk.emu.post_message(
        user=desk.ada, channel=desk.research, text="Would people pay more for a shoe made from recycled plastic?"
    )
    since = desk.emu.mark()
    delivery = await desk.emu.message_shortcut(user=desk.ben, callback_id=SHORTCUT, channel=desk.research, ts=said.ts)
    assert delivery.ok
    modal = await desk.modal(desk.ben, "Ask Minds about this", "goes to the Study's Minds as one question")
    assert "Would people pay more for a shoe made from recycled plastic?" in shown(modal)
    await desk.emu.submit_view(
        user=desk.ben, view_id=modal.id, inputs={"study_options": await pick_launch(desk, modal.id)}
    )

    def answered() -> Message | None:
        replies = desk.emu.state.replies(desk.research, said.ts)
        return next((m for m in replies if "answers_show" in action_ids(m.blocks)), None)

    await desk.wait(answered)
    replies = desk.emu.state.replies(desk.research, said.ts)
    assert any("asked" in m.text and "recycled plastic" in m.text for m in replies), "the thread says who asked what"
    assert not [m for m in desk.channel_since(since) if not m.is_reply], "nothing new at the top of the channel"


async def test_a_message_with_several_questions_becomes_a_plan_to_review(desk: Desk) -> None:
    said = await desk.emu.post_message(
        user=desk.ada,
        channel=desk.research,
        text="Which colour sells best? And what price feels fair for the recycled shoe?",
    )
    since = desk.emu.mark()
    await desk.emu.message_shortcut(user=desk.ben, callback_id=SHORTCUT, channel=desk.research, ts=said.ts)
    modal = await desk.modal(desk.ben, "holds several questions", "Draft a plan")
    await desk.emu.submit_view(
        user=desk.ben, view_id=modal.id, inputs={"study_options": await pick_launch(desk, modal.id)}
    )
    plan = await desk.posted(since, lambda m: "Research plan" in m.text)
    assert LAUNCH in shown(plan)


async def test_a_question_too_long_for_the_dialog_is_said_not_cut_silently(desk: Desk) -> None:
    words = "How would a runner who cares about the planet judge this shoe " * 40
    said = await desk.emu.post_message(user=desk.ada, channel=desk.research, text=words.strip() + "?")
    await desk.emu.message_shortcut(user=desk.ben, callback_id=SHORTCUT, channel=desk.research, ts=said.ts)
    modal = await desk.modal(desk.ben, "characters; a question takes at most 2,000")
    [question] = [
        e["element"]
        for e in modal.payload["blocks"]
        if e.get("type") == "input" and e["element"].get("action_id") == "about_text_input"
    ]
    assert 0 < len(question["initial_value"]) <= 2000
