"""What the two workflow steps hand back to Workflow Builder: the outputs' text and the errors a workflow shows.

Owns: the "Ask Minds a question" step's ``summary`` (the same title and per-Audience lines the question's thread
shows, from ``render/answers.py``, so a workflow's message never says more or less than the thread), and the
words of every way a step can end without outputs (an input missing or too long, a Study not found, a channel
Slack refuses, a run that failed or was cancelled). All of it is mrkdwn with every outside word escaped: a later
workflow step may post it in a channel.
Must not touch: I/O.
"""

from __future__ import annotations

from minds_bot.i18n import _, format_number
from minds_bot.minds import StudyOutput
from minds_bot.render import MAX_SECTION_TEXT, Message, escape, results
from minds_bot.render.answers import result_lines, result_title

STEP_ERROR_LIMIT = 2_000  # how much of an error a workflow is handed; longer words are shortened with "…"


def step_summary(output: StudyOutput) -> str:
    """The result as the thread says it: "Results: {title} — {n} answers", the sandbox's simulated-locally line
    when the answers are simulated, then one line per Audience."""
    lines = result_lines(output) or [_("No Audience reported answers.")]
    simulated = [results.simulated_text()] if output.simulated else []
    return "\n".join([result_title(output), *simulated, *lines])


def missing_input(title: str) -> str:
    # i18n: {input} is the title of a workflow step's input as Workflow Builder shows it ("Study", "Question")
    return _(
        "The step has no {input}: fill it in the workflow (or map it to an earlier step's answer).",
        input=escape(title, limit=MAX_SECTION_TEXT),
    )


def input_too_long(title: str, *, limit: int) -> str:
    return _(
        "The {input} is longer than {limit} characters; shorten it in the workflow.",
        input=escape(title, limit=MAX_SECTION_TEXT),
        limit=format_number(limit),
    )


def not_one_question(reason: str) -> str:
    return _(
        "Minds was not asked: {reason} This step asks one question; use the “Plan Minds research” step for several.",
        reason=escape(reason, limit=MAX_SECTION_TEXT),
    )


def ask_not_sent(reason: str) -> str:
    """Minds refused the question or could not be reached (``reason``: plain words)."""
    return _("Minds was not asked: {reason}", reason=escape(reason, limit=STEP_ERROR_LIMIT))


def ask_refused(said: Message) -> str:
    """Minds refused the question, or it was unclear whether it arrived: what its thread says (already rendered)."""
    return _("Minds was not asked: {reason}", reason=_shortened(said.text))


def cannot_post(error: str) -> str:
    """Slack refused the bot's post in the step's channel (``error`` is Slack's code, e.g. channel_not_found)."""
    return _(
        "The bot could not post in that channel (Slack said: {error}); invite the bot there or pick another channel.",
        error=escape(error, limit=MAX_SECTION_TEXT),
    )


def run_ended_without_answers(ended: Message, *, link: str | None) -> str:
    """The run failed, was cancelled or its answers could not be read: what the thread says, and where it is."""
    if link:
        return _("{ended} The thread: {link}", ended=_shortened(ended.text), link=escape(link, limit=MAX_SECTION_TEXT))
    return _shortened(ended.text)


def run_lost(*, link: str | None) -> str:
    text = _("Minds no longer finds this question's run, so it has no answers to report.")
    return run_ended_without_answers(Message(text=text), link=link)


def plan_not_started(reason: str) -> str:
    """Minds refused the plan (``reason``: plain words)."""
    return _("The plan was not started: {reason}", reason=escape(reason, limit=STEP_ERROR_LIMIT))


def _shortened(mrkdwn: str) -> str:
    """Already-escaped words, at most ``STEP_ERROR_LIMIT`` long (never cut inside an entity)."""
    if len(mrkdwn) <= STEP_ERROR_LIMIT:
        return mrkdwn
    cut = mrkdwn[: STEP_ERROR_LIMIT - 1]
    entity = cut.rfind("&")
    if entity > cut.rfind(";"):
        cut = cut[:entity]
    return cut + "…"
