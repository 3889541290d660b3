"""Audience and Mind exports and Audience copies: the words in the channel, the thread and the private notes.

Owns: "asked for the profile of …" (the message whose thread gets the file), the attached/failed notes, the
note that Minds shortened inline Markdown (marked ``_[truncated]_``), and the Audience copy's result with its
Mind-allowance caveat. All names are escaped. Pure: no I/O.
Must not touch: Minds calls, the store, Slack calls.
"""

from __future__ import annotations

from typing import Literal

from slack_sdk.models.blocks import Block

from minds_bot.i18n import N_, _, _n, format_number
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

Kind = Literal["audiences", "minds"]
# What was asked for, one whole sentence per kind (a translator may need to inflect "brief" and "profile").
REQUESTED: dict[str, str] = {
    "audiences": N_("{user} asked for the Audience brief of *{name}* ({format}). It will be attached below."),
    "minds": N_("{user} asked for the persona profile of *{name}* ({format}). It will be attached below."),
}
ATTACHED: dict[str, str] = {
    "audiences": N_("The Audience brief of {name} is attached in the thread."),
    "minds": N_("The persona profile of {name} is attached in the thread."),
}
# The attached file's title: plain text, as Slack shows it (translated where the file is attached).
FILE_TITLE: dict[str, str] = {"audiences": N_("Audience brief — {name}"), "minds": N_("Persona profile — {name}")}
TRUNCATED_AT = 100_000  # characters: where Minds cuts inline Markdown


def render_profile_requested(*, kind: Kind, name: str, format: str, user_id: str) -> Message:  # noqa: A002
    shown, as_format = escape(name, limit=MAX_NAME_SHOWN), escape(format, limit=MAX_WORD_SHOWN)
    text = _(REQUESTED[kind], user=mention(user_id), name=shown, format=as_format)
    return Message(text=text, blocks=[section(text)])


def render_profile_failed(*, reason: str) -> Message:
    text = _("The export failed: {reason} Nothing was attached.", reason=escape(reason, limit=MAX_REASON_SHOWN))
    return Message(text=text, blocks=[section(text)])


def render_profile_truncated() -> Message:
    text = _(
        "Minds shortened this Markdown at {limit} characters (it ends with _[truncated]_). "
        "Ask for `pdf` or `docx` for the whole file.",
        limit=format_number(TRUNCATED_AT),
    )
    return Message(text=text, blocks=[context(text)])


def render_profile_attached(*, kind: Kind, name: str) -> Message:
    return Message(text=_(ATTACHED[kind], name=escape(name, limit=MAX_NAME_SHOWN)))


def render_profile_not_attached() -> Message:
    return Message(text=_("The export did not finish; the thread says why."))


def render_audience_duplicate(result: AudienceDuplicate, *, source_name: str) -> Message:
    copy = result.audience
    source, name = escape(source_name, limit=MAX_NAME_SHOWN), escape(copy.name, limit=MAX_NAME_SHOWN)
    if result.replayed:
        text = _n(
            "Duplicated *{source}* as *{name}* with {count} Mind (this copy was already made for this request, so "
            "no second copy was created).",
            "Duplicated *{source}* as *{name}* with {count} Minds (this copy was already made for this request, so "
            "no second copy was created).",
            copy.mind_count,
            source=source,
            name=name,
        )
    else:
        text = _n(
            "Duplicated *{source}* as *{name}* with {count} Mind.",
            "Duplicated *{source}* as *{name}* with {count} Minds.",
            copy.mind_count,
            source=source,
            name=name,
        )
    blocks: list[Block] = [section(text)]
    if result.audience_url:  # exactly as Minds returned it, visible: Slack links the address people can read
        url = escape(result.audience_url, limit=MAX_SECTION_TEXT - 100)
        blocks.append(section(_("Open it in Minds: {url}", url=url)))
    blocks.append(context(_("Each member was copied as a new Mind, counted against your plan's Mind allowance.")))
    return Message(text=text, blocks=blocks)
