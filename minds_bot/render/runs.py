"""A research run in its thread: progress lines, the honest terminal result, per-question results, the
answer-consistency note, and the ``/minds runs`` list.

Owns: the words for every run state exactly as Minds reports it (queued, running, completed, partial,
plan_limited, failed, cancelled — partial and plan_limited are never called complete), coverage gaps
(missing coverage on older artifacts is "unknown"), ``not_asked`` items as finished-by-routing, per-audience
distributions read from ``outputData`` (for the charts) with the numbers read first beside them (mean,
top-2-box and n for a scale; shares largest first with n for a choice, from ``render/stats.py``), and
consistency flags as prompts to review.
Pure: no I/O; charts are drawn by ``render/charts.py`` from ``Distribution`` values returned here.
Must not touch: Minds calls, the store, Slack calls.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from slack_sdk.models.blocks import Block, ContextBlock, MarkdownTextObject, SectionBlock

from minds_bot.minds import AgentRun, ResearchRun, RunArtifact
from minds_bot.minds.models import AnswerConsistency
from minds_bot.render import (
    MAX_BLOCKS_PER_MESSAGE,
    MAX_NAME_SHOWN,
    MAX_SECTION_TEXT,
    MAX_WORD_SHOWN,
    Message,
    escape,
    mention,
    stats,
)
from minds_bot.render.common import shorten, split_text

CHARTED_TYPES = frozenset({"categorical", "multiselect", "scale"})
MAX_QUOTES = 2
MAX_QUOTE = 280
MAX_THEMES = 6
MAX_TITLE = 300
MAX_NOT_RUN_NAMED = 20  # question numbers named in a plan-limited headline; the rest are counted
RESULT_BLOCKS_PER_MESSAGE = MAX_BLOCKS_PER_MESSAGE - 2
MULTI_SPLIT = re.compile(r"\s*[;,\n]\s*")


# --- progress -----------------------------------------------------------------------------------------------


def progress_text(run: ResearchRun) -> str:
    """One line for the progress message; it changes only when something a user would notice changes."""
    progress = run.progress
    if run.status == "queued":
        total = f"{progress.total} questions" if progress else "the questions"
        return f":hourglass_flowing_sand: Queued: {total} waiting to start."
    if progress is None:
        return f":arrows_counterclockwise: {_status(run.status).capitalize()}: no progress reported yet."
    text = f":arrows_counterclockwise: Running: {progress.settled} of {progress.total} questions settled"
    extras = []
    if progress.failed:
        extras.append(f"{progress.failed} failed")
    if progress.partial:
        extras.append(f"{progress.partial} with gaps")
    if progress.skipped:
        extras.append(f"{progress.skipped} not asked")
    return text + (f" ({', '.join(extras)})" if extras else "") + "."


def _status(status: str) -> str:
    return escape(status, limit=MAX_WORD_SHOWN)


def terminal_line(run: ResearchRun) -> str:
    """The headline for a finished run, worded as Minds reports it."""
    progress = run.progress
    settled = f"{progress.settled} of {progress.total}" if progress else "all"
    if run.status == "completed":
        return f":white_check_mark: Completed: {settled} questions settled."
    if run.status == "partial":
        gaps = f" {progress.partial} question(s) have incomplete coverage." if progress and progress.partial else ""
        return f":warning: Partial — not complete: the run finished with gaps.{gaps} The gaps are named below."
    if run.status == "plan_limited":
        return _plan_limited_line(run)
    if run.status == "cancelled":
        return f":heavy_multiplication_x: Cancelled: {settled} questions had settled before it stopped."
    return f":x: Failed: the run did not finish ({settled} questions settled before it stopped)."


def _plan_limited_line(run: ResearchRun) -> str:
    """How far a run stopped by the plan limit got ("N of M questions"), and which questions did not run: those
    of the run's M with no result from Minds."""
    done, total = run.questions_completed, run.progress.total if run.progress else None
    if done is not None and total:
        count = f"{done} of {total} questions completed"
    else:
        count = f"{done} question(s) completed" if done is not None else "Some questions completed"
    line = f":no_entry: Stopped by the Minds plan limit: {count}; their results are kept below."
    if total:
        ran = {artifact.index for artifact in run.artifacts if 0 <= artifact.index < total}
        named: list[str] = []
        index = 0
        while len(named) < MAX_NOT_RUN_NAMED and index < total:  # at most len(ran) + MAX_NOT_RUN_NAMED steps
            if index not in ran:
                named.append(f"Q{index + 1}")
            index += 1
        if named:
            more = total - len(ran) - len(named)
            line += f" Did not run: {', '.join(named)}{f' and {more:,} more' if more else ''}."
    return line + " An upgrade is needed before starting a follow-up run for the rest."


