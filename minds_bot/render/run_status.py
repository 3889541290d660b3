"""A research run's state in words: the progress line while it runs, the honest terminal headline when it ends,
what the thread says when a run, question, check, build or export can no longer be found (``lost_text``), and
when an approved revision started nothing (refused, unconfirmed, the report not started).

Owns: the words for every run state Minds reports (queued, running, completed, partial, plan_limited, failed,
cancelled — partial and plan_limited are never called complete; a plan-limited run names the questions that did
not run). Pure: no I/O; Minds' words are escaped. Must not touch: per-question results and the ``/minds runs``
list (``render/runs.py``), Minds calls, the store, Slack calls.
"""

from __future__ import annotations

from typing import Literal

from slack_sdk.models.blocks import MarkdownTextObject, SectionBlock

from minds_bot.i18n import _, _n, format_number, join_list
from minds_bot.minds import ResearchRun
from minds_bot.render import MAX_SECTION_TEXT, MAX_WORD_SHOWN, Message, escape, mention
from minds_bot.render.common import question_label
from minds_bot.render.states import state_word

MAX_NOT_RUN_NAMED = 20  # question numbers named in a plan-limited headline; the rest are counted


# --- progress -----------------------------------------------------------------------------------------------


def progress_text(run: ResearchRun) -> str:
    """One line for the progress message; it changes only when something a user would notice changes."""
    progress = run.progress
    if run.status == "queued":
        if progress is None:
            return _(":hourglass_flowing_sand: Queued: the questions waiting to start.")
        return _n(
            ":hourglass_flowing_sand: Queued: {count} question waiting to start.",
            ":hourglass_flowing_sand: Queued: {count} questions waiting to start.",
            progress.total,
        )
    if progress is None:
        # i18n: {status} is the run's state in words (queued, running…), its first letter capitalised.
        state = state_word(run.status)
        return _(":arrows_counterclockwise: {status}: no progress reported yet.", status=state[:1].upper() + state[1:])
    extras = []
    if progress.failed:
        # i18n: Counts in a progress line: "Running: 5 of 8 questions settled (1 failed, 2 with gaps)."
        extras.append(_n("{count} failed", "{count} failed", progress.failed))
    if progress.partial:
        extras.append(_n("{count} with gaps", "{count} with gaps", progress.partial))
    if progress.skipped:
        extras.append(_n("{count} not asked", "{count} not asked", progress.skipped))
    settled = format_number(progress.settled)
    if extras:
        return _n(
            ":arrows_counterclockwise: Running: {settled} of {count} question settled ({details}).",
            ":arrows_counterclockwise: Running: {settled} of {count} questions settled ({details}).",
            progress.total,
            settled=settled,
            details=join_list(extras),
        )
    return _n(
        ":arrows_counterclockwise: Running: {settled} of {count} question settled.",
        ":arrows_counterclockwise: Running: {settled} of {count} questions settled.",
        progress.total,
        settled=settled,
    )


def terminal_line(run: ResearchRun) -> str:
    """The headline for a finished run, worded as Minds reports it."""
    progress = run.progress
    if run.status == "plan_limited":
        return _plan_limited_line(run)
    if run.status == "partial":
        if progress and progress.partial:
            return _n(
                ":warning: Partial — not complete: the run finished with gaps. {count} question has incomplete "
                "coverage. The gaps are named below.",
                ":warning: Partial — not complete: the run finished with gaps. {count} questions have incomplete "
                "coverage. The gaps are named below.",
                progress.partial,
            )
        return _(":warning: Partial — not complete: the run finished with gaps. The gaps are named below.")
    if progress is None:
        if run.status == "completed":
            return _(":white_check_mark: Completed: all questions settled.")
        if run.status == "cancelled":  # Minds sent no progress: how far it got is not known, so it is not said
            return _(":heavy_multiplication_x: Cancelled: Minds reported no progress, so how far it got is unknown.")
        return _(":x: Failed: the run did not finish. Minds reported no progress, so how far it got is unknown.")
    settled = format_number(progress.settled)
    if run.status == "completed":
        return _n(
            ":white_check_mark: Completed: {settled} of {count} question settled.",
            ":white_check_mark: Completed: {settled} of {count} questions settled.",
            progress.total,
            settled=settled,
        )
    if run.status == "cancelled":
        return _n(
            ":heavy_multiplication_x: Cancelled: {settled} of {count} question had settled before it stopped.",
            ":heavy_multiplication_x: Cancelled: {settled} of {count} questions had settled before it stopped.",
            progress.total,
            settled=settled,
        )
    return _n(
        ":x: Failed: the run did not finish ({settled} of {count} question settled before it stopped).",
        ":x: Failed: the run did not finish ({settled} of {count} questions settled before it stopped).",
        progress.total,
        settled=settled,
    )


