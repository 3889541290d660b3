"""Talking to one Mind, or several at once, in a Slack thread through a stateful Minds chat (``POST /chats`` with
``mindId`` or ``mindIds``, ``POST /chats/{id}/messages``; a multi-Mind turn's answers are posted one per Mind, each
named), and deleting the chat (``DELETE /chats/{id}``, the thread head's Delete chat: its starter, the channel's
approvers or an admin).

Owns: opening a chat (the Mind must be ready: a Mind still training is named and never called; the Minds chat
is created before anything is posted, then the thread head is posted and the chat id stored with the thread, so
it survives a restart), each person's reply in that thread as one turn of the same chat (only the new message is
sent: Minds keeps the history), and closing threads idle for ``CHAT_IDLE`` once, politely (``ChatCloser``).
The start of a chat and every turn pass the channel's "chat" policy line (``flows/spend.py``: run at once, wait
for an approver's click — the approval line in the channel, the requester told privately in the thread — or be
refused) and are recorded for ``/minds activity``: a turn counts one Minds response, the start none (it creates
the chat; no message reaches the Mind). A held turn is sent, as its writer, once an approver approves
(``slack/spend.py``). A failed turn is said in the thread and never re-sent by itself: a chat message has no
idempotency key.
Must not touch: Block Kit (``render/chat.py``), SQL.
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from slack_sdk.errors import SlackApiError

from minds_bot.flows import access
from minds_bot.flows.invocation import Invocation
from minds_bot.flows.spend import SpendRequest, consent, settle, their_work
from minds_bot.i18n import in_channel, join_list, speaking
from minds_bot.minds import MindNotReady, MindsError, NotFound
from minds_bot.minds.models.chat import ChatMultiReply
from minds_bot.render import Message
from minds_bot.render.chat import (
    render_chat_closed,
    render_chat_deleted,
    render_chat_gone,
    render_chat_header,
    render_chat_started,
    render_chat_was_deleted,
    render_group_chat_header,
    render_message_too_long,
    render_mind_not_ready,
    render_mind_reply,
    render_turn_failed,
)
from minds_bot.render.errors import slack_error, user_message
from minds_bot.render.spend import CHAT_MIND_SEPARATOR, CHAT_START_COMMAND
from minds_bot.services.background import Periodic
from minds_bot.store import ChatThread

if TYPE_CHECKING:
    from slack_sdk.web.async_client import AsyncWebClient

    from minds_bot.services import Services

log = logging.getLogger(__name__)

CHAT_IDLE = timedelta(days=1)
IDLE_HOURS = int(CHAT_IDLE.total_seconds() // 3600)
MAX_CHAT_MESSAGE_CHARS = 4000  # one turn; longer text is refused with this limit named, nothing is sent
CLOSE_CHECK_SECONDS = 600.0
CHAT_NAME_CHARS = 120


async def open_chat(invocation: Invocation, *, mind_ids: Sequence[str]) -> Message | None:
    """Start a thread talking to the Minds of ``mind_ids`` (one, or several at once: a multi-Mind chat), through
    the channel's "chat" line; returns the private note for the person who asked (None when the policy held or
    refused it: they were told)."""
    services, slack = invocation.services, invocation.client
    minds = await invocation.minds()
    found = [await minds.get_mind(mind_id) for mind_id in dict.fromkeys(mind_ids)]
    training = next((m for m in found if not m.ready_to_chat), None)
    if training is not None:
        return render_mind_not_ready(mind_name=training.name, status=training.training_status)
    names = join_list([m.name for m in found], style="and")
    command = CHAT_START_COMMAND.format(mind_id=CHAT_MIND_SEPARATOR.join(m.id for m in found))
    spend = await consent(invocation, SpendRequest(action="chat", subject=names, command=command, responses=0))
    if spend is None:
        return None
    # The chat's name is stored in Minds (the same for everyone who opens it there), not shown by the bot.
    chat_name = f"Slack chat with {names}"[:CHAT_NAME_CHARS]  # verbatim
    try:
        chat = await minds.create_chat(mind_ids=[m.id for m in found], name=chat_name)
    except MindsError as exc:
        await settle(services, spend, started=False, detail=type(exc).__name__)
        raise
    await settle(services, spend, started=True, detail=chat.id)
    with in_channel():  # the thread is the channel's
        if len(found) == 1:
            header = render_chat_header(mind=found[0], started_by=invocation.user_id, idle_hours=IDLE_HOURS)
        else:
            header = render_group_chat_header(minds=found, started_by=invocation.user_id, idle_hours=IDLE_HOURS)
    posted = await slack.chat_postMessage(channel=invocation.channel_id, **header.as_kwargs())
    await services.store.save_chat_thread(
        ChatThread(
            team_id=invocation.team_id,
            channel_id=invocation.channel_id,
            thread_ts=str(posted["ts"]),
            chat_id=chat.id,
            mind_id=",".join(m.id for m in found),  # several Minds: their ids, comma-separated
            mind_name=names,
            started_by=invocation.user_id,
            last_activity_at=services.clock(),
        )
    )
    return render_chat_started()


async def delete_chat(invocation: Invocation, *, thread_ts: str) -> Message | str | None:
    """The thread head's Delete chat (after Slack's confirmation naming it): the chat is read from the store by
    the pressed message, never from the button; its starter, the channel's approvers or an admin — while in the
    channel — may delete it. Minds deletes it (an already deleted chat counts as deleted), the thread is closed
    and the channel told. Returns what the presser reads privately (None: the thread says it)."""
    services = invocation.services
    thread = await services.store.get_chat_thread(
        team_id=invocation.team_id, channel_id=invocation.channel_id, thread_ts=thread_ts
    )
    if thread is None:
        return render_chat_gone()
    thing = access.Thing(invocation.team_id, thread.channel_id, thread.started_by, kind="chat")
    decision = await access.check(
        services,
        invocation.client,
        team_id=invocation.team_id,
        user_id=invocation.user_id,
        act=access.Act.DECIDE,
        channel_id=thread.channel_id,
        thing=thing,
    )
    if decision.refused:
        return decision.reason
    minds = await invocation.minds()
    with contextlib.suppress(NotFound):  # already gone in Minds: the thread is closed all the same
        await minds.delete_chat(thread.chat_id)
    await services.store.save_chat_thread(thread.model_copy(update={"closed_at": services.clock()}))
    with in_channel():
        said = render_chat_deleted(minds=thread.mind_name, deleted_by=invocation.user_id)
    await invocation.client.chat_postMessage(channel=thread.channel_id, thread_ts=thread.thread_ts, **said.as_kwargs())
    return None


@dataclass(frozen=True)
class ThreadReply:
    """A person's message in a thread, as the listener read it from Slack's event (``ts``: the message's own)."""

    team_id: str
    channel_id: str
    thread_ts: str
    user_id: str
    text: str
    ts: str = ""


def held_turn(command: str) -> tuple[str, str] | None:
    """(thread, text) of a chat turn a held spend saved; None for anything else (a chat's start is a command)."""
    try:
        saved = json.loads(command)
        return str(saved["thread_ts"]), str(saved["text"])
    except (ValueError, KeyError, TypeError):
        return None


async def answer_reply(
    services: Services, slack: AsyncWebClient, reply: ThreadReply, *, approved_spend: str | None = None
) -> None:
    """One turn: through the channel's "chat" line, send the reply to the thread's Minds chat and post the Mind's
    answer in the thread. Threads that are not chats are left alone. ``approved_spend``: an approver approved
    this held turn (it is sent once, as its writer)."""
    thread = await services.store.get_chat_thread(
        team_id=reply.team_id, channel_id=reply.channel_id, thread_ts=reply.thread_ts
    )
    if thread is None:
        return
    if thread.closed_at is not None:
        # Closed before it went idle: it was deleted (Delete chat); an idle close comes CHAT_IDLE after its last turn.
        if thread.closed_at < thread.last_activity_at + CHAT_IDLE:
            await _tell(slack, reply, render_chat_was_deleted(minds=thread.mind_name))
        else:
            await _tell(slack, reply, render_chat_closed(mind_name=thread.mind_name, idle_hours=IDLE_HOURS))
        return
    if len(reply.text) > MAX_CHAT_MESSAGE_CHARS:
        await _tell(slack, reply, render_message_too_long(length=len(reply.text), limit=MAX_CHAT_MESSAGE_CHARS))
        return
    invocation = Invocation(
        services=services,
        client=slack,
        respond=_privately(slack, reply),
        team_id=reply.team_id,
        channel_id=reply.channel_id,
        user_id=reply.user_id,
        trigger_id=f"chat:{reply.channel_id}:{reply.ts}" if reply.ts else None,  # one message, one spend
        approved_spend=approved_spend,
    )
    turn = json.dumps({"thread_ts": reply.thread_ts, "text": reply.text})
    async with their_work(services, team_id=reply.team_id, user_id=reply.user_id):
        speakers = thread.mind_id.count(",") + 1  # a multi-Mind chat: each of its Minds answers the turn
        request = SpendRequest(action="chat", subject=reply.text, command=turn, responses=speakers)
        spend = await consent(invocation, request)
        if spend is None:
            return
        await services.store.touch_chat_thread(
            team_id=reply.team_id, channel_id=reply.channel_id, thread_ts=reply.thread_ts, at=services.clock()
        )
        with in_channel():  # the Mind's answer is read in the thread by everyone in the channel
            messages, failure = await _turn(services, thread, reply.text)
        await settle(services, spend, started=failure is None, detail=failure)
    for message in messages:
        await _post(slack, reply, message)


async def _turn(services: Services, thread: ChatThread, text: str) -> tuple[list[Message], str | None]:
    """What the thread shows, and why the turn failed (None: the Mind answered)."""
    minds = await services.minds.client_for(thread.team_id)
    try:
        answer = await minds.send_chat_message(thread.chat_id, content=text)
    except MindNotReady as exc:
        return [render_mind_not_ready(mind_name=thread.mind_name, status=None)], type(exc).__name__
    except MindsError as exc:
        return [render_turn_failed(mind_name=thread.mind_name, reason=user_message(exc))], type(exc).__name__
    if isinstance(answer, ChatMultiReply):  # several Minds: each answer posted under the name of its Mind
        each = [render_mind_reply(mind_name=said.mind.name, content=said.content) for said in answer.messages]
        return [message for said in each for message in said], None
    return render_mind_reply(mind_name=thread.mind_name, content=answer.content), None


def _privately(slack: AsyncWebClient, reply: ThreadReply) -> Any:
    """A respond() for a thread reply, which has no response URL: private notes to its writer, in the thread."""

    async def respond(**message: Any) -> None:
        shown = {k: v for k, v in message.items() if k in ("text", "blocks")}
        await slack.chat_postEphemeral(channel=reply.channel_id, user=reply.user_id, thread_ts=reply.thread_ts, **shown)

    return respond


async def _post(slack: AsyncWebClient, reply: ThreadReply, message: Message) -> None:
    await slack.chat_postMessage(channel=reply.channel_id, thread_ts=reply.thread_ts, **message.as_kwargs())


async def _tell(slack: AsyncWebClient, reply: ThreadReply, message: Message) -> None:
    """Only the person who wrote sees it."""
    await slack.chat_postEphemeral(
        channel=reply.channel_id, user=reply.user_id, thread_ts=reply.thread_ts, **message.as_kwargs()
    )


async def close_idle_chats(services: Services) -> int:
    """Close every chat thread idle for a day, saying so once in each thread; returns how many."""
    closed = await services.store.close_idle_chat_threads(idle_since=services.clock() - CHAT_IDLE)
    for thread in closed:
        with speaking(await services.languages.of_workspace(thread.team_id)):  # nobody asked: the workspace's
            note = render_chat_closed(mind_name=thread.mind_name, idle_hours=IDLE_HOURS)
        try:
            slack = await services.slack.client_for(thread.team_id)
            await slack.chat_postMessage(channel=thread.channel_id, thread_ts=thread.thread_ts, **note.as_kwargs())
        except SlackApiError as exc:  # closed all the same: a thread Slack refuses (archived) gets no note
            log.warning("could not post a chat's closing note", extra={"fields": {"error": slack_error(exc)}})
    return len(closed)


class ChatCloser(Periodic):
    """Runs ``close_idle_chats`` every ten minutes."""

    def __init__(self, services: Services, *, every: float = CLOSE_CHECK_SECONDS) -> None:
        failure = "closing idle chat threads failed"  # for logs, verbatim
        super().__init__("chat closer", every=every, failure=failure, logger=log)  # the loop's name: verbatim
        self._services = services

    async def step(self) -> None:
        if closed := await close_idle_chats(self._services):
            log.info("closed idle chat threads", extra={"fields": {"count": closed}})
