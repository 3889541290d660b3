"""A bot killed while research is running, then started again on the same SQLite file, posts the run's result
in the plan's thread exactly once — also when the first attempt at posting it failed. The real bot
(``start_http``) between the Slack emulator and the Minds sandbox; only the clocks are the test's."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from minds_bot.app import HttpServer
from minds_bot.services import SLACK_RATE_LIMIT_RETRIES
from slack_emulator.state import Message
from tests.durability.parts import WAIT, World, world

REQUEST = (  # the taglines are given, so Minds asks only who answers
    'plan "Launch positioning" Test three taglines for our new running shoe with Gen Z buyers: '
    "Run further, Made to last, Light on the planet"
)
STUDY_NAME = "Launch positioning"
LATER = 120.0  # seconds of bot time: past any poll interval, well inside the terminal-claim lease


@pytest.fixture
async def w(tmp_path: Path) -> AsyncIterator[World]:
    async with world(tmp_path) as running:
        yield running


def _user(w: World, name: str) -> str:
    return next(u.id for u in w.emu.config.users if u.name == name)


def _channel(w: World, name: str) -> str:
    return next(c.id for c in w.emu.config.channels if c.name == name)


def _actions(message: Message) -> list[str]:
    return [e.get("action_id", "") for b in message.blocks if b.get("type") == "actions" for e in b["elements"]]


def results(w: World, channel: str, thread_ts: str) -> list[Message]:
    """The result posts in the thread: the headline message naming the Study (continuation pages excluded)."""
    return [
        m
        for m in w.emu.state.replies(channel, thread_ts)
        if f"({STUDY_NAME})" in json.dumps(m.blocks, ensure_ascii=False) and not m.text.endswith("(continued)")
    ]


async def approve_a_plan(w: World) -> tuple[str, str]:
    """Ben plans research, answers the confirmation question and approves; returns (channel, plan ts) once the
    run's first progress line is in the thread."""
    emu, ben, research = w.emu, _user(w, "ben"), _channel(w, "research")
    since = emu.mark()
    await emu.send_slash_command(user=ben, channel=research, text=REQUEST)
    plan = await emu.wait_for_message(research, lambda m: "Research plan" in m.text, since=since, timeout=WAIT)
    answer = next(a for a in _actions(plan) if a.startswith("plan_answer:"))
    await emu.click_button(user=ben, action_id=answer, channel=research, ts=plan.ts)

    def revised() -> Message | None:
        return next((m for m in emu.state.messages(research) if m.ts == plan.ts and "revision 2" in m.text), None)

    await emu.wait_for(revised, timeout=WAIT)
    await emu.click_button(user=ben, action_id="plan_approve", channel=research, ts=plan.ts)
    await emu.wait_for_message(research, lambda m: "Queued" in m.text, thread_ts=plan.ts, timeout=WAIT)
    return research, plan.ts


async def further_ticks(w: World, server: HttpServer, passes: int = 3) -> None:
    """More tracker passes after the result, with both clocks moving (Minds may report more meanwhile)."""
    for _ in range(passes):
        w.clock.advance(LATER)
        w.minds.advance(w.minds.runtime.engine.step)
        await server.bot.services.tracker.tick()


async def test_a_run_finished_while_the_bot_was_down_is_posted_once_after_restart(w: World) -> None:
    first = await w.start_bot()
    channel, thread = await approve_a_plan(w)
    await w.crash(first)
    assert results(w, channel, thread) == []

    w.finish_runs()  # the research completes at Minds while no bot is running
    w.clock.advance(LATER)
    second = await w.start_bot()
    try:
        await w.emu.wait_for(lambda: results(w, channel, thread), timeout=WAIT)
        await further_ticks(w, second)
        (result,) = results(w, channel, thread)
        assert "Completed" in result.text or "Partial" in result.text
    finally:
        await second.stop()

    third = await w.start_bot()  # and once more: a later restart finds nothing left to post
    try:
        await further_ticks(w, third)
        assert len(results(w, channel, thread)) == 1
    finally:
        await third.stop()


async def test_a_result_whose_post_failed_is_posted_once_after_a_restart(w: World) -> None:
    first = await w.start_bot()
    channel, thread = await approve_a_plan(w)
    await first.bot.services.tracker.stop()  # from here on this process's tracker moves only when ticked
    w.finish_runs()
    # Slack refuses the result post on the first try and on every retry after its Retry-After
    w.emu.rate_limit("chat.postMessage", retry_after=0, count=SLACK_RATE_LIMIT_RETRIES + 1)
    w.clock.advance(LATER)
    await first.bot.services.tracker.tick()
    assert results(w, channel, thread) == []
    assert "chat.postMessage" not in w.emu.limiter.snapshot()  # the refusal was spent on the result post
    await w.crash(first)

    w.clock.advance(LATER)
    second = await w.start_bot()
    try:
        await w.emu.wait_for(lambda: results(w, channel, thread), timeout=WAIT)
        await further_ticks(w, second)
        assert len(results(w, channel, thread)) == 1
    finally:
        await second.stop()


async def test_a_failure_after_the_result_was_posted_never_posts_it_again(w: World) -> None:
    first = await w.start_bot()
    channel, thread = await approve_a_plan(w)
    await first.bot.services.tracker.stop()  # ticked by hand from here on
    w.finish_runs()
    # the charts' upload is refused on the first try and on every retry
    w.emu.rate_limit("files.getUploadURLExternal", retry_after=0, count=SLACK_RATE_LIMIT_RETRIES + 1)
    w.clock.advance(LATER)
    await first.bot.services.tracker.tick()
    await first.bot.services.followups.settled()  # the charts follow the result
    assert len(results(w, channel, thread)) == 1
    assert "files.getUploadURLExternal" not in w.emu.limiter.snapshot()  # the refusal came after the result
    await further_ticks(w, first)
    await w.crash(first)

    second = await w.start_bot()
    try:
        await further_ticks(w, second)
        assert len(results(w, channel, thread)) == 1
    finally:
        await second.stop()
