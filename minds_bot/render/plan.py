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
one message with the full questionnaire as Markdown, and the frozen forms after approval or discard. The dialogs
are in ``render/plan_dialogs.py``.
Minds' words (objective, warnings, module titles, confirmation questions, names) are escaped wherever they are
mrkdwn, fallback text and the Approve dialog included; the questions themselves are plain_text, shown exactly as
respondents read them. An answer option too long for a button's value is offered through "Answer…" instead.
Pure: no I/O. Action ids and button values defined here are what ``slack/plan.py`` listens for.
Must not touch: Minds calls, the store, permission decisions.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
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
    PlainTextObject,
    SectionBlock,
)

from minds_bot.i18n import LANGUAGES, N_, _, _n, annotate, bracket, join_list, sentences, separated, speaking
from minds_bot.minds import ConfirmationQuestion, PlanQuestion, ResearchMethod, ResearchPlan
from minds_bot.minds.models import PlanMethod, QuestionResponse
from minds_bot.render import (
    MAX_BLOCKS_PER_MESSAGE,
    MAX_NAME_SHOWN,
    MAX_SECTION_TEXT,
    Message,
    escape,
    mention,
)
from minds_bot.render.common import MAX_BUTTON_VALUE, question_label, shorten, split_text
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
from minds_bot.render.plan_models import PlanConnections, model_blocks
from minds_bot.render.plan_models import connection_label as connection_label  # re-exported: flows/research.py
from minds_bot.render.templates import save_template_button

# Action ids (buttons carry an index suffix so every id in a message is unique).
PENDING_NOTE = N_("nothing runs until someone approves")
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

QUESTIONS_PER_PAGE = 20
MAX_CHANGE_SECTIONS = 2  # past this, "Changed since revision N" lists question ids only
MAX_BUTTONS_PER_ACTIONS = 25
MAX_BUTTON_TEXT = 75
MAX_CONFIRM_TEXT = 300
MAX_HEADER_TEXT = 150
MAX_CONTEXT_TEXT = 2000
SECTION_CHUNK = MAX_SECTION_TEXT - 100  # room for a prefix on the first chunk


class PlanTooLarge(ValueError):
    """The parts that must stay on the plan message (confirmations and buttons) do not fit in one message."""


@dataclass(frozen=True)
class RenderedPlan:
    """The plan message, the question pages that go in its thread, and the full questionnaire as Markdown
    (only when the plan is paged)."""

    message: Message
    pages: list[Message] = field(default_factory=list)
    questionnaire: str | None = None


# --- small pure helpers -------------------------------------------------------------------------------------


def question_numbers(plan: ResearchPlan) -> dict[str, int]:
    return {q.id: n for n, q in enumerate(plan.questions, start=1)}


def response_label(question: PlanQuestion) -> str:
    """How the question is answered, in words: options, scale range, or open text."""
    return answer_format(question.response)


def answer_format(response: QuestionResponse) -> str:
    """How a question with this response contract is answered, in words ("One of: Yes · No", "Scale 1–5")."""
    options = separated(response.categorical_options or [])
    if response.type == "categorical":
        return _("One of: {options}", options=options) if options else _("One option")
    if response.type == "multiselect":
        most = response.max_selections
        if options:
            return (
                _("Any of (up to {most}): {options}", most=most, options=options)
                if most
                else _("Any of: {options}", options=options)
            )
        return _("Several options (up to {most})", most=most) if most else _("Several options")
    if response.type == "scale":
        if response.scale_range and len(response.scale_range) == 2:
            low, high = (_number(v) for v in response.scale_range)
            return _("Scale {low}–{high}", low=low, high=high)
        return _("Scale")
    return _("Open answer")


