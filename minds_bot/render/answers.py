"""A standalone question in a thread: the parent line, progress, the result, and pages of individual answers.

Owns: the distribution behind the chart (answers counted per Audience and option), top-line numbers (mean,
top-2-box and n for a scale; shares largest first with n for a choice, from ``render/stats.py``; Minds' own
per-Audience value otherwise), a few representative quotes, themes for qualitative questions (no chart),
plain words for failed/cancelled runs, the "Show answers" pages (budgeted so no page exceeds Slack's limits,
long answers split, never cut), and the planning offer for text that is not one question.
Must not touch: I/O (the chart PNG itself is drawn by ``charts.py`` off the event loop by the caller).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from slack_sdk.models.blocks import ActionsBlock, Block

from minds_bot.minds import OutputAnswer, StudyOutput
from minds_bot.render import MAX_BLOCKS_PER_MESSAGE, MAX_NAME_SHOWN, MAX_SECTION_TEXT, Message, escape, mention, stats
from minds_bot.render.browse import minds_label
from minds_bot.render.common import (
    button,
    context,
    encode_value,
    note,
    pager,
    section,
    sections,
    shorten,
)
from minds_bot.render.heatmaps import heatmap_buttons
from minds_bot.render.study import STUDY_PLAN_ACTION, plan_button_value

SHOW_ANSWERS_ACTION = "answers_show"
ANSWERS_PREV_ACTION = "answers_prev"
ANSWERS_NEXT_ACTION = "answers_next"
ASK_RETRY_ACTION = "ask_retry"
QUOTES = 3
QUOTE_PREVIEW = 300
ANSWERS_PER_PAGE = 8
PAGE_BLOCK_BUDGET = MAX_BLOCKS_PER_MESSAGE - 6  # room for the heading, count line and pager
CHARTED_TYPES = frozenset({"scale", "categorical", "multiselect"})


@dataclass(frozen=True)
class Distribution:
    title: str
    options: list[str]
    series: dict[str, dict[str, int]]  # audience → option → answers


def render_parent(*, user_id: str, study_name: str, question: str) -> str:
    """The channel line a question's thread hangs from (mrkdwn ``text``; the question is bounded by the grammar)."""
    return f"{mention(user_id)} asked *{escape(study_name, limit=MAX_NAME_SHOWN)}*: “{escape(question)}”"


def render_asking(*, minds: int, audiences: int) -> Message:
    where = f" in {audiences} Audiences" if audiences > 1 else ""
    text = f"Asking {minds_label(minds)}{where}…"
    return Message(text=text, blocks=[section(text)])


def render_run_progress(status: str) -> Message:
    text = {
        "queued": "Queued at Minds — waiting to start…",
        "running": "Minds are answering…",
    }.get(status, f"Minds reports the run as {escape(status, limit=MAX_NAME_SHOWN)}…")
    return Message(text=text, blocks=[section(text)])


def render_run_ended(status: str) -> Message:
    text = {
        "failed": "The question failed at Minds; there are no answers to show. Nothing was retried.",
        "cancelled": "The run was cancelled; there are no answers to show.",
        "completed": "Minds reports the run as completed but gave no answer to read. Open the Study in Minds to check.",
    }.get(status, f"The run ended as {escape(status, limit=MAX_NAME_SHOWN)}; there are no answers to show.")
    return Message(text=text, blocks=[section(text)])


def render_ask_failed(text: str, *, client_request_id: str | None) -> Message:
    """The question could not be sent (or we cannot tell); a retry reuses the same clientRequestId."""
    text = escape(text, limit=MAX_SECTION_TEXT)
    blocks: list[Block] = [section(text)]
    if client_request_id is not None:
        blocks.append(ActionsBlock(elements=[button("Try again", action_id=ASK_RETRY_ACTION, value=client_request_id)]))
        blocks.append(context("Trying again sends the same request, so Minds will not run it twice."))
    return Message(text=text, blocks=blocks)


