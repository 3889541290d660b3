"""The comparison model and its exact words: built only from ``QuestionResult``s, differences of the numbers each
side shows, what could not be compared named, and the caveat about significance always said."""

from __future__ import annotations

from minds_bot.minds import AgentRun
from minds_bot.minds.models import StudyMessage
from minds_bot.render import results
from minds_bot.render.compare import (
    comparison_panel,
    intro_text,
    question_text,
    render_comparison,
    render_one_run_only,
    render_unknown_run,
    signed,
)
from minds_bot.render.comparison import (
    Asked,
    RunSide,
    compare_audiences,
    compare_runs,
)

SIGNIFICANCE = "_Differences between synthetic samples are not significance tests._"
DAY_ONE = "<!date^1796117400^{date_short_pretty} {time}|2026-12-01 09:30 UTC>"
DAY_TWO = "<!date^1796203800^{date_short_pretty} {time}|2026-12-02 09:30 UTC>"


def run(run_id: str, status: str, day: int) -> AgentRun:
    return AgentRun.model_validate({"runId": run_id, "status": status, "createdAt": f"2026-12-0{day}T09:30:00Z"})


# Minds' question listing for run "ra": it names the run's first question (render/run_names.py).
LISTING = StudyMessage.model_validate(
    {
        "id": "m1",
        "role": "user",
        "content": "1. Would you buy it?\n2. How likely are you to recommend it?\n3. Rate it\n4. Why?",
        "createdAt": "2026-12-01T09:30:00Z",
        "metadata": {"runId": "ra"},
    }
)


def categorical(title: str, **answers: list[str]) -> results.QuestionResult:
    built = results.build(title=title, kind="categorical", audiences=list(answers.items()), listed=["Yes", "No"])
    assert built is not None
    return built


def scale(
    title: str, values: dict[str, list[str]], ends: list[float], *, method_nps: bool = False
) -> results.QuestionResult:
    built = results.build(
        title=title, kind="scale", audiences=list(values.items()), scale_range=ends, method_nps=method_nps
    )
    assert built is not None
    return built


BUY_A = categorical("Would you buy it?", Gen_Z=["Yes"] * 6 + ["No"] * 4)
BUY_B = categorical("Would  you BUY it? ", Gen_Z=["Yes"] * 6 + ["No"] * 2)  # the same text, other case and spaces
RATE_A = scale("Rate the design from 1 to 5", {"Gen_Z": ["3", "3", "4", "4", "3"]}, [1, 5])
RATE_B = scale("Rate the design from 1 to 5", {"Gen_Z": ["5", "4", "4", "3", "4"]}, [1, 5])
# The runs' method is NPS (Minds' calculations say so): the 0–10 scale is compared as an NPS.
RECOMMEND = scale("How likely are you to recommend it?", {"Gen_Z": ["9", "10", "3"]}, [0, 10], method_nps=True)

RUN_A = RunSide(
    run=run("ra", "completed", 1),
    messages=(LISTING,),
    questions=(
        Asked(1, "Would you buy it?", BUY_A),
        Asked(2, "How likely are you to recommend it?", RECOMMEND),
        Asked(3, "Rate the design from 1 to 5", RATE_A),
        Asked(4, "Why?", None),
    ),
)
RUN_B = RunSide(
    run=run("rb", "partial", 2),
    questions=(
        Asked(1, "Rate the design from 1 to 5", RATE_B),
        Asked(2, "Would you buy it?", BUY_B),
        Asked(3, "Why?", None),
        Asked(4, "What else?", None),
    ),
)


def test_two_runs_compare_the_questions_they_share_with_the_differences_of_the_shown_numbers() -> None:
    comparison = compare_runs(RUN_A, RUN_B, study="Launch")
    buy, rate = comparison.questions
    assert question_text(comparison, buy) == (
        "*Q1 in A, Q2 in B. Would you buy it?*\n"
        "_% of respondents_\n"
        "*A · Gen_Z (n=10) → B · Gen_Z (n=8)*\n"
        "• Yes: 60% → 75% (+15 pp)\n"
        "• No: 40% → 25% (−15 pp)"
    )
    assert question_text(comparison, rate) == (
        "*Q3 in A, Q1 in B. Rate the design from 1 to 5*\n"
        "*A · Gen_Z (n=5) → B · Gen_Z (n=5)*\n"
        "mean 3.4 → 4.0 (+0.6) · top-2-box 40% → 80% (+40 pp)"
    )


def test_the_introduction_names_both_runs_what_only_one_asked_what_was_not_compared_and_the_caveat() -> None:
    assert intro_text(compare_runs(RUN_A, RUN_B, study="Launch")).splitlines() == [
        ":left_right_arrow: *Two runs of Launch compared*: 2 questions both asked.",
        f"*A:* {DAY_ONE} · “Would you buy it?” (+3 more questions) · completed",
        f"*B:* {DAY_TWO} · first question unknown · partial — not complete: some answers are missing",
        "Differences are B minus A, Audience by Audience; each side gives its n.",
        "Only in A: Q2 “How likely are you to recommend it?”.",
        "Only in B: Q4 “What else?”.",
        "Not compared: Q4 in A, Q3 in B “Why?” — open-ended answers or no answers: no shares to compare.",
        SIGNIFICANCE,
    ]


