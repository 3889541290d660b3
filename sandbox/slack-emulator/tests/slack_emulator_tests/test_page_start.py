"""The page's snapshot names the channel it opens in and the notice it shows on every screen."""

from __future__ import annotations

from slack_emulator import running_emulator
from slack_emulator.pages import snapshot
from slack_emulator_tests.conftest import ADA, GENERAL, RESEARCH, BotStandIn, FakeClock, make_config


async def test_the_page_opens_in_the_configured_channel_with_its_notice(bot: BotStandIn, clock: FakeClock) -> None:
    config = make_config(bot, clock, start_channel="research", notice="Answers are simulated locally.")
    async with running_emulator(config) as emu:
        shown = snapshot(emu, user=ADA)
    assert shown["start_channel"] == RESEARCH
    assert shown["notice"] == "Answers are simulated locally."


async def test_without_a_start_channel_the_page_opens_in_the_first_and_says_nothing(
    bot: BotStandIn, clock: FakeClock
) -> None:
    async with running_emulator(make_config(bot, clock)) as emu:
        shown = snapshot(emu, user=ADA)
    assert shown["start_channel"] == GENERAL
    assert shown["notice"] is None