def render_plan_offer(*, study_id: str, study_name: str, text: str, reason: str) -> Message:
    """Not one standalone question: nothing was sent; offer the planning flow with the text prefilled."""
    lead = escape(
        f"{reason} Nothing was sent to Minds: a set of questions is planned and run together, "
        f"never asked one at a time, so the answers stay comparable.",
        limit=MAX_SECTION_TEXT,
    )
    blocks: list[Block] = [
        section(lead),
        ActionsBlock(
            elements=[
                button(
                    f"Plan research in {study_name}",
                    action_id=STUDY_PLAN_ACTION,
                    value=plan_button_value(study_id, text),
                    style="primary",
                )
            ]
        ),
        context(escape("Or ask one question: `/minds ask <study> <question>`.")),
    ]
    return Message(text=lead, blocks=blocks)


def render_planning_required(*, study_id: str, study_name: str, question: str, reason: str | None) -> Message:
    why = f" ({escape(reason, limit=MAX_SECTION_TEXT // 2)})" if reason else ""
    text = f"Minds says this is a research brief rather than one question{why}. No run was started."
    return Message(
        text=text,
        blocks=[
            section(text),
            ActionsBlock(
                elements=[
                    button(
                        "Plan research",
                        action_id=STUDY_PLAN_ACTION,
                        value=plan_button_value(study_id, question),
                        style="primary",
                    )
                ]
            ),
        ],
    )


# --- results ---------------------------------------------------------------------------------------------


def _unique_names(output: StudyOutput) -> list[str]:
    seen: Counter[str] = Counter()
    names = []
    for audience in output.audiences:
        seen[audience.name] += 1
        names.append(audience.name if seen[audience.name] == 1 else f"{audience.name} ({seen[audience.name]})")
    return names


def _order_options(output: StudyOutput, totals: Counter[str]) -> list[str]:
    if output.type == "scale" and all(_number(v) is not None for v in totals):
        return sorted(totals, key=lambda v: _number(v) or 0.0)
    coded = [entry.label for entry in output.category_codebook]
    rest = [v for v, _ in totals.most_common() if v not in coded]
    return [*coded, *rest]


def _number(value: str) -> float | None:
    try:
        return float(value)
    except ValueError:
        return None


def distribution(output: StudyOutput) -> Distribution | None:
    """Answers counted per Audience and option; None for qualitative questions (they get themes, not a chart)."""
    if output.type not in CHARTED_TYPES or output.answer_count == 0:
        return None
    series = {
        name: dict(Counter(a.value for a in audience.answers))
        for name, audience in zip(_unique_names(output), output.audiences, strict=True)
    }
    totals: Counter[str] = Counter()
    for counts in series.values():
        totals.update(counts)
    return Distribution(title=output.title, options=_order_options(output, totals), series=series)


def _top_line(name: str, value: str, answers: list[OutputAnswer], output: StudyOutput) -> str:
    count = len(answers)
    answered = "1 answer" if count == 1 else f"{count} answers"
    head = f"*{escape(name, limit=MAX_NAME_SHOWN)}* ({answered})"
    if output.type in CHARTED_TYPES and answers:
        counts = stats.counted([a.value for a in answers], kind=output.type)
        line = stats.summary_line(kind=output.type, counts=counts, n=count, scale_range=output.scale_range)
        if line:
            return f"{head}: {escape(shorten(line, 400))}"
    return f"{head}: {escape(shorten(value, 200))}"


def _quotes(output: StudyOutput) -> list[str]:
    quotes: list[str] = []
    depth = 0
    while len(quotes) < QUOTES and any(depth < len(a.answers) for a in output.audiences):
        for audience in output.audiences:
            if depth < len(audience.answers) and len(quotes) < QUOTES:
                answer = audience.answers[depth]
                if answer.message.strip():
                    said = escape(shorten(answer.message, QUOTE_PREVIEW))
                    persona = escape(answer.persona, limit=MAX_NAME_SHOWN)
                    who = f"{persona}, {escape(audience.name, limit=MAX_NAME_SHOWN)}"
                    quotes.append(f"> “{said}”\n— {who}")
        depth += 1
    return quotes


