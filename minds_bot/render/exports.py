"""Study exports in Slack: the announcement, progress, the attached file's comment (with when Minds generated the
file and whether it covers the Study's latest run) and a plain failure, and
the two questions a typed export can raise: the same export already being prepared (start another?), and a
request Minds did not answer (Try again).

Every function returns mrkdwn (posted as a message's ``text`` or a file's ``initial_comment``): names, file
names, states and reasons from Minds are escaped and bounded here.
Pure: no I/O. Must not touch: Minds calls, the store, Slack calls.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from slack_sdk.models.blocks import ActionsBlock, ConfirmObject

from minds_bot.i18n import N_, _, _n, annotate, format_share, join_list, sentences
from minds_bot.minds import AgentRun, ExportFailed, ExportStatus
from minds_bot.render import MAX_NAME_SHOWN, MAX_WORD_SHOWN, Message, escape, mention
from minds_bot.render.common import button, encode_value, plain_value, section, slack_date
from minds_bot.render.errors import minds_said
from minds_bot.render.states import state_word

# Buttons whose value is the export request itself ({"s": study id, "k": kind, "f": format, "l": length}):
# exactly what the person could type, so the value grants nothing.
EXPORT_TRY_AGAIN = "export_try_again"
EXPORT_AGAIN = "export_again"

# i18n: the kinds of export; a message shows one as {export} with its format: "full report (pdf)".
KIND_NAMES = {"executive_brief": N_("executive brief"), "full_report": N_("full report"), "raw_data": N_("raw data")}
KIND_WORDS = {"executive_brief": "brief", "full_report": "report", "raw_data": "raw"}
ORIGINAL_WARNING = N_(
    ":warning: This is Minds' original file, unchanged, as you asked: cells that begin with =, +, -, @ may run as "
    "formulas (and open links) when a spreadsheet app opens it. Open it only if you trust its content."
)


def export_label(kind: str, format: str) -> str:  # noqa: A002 - the wire name
    what = _(KIND_NAMES[kind]) if kind in KIND_NAMES else escape(kind, limit=MAX_WORD_SHOWN)
    return annotate(what, escape(format, limit=MAX_WORD_SHOWN))


def export_requested(
    *,
    study_name: str,
    kind: str,
    format: str,  # noqa: A002
    user_id: str | None,
    length: str | None = None,
    force: bool = False,
    original: bool = False,
) -> str:
    """The request line in the channel; it names every option asked (length, ``force``, ``original``), so none is
    dropped without a word."""
    name, label = escape(study_name, limit=MAX_NAME_SHOWN), export_label(kind, format)
    if user_id:
        said = _(
            ":page_facing_up: Export of {study}: {export} requested by {person}. Preparing it…",
            study=name,
            export=label,
            person=mention(user_id),
        )
    else:
        said = _(":page_facing_up: Export of {study}: {export}. Preparing it…", study=name, export=label)
    asked = [
        _("length {length}", length=escape(length, limit=MAX_WORD_SHOWN)) if length else "",
        _("a new file, not Minds' cached one (force)") if force else "",
        _("Minds' CSV unchanged (original)") if original else "",
    ]
    if any(asked):
        said += " " + _("Asked for: {options}.", options=join_list(asked))
    return said


def export_progress(*, kind: str, format: str, status: ExportStatus) -> str:  # noqa: A002
    label, state = export_label(kind, format), state_word(status.status)
    if status.progress is None:
        return _(":hourglass_flowing_sand: Preparing the {export}: {state}.", export=label, state=state)
    # i18n: {state} is the export's state in words (queued, processing…); {percent} how far it is, e.g. "40%".
    return _(
        ":hourglass_flowing_sand: Preparing the {export}: {state}, {percent}.",
        export=label,
        state=state,
        percent=format_share(status.progress),
    )


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
    line = _(
        ":paperclip: The {export} is attached: {filename}",
        export=export_label(kind, format),
        filename=escape(filename, limit=MAX_NAME_SHOWN),
    )
    if format != "csv":
        return line
    if cells_neutralised is None:
        return line + "\n" + _(ORIGINAL_WARNING)
    original = f"`/minds export {study_id} csv {KIND_WORDS.get(kind, kind)} original`"
    if cells_neutralised == 0:
        return line + "\n" + _("No cell could run as a formula in a spreadsheet, so nothing was changed.")
    cells = _n(
        ":shield: {count} cell began with =, +, -, @, a tab or a line break and could have run as a formula "
        "in a spreadsheet; each now starts with ' so it shows as text. Minds' original: {command} "
        "(open it only if you trust its content).",
        ":shield: {count} cells began with =, +, -, @, a tab or a line break and could have run as a formula "
        "in a spreadsheet; each now starts with ' so it shows as text. Minds' original: {command} "
        "(open it only if you trust its content).",
        cells_neutralised,
        command=original,
    )
    return f"{line}\n{cells}"


def export_covers(*, generated_at: datetime | None, runs: Sequence[AgentRun] | None, force_command: str) -> str:
    """When Minds generated the attached file and whether it covers the Study's latest run, from Minds' own
    times: ``generated_at`` (``generatedAt`` of the export status) against the runs' ``completedAt``. ``runs``:
    the Study's runs as Minds lists them (research runs and standalone questions), None when they could not be
    read. A run that ended after the file is not in it; a run still going is not either; a run whose end Minds
    did not give is said to be unknown. Nothing is claimed that Minds did not say."""
    command = f"`{escape(force_command, limit=MAX_NAME_SHOWN)}`"
    if generated_at is None:
        return _(
            "Minds did not say when this file was generated, so whether it covers the latest run is not known. "
            "{command} makes a new one.",
            command=command,
        )
    when = slack_date(generated_at)
    if runs is None:
        return _(
            "Generated {when}. Whether it covers the latest run is not known: Minds did not list the Study's runs. "
            "{command} makes a new one.",
            when=when,
            command=command,
        )
    ended = [run.completed_at for run in runs if run.is_terminal and run.completed_at is not None]
    later = [moment for moment in ended if moment > generated_at]
    going = [run for run in runs if not run.is_terminal]
    unknown = [run for run in runs if run.is_terminal and run.completed_at is None]
    if later:
        # i18n: {when} and {ended} are dates Slack shows in the reader's own format; {command} a command in code.
        return _n(
            ":warning: Generated {when}, before the latest run ended ({ended}): {count} run ended after this file "
            "was generated and is not in it. {command} makes a new one.",
            ":warning: Generated {when}, before the latest run ended ({ended}): {count} runs ended after this file "
            "was generated and are not in it. {command} makes a new one.",
            len(later),
            when=when,
            ended=slack_date(max(later)),
            command=command,
        )
    if going:
        return _n(
            "Generated {when}, after every finished run; {count} run still in progress is not in it.",
            "Generated {when}, after every finished run; {count} runs still in progress are not in it.",
            len(going),
            when=when,
        )
    if unknown:
        return _(
            "Generated {when}. Minds did not say when every run ended, so whether this file covers the latest run "
            "is not known. {command} makes a new one.",
            when=when,
            command=command,
        )
    if not ended:
        return _("Generated {when}; the Study has no runs yet.", when=when)
    return _(
        "Generated {when}, after the latest run ended ({ended}): it covers every run.",
        when=when,
        ended=slack_date(max(ended)),
    )


def export_failed(*, kind: str, format: str, error: ExportFailed) -> str:  # noqa: A002
    label = export_label(kind, format)
    reason = escape(minds_said(error.error)) if error.error else _("Minds gave no reason")
    if error.error_code:
        return _(
            ":x: The {export} export failed ({code}): {reason}. Nothing was attached.",
            export=label,
            code=escape(error.error_code, limit=MAX_WORD_SHOWN),
            reason=reason,
        )
    return _(":x: The {export} export failed: {reason}. Nothing was attached.", export=label, reason=reason)


def download_failed(*, kind: str, format: str, reason: str) -> str:  # noqa: A002
    return _(
        ":x: The {export} was ready, but the file could not be fetched: {reason}",
        export=export_label(kind, format),
        reason=escape(minds_said(reason)),
    )


def export_value(
    *,
    study_id: str,
    kind: str,
    format: str,  # noqa: A002 - the wire name
    length: str | None,
    original: bool = False,
    force: bool = False,
) -> str | None:
    """What Try again / Export again carry: exactly what the person could type (``original`` and ``force``
    included); None when it would not fit in a button (then the message asks the person to type the command)."""
    asked = {"s": study_id, "k": kind, "f": format, "l": length, "o": original}
    return encode_value({**asked, "x": True} if force else asked)


def export_already_running(
    *,
    study_name: str,
    kind: str,
    format: str,  # noqa: A002 - the export's field name
    requested_by: str,
    value: str | None,
) -> Message:
    """The same export is still being prepared: say where it will arrive, and ask before starting another."""
    label, name = export_label(kind, format), escape(study_name, limit=MAX_NAME_SHOWN)
    text = _(
        "The {export} of {study} that {person} asked for is still being prepared; the file will be "
        "attached in that request's thread. Nothing new was started. Start another export?",
        export=label,
        study=name,
        person=mention(requested_by),
    )
    confirm = ConfirmObject(
        title=_("Start another export?"),
        text=_("Minds will prepare another {export}.", export=label),
        confirm=_("Export again"),
        deny=_("No"),
    )
    if plain_value(value) is None:  # no button could carry it: the command says it all
        retype = _("Type the export command again to start one.")
        return Message(text=text, blocks=[section(sentences(text, retype))])
    again = button(_("Export again"), action_id=EXPORT_AGAIN, value=value, confirm=confirm)
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
    text = _(
        ":warning: Minds did not answer the request for the {export} of {study}: {reason} "
        "It may or may not have started. *Try again* asks once more; Minds takes no request key for exports, so "
        "if the first request did arrive a second export of the same file may be prepared.",
        export=label,
        study=name,
        reason=escape(minds_said(reason)),
    )
    if plain_value(value) is None:
        retype = _("Type the export command again to retry.")
        return Message(text=text, blocks=[section(sentences(text, retype))])
    retry = button(_("Try again"), action_id=EXPORT_TRY_AGAIN, value=value, style="primary")
    return Message(text=text, blocks=[section(text), ActionsBlock(elements=[retry])])
