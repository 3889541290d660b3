"""Following an approved plan's research run in the plan message's thread: the ``RunHandler`` for
``RunKind.RESEARCH`` (progress edits, one terminal result in the thread — closed by "Compare with…" when it has
results — then the plan message's closing line and the reaction (``flows/outcome.py``), then the DMs to the
requester and whoever pressed the approval line's "Notify me when it ends" (``flows/run_notice.py``), then charts
and the report — asked for anew (``force``) when Minds' cached Study report predates the run — and last the run's
spend counts the responses Minds received, for ``/minds activity``) and ``RunKind.CONSISTENCY`` (the
answer-consistency note that may arrive after completion, waited for ``CONSISTENCY_WAIT``).

Must not touch: Block Kit (``render/``), SQL, approving and the approval's exactly-once confirm
(``flows/research.py``), the tracker's loop (``flows/tracking.py``).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from minds_bot.flows.drawing import draw
from minds_bot.flows.exports import start_export
from minds_bot.flows.outcome import close_plan_message, react_to_request
from minds_bot.flows.run_notice import notify_run_end
from minds_bot.flows.spend import count_research
from minds_bot.flows.tracking import Observation, say_in_thread
from minds_bot.i18n import _
from minds_bot.minds import MindsError, ResearchRun
from minds_bot.render import Message
from minds_bot.render.cancel import with_cancel
from minds_bot.render.charts import chart_not_drawn, result_chart
from minds_bot.render.compare import compare_block
from minds_bot.render.errors import user_message
from minds_bot.render.runs import (
    distribution,
    lost_text,
    progress_text,
    render_consistency,
    render_report_not_started,
    render_results,
    terminal_line,
    uses_nps,
)
from minds_bot.store import RunKind, TrackedRun

if TYPE_CHECKING:
    from slack_sdk.web.async_client import AsyncWebClient

    from minds_bot.services import Services

CONSISTENCY_WAIT = timedelta(minutes=30)
MAX_CHARTS_PER_UPLOAD = 10
CONSISTENCY_SUFFIX = ":consistency"
REPORT_REQUESTER = "minds-bot"  # the report after a run is the bot's own request


class ResearchRunHandler:
    """``RunHandler`` for ``RunKind.RESEARCH``: progress in the thread, one honest result, then the report."""

    def __init__(self, services: Services, *, report_kind: str = "full_report", report_format: str = "md") -> None:
        self._services = services
        self._report_kind = report_kind
        self._report_format = report_format

    async def observe(self, run: TrackedRun) -> Observation:
        minds = await self._services.minds.client_for(run.team_id)
        state = await minds.get_research_run(run.study_id, run.run_id)
        visible = terminal_line(state) if state.is_terminal else progress_text(state)
        return Observation(visible=visible, terminal=state.is_terminal, detail=state)

    async def show_progress(self, run: TrackedRun, observation: Observation) -> str | None:
        slack = await self._services.slack.client_for(run.team_id)
        message = with_cancel(Message(text=observation.visible), run.run_id)
        if run.progress_ts:
            await slack.edit_progress(channel=run.channel_id, ts=run.progress_ts, **message.as_kwargs())
            return run.progress_ts
        posted = await slack.chat_postMessage(channel=run.channel_id, thread_ts=run.thread_ts, **message.as_kwargs())
        return str(posted["ts"])

    async def post_terminal(self, run: TrackedRun, observation: Observation) -> None:
        state: ResearchRun = observation.detail
        slack = await self._services.slack.client_for(run.team_id)
        if run.progress_ts:
            await slack.edit_progress(channel=run.channel_id, ts=run.progress_ts, text=observation.visible, blocks=[])
        block = compare_block(study_id=run.study_id, run_id=run.run_id) if state.artifacts else None
        after = [block] if block else []
        for message in render_results(state, study_name=await self._study_name(run), after=after):
            await slack.chat_postMessage(channel=run.channel_id, thread_ts=run.thread_ts, **message.as_kwargs())
        # The result is in the thread: a failure or a shutdown in the extras below must not post it again after
        # a retry or a restart (the tracker would otherwise release its claim and repeat this whole method).
        await self._services.tracker.record_posted(run)  # waits out an outage of the store: never posted twice
        if run.client_request_id:  # the approval's key: its spend now counts the responses Minds received
            await count_research(
                self._services,
                team_id=run.team_id,
                idempotency_key=run.client_request_id,
                responses=state.responses_received,
            )
        await close_plan_message(self._services, slack, run, status=state.status)  # the channel's one line
        await react_to_request(slack, run, status=state.status)
        await notify_run_end(self._services, slack, run, status=state.status)  # DMs: requester, "Notify me"
        if _consistency_expected(state):
            await self._services.tracker.track(_follow_up(run, self._services))
        # Only what the charts need is kept for later, not the whole run with every answer: a burst of results
        # may wait a while for the drawing thread.
        nps = uses_nps(state)
        charts = [
            (a.index, dist)
            for a in sorted(state.artifacts, key=lambda a: a.index)
            if (dist := distribution(a, method_nps=nps))
        ]
        report = state.status in ("completed", "partial", "plan_limited")
        ended = state.completed_at
        self._services.followups.spawn(
            lambda: self._extras(slack, run, charts, report=report, ended=ended), name="research-charts-and-report"
        )

    async def _extras(
        self, slack: AsyncWebClient, run: TrackedRun, charts: list[Any], *, report: bool, ended: datetime | None
    ) -> None:
        """The charts, then the report: after the result, beside the tracker (drawing is the slow part)."""
        await self._charts(slack, run, charts)
        if report:
            await self._report(slack, run, ended=ended)

    async def post_lost(self, run: TrackedRun, reads: int) -> None:
        slack = await self._services.slack.client_for(run.team_id)
        await say_in_thread(slack, run, lost_text("research", reads=reads))

    async def _study_name(self, run: TrackedRun) -> str:
        post = await self._services.store.get_plan_post(
            team_id=run.team_id, channel_id=run.channel_id, message_ts=run.thread_ts or ""
        )
        return post.study_name if post else run.study_id

    async def _charts(self, slack: AsyncWebClient, run: TrackedRun, charts: list[Any]) -> None:
        """``charts``: (question index, its ``QuestionResult``) for each question that has one — the same numbers
        the thread text gives."""
        uploads = []
        for index, result in charts:
            title = _("Q{number}. {title}", number=index + 1, title=result.title)
            png = await draw(result_chart, result=result, title=title)
            if png is None:  # no font here has these letters: said once, instead of charts of boxes
                await slack.chat_postMessage(channel=run.channel_id, thread_ts=run.thread_ts, text=chart_not_drawn())
                return
            uploads.append({"file": png, "filename": f"q{index + 1}.png", "title": _("Q{number}", number=index + 1)})
        for start in range(0, len(uploads), MAX_CHARTS_PER_UPLOAD):
            await slack.files_upload_v2(
                file_uploads=uploads[start : start + MAX_CHARTS_PER_UPLOAD],
                channel=run.channel_id,
                thread_ts=run.thread_ts,
                initial_comment=_("The same shares as the results above: % of respondents per option, per Audience."),
            )

    async def _report(self, slack: AsyncWebClient, run: TrackedRun, *, ended: datetime | None) -> None:
        """Start the report export so that it includes this run: Minds serves a Study export from its cache, so
        one generated before the run ended (``ended``, Minds' time) is generated anew (``force``). A refusal is
        said in the thread, never raised (the result is posted)."""
        try:
            force = await self._stale_report(run, ended=ended)
            await start_export(
                self._services,
                slack=slack,
                team_id=run.team_id,
                study_id=run.study_id,
                channel_id=run.channel_id,
                thread_ts=run.thread_ts,
                requested_by=REPORT_REQUESTER,
                kind=self._report_kind,
                format=self._report_format,
                force=force or None,
                for_run=run.run_id,
                after_run_at=ended,
            )
        except MindsError as exc:
            message = render_report_not_started(user_message(exc))
            await slack.chat_postMessage(channel=run.channel_id, thread_ts=run.thread_ts, **message.as_kwargs())

    async def _stale_report(self, run: TrackedRun, *, ended: datetime | None) -> bool:
        """Whether Minds' cached report predates the run (or its age or the run's end is unknown)."""
        minds = await self._services.minds.client_for(run.team_id)
        cached = await minds.cached_export(
            run.study_id,
            kind=self._report_kind,  # type: ignore[arg-type]
            format=self._report_format,  # type: ignore[arg-type]
        )
        if cached.status == "idle":
            return False  # nothing cached: the export is generated now, after the run
        if cached.generated_at is None or ended is None:
            return True  # cannot show it includes the run: generate it anew
        return cached.generated_at < ended


def _consistency_expected(state: ResearchRun) -> bool:
    """The check runs after completed (or partial) runs of two or more items, and may arrive later."""
    answered = [a for a in state.artifacts if not a.not_asked]
    return state.status in ("completed", "partial") and state.answer_consistency is None and len(answered) >= 2


def _follow_up(run: TrackedRun, services: Services) -> TrackedRun:
    return TrackedRun(
        team_id=run.team_id,
        run_id=run.run_id + CONSISTENCY_SUFFIX,
        study_id=run.study_id,
        kind=RunKind.CONSISTENCY,
        client_request_id=run.run_id,
        channel_id=run.channel_id,
        thread_ts=run.thread_ts,
        next_poll_at=services.clock(),
    )


class ConsistencyFollowUp:
    """``RunHandler`` for ``RunKind.CONSISTENCY``: posts the answer-consistency note once it arrives (or says
    it never came after ``CONSISTENCY_WAIT``). Polls with GETs only."""

    def __init__(self, services: Services) -> None:
        self._services = services

    async def observe(self, run: TrackedRun) -> Observation:
        minds = await self._services.minds.client_for(run.team_id)
        state = await minds.get_research_run(run.study_id, run.client_request_id or run.run_id)
        if state.answer_consistency is not None:
            return Observation(visible="arrived", terminal=True, detail=state.answer_consistency)
        started = run.created_at or self._services.clock()
        expired = self._services.clock() - started >= CONSISTENCY_WAIT
        return Observation(visible="waiting", terminal=expired, detail=None)

    async def show_progress(self, run: TrackedRun, observation: Observation) -> str | None:
        return None  # nothing to show until the note arrives

    async def post_terminal(self, run: TrackedRun, observation: Observation) -> None:
        slack = await self._services.slack.client_for(run.team_id)
        message = render_consistency(observation.detail)
        await slack.chat_postMessage(channel=run.channel_id, thread_ts=run.thread_ts, **message.as_kwargs())

    async def post_lost(self, run: TrackedRun, reads: int) -> None:
        slack = await self._services.slack.client_for(run.team_id)
        await say_in_thread(slack, run, lost_text("consistency", reads=reads))
