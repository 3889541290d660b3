"""A run named the way a person recognises it: its date, first question, n and state — never its id.

Owns: one line per run for the Study card's "Recent runs" and ``/minds runs``. What each part comes from:
the date is when Minds says the run was created (``createdAt``); the first question is the standalone question
Minds returns with the run, else the first line of the Study message Minds filed for that run (``metadata.runId``);
n is the number of answers Minds counted for the run's first answered question (``responseCount``); the state is
Minds' own word. A part Minds gives nothing for is said to be unknown. A link to the run's Slack thread is added
when the bot posted it (the caller passes the permalinks it knows). Runs of channels the person is not in are
left out and counted (``hidden_runs_line``); the others keep their numbers.
Pure: no I/O. Must not touch: Minds calls, the store, Slack calls.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from minds_bot.i18n import _, _n, format_number, separated
from minds_bot.minds import AgentRun
from minds_bot.minds.models import StudyMessage
from minds_bot.render import escape
from minds_bot.render.common import shorten, slack_date
from minds_bot.render.states import state_word

QUESTION_SHOWN = 90
LISTING_NUMBER = re.compile(r"^\s*1[.)]\s+")


def _run_id_of(message: StudyMessage) -> str | None:
    metadata = message.metadata
    if isinstance(metadata, Mapping):
        value = metadata.get("runId")
        return value if isinstance(value, str) else None
    return None


def _first_questions(messages: Sequence[StudyMessage]) -> dict[str, tuple[str, int]]:
    """Run id → (its first question, how many questions it asked), from the question listing Minds filed for it."""
    found: dict[str, tuple[str, int]] = {}
    for message in messages:
        run_id = _run_id_of(message)
        if run_id is None or message.role != "user" or run_id in found:
            continue
        lines = [line for line in message.content.splitlines() if line.strip()]
        if lines:
            found[run_id] = (LISTING_NUMBER.sub("", lines[0]).strip(), len(lines))
    return found


def _answer_counts(messages: Sequence[StudyMessage]) -> dict[str, int]:
    """Run id → the number of answers Minds counted on the run's first answered question."""
    counts: dict[str, int] = {}
    for message in sorted(messages, key=lambda m: m.created_at):
        run_id = _run_id_of(message)
        if run_id is None or run_id in counts or message.role != "assistant":
            continue
        output: Any = message.metadata.get("outputData") if isinstance(message.metadata, Mapping) else None
        count = output.get("responseCount") if isinstance(output, Mapping) else None
        if isinstance(count, int) and not isinstance(count, bool):
            counts[run_id] = count
    return counts


def run_line(
    run: AgentRun,
    *,
    messages: Sequence[StudyMessage] = (),
    thread_links: Mapping[str, str] | None = None,
    number: int | None = None,
) -> str:
    """``• 4 Dec 2026 14:02 · “Is 140 EUR fair?” (+2 more questions) · n=12 · completed · thread``; with
    ``number`` the line starts "1." instead of a bullet (a numbered list)."""
    questions = _first_questions(messages)
    counts = _answer_counts(messages)
    date = slack_date(run.created_at) if run.created_at else _("date unknown")
    if run.question:
        question, asked = run.question, 1
    else:
        question, asked = questions.get(run.run_id, ("", 0))
    if question:
        shown = _("“{name}”", name=escape(shorten(question, QUESTION_SHOWN)))
        if asked > 1:
            shown = _n(
                "{question} (+{count} more question)", "{question} (+{count} more questions)", asked - 1, question=shown
            )
    else:
        shown = _("first question unknown")
    count = counts.get(run.run_id)
    # i18n: n is the number of answers (sample size), as in statistics.
    n = _("n={count}", count=format_number(count)) if count is not None else _("n unknown")
    parts = [date, shown, n, state_word(run.status)]
    link = (thread_links or {}).get(run.run_id)
    if link:
        label = _("thread")  # i18n: the link to a run's Slack thread
        parts.append(f"<{link}|{label}>")
    marker = "•" if number is None else f"{number}."
    return f"{marker} " + separated(parts)


def run_lines(
    runs: Sequence[AgentRun],
    *,
    messages: Sequence[StudyMessage] = (),
    thread_links: Mapping[str, str] | None = None,
    numbered: bool = False,
    hidden: Collection[str] = (),
    first: int = 1,
) -> list[str]:
    """One line per run; ``numbered``: "1.", "2." … (newest first), the numbers ``/minds compare`` reads, from
    ``first`` (a later page of ``/minds runs``). ``hidden``: runs of channels the person is not in, left out (the
    others keep their numbers)."""
    return [
        run_line(run, messages=messages, thread_links=thread_links, number=n if numbered else None)
        for n, run in enumerate(runs, first)
        if run.run_id not in hidden
    ]


def hidden_runs_line(count: int) -> str:
    """How many runs a list leaves out because they belong to channels the person is not in."""
    return _n(
        "{count} run in a channel you are not in is not shown.",
        "{count} runs in channels you are not in are not shown.",
        count,
    )


def _first_question(run: AgentRun, messages: Sequence[StudyMessage]) -> tuple[str, int]:
    if run.question:
        return run.question, 1
    return _first_questions(messages).get(run.run_id, ("", 0))


def run_name(run: AgentRun, *, messages: Sequence[StudyMessage] = ()) -> str:
    """A run named for a comparison (mrkdwn): ``4 Dec 2026 14:02 · “Is 140 EUR fair?” (+2 more questions)``."""
    date = slack_date(run.created_at) if run.created_at else _("date unknown")
    question, asked = _first_question(run, messages)
    if not question:
        return separated((date, _("first question unknown")))
    shown = _("“{name}”", name=escape(shorten(question, QUESTION_SHOWN)))
    if asked > 1:
        shown = _n(
            "{question} (+{count} more question)", "{question} (+{count} more questions)", asked - 1, question=shown
        )
    return separated((date, shown))


def run_label(run: AgentRun, *, messages: Sequence[StudyMessage] = ()) -> str:
    """The same name as plain text (a select option's words): ``2026-12-04 14:02 UTC · completed · “Is 140 EUR
    fair?”`` — the date in UTC, since plain text cannot show each reader's own time; the question last, as the
    part a short option may cut."""
    date = run.created_at.strftime("%Y-%m-%d %H:%M UTC") if run.created_at else _("date unknown")
    question, _asked = _first_question(run, messages)
    shown = _("“{name}”", name=shorten(question, QUESTION_SHOWN)) if question else _("first question unknown")
    return separated((date, state_word(run.status), shown))
