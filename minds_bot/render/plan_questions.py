"""A research plan's questions as people read them: numbered, in their exact respondent-visible text, with how
each is answered, its ``askIf`` routing and the stimulus it shows; the methods line; the question list cut into
pages (the first on the plan message, the rest in its thread) and the whole plan as a Markdown questionnaire.

Owns: ``question_text`` and its parts (``response_label``, ``answer_format``, ``ask_if_label``), ``method_line``,
the paging of questions (``QUESTIONS_PER_PAGE``, ``SECTION_CHUNK``), ``questionnaire_markdown``. Questions are
plain_text, never mrkdwn; Minds' other words (module titles, purposes) are escaped.
Pure: no I/O. Must not touch: the plan message's header, confirmation questions and buttons (``render/plan.py``),
the plan's other states (``render/plan_states.py``), Minds calls, the store, permission decisions.
"""

from __future__ import annotations

from dataclasses import dataclass

from slack_sdk.models.blocks import (
    Block,
    ContextBlock,
    MarkdownTextObject,
    PlainTextObject,
    SectionBlock,
)

from minds_bot.i18n import _, annotate, bracket, join_list, separated
from minds_bot.minds import PlanQuestion, ResearchPlan
from minds_bot.minds.models import PlanMethod, QuestionResponse
from minds_bot.render import MAX_NAME_SHOWN, MAX_SECTION_TEXT, Message, escape
from minds_bot.render.common import question_label, split_text
from minds_bot.render.plan_gate import PlanContext
from minds_bot.render.plan_history import answered_lines

QUESTIONS_PER_PAGE = 20
SECTION_CHUNK = MAX_SECTION_TEXT - 100  # room for a prefix on the first chunk


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
