"""Comparing results in a thread: two runs of one Study, or one run's Audiences (``/minds compare``, "Compare with…").

Owns: reading a Study's runs as ``/minds runs`` lists them (newest first; a run is named by its number there,
1 = newest, or its id), choosing which to compare (none named: the two latest finished runs — completed, partial
or plan-limited, each said as such; one: its Audiences; two: those, in the order named), reading each run's
results from Minds (a research run's artifacts, a standalone question's answers) into the ``QuestionResult`` its
own thread showed, and posting the comparison (``render/compare.py``) with one chart per compared question —
in a new thread in the channel, or in the thread of the result whose "Compare with…" was pressed.
A choice that cannot be compared (unknown run, one run only, a run still running) is said privately.
Must not touch: Block Kit (``render/``), SQL.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from minds_bot.flows.drawing import draw
from minds_bot.flows.invocation import Invocation
from minds_bot.i18n import _, in_channel
from minds_bot.minds import AgentRun, MindsClient, MindsError, parse_output
from minds_bot.minds.models import StudyMessage
from minds_bot.render.common import note
from minds_bot.render.compare import (
    charts_comment,
    comparison_chart,
    render_comparison,
    render_no_finished_runs,
    render_not_finished,
    render_one_audience,
    render_one_run_only,
    render_same_run,
    render_unknown_run,
)
from minds_bot.render.comparison import (
    Comparison,
    RunSide,
    asked_in_output,
    asked_in_run,
    compare_audiences,
    compare_runs,
)
from minds_bot.render.errors import user_message
from minds_bot.render.run_names import run_label

RUNS_READ = 20  # the newest runs a comparison chooses from (the numbers `/minds runs` shows are among them)
FINISHED = ("completed", "partial", "plan_limited")  # runs with results: the default comparison's candidates
ENDED = (*FINISHED, "cancelled", "failed")  # runs that may be named: what finished before they stopped is kept
MAX_CHARTS_PER_UPLOAD = 10


@dataclass(frozen=True)
class StudyRuns:
    """A Study's newest runs (newest first) and its messages (which name each run's first question)."""

    study_id: str
    study_name: str
    runs: tuple[AgentRun, ...]
    messages: tuple[StudyMessage, ...]

    def label(self, run: AgentRun) -> str:
        return run_label(run, messages=self.messages)


async def read_runs(minds: MindsClient, *, study_id: str, study_name: str) -> StudyRuns:
    runs = await minds.list_study_runs(study_id, limit=RUNS_READ)
    messages = (await minds.get_study(study_id)).messages if runs else []
    return StudyRuns(study_id=study_id, study_name=study_name, runs=tuple(runs), messages=tuple(messages))


def choose(study: StudyRuns, said: Sequence[str]) -> list[AgentRun] | str:
    """The runs to compare (one: its Audiences; two: A then B), or the words (mrkdwn) saying why not."""
    name = study.study_name
    if not said:
        finished = [run for run in study.runs if run.status in FINISHED]
        if not finished:
            return render_no_finished_runs(study=name)
        if len(finished) == 1:
            return render_one_run_only(study=name, run=finished[0], messages=study.messages)
        return [finished[1], finished[0]]  # the older is A: differences read as the change since then
    chosen: list[AgentRun] = []
    for word in said:
        run = _named(study.runs, word)
        if run is None:
            return render_unknown_run(study=name, said=word, runs=study.runs, messages=study.messages)
        if run.status not in ENDED:
            return render_not_finished(number=study.runs.index(run) + 1, status=run.status)
        chosen.append(run)
    if len(chosen) == 2 and chosen[0].run_id == chosen[1].run_id:  # noqa: PLR2004 - two runs named
        return render_same_run()
    return chosen


def _named(runs: Sequence[AgentRun], word: str) -> AgentRun | None:
    if word.isdigit():
        number = int(word)
        return runs[number - 1] if 1 <= number <= len(runs) else None
    return next((run for run in runs if run.run_id.lower() == word.lower()), None)


async def run_side(minds: MindsClient, study: StudyRuns, run: AgentRun) -> RunSide:
    """A run's questions with the results its thread showed: a standalone question's answers, or a research
    run's artifacts."""
    if run.question is not None:
        if run.message_id is None:
            questions: tuple = ()
        else:
            read = await minds.get_message_answers(study.study_id, run.message_id)
            questions = asked_in_output(parse_output(read.output_data))
    else:
        questions = asked_in_run(await minds.get_research_run(study.study_id, run.run_id))
    return RunSide(run=run, questions=questions, messages=study.messages)


async def compare(
    invocation: Invocation, *, study: StudyRuns, runs: Sequence[AgentRun], thread_ts: str | None = None
) -> None:
    """Read ``runs`` (one: its Audiences; two: A and B) and post their comparison; errors are said privately."""
    try:
        minds = await invocation.minds()
        sides = [await run_side(minds, study, run) for run in runs]
    except MindsError as exc:
        await invocation.reply(note(user_message(exc)))
        return
    with in_channel():  # everyone in the channel reads the comparison
        if len(sides) == 1:
            comparison = compare_audiences(sides[0], study=study.study_name)
        else:
            comparison = compare_runs(sides[0], sides[1], study=study.study_name)
    if comparison.mode == "audiences" and not comparison.questions:
        await invocation.say_mrkdwn(render_one_audience(run=runs[0], messages=study.messages))
        return
    await post(invocation, comparison, thread_ts=thread_ts)


async def post(invocation: Invocation, comparison: Comparison, *, thread_ts: str | None) -> None:
    """The comparison's messages (a new thread in the channel when ``thread_ts`` is None), then its charts."""
    slack, channel = invocation.client, invocation.channel_id
    with in_channel():
        messages = render_comparison(comparison)
        comment = charts_comment()
    if thread_ts is None:
        posted = await slack.chat_postMessage(channel=channel, **messages[0].as_kwargs())
        thread_ts, messages = str(posted["ts"]), messages[1:]
    for message in messages:
        await slack.chat_postMessage(channel=channel, thread_ts=thread_ts, **message.as_kwargs())
    uploads = []
    for question in comparison.questions:
        with in_channel():
            png = await draw(comparison_chart, comparison=comparison, question=question)
        number = question.numbers[0]
        uploads.append({"file": png, "filename": f"compare-q{number}.png", "title": _shorten_title(question.title)})
    for start in range(0, len(uploads), MAX_CHARTS_PER_UPLOAD):
        await slack.files_upload_v2(
            file_uploads=uploads[start : start + MAX_CHARTS_PER_UPLOAD],
            channel=channel,
            thread_ts=thread_ts,
            initial_comment=comment,
        )


def _shorten_title(title: str) -> str:
    return title if len(title) <= 250 else title[:249] + "…"  # noqa: PLR2004 - Slack's file title limit


def other_runs(study: StudyRuns, run_id: str) -> list[tuple[str, str]]:
    """The dialog's choices: every other run of the Study that ended (run id, plain-text name)."""
    return [(run.run_id, study.label(run)) for run in study.runs if run.run_id != run_id and run.status in ENDED]


def this_run(study: StudyRuns, run_id: str) -> AgentRun | None:
    return next((run for run in study.runs if run.run_id == run_id), None)


def ordered(a: AgentRun, b: AgentRun) -> list[AgentRun]:
    """Two runs oldest first (A is the earlier), when Minds says when each was created."""
    if a.created_at and b.created_at and b.created_at < a.created_at:
        return [b, a]
    return [a, b]


def unreadable_run() -> str:
    return _("That run is no longer among the Study's recent runs; use `/minds compare` with the run's id.")
