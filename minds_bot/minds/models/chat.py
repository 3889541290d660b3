"""Chat models: a stateful chat with one Mind or several (``POST /chats``) and one turn's reply in it.

Owns: those shapes. Must not touch: HTTP, Slack, the store.
"""

from __future__ import annotations

from pydantic import Field

from minds_bot.minds.models.common import MindsModel


class ChatMind(MindsModel):
    id: str
    name: str
    discipline: str | None = None
    profile_image_url: str | None = None


class ChatCreated(MindsModel):
    """``POST /chats`` (``data``): the stateful chat the thread talks to."""

    id: str
    name: str
    minds: list[ChatMind]


class ChatReply(MindsModel):
    """``POST /chats/{id}/messages`` for a one-Mind chat (top level, no ``data``). ``content`` may be empty only
    when the turn ended in tool calls, which the bot never requests."""

    content: str
    message_id: str


class ChatSpeaker(MindsModel):
    id: str
    name: str


class ChatTurnMessage(MindsModel):
    """One Mind's answer in a multi-Mind turn, attributed to it."""

    content: str
    message_id: str
    mind: ChatSpeaker


class ChatMultiReply(MindsModel):
    """``POST /chats/{id}/messages`` for a multi-Mind chat: one entry per Mind that spoke, in speaking order."""

    messages: list[ChatTurnMessage] = Field(min_length=1)
