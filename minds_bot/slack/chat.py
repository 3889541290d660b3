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
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from minds_bot.flows.chat import ThreadReply, answer_reply, delete_chat, open_chat
from minds_bot.flows.invocation import Invocation, with_progress
from minds_bot.flows.spend import SpendRequest, refused_early
from minds_bot.i18n import _
from minds_bot.render import Message
from minds_bot.render.chat import CHAT_DELETE_ACTION
from minds_bot.render.common import render_candidates, render_not_found
from minds_bot.render.spend import CHAT_MIND_SEPARATOR, CHAT_START_COMMAND
from minds_bot.slack.context import services_of
from minds_bot.slack.grammar import Chat
from minds_bot.slack.listeners import Click, pressed_with_click
from minds_bot.slack.resolve import show_progress

if TYPE_CHECKING:
    from slack_bolt.context.async_context import AsyncBoltContext
    from slack_sdk.web.async_client import AsyncWebClient

    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface

UUID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
MESSAGE_EVENTS = ("message.channels", "message.groups")
MAX_CHAT_MINDS = 5  # Minds in one chat (each answers every turn, so each turn counts that many responses)


def _command(refs: Iterable[str]) -> str:
    """``chat <mind>, <mind>…`` as the command is typed (command syntax, not words)."""
    return CHAT_START_COMMAND.format(mind_id=CHAT_MIND_SEPARATOR.join(refs))


async def _mind_id(invocation: Invocation, ref: str, *, refs: list[str] | None = None) -> str | None:
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
                # the whole command again, with this Mind's id in place of what was typed for it
                rerun=lambda mind_id: _command(mind_id if r == ref else r for r in refs or [ref]),
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
    refs = [ref.strip() for ref in command.mind.split(CHAT_MIND_SEPARATOR.strip()) if ref.strip()]
    if len(refs) > MAX_CHAT_MINDS:
        said = _(
            "A chat holds at most {limit} Minds; you named {count}. Nothing was started.",
            limit=MAX_CHAT_MINDS,
            count=len(refs),
        )
        await invocation.say_text(said)
        return
    mind_ids = []
    for ref in refs:
        mind_id = await _mind_id(invocation, ref, refs=refs)
        if mind_id is None:
            return  # told why, or offered the candidates (each re-runs the whole command with that Mind's id)
        mind_ids.append(mind_id)
    note = await open_chat(invocation, mind_ids=mind_ids)
    if note is not None:
        await invocation.reply(note)


async def delete_button(invocation: Invocation, action: dict[str, Any], click: Click) -> None:
    """Delete chat on a thread head (after Slack's confirmation): the chat is the one stored for that message."""
    body = click.body
    message_ts = str((body.get("container") or {}).get("message_ts") or (body.get("message") or {}).get("ts") or "")
    said = await delete_chat(invocation, thread_ts=message_ts)
    if said is not None:
        await invocation.reply(said if isinstance(said, Message) else Message(text=said))


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
    surface.action(CHAT_DELETE_ACTION)(pressed_with_click(delete_button))
