"""Study exports in Slack: the announcement, progress, the attached file's comment and a plain failure.

Every function returns mrkdwn (posted as a message's ``text`` or a file's ``initial_comment``): names, file
names, states and reasons from Minds are escaped and bounded here.
Pure: no I/O. Must not touch: Minds calls, the store, Slack calls.
"""

from __future__ import annotations

from minds_bot.minds import ExportFailed, ExportStatus
from minds_bot.render import MAX_NAME_SHOWN, MAX_WORD_SHOWN, escape, mention
from minds_bot.render.errors import minds_said

KIND_NAMES = {"executive_brief": "executive brief", "full_report": "full report", "raw_data": "raw data"}


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


def export_attached(*, kind: str, format: str, filename: str) -> str:  # noqa: A002
    return f":paperclip: The {export_label(kind, format)} is attached: {escape(filename, limit=MAX_NAME_SHOWN)}"


def export_failed(*, kind: str, format: str, error: ExportFailed) -> str:  # noqa: A002
    code = f" ({escape(error.error_code, limit=MAX_WORD_SHOWN)})" if error.error_code else ""
    reason = escape(minds_said(error.error)) if error.error else "Minds gave no reason"
    return f":x: The {export_label(kind, format)} export failed{code}: {reason}. Nothing was attached."


def download_failed(*, kind: str, format: str, reason: str) -> str:  # noqa: A002
    said = escape(minds_said(reason))
    return f":x: The {export_label(kind, format)} was ready, but the file could not be fetched: {said}"
