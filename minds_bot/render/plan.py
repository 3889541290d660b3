"""The research-plan message: the exact questionnaire a channel reviews, its confirmation buttons and Approve.

Owns: how a ``ResearchPlan`` revision looks in Slack (a header naming who answers — the Audiences and their Mind
counts, from ``render/plan_gate.py`` — what changed since the revision shown before, Minds' notes on the
revision (``planner_notes``: e.g. a requested change it could not apply), objective, modules with
numbered questions in their exact respondent-visible text, response types, ``askIf`` routing, methods with
advanced ones flagged, framing warnings, the confirmation questions already answered and by whom
(``render/plan_history.py``), open confirmation questions as buttons — or, when they do not fit, one dialog with
every question), the one primary **Approve & run** button (only on an approvable revision, as
``render/plan_gate.py``'s ``ApprovalGate`` decides) and its confirm dialog (``confirm_text``: questions,
Audiences, Minds, responses), the model picker above it (``render/plan_models.py``), paging for plans too big for
one message. The question list, its pages and the Markdown questionnaire are in ``render/plan_questions.py``;
the plan being prepared, failed or refused, and its frozen forms after approval or discard, in
``render/plan_states.py``; the dialogs in ``render/plan_dialogs.py``. Every public name of those two is importable
from here.
Minds' words (objective, warnings, module titles, confirmation questions, names) are escaped wherever they are
mrkdwn, fallback text and the Approve dialog included; the questions themselves are plain_text, shown exactly as
respondents read them. An answer option too long for a button's value is offered through "Answer…" instead.
Pure: no I/O. Action ids and button values defined here are what ``slack/plan.py`` listens for.
Must not touch: Minds calls, the store, permission decisions.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from slack_sdk.models.blocks import (
    ActionsBlock,
    Block,
    ButtonElement,
    CheckboxesElement,
    ConfirmObject,
    ContextBlock,
    DividerBlock,
    HeaderBlock,
    MarkdownTextObject,
    Option,
)

from minds_bot.i18n import _, _n, join_list, sentences
from minds_bot.minds import ConfirmationQuestion, ResearchMethod, ResearchPlan
from minds_bot.render import (
    MAX_BLOCKS_PER_MESSAGE,
    MAX_NAME_SHOWN,
    Message,
    escape,
    mention,
)
from minds_bot.render.common import MAX_BUTTON_VALUE, shorten, split_text
from minds_bot.render.drafts import save_draft_button
from minds_bot.render.plan_gate import (
    ApprovalGate,
    PlanContext,
    advanced_methods,
    approval_gate,
    confirm_text,
    who_answers,
)
from minds_bot.render.plan_history import answered_lines, changes_since
from minds_bot.render.plan_models import PlanConnections, connection_label, model_blocks
from minds_bot.render.plan_questions import (
    QUESTIONS_PER_PAGE,
    SECTION_CHUNK,
    _mrkdwn_sections,
    _page_message,
    _paginate,
    _question_items,
    _range_label,
    answer_format,
    ask_if_label,
    method_line,
    question_numbers,
    question_text,
    questionnaire_markdown,
    response_label,
)
from minds_bot.render.plan_states import (
    PENDING_NOTE,
    approved_note,
    discarded_note,
    freeze,
    render_plan_failed,
    render_preparing,
    render_revision_refused,
)
from minds_bot.render.templates import save_template_button

# Names that moved to plan_questions.py and plan_states.py, still importable from here (mypy: explicit re-export).
__all__ = [
    "QUESTIONS_PER_PAGE",
    "answer_format",
    "approved_note",
    "ask_if_label",
    "connection_label",
    "discarded_note",
    "freeze",
    "method_line",
    "question_numbers",
    "question_text",
    "questionnaire_markdown",
    "render_plan_failed",
    "render_preparing",
    "render_revision_refused",
    "response_label",
]

# Action ids (buttons carry an index suffix so every id in a message is unique).
ACTION_ANSWER = "plan_answer"  # plan_answer:<cq index>:<option index>
ACTION_ANSWER_TEXT = "plan_answer_text"  # plan_answer_text:<cq index>
ACTION_ANSWER_ALL = "plan_answer_all"  # one dialog with every confirmation question
ACTION_FALLBACK = "plan_fallback"  # plan_fallback:<method index>: ask Minds for a revision with the fallback
ACTION_REVISE = "plan_revise"
ACTION_APPROVE = "plan_approve"
ACTION_DISCARD = "plan_discard"
ACTION_OPT_IN = "plan_opt_in"
BLOCK_OPT_IN = "plan_opt_in_block"
OPT_IN_VALUE = "advanced"

MAX_CHANGE_SECTIONS = 2  # past this, "Changed since revision N" lists question ids only
MAX_BUTTONS_PER_ACTIONS = 25
MAX_BUTTON_TEXT = 75
MAX_CONFIRM_TEXT = 300
MAX_HEADER_TEXT = 150
MAX_CONTEXT_TEXT = 2000


class PlanTooLarge(ValueError):
    """The parts that must stay on the plan message (confirmations and buttons) do not fit in one message."""


@dataclass(frozen=True)
class RenderedPlan:
    """The plan message, the question pages that go in its thread, and the full questionnaire as Markdown
    (only when the plan is paged)."""

    message: Message
    pages: list[Message] = field(default_factory=list)
    questionnaire: str | None = None


def _value(**fields: Any) -> str:
    return json.dumps(fields, separators=(",", ":"), ensure_ascii=False)


def _confirmation_blocks(plan: ResearchPlan, context: PlanContext, *, interactive: bool, compact: bool) -> list[Block]:
    answered = answered_lines(plan, context.answered_by)
    blocks: list[Block] = _mrkdwn_sections(":heavy_check_mark: " + "\n".join(answered)) if answered else []
    if compact:
        return blocks + _compact_confirmations(plan, interactive=interactive)
    for index, question in enumerate(plan.confirmation_questions):
        blocks += _mrkdwn_sections(_("*Minds asks:* {question}", question=escape(question.text)))
        if interactive:
            blocks += _answer_rows(plan.revision, index, question)
    return blocks


def _compact_confirmations(plan: ResearchPlan, *, interactive: bool) -> list[Block]:
    """Too many questions for one message: say how many, and answer them all in one dialog."""
    count = len(plan.confirmation_questions)
    text = _n(
        "*Minds asks {count} question about this plan.* It is in the answer dialog and in the questionnaire "
        "attached in the thread.",
        "*Minds asks {count} questions about this plan.* Every question is in the answer dialog and in the "
        "questionnaire attached in the thread.",
        count,
    )
    blocks = _mrkdwn_sections(text)
    if interactive:
        button = ButtonElement(
            text=_n("Answer {count} question…", "Answer all {count} questions…", count),
            action_id=ACTION_ANSWER_ALL,
            value=_value(r=plan.revision),
        )
        blocks.append(ActionsBlock(block_id="plan_cq_all", elements=[button]))
    return blocks


def _answer_rows(revision: int, index: int, question: ConfirmationQuestion) -> list[Block]:
    answer_text = ButtonElement(
        text=_("Answer…"),
        action_id=f"{ACTION_ANSWER_TEXT}:{index}",
        value=_value(r=revision, q=question.id),
    )
    if question.free_text:
        return [ActionsBlock(block_id=f"plan_cq_{index}_0", elements=[answer_text])]
    options = enumerate(question.options or [])
    values = [(o, option, _value(r=revision, q=question.id, a=option)) for o, option in options]
    buttons = [
        ButtonElement(text=shorten(option, MAX_BUTTON_TEXT), action_id=f"{ACTION_ANSWER}:{index}:{o}", value=value)
        for o, option, value in values
        if len(value) <= MAX_BUTTON_VALUE
    ]
    if len(buttons) < len(values):  # an option too long for a button's value can still be typed
        buttons.append(answer_text)
    rows = [buttons[i : i + MAX_BUTTONS_PER_ACTIONS] for i in range(0, len(buttons), MAX_BUTTONS_PER_ACTIONS)]
    return [ActionsBlock(block_id=f"plan_cq_{index}_{r}", elements=row) for r, row in enumerate(rows)]


def _action_blocks(
    plan: ResearchPlan, context: PlanContext, gate: ApprovalGate, *, connections: PlanConnections | None
) -> list[Block]:
    blocks: list[Block] = model_blocks(connections)
    advanced = advanced_methods(plan)
    if advanced:
        # The methods are named above the checkbox: Slack cuts a checkbox's text at 75 characters, so the
        # checkbox says only what is consented to, in words that fit in every language (tests/i18n).
        named = _("*Advanced methods in this plan:* {methods}", methods=join_list([escape(m) for m in advanced]))
        blocks += _mrkdwn_sections(named)
        blocks.append(
            ActionsBlock(
                block_id=BLOCK_OPT_IN,
                elements=[
                    CheckboxesElement(
                        action_id=ACTION_OPT_IN,
                        options=[Option(value=OPT_IN_VALUE, text=_("I opt in to the advanced methods above"))],
                    )
                ],
            )
        )
    if gate.blocked:
        blocks += _mrkdwn_sections(":lock: " + sentences(*gate.reasons()))
    approve = ButtonElement(
        text=_("Approve & run"),
        action_id=ACTION_APPROVE,
        style="primary",
        value=_value(r=plan.revision),
        confirm=ConfirmObject(
            title=_("Approve & run?"), text=confirm_text(plan, context), confirm=_("Approve & run"), deny=_("Back")
        ),
    )
    revise = ButtonElement(text=_("Revise…"), action_id=ACTION_REVISE, value=_value(r=plan.revision))
    discard = ButtonElement(
        text=_("Discard"),
        action_id=ACTION_DISCARD,
        value=_value(r=plan.revision),
        confirm=ConfirmObject(
            title=_("Discard this plan?"),
            text=_("The plan stays saved in Minds as a draft; nothing runs."),
            confirm=_("Discard"),
            deny=_("Keep"),
        ),
    )
    first = [] if gate.blocked else [approve]
    save = save_draft_button(plan.revision)  # keep the plan as a Study draft, or as a template
    template = save_template_button(plan.revision)
    elements = [*first, *_fallback_buttons(plan, gate), revise, discard, save, template]
    blocks.append(ActionsBlock(block_id="plan_actions", elements=elements))
    return blocks


def _fallback_buttons(plan: ResearchPlan, gate: ApprovalGate) -> list[ButtonElement]:
    """One button per non-executable method with a fallback: it asks Minds for that revision, to review."""
    return [
        ButtonElement(
            text=shorten(
                _("Review with {method}", method=problem.fallback.name or problem.fallback.id), MAX_BUTTON_TEXT
            ),
            action_id=f"{ACTION_FALLBACK}:{index}",
            value=_value(r=plan.revision, m=problem.method.id),
        )
        for index, problem in enumerate(gate.problems)
        if problem.fallback is not None
    ]


# --- the plan message ----------------------------------------------------------------------------------------


def _top_blocks(plan: ResearchPlan, context: PlanContext, *, note: str | None) -> list[Block]:
    blocks: list[Block] = [
        HeaderBlock(text=shorten(_("Research plan: {study}", study=context.study_name), MAX_HEADER_TEXT)),
        ContextBlock(
            elements=[
                MarkdownTextObject(
                    text=shorten(
                        _n(
                            "Revision {revision} · requested by {requester} · {count} question",
                            "Revision {revision} · requested by {requester} · {count} questions",
                            len(plan.questions),
                            revision=plan.revision,
                            requester=mention(context.requester_id),
                        ),
                        MAX_CONTEXT_TEXT,
                    )
                ),
                MarkdownTextObject(text=_(PENDING_NOTE)),
            ]
        ),
        ContextBlock(elements=[MarkdownTextObject(text=shorten(who_answers(context), MAX_CONTEXT_TEXT))]),
    ]
    changed = changes_since(plan, context.previous, label=answer_format)
    if changed and len(split_text(changed, SECTION_CHUNK)) > MAX_CHANGE_SECTIONS:
        # the new texts are in the question list
        changed = changes_since(plan, context.previous, label=answer_format, ids_only=True)
    if changed:
        blocks += _mrkdwn_sections(changed)
    if plan.planner_notes:
        notes = "\n".join(f"• {escape(n)}" for n in plan.planner_notes)
        # i18n: what Minds' planner says about this revision, e.g. a requested change it could not apply
        blocks += _mrkdwn_sections(_(":information_source: *Notes from Minds on this revision*\n{notes}", notes=notes))
    if note:
        blocks += _mrkdwn_sections(f":information_source: {escape(note)}")
    if plan.framing_warnings:
        warnings = "\n".join(f"• {escape(w)}" for w in plan.framing_warnings)
        blocks += _mrkdwn_sections(
            _(":warning: *Framing warnings — review before approving*\n{warnings}", warnings=warnings)
        )
    if plan.objective:
        blocks += _mrkdwn_sections(_("*Objective:* {objective}", objective=escape(plan.objective)))
    if plan.methods:
        methods = "\n".join(method_line(m) for m in plan.methods)
        blocks += _mrkdwn_sections(_("*Methods*\n{methods}", methods=methods))
    blocks.append(DividerBlock())
    return blocks


def render_plan(
    plan: ResearchPlan,
    context: PlanContext,
    *,
    catalogue: Mapping[str, ResearchMethod],
    connections: PlanConnections | None = None,
    note: str | None = None,
    interactive: bool = True,
) -> RenderedPlan:
    """The plan message (and, for a big plan, its thread pages and the Markdown questionnaire).
    ``catalogue``: Minds' research methods by id, which decide whether the revision may run. ``connections``:
    the team's model connections, offered above Approve (None: the server has none to offer).
    ``interactive=False`` renders it without buttons (approved, discarded, being revised)."""
    top = _top_blocks(plan, context, note=note)
    gate = approval_gate(plan, catalogue)
    for compact in (False, True):
        bottom: list[Block] = [
            DividerBlock(),
            *_confirmation_blocks(plan, context, interactive=interactive, compact=compact),
        ]
        if interactive:
            bottom += _action_blocks(plan, context, gate, connections=None if gate.blocked else connections)
        first_budget = MAX_BLOCKS_PER_MESSAGE - len(top) - len(bottom) - 1  # room for the pager line
        if first_budget >= 1:
            return _assemble(plan, context, top=top, bottom=bottom, first_budget=first_budget, compact=compact)
    raise PlanTooLarge("the plan's header alone fills a Slack message")  # verbatim


def _assemble(
    plan: ResearchPlan,
    context: PlanContext,
    *,
    top: list[Block],
    bottom: list[Block],
    first_budget: int,
    compact: bool,
) -> RenderedPlan:
    pages = _paginate(_question_items(plan), first_budget=first_budget, budget=MAX_BLOCKS_PER_MESSAGE - 1)
    question_blocks = [block for item in pages[0] for block in item.blocks]
    name = escape(context.study_name, limit=MAX_NAME_SHOWN)
    text = _n(
        "Research plan for {study}, revision {revision}: {count} question",
        "Research plan for {study}, revision {revision}: {count} questions",
        len(plan.questions),
        study=name,
        revision=plan.revision,
    )
    if len(pages) == 1:
        questionnaire = questionnaire_markdown(plan, context) if compact else None
        return RenderedPlan(Message(text=text, blocks=[*top, *question_blocks, *bottom]), [], questionnaire)
    pager = ContextBlock(
        elements=[
            MarkdownTextObject(
                text=_(
                    "{shown} of {total} shown here. {rest} follow in the thread, with the full questionnaire "
                    "attached as Markdown.",
                    shown=_range_label(pages[0]),
                    total=len(plan.questions),
                    rest=join_list(_range_label(p) for p in pages[1:]),
                )
            )
        ]
    )
    message = Message(text=text, blocks=[*top, *question_blocks, pager, *bottom])
    thread = [_page_message(plan, context, page) for page in pages[1:]]
    return RenderedPlan(message, thread, questionnaire_markdown(plan, context))
