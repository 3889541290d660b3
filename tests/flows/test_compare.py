"""Which runs ``/minds compare`` compares, as a person names them (``flows/compare.choose``): the two latest
finished runs by default (the older is A), runs by their number in ``/minds runs`` or their id, and the exact
private words when that cannot be compared."""

from __future__ import annotations

from minds_bot.flows.compare import StudyRuns, choose, ordered
from minds_bot.minds import AgentRun

DAY = "<!date^{stamp}^{{date_short_pretty}} {{time}}|2026-12-0{day} 09:30 UTC>"
STAMPS = {1: 1796117400, 2: 1796203800, 3: 1796290200, 4: 1796376600}


def run(run_id: str, status: str, day: int) -> AgentRun:
    return AgentRun.model_validate({"runId": run_id, "status": status, "createdAt": f"2026-12-0{day}T09:30:00Z"})


def study(*runs: AgentRun) -> StudyRuns:
    return StudyRuns(study_id="s1", study_name="Launch <b>", runs=runs, messages=())


def date(day: int) -> str:
    return DAY.format(stamp=STAMPS[day], day=day)


RUNNING, PARTIAL, FAILED, DONE = (
    run("r4", "running", 4),
    run("r3", "partial", 3),
    run("r2", "failed", 2),
    run("r1", "completed", 1),
)


def test_by_default_the_two_latest_finished_runs_older_first_a_partial_one_included() -> None:
    assert choose(study(RUNNING, PARTIAL, FAILED, DONE), ()) == [DONE, PARTIAL]


def test_runs_are_named_by_their_number_newest_first_or_by_their_id_in_the_order_given() -> None:
    runs = study(RUNNING, PARTIAL, FAILED, DONE)
    assert choose(runs, ("2", "4")) == [PARTIAL, DONE]
    assert choose(runs, ("r1",)) == [DONE]  # one run: its Audiences
    assert choose(runs, ("3", "2")) == [FAILED, PARTIAL]  # a failed run keeps what finished before it stopped


def test_what_cannot_be_compared_is_said_in_words() -> None:
    assert choose(study(RUNNING, DONE), ()) == (
        f"Launch &lt;b&gt; has one finished run ({date(1)} · first question unknown), so there is nothing to "
        "compare it with yet. Compare its Audiences with `/minds compare Launch &lt;b&gt; 1`, or run the research "
        "again."
    )
    assert choose(study(RUNNING), ()) == "Launch &lt;b&gt; has no finished run to compare yet."
    assert choose(study(RUNNING, DONE), ("1", "2")) == "Run 1 is running; only finished runs can be compared."
    assert choose(study(PARTIAL, DONE), ("2", "r1")) == (
        "Name two different runs to compare them, or one run to compare its Audiences."
    )
    assert choose(study(PARTIAL, DONE), ("7",)) == (
        "Launch &lt;b&gt; has no run “7”. Name a run by its number below (1 = newest, as `/minds runs` lists them) "
        f"or its id:\n1. {date(3)} · first question unknown · partial\n2. {date(1)} · first question unknown · "
        "completed"
    )


def test_compare_with_puts_the_earlier_run_first() -> None:
    assert ordered(PARTIAL, DONE) == [DONE, PARTIAL]
    assert ordered(DONE, PARTIAL) == [DONE, PARTIAL]
