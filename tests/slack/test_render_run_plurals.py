"""A run of one question reads as one question: the progress and terminal lines use real singular forms."""

from __future__ import annotations

from minds_bot.render.runs import progress_text, terminal_line
from tests.slack.plan_samples import run


def _one(settled: int, **counts: int) -> dict[str, int]:
    return {"total": 1, "settled": settled, "failed": 0, "partial": 0, "skipped": 0, "pct": settled * 100} | counts


def test_a_one_question_run_says_question_not_questions_while_it_runs() -> None:
    assert progress_text(run("queued", progress=_one(0))) == (
        ":hourglass_flowing_sand: Queued: 1 question waiting to start."
    )
    assert progress_text(run("running", progress=_one(0))) == (
        ":arrows_counterclockwise: Running: 0 of 1 question settled."
    )
    assert progress_text(run("running", progress=_one(1, failed=1))) == (
        ":arrows_counterclockwise: Running: 1 of 1 question settled (1 failed)."
    )


def test_a_one_question_run_says_question_not_questions_when_it_ends() -> None:
    assert terminal_line(run("completed", progress=_one(1))) == ":white_check_mark: Completed: 1 of 1 question settled."
    assert terminal_line(run("cancelled", progress=_one(0))) == (
        ":heavy_multiplication_x: Cancelled: 0 of 1 question had settled before it stopped."
    )
    assert terminal_line(run("failed", progress=_one(0))) == (
        ":x: Failed: the run did not finish (0 of 1 question settled before it stopped)."
    )


def test_several_questions_keep_the_plural() -> None:
    three = {"total": 3, "settled": 1, "failed": 0, "partial": 0, "skipped": 0, "pct": 33}
    assert terminal_line(run("cancelled", progress=three)) == (
        ":heavy_multiplication_x: Cancelled: 1 of 3 questions had settled before it stopped."
    )
