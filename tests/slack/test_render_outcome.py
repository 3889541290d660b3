"""The line a finished research run leaves on its plan message, and its reaction: exact words per status."""

from __future__ import annotations

import pytest

from minds_bot.render.outcome import outcome_note, reaction_for


@pytest.mark.parametrize(
    ("status", "cancelled_by", "expected"),
    [
        ("completed", None, ":white_check_mark: Completed — results in the thread."),
        (
            "partial",
            None,
            ":warning: Partial — not complete: the run finished with gaps. Results and gaps are in the thread.",
        ),
        (
            "plan_limited",
            None,
            ":no_entry: Stopped by the Minds plan limit — the results of the questions that completed are in the "
            "thread.",
        ),
        ("cancelled", "U2", ":heavy_multiplication_x: Cancelled by <@U2> — what Minds reported is in the thread."),
        ("cancelled", None, ":heavy_multiplication_x: Cancelled — what Minds reported is in the thread."),
        ("failed", None, ":x: Failed — what Minds reported is in the thread."),
    ],
)
def test_the_outcome_is_said_as_minds_reported_it(status: str, cancelled_by: str | None, expected: str) -> None:
    note = outcome_note(status=status, approver_id="U1", revision=2, cancelled_by=cancelled_by)
    assert note == f"{expected} Approved by <@U1> (revision 2)."


def test_with_the_outcome_off_the_line_only_says_the_run_ended() -> None:
    note = outcome_note(status="cancelled", approver_id="U1", revision=3, cancelled_by="U2", detailed=False)
    assert note == ":checkered_flag: The run has ended — results in the thread. Approved by <@U1> (revision 3)."


def test_an_unknown_end_is_named_not_guessed() -> None:
    note = outcome_note(status="expired", approver_id="U1", revision=1)
    assert note.startswith(":grey_question: The run ended as “expired”")
    assert reaction_for("expired") is None


@pytest.mark.parametrize(
    ("status", "emoji"),
    [
        ("completed", "white_check_mark"),
        ("partial", "warning"),
        ("plan_limited", "warning"),
        ("cancelled", "heavy_multiplication_x"),
        ("failed", "heavy_multiplication_x"),
        ("running", None),
    ],
)
def test_each_end_has_its_reaction(status: str, emoji: str | None) -> None:
    assert reaction_for(status) == emoji
