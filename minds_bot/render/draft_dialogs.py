"""A Study draft or template read in full, edited and deleted in Slack: the dialogs and what a person reads after.

Owns: the dialogs' ids and their blocks (the Open and Delete… buttons are the lists': ``render/drafts.py``,
``render/templates.py``). A template's dialog shows every question with its
answer format; editable (``editable``), it is a form of the fields the OpenAPI declares for an update — its name,
goal, team sharing (when Minds says the owner can share) and each question's text (answer formats, language and
method stay as saved). A draft's dialog shows its saved state — name, status, mode, step, revision, its questions
when Minds keeps them in the draft — and, editable, its name, mode and step (its payload is the planner's and is
not edited here). The template delete dialog names the template and what goes with it. Every Minds text is
escaped where it is mrkdwn; plain-text fields carry it as typed. Pure: no I/O.
Must not touch: Minds calls, deciding who may (``flows/draft_edit.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from slack_sdk.models.blocks import (
    Block,
    CheckboxesElement,
    InputBlock,
    Option,
    PlainTextInputElement,
    StaticSelectElement,
)
from slack_sdk.models.views import View

from minds_bot.i18n import _, _n, annotate, separated
from minds_bot.minds import StudyDraft, StudyTemplate
from minds_bot.render import MAX_BLOCKS_PER_VIEW, MAX_NAME_SHOWN, MAX_WORD_SHOWN, Message, escape
from minds_bot.render.common import context, section, sections, shorten, slack_date
from minds_bot.render.plan_questions import answer_format
from minds_bot.render.templates import GOALS, MAX_TEMPLATE_NAME

TEMPLATE_EDIT_VIEW = "template_edit"
TEMPLATE_DELETE_VIEW = "template_delete_confirm"
DRAFT_EDIT_VIEW = "draft_edit"
NAME_BLOCK, GOAL_BLOCK, SHARED_BLOCK, MODE_BLOCK, STEP_BLOCK = "name", "goal", "shared", "mode", "step"
QUESTION_BLOCK = "question_{number}"
VALUE = "value"
MAX_QUESTION_TEXT = 2000  # Minds' question texts are at most 2,000 characters
MAX_STEP = 100
# A dialog holds 100 blocks: the heading, name, goal, sharing and a note leave room for this many question fields.
MAX_EDITABLE_QUESTIONS = MAX_BLOCKS_PER_VIEW - 10
MODES = ("custom", "quick")
MAX_READ_BLOCKS = MAX_BLOCKS_PER_VIEW - 5  # the heading, a note and the gate's words around the questions


def _template_heading(template: StudyTemplate) -> str:
    config = template.configuration
    said = _(
        "*{template}* · revision {revision} · goal {goal} · method {method} · {language}",
        template=escape(template.name, limit=MAX_NAME_SHOWN),
        revision=template.revision,
        goal=escape(config.goal, limit=MAX_WORD_SHOWN),
        method=escape(config.method_id, limit=MAX_WORD_SHOWN),
        language=escape(config.study_locale, limit=MAX_WORD_SHOWN),
    )
    return separated((said, _("shared with your team") if template.is_shared_with_team else None))


def _questions_text(questions: Sequence[Any]) -> str:
    lines = [
        f"{number}. {escape(annotate(q.text, answer_format(q.response)))}" for number, q in enumerate(questions, 1)
    ]
    return "\n".join(lines)


def template_modal(template: StudyTemplate, *, metadata: str, editable: bool) -> View:
    """The template in full: a form of its fields when ``editable`` (then every question is a field), else every
    question with its answer format, read-only (``with_note`` then says why)."""
    questions = template.configuration.questions
    heading = section(_template_heading(template))
    if not editable or len(questions) > MAX_EDITABLE_QUESTIONS:
        count = _n("{count} question", "{count} questions", len(questions))
        blocks = [heading, *_bounded(sections(count + "\n" + _questions_text(questions)), room=MAX_READ_BLOCKS)]
        if editable:
            blocks.append(context(_("It has more questions than a Slack dialog can hold: edit it in Minds.")))
        return View(
            type="modal", title=_("Study template"), close=_("Close"), private_metadata=metadata, blocks=blocks
        )
    return View(
        type="modal",
        callback_id=TEMPLATE_EDIT_VIEW,
        title=_("Study template"),
        submit=_("Save"),
        close=_("Cancel"),
        private_metadata=metadata,
        blocks=[heading, *_template_fields(template), context(_("Answer formats, language and method stay as saved."))],
    )


def _bounded(blocks: list[Block], *, room: int) -> list[Block]:
    """At most ``room`` blocks; when there are more, the last says how many parts are not shown (never cut
    silently)."""
    if len(blocks) <= room:
        return blocks
    left = len(blocks) - room + 1
    said = _n(
        "{count} more part of the list is not shown here: read it in Minds.",
        "{count} more parts of the list are not shown here: read them in Minds.",
        left,
    )
    return [*blocks[: room - 1], context(said)]


def with_note(view: View, note: str) -> View:
    """``view`` with ``note`` under it: mrkdwn the gate or the flow wrote (people's and Minds' words escaped)."""
    view.blocks = [*(view.blocks or []), context(note)]
    return view


def _template_fields(template: StudyTemplate) -> list[Block]:
    goals = [Option(value=value, text=_(label)) for value, label in GOALS]
    current = next((o for o in goals if o.value == template.configuration.goal), None)
    fields: list[Block] = [
        _text_input(NAME_BLOCK, _("Template name"), template.name, MAX_TEMPLATE_NAME),
        InputBlock(
            block_id=GOAL_BLOCK,
            label=_("Goal"),
            element=StaticSelectElement(action_id=VALUE, options=goals, initial_option=current),
        ),
    ]
    if template.can_share_with_team:
        shared = Option(value="shared", text=_("Share with my team"))
        fields.append(
            InputBlock(
                block_id=SHARED_BLOCK,
                label=_("Team"),
                optional=True,
                element=CheckboxesElement(
                    action_id=VALUE,
                    options=[shared],
                    initial_options=[shared] if template.is_shared_with_team else None,
                ),
            )
        )
    for number, question in enumerate(template.configuration.questions, 1):
        label = _("Question {number} ({how})", number=number, how=answer_format(question.response))
        fields.append(
            _text_input(QUESTION_BLOCK.format(number=number), label, question.text, MAX_QUESTION_TEXT, multiline=True)
        )
    return fields


def _text_input(block_id: str, label: str, value: str, limit: int, *, multiline: bool = False) -> InputBlock:
    element = PlainTextInputElement(
        action_id=VALUE, initial_value=value[:limit] or None, max_length=limit, multiline=multiline
    )
    return InputBlock(block_id=block_id, label=shorten(label, 2000), element=element)


def template_delete_modal(template: StudyTemplate, *, metadata: str) -> View:
    """Names the template and what goes with it; Delete or Cancel."""
    count = len(template.configuration.questions)
    return View(
        type="modal",
        callback_id=TEMPLATE_DELETE_VIEW,
        title=_("Delete template"),
        submit=_("Delete"),
        close=_("Cancel"),
        private_metadata=metadata,
        blocks=[
            section(_("Delete the template *{template}*?", template=escape(template.name, limit=MAX_NAME_SHOWN))),
            section(
                _n(
                    "Its {count} question and its settings are deleted in Minds. Drafts already made from it and "
                    "Studies planned with it stay.",
                    "Its {count} questions and its settings are deleted in Minds. Drafts already made from it and "
                    "Studies planned with it stay.",
                    count,
                )
            ),
            context(_("This cannot be undone.")),
        ],
    )


def _draft_heading(draft: StudyDraft) -> str:
    return _(
        "*{name}* · revision {revision} · {status} · mode {mode} · step {step} · saved {when}",
        name=escape(draft.name, limit=MAX_NAME_SHOWN),
        revision=draft.revision,
        status=escape(draft.status),
        mode=escape(draft.mode),
        step=escape(draft.current_step, limit=MAX_WORD_SHOWN),
        when=slack_date(draft.updated_at),
    )


def _draft_questions(draft: StudyDraft, *, plan_saved: bool) -> str:
    state = draft.payload.state if draft.payload else {}
    listed = state.get("questions")
    texts = [q["text"] for q in listed if isinstance(q, dict) and isinstance(q.get("text"), str)] if listed else []
    if texts:
        heading = _n("{count} question", "{count} questions", len(texts))
        return heading + "\n" + "\n".join(f"{number}. {escape(text)}" for number, text in enumerate(texts, 1))
    if plan_saved:
        return _("Its questions are in its plan in Minds: *Resume* reopens it at its latest revision.")
    return _("Minds keeps no questions in this draft yet.")


def draft_modal(draft: StudyDraft, *, metadata: str, editable: bool, plan_saved: bool) -> View:
    """The draft's saved state in full; with a form of its name, mode and step when ``editable``."""
    room = MAX_READ_BLOCKS - (0 if not editable else 3)
    questions = sections(_draft_questions(draft, plan_saved=plan_saved))
    shown = [section(_draft_heading(draft)), *_bounded(questions, room=room)]
    if not editable:
        return View(type="modal", title=_("Study draft"), close=_("Close"), private_metadata=metadata, blocks=shown)
    modes = [Option(value=mode, text=mode) for mode in MODES]
    fields: list[Block] = [
        _text_input(NAME_BLOCK, _("Draft name"), draft.name, MAX_TEMPLATE_NAME),
        InputBlock(
            block_id=MODE_BLOCK,
            label=_("Mode"),
            element=StaticSelectElement(
                action_id=VALUE, options=modes, initial_option=next(o for o in modes if o.value == draft.mode)
            ),
        ),
        _text_input(STEP_BLOCK, _("Step"), draft.current_step, MAX_STEP),
    ]
    return View(
        type="modal",
        callback_id=DRAFT_EDIT_VIEW,
        title=_("Study draft"),
        submit=_("Save"),
        close=_("Cancel"),
        private_metadata=metadata,
        blocks=[*shown, *fields],
    )


