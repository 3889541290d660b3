"""A file shared in Slack as the stimulus of a question: the line that names it ("Stimulus: shoe.png (image,
240 KB)") and the sentences that say why a file cannot be sent. Pure: no I/O.

The problems are the ``flows/stimulus.py`` ``Problem`` values, passed here as their string values so this
module imports nothing above ``render``; those of the plan dialog's concept link (``flows/stimulus_link.py``) are
said on the dialog's field, so they are plain text.
"""

from __future__ import annotations

from minds_bot.i18n import _, format_number
from minds_bot.render import MAX_NAME_SHOWN, escape

KIB = 1024
MIB = 1024 * 1024


def _size_text(size: int) -> str:
    """Bytes as people read them: "240 KB", "3.4 MB" (1 KB = 1,024 bytes)."""
    if size < MIB:
        return _("{size} KB", size=format_number(max(1, round(size / KIB))))
    return _("{size} MB", size=format_number(round(size / MIB, 1)))


def _kind_text(kind: str) -> str:
    return _("image") if kind == "image" else _("PDF")


def stimulus_line(*, name: str, kind: str, size: int | None) -> str:
    """The dialog's and the plan's line naming the file that goes to the Minds with the question."""
    shown = f"*{escape(name, limit=MAX_NAME_SHOWN)}*"
    if size is None:
        # i18n: {name} is a file's name, {kind} "image" or "PDF"
        return _("Stimulus: {name} ({kind})", name=shown, kind=_kind_text(kind))
    # i18n: {name} is a file's name, {kind} "image" or "PDF", {size} e.g. "240 KB"
    return _("Stimulus: {name} ({kind}, {size})", name=shown, kind=_kind_text(kind), size=_size_text(size))


def refusal_text(problem: str, *, name: str, limit: int) -> str:
    """Why the file ``name`` is not sent to Minds, said to the person who asked."""
    shown = f"*{escape(name, limit=MAX_NAME_SHOWN)}*" if name else _("The file")
    if problem == "wrong_type":
        return _("{file} is not a PNG, JPEG, GIF or WebP image or a PDF, so it cannot be a stimulus.", file=shown)
    if problem == "too_large":
        return _("{file} is larger than {limit}, the most a stimulus may be.", file=shown, limit=_size_text(limit))
    if problem == "not_slack":
        return _("{file} is not stored in Slack, so the bot did not download it.", file=shown)
    if problem == "no_public_url":
        return _(
            "{file} cannot be sent: Minds fetches a stimulus from this bot's public address, and none is set "
            "(MINDS_BOT_PUBLIC_URL).",
            file=shown,
        )
    if problem == "not_in_channel":
        return _("The bot cannot read that message: invite it to the channel first.")
    if problem == "no_message":
        return _("That link does not lead to a message the bot can read.")
    if problem == "no_file":
        return _("That message has no file to test.")
    if problem == "plan_only":
        return _("{file} goes to Minds with a single question only; this plan is drafted without it.", file=shown)
    if problem == "not_the_type":
        return _("{file} is not the kind of file its name says, so it was not sent.", file=shown)
    if problem == "gone":
        return _("{file} is no longer in Slack (or the bot can no longer see it), so it was not sent.", file=shown)
    return _link_refusal(problem) or _("{file} could not be downloaded from Slack.", file=shown)


def _link_refusal(problem: str) -> str | None:
    """The plan dialog's words beside a concept link that cannot be used (plain text: a dialog field's error)."""
    if problem == "not_a_link":
        return _("Paste a Slack message's link (“Copy link” on the message): https://…slack.com/archives/…")
    if problem == "other_workspace":
        return _(
            "That link is to another Slack workspace. Paste the link of a message in this workspace; nothing was "
            "downloaded."
        )
    if problem == "not_member":
        return _(
            "That message is in a channel you are not in (or in a private channel Minds is not in), so its file "
            "cannot be used. Nothing was downloaded."
        )
    if problem == "private_elsewhere":
        return _(
            "That message is in a private channel: its file is used only in a plan posted in that channel. Plan "
            "there instead; nothing was downloaded."
        )
    return None
