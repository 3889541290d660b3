"""Issue #33 rows 7–8 through the real Bolt app (signed requests, fake Slack Web API, fake Minds): asking an
Audience (the command and the Audience card's Ask), `/minds duplicate audience` (and the card's Duplicate) and every
chat turn follow their line of the channel's spend policy — refused: the policy's sentence and nothing reaches
Minds; held: the approval line, then run once as the requester when an approver approves — and `/minds activity`
lists each with what it counted; the person's share of the Minds budget stops a dialog's spend as it stops a
command's; the activity CSV names people (their ids kept beside) and neutralises its cells."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from minds_bot.render.ask_audience import ask_audience_modal
from minds_bot.render.audience import audience_value
from minds_bot.store import ChannelPolicy, PolicyMode, RunKind
from tests.fakes.bot import CHANNEL, TEAM, USER, BotHarness, blocks_of, bot_harness, buttons
from tests.fakes.minds_http import ok, page, raw
from tests.fakes.slack_web import FIXED_TS
from tests.slack import samples
from tests.slack.test_chat import CHAT, MESSAGES, MIND, mind_detail, reply_event
from tests.slack.test_research_tools import AUDIENCE, WRAPPER, audience_detail, wrapper_study

ADMIN, BEN, REPLIER = "UADMIN", "UBEN", "U0002"
QUESTION = "Why do you buy organic?"
REFUSED = (
    "This channel's spend policy refuses this: {action}. See `/minds policy`. "
    "Workspace admins and this channel's approvers (`/minds approvers list`) can change it."
)
ASK_LINE = "Ask a question (`/minds ask`)"
DUPLICATE_LINE = "Duplicate a Study or an Audience (`/minds duplicate`)"
CHAT_LINE = "Chat with a Mind (`/minds chat`)"


@pytest.fixture
async def bot() -> AsyncIterator[BotHarness]:
    async with bot_harness(wait_for_listeners=True) as running:
        running.slack.users[ADMIN] = {"id": ADMIN, "is_admin": True, "real_name": "Ada Admin"}
        running.slack.users[BEN] = {"id": BEN, "profile": {"real_name": "Ben Okafor", "display_name": "ben"}}
        for person in (ADMIN, BEN, REPLIER):
            running.slack.acting.add(person)  # everyone here is in the channel
        yield running


async def policy(bot: BotHarness, action: str, mode: PolicyMode) -> None:
    await bot.store.set_channel_policy(
        ChannelPolicy(team_id=TEAM, channel_id=CHANNEL, action=action, mode=mode, set_by=ADMIN)
    )


async def activity(bot: BotHarness) -> str:
    """`/minds activity` as the admin, as its text reads (mrkdwn)."""
    await bot.command("activity", user=ADMIN)
    return str((await bot.reply_containing("Minds spending in this channel"))["text"])


def posted(bot: BotHarness, words: str) -> list[dict[str, Any]]:
    return [c for c in bot.slack.calls_to("chat.postMessage") if words in c.get("text", "")]


def private(bot: BotHarness, user: str, words: str) -> list[dict[str, Any]]:
    return [c for c in bot.slack.calls_to("chat.postEphemeral") if c["user"] == user and words in c.get("text", "")]


async def approve(bot: BotHarness, line: dict[str, Any]) -> None:
    """The admin presses Approve on the channel's approval line."""
    await bot.click("spend_hold_approve", buttons(line)["spend_hold_approve"]["value"], user=ADMIN)


def serve_audience_ask(bot: BotHarness) -> None:
    bot.minds_api.on("GET", f"/audiences/{AUDIENCE}", ok(audience_detail()))
    created = {k: v for k, v in wrapper_study().items() if k != "messages"}
    bot.minds_api.on("POST", "/studies", ok(created, status=201))
    bot.minds_api.on("GET", f"/studies/{WRAPPER}", ok(wrapper_study()))
    bot.minds_api.on("POST", f"/studies/{WRAPPER}/runs", ok({"runId": samples.RUN_ID, "status": "queued"}, status=202))


async def ask_on_the_card(bot: BotHarness, *, user: str = BEN) -> None:
    """The Audience card's Ask dialog, submitted as Slack sends it (the view the bot opens, one question typed)."""
    view = ask_audience_modal(audience_id=AUDIENCE, audience_name="Parents", channel_id=CHANNEL).to_dict()
    await bot.submit(view, {"question": {"value": {"type": "plain_text_input", "value": QUESTION}}}, user=user)


def sent_to_minds(bot: BotHarness) -> list[tuple[str, str]]:
    return [(s.method, s.path) for s in bot.minds_api.sent]


# ---- row 7: asking an Audience follows the "ask" line ----------------------------------------------------------


