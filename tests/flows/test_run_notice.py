"""The DM when a research run ends is sent once per person, however many looks (replicas, restarts) see the end,
never to someone who turned it off, and only to people still in the run's channel (asked from Slack at the end);
the run's end is recorded once for the App Home."""

from __future__ import annotations

import asyncio

from minds_bot.flows.run_notice import notify_run_end
from minds_bot.store import TrackedRun
from tests.fakes.bot import BotHarness
from tests.fakes.slack_web import BOT_USER
from tests.flows.test_research_run import bot
from tests.store import factories

__all__ = ["bot"]  # the fixture


def dms_to(bot: BotHarness, user: str) -> list[str]:
    return [c["text"] for c in bot.slack.calls_to("chat.postMessage") if c.get("channel") in (user, f"D{user}")]


async def ended_run(bot: BotHarness, *, members: tuple[str, ...] = ("U_REQ", "U_WATCH")) -> TrackedRun:
    post = factories.plan_post()
    await bot.store.save_plan_post(post)
    bot.slack.channel_members[post.channel_id] = [*members, BOT_USER]
    return factories.tracked_run().model_copy(update={"channel_id": post.channel_id, "thread_ts": post.message_ts})


async def test_every_look_at_the_same_end_sends_the_requester_one_dm(bot: BotHarness) -> None:
    run = await ended_run(bot)
    slack = await bot.services.slack.client_for(run.team_id)
    await bot.store.watch_run(team_id=run.team_id, run_id=run.run_id, user_id="U_WATCH")
    await asyncio.gather(*(notify_run_end(bot.services, slack, run, status="completed") for _ in range(5)))
    await notify_run_end(bot.services, slack, run, status="failed")  # a later look keeps the first end
    (dm,) = dms_to(bot, "U_REQ")
    assert dm.startswith("A research run has ended.\n*Launch message* in <#C1>, revision 1: :white_check_mark: ")
    assert len(dms_to(bot, "U_WATCH")) == 1
    (result,) = await bot.store.recent_run_results(team_id=run.team_id, user_id="U_REQ", limit=10)
    assert result.status == "completed"


async def test_a_person_who_turned_the_dms_off_gets_none(bot: BotHarness) -> None:
    run = await ended_run(bot)
    slack = await bot.services.slack.client_for(run.team_id)
    await bot.store.set_run_dms(team_id=run.team_id, user_id="U_REQ", on=False)
    await notify_run_end(bot.services, slack, run, status="cancelled")
    assert dms_to(bot, "U_REQ") == []
    assert await bot.store.recent_run_results(team_id=run.team_id, user_id="U_REQ", limit=10), "still listed"


async def test_only_people_still_in_the_runs_channel_hear_of_its_end(bot: BotHarness) -> None:
    run = await ended_run(bot, members=("U_WATCH",))  # the requester left the channel while it ran
    slack = await bot.services.slack.client_for(run.team_id)
    await bot.store.watch_run(team_id=run.team_id, run_id=run.run_id, user_id="U_WATCH")
    await bot.store.watch_run(team_id=run.team_id, run_id=run.run_id, user_id="U_GONE")
    asked_before = len(bot.slack.calls_to("conversations.members"))
    await notify_run_end(bot.services, slack, run, status="completed")
    assert dms_to(bot, "U_REQ") == [] and dms_to(bot, "U_GONE") == []
    assert len(dms_to(bot, "U_WATCH")) == 1
    assert len(bot.slack.calls_to("conversations.members")) - asked_before == 3  # asked fresh, once per person
