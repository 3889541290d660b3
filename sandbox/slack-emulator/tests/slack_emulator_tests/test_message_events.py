"""People typing in channels: the emulator tells the bot with Slack's signed ``message`` event (``thread_ts`` on
replies), and only where Slack would — not for the bot's own posts, nor in channels without the bot."""

from __future__ import annotations

import json

from slack_sdk.web.async_client import AsyncWebClient

from slack_emulator import Emulator
from slack_emulator_tests.conftest import BEN, BOT_TOKEN, RESEARCH, BotStandIn


async def test_a_thread_reply_is_delivered_as_a_signed_message_event(emu: Emulator, bot: BotStandIn) -> None:
    parent = await emu.post_message(user=BEN, channel=RESEARCH, text="Kick-off")
    first = await bot.next()
    reply = await emu.post_message(user=BEN, channel=RESEARCH, text="A reply", thread_ts=parent.ts)
    second = await bot.next()
    assert first.signature_valid and second.signature_valid and second.content_type == "application/json"
    body = json.loads(second.raw)
    assert body["type"] == "event_callback" and body["event_id"].startswith("Ev")
    event = body["event"]
    assert event == {
        "type": "message",
        "channel": RESEARCH,
        "user": BEN,
        "text": "A reply",
        "ts": reply.ts,
        "event_ts": reply.ts,
        "channel_type": "channel",
        "thread_ts": parent.ts,
    }
    assert "thread_ts" not in json.loads(first.raw)["event"]
    assert emu.state.replies(RESEARCH, parent.ts)[-1].text == "A reply"


async def test_the_bots_own_posts_are_not_delivered(emu: Emulator, bot: BotStandIn) -> None:
    client = AsyncWebClient(token=BOT_TOKEN, base_url=emu.api_url)
    await client.chat_postMessage(channel=RESEARCH, text="from the bot")
    await emu.post_message(user=BEN, channel=RESEARCH, text="from Ben")
    only = await bot.next()
    assert json.loads(only.raw)["event"]["text"] == "from Ben"
    assert bot.received.empty()


async def test_a_channel_without_the_bot_is_not_delivered(emu: Emulator, bot: BotStandIn) -> None:
    emu.workspace.channel(RESEARCH).bot_is_member = False
    message = await emu.post_message(user=BEN, channel=RESEARCH, text="private chatter")
    assert emu.state.find_message(RESEARCH, message.ts) is not None
    assert bot.received.empty()
