"""What the two workflow steps hand back to Workflow Builder: the outputs' text and the errors a workflow shows.

Owns: the "Ask Minds a question" step's ``summary`` (the same title and per-Audience lines the question's thread
shows, from ``render/answers.py``, so a workflow's message never says more or less than the thread; mrkdwn with
every outside word escaped, because a later workflow step may post it in a channel), and the words of every way a
step can end without outputs (no person who ran it, an input missing or too long, a channel or a spend the gate
refuses, a question held for an approver, a Study not found, a run that failed or was cancelled). Those are built
as mrkdwn like every other sentence and handed to Slack as plain words (``plain_words``): Workflow Builder shows a
step's error as text, and a failed step's error reaches no later step.
Must not touch: I/O.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from minds_bot.i18n import _, format_number
from minds_bot.minds import StudyOutput
from minds_bot.render import MAX_SECTION_TEXT, Message, channel_mention, escape, results, unescape
from minds_bot.render.answers import result_lines, result_title

STEP_ERROR_LIMIT = 2_000  # how much of an error a workflow is handed; longer words are shortened with "…"


def step_summary(output: StudyOutput) -> str:
    """The result as the thread says it: "Results: {title} — {n} answers", the sandbox's simulated-locally line
    when the answers are simulated, then one line per Audience."""
    lines = result_lines(output) or [_("No Audience reported answers.")]
    simulated = [results.simulated_text()] if output.simulated else []
    return "\n".join([result_title(output), *simulated, *lines])


def no_runner() -> str:
    """The step's user_context is missing or unreadable: nobody to act as (e.g. a scheduled workflow)."""
    return _(
        "The step acts as the person who uses the workflow, and Slack did not say who that is (a scheduled "
        "workflow has no such person). Start the workflow from a link or a button, or put a step someone clicks "
        "before this one. Nothing was sent."
    )


def held_for_approver(*, channel_id: str) -> str:
    """The channel's policy holds the question for an approver: the approval line is in ``channel_id``."""
    return _(
        "Minds was not asked yet: asking in {channel} needs an approver. The question waits there for one of the "
        "channel's approvers; once it is approved, the answer appears in {channel}.",
        channel=channel_mention(channel_id),
    )


def outputs_refused(error: str) -> str:
    """Slack refused ``functions.completeSuccess`` (``error``: Slack's code); the step ends with this instead."""
    return _(
        "The step finished, but Slack did not accept its outputs (Slack said: {error}).",
        error=escape(error, limit=MAX_SECTION_TEXT),
    )


def unknown_step() -> str:
    """Slack ran a step of this app that this version of the bot does not offer."""
    return _(
        "This version of the Minds app has no such workflow step. Remove the step from the workflow and add one "
        "of the app's current steps. Nothing was sent."
    )


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


# What Slack shows as a step's error is text: the mrkdwn the bot writes is read back as plain words.
_CHANNEL = re.compile(r"<#([A-Z0-9]+)(?:\|([^>]*))?>")
_USER = re.compile(r"<@([A-Z0-9]+)(?:\|([^>]*))?>")
_SPECIAL = re.compile(r"<!([a-z]+)(?:\|[^>]*)?>")
_LINK = re.compile(r"<((?:https?|mailto):[^|>]+)(?:\|([^>]*))?>")
_CODE = re.compile(r"`([^`\n]+)`")
_BOLD = re.compile(r"(?<![\w*])\*(?=\S)([^*\n]+?)(?<=\S)\*(?![\w*])")


def plain_words(mrkdwn: str, *, channels: Mapping[str, str] | None = None) -> str:
    """``mrkdwn`` as plain words: a channel as ``#name`` (``channels``: id → name; an unnamed one by its id), a
    person as ``@name`` (or ``@`` and their id), a link as its words and address, code and bold without their
    marks, entities unescaped."""
    names = channels or {}

    def channel(match: re.Match[str]) -> str:
        name = match.group(2) or names.get(match.group(1))
        return f"#{name}" if name else match.group(1)

    text = _CHANNEL.sub(channel, mrkdwn)
    text = _USER.sub(lambda m: f"@{m.group(2) or m.group(1)}", text)
    text = _SPECIAL.sub(lambda m: f"@{m.group(1)}", text)
    text = _LINK.sub(lambda m: f"{m.group(2)} ({m.group(1)})" if m.group(2) else m.group(1), text)
    text = _CODE.sub(r"\1", text)
    text = _BOLD.sub(r"\1", text)
    return unescape(text)
