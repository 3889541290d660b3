"""Study exports in Slack: the announcement, progress, the attached file's comment and a plain failure, and
the two questions a typed export can raise: the same export already being prepared (start another?), and a
request Minds did not answer (Try again).

Every function returns mrkdwn (posted as a message's ``text`` or a file's ``initial_comment``): names, file
names, states and reasons from Minds are escaped and bounded here.
Pure: no I/O. Must not touch: Minds calls, the store, Slack calls.
"""

from __future__ import annotations

from slack_sdk.models.blocks import ActionsBlock, ConfirmObject

from minds_bot.minds import ExportFailed, ExportStatus
from minds_bot.render import MAX_NAME_SHOWN, MAX_WORD_SHOWN, Message, escape, mention
from minds_bot.render.common import button, encode_value, plain_value, section
from minds_bot.render.errors import minds_said

# Buttons whose value is the export request itself ({"s": study id, "k": kind, "f": format, "l": length}):
# exactly what the person could type, so the value grants nothing.
EXPORT_TRY_AGAIN = "export_try_again"
EXPORT_AGAIN = "export_again"

KIND_NAMES = {"executive_brief": "executive brief", "full_report": "full report", "raw_data": "raw data"}
KIND_WORDS = {"executive_brief": "brief", "full_report": "report", "raw_data": "raw"}
ORIGINAL_WARNING = (
    ":warning: This is Minds' original file, unchanged, as you asked: cells that begin with =, +, -, @ may run as "
    "formulas (and open links) when a spreadsheet app opens it. Open it only if you trust its content."
)


def export_label(kind: str, format: str) -> str:  # noqa: A002 - the wire name
    what = KIND_NAMES.get(kind) or escape(kind, limit=MAX_WORD_SHOWN)
    return f"{what} ({escape(format, limit=MAX_WORD_SHOWN)})"


def export_requested(*, study_name: str, kind: str, format: str, user_id: str | None) -> str:  # noqa: A002
    who = f" requested by {mention(user_id)}" if user_id else ""
    name = escape(study_name, limit=MAX_NAME_SHOWN)
    return f":page_facing_up: Export of {name}: {export_label(kind, format)}{who}. Preparing it…"


def export_progress(*, kind: str, format: str, status: ExportStatus) -> str:  # noqa: A002
    percent = f", {round(status.progress)} %" if status.progress is not None else ""
    state = escape(status.status, limit=MAX_WORD_SHOWN)
    return f":hourglass_flowing_sand: Preparing the {export_label(kind, format)}: {state}{percent}."


def export_attached(
    *,
    kind: str,
    format: str,  # noqa: A002
    filename: str,
    cells_neutralised: int | None = None,
    study_id: str = "<study>",
) -> str:
    """The attached file's comment. ``cells_neutralised``: how many CSV cells got a leading ``'`` (None: the file
    is Minds' own, unchanged; for a CSV that means the person asked for the original)."""
    line = f":paperclip: The {export_label(kind, format)} is attached: {escape(filename, limit=MAX_NAME_SHOWN)}"
    if format != "csv":
        return line
    if cells_neutralised is None:
        return f"{line}\n{ORIGINAL_WARNING}"
    original = f"`/minds export {study_id} csv {KIND_WORDS.get(kind, kind)} original`"
    if cells_neutralised == 0:
        return f"{line}\nNo cell could run as a formula in a spreadsheet, so nothing was changed."
    cells = "1 cell" if cells_neutralised == 1 else f"{cells_neutralised:,} cells"
    return (
        f"{line}\n:shield: {cells} began with =, +, -, @, a tab or a line break and could have run as a formula "
        f"in a spreadsheet; each now starts with ' so it shows as text. Minds' original: {original} "
        "(open it only if you trust its content)."
    )


def export_failed(*, kind: str, format: str, error: ExportFailed) -> str:  # noqa: A002
    code = f" ({escape(error.error_code, limit=MAX_WORD_SHOWN)})" if error.error_code else ""
    reason = escape(minds_said(error.error)) if error.error else "Minds gave no reason"
    return f":x: The {export_label(kind, format)} export failed{code}: {reason}. Nothing was attached."


def download_failed(*, kind: str, format: str, reason: str) -> str:  # noqa: A002
    said = escape(minds_said(reason))
    return f":x: The {export_label(kind, format)} was ready, but the file could not be fetched: {said}"


def export_value(
    *,
    study_id: str,
    kind: str,
    format: str,  # noqa: A002 - the wire name
    length: str | None,
    original: bool = False,
) -> str | None:
    """What Try again / Export again carry: exactly what the person could type (``original`` included); None
    when it would not fit in a button (then the message asks the person to type the command instead)."""
    return encode_value({"s": study_id, "k": kind, "f": format, "l": length, "o": original})


def export_already_running(
    *,
    study_name: str,
    kind: str,
    format: str,
    requested_by: str,
    value: str | None,
) -> Message:
    """The same export is still being prepared: say where it will arrive, and ask before starting another."""
    label, name = export_label(kind, format), escape(study_name, limit=MAX_NAME_SHOWN)
    text = (
        f"The {label} of {name} that {mention(requested_by)} asked for is still being prepared; the file will be "
        "attached in that request's thread. Nothing new was started. Start another export?"
    )
    confirm = ConfirmObject(
        title="Start another export?", text=f"Minds will prepare another {label}.", confirm="Export again", deny="No"
    )
    if plain_value(value) is None:  # no button could carry it: the command says it all
        return Message(text=text, blocks=[section(f"{text} Type the export command again to start one.")])
    again = button("Export again", action_id=EXPORT_AGAIN, value=value, confirm=confirm)
    return Message(text=text, blocks=[section(text), ActionsBlock(elements=[again])])


def export_not_answered(
    *,
    study_name: str,
    kind: str,
    format: str,  # noqa: A002
    reason: str,
    value: str | None,
) -> Message:
    """Minds did not answer the export request: nothing is assumed. Minds takes no request key for exports."""
    label, name = export_label(kind, format), escape(study_name, limit=MAX_NAME_SHOWN)
    text = (
        f":warning: Minds did not answer the request for the {label} of {name}: {escape(minds_said(reason))} "
        "It may or may not have started. *Try again* asks once more; Minds takes no request key for exports, so "
        "if the first request did arrive a second export of the same file may be prepared."
    )
    if plain_value(value) is None:
        return Message(text=text, blocks=[section(f"{text} Type the export command again to retry.")])
    retry = button("Try again", action_id=EXPORT_TRY_AGAIN, value=value, style="primary")
    return Message(text=text, blocks=[section(text), ActionsBlock(elements=[retry])])
