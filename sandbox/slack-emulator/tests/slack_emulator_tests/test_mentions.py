"""A typed ``@chloe`` reaches the app as Slack sends it: ``<@U…>`` in a message, ``<@U…|chloe>`` in the text of a
slash command whose escaping is on; unknown names, e-mail addresses and existing markup stay as typed."""

from __future__ import annotations

import json

from slack_emulator import Emulator
from slack_emulator.mentions import Named, encode
from slack_emulator_tests.conftest import ADA, BEN, CHLOE, RESEARCH, BotStandIn

PEOPLE = [Named(CHLOE, ("chloe",)), Named(BEN, ("ben",))]
CHANNELS = [Named(RESEARCH, ("research",))]


def test_known_names_become_mentions_and_the_rest_stays_as_typed() -> None:
    text = "@Chloe and @ben, see #research; ask @nobody or mail ben@example.com about <@U99|x> @here."
    assert encode(text, people=PEOPLE, channels=CHANNELS) == (
        f"<@{CHLOE}> and <@{BEN}>, see <#{RESEARCH}>; ask @nobody or mail ben@example.com about <@U99|x> <!here>."
    )


def test_escaped_command_text_keeps_the_name_after_a_bar() -> None:
    assert encode("approvers add @chloe @ben #research", people=PEOPLE, channels=CHANNELS, bar_names=True) == (
        f"approvers add <@{CHLOE}|chloe> <@{BEN}|ben> <#{RESEARCH}|research>"
    )


async def test_a_typed_mention_in_a_message_reaches_the_app_as_a_user_id(emu: Emulator, bot: BotStandIn) -> None:
    message = await emu.post_message(user=ADA, channel=RESEARCH, text="@chloe can you approve? @zed too")
    event = json.loads((await bot.next()).raw)["event"]
    assert event["text"] == f"<@{CHLOE}> can you approve? @zed too"
    assert message.text == event["text"]


async def test_an_escaped_command_gets_user_ids_and_an_unescaped_one_the_words(emu: Emulator, bot: BotStandIn) -> None:
    await emu.send_slash_command(user=ADA, channel=RESEARCH, text="approvers add @chloe")
    assert (await bot.next()).fields["text"] == "approvers add @chloe"  # escaping off, as the app has not asked
    emu.connect_bot(bot.url, escaped_commands=["/minds"])
    await emu.send_slash_command(user=ADA, channel=RESEARCH, text="approvers add @chloe @Ben")
    assert (await bot.next()).fields["text"] == f"approvers add <@{CHLOE}|chloe> <@{BEN}|Ben>"
