"""/minds chat through the real Bolt app: a thread headed by the Mind, each person's reply one turn of the same
Minds chat with the answer marked synthetic, bot messages and edits ignored, a Mind still training never
called, long messages refused with the limit, and idle threads closed once, politely."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from minds_bot.flows.chat import MAX_CHAT_MESSAGE_CHARS, close_idle_chats
from tests.fakes.bot import CHANNEL, TEAM, BotHarness, blocks_of, bot_harness, buttons
from tests.fakes.minds_http import envelope, ok, page, raw
from tests.fakes.slack_web import FIXED_TS
from tests.slack import samples

MIND = samples.uid(3001)
CHAT = samples.uid(4001)
MESSAGES = f"/chats/{CHAT}/messages"
REPLIER = "U0002"


def mind_detail(*, ready: bool = True) -> dict[str, Any]:
    return {
        "id": MIND,
        "name": "Mia <Novak>",
        "description": "22-year-old student in Berlin",
        "discipline": "Sneakers",
        "type": "user",
        "tags": [],
        "isPublic": False,
        "isLinkSharingEnabled": False,
        "knowledgeItemCount": 0,
        "readyToChat": ready,
        "trainingStatus": "completed" if ready else "running",
        "profileImageUrl": "https://img.test/mia.png",
        "createdAt": "2026-01-01T00:00:00Z",
        "updatedAt": "2026-01-01T00:00:00Z",
    }


@pytest.fixture
async def bot() -> AsyncIterator[BotHarness]:
    async with bot_harness(wait_for_listeners=True) as running:
        running.minds_api.on("GET", f"/minds/{MIND}", ok(mind_detail()))
        created = {"id": CHAT, "name": "c", "createdAt": "2026-01-01T00:00:00Z", "minds": [{"id": MIND, "name": "Mia"}]}
        running.minds_api.on("POST", "/chats", ok(created, status=201))
        running.slack.acting.add(REPLIER)  # who replies in the threads: a member of the channel
        yield running


async def opened(bot: BotHarness) -> dict[str, Any]:
    await bot.command(f"chat {MIND}")
    assert "The chat is open" in (await bot.reply_containing("chat is open"))["text"]
    (header,) = bot.slack.calls_to("chat.postMessage")
    return header


def reply_event(text: str, **extra: Any) -> dict[str, Any]:
    event = {"type": "message", "channel": CHANNEL, "user": "U0002", "text": text, "ts": "1733140001.000200"}
    return {**event, "thread_ts": FIXED_TS, "channel_type": "channel", **extra}


async def test_chat_opens_a_thread_headed_by_the_mind_and_stores_the_chat(bot: BotHarness) -> None:
    header = await opened(bot)
    shown = json.dumps(blocks_of(header), ensure_ascii=False)
    assert header["channel"] == CHANNEL and "thread_ts" not in header
    assert "*Mia &lt;Novak&gt;*" in shown and "Sneakers — 22-year-old student in Berlin" in shown
    assert "https://img.test/mia.png" in shown and "Synthetic" in shown
    assert bot.minds_api.to("POST", "/chats")[0].json()["mindId"] == MIND
    stored = await bot.store.get_chat_thread(team_id=TEAM, channel_id=CHANNEL, thread_ts=FIXED_TS)
    assert stored is not None and stored.chat_id == CHAT and stored.mind_name == "Mia <Novak>"


async def test_each_reply_is_one_turn_and_the_answer_is_marked_synthetic(bot: BotHarness) -> None:
    await opened(bot)
    bot.minds_api.on(
        "POST",
        MESSAGES,
        raw({"content": "Honestly? <!channel> only if they look good.", "messageId": "m1"}),
        raw({"content": "Still yes.", "messageId": "m2"}),
    )
    await bot.event(reply_event("Would you buy recycled sneakers?"), event_id="Ev1")
    await bot.event(reply_event("And at 120 euros?", ts="1733140002.000300"), event_id="Ev2")
    sent = [s.json() for s in bot.minds_api.to("POST", MESSAGES)]
    assert sent == [{"content": "Would you buy recycled sneakers?"}, {"content": "And at 120 euros?"}]
    answers = bot.slack.calls_to("chat.postMessage")[1:]
    assert [a["thread_ts"] for a in answers] == [FIXED_TS, FIXED_TS]
    first = json.dumps(blocks_of(answers[0]), ensure_ascii=False)
    assert "&lt;!channel&gt;" in first and "<!channel>" not in first
    assert "Synthetic answer" in first and "(synthetic)" in answers[0]["text"]


@pytest.mark.parametrize(
    "event",
    [
        reply_event("from a bot", bot_id="B1"),
        reply_event("edited", subtype="message_changed"),
        {**reply_event("top level"), "thread_ts": None},
        reply_event("another thread", thread_ts="1733149999.000001"),
    ],
)
async def test_bot_messages_edits_top_level_and_other_threads_are_ignored(
    bot: BotHarness, event: dict[str, Any]
) -> None:
    await opened(bot)
    await bot.event(event)
    assert bot.minds_api.to("POST", MESSAGES) == []
    assert len(bot.slack.calls_to("chat.postMessage")) == 1


async def test_a_mind_still_training_is_named_and_never_called(bot: BotHarness) -> None:
    bot.minds_api.set("GET", f"/minds/{MIND}", ok(mind_detail(ready=False)))
    await bot.command(f"chat {MIND}")
    note = await bot.reply_containing("still training")
    assert "training: running" in note["text"]
    assert bot.minds_api.to("POST", "/chats") == [] and bot.slack.calls_to("chat.postMessage") == []


async def test_an_answer_longer_than_one_message_arrives_whole_in_numbered_parts(bot: BotHarness) -> None:
    await opened(bot)
    paragraphs = [f"Paragraph {n}: " + "word " * 500 for n in range(80)]  # about 200,000 characters
    bot.minds_api.on("POST", MESSAGES, raw({"content": "\n\n".join(paragraphs), "messageId": "m1"}))
    await bot.event(reply_event("Tell me everything."))
    parts = bot.slack.calls_to("chat.postMessage")[1:]
    assert len(parts) > 1 and all(p["thread_ts"] == FIXED_TS for p in parts)
    shown = "".join(json.dumps(blocks_of(p), ensure_ascii=False) for p in parts)
    assert all(f"Paragraph {n}:" in shown for n in range(80))  # nothing cut
    assert f"(part {len(parts)} of {len(parts)})" in parts[-1]["text"]
    assert all("Synthetic answer" in json.dumps(blocks_of(p)) for p in parts)


async def test_training_reported_mid_chat_is_said_in_the_thread(bot: BotHarness) -> None:
    await opened(bot)
    bot.minds_api.on("POST", MESSAGES, envelope(409, code="SPARK_NOT_READY", message="training"))
    await bot.event(reply_event("Hello?"))
    said = bot.slack.calls_to("chat.postMessage")[-1]
    assert said["thread_ts"] == FIXED_TS and "still training" in said["text"]


async def test_a_too_long_message_is_refused_with_the_limit_and_not_sent(bot: BotHarness) -> None:
    await opened(bot)
    await bot.event(reply_event("x" * (MAX_CHAT_MESSAGE_CHARS + 1)))
    (private,) = bot.slack.calls_to("chat.postEphemeral")
    assert private["user"] == "U0002" and f"at most {MAX_CHAT_MESSAGE_CHARS:,}" in private["text"]
    assert bot.minds_api.to("POST", MESSAGES) == []


async def test_an_idle_thread_is_closed_once_and_later_replies_are_not_sent(bot: BotHarness) -> None:
    await opened(bot)
    bot.clock.advance(23 * 3600)
    assert await close_idle_chats(bot.services) == 0
    bot.clock.advance(2 * 3600)
    assert await close_idle_chats(bot.services) == 1
    assert await close_idle_chats(bot.services) == 0
    closing = bot.slack.calls_to("chat.postMessage")[-1]
    assert closing["thread_ts"] == FIXED_TS and "closed after 24 hours without messages" in closing["text"]
    await bot.event(reply_event("Are you there?"))
    assert "was closed" in bot.slack.calls_to("chat.postEphemeral")[-1]["text"]
    assert bot.minds_api.to("POST", MESSAGES) == []


async def test_a_name_is_looked_up_and_a_loose_match_is_offered_first(bot: BotHarness) -> None:
    bot.minds_api.on("GET", "/minds", page([samples.mind(1, "Mia Novak")], total=1, offset=0))
    await bot.command("chat Mia Novak")
    await bot.reply_containing("chat is open")
    assert bot.minds_api.to("POST", "/chats")[0].json()["mindId"] == samples.uid(3001)

    await bot.command("chat mia novk")
    offer = await bot.reply_containing("Did you mean")
    (choice,) = [b for k, b in buttons(offer).items() if k.startswith("minds_rerun")]
    assert choice["value"] == f"chat {samples.uid(3001)}"
    assert len(bot.minds_api.to("POST", "/chats")) == 1


async def test_browsing_minds_offers_a_chat_button_per_mind(bot: BotHarness) -> None:
    bot.minds_api.on("GET", "/minds", page([samples.mind(1, "Mia Novak")], total=1, offset=0, limit=10))
    await bot.command("minds")
    listing = await bot.reply_containing("Mia Novak")
    chat = buttons(listing)[f"minds_rerun:chat:{samples.uid(3001)}"]
    assert chat["value"] == f"chat {samples.uid(3001)}" and chat["text"]["text"] == "Chat"


async def test_help_lists_chat(bot: BotHarness) -> None:
    await bot.command("help")
    assert "/minds chat &lt;mind&gt;" in json.dumps(blocks_of(await bot.reply()))
