"""``/minds chat <mind>`` and the thread replies that talk to that Mind.

Owns: the command (an exact Mind id is used as is; a name is looked up, and a loose match or several matches
are offered as buttons first, because every turn spends Minds responses), the Chat button on ``/minds minds``
(it re-enters this command through the router), and the ``message`` event listener for ``message.channels``
and ``message.groups``: only a person's new reply inside a thread reaches the chat flow — top-level messages,
bot messages, edits, deletions and other subtypes are ignored. The start and each turn pass the channel's "chat"
policy line in ``flows/chat.py``. The idle-thread closer is started here.
Must not touch: Minds wire shapes or SQL.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from minds_bot.flows.chat import ThreadReply, answer_reply, open_chat
from minds_bot.flows.invocation import Invocation, with_progress
from minds_bot.flows.spend import SpendRequest, refused_early
from minds_bot.render.common import render_candidates, render_not_found
from minds_bot.slack.context import services_of
from minds_bot.slack.grammar import Chat
from minds_bot.slack.resolve import show_progress

if TYPE_CHECKING:
    from slack_bolt.context.async_context import AsyncBoltContext
    from slack_sdk.web.async_client import AsyncWebClient

    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface

UUID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
MESSAGE_EVENTS = ("message.channels", "message.groups")


async def _mind_id(invocation: Invocation, ref: str) -> str | None:
    """The Mind ``ref`` names, or None after telling the user why not (or offering the candidates)."""
    if UUID.match(ref):
        return ref
    minds = await invocation.minds()
    result = await with_progress(minds.find_mind(ref), show=lambda: show_progress(invocation))
    if result.kind == "exact" and result.match is not None:
        return result.match.id
    if result.kind in ("ambiguous", "fuzzy"):
        candidates: list[Any] = result.candidates
        await invocation.reply(
            render_candidates(
                what="Mind",
                query=result.query,
                candidates=candidates,
                rerun=lambda mind_id: f"chat {mind_id}",
                fuzzy=result.kind == "fuzzy",
            )
        )
        return None
    await invocation.reply(render_not_found(what="Mind", result=result))
    return None


async def handle_chat(command: Chat, invocation: Invocation) -> None:
    early = SpendRequest(action="chat", subject=command.mind, command=f"chat {command.mind}", responses=0)  # verbatim
    if await refused_early(invocation, early):
        return  # the channel refuses chats (recorded), or the person waits: nothing was looked up
    mind_id = await _mind_id(invocation, command.mind)
    if mind_id is None:
        return
    note = await open_chat(invocation, mind_id=mind_id)
    if note is not None:
        await invocation.reply(note)


COMMANDS = {Chat: handle_chat}


def thread_reply(event: dict[str, Any], team_id: str) -> ThreadReply | None:
    """A person's new message inside a thread, or None for anything else Slack sends as a ``message``."""
    thread_ts, ts = event.get("thread_ts"), event.get("ts")
    if event.get("subtype") or event.get("bot_id") or not event.get("user"):
        return None  # edits, deletions, joins, bot posts (ours included)
    if not thread_ts or thread_ts == ts:
        return None  # a top-level message, not a reply
    return ThreadReply(
        team_id=team_id,
        channel_id=str(event.get("channel") or ""),
        thread_ts=str(thread_ts),
        user_id=str(event["user"]),
        text=str(event.get("text") or ""),
        ts=str(ts or ""),
    )


async def on_message(
    body: dict[str, Any], event: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext
) -> None:
    reply = thread_reply(event, str(body.get("team_id") or ""))
    if reply is not None and reply.text.strip():
        await answer_reply(services_of(context), client, reply)


def register(surface: Surface, services: Services) -> None:
    surface.router.add(COMMANDS)

    surface.message_events(MESSAGE_EVENTS)(on_message)
