"""Hearing when a research run ends, with the real bot, the emulator's signed requests and the sandbox: the
requester gets one DM with the outcome in the plan message's words and a link to the thread (on completion and
on cancellation), an approver who pressed "Notify me when it ends" gets one too, someone who turned the DMs off
in the App Home gets none, and the App Home lists the run under Recent results."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from minds_bot.render.run_notice import HOME_RUN_DMS_ACTION, NOTIFY_ME_ACTION
from slack_emulator.state import Message, View
from tests.e2e.desk import Desk, action_ids, open_desk, shown

REQUEST = 'plan "Launch positioning" Test three taglines for our new running shoe with Gen Z buyers'


@pytest.fixture
async def desk(tmp_path: Path) -> AsyncIterator[Desk]:
    async with open_desk(tmp_path) as opened:
        yield opened


def plan_message(desk: Desk, plan: Message) -> Message:
    return next(m for m in desk.emu.state.messages(desk.research) if m.ts == plan.ts)


def dms(desk: Desk, user: str) -> list[Message]:
    """What the bot wrote to ``user`` in their direct messages with it."""
    im = next((c for c in desk.emu.state.channels.values() if c.im_user == user), None)
    return [] if im is None else desk.emu.state.messages(im.id)


def link(desk: Desk, plan: Message) -> str:
    return f"<{desk.emu.workspace.permalink(plan_message(desk, plan))}|Open the thread>"


def revision(desk: Desk, plan: Message) -> str:
    """The revision the approval line names ("… revision 2 is running")."""
    text = shown(plan_message(desk, plan))
    return text.split("revision ", 1)[1].split(" ", 1)[0].rstrip(").")


async def home_of(desk: Desk, user: str, *needles: str) -> View:
    return await desk.wait(
        lambda: (h := desk.emu.state.home(user)) is not None and all(n in shown(h) for n in needles) and h or None
    )


async def test_the_requester_hears_once_that_the_run_completed_with_a_link_to_its_thread(desk: Desk) -> None:
    plan = await desk.answered_plan(desk.ben, REQUEST)
    await desk.emu.click_button(user=desk.ada, action_id="plan_approve", channel=desk.research, ts=plan.ts)
    dm = await desk.wait(lambda: next(iter(dms(desk, desk.ben)), None))
    assert dm.text == (
        "A research run has ended.\n"
        f"*Launch positioning* in <#{desk.research}>, revision {revision(desk, plan)}: "
        f":white_check_mark: Completed — results in the thread. {link(desk, plan)}"
    )
    assert "You get this because you requested this research. Turn these messages off in the Minds App Home." in (
        shown(dm)
    )
    assert "Completed: " in " ".join(shown(m) for m in desk.emu.state.replies(desk.research, plan.ts))
    assert dms(desk, desk.ada) == [], "the approver did not ask to hear about it"

    await desk.emu.open_home(user=desk.ben)
    home = await home_of(desk, desk.ben, "Recent results", "Completed — results in the thread.")
    assert (
        "The last 10 runs that ended in channels you are in where you requested or approved research, or are an "
        "approver." in shown(home)
    )
    assert f"*Launch positioning* in <#{desk.research}>, revision {revision(desk, plan)}" in shown(home)
    assert "*DMs when a run ends:* On" in shown(home)
    assert len(dms(desk, desk.ben)) == 1, "one DM per person per run end"


async def test_a_cancelled_run_is_told_to_the_requester_and_the_approver_who_asked(desk: Desk) -> None:
    await desk.faults(run_speed=0.001)  # live long enough to press Notify me and cancel
    plan = await desk.answered_plan(desk.ben, REQUEST)
    approved = desk.emu.mark()
    await desk.emu.click_button(user=desk.ada, action_id="plan_approve", channel=desk.research, ts=plan.ts)
    await desk.wait(lambda: NOTIFY_ME_ACTION in action_ids(plan_message(desk, plan).blocks))
    assert "Notify me when it ends" in shown(plan_message(desk, plan))

    mark = desk.emu.mark()
    await desk.emu.click_button(user=desk.ada, action_id=NOTIFY_ME_ACTION, channel=desk.research, ts=plan.ts)
    await desk.private(desk.ada, mark, ":bell: You will get a DM when this run ends.")
    mark = desk.emu.mark()
    await desk.emu.click_button(user=desk.ben, action_id=NOTIFY_ME_ACTION, channel=desk.research, ts=plan.ts)
    await desk.private(desk.ben, mark, ":bell: You requested this research: you get a DM when it ends already.")

    progress = await desk.posted(approved, lambda m: "run_cancel" in action_ids(m.blocks), thread_ts=plan.ts)
    mark = desk.emu.mark()
    await desk.emu.click_button(user=desk.ben, action_id="run_cancel", channel=desk.research, ts=progress.ts)
    await desk.private(desk.ben, mark, "Minds accepted the cancellation")

    expected = (
        "A research run has ended.\n"
        f"*Launch positioning* in <#{desk.research}>, revision {revision(desk, plan)}: "
        f":heavy_multiplication_x: Cancelled by <@{desk.ben}> — what Minds reported is in the thread. "
        f"{link(desk, plan)}"
    )
    for person in (desk.ben, desk.ada):
        dm = await desk.wait(lambda person=person: next(iter(dms(desk, person)), None))
        assert dm.text == expected
    assert "because you pressed “Notify me when it ends” on its plan." in shown(dms(desk, desk.ada)[0])
    assert NOTIFY_ME_ACTION not in action_ids(plan_message(desk, plan).blocks), "the closing line replaced it"
    assert dms(desk, desk.chloe) == []
    assert len(dms(desk, desk.ben)) == len(dms(desk, desk.ada)) == 1


async def test_someone_who_turned_the_dms_off_gets_none_and_still_finds_the_result_on_the_home(desk: Desk) -> None:
    await desk.emu.open_home(user=desk.ben)
    home = await home_of(desk, desk.ben, "*DMs when a run ends:* On", "No research run has ended yet")
    delivery = await desk.emu.click_button(
        user=desk.ben, action_id=HOME_RUN_DMS_ACTION, block_id="home_run_dms", view_id=home.id
    )
    assert delivery.ok, delivery.error
    home = await home_of(desk, desk.ben, "*DMs when a run ends:* Off", "Turn on")

    plan = await desk.answered_plan(desk.ben, REQUEST)
    await desk.emu.click_button(user=desk.ada, action_id="plan_approve", channel=desk.research, ts=plan.ts)
    # The Home is republished after the run's end was recorded and its DMs were (not) sent.
    home = await home_of(desk, desk.ben, "Completed — results in the thread.")
    assert link(desk, plan) in shown(home)
    assert dms(desk, desk.ben) == []
