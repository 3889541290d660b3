"""A research run in its thread: per-question results, the answer-consistency note, and the ``/minds runs`` list.
Its progress line, terminal headline and the notes when a run is lost or never started are in
``render/run_status.py`` (every public name of it importable from here).

Owns: coverage gaps (missing coverage on older artifacts is "unknown"), ``not_asked`` items as
finished-by-routing, per-audience results read from ``outputData`` into ``render/results.QuestionResult`` (the one
model its text and its chart share: n and base per Audience, option order, statistics, NPS), and consistency flags
counted per question with
the caveat that they are prompts to review said once, in the run's consistency note. A question's label is its
number in its run (``render/common.question_label``, through the catalogs); under the headline the result says
which run they belong to ("Questions Q1–Q6 of the run of 2026-12-05 14:03 UTC"), the label the report uses too.
Pure: no I/O; charts are drawn by ``render/charts.result_chart`` from the ``QuestionResult`` returned here.
Must not touch: Minds calls, the store, Slack calls.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from slack_sdk.models.blocks import Block, ContextBlock, MarkdownTextObject, SectionBlock

from minds_bot.i18n import _, _n, annotate, format_number, join_list
from minds_bot.minds import AgentRun, ResearchRun, RunArtifact
from minds_bot.minds.models import AnswerConsistency, StudyMessage, calculation_kind
from minds_bot.render import (
    MAX_BLOCKS_PER_MESSAGE,
    MAX_NAME_SHOWN,
    Message,
    escape,
    results,
)
from minds_bot.render.calculations import calculation_blocks
from minds_bot.render.common import question_label, shorten, split_text
from minds_bot.render.run_names import hidden_runs_line, run_lines
from minds_bot.render.run_status import (
    LostKind,
    lost_text,
    progress_text,
    render_approval_refused,
    render_report_not_started,
    render_unconfirmed,
    terminal_line,
)

# Names that moved to run_status.py, still importable from here (mypy: explicit re-export).
__all__ = [
    "LostKind",
    "lost_text",
    "progress_text",
    "render_approval_refused",
    "render_report_not_started",
    "render_unconfirmed",
    "terminal_line",
]

CHARTED_TYPES = frozenset({"categorical", "multiselect", "scale"})
MAX_QUOTES = 2
MAX_QUOTE = 280
MAX_THEMES = 6
MAX_TITLE = 300
RESULT_BLOCKS_PER_MESSAGE = MAX_BLOCKS_PER_MESSAGE - 2


# --- per-question results -----------------------------------------------------------------------------------


def _audiences(output: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    items = output.get("audiences")
    return [a for a in items if isinstance(a, Mapping)] if isinstance(items, list) else []


def _answers(audience: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    items = audience.get("answers")
    return [a for a in items if isinstance(a, Mapping)] if isinstance(items, list) else []


def _classification(output: Mapping[str, Any]) -> Mapping[str, Any]:
    classification = output.get("classification")
    return classification if isinstance(classification, Mapping) else {}


def _scale_range(output: Mapping[str, Any]) -> list[float] | None:
    scale = _classification(output).get("scaleRange")
    if isinstance(scale, list) and len(scale) == 2:
        try:
            return [float(v) for v in scale]
        except (TypeError, ValueError):
            return None
    return None


def _anchors(output: Mapping[str, Any]) -> tuple[str, str] | None:
    labels = _classification(output).get("scaleLabels")
    if isinstance(labels, list) and len(labels) == 2 and all(isinstance(v, str) and v for v in labels):
        return (labels[0], labels[1])
    return None


def distribution(artifact: RunArtifact, *, method_nps: bool | None = False) -> results.QuestionResult | None:
    """The result of a categorical, multiselect or scale question — what its text and its chart both say; None
    when none is reported. ``method_nps``: whether Minds marks the run's method NPS (``uses_nps``: a 0–10 scale
    then shows its NPS); a run's calculations say which methods Minds computed, so False is never "unknown"."""
    output = artifact.output_data or {}
    kind = str(output.get("type", ""))
    if artifact.not_asked or kind not in CHARTED_TYPES:
        return None
    options = _classification(output).get("options")
    listed = [str(o) for o in options] if isinstance(options, list) else []
    audiences: list[tuple[str, list[str]]] = []
    for audience in _audiences(output):
        fallback = _("Audience {number}", number=len(audiences) + 1)
        name = str(audience.get("audience") or audience.get("name") or fallback)
        audiences.append((name, [str(answer.get("value", "")) for answer in _answers(audience)]))
    return results.build(
        title=_title(artifact),
        kind=kind,
        audiences=audiences,
        listed=listed,
        scale_range=_scale_range(output),
        anchors=_anchors(output),
        method_nps=method_nps,
    )


