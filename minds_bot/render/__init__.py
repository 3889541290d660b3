"""Pure rendering: domain objects in, Block Kit (``slack_sdk.models``) plus fallback text out. No I/O here.

Owns: ``Message`` and the one way text becomes inert in Slack mrkdwn: ``escape`` for every string that comes
from Minds or from a person (names, questions, answers, summaries, error words — in blocks *and* in the fallback
``text``, which Slack parses as mrkdwn too), and ``mention``/``channel_mention``, the only places that build
``<@…>`` and ``<#…>``, and only from well-formed Slack ids. ``plain_text`` fields are never escaped: Slack shows
them as written and parses no mentions there. ``unescape`` reads back mrkdwn the bot itself posted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from slack_sdk.models.blocks import Block

MAX_BLOCKS_PER_MESSAGE = 50
MAX_BLOCKS_PER_VIEW = 100
MAX_SECTION_TEXT = 3000
MAX_NAME_SHOWN = 200  # a name (or stage, id, file name) from Minds inside a line of text
MAX_WORD_SHOWN = 40  # one of Minds' words (a state, a kind) or one of ours (a noun) inside a line of text
MAX_REASON_SHOWN = 1000  # why something failed (Minds' words or ours), said back in one line
SLACK_USER_ID = re.compile(r"^[UW][A-Z0-9]{1,20}$")
SLACK_CHANNEL_ID = re.compile(r"^[CGD][A-Z0-9]{1,20}$")


def escape(text: str, *, limit: int | None = None) -> str:
    """Escape text for Slack mrkdwn: ``&``, ``<`` and ``>`` are control characters there. With them escaped no
    mention (``<!channel>``, ``<@U…>``), channel link or disguised link can form, whatever the text says.
    With ``limit`` the escaped text is at most that long, shortened with a visible "…" (never inside an entity)."""
    escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    if limit is None or len(escaped) <= limit:
        return escaped
    cut = escaped[: max(0, limit - 1)]
    entity = cut.rfind("&")
    if entity > cut.rfind(";"):
        cut = cut[:entity]  # a half entity ("&am") would show as garbage
    return cut.rstrip() + "…"


def unescape(text: str) -> str:
    """The inverse of ``escape``, for mrkdwn the bot posted and Slack hands back (e.g. a message's blocks)."""
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def mention(user_id: str) -> str:
    """``<@U…>`` for a Slack user id; anything else is shown as inert text (shortened), never as a mention."""
    return f"<@{user_id}>" if SLACK_USER_ID.match(user_id) else escape(user_id, limit=MAX_NAME_SHOWN)


def channel_mention(channel_id: str) -> str:
    """``<#C…>`` for a Slack conversation id; anything else is shown as inert text."""
    return f"<#{channel_id}>" if SLACK_CHANNEL_ID.match(channel_id) else escape(channel_id, limit=MAX_NAME_SHOWN)


@dataclass(frozen=True)
class Message:
    """A Slack message ready to send: notification/fallback text (mrkdwn, already escaped) and validated blocks."""

    text: str
    blocks: list[Block] = field(default_factory=list)

    def __post_init__(self) -> None:
        if len(self.blocks) > MAX_BLOCKS_PER_MESSAGE:
            raise ValueError(f"a message holds at most {MAX_BLOCKS_PER_MESSAGE} blocks; page the content instead")
        for block in self.blocks:
            block.validate_json()

    def as_kwargs(self) -> dict[str, Any]:
        return {"text": self.text, "blocks": [b.to_dict() for b in self.blocks]}
