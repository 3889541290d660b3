"""Comparing results in a thread: two runs of one Study, or one run's Audiences (``/minds compare``, "Compare with…").

Owns: reading a Study's runs as ``/minds runs`` lists them (newest first, read to the end — at most the newest
1,000 — so every number a page of ``/minds runs`` shows names its run here; a run is named by its number there,
1 = newest, or its id; an unknown run's answer lists the newest ``RUNS_LISTED``), choosing which to compare
(none named: the two latest finished runs — completed, partial or plan-limited, each said as such; one: its
Audiences; two: those, in the order named), reading each run's results from Minds (a research run's artifacts, a
standalone question's answers) into the ``QuestionResult`` its own thread showed, and posting the comparison
(``render/compare.py``) with one chart per compared question — in a new thread in the channel, or in the thread
of the result whose "Compare with…" was pressed.
A choice that cannot be compared (unknown run, one run only, a run still running) is said privately.
Who may compare what, where (``Where``, asked of the gate ``flows/access.py``): each run compared must pass
SHOW where the comparison is posted, for the run's channel — a person not in that channel is refused, and a
private channel's run is compared only in that channel — with the gate's words, privately, nothing read from
Minds and nothing posted; lists (an unknown run's listing, the "Compare with…" dialog) leave out the runs of
channels the person is not in; with no run named, the default takes the two latest finished runs that may be
compared there.
Must not touch: Block Kit (``render/``), SQL, deciding membership itself.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from minds_bot.flows import access
from minds_bot.flows.drawing import draw
from minds_bot.flows.invocation import Invocation
from minds_bot.flows.run_links import hidden_runs, run_channels
from minds_bot.i18n import _, in_channel
from minds_bot.minds import AgentRun, MindsClient, MindsError, parse_output
from minds_bot.minds.models import StudyMessage
from minds_bot.render.charts import chart_not_drawn
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

RUNS_LISTED = 20  # the newest runs an unknown run's answer lists with their numbers
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
    runs = (
        await minds.all_study_runs(study_id)
    ).items  # to the end (the newest 1,000): every number `/minds runs` shows
    messages = (await minds.get_study(study_id)).messages if runs else []
    return StudyRuns(study_id=study_id, study_name=study_name, runs=tuple(runs), messages=tuple(messages))


def choose(
    study: StudyRuns,
    said: Sequence[str],
    *,
    hidden: Collection[str] = frozenset(),
    candidates: Collection[str] | None = None,
) -> list[AgentRun] | str:
    """The runs to compare (one: its Audiences; two: A then B), or the words (mrkdwn) saying why not.
    ``hidden``: runs of channels the person is not in (never listed); ``candidates``: the runs the default choice
    may pick (those that may be compared where the comparison goes; None: every run)."""
    name = study.study_name
    if not said:
        finished = [
            run for run in study.runs if run.status in FINISHED and (candidates is None or run.run_id in candidates)
        ]
        if not finished:
            return render_no_finished_runs(study=name)
        if len(finished) == 1:
            return render_one_run_only(study=name, run=finished[0], messages=study.messages)
        return [finished[1], finished[0]]  # the older is A: differences read as the change since then
    chosen: list[AgentRun] = []
    for word in said:
        run = _named(study.runs, word)
        if run is None:
            listed = study.runs[:RUNS_LISTED]
            return render_unknown_run(study=name, said=word, runs=listed, messages=study.messages, hidden=hidden)
        if run.status not in ENDED:
            return render_not_finished(number=study.runs.index(run) + 1, status=run.status)
        chosen.append(run)
    if len(chosen) == 2 and chosen[0].run_id == chosen[1].run_id:  # two runs named
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
    uploads: list[dict[str, object]] = []
    for question in comparison.questions:
        with in_channel():
            png = await draw(comparison_chart, comparison=comparison, question=question)
        if png is None:  # no font here has these letters: said once, instead of charts of boxes
            with in_channel():
                await slack.chat_postMessage(channel=channel, thread_ts=thread_ts, text=chart_not_drawn())
            uploads = []
            break
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
    return title if len(title) <= 250 else title[:249] + "…"  # Slack's file title limit


def other_runs(study: StudyRuns, run_id: str, *, allowed: Collection[str] | None = None) -> list[tuple[str, str]]:
    """The dialog's choices: every other run of the Study that ended (run id, plain-text name) — of those
    ``allowed`` (the runs that may be compared where the dialog's comparison goes), when given."""
    return [
        (run.run_id, study.label(run))
        for run in study.runs
        if run.run_id != run_id and run.status in ENDED and (allowed is None or run.run_id in allowed)
    ]


# --- who may compare what, where (the gate) ----------------------------------------------------------------------


class Where:
    """Which of a Study's runs the person may see, and may have compared in ``invocation.channel_id``: each run's
    channel (``flows/run_links.py``) asked of the gate — SEE for lists, SHOW for a comparison posted there (a
    non-member is refused; a private channel's run is compared only in that channel) — once per channel."""

    def __init__(self, invocation: Invocation, channels: Mapping[str, str | None], hidden: frozenset[str]) -> None:
        self._invocation = invocation
        self._channels = channels
        self.hidden = hidden
        self._decided: dict[str | None, access.Decision] = {}

    @classmethod
    async def of(cls, invocation: Invocation, study: StudyRuns) -> Where:
        services, team = invocation.services, invocation.team_id
        channels = await run_channels(services, team_id=team, run_ids=[run.run_id for run in study.runs])
        return cls(invocation, channels, await hidden_runs(invocation, channels))

    async def may_show(self, run: AgentRun) -> access.Decision:
        """The gate's answer for posting ``run``'s results where the comparison goes."""
        channel = self._channels.get(run.run_id)
        if channel not in self._decided:
            invocation = self._invocation
            self._decided[channel] = await access.check(
                invocation.services,
                invocation.client,
                team_id=invocation.team_id,
                user_id=invocation.user_id,
                act=access.Act.SHOW,
                channel_id=invocation.channel_id,
                thing=access.run_thing(invocation.team_id, channel),
            )
        return self._decided[channel]

    async def refusal(self, runs: Iterable[AgentRun | None]) -> str | None:
        """The gate's words for the first of ``runs`` that may not be compared here; None when all may."""
        for run in runs:
            if run is not None and (decision := await self.may_show(run)).refused:
                return decision.reason
        return None

    async def candidates(self, study: StudyRuns, *, statuses: Collection[str] = FINISHED) -> set[str]:
        """The runs in ``statuses`` that may be compared here (the default comparison's and the dialog's)."""
        ended = [run for run in study.runs if run.status in statuses and run.run_id not in self.hidden]
        return {run.run_id for run in ended if (await self.may_show(run)).allowed}


async def choose_here(invocation: Invocation, study: StudyRuns, said: Sequence[str]) -> list[AgentRun] | str:
    """``choose``, through the gate: a named run that may not be compared here is refused with the gate's words
    (before anything is read from Minds); with none named, the two latest finished runs that may be."""
    where = await Where.of(invocation, study)
    refused = await where.refusal(_named(study.runs, word) for word in said)
    if refused is not None:
        return refused
    candidates = None if said else await where.candidates(study)
    return choose(study, said, hidden=where.hidden, candidates=candidates)


def this_run(study: StudyRuns, run_id: str) -> AgentRun | None:
    return next((run for run in study.runs if run.run_id == run_id), None)


def ordered(a: AgentRun, b: AgentRun) -> list[AgentRun]:
    """Two runs oldest first (A is the earlier), when Minds says when each was created."""
    if a.created_at and b.created_at and b.created_at < a.created_at:
        return [b, a]
    return [a, b]


def unreadable_run() -> str:
    return _("That run is no longer among the Study's recent runs; use `/minds compare` with the run's id.")
