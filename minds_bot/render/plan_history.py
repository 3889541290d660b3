"""What a plan message keeps from earlier revisions: the confirmation questions already answered (who answered,
the question, the answer) and what the revision changed in the questionnaire since the one shown before.

Owns: ``AnsweredBy`` and ``PreviousRevision`` (what the flow hands over from the store), the "Answered by …"
lines and the "Changed since revision N" section, in the plan message and its Markdown questionnaire. Who
answered comes from the bot's own record; what was answered from Minds' revision (``answered_confirmations``).
Minds' words are escaped in mrkdwn. Pure: no I/O.
Must not touch: the store, Minds calls, the rest of the plan message (``render/plan.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from minds_bot.i18n import N_, _, join_list
from minds_bot.minds import ResearchPlan
from minds_bot.render import escape, mention


@dataclass(frozen=True)
class AnsweredBy:
    """Who answered a confirmation question through the bot, and the question as the plan message showed it."""

    question: str
    user_id: str


@dataclass(frozen=True)
class PreviousRevision:
    """The revision the plan message showed before this one: its number and its questions (id, exact text)."""

    revision: int
    questions: tuple[tuple[str, str], ...]


def answered_lines(plan: ResearchPlan, answered_by: Mapping[str, AnsweredBy], *, markdown: bool = False) -> list[str]:
    """One line per confirmation question Minds reports answered, in Minds' order: "Answered by @ada: Is 140
    EUR the final shelf price? — Yes". ``markdown``: plain words for the attached file (no escaping, no mention)."""
    lines = []
    for question_id, answer in plan.answered_confirmations.items():
        who = answered_by.get(question_id)
        question = who.question if who else question_id
        said_question = question if markdown else escape(question)
        said_answer = answer if markdown else escape(answer)
        if who is None:
            lines.append(
                # i18n: a confirmation question Minds reports answered, but not through this plan message
                _("Answered outside this message: {question} — {answer}", question=said_question, answer=said_answer)
            )
            continue
        user = f"<@{who.user_id}>" if markdown else mention(who.user_id)
        lines.append(
            _("Answered by {user}: {question} — {answer}", user=user, question=said_question, answer=said_answer)
        )
    return lines


def changes_since(plan: ResearchPlan, previous: PreviousRevision | None, *, ids_only: bool = False) -> str | None:
    """mrkdwn: the questions added, removed and reworded (by question id, with their text) since ``previous``;
    "No question changed" when none was; None when there is no earlier revision to compare with. ``ids_only``:
    the same lists by question id alone, for a revision whose changes are too long to list with their text."""
    if previous is None or previous.revision >= plan.revision:
        return None
    before = dict(previous.questions)
    now = {q.id: q.text for q in plan.questions}
    added = [(qid, text) for qid, text in now.items() if qid not in before]
    removed = [(qid, text) for qid, text in before.items() if qid not in now]
    reworded = [(qid, before[qid], text) for qid, text in now.items() if qid in before and before[qid] != text]
    if not (added or removed or reworded):
        return _("*Changed since revision {revision}:* No question changed.", revision=previous.revision)
    heading = _("*Changed since revision {revision}:*", revision=previous.revision)
    if ids_only:
        lines = [
            _(template, ids=join_list(escape(qid) for qid, *_rest in items))
            for template, items in ((ADDED_IDS, added), (REMOVED_IDS, removed), (REWORDED_IDS, reworded))
            if items
        ]
        return "\n".join([heading, *lines])
    lines = [
        *(_("• Added {id}: {text}", id=escape(qid), text=escape(text)) for qid, text in added),
        *(_("• Removed {id}: {text}", id=escape(qid), text=escape(text)) for qid, text in removed),
        *(
            _("• Reworded {id}: “{before}” → “{after}”", id=escape(qid), before=escape(old), after=escape(new))
            for qid, old, new in reworded
        ),
    ]
    return "\n".join([heading, *lines])


ADDED_IDS = N_("• Added: {ids}")
REMOVED_IDS = N_("• Removed: {ids}")
REWORDED_IDS = N_("• Reworded: {ids}")