def _title(artifact: RunArtifact) -> str:
    output = artifact.output_data or {}
    return str(output.get("title") or artifact.question_id or _("Question {number}", number=artifact.index + 1))


def _shares(result: results.QuestionResult, audience: results.AudienceResult) -> str:
    """One Audience's numbers with what they cover: "Gen Z (% of respondents · n=12): Yes 70% · No 30%"."""
    return results.audience_line(result, audience, name=escape(audience.name))


def _number_of(artifacts: Sequence[RunArtifact]) -> dict[str, int]:
    return {a.question_id: a.index + 1 for a in artifacts if a.question_id}


def coverage_line(artifact: RunArtifact, *, partial_run: bool) -> str | None:
    """The coverage gap, named; unknown coverage is said to be unknown, never assumed complete."""
    coverage = artifact.response_coverage
    if coverage is None:
        return _("Coverage: unknown (not reported for this result).") if partial_run else None
    if coverage.received >= coverage.expected:
        return None
    return _n(
        "Coverage gap: {received} of {count} expected answers ({missing} missing).",
        "Coverage gap: {received} of {count} expected answers ({missing} missing).",
        coverage.expected,
        received=format_number(coverage.received),
        missing=format_number(coverage.expected - coverage.received),
    )


def not_asked_line(artifact: RunArtifact, numbers: Mapping[str, int]) -> str:
    routing = artifact.routing
    if routing is None:
        return _("not asked: no Mind met its routing condition (finished, not failed).")
    if routing.gate_question_id in numbers:
        gate = question_label(numbers[routing.gate_question_id])
        return _("not asked: routed by {question} — no Mind's answer matched (finished, not failed).", question=gate)
    return _("not asked: routed by an earlier question — no Mind's answer matched (finished, not failed).")


def artifact_text(
    artifact: RunArtifact, *, numbers: Mapping[str, int], partial_run: bool, method_nps: bool = False
) -> str:
    """One question's result: its numbers per Audience (each with its n and base), routing, coverage and how many
    consistency flags it has (the caveat about flags is said once, in the run's consistency note)."""
    number = artifact.index + 1
    if artifact.not_asked:
        return f"*{question_label(number)}.* {not_asked_line(artifact, numbers)}"
    lines = [f"*{question_label(number)}. {escape(shorten(_title(artifact), MAX_TITLE))}*"]
    output = artifact.output_data or {}
    dist = distribution(artifact, method_nps=method_nps)
    if dist is not None:
        lines += [_shares(dist, audience) for audience in dist.audiences if audience.n]
        assumed = results.assumed_text(dist)
        lines += [f"_{escape(assumed)}_"] if assumed else []
    elif str(output.get("type")) == "qualitative":
        lines += _qualitative_lines(output)
    lines += _top_lines(output) if dist is None else []
    routing = artifact.routing
    if routing is not None:
        lines.append(_routed_line(routing.asked_count, routing.not_asked_count, numbers.get(routing.gate_question_id)))
    gap = coverage_line(artifact, partial_run=partial_run)
    if gap:
        lines.append(f":warning: {gap}")
    flags = artifact.answer_consistency.flags if artifact.answer_consistency else []
    if flags:
        lines.append(
            _n(
                "_{count} consistency flag to review (see the consistency note below)._",
                "_{count} consistency flags to review (see the consistency note below)._",
                len(flags),
            )
        )
    if len(lines) == 1:
        lines.append(_("No answers reported for this question."))
    return "\n".join(lines)


def _routed_line(asked_count: int, not_asked_count: int, gate: int | None) -> str:
    """How many Minds a routed question was asked of, and by which question (``gate``: its number) it was routed."""
    values = {"asked": format_number(asked_count)}
    if gate is not None:
        question = question_label(gate)
        return _n(
            "_Asked of {asked} of {count} Minds (routed by {question}); shares are of those asked._",
            "_Asked of {asked} of {count} Minds (routed by {question}); shares are of those asked._",
            asked_count + not_asked_count,
            question=question,
            **values,
        )
    # i18n: Routed by a question not in this run (its number is unknown).
    return _n(
        "_Asked of {asked} of {count} Minds (routed by routing); shares are of those asked._",
        "_Asked of {asked} of {count} Minds (routed by routing); shares are of those asked._",
        asked_count + not_asked_count,
        **values,
    )