async def test_ask_audience_under_a_refusing_ask_line_says_the_policy_sends_nothing_and_is_recorded(
    bot: BotHarness,
) -> None:
    await policy(bot, "ask", PolicyMode.REFUSE)
    await bot.command(f"ask audience Parents {QUESTION}", user=BEN)
    assert await bot.refusal() == REFUSED.format(action=ASK_LINE)
    await ask_on_the_card(bot)
    (card,) = private(bot, BEN, "refuses")
    assert card["text"] == REFUSED.format(action=ASK_LINE)
    assert sent_to_minds(bot) == [], "nothing reached Minds, not even a look-up"
    text = await activity(bot)
    line = f"<@{BEN}> · {ASK_LINE}: ask Minds “{QUESTION}” · Minds responses: not known · refused by the channel's"
    assert text.count(line) == 2
    assert "*Totals:* 0 requests sent to Minds, counting 0 Minds responses · 2 not sent" in text


async def test_ask_audience_at_once_counts_the_audiences_minds_and_records_the_run(bot: BotHarness) -> None:
    serve_audience_ask(bot)
    await bot.command(f"ask audience {AUDIENCE} {QUESTION}", user=BEN)
    await bot.tracker.next_tracked(RunKind.DIRECT)
    assert len(bot.minds_api.to("POST", f"/studies/{WRAPPER}/runs")) == 1
    text = await activity(bot)
    assert f"<@{BEN}> · {ASK_LINE}: ask 12 Minds “{QUESTION}” · Minds responses: 12 · started at Minds" in text, (
        "the Audience's 12 Minds are the responses asked for"
    )
    assert "*Totals:* 1 request sent to Minds, counting 12 Minds responses" in text


async def test_the_cards_ask_is_held_for_an_approver_then_asked_once_as_the_requester(bot: BotHarness) -> None:
    serve_audience_ask(bot)
    await policy(bot, "ask", PolicyMode.APPROVE)
    await ask_on_the_card(bot)
    (line,) = posted(bot, "wants to")
    assert line["text"] == f"<@{BEN}> wants to ask 12 Minds “{QUESTION}” — needs an approver"
    assert "Minds responses: 12" in json.dumps(blocks_of(line), ensure_ascii=False)
    (note,) = private(bot, BEN, "waits for an approver")
    assert note["text"] == (
        f"Your request to ask 12 Minds “{QUESTION}” waits for an approver of this channel; you will hear here when "
        "someone decides."
    )
    assert sent_to_minds(bot) == [("GET", f"/audiences/{AUDIENCE}")], "held: only the Audience was read"

    await approve(bot, line)
    await bot.tracker.next_tracked(RunKind.DIRECT)
    (create,) = bot.minds_api.to("POST", "/studies")
    assert create.json()["audienceIds"] == [AUDIENCE]
    (run,) = bot.minds_api.to("POST", f"/studies/{WRAPPER}/runs")
    assert run.json()["question"] == QUESTION
    assert private(bot, BEN, "creates a new private Study"), "the requester is told, as if they had asked now"
    (parent,) = posted(bot, "asked")
    assert f"<@{BEN}>" in parent["text"], "asked as the requester"
    await approve(bot, line)  # a second click runs nothing
    assert len(bot.minds_api.to("POST", f"/studies/{WRAPPER}/runs")) == 1
    text = await activity(bot)
    assert (
        f"<@{BEN}> · {ASK_LINE}: ask 12 Minds “{QUESTION}” · Minds responses: 12 · started at Minds "
        f"(decided by <@{ADMIN}>)"
    ) in text


# ---- row 7: `/minds duplicate audience` follows the "duplicate" line -------------------------------------------


async def test_duplicate_audience_under_a_refusing_duplicate_line_copies_nothing_and_is_recorded(
    bot: BotHarness,
) -> None:
    await policy(bot, "duplicate", PolicyMode.REFUSE)
    await bot.command("duplicate audience Parents", user=BEN)
    assert await bot.refusal() == REFUSED.format(action=DUPLICATE_LINE)
    await bot.click("audience_duplicate", audience_value(AUDIENCE, "Parents <script>"), user=BEN)
    assert await bot.refusal() == REFUSED.format(action=DUPLICATE_LINE)
    assert sent_to_minds(bot) == []
    text = await activity(bot)
    refused = "· Minds responses: 0 · refused by the channel's policy"
    assert f"<@{BEN}> · {DUPLICATE_LINE}: duplicate the Audience Parents {refused}" in text
    assert f"{DUPLICATE_LINE}: duplicate the Audience Parents &lt;script&gt; {refused}" in text, "named, not an id"