def ask_if_label(question: PlanQuestion, numbers: dict[str, int]) -> str | None:
    """``askIf`` as people read it: "asked if Q1 = Yes" / "asked if Q1 ≠ Yes or No"."""
    condition = question.ask_if
    if condition is None:
        return None
    gate = question_label(numbers[condition.question_id]) if condition.question_id in numbers else condition.question_id
    # i18n: joins the answers a follow-up question depends on: "Yes or No" (keep the spaces a language needs)
    either = _(" or ")
    if condition.answer_in:
        return _("asked if {question} = {answers}", question=gate, answers=either.join(condition.answer_in))
    if condition.answer_not_in:
        return _("asked if {question} ≠ {answers}", question=gate, answers=either.join(condition.answer_not_in))
    return _("asked depending on {question}", question=gate)


def question_text(
    question: PlanQuestion, number: int, numbers: dict[str, int], stimuli: dict[str, str] | None = None
) -> str:
    """The exact respondent-visible text, numbered, with how it is answered, when it is asked and the
    stimulus it shows (``stimuli``: the plan's attachment id → name, ``_stimulus_names``)."""
    meta = [response_label(question)]
    routed = ask_if_label(question, numbers)
    if routed:
        meta.append(routed)
    shows = [_("Stimulus: {name}", name=stimuli[a]) for a in question.attachment_ids if stimuli and a in stimuli]
    return f"{question_label(number)}. {question.text}\n{bracket(separated(meta))}" + "".join(f"\n{s}" for s in shows)


def _stimulus_names(plan: ResearchPlan) -> dict[str, str]:
    """Each attachment Minds lists on the plan, by id, as its name (its id when Minds gives none)."""
    return {a.id: a.name or a.id for a in plan.attachments}


def method_line(method: PlanMethod) -> str:
    name = method.name or method.id
    notes = []
    if method.advanced:
        notes.append(_("advanced: needs an explicit opt-in to run"))
    if method.executable is False:
        notes.append(_("not executable in the catalog: review it, nothing will be substituted silently"))
    return f"• {escape(name)}" + (f" — _{join_list(notes, style='clauses')}_" if notes else "")


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _plain_sections(text: str) -> list[Block]:
    # plain_text with emoji off shows the question exactly as respondents will read it (no mrkdwn, no :codes:)
    return [SectionBlock(text=PlainTextObject(text=piece, emoji=False)) for piece in split_text(text, SECTION_CHUNK)]


def _mrkdwn_sections(text: str) -> list[Block]:
    return [SectionBlock(text=MarkdownTextObject(text=piece)) for piece in split_text(text, SECTION_CHUNK)]


# --- the question list ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Item:
    """One question (its blocks) or a module heading, in plan order."""

    blocks: list[Block]
    number: int | None = None  # the question number, None for a module heading


def _question_items(plan: ResearchPlan) -> list[_Item]:
    numbers = question_numbers(plan)
    stimuli = _stimulus_names(plan)
    items: list[_Item] = []
    seen: set[str] = set()
    show_modules = len(plan.modules) > 1 or bool(plan.modules and plan.modules[0].title)
    for module in plan.modules:
        questions = [q for q in plan.questions_in(module) if q.id not in seen]
        if not questions:
            continue
        if show_modules:
            purpose = f" — {escape(module.purpose)}" if module.purpose else ""
            items.append(_Item(_mrkdwn_sections(f"*{escape(module.title or module.id)}*{purpose}")))
        for question in questions:
            seen.add(question.id)
            number = numbers[question.id]
            items.append(_Item(_plain_sections(question_text(question, number, numbers, stimuli)), number))
    for question in plan.questions:  # questions no module claims are still shown, never dropped
        if question.id not in seen:
            number = numbers[question.id]
            items.append(_Item(_plain_sections(question_text(question, number, numbers, stimuli)), number))
    return items


