"""Run results say exactly what Minds reports: partial and plan_limited are never "complete", gaps are named,
not_asked items are finished by routing, consistency flags are prompts to review."""

from __future__ import annotations

import pytest

from minds_bot.minds import AgentRun, ResearchRun
from minds_bot.minds.models import StudyMessage
from minds_bot.render.runs import (
    distribution,
    progress_text,
    render_consistency,
    render_results,
    render_runs,
    terminal_line,
)
from tests.slack.plan_samples import run, run_data


def _all_text(messages) -> str:
    parts = []
    for message in messages:
        for block in message.blocks:
            data = block.to_dict()
            parts.append((data.get("text") or {}).get("text", ""))
            parts += [e.get("text", "") for e in data.get("elements") or []]
    return "\n".join(parts)


@pytest.mark.parametrize(
    ("progress", "status", "expected"),
    [
        (
            {"total": 8, "settled": 3, "pct": 37},
            "running",
            ":arrows_counterclockwise: Running: 3 of 8 questions settled.",
        ),
        ({"total": 8, "settled": 0}, "queued", ":hourglass_flowing_sand: Queued: 8 questions waiting to start."),
        (
            {"total": 8, "settled": 5, "failed": 1, "partial": 2},
            "running",
            ":arrows_counterclockwise: Running: 5 of 8 questions settled (1 failed, 2 with gaps).",
        ),
    ],
)
def test_progress_counts_settled_questions(progress: dict, status: str, expected: str) -> None:
    assert progress_text(ResearchRun.model_validate({"status": status, "progress": progress})) == expected


def test_completed_results_per_question_with_not_asked_as_routing_not_failure() -> None:
    text = _all_text(render_results(run("completed"), study_name="Cups"))
    assert text.startswith(":white_check_mark: Completed: 3 of 3 questions settled. (Cups)")
    assert "*Q2.* not asked: routed by Q1 — no Mind's answer matched (finished, not failed)." in text
    assert "Commuters (% of respondents · n=3): Yes 67% · No 33%" in text
    assert "Themes: Price (3)" in text and "“A lower price.” — Ana" in text
    assert "fail" not in text.replace("not failed", "")


def test_partial_names_the_gap_and_unknown_coverage_and_is_never_complete() -> None:
    data = run_data("partial")
    data["progress"]["partial"] = 1
    data["artifacts"][0]["outputData"]["responseCoverage"] = {
        "expected": 8,
        "received": 7,
        "missing": [{"mindId": "m"}],
    }
    text = _all_text(render_results(ResearchRun.model_validate(data), study_name="Cups"))
    assert text.startswith(":warning: Partial — not complete")
    assert "Coverage gap: 7 of 8 expected answers (1 missing)." in text
    assert "Coverage: unknown (not reported for this result)." in text  # Q3 has no coverage data
    assert "Completed" not in text


def test_plan_limited_keeps_artifacts_and_asks_for_an_upgrade() -> None:
    state = run("plan_limited", completedQuestions=2)
    line = terminal_line(state)
    assert "2 of 3 questions completed" in line and "upgrade is needed before starting a follow-up run" in line
    assert "complete." not in line.lower().replace("completed", "")
    assert "Commuters (% of respondents · n=3): Yes 67% · No 33%" in _all_text(render_results(state, study_name="Cups"))


def test_plan_limited_names_the_questions_that_did_not_run() -> None:
    data = run_data("plan_limited", completedQuestions=1)
    data["progress"] = {"total": 5, "settled": 1}
    data["artifacts"] = [a for a in data["artifacts"] if a["index"] == 0]
    line = terminal_line(ResearchRun.model_validate(data))
    assert "Stopped by the Minds plan limit: 1 of 5 questions completed" in line
    assert "Did not run: Q2, Q3, Q4, Q5." in line


def test_a_plan_limited_run_of_many_questions_names_twenty_and_counts_the_rest() -> None:
    data = run_data("plan_limited", completedQuestions=0)
    data["progress"] = {"total": 1_000_000, "settled": 0}
    data["artifacts"] = []
    line = terminal_line(ResearchRun.model_validate(data))
    assert "Did not run: Q1, Q2," in line and "Q20 and 999,980 more." in line and "Q21" not in line


@pytest.mark.parametrize(("status", "word"), [("failed", ":x: Failed"), ("cancelled", "Cancelled")])
def test_failed_and_cancelled_are_said_plainly(status: str, word: str) -> None:
    assert terminal_line(run(status)).startswith(word if status == "failed" else ":heavy_multiplication_x: " + word)


def test_consistency_note_is_a_prompt_to_review_not_proof() -> None:
    state = run(
        "completed", answerConsistency={"status": "checked", "checkedMinds": 8, "flaggedMinds": 1, "flagCount": 1}
    )
    text = _all_text(render_results(state, study_name="Cups"))
    assert "Answer consistency: 1 of 8 Minds flagged (1 contradicting answer pair)." in text
    assert "prompts to review both answers, not proof of error" in text
    late = render_consistency(None).text
    assert "did not report back" in late