async def test_a_held_audience_copy_is_made_once_an_approver_approves(bot: BotHarness) -> None:
    bot.minds_api.on("GET", f"/audiences/{AUDIENCE}", ok(audience_detail()))
    copy = {**samples.audience(9, "Parents (copy)", minds=12), "isPublic": False}
    bot.minds_api.on("POST", f"/audiences/{AUDIENCE}/duplicate", ok(copy, status=201))
    await policy(bot, "duplicate", PolicyMode.APPROVE)
    await bot.command(f"duplicate audience {AUDIENCE}", user=BEN)
    (line,) = posted(bot, "wants to")
    assert line["text"] == f"<@{BEN}> wants to duplicate the Audience Parents &lt;script&gt; — needs an approver"
    assert "waits for an approver" in (await bot.reply_containing("waits for an approver"))["text"]
    assert bot.minds_api.to("POST", f"/audiences/{AUDIENCE}/duplicate") == []

    await approve(bot, line)
    assert len(bot.minds_api.to("POST", f"/audiences/{AUDIENCE}/duplicate")) == 1
    (done,) = private(bot, BEN, "Duplicated")
    assert "Parents (copy)" in done["text"]
    text = await activity(bot)
    assert (
        f"<@{BEN}> · {DUPLICATE_LINE}: duplicate the Audience Parents &lt;script&gt; · Minds responses: 0 · "
        f"sent to Minds (decided by <@{ADMIN}>)"
    ) in text


# ---- row 7: every chat turn follows the "chat" line ------------------------------------------------------------


def serve_chat(bot: BotHarness) -> None:
    bot.minds_api.on("GET", f"/minds/{MIND}", ok(mind_detail()))
    created = {"id": CHAT, "name": "c", "createdAt": "2026-01-01T00:00:00Z", "minds": [{"id": MIND, "name": "Mia"}]}
    bot.minds_api.on("POST", "/chats", ok(created, status=201))
    bot.minds_api.on("POST", MESSAGES, raw({"content": "Only if they look good.", "messageId": "m1"}))


async def test_chat_under_a_refusing_chat_line_starts_nothing_and_sends_no_turn(bot: BotHarness) -> None:
    serve_chat(bot)
    await policy(bot, "chat", PolicyMode.REFUSE)
    await bot.command("chat Mia Novak", user=BEN)
    assert await bot.refusal() == REFUSED.format(action=CHAT_LINE)
    assert sent_to_minds(bot) == []

    await policy(bot, "chat", PolicyMode.NOW)
    await bot.command(f"chat {MIND}")
    await bot.reply_containing("chat is open")
    await policy(bot, "chat", PolicyMode.REFUSE)
    await bot.event(reply_event("Would you buy recycled sneakers?"))
    (told,) = private(bot, REPLIER, "refuses")
    assert told["text"] == REFUSED.format(action=CHAT_LINE) and told["thread_ts"] == FIXED_TS
    assert bot.minds_api.to("POST", MESSAGES) == [], "the turn never reached the Mind"
    text = await activity(bot)
    refused = "refused by the channel's policy"
    assert f"<@{BEN}> · {CHAT_LINE}: start a chat with Mia Novak · Minds responses: 0 · {refused}" in text
    assert (
        f"<@{REPLIER}> · {CHAT_LINE}: send “Would you buy recycled sneakers?” to a Mind in a chat thread · "
        f"Minds responses: 1 · {refused}"
    ) in text


async def test_a_held_chat_start_and_a_held_turn_each_wait_for_an_approver(bot: BotHarness) -> None:
    serve_chat(bot)
    await policy(bot, "chat", PolicyMode.APPROVE)
    await bot.command(f"chat {MIND}", user=BEN)
    (start,) = posted(bot, "wants to")
    assert start["text"] == f"<@{BEN}> wants to start a chat with Mia &lt;Novak&gt; — needs an approver"
    assert bot.minds_api.to("POST", "/chats") == []
    await approve(bot, start)
    assert len(bot.minds_api.to("POST", "/chats")) == 1
    assert private(bot, BEN, "The chat is open"), "the requester hears the chat is open"
    assert await bot.store.get_chat_thread(team_id=TEAM, channel_id=CHANNEL, thread_ts=FIXED_TS) is not None

    await bot.event(reply_event("Would you buy recycled sneakers?"))
    (turn,) = [c for c in posted(bot, "wants to") if c is not start and "send" in c["text"]]
    assert turn["text"] == (
        f"<@{REPLIER}> wants to send “Would you buy recycled sneakers?” to a Mind in a chat thread — needs an approver"
    )
    (held,) = private(bot, REPLIER, "waits for an approver")
    assert held["thread_ts"] == FIXED_TS
    assert bot.minds_api.to("POST", MESSAGES) == [], "held: nothing sent to the Mind yet"
    await approve(bot, turn)
    assert [s.json() for s in bot.minds_api.to("POST", MESSAGES)] == [{"content": "Would you buy recycled sneakers?"}]
    (answer,) = posted(bot, "Only if they look good.")
    assert answer["thread_ts"] == FIXED_TS
    text = await activity(bot)
    decided = f"started at Minds (decided by <@{ADMIN}>)"
    assert f"{CHAT_LINE}: start a chat with Mia &lt;Novak&gt; · Minds responses: 0 · {decided}" in text
    assert f"to a Mind in a chat thread · Minds responses: 1 · {decided}" in text