def _paginate(items: list[_Item], *, first_budget: int, budget: int) -> list[list[_Item]]:
    """Pages of at most QUESTIONS_PER_PAGE questions and the given block budgets (first page, later pages)."""
    pages: list[list[_Item]] = [[]]
    used, count = 0, 0
    for item in items:
        limit = first_budget if len(pages) == 1 else budget
        size = len(item.blocks)
        if pages[-1] and (used + size > limit or (item.number is not None and count >= QUESTIONS_PER_PAGE)):
            pages.append([])
            used, count = 0, 0
        pages[-1].append(item)
        used += size
        count += item.number is not None
    return pages


def _range_label(page: list[_Item]) -> str:
    numbers = [i.number for i in page if i.number is not None]
    if not numbers:
        return _("Questions")
    if len(numbers) == 1:
        return _("Question {number}", number=numbers[0])
    return _("Questions {first}–{last}", first=numbers[0], last=numbers[-1])


# --- confirmation questions and the action row -----------------------------------------------------------------


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


def _page_message(plan: ResearchPlan, context: PlanContext, page: list[_Item]) -> Message:
    name = escape(context.study_name, limit=MAX_NAME_SHOWN)
    label = _(
        "{questions} · revision {revision} of the plan for {study}",
        questions=_range_label(page),
        revision=plan.revision,
        study=name,
    )
    blocks: list[Block] = [ContextBlock(elements=[MarkdownTextObject(text=label)])]
    blocks += [block for item in page for block in item.blocks]
    return Message(text=label, blocks=blocks)


def questionnaire_markdown(plan: ResearchPlan, context: PlanContext) -> str:
    """The whole plan as a Markdown file: nothing shortened, questions in their exact text."""
    numbers = question_numbers(plan)
    stimuli = _stimulus_names(plan)
    lines = [
        _("# Research plan: {study}", study=context.study_name),
        "",
        _("Revision {revision}", revision=plan.revision),
        "",
    ]
    if plan.objective:
        lines += [_("## Objective"), "", plan.objective, ""]
    if plan.planner_notes:
        lines += [_("## Notes from Minds on this revision"), "", *[f"- {n}" for n in plan.planner_notes], ""]
    if plan.framing_warnings:
        lines += [_("## Framing warnings"), "", *[f"- {w}" for w in plan.framing_warnings], ""]
    if plan.methods:
        lines += [_("## Methods"), "", *[f"- {method_line(m).removeprefix('• ')}" for m in plan.methods], ""]
    lines += [_("## Questions"), ""]
    for module in plan.modules:
        questions = plan.questions_in(module)
        if module.title:
            lines += [f"### {module.title}", "", *([module.purpose, ""] if module.purpose else [])]
        for question in questions:
            number = numbers[question.id]
            lines += [f"{number}. {question.text}", f"   - {response_label(question)}"]
            routed = ask_if_label(question, numbers)
            lines += [f"   - {routed}"] if routed else []
            shows = [_("Stimulus: {name}", name=stimuli[a]) for a in question.attachment_ids if a in stimuli]
            lines += [f"   - {line}" for line in shows]
        lines.append("")
    answered = answered_lines(plan, context.answered_by, markdown=True)
    if answered:
        lines += [_("## Answered confirmation questions"), "", *[f"- {line}" for line in answered], ""]
    if plan.confirmation_questions:
        lines += [_("## Confirmation questions"), ""]
        for confirmation in plan.confirmation_questions:
            if confirmation.options:
                lines.append("- " + annotate(confirmation.text, join_list(confirmation.options, style="choices")))
            else:
                lines.append("- " + _("{question} (free text)", question=confirmation.text))
    return "\n".join(lines).rstrip() + "\n"


# --- other states --------------------------------------------------------------------------------------------