def _top_lines(output: Mapping[str, Any]) -> list[str]:
    lines = []
    for audience in _audiences(output):
        value = str(audience.get("value") or "").strip()
        if value:
            name = str(audience.get("audience") or audience.get("name") or _("Audience"))
            # i18n: A label, then what it introduces (an Audience's name and Minds' top line for it). Use your
            # language's colon.
            lines.append(_("{label}: {text}", label=escape(name), text=escape(shorten(value, MAX_QUOTE))))
    return lines


def _qualitative_lines(output: Mapping[str, Any]) -> list[str]:
    lines = []
    codebook = output.get("categoryCodebook")
    if isinstance(codebook, list):
        themes = [t for t in codebook if isinstance(t, Mapping) and t.get("label")]
        themes.sort(key=lambda t: -int(t.get("count") or 0))
        if themes:
            shown = join_list(
                annotate(escape(str(t["label"])), format_number(int(t.get("count") or 0))) for t in themes[:MAX_THEMES]
            )
            more = len(themes) - MAX_THEMES
            if more > 0:
                lines.append(
                    _n("Themes: {themes} and {count} more", "Themes: {themes} and {count} more", more, themes=shown)
                )
            else:
                lines.append(_("Themes: {themes}", themes=shown))
    quotes = [a for audience in _audiences(output) for a in _answers(audience) if a.get("message")]
    for answer in quotes[:MAX_QUOTES]:
        who = f" — {escape(str(answer.get('persona')))}" if answer.get("persona") else ""
        lines.append("> " + _("“{name}”", name=escape(shorten(str(answer["message"]), MAX_QUOTE))) + who)
    return lines


def consistency_text(check: AnswerConsistency) -> str:
    """The answerConsistency summary; flags are prompts to review, not proof of error."""
    caveat = _("Flags are prompts to review both answers, not proof of error.")
    if check.status == "failed":
        return _(
            ":mag: The answer-consistency check failed; the answers are unchanged and unflagged. {caveat}",
            caveat=caveat,
        )
    flagged = check.flagged_minds or 0
    checked = check.checked_minds
    pairs = _n("{count} contradicting answer pair", "{count} contradicting answer pairs", check.flag_count or 0)
    if checked is not None:
        text = _n(
            ":mag: Answer consistency: {flagged} of {count} Mind flagged ({pairs}). {caveat}",
            ":mag: Answer consistency: {flagged} of {count} Minds flagged ({pairs}). {caveat}",
            checked,
            flagged=format_number(flagged),
            pairs=pairs,
            caveat=caveat,
        )
    else:
        text = _n(
            ":mag: Answer consistency: {count} Mind flagged ({pairs}). {caveat}",
            ":mag: Answer consistency: {count} Minds flagged ({pairs}). {caveat}",
            flagged,
            pairs=pairs,
            caveat=caveat,
        )
    if check.status == "incomplete":
        # i18n: {text} is the answer-consistency note before this sentence.
        text = _("{text} The check stopped before every Mind was checked.", text=text)
    if check.unchecked_minds:
        # i18n: {text} is the answer-consistency note before this sentence.
        text = _n(
            "{text} {count} Mind could not be checked: its answers are unflagged, not cleared.",
            "{text} {count} Minds could not be checked: their answers are unflagged, not cleared.",
            check.unchecked_minds,
            text=text,
        )
    if check.unsaved_items:
        items = join_list(question_label(i + 1) for i in check.unsaved_items)
        # i18n: {text} is the answer-consistency note before this sentence; {questions} lists question numbers
        # (Q2, Q3…).
        text = _("{text} Flags for {questions} could not be saved.", text=text, questions=items)
    return text


def uses_nps(run: ResearchRun) -> bool:
    """Whether Minds marks the run's method NPS: its ``calculations`` hold an NPS entry (computed or not)."""
    return any(c.kind == "nps" or _names_nps(getattr(c, "method_id", None)) for c in run.calculations)


def _names_nps(method_id: object) -> bool:
    return isinstance(method_id, str) and calculation_kind(method_id) == "nps"


