"""What the two workflow steps hand back to Workflow Builder: the outputs' text and the errors a workflow shows.

Owns: the "Ask Minds a question" step's ``summary`` (the same title and per-Audience lines the question's thread
shows, from ``render/answers.py``, so a workflow's message never says more or less than the thread), and the
plain words of every way a step can end without outputs (an input missing or too long, a Study not found, a run
that failed or was cancelled).
Must not touch: I/O.
"""

from __future__ import annotations

from minds_bot.i18n import _, format_number
from minds_bot.minds import StudyOutput
from minds_bot.render.answers import result_lines, result_title

STEP_ERROR_LIMIT = 2_000  # what a workflow shows of an error; Minds' own words are bounded before they get here


def step_summary(output: StudyOutput) -> str:
    """The result as the thread says it: "Results: {title} — {n} answers", then one line per Audience."""
    lines = result_lines(output) or [_("No Audience reported answers.")]
    return "\n".join([result_title(output), *lines])


def missing_input(title: str) -> str:
    # i18n: {input} is the title of a workflow step's input as Workflow Builder shows it ("Study", "Question")
    return _("The step has no {input}: fill it in the workflow (or map it to an earlier step's answer).", input=title)


def input_too_long(title: str, *, limit: int) -> str:
    return _(
        "The {input} is longer than {limit} characters; shorten it in the workflow.",
        input=title,
        limit=format_number(limit),
    )


def not_one_question(reason: str) -> str:
    return _(
        "Minds was not asked: {reason} This step asks one question; use the “Plan Minds research” step for several.",
        reason=reason,
    )


def ask_not_sent(reason: str) -> str:
    """Minds refused the question or could not be reached (``reason`` is the thread's words)."""
    return _("Minds was not asked: {reason}", reason=reason)[:STEP_ERROR_LIMIT]


def run_ended_without_answers(ended: str, *, link: str | None) -> str:
    """The run failed, was cancelled or its answers could not be read (``ended`` is what the thread says)."""
    if link:
        return _("{ended} The thread: {link}", ended=ended, link=link)[:STEP_ERROR_LIMIT]
    return ended[:STEP_ERROR_LIMIT]


def run_lost(*, link: str | None) -> str:
    text = _("Minds no longer finds this question's run, so it has no answers to report.")
    return run_ended_without_answers(text, link=link)


def cannot_post(error: str) -> str:
    """Slack refused the bot's post in the step's channel (``error`` is Slack's code, e.g. channel_not_found)."""
    return _(
        "The bot could not post in that channel (Slack said: {error}); invite the bot there or pick another channel.",
        error=error,
    )


def plan_not_started(reason: str) -> str:
    return _("The plan was not started: {reason}", reason=reason)[:STEP_ERROR_LIMIT]
