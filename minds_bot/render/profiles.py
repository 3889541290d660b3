"""Audience and Mind exports and Audience copies: the words in the channel, the thread and the private notes.

Owns: "asked for the profile of …" (the message whose thread gets the file), the attached/failed notes, the
note that Minds shortened inline Markdown (marked ``_[truncated]_``), and the Audience copy's result with its
Mind-allowance caveat. All names are escaped. Pure: no I/O.
Must not touch: Minds calls, the store, Slack calls.
"""

from __future__ import annotations

from minds_bot.minds import AudienceDuplicate
from minds_bot.render import Message, escape
from minds_bot.render.common import context, section

WHAT = {"audiences": "Audience brief", "minds": "persona profile"}


def render_profile_requested(*, kind: str, name: str, format: str, user_id: str) -> Message:  # noqa: A002
    text = f"<@{user_id}> asked for the {WHAT[kind]} of *{escape(name)}* ({format}). It will be attached below."
    return Message(text=text, blocks=[section(text)])


def render_profile_failed(*, reason: str) -> Message:
    text = f"The export failed: {escape(reason)} Nothing was attached."
    return Message(text=text, blocks=[section(text)])


def render_profile_truncated() -> Message:
    text = (
        "Minds shortened this Markdown at 100,000 characters (it ends with _[truncated]_). "
        "Ask for `pdf` or `docx` for the whole file."
    )
    return Message(text=text, blocks=[context(text)])


def render_profile_attached(*, kind: str, name: str) -> Message:
    return Message(text=f"The {WHAT[kind]} of {name} is attached in the thread.")


def render_profile_not_attached() -> Message:
    return Message(text="The export did not finish; the thread says why.")


def render_audience_duplicate(result: AudienceDuplicate, *, source_name: str) -> Message:
    copy = result.audience
    again = " (this copy was already made for this request, so no second copy was created)" if result.replayed else ""
    text = f"Duplicated *{escape(source_name)}* as *{escape(copy.name)}* with {copy.mind_count} Minds{again}."
    blocks = [section(text)]
    if result.audience_url:
        blocks.append(section(f"Open it in Minds: {result.audience_url}"))
    blocks.append(context("Each member was copied as a new Mind, counted against your plan's Mind allowance."))
    return Message(text=text, blocks=blocks)
