"""Slack's rate limits: a Web API call answered with HTTP 429 waits the ``Retry-After`` Slack gave and is sent
again, so a plan message (or a result, a digest, an update) is not lost to a busy channel."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from minds_bot.services import SLACK_RATE_LIMIT_RETRIES, ChannelPacer, slack_web_client
from minds_bot.store import RunKind
from tests.fakes.bot import CHANNEL, BotHarness, bot_harness
from tests.fakes.minds_http import ok
from tests.fakes.slack_web import fake_slack
from tests.slack.plan_samples import plan_data, study_data
from tests.slack.test_plan_listeners import PREVIEW, REQUESTER, STUDY_ID


@pytest.fixture
async def bot() -> AsyncIterator[BotHarness]:
    async with bot_harness(unique_ts=True, user=REQUESTER) as harness:
        harness.minds_api.on("GET", f"/studies/{STUDY_ID}", ok(study_data()))
        harness.minds_api.on("POST", PREVIEW, ok(plan_data()))
        yield harness


async def test_a_post_slack_rate_limits_is_sent_again_after_retry_after(bot: BotHarness) -> None:
    bot.slack.throttled["chat.postMessage"] = SLACK_RATE_LIMIT_RETRIES  # busy for every retry but the last
    await bot.command(f"plan {STUDY_ID} Which launch message works best?")
    await bot.tracker.next_tracked(RunKind.PLAN)
    (posted,) = bot.slack.calls_to("chat.postMessage")
    assert posted["channel"] == CHANNEL and posted["text"].startswith("Preparing the plan")
    assert bot.slack.throttled_answers == SLACK_RATE_LIMIT_RETRIES


async def test_a_channel_takes_a_burst_then_one_post_a_second() -> None:
    now, slept = [0.0], []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        now[0] += seconds

    pacer = ChannelPacer(rate=1.0, burst=3, clock=lambda: now[0], sleep=sleep)
    for _ in range(6):
        await pacer.wait("C1")
    assert slept == [1.0, 1.0, 1.0]  # three at once, then one a second
    await pacer.wait("C2")
    assert slept == [1.0, 1.0, 1.0]  # another channel keeps its own pace
    now[0] += 10
    await pacer.wait("C1")
    assert len(slept) == 3  # a channel quiet for a while takes a burst again


async def test_listeners_post_through_the_paced_client(bot: BotHarness) -> None:
    await bot.command(f"plan {STUDY_ID} Which launch message works best?")
    await bot.tracker.next_tracked(RunKind.PLAN)
    assert bot.slack.calls_to("chat.postMessage")
    assert bot.services.slack.pacer.paces(CHANNEL)


class FakeTime:
    """A clock that sleeping moves forward (and that yields, so other tasks run)."""

    def __init__(self) -> None:
        self.now = 0.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds
        await asyncio.sleep(0)


async def test_a_workspace_keeps_to_tier_3_for_updates_whatever_the_channel() -> None:
    time = FakeTime()
    pacer = ChannelPacer(rate=100.0, burst=100, updates_per_minute=3, clock=time, sleep=time.sleep)
    for channel in ("C1", "C2", "C3"):
        await pacer.wait(channel, workspace="W1")
    assert time.slept == []
    await pacer.wait("C4", workspace="W1")
    assert time.slept == [60.0]  # the fourth update of the minute waits for the first to leave the window
    await pacer.wait("C5", workspace="W2")
    assert time.slept == [60.0]  # another workspace has its own minute
    await pacer.wait("C6")
    assert time.slept == [60.0]  # posts are paced per channel only


async def test_progress_edits_beyond_the_pace_are_merged_newest_first_and_none_is_lost() -> None:
    """Three states of one run while the workspace is at its limit: only the newest is sent, after the
    earlier edits, and the other run's edit still goes out."""
    time = FakeTime()
    pacer = ChannelPacer(rate=100.0, burst=100, updates_per_minute=2, clock=time, sleep=time.sleep)
    async with fake_slack() as slack:
        client = slack_web_client("xoxb-test", base_url=slack.api_url, pacer=pacer)  # fake
        for text in ("1 of 4", "2 of 4"):
            await client.edit_progress(channel="C1", ts="1.1", text=text)
        assert [c["text"] for c in slack.calls_to("chat.update")] == ["1 of 4", "2 of 4"]  # within the pace
        for text in ("3 of 4", "4 of 4", "Completed"):
            await client.edit_progress(channel="C1", ts="1.1", text=text)
        await client.edit_progress(channel="C2", ts="2.1", text="1 of 2")
        await pacer.settled()
    sent = [(c["ts"], c["text"]) for c in slack.calls_to("chat.update")]
    assert sent == [("1.1", "1 of 4"), ("1.1", "2 of 4"), ("1.1", "Completed"), ("2.1", "1 of 2")]
    assert time.slept and time.now >= 60.0  # the merged edits waited for room in the workspace's minute