# --- per-question results -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Distribution:
    """Answer counts per audience for one question, ready for ``charts.distribution_chart``."""

    title: str
    options: list[str]
    series: dict[str, dict[str, int]]


def _audiences(output: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    items = output.get("audiences")
    return [a for a in items if isinstance(a, Mapping)] if isinstance(items, list) else []


def _answers(audience: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    items = audience.get("answers")
    return [a for a in items if isinstance(a, Mapping)] if isinstance(items, list) else []


def _options(output: Mapping[str, Any], kind: str) -> list[str]:
    classification = output.get("classification")
    classification = classification if isinstance(classification, Mapping) else {}
    options = classification.get("options")
    if isinstance(options, list) and options:
        return [str(o) for o in options]
    scale = classification.get("scaleRange")
    if kind == "scale" and isinstance(scale, list) and len(scale) == 2:
        low, high = (int(float(v)) for v in scale)
        if 0 <= high - low <= 20:
            return [str(v) for v in range(low, high + 1)]
    return []


def _values(answer: Mapping[str, Any], kind: str, options: Sequence[str]) -> list[str]:
    value = str(answer.get("value", "")).strip()
    if not value:
        return []
    if kind == "multiselect":
        picked = [v for v in MULTI_SPLIT.split(value) if v]
        return [v for v in picked if v in options] if options else picked
    if kind == "scale":
        try:
            return [str(int(float(value)))] if float(value).is_integer() else [value]
        except ValueError:
            return [value]
    return [value]


def distribution(artifact: RunArtifact) -> Distribution | None:
    """Per-audience counts for a categorical, multiselect or scale result; None when none is reported."""
    output = artifact.output_data or {}
    kind = str(output.get("type", ""))
    if artifact.not_asked or kind not in CHARTED_TYPES:
        return None
    options = _options(output, kind)
    series: dict[str, dict[str, int]] = {}
    seen: list[str] = list(options)
    for audience in _audiences(output):
        name = str(audience.get("audience") or audience.get("name") or f"Audience {len(series) + 1}")
        counts: dict[str, int] = {}
        for answer in _answers(audience):
            for value in _values(answer, kind, options):
                counts[value] = counts.get(value, 0) + 1
                if value not in seen:
                    seen.append(value)
        series[name] = counts
    if not any(series.values()):
        return None
    return Distribution(title=_title(artifact), options=seen, series=series)


def _title(artifact: RunArtifact) -> str:
    output = artifact.output_data or {}
    return str(output.get("title") or artifact.question_id or f"Question {artifact.index + 1}")


def _shares(dist: Distribution, audience: str, *, output: Mapping[str, Any]) -> str:
    """One Audience's top line: mean and top-2-box for a scale, shares largest first for a choice, with n."""
    counts = dist.series[audience]
    kind = str(output.get("type", ""))
    named = [a for a in _audiences(output) if str(a.get("audience") or a.get("name") or "") == audience]
    n = sum(1 for a in named for answer in _answers(a) if str(answer.get("value", "")).strip())
    n = n or sum(counts.values())
    classification = output.get("classification")
    scale = classification.get("scaleRange") if isinstance(classification, Mapping) else None
    line = stats.summary_line(kind=kind, counts=counts, n=n, scale_range=scale if isinstance(scale, list) else None)
    return f"{escape(audience)} (n={n}): {escape(line or 'no answers')}"


def _number_of(artifacts: Sequence[RunArtifact]) -> dict[str, int]:
    return {a.question_id: a.index + 1 for a in artifacts if a.question_id}


def coverage_line(artifact: RunArtifact, *, partial_run: bool) -> str | None:
    """The coverage gap, named; unknown coverage is said to be unknown, never assumed complete."""
    coverage = artifact.response_coverage
    if coverage is None:
        return "Coverage: unknown (not reported for this result)." if partial_run else None
    if coverage.received >= coverage.expected:
        return None
    missing = coverage.expected - coverage.received
    return f"Coverage gap: {coverage.received} of {coverage.expected} expected answers ({missing} missing)."


def not_asked_line(artifact: RunArtifact, numbers: Mapping[str, int]) -> str:
    routing = artifact.routing
    if routing is None:
        return "not asked: no Mind met its routing condition (finished, not failed)."
    gate = f"Q{numbers[routing.gate_question_id]}" if routing.gate_question_id in numbers else "an earlier question"
    return f"not asked: routed by {gate} — no Mind's answer matched (finished, not failed)."


def artifact_text(artifact: RunArtifact, *, numbers: Mapping[str, int], partial_run: bool) -> str:
    number = artifact.index + 1
    if artifact.not_asked:
        return f"*Q{number}.* {not_asked_line(artifact, numbers)}"
    lines = [f"*Q{number}. {escape(shorten(_title(artifact), MAX_TITLE))}*"]
    output = artifact.output_data or {}
    dist = distribution(artifact)
    if dist is not None:
        lines += [_shares(dist, name, output=output) for name in dist.series if dist.series[name]]
    elif str(output.get("type")) == "qualitative":
        lines += _qualitative_lines(output)
    lines += _top_lines(output) if dist is None else []
    routing = artifact.routing
    if routing is not None:
        gate = f"Q{numbers[routing.gate_question_id]}" if routing.gate_question_id in numbers else "routing"
        asked = routing.asked_count + routing.not_asked_count
        lines.append(
            f"_Asked of {routing.asked_count} of {asked} Minds (routed by {gate}); shares are of those asked._"
        )
    gap = coverage_line(artifact, partial_run=partial_run)
    if gap:
        lines.append(f":warning: {gap}")
    flags = artifact.answer_consistency.flags if artifact.answer_consistency else []
    if flags:
        lines.append(f"_{len(flags)} consistency flag(s) to review — a prompt to compare answers, not proof of error._")
    if len(lines) == 1:
        lines.append("No answers reported for this question.")
    return "\n".join(lines)


def _top_lines(output: Mapping[str, Any]) -> list[str]:
    lines = []
    for audience in _audiences(output):
        value = str(audience.get("value") or "").strip()
        if value:
            name = str(audience.get("audience") or audience.get("name") or "Audience")
            lines.append(f"{escape(name)}: {escape(shorten(value, MAX_QUOTE))}")
    return lines


def _qualitative_lines(output: Mapping[str, Any]) -> list[str]:
    lines = []
    codebook = output.get("categoryCodebook")
    if isinstance(codebook, list):
        themes = [t for t in codebook if isinstance(t, Mapping) and t.get("label")]
        themes.sort(key=lambda t: -int(t.get("count") or 0))
        if themes:
            shown = ", ".join(f"{escape(str(t['label']))} ({int(t.get('count') or 0)})" for t in themes[:MAX_THEMES])
            more = f" and {len(themes) - MAX_THEMES} more" if len(themes) > MAX_THEMES else ""
            lines.append(f"Themes: {shown}{more}")
    quotes = [a for audience in _audiences(output) for a in _answers(audience) if a.get("message")]
    for answer in quotes[:MAX_QUOTES]:
        who = f" — {escape(str(answer.get('persona')))}" if answer.get("persona") else ""
        lines.append(f"> “{escape(shorten(str(answer['message']), MAX_QUOTE))}”{who}")
    return lines


def consistency_text(check: AnswerConsistency) -> str:
    """The answerConsistency summary; flags are prompts to review, not proof of error."""
    caveat = "Flags are prompts to review both answers, not proof of error."
    if check.status == "failed":
        return f":mag: The answer-consistency check failed; the answers are unchanged and unflagged. {caveat}"
    flagged = check.flagged_minds or 0
    checked = check.checked_minds
    pairs = check.flag_count or 0
    of = f" of {checked}" if checked is not None else ""
    text = f":mag: Answer consistency: {flagged}{of} Minds flagged ({pairs} contradicting answer pair(s)). {caveat}"
    if check.status == "incomplete":
        text += " The check stopped before every Mind was checked."
    if check.unchecked_minds:
        text += f" {check.unchecked_minds} Mind(s) could not be checked: their answers are unflagged, not cleared."
    if check.unsaved_items:
        items = ", ".join(f"Q{i + 1}" for i in check.unsaved_items)
        text += f" Flags for {items} could not be saved."
    return text


def render_results(run: ResearchRun, *, study_name: str) -> list[Message]:
    """The terminal result as thread messages: the headline first, then every question's result, paged."""
    numbers = _number_of(run.artifacts)
    partial_run = run.status == "partial"
    name = escape(study_name, limit=MAX_NAME_SHOWN)
    blocks: list[Block] = [SectionBlock(text=MarkdownTextObject(text=f"{terminal_line(run)} ({name})"))]
    for artifact in sorted(run.artifacts, key=lambda a: a.index):
        text = artifact_text(artifact, numbers=numbers, partial_run=partial_run)
        blocks += [SectionBlock(text=MarkdownTextObject(text=piece)) for piece in split_text(text)]
    if run.answer_consistency is not None:
        blocks.append(ContextBlock(elements=[MarkdownTextObject(text=consistency_text(run.answer_consistency))]))
    headline = terminal_line(run)
    pages = [blocks[i : i + RESULT_BLOCKS_PER_MESSAGE] for i in range(0, len(blocks), RESULT_BLOCKS_PER_MESSAGE)]
    return [
        Message(text=headline if n == 0 else f"{headline} (continued)", blocks=page) for n, page in enumerate(pages)
    ]


def render_consistency(check: AnswerConsistency | None) -> Message:
    if check is None:
        text = ":mag: The answer-consistency check did not report back; no flags were reported for this run."
    else:
        text = consistency_text(check)
    return Message(text=text, blocks=[SectionBlock(text=MarkdownTextObject(text=text))])


# --- /minds runs ---------------------------------------------------------------------------------------------


def render_runs(runs: Sequence[AgentRun], *, study_name: str) -> Message:
    name = escape(study_name, limit=MAX_NAME_SHOWN)
    if not runs:
        text = f"No runs yet for {name}."
        return Message(text=text, blocks=[SectionBlock(text=MarkdownTextObject(text=text))])
    lines = [f"*Recent runs of {name}* (newest first, as Minds reports them)"]
    lines += [f"• `{escape(run.run_id, limit=MAX_NAME_SHOWN)}` — {_status(run.status)}" for run in runs]
    text = "\n".join(lines)
    blocks: list[Block] = [SectionBlock(text=MarkdownTextObject(text=piece)) for piece in split_text(text)]
    return Message(text=f"Recent runs of {name}", blocks=blocks)


def lost_text(*, what: str, reads: int) -> str:
    """A run, export or build Minds answers 404 for, again and again: said once, then no longer followed.
    ``what`` is plain words (an export's kind among them), escaped here."""
    what = escape(what, limit=MAX_NAME_SHOWN)
    return (
        f":grey_question: Minds no longer finds this {what} (not found on {reads} reads in a row), so the bot "
        "stopped following it. Nothing was submitted again; check it in Minds."
    )


# --- approving: what the thread says when no run started ------------------------------------------------------


def render_approval_refused(*, user_id: str, revision: int | None, reason: str) -> Message:
    """Minds refused to start the approved revision; ``reason`` is plain words (Minds' among them)."""
    said = escape(reason, limit=MAX_SECTION_TEXT - 200)
    text = f"{mention(user_id)} approved revision {revision}, but nothing started: {said}"
    return Message(text=text, blocks=[SectionBlock(text=MarkdownTextObject(text=text))])


def render_unconfirmed(reason: str) -> Message:
    """No answer from Minds: nothing is assumed, and Approve re-sends the same request."""
    text = (
        f"Minds did not confirm the run ({escape(reason, limit=MAX_SECTION_TEXT - 300)}). Nothing is assumed: press "
        "Approve & run again to retry — the same request key is reused, so the research cannot start twice."
    )
    return Message(text=text, blocks=[SectionBlock(text=MarkdownTextObject(text=text))])


def render_report_not_started(reason: str) -> Message:
    text = f"The report could not be started: {escape(reason, limit=MAX_SECTION_TEXT - 100)} Try `/minds export` later."
    return Message(text=text, blocks=[SectionBlock(text=MarkdownTextObject(text=text))])