def _plan_limited_line(run: ResearchRun) -> str:
    """How far a run stopped by the plan limit got ("N of M questions"), and which questions did not run: those
    of the run's M with no result from Minds."""
    done, total = run.questions_completed, run.progress.total if run.progress else None
    if done is not None and total:
        line = _n(
            ":no_entry: Stopped by the Minds plan limit: {done} of {count} questions completed; their results are "
            "kept below.",
            ":no_entry: Stopped by the Minds plan limit: {done} of {count} questions completed; their results are "
            "kept below.",
            total,
            done=format_number(done),
        )
    elif done is not None:
        line = _n(
            ":no_entry: Stopped by the Minds plan limit: {count} question completed; its result is kept below.",
            ":no_entry: Stopped by the Minds plan limit: {count} questions completed; their results are kept below.",
            done,
        )
    else:
        line = _(
            ":no_entry: Stopped by the Minds plan limit. Minds did not say how many questions completed; the results "
            "it returned are kept below."
        )
    if total:
        ran = {artifact.index for artifact in run.artifacts if 0 <= artifact.index < total}
        named: list[str] = []
        index = 0
        while len(named) < MAX_NOT_RUN_NAMED and index < total:  # at most len(ran) + MAX_NOT_RUN_NAMED steps
            if index not in ran:
                named.append(question_label(index + 1))
            index += 1
        if named:
            more = total - len(ran) - len(named)
            questions = join_list(named)
            if more:
                # i18n: {line} is the sentence before this one; {questions} lists question numbers (Q2, Q3…).
                line = _n(
                    "{line} Did not run: {questions} and {count} more.",
                    "{line} Did not run: {questions} and {count} more.",
                    more,
                    line=line,
                    questions=questions,
                )
            else:
                # i18n: {line} is the sentence before this one; {questions} lists question numbers (Q2, Q3…).
                line = _("{line} Did not run: {questions}.", line=line, questions=questions)
    # i18n: {line} is the sentences before this one (what the plan limit stopped).
    return _("{line} An upgrade is needed before starting a follow-up run for the rest.", line=line)


LostKind = Literal["research", "question", "consistency", "audience", "export", "heatmap", "recalibration"]


