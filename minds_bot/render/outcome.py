"""How a research run ended, in one line on its plan message in the channel, and as a reaction.

Owns: the closing line that replaces "Approved by @chloe: revision 2 is running" once the run ends, worded as
Minds reported the run's status (completed, partial, plan_limited, cancelled, failed — partial and plan_limited
are never called complete), naming who cancelled it when the bot knows (the stored ``cancelled_by``), and the
short form used when a workspace turned the channel's outcome off ("the run ended, results in the thread");
the reaction emoji for each status, put on the request message (a plan message or a "… asked" line); and what
the report attached after a run covers (the whole Study, generated after this run — or said when it is not).
Pure: no I/O. Must not touch: the plan's own blocks (``render/plan.py`` freezes them), Minds calls, Slack calls.
"""

from __future__ import annotations

from datetime import datetime

from minds_bot.i18n import _
from minds_bot.render import MAX_WORD_SHOWN, escape, mention

COMPLETED_REACTION = "white_check_mark"
GAPS_REACTION = "warning"  # partial or stopped by the plan limit: results, but not all of them
ENDED_REACTION = "heavy_multiplication_x"  # cancelled or failed
REACTIONS = {
    "completed": COMPLETED_REACTION,
    "partial": GAPS_REACTION,
    "plan_limited": GAPS_REACTION,
    "cancelled": ENDED_REACTION,
    "failed": ENDED_REACTION,
}


def reaction_for(status: str) -> str | None:
    """The emoji name (no colons) for a run that ended with ``status``; None for a status that is not an end."""
    return REACTIONS.get(status)


def outcome_line(*, status: str, cancelled_by: str | None = None) -> str:
    """What happened to the run, as Minds reported its status (an unknown end is shown with Minds' word)."""
    if status == "completed":
        return _(":white_check_mark: Completed — results in the thread.")
    if status == "partial":
        return _(":warning: Partial — not complete: the run finished with gaps. Results and gaps are in the thread.")
    if status == "plan_limited":
        return _(
            ":no_entry: Stopped by the Minds plan limit — the results of the questions that completed are in the "
            "thread."
        )
    if status == "cancelled":
        if cancelled_by:
            return _(
                ":heavy_multiplication_x: Cancelled by {user} — what Minds reported is in the thread.",
                user=mention(cancelled_by),
            )
        return _(":heavy_multiplication_x: Cancelled — what Minds reported is in the thread.")
    if status == "failed":
        return _(":x: Failed — what Minds reported is in the thread.")
    # i18n: {status} is the run's final state exactly as Minds reported it (an English word from the API).
    return _(
        ":grey_question: The run ended as “{status}” — what Minds reported is in the thread.",
        status=escape(status, limit=MAX_WORD_SHOWN),
    )


def ended_line() -> str:
    """The closing line when the workspace keeps outcomes out of the channel: only that the run ended."""
    return _(":checkered_flag: The run has ended — results in the thread.")


def outcome_note(
    *, status: str, approver_id: str, revision: int, cancelled_by: str | None = None, detailed: bool = True
) -> str:
    """The plan message's closing line once its run ended: the outcome (or only that it ended, when ``detailed``
    is off), then who approved which revision, which the line it replaces said."""
    head = outcome_line(status=status, cancelled_by=cancelled_by) if detailed else ended_line()
    # i18n: {outcome} is the sentence before this one (how the run ended); then who approved which revision.
    return _(
        "{outcome} Approved by {approver} (revision {revision}).",
        outcome=head,
        approver=mention(approver_id),
        revision=revision,
    )


def report_covers(*, generated_at: datetime | None, run_ended_at: datetime | None) -> str:
    """What the report attached after a run covers: the whole Study, and whether Minds generated it after the run
    (its ``generatedAt`` against the run's end, both Minds' times); never claimed when Minds did not say."""
    if generated_at is not None and run_ended_at is not None:
        if generated_at >= run_ended_at:
            return _("Study report, all runs, generated after this run.")
        return _("Study report, all runs, generated before this run ended: it does not include this run.")
    if generated_at is None:
        return _("Study report, all runs. Minds did not say when it was generated.")
    return _("Study report, all runs, requested after this run (Minds did not say when the run ended).")
