"""Slack's rate limits: a Web API call answered with HTTP 429 waits the ``Retry-After`` Slack gave and is sent
again, so a plan message (or a result, a digest, an update) is not lost to a busy channel."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from minds_bot.services import SLACK_RATE_LIMIT_RETRIES, ChannelPacer
from minds_bot.store import RunKind
from tests.fakes.bot import CHANNEL, BotHarness, bot_harness
from tests.fakes.minds_http import ok
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