def test_distribution_reads_counts_per_audience_for_charts() -> None:
    dist = distribution(run("completed").artifacts[0])
    assert dist is not None
    assert dist.options == ["Yes", "No"]
    assert {a.name: (a.n, a.counts) for a in dist.audiences} == {
        "Commuters": (3, {"Yes": 2, "No": 1}),
        "Students": (2, {"Yes": 1, "No": 1}),
    }
    assert distribution(run("completed").artifacts[1]) is None  # not asked: nothing to chart


def test_many_results_are_paged_not_cut() -> None:
    data = run_data("completed")
    base = data["artifacts"][0]
    data["artifacts"] = [{**base, "index": i, "questionId": f"q{i}"} for i in range(120)]
    messages = render_results(ResearchRun.model_validate(data), study_name="Cups")
    assert len(messages) > 1
    text = _all_text(messages)
    assert all(f"*Q{i + 1}. " in text for i in range(120))


def test_runs_are_named_by_date_first_question_n_and_state_never_by_id() -> None:
    r2 = "5a1604cc-0000-4000-8000-000000000002"
    r1 = "f84a7ca8-0000-4000-8000-000000000001"
    runs = [
        AgentRun.model_validate(
            {"runId": r2, "status": "completed", "createdAt": "2026-12-04T14:02:00Z", "question": "Is <b> fair?"}
        ),
        AgentRun.model_validate({"runId": r1, "status": "failed"}),
    ]
    messages = [
        StudyMessage.model_validate(
            {
                "id": "m1",
                "role": "assistant",
                "content": "Is <b> fair?",
                "createdAt": "2026-12-04T14:03:00Z",
                "metadata": {"runId": r2, "outputData": {"responseCount": 12}},
            }
        )
    ]
    message = render_runs(runs, study_name="Cups", messages=messages, thread_links={r2: "https://x.slack.com/p1"})
    text = _all_text([message])
    assert (
        "1. <!date^1796392920^{date_short_pretty} {time}|2026-12-04 14:02 UTC> · “Is &lt;b&gt; fair?” · n=12 · "
        "completed · <https://x.slack.com/p1|thread>"
    ) in text
    assert "2. date unknown · first question unknown · n unknown · failed" in text
    assert "_Compare two of them: `/minds compare Cups 2 1`._" in text  # the numbers /minds compare reads
    assert r1[:8] not in text and r2[:8] not in text
    assert render_runs([], study_name="Cups").text == "No runs yet for Cups."


def test_a_research_run_is_named_by_the_first_question_minds_filed_for_it() -> None:
    run_ = AgentRun.model_validate({"runId": "r9", "status": "partial", "createdAt": "2026-12-04T14:02:00Z"})
    listing = StudyMessage.model_validate(
        {
            "id": "m0",
            "role": "user",
            "content": "1. How fair is 140 EUR?\n2. Would you buy it?\n3. Why?",
            "createdAt": "2026-12-04T14:02:00Z",
            "metadata": {"runId": "r9", "kind": "research"},
        }
    )
    text = _all_text([render_runs([run_], study_name="Cups", messages=[listing])])
    assert "· “How fair is 140 EUR?” (+2 more questions) · n unknown · partial" in text


@pytest.mark.parametrize(
    ("status", "expected"),
    [
        ("cancelled", ":heavy_multiplication_x: Cancelled: Minds reported no progress, so how far it got is unknown."),
        ("failed", ":x: Failed: the run did not finish. Minds reported no progress, so how far it got is unknown."),
    ],
)
def test_without_progress_a_run_that_stopped_never_claims_how_far_it_got(status: str, expected: str) -> None:
    assert terminal_line(run(status, progress=None)) == expected


def test_counts_in_headlines_are_real_plurals() -> None:
    one_gap = run("partial", progress={"total": 3, "settled": 3, "failed": 0, "partial": 1, "skipped": 0, "pct": 100})
    assert "1 question has incomplete coverage." in terminal_line(one_gap)
    two_gaps = run("partial", progress={"total": 3, "settled": 3, "failed": 0, "partial": 2, "skipped": 0, "pct": 100})
    assert "2 questions have incomplete coverage." in terminal_line(two_gaps)
    limited = run("plan_limited", progress=None, completedQuestions=1)
    assert terminal_line(limited).startswith(
        ":no_entry: Stopped by the Minds plan limit: 1 question completed; its result is kept below."
    )
    unknown = run("plan_limited", progress=None)
    assert "Some questions" not in terminal_line(unknown)
    assert "Minds did not say how many questions completed" in terminal_line(unknown)
    assert "(s)" not in terminal_line(one_gap) + terminal_line(limited)
