"""Audience and Mind exports and Audience copies: the words in the channel, the thread and the private notes.

Owns: "asked for the profile of …" (the message whose thread gets the file), the attached/failed notes, the
note that Minds shortened inline Markdown (marked ``_[truncated]_``), and the Audience copy's result with its
Mind-allowance caveat. All names are escaped. Pure: no I/O.
Must not touch: Minds calls, the store, Slack calls.
"""

from __future__ import annotations

from typing import Literal

from minds_bot.minds import AudienceDuplicate
from minds_bot.render import (
    MAX_NAME_SHOWN,
    MAX_REASON_SHOWN,
    MAX_SECTION_TEXT,
    MAX_WORD_SHOWN,
    Message,
    escape,
    mention,
)
from minds_bot.render.common import context, section

WHAT = {"audiences": "Audience brief", "minds": "persona profile"}
Kind = Literal["audiences", "minds"]


def render_profile_requested(*, kind: Kind, name: str, format: str, user_id: str) -> Message:  # noqa: A002
    shown, as_format = escape(name, limit=MAX_NAME_SHOWN), escape(format, limit=MAX_WORD_SHOWN)
    text = f"{mention(user_id)} asked for the {WHAT[kind]} of *{shown}* ({as_format}). It will be attached below."
    return Message(text=text, blocks=[section(text)])


def render_profile_failed(*, reason: str) -> Message:
    text = f"The export failed: {escape(reason, limit=MAX_REASON_SHOWN)} Nothing was attached."
    return Message(text=text, blocks=[section(text)])


def render_profile_truncated() -> Message:
    text = (
        "Minds shortened this Markdown at 100,000 characters (it ends with _[truncated]_). "
        "Ask for `pdf` or `docx` for the whole file."
    )
    return Message(text=text, blocks=[context(text)])


def render_profile_attached(*, kind: Kind, name: str) -> Message:
    return Message(text=f"The {WHAT[kind]} of {escape(name, limit=MAX_NAME_SHOWN)} is attached in the thread.")


def render_profile_not_attached() -> Message:
    return Message(text="The export did not finish; the thread says why.")


def render_audience_duplicate(result: AudienceDuplicate, *, source_name: str) -> Message:
    copy = result.audience
    again = " (this copy was already made for this request, so no second copy was created)" if result.replayed else ""
    source, name = escape(source_name, limit=MAX_NAME_SHOWN), escape(copy.name, limit=MAX_NAME_SHOWN)
    text = f"Duplicated *{source}* as *{name}* with {copy.mind_count} Minds{again}."
    blocks = [section(text)]
    if result.audience_url:  # exactly as Minds returned it, visible: Slack links the address people can read
        blocks.append(section(f"Open it in Minds: {escape(result.audience_url, limit=MAX_SECTION_TEXT - 100)}"))
    blocks.append(context("Each member was copied as a new Mind, counted against your plan's Mind allowance."))
    return Message(text=text, blocks=blocks)