def render_result(output: StudyOutput, *, study_id: str, message_id: str, charted: bool) -> Message:
    """Top-line numbers per Audience, a few quotes and a button that pages every answer."""
    kind = "Themes" if output.type == "qualitative" else "Results"
    blocks: list[Block] = [section(f"*{kind}:* {escape(shorten(output.title, 300))}")]
    if output.type == "qualitative":
        for audience in output.audiences:
            blocks += sections(f"*{escape(audience.name)}* ({len(audience.answers)} answers)\n{escape(audience.value)}")
    else:
        lines = [_top_line(a.name, a.value, a.answers, output) for a in output.audiences]
        blocks += sections("\n".join(lines) or "No Audience reported answers.")
    quotes = _quotes(output)
    if quotes:
        blocks += sections("\n".join(quotes))
    value = encode_value({"s": study_id, "m": message_id, "p": 0})
    elements = (
        [button("Show answers", action_id=SHOW_ANSWERS_ACTION, value=value)] if value and output.answer_count else []
    )
    elements += heatmap_buttons(output, study_id=study_id, message_id=message_id)
    if elements:
        blocks.append(ActionsBlock(elements=elements))
    if charted:
        blocks.append(context("The chart above shows each Audience's share of answers per option."))
    if len(blocks) > MAX_BLOCKS_PER_MESSAGE:
        # Only very many Audiences' themes get here; every answer stays one click away.
        blocks = [*blocks[: MAX_BLOCKS_PER_MESSAGE - 2], context("More themes than fit here."), blocks[-1]]
    title = escape(shorten(output.title, 200))
    return Message(text=f"{kind}: {title} — {output.answer_count} answers", blocks=blocks)


# --- individual answers ------------------------------------------------------------------------------------


def _answer_blocks(audience: str, answer: OutputAnswer) -> list[Block]:
    who = f"*{escape(answer.persona, limit=MAX_NAME_SHOWN)}* · {escape(audience, limit=MAX_NAME_SHOWN)}"
    head = f"{who} — {escape(shorten(answer.value, 200))}"
    return sections(f"{head}\n{escape(answer.message)}" if answer.message.strip() else head)


def answer_pages(output: StudyOutput) -> list[list[list[Block]]]:
    """Every answer's blocks, grouped into pages that fit one message. Deterministic for the same output."""
    pages: list[list[list[Block]]] = [[]]
    used = 0
    for audience in output.audiences:
        for answer in audience.answers:
            blocks = _answer_blocks(audience.name, answer)
            full = len(pages[-1]) >= ANSWERS_PER_PAGE or used + len(blocks) > PAGE_BLOCK_BUDGET
            if pages[-1] and full:
                pages.append([])
                used = 0
            pages[-1].append(blocks)
            used += len(blocks)
    return pages


def render_answers_page(output: StudyOutput, *, study_id: str, message_id: str, page: int) -> Message:
    pages = answer_pages(output)
    index = min(max(page, 0), len(pages) - 1)
    blocks: list[Block] = [
        context(f"Answers to “{escape(shorten(output.title, 150))}” — page {index + 1} of {len(pages)}")
    ]
    for answer in pages[index]:
        blocks += answer
    if not output.answer_count:
        blocks.append(section("Minds reported no individual answers for this question."))
    blocks += pager(
        prev_id=ANSWERS_PREV_ACTION,
        next_id=ANSWERS_NEXT_ACTION,
        prev_state={"s": study_id, "m": message_id, "p": index - 1} if index > 0 else None,
        next_state={"s": study_id, "m": message_id, "p": index + 1} if index + 1 < len(pages) else None,
    )
    return Message(text=f"Answers, page {index + 1} of {len(pages)}", blocks=blocks)


# --- private notes to the asker ------------------------------------------------------------------------------


def render_not_on_record() -> Message:
    return note("That question is no longer on record; ask it again with `/minds ask`.")


def render_retry_refused(requester_id: str) -> Message:
    text = f"Only {mention(requester_id)} can retry their question."
    return Message(text=text, blocks=[section(text)])


def render_already_asked() -> Message:
    return note("This question was already sent to Minds; its answers will appear in the thread.")


def render_unreadable(reason: str) -> Message:
    """The run finished but its answers could not be read (Minds' words in ``reason``)."""
    return note(reason)


def render_finished() -> Message:
    return note("Finished — see below.")
