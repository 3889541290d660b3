"""What a plan message keeps from earlier revisions: the confirmation questions already answered (who answered,
the question, the answer) and what the revision changed in the questionnaire since the one shown before.

Owns: ``AnsweredBy`` and ``PreviousRevision`` (what the flow hands over from the store), the "Answered by …"
lines and the "Changed since revision N" section (each question named by the number a reader sees: "Added Q5:
…"), in the plan message and its Markdown questionnaire. Who answered comes from the bot's own record; what was
answered from Minds' revision (``answered_confirmations``).
Minds' words are escaped in mrkdwn. Pure: no I/O.
Must not touch: the store, Minds calls, the rest of the plan message (``render/plan.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from minds_bot.i18n import N_, _, join_list
from minds_bot.minds import ResearchPlan
from minds_bot.minds.models import QuestionResponse
from minds_bot.render import escape, mention
from minds_bot.render.common import question_label


@dataclass(frozen=True)
class AnsweredBy:
    """Who answered a confirmation question through the bot, and the question as the plan message showed it."""

    question: str
    user_id: str


@dataclass(frozen=True)
class PreviousRevision:
    """The revision the plan message showed before this one: its number, its questions (id, exact text) and how
    each was answered (``responses``, by question id; a question without one is compared by its text alone)."""

    revision: int
    questions: tuple[tuple[str, str], ...]
    responses: Mapping[str, QuestionResponse] = field(default_factory=dict)


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


def changes_since(
    plan: ResearchPlan,
    previous: PreviousRevision | None,
    *,
    label: Callable[[QuestionResponse], str],
    ids_only: bool = False,
) -> str | None:
    """mrkdwn: the questions added, removed, reworded or answered differently since ``previous``, each named by
    the number a reader sees ("Q5": its place in this revision; a removed one by its place in ``previous``) with
    its text — "• Added Q5: Why …?"; "No question changed" when none was; None when there is no earlier revision
    to compare with. Questions are matched by Minds' question id; ``label`` says how a question is answered ("One
    of: Yes · No"). ``ids_only``: the same lists by number alone, for a revision whose changes are too long to
    list with their text."""
    if previous is None or previous.revision >= plan.revision:
        return None
    before = dict(previous.questions)
    was = {qid: question_label(n) for n, (qid, _text) in enumerate(previous.questions, start=1)}
    shown = {q.id: question_label(n) for n, q in enumerate(plan.questions, start=1)}
    now = {q.id: q.text for q in plan.questions}
    added = [(shown[qid], text) for qid, text in now.items() if qid not in before]
    removed = [(was[qid], text) for qid, text in before.items() if qid not in now]
    reworded = [(qid, before[qid], text) for qid, text in now.items() if qid in before and before[qid] != text]
    answered = [
        (shown[q.id], label(previous.responses[q.id]), label(q.response))
        for q in plan.questions
        if q.id in before and q.id in previous.responses and previous.responses[q.id] != q.response
    ]
    if not (added or removed or reworded or answered):
        return _("*Changed since revision {revision}:* No question changed.", revision=previous.revision)
    heading = _("*Changed since revision {revision}:*", revision=previous.revision)
    if ids_only:
        lines = [
            _(template, ids=join_list(numbers))
            for template, numbers in (
                (ADDED_IDS, [number for number, _text in added]),
                (REMOVED_IDS, [number for number, _text in removed]),
                (REWORDED_IDS, [shown[qid] for qid, *_texts in reworded]),
                (ANSWERED_IDS, [number for number, *_labels in answered]),
            )
            if numbers
        ]
        return "\n".join([heading, *lines])
    lines = [
        # i18n: {id} is the question's number as this revision shows it, e.g. "Q5"
        *(_("• Added {id}: {text}", id=number, text=escape(text)) for number, text in added),
        # i18n: {id} is the number the removed question had in the earlier revision, e.g. "Q3"
        *(_("• Removed {id}: {text}", id=number, text=escape(text)) for number, text in removed),
        *(_reworded(qid, old, new, shown=shown, was=was) for qid, old, new in reworded),
        *(
            # i18n: {id} is the question's number ("Q6"); {before} and {after} say how it was and is answered,
            # e.g. "One of: Claim 1 · Claim 2" → "One of: Lighter · Faster"
            _("• Changed how {id} is answered: {before} → {after}", id=number, before=escape(old), after=escape(new))
            for number, old, new in answered
        ),
    ]
    return "\n".join([heading, *lines])


def _reworded(question_id: str, old: str, new: str, *, shown: Mapping[str, str], was: Mapping[str, str]) -> str:
    if shown[question_id] == was[question_id]:
        # i18n: {id} is the question's number, e.g. "Q2"; {before} and {after} its old and new wording
        return _(
            "• Reworded {id}: “{before}” → “{after}”", id=shown[question_id], before=escape(old), after=escape(new)
        )
    return _(
        # i18n: {id} is the question's number in this revision ("Q2"), {was} its number in the earlier one ("Q3")
        "• Reworded {id} (was {was}): “{before}” → “{after}”",
        id=shown[question_id],
        was=was[question_id],
        before=escape(old),
        after=escape(new),
    )


# i18n: {ids} lists question numbers as the plan shows them, e.g. "Q5, Q6"
ADDED_IDS = N_("• Added: {ids}")
REMOVED_IDS = N_("• Removed: {ids}")
REWORDED_IDS = N_("• Reworded: {ids}")
ANSWERED_IDS = N_("• Answer format changed: {ids}")