async def test_chat_at_once_records_the_start_and_one_response_per_turn(bot: BotHarness) -> None:
    serve_chat(bot)
    await bot.command(f"chat {MIND}")
    await bot.reply_containing("chat is open")
    await bot.event(reply_event("Would you buy recycled sneakers?"), event_id="Ev1")
    await bot.event(reply_event("And at 120 euros?", ts="1733140002.000300"), event_id="Ev2")
    assert len(bot.minds_api.to("POST", MESSAGES)) == 2
    text = await activity(bot)
    assert f"<@{USER}> · {CHAT_LINE}: start a chat with Mia &lt;Novak&gt; · Minds responses: 0 · started" in text
    assert text.count("to a Mind in a chat thread · Minds responses: 1 · started at Minds") == 2
    assert "*Totals:* 3 requests sent to Minds, counting 2 Minds responses" in text


# ---- row 8: the person's share of the Minds budget stops a dialog too -----------------------------------------


async def test_after_their_share_is_used_the_cards_ask_is_told_to_wait_and_sends_nothing(bot: BotHarness) -> None:
    serve_audience_ask(bot)
    bot.minds_api.on("GET", "/studies", page([], total=0, offset=0))
    for _ in range(150):  # half of the workspace's 300 requests a minute: Ben's share
        await bot.command("studies", user=BEN)
    before = len(bot.minds_api.sent)
    await ask_on_the_card(bot)
    (told,) = private(bot, BEN, "try again")
    assert told["text"] == (
        "You have used your share of this workspace's Minds requests for the minute; try again in about 60 seconds."
    )
    assert len(bot.minds_api.sent) == before, "nothing was sent, not even a read of the Audience"
    assert "Nothing was asked for in this period." in await activity(bot), "waiting is not the channel's refusal"

    bot.minds_api.clock.now += 61  # the minute moved on
    await ask_on_the_card(bot)
    await bot.tracker.next_tracked(RunKind.DIRECT)
    (run,) = bot.minds_api.to("POST", f"/studies/{WRAPPER}/runs")
    assert run.json()["question"] == QUESTION


# ---- row 7: the activity CSV names people and things ------------------------------------------------------------


async def test_the_activity_csv_names_people_once_each_keeps_their_ids_and_lists_every_spend(
    bot: BotHarness,
) -> None:
    serve_audience_ask(bot)
    await policy(bot, "ask", PolicyMode.APPROVE)
    await ask_on_the_card(bot)
    (line,) = posted(bot, "wants to")
    await approve(bot, line)
    await bot.tracker.next_tracked(RunKind.DIRECT)
    bot.clock.advance(60)
    await policy(bot, "duplicate", PolicyMode.REFUSE)
    await bot.command("duplicate audience =HYPERLINK(evil)", user=BEN)
    await bot.refusal()

    await bot.command("activity", user=ADMIN)
    shown = await bot.reply_containing("Minds spending in this channel")
    assert f"<@{BEN}>" in shown["text"] and f"<@{ADMIN}>" in shown["text"], "Slack shows mentions as names"
    lookups = len(bot.slack.calls_to("users.info"))
    await bot.click("spend_activity_csv", buttons(shown)["spend_activity_csv"]["value"], user=ADMIN)
    (upload,) = await bot.slack.wait_for("files.completeUploadExternal")
    asked = [c["user"] for c in bot.slack.calls_to("users.info")[lookups:]]
    assert sorted(asked) == [ADMIN, BEN], "each person looked up once for the file"
    (content,) = bot.slack.uploads.values()
    rows = list(csv.reader(io.StringIO(content.decode())))
    assert rows[0][-2:] == ["user id", "decided by id"]
    refused, asked_row = rows[1], rows[2]  # newest first
    assert refused[1:8] == ["Ben Okafor", "duplicate", "'=HYPERLINK(evil)", "0", "", "refused", ""]
    assert refused[9:] == [BEN, ""]
    assert asked_row[1:8] == ["Ben Okafor", "ask", QUESTION, "12", "", "started", "Ada Admin"]
    assert asked_row[8] == samples.RUN_ID and asked_row[9:] == [BEN, ADMIN]
    assert "downloaded this channel's Minds spending of the last 7 days as CSV." in upload["initial_comment"]