def render_preparing(study_name: str, *, stage: str | None = None, revision: int | None = None) -> Message:
    """While Minds prepares a plan (a 202 receipt): accepted, not finished, and nothing is running."""
    study = escape(study_name, limit=MAX_NAME_SHOWN)
    said = escape(stage, limit=MAX_NAME_SHOWN) if stage else None
    if revision and said:
        text = _(
            "Preparing revision {revision} of the plan for {study}… (stage: {stage})",
            revision=revision,
            study=study,
            stage=said,
        )
    elif revision:
        text = _("Preparing revision {revision} of the plan for {study}…", revision=revision, study=study)
    elif said:
        text = _("Preparing the plan for {study}… (stage: {stage})", study=study, stage=said)
    else:
        text = _("Preparing the plan for {study}…", study=study)
    detail = _("Minds accepted the request and is drafting; nothing runs until someone approves a revision.")
    return Message(
        text=text,
        blocks=[
            SectionBlock(text=MarkdownTextObject(text=f":hourglass_flowing_sand: {text}")),
            ContextBlock(elements=[MarkdownTextObject(text=detail)]),
        ],
    )


def render_plan_failed(study_name: str, reason: str) -> Message:
    """``reason``: plain words (Minds' among them), escaped here."""
    said = _("Minds could not prepare the plan for {study}: {reason}", study=study_name, reason=reason)
    text = escape(said, limit=MAX_SECTION_TEXT - 10)  # the whole sentence is plain words: escaped and shortened
    return Message(text=text, blocks=[SectionBlock(text=MarkdownTextObject(text=f":x: {text}"))])


def render_revision_refused(*, reason: str, revision: int | None) -> Message:
    """Minds made no new revision; the plan message keeps the last one."""
    said = escape(_("Minds did not make a new revision: {reason}", reason=reason), limit=MAX_SECTION_TEXT - 100)
    text = sentences(said, _("The plan above (revision {revision}) is unchanged.", revision=revision))
    return Message(text=text, blocks=[SectionBlock(text=MarkdownTextObject(text=text))])


def freeze(blocks: Sequence[dict[str, Any]], note: str) -> Message:
    """A posted plan without any buttons (they are all in actions blocks), with a closing note."""
    parsed = [Block.parse(_settled(b)) for b in blocks if b.get("type") != "actions"]
    kept = [b for b in parsed if b is not None]
    context = ContextBlock(elements=[MarkdownTextObject(text=note)])
    while len(kept) >= MAX_BLOCKS_PER_MESSAGE and kept[-1].type == "context":
        kept.pop()  # an earlier closing note; the new one replaces it
    return Message(text=note, blocks=[*kept, context])


def _settled(block: dict[str, Any]) -> dict[str, Any]:
    """Drop the "nothing runs until someone approves" promise once the plan is approved or discarded."""
    if block.get("type") != "context":
        return block
    elements = [e for e in block.get("elements", []) if e.get("text") not in _pending_notes()]
    return {**block, "elements": elements} if elements else block


def _pending_notes() -> set[str]:
    """The pending note in every language: the plan may have been posted in another one."""
    notes = {PENDING_NOTE}
    for language in LANGUAGES:
        with speaking(language):
            notes.add(_(PENDING_NOTE))
    return notes


def approved_note(*, approver_id: str, revision: int, connection: str | None = None) -> str:
    """``connection``: the model connection's label when one was pinned for the run."""
    if connection:
        return _(
            ":white_check_mark: Approved by {approver}: revision {revision} is running. Minds' personas answer with "
            "the model connection {connection}. Progress follows in the thread.",
            approver=mention(approver_id),
            revision=revision,
            connection=escape(connection, limit=MAX_NAME_SHOWN),
        )
    return _(
        ":white_check_mark: Approved by {approver}: revision {revision} is running. Progress follows in the thread.",
        approver=mention(approver_id),
        revision=revision,
    )


def discarded_note(*, user_id: str, revision: int | None) -> str:
    if revision:
        return _(
            ":wastebasket: Discarded by {user} (revision {revision}). Nothing was run.",
            user=mention(user_id),
            revision=revision,
        )
    return _(":wastebasket: Discarded by {user} (this plan). Nothing was run.", user=mention(user_id))
