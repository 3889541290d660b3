"""The Study card (``/minds study <study>``): what a team needs to decide its next step on one Study.

Owns: the card's blocks — name, Audiences with their Mind counts, questions asked (Minds' count, in which a
research run counts all its questions; never the messages counted here), and the latest few, recent runs
named by date, first question, n and state exactly as Minds reports it (``render/run_names.py``),
linked to their Slack threads when the bot posted them — runs of channels the person is not in left out and
counted (``hidden``); when Minds has older ones, it says it shows the latest few and that ``/minds runs`` lists
all — whether a public link is on, and the buttons Plan
research / Ask / Summary / Export / Analytics / Delete… (``slack/study_delete.py``) — and the value format of the
``study_plan`` button (study id, optionally
followed by a newline and the request text to plan). Must not touch: I/O.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from datetime import datetime
from typing import Any

from slack_sdk.models.blocks import ActionsBlock, Block, DividerBlock, HeaderBlock

from minds_bot.i18n import _, _n, format_number, separated
from minds_bot.minds import AgentRun, StudyDetail
from minds_bot.render import MAX_NAME_SHOWN, Message, escape
from minds_bot.render.browse import minds_label
from minds_bot.render.common import (
    MAX_BUTTON_VALUE,
    button,
    context,
    encode_value,
    section,
    sections,
    shorten,
    slack_date,
)
from minds_bot.render.modals import MAX_OPTION_TEXT
from minds_bot.render.run_names import hidden_runs_line, run_lines
from minds_bot.render.study_delete import STUDY_DELETE_ACTION

STUDY_PLAN_ACTION = "study_plan"  # handled by the planning flow
STUDY_EXPORT_ACTION = "study_export"  # handled by the export flow
STUDY_ASK_ACTION = "study_ask"
STUDY_SUMMARY_ACTION = "study_summary"
STUDY_ANALYTICS_ACTION = "study_analytics"
LATEST_QUESTIONS = 3
LISTED_RESULTS = 10  # answered questions listed on the card, each with a Results button
STUDY_RESULT_ACTION = "study_result"  # one question's results (value: Study id and message id)
RECENT_RUNS = 5
QUESTION_PREVIEW = 150
MAX_HEADER = 150
MAX_AUDIENCE_LINES = 20


def plan_button_value(study_id: str, request: str | None = None) -> str:
    """``study_plan`` value: the study id, then (when it fits) a newline and the text to plan."""
    if request and len(study_id) + 1 + len(request) <= MAX_BUTTON_VALUE:
        return f"{study_id}\n{request}"
    return study_id


def parse_plan_button_value(value: str) -> tuple[str, str | None]:
    """The inverse of ``plan_button_value``: (study id, request text or None)."""
    study_id, _newline, request = (value or "").partition("\n")
    return study_id.strip(), request or None


def ask_button_value(study_id: str, name: str, audiences: Sequence[tuple[str, str]] = ()) -> str:
    """The Ask button opens the modal at once (trigger ids expire in 3 s), so it carries the name to show and, when
    they fit in a button's value, the Study's Audiences (id, name) to pick from."""
    state: dict[str, Any] = {"s": study_id, "n": shorten(name, MAX_OPTION_TEXT)}
    picked = [[a_id, shorten(a_name, MAX_OPTION_TEXT)] for a_id, a_name in audiences]
    with_audiences = encode_value(state | {"a": picked}) if picked else None
    return with_audiences or encode_value(state) or study_id


def sharing_line(*, is_public: bool | None, link_sharing: bool | None) -> str:
    if is_public or link_sharing:
        return _("Public link: *on* — anyone with the link can read this Study, its Audiences and Minds.")
    return _("Public link: off.")


def _audiences(study: StudyDetail) -> str:
    if not study.audiences:
        return _("*Audiences:* none attached yet.")
    lines = [
        f"• {escape(a.name, limit=MAX_NAME_SHOWN)} — {minds_label(_mind_count(a))}"
        for a in study.audiences[:MAX_AUDIENCE_LINES]
    ]
    if len(study.audiences) > MAX_AUDIENCE_LINES:
        more = len(study.audiences) - MAX_AUDIENCE_LINES
        lines.append(_n("• and {count} more", "• and {count} more", more))
    return _("*Audiences:*") + "\n" + "\n".join(lines)


def _mind_count(audience: Any) -> int:
    return audience.mind_count if audience.mind_count is not None else len(audience.minds)


def _questions(study: StudyDetail) -> str:
    asked = [m for m in study.messages if m.role == "user"]
    if not asked:
        return _("*Questions asked:* none yet.")
    latest = sorted(asked, key=lambda m: m.created_at, reverse=True)[:LATEST_QUESTIONS]
    lines = [f"• {escape(shorten(m.content, QUESTION_PREVIEW))}" for m in latest]
    if study.question_count is None:  # Minds' count only: one research run's message holds all its questions
        heading = _("*Questions asked:* Minds gave no count — latest:")
    else:
        heading = _("*Questions asked:* {count} — latest:", count=format_number(study.question_count))
    return heading + "\n" + "\n".join(lines)


def _answered_questions(study: StudyDetail, *, hidden: Collection[str] = ()) -> list[tuple[str, str, datetime]]:
    """The Study's answered questions, newest first, wherever they were asked (Slack or Minds' web app): (message
    id, question as Minds titled it, when). Minds keeps a question's results on the answer message
    (``metadata.outputData``); ``hidden``: message ids of runs in channels the person is not in, left out."""
    found: list[tuple[str, str, datetime]] = []
    previous = ""
    for message in sorted(study.messages, key=lambda m: m.created_at):
        if message.role == "user":
            previous = message.content
            continue
        output = message.metadata.get("outputData") if isinstance(message.metadata, dict) else None
        if isinstance(output, dict) and message.id not in hidden:
            title = output.get("title") if isinstance(output.get("title"), str) else None
            found.append((message.id, title or previous, message.created_at))
    return sorted(found, key=lambda f: f[2], reverse=True)


def _results_blocks(study: StudyDetail, hidden: Collection[str]) -> list[Block]:
    """Each answered question (the latest ``LISTED_RESULTS``) with a Results button; older ones counted."""
    answered = _answered_questions(study, hidden=hidden)
    if not answered:
        return []
    blocks: list[Block] = [section(_("*Results by question* (also those asked in Minds):"))]
    for message_id, title, when in answered[:LISTED_RESULTS]:
        row = section("• " + separated((escape(shorten(title, QUESTION_PREVIEW)), slack_date(when))))
        value = encode_value({"s": study.id, "m": message_id})
        if value:
            row.accessory = button(_("Results"), action_id=STUDY_RESULT_ACTION, value=value)
        blocks.append(row)
    older = len(answered) - LISTED_RESULTS
    if older > 0:
        blocks.append(
            context(
                _n(
                    "{count} older question with results is not listed here; its results are in Minds.",
                    "{count} older questions with results are not listed here; their results are in Minds.",
                    older,
                )
            )
        )
    return blocks


def _runs(
    study: StudyDetail,
    runs: Sequence[AgentRun],
    thread_links: Mapping[str, str] | None,
    hidden: Collection[str],
    *,
    more: bool,
) -> str:
    if not runs:
        return _("*Recent runs:* none.")
    recent = runs[:RECENT_RUNS]
    lines = run_lines(recent, messages=study.messages, thread_links=thread_links, hidden=hidden)
    left_out = len(recent) - len(lines)
    if left_out:
        lines.append(hidden_runs_line(left_out))
    if more or len(runs) > RECENT_RUNS:  # the first few of more: say so, and where the rest are
        # i18n: {count} runs are shown; {study_id} is the Study's id inside a command shown in code.
        heading = _(
            "*Recent runs:* the latest {count}; `/minds runs {study_id}` lists all of them, ten at a time.",
            count=format_number(len(recent)),
            study_id=escape(study.id, limit=MAX_NAME_SHOWN),
        )
        return heading + "\n" + "\n".join(lines)
    return _("*Recent runs:*") + "\n" + "\n".join(lines)


def render_study_card(
    study: StudyDetail,
    runs: Sequence[AgentRun],
    *,
    thread_links: Mapping[str, str] | None = None,
    hidden: Collection[str] = (),
    more_runs: bool = False,
    hidden_messages: Collection[str] = (),
) -> Message:
    """``hidden``: runs of channels the person is not in, left out of the recent runs and counted. ``more_runs``:
    Minds has older runs than ``runs`` (the card then says it shows the latest few, and where the rest are)."""
    blocks: list[Block] = [
        HeaderBlock(text=shorten(study.name, MAX_HEADER)),
        *sections(_audiences(study)),
        *sections(_questions(study)),
        *_results_blocks(study, hidden_messages),
        *sections(_runs(study, runs, thread_links, hidden, more=more_runs)),
        context(sharing_line(is_public=study.is_public, link_sharing=study.is_link_sharing_enabled)),
        DividerBlock(),
        ActionsBlock(
            elements=[
                button(
                    _("Plan research"), action_id=STUDY_PLAN_ACTION, value=plan_button_value(study.id), style="primary"
                ),
                button(
                    _("Ask"),
                    action_id=STUDY_ASK_ACTION,
                    value=ask_button_value(study.id, study.name, [(a.id, a.name) for a in study.audiences]),
                ),
                button(_("Summary"), action_id=STUDY_SUMMARY_ACTION, value=study.id),
                button(_("Export"), action_id=STUDY_EXPORT_ACTION, value=study.id),
                button(_("Analytics"), action_id=STUDY_ANALYTICS_ACTION, value=study.id),
                button(_("Delete…"), action_id=STUDY_DELETE_ACTION, value=study.id, style="danger"),
            ]
        ),
    ]
    return Message(text=_("Study {name}", name=escape(study.name, limit=MAX_NAME_SHOWN)), blocks=blocks)
