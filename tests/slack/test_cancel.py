"""The Cancel button on a run's progress message, through the real Bolt app: it sits behind a confirm dialog,
only the people who may approve in the channel can use it, Minds is asked once, the thread then says
``cancelled`` in Minds' words, and a second click (or a click after the end) changes nothing and says why."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.fakes.bot import BotHarness, bot_harness, buttons
from tests.fakes.minds_http import envelope, ok
from tests.slack import samples

STUDY = samples.STUDY_ID
RUN = samples.RUN_ID
CANCEL = f"/runs/{RUN}/cancel"
QUESTION = "Would you pay $5 a month for faster delivery?"


@pytest.fixture
async def bot() -> AsyncIterator[BotHarness]:
    async with bot_harness() as running:
        running.minds_api.on("GET", f"/studies/{STUDY}", ok(samples.study_detail()))
        running.minds_api.on("POST", f"/studies/{STUDY}/runs", ok({"runId": RUN, "status": "queued"}, status=202))
        running.slack.users["U0009"] = {"id": "U0009", "is_admin": False}
        yield running


async def running_with_button(bot: BotHarness) -> dict[str, Any]:
    """Ask a question and let the tracker show "answering"; returns the progress update with its button."""
    await bot.command(f"ask {STUDY} {QUESTION}")
    await bot.tracker.tracked.get()
    bot.minds_api.on("GET", f"/runs/{RUN}", ok(samples.agent_run("running")))
    assert await bot.tracker.tick() == 1
    return bot.slack.calls_to("chat.update")[-1]


async def test_the_progress_message_has_a_cancel_button_behind_a_confirmation(bot: BotHarness) -> None:
    progress = await running_with_button(bot)
    cancel = buttons(progress)["run_cancel"]
    assert cancel["value"] == RUN and cancel["style"] == "danger"
    assert cancel["confirm"]["title"]["text"] == "Cancel this run?"
    assert "finished keep their answers" in cancel["confirm"]["text"]["text"]


async def test_the_asker_cancels_and_the_thread_says_cancelled_once(bot: BotHarness) -> None:
    await running_with_button(bot)
    bot.minds_api.on("POST", CANCEL, ok(samples.agent_run("cancelled")))
    await bot.click("run_cancel", RUN, ephemeral=False)
    assert "Minds accepted the cancellation" in (await bot.reply())["text"]
    assert len(bot.minds_api.to("POST", CANCEL)) == 1
    marked = bot.slack.calls_to("chat.update")[-1]
    assert "<@U0001> asked Minds to cancel this run" in marked["text"] and "run_cancel" not in buttons(marked)

    bot.minds_api.set("GET", f"/runs/{RUN}", ok(samples.agent_run("cancelled")))
    assert await bot.tracker.tick() == 1
    ended = bot.slack.calls_to("chat.postMessage")[-1]
    assert "cancelled" in ended["text"]
    assert await bot.tracker.tick() == 0  # posted once


async def test_someone_who_may_not_approve_is_refused_and_nothing_is_sent(bot: BotHarness) -> None:
    await running_with_button(bot)
    await bot.click("run_cancel", RUN, user="U0009", ephemeral=False)
    refusal = await bot.refusal()
    assert "Only <@U0001>, this channel's approvers and workspace admins can cancel" in refusal
    assert bot.minds_api.to("POST", CANCEL) == []


async def test_a_channel_approver_may_cancel(bot: BotHarness) -> None:
    await running_with_button(bot)
    await bot.store.add_approver(team_id="T0001", channel_id="C0001", user_id="U0009")
    bot.minds_api.on("POST", CANCEL, ok(samples.agent_run("cancelled")))
    await bot.click("run_cancel", RUN, user="U0009", ephemeral=False)
    assert "accepted" in (await bot.reply())["text"]


async def test_a_second_click_changes_nothing_and_says_why(bot: BotHarness) -> None:
    await running_with_button(bot)
    bot.minds_api.on(
        "POST",
        CANCEL,
        ok(samples.agent_run("cancelled")),
        envelope(409, code="RUN_NOT_ACTIVE", message="The run is already cancelled"),
    )
    bot.minds_api.set("GET", f"/runs/{RUN}", ok(samples.agent_run("cancelled")))
    await bot.click("run_cancel", RUN, ephemeral=False)
    await bot.reply()
    await bot.click("run_cancel", RUN, ephemeral=False)
    assert "reports this run as cancelled already" in (await bot.refusal())


async def test_a_click_after_the_result_was_posted_does_not_reach_minds(bot: BotHarness) -> None:
    await running_with_button(bot)
    bot.minds_api.set("GET", f"/runs/{RUN}", ok(samples.agent_run("failed")))
    await bot.tick()
    assert "failed" in bot.slack.calls_to("chat.postMessage")[-1]["text"]
    await bot.click("run_cancel", RUN, ephemeral=False)
    assert "already ended" in (await bot.refusal())
    assert bot.minds_api.to("POST", CANCEL) == []


async def test_minds_not_offering_a_cancel_is_said_and_the_run_goes_on(bot: BotHarness) -> None:
    await running_with_button(bot)
    bot.minds_api.on("POST", CANCEL, envelope(404, message="Run not found"))
    await bot.click("run_cancel", RUN, ephemeral=False)
    assert "does not offer cancelling this run" in (await bot.refusal())
    assert "run_cancel" in buttons(bot.slack.calls_to("chat.update")[-1])


async def test_an_unknown_run_is_refused(bot: BotHarness) -> None:
    await bot.click("run_cancel", "not-a-run", ephemeral=False)
    assert "no longer on record" in (await bot.refusal())
    assert json.dumps(bot.minds_api.to("POST", CANCEL)) == "[]"