def render_template_updated(template: StudyTemplate) -> Message:
    text = _(
        "Saved the template *{template}* (revision {revision}).",
        template=escape(template.name, limit=MAX_NAME_SHOWN),
        revision=template.revision,
    )
    return Message(text=text, blocks=[section(text)])


def render_template_deleted(name: str) -> Message:
    text = _("Deleted the template *{template}*.", template=escape(name, limit=MAX_NAME_SHOWN))
    return Message(text=text, blocks=[section(text)])


def render_draft_updated(draft: StudyDraft) -> Message:
    text = _(
        "Saved the draft *{name}* (revision {revision}).",
        name=escape(draft.name, limit=MAX_NAME_SHOWN),
        revision=draft.revision,
    )
    return Message(text=text, blocks=[section(text)])


def render_changed_meanwhile(kind: str) -> Message:
    """A stale revision (409): ``kind`` "template" or "draft"."""
    if kind == "template":
        text = _("The template changed in Minds since you opened it; nothing was saved. Open it again.")
    else:
        text = _(
            "The draft changed in Minds since you opened it (or it was started); nothing was saved. Open it again."
        )
    return Message(text=text)


def reading_modal(kind: str) -> View:
    """Shown at once (Slack's trigger expires in 3 s) while the draft or template (``kind``) is read from Minds."""
    title = _("Study template") if kind == "template" else _("Study draft")
    reading = section(_(":hourglass_flowing_sand: Reading it from Minds…"))
    return View(type="modal", title=title, close=_("Close"), blocks=[reading])


def note_modal(kind: str, text: str) -> View:
    """The dialog when there is nothing to show or change: ``text`` is mrkdwn with anyone's words escaped."""
    title = _("Study template") if kind == "template" else _("Study draft")
    return View(type="modal", title=title, close=_("Close"), blocks=sections(text))
