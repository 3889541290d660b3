"""Deleting a Study: the confirmation dialog that names the Study and exactly what goes with it, and what the
person reads afterwards.

Owns: the dialog (its callback id, what it keeps in ``private_metadata``), the Study card's Delete… button id,
and the words: what is deleted with the Study (its questions and every answer, its runs, summary, charts,
heatmaps and exports, its public link when on — CATALOGUE §3.12 lists what a Study holds), what stays (its
Audiences and their Minds: a Study references them, never owns them), deleted, already gone. Every Minds text is
escaped. Must not touch: I/O, deciding who may delete (``flows/study_delete.py`` asks the gate).
"""

from __future__ import annotations

from slack_sdk.models.views import View

from minds_bot.i18n import _, _n, join_list
from minds_bot.minds import StudyDetail
from minds_bot.render import MAX_NAME_SHOWN, Message, escape
from minds_bot.render.common import context, section

STUDY_DELETE_ACTION = "study_delete"  # the Study card's Delete… button (value: the Study's id)
STUDY_DELETE_VIEW = "study_delete_confirm"
MAX_AUDIENCES_NAMED = 10


def _goes_with_it(study: StudyDetail) -> str:
    if study.question_count is None:
        questions = _("its questions (Minds gave no count) and every answer to them")
    else:
        questions = _n(
            "its {count} question and every answer to it",
            "its {count} questions and every answer to them",
            study.question_count,
        )
    public = bool(study.is_public or study.is_link_sharing_enabled)
    if public:
        return _(
            "*Deleted with it:* {questions}; its runs, summary, charts, heatmaps and exports; its public link.",
            questions=questions,
        )
    return _("*Deleted with it:* {questions}; its runs, summary, charts, heatmaps and exports.", questions=questions)


def _stays(study: StudyDetail) -> str:
    if not study.audiences:
        return _("*Not deleted:* no Audiences are attached to it.")
    names = [f"*{escape(a.name, limit=MAX_NAME_SHOWN)}*" for a in study.audiences[:MAX_AUDIENCES_NAMED]]
    more = len(study.audiences) - len(names)
    listed = join_list([*names, _n("and {count} more", "and {count} more", more) if more else ""])
    return _(
        "*Not deleted:* its Audiences ({audiences}) and their Minds, which other Studies may use.", audiences=listed
    )


def study_delete_modal(study: StudyDetail, *, metadata: str) -> View:
    """The confirmation dialog: the Study's name and id, what is deleted with it, what stays; Delete or Cancel."""
    name = escape(study.name, limit=MAX_NAME_SHOWN)
    return View(
        type="modal",
        callback_id=STUDY_DELETE_VIEW,
        title=_("Delete Study"),
        submit=_("Delete"),
        close=_("Cancel"),
        private_metadata=metadata,
        blocks=[
            section(_("Delete the Study *{name}* (`{study_id}`)?", name=name, study_id=escape(study.id))),
            section(_goes_with_it(study)),
            section(_stays(study)),
            context(_("This cannot be undone.")),
        ],
    )


def render_study_deleted(name: str) -> Message:
    shown = escape(name, limit=MAX_NAME_SHOWN)
    text = _("Deleted the Study *{name}*. Its Audiences and their Minds were not deleted.", name=shown)
    return Message(text=text, blocks=[section(text)])


def render_study_gone(name: str) -> Message:
    shown = escape(name, limit=MAX_NAME_SHOWN)
    text = _("The Study *{name}* is no longer in Minds (already deleted); nothing was deleted now.", name=shown)
    return Message(text=text, blocks=[section(text)])