def test_a_question_asked_another_way_is_named_not_compared() -> None:
    as_scale = scale("Would you buy it?", {"Gen_Z": ["1", "2"]}, [1, 5])
    other = RunSide(run=run("rc", "plan_limited", 2), questions=(Asked(1, "Would you buy it?", as_scale),))
    text = intro_text(compare_runs(RUN_A, other, study="Launch"))
    assert (
        f"*B:* {DAY_TWO} · first question unknown · stopped by the Minds plan limit: only the questions that ran "
        "are compared" in text
    )
    assert "Not compared: Q1 “Would you buy it?” — asked another way (categorical in A, scale in B)." in text
    assert "The two runs share no question that could be compared." in text
    assert text.endswith(SIGNIFICANCE)


def test_nps_is_compared_in_points() -> None:
    late = scale("How likely are you to recommend it?", {"Gen_Z": ["9", "3", "3", "3"]}, [0, 10], method_nps=True)
    a = RunSide(run=run("ra", "completed", 1), questions=(Asked(1, "How likely are you to recommend it?", RECOMMEND),))
    b = RunSide(run=run("rb", "completed", 2), questions=(Asked(1, "How likely are you to recommend it?", late),))
    comparison = compare_runs(a, b, study="Launch")
    # 2 of 3 promoters, 1 detractor: 67 − 33 = +34; then 1 of 4 promoters, 3 detractors: 25 − 75 = −50
    assert "NPS +34 → NPS −50 (−84 points)" in question_text(comparison, comparison.questions[0])


def test_audiences_of_one_run_are_compared_with_the_first_and_an_audience_only_in_one_run_is_named() -> None:
    both = categorical("Would you buy it?", Gen_Z=["Yes"] * 3 + ["No"], Parents=["No"] * 3 + ["Yes"])
    one = RunSide(run=run("ra", "completed", 1), questions=(Asked(1, "Would you buy it?", both),))
    comparison = compare_audiences(one, study="Launch")
    intro = intro_text(comparison).splitlines()
    assert intro[:4] == [
        ":left_right_arrow: *The Audiences of one run of Launch compared*: 1 question.",
        f"*Run:* {DAY_ONE} · first question unknown · completed",
        "*A:* Gen_Z · *B:* Parents",
        "Differences are the second side of each line minus the first; each side gives its n.",
    ]
    assert intro[-1] == SIGNIFICANCE
    assert question_text(comparison, comparison.questions[0]).splitlines()[2:] == [
        "*A · Gen_Z (n=4) → B · Parents (n=4)*",
        "• Yes: 75% → 25% (−50 pp)",
        "• No: 25% → 75% (+50 pp)",
    ]
    across = compare_runs(one, RUN_B, study="Launch")
    assert "Not compared: A · Parents (n=4) (no match in the other run)" in question_text(across, across.questions[0])


def test_the_chart_draws_exactly_the_shares_the_text_gives() -> None:
    comparison = compare_runs(RUN_A, RUN_B, study="Launch")
    panel = comparison_panel(comparison, comparison.questions[0])
    assert panel.options == ["Yes", "No"]
    assert panel.values == {"A · Gen_Z (n=10)": [60.0, 40.0], "B · Gen_Z (n=8)": [75.0, 25.0]}
    assert panel.value_labels == {"A · Gen_Z (n=10)": ["60%", "40%"], "B · Gen_Z (n=8)": ["75%", "25%"]}
    assert panel.unit == "% of respondents"


def test_one_message_per_compared_question_after_the_introduction() -> None:
    messages = render_comparison(compare_runs(RUN_A, RUN_B, study="Launch"))
    assert [m.text for m in messages] == [
        ":left_right_arrow: *Two runs of Launch compared*: 2 questions both asked.",
        "Q1 in A, Q2 in B. Would you buy it?",
        "Q3 in A, Q1 in B. Rate the design from 1 to 5",
    ]


def test_signs_use_a_true_minus_and_no_sign_for_zero() -> None:
    assert [signed(8), signed(-8), signed(0), signed(0.6000000001, decimals=1), signed(-0.04, decimals=1)] == [
        "+8",
        "−8",
        "0",
        "+0.6",
        "0.0",
    ]


def test_the_private_notes_name_the_study_and_its_runs_as_the_command_reads_them() -> None:
    assert render_one_run_only(study="Pricing <pulse>", run=run("ra", "completed", 1)) == (
        f"Pricing &lt;pulse&gt; has one finished run ({DAY_ONE} · first question unknown), so there is nothing to "
        "compare it with yet. Compare its Audiences with `/minds compare Pricing &lt;pulse&gt; 1`, or run the "
        "research again."
    )
    runs = [run("rb", "running", 2), run("ra", "completed", 1)]
    assert render_unknown_run(study="Launch", said="9", runs=runs, messages=[LISTING]) == (
        "Launch has no run “9”. Name a run by its number below (1 = newest, as `/minds runs` lists them) or its id:\n"
        f"1. {DAY_TWO} · first question unknown · running\n"
        f"2. {DAY_ONE} · “Would you buy it?” (+3 more questions) · completed"
    )


def test_a_comparison_of_results_the_sandbox_simulated_says_so_before_the_caveat() -> None:
    simulated = RunSide(
        run=run("rs", "completed", 2), questions=(Asked(1, "Would you buy it?", BUY_B, simulated=True),)
    )
    lines = intro_text(compare_runs(RUN_A, simulated, study="Launch")).splitlines()
    assert lines[-2:] == ["_Simulated locally by the minds-bot sandbox — not answers from Minds._", SIGNIFICANCE]
    assert "Simulated" not in intro_text(compare_runs(RUN_A, RUN_B, study="Launch"))
