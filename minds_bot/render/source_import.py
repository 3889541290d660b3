"""Building an Audience from files shared in Slack: the brief modal (listing the files that will be imported),
the note once Minds imported them with matching checksums, and the refusals. Must not touch: I/O."""

from __future__ import annotations

import json
from collections.abc import Sequence

from slack_sdk.models.blocks import InputBlock, PlainTextInputElement
from slack_sdk.models.views import View

from minds_bot.i18n import _, _n, format_number
from minds_bot.minds import SourceImport
from minds_bot.render import MAX_NAME_SHOWN, MAX_REASON_SHOWN, Message, escape
from minds_bot.render.common import context, listing, section

FROM_FILES_SHORTCUT = "minds_audience_from_files"
FROM_FILES_VIEW = "audience_from_files_modal"
BRIEF_BLOCK = "brief"
BRIEF_ACTION = "value"
MAX_BRIEF = 3000  # Slack's limit for a plain_text_input
MAX_METADATA = 3000  # Slack's limit for private_metadata
MAX_FILES_LISTED = 10  # names shown in one line; the rest are counted


def from_files_metadata(*, channel_id: str, files: Sequence[tuple[str, str, str]]) -> str | None:
    """The channel and the files (id, name, url) for the submission; None when they do not fit."""
    metadata = json.dumps({"c": channel_id, "f": [list(f) for f in files]}, separators=(",", ":"))
    return metadata if len(metadata) <= MAX_METADATA else None


def from_files_modal(*, metadata: str, names: Sequence[str], skipped: Sequence[str]) -> View:
    listed = "\n".join(f"• {escape(n, limit=MAX_NAME_SHOWN)}" for n in names[:MAX_FILES_LISTED])
    if len(names) > MAX_FILES_LISTED:
        more = len(names) - MAX_FILES_LISTED
        listed += "\n" + _n("• and {count} more", "• and {count} more", more)
    blocks = [
        section(_("Minds imports these files as sources for the new Audience:\n{files}", files=listed)),
        InputBlock(
            block_id=BRIEF_BLOCK,
            label=_("Who should the Audience be? (at most {limit} characters)", limit=format_number(MAX_BRIEF)),
            element=PlainTextInputElement(
                action_id=BRIEF_ACTION,
                multiline=True,
                max_length=MAX_BRIEF,
                placeholder=_("e.g. Gen Z sneaker buyers in Germany, using the survey export as evidence"),
            ),
        ),
    ]
    if skipped:
        blocks.append(
            context(
                _(
                    "Not imported (only .txt, .md, .csv and .json): {files}",
                    files=listing(skipped, most=MAX_FILES_LISTED),
                )
            )
        )
    return View(
        type="modal",
        callback_id=FROM_FILES_VIEW,
        title=_("Audience from files"),
        submit=_("Import and build"),
        close=_("Cancel"),
        private_metadata=metadata,
        blocks=blocks,
    )


def render_sources_imported(imported: SourceImport) -> Message:
    names = listing([f.name for f in imported.files], most=MAX_FILES_LISTED)
    text = _n(
        "Minds imported {count} source file ({names}); their checksums match what was shared. The Audience is "
        "built from the brief and these files.",
        "Minds imported {count} source files ({names}); their checksums match what was shared. The Audience is "
        "built from the brief and these files.",
        len(imported.files),
        names=names,
    )
    return Message(text=text, blocks=[section(text)])


def render_no_source_files(*, skipped: Sequence[str]) -> Message:
    if skipped:
        text = _(
            "That message has no file Minds can import as a source (.txt, .md, .csv or .json). Not usable: {files}.",
            files=listing(skipped, most=MAX_FILES_LISTED),
        )
    else:
        text = _("That message has no file Minds can import as a source (.txt, .md, .csv or .json).")
    return Message(text=text, blocks=[section(text)])


def render_source_refused(reason: str) -> Message:
    text = _("Nothing was imported: {reason}", reason=escape(reason, limit=MAX_REASON_SHOWN))
    return Message(text=text, blocks=[section(text)])