def render_results(run: ResearchRun, *, study_name: str, after: Sequence[Block] = ()) -> list[Message]:
    """The terminal result as thread messages: the headline first (and, under it, that the answers were simulated
    locally when the embedded sandbox produced them), then every question's result, paged; ``after``: blocks that
    close the result (its "Compare with…" button)."""
    numbers = _number_of(run.artifacts)
    partial_run = run.status == "partial"
    name = escape(study_name, limit=MAX_NAME_SHOWN)
    blocks: list[Block] = [SectionBlock(text=MarkdownTextObject(text=annotate(terminal_line(run), name)))]
    if run.simulated:
        blocks.append(ContextBlock(elements=[MarkdownTextObject(text=results.simulated_text())]))
    if run.created_at is not None and run.artifacts:  # the labels the report gives these questions too
        labels = labels_text(run.created_at, max(a.index for a in run.artifacts) + 1)
        blocks.append(ContextBlock(elements=[MarkdownTextObject(text=labels)]))
    method_nps = uses_nps(run)
    for artifact in sorted(run.artifacts, key=lambda a: a.index):
        text = artifact_text(artifact, numbers=numbers, partial_run=partial_run, method_nps=method_nps)
        blocks += [SectionBlock(text=MarkdownTextObject(text=piece)) for piece in split_text(text)]
    blocks += calculation_blocks(run.calculations)  # each method calculation's headline figures, or why not
    if run.answer_consistency is not None:
        blocks.append(ContextBlock(elements=[MarkdownTextObject(text=consistency_text(run.answer_consistency))]))
    blocks += after
    headline = terminal_line(run)
    pages = [blocks[i : i + RESULT_BLOCKS_PER_MESSAGE] for i in range(0, len(blocks), RESULT_BLOCKS_PER_MESSAGE)]
    return [
        Message(text=headline if n == 0 else _("{headline} (continued)", headline=headline), blocks=page)
        for n, page in enumerate(pages)
    ]


def run_date(created_at: datetime) -> str:
    """A run's start as its questions' labels say it, the same in the thread and the report: 2026-12-05 14:03 UTC."""
    return created_at.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


def labels_text(created_at: datetime, count: int) -> str:
    # i18n: {first} and {last} are question labels (Q1, Q6); {date} is the run's start in UTC.
    return _(
        "Questions {first}–{last} of the run of {date}: the report labels them the same way.",
        first=question_label(1),
        last=question_label(count),
        date=run_date(created_at),
    )


def render_consistency(check: AnswerConsistency | None) -> Message:
    if check is None:
        text = _(":mag: The answer-consistency check did not report back; no flags were reported for this run.")
    else:
        text = consistency_text(check)
    return Message(text=text, blocks=[SectionBlock(text=MarkdownTextObject(text=text))])


# --- /minds runs ---------------------------------------------------------------------------------------------


def render_runs(
    runs: Sequence[AgentRun],
    *,
    study_name: str,
    messages: Sequence[StudyMessage] = (),
    thread_links: Mapping[str, str] | None = None,
    hidden: Collection[str] = (),
    first: int = 1,
) -> Message:
    """Each run by date, first question, n and state (``render/run_names.py``), linked to its thread when the bot
    posted it, numbered newest first as ``/minds compare`` names runs (from ``first`` on a later page). ``hidden``:
    runs of channels the person is not in — left out and counted; the others keep their numbers (a page's footer,
    which runs of how many and **Older runs**, is ``render/run_pages.py``'s)."""
    name = escape(study_name, limit=MAX_NAME_SHOWN)
    numbers = [n for n, run in enumerate(runs, first) if run.run_id not in hidden]
    left_out = len(runs) - len(numbers)
    if not runs:
        text = _("No runs yet for {study}.", study=name)
        return Message(text=text, blocks=[SectionBlock(text=MarkdownTextObject(text=text))])
    if not numbers:
        text = "\n".join((_("*Recent runs of {study}*", study=name), hidden_runs_line(left_out)))
        return Message(text=_("Recent runs of {study}", study=name), blocks=_sections(text))
    lines = [_("*Recent runs of {study}* (newest first, as Minds reports them)", study=name)]
    lines += run_lines(runs, messages=messages, thread_links=thread_links, numbered=True, hidden=hidden, first=first)
    if left_out:
        lines.append(hidden_runs_line(left_out))
    if len(numbers) > 1:
        # i18n: {study} is the Study's name inside a command shown in code; {older} and {newer} are run numbers.
        hint = _(
            "_Compare two of them: `/minds compare {study} {older} {newer}`._",
            older=numbers[1],
            newer=numbers[0],
            study=name,
        )
        lines.append(hint)
    return Message(text=_("Recent runs of {study}", study=name), blocks=_sections("\n".join(lines)))


def _sections(text: str) -> list[Block]:
    return [SectionBlock(text=MarkdownTextObject(text=piece)) for piece in split_text(text)]