def lost_text(kind: LostKind, *, reads: int, export: str = "", format: str = "") -> str:  # noqa: A002 - the export's field
    """A run, export or build Minds answers 404 for, again and again: said once, then no longer followed. One whole
    sentence per kind of thing, so each language can say it its own way; ``export``/``format`` name an export."""
    if kind == "export":
        return _n(
            ":grey_question: Minds no longer finds this {export} export ({format}) (not found on {count} read in a "
            "row), so the bot stopped following it. Nothing was submitted again; check it in Minds.",
            ":grey_question: Minds no longer finds this {export} export ({format}) (not found on {count} reads in a "
            "row), so the bot stopped following it. Nothing was submitted again; check it in Minds.",
            reads,
            export=escape(export, limit=MAX_WORD_SHOWN),
            format=escape(format, limit=MAX_WORD_SHOWN),
        )
    if kind == "question":
        return _n(
            ":grey_question: Minds no longer finds this question's run (not found on {count} read in a row), so the "
            "bot stopped following it. Nothing was submitted again; check it in Minds.",
            ":grey_question: Minds no longer finds this question's run (not found on {count} reads in a row), so the "
            "bot stopped following it. Nothing was submitted again; check it in Minds.",
            reads,
        )
    if kind == "consistency":
        return _n(
            ":grey_question: Minds no longer finds this run's answer-consistency check (not found on {count} read "
            "in a row), so the bot stopped following it. Nothing was submitted again; check it in Minds.",
            ":grey_question: Minds no longer finds this run's answer-consistency check (not found on {count} reads "
            "in a row), so the bot stopped following it. Nothing was submitted again; check it in Minds.",
            reads,
        )
    if kind == "heatmap":
        return _n(
            ":grey_question: Minds no longer finds this heatmap analysis (not found on {count} read in a row), so "
            "the bot stopped following it. Nothing was submitted again; check it in Minds.",
            ":grey_question: Minds no longer finds this heatmap analysis (not found on {count} reads in a row), so "
            "the bot stopped following it. Nothing was submitted again; check it in Minds.",
            reads,
        )
    if kind == "recalibration":
        return _n(
            ":grey_question: Minds no longer finds this Audience's recalibration (not found on {count} read in a "
            "row), so the bot stopped following it. Nothing was submitted again; check it in Minds.",
            ":grey_question: Minds no longer finds this Audience's recalibration (not found on {count} reads in a "
            "row), so the bot stopped following it. Nothing was submitted again; check it in Minds.",
            reads,
        )
    if kind == "audience":
        return _n(
            ":grey_question: Minds no longer finds this Audience build (not found on {count} read in a row), so the "
            "bot stopped following it. Nothing was submitted again; check it in Minds.",
            ":grey_question: Minds no longer finds this Audience build (not found on {count} reads in a row), so the "
            "bot stopped following it. Nothing was submitted again; check it in Minds.",
            reads,
        )
    return _n(
        ":grey_question: Minds no longer finds this research run (not found on {count} read in a row), so the bot "
        "stopped following it. Nothing was submitted again; check it in Minds.",
        ":grey_question: Minds no longer finds this research run (not found on {count} reads in a row), so the bot "
        "stopped following it. Nothing was submitted again; check it in Minds.",
        reads,
    )


# --- approving: what the thread says when no run started ------------------------------------------------------


def render_approval_refused(*, user_id: str, revision: int | None, reason: str) -> Message:
    """Minds refused to start the approved revision; ``reason`` is plain words (Minds' among them)."""
    said = escape(reason, limit=MAX_SECTION_TEXT - 200)
    text = _(
        "{user} approved revision {revision}, but nothing started: {reason}",
        user=mention(user_id),
        revision=revision,
        reason=said,
    )
    return Message(text=text, blocks=[SectionBlock(text=MarkdownTextObject(text=text))])


def render_unconfirmed(reason: str) -> Message:
    """No answer from Minds: nothing is assumed, and Approve re-sends the same request."""
    text = _(
        "Minds did not confirm the run ({reason}). Nothing is assumed: press Approve & run again to retry — the same "
        "request key is reused, so the research cannot start twice.",
        reason=escape(reason, limit=MAX_SECTION_TEXT - 300),
    )
    return Message(text=text, blocks=[SectionBlock(text=MarkdownTextObject(text=text))])


def render_report_not_started(reason: str) -> Message:
    text = _(
        "The report could not be started: {reason} Try `/minds export` later.",
        reason=escape(reason, limit=MAX_SECTION_TEXT - 100),
    )
    return Message(text=text, blocks=[SectionBlock(text=MarkdownTextObject(text=text))])
