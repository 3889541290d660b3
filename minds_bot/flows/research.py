"""Approving a plan revision and following its research run in the plan message's thread.

Owns: refusing approval to people who may not approve (the rule, from the stored ``PlanPost``, approvers table
and Slack's ``users.info``, never from a button, is the gate's: ``flows/access.py``), who may manage approvers,
what must hold first, decided from the revision as Minds returns it and Minds' method catalogue — never from
the button: every confirmation question answered (CATALOGUE §2 E.41), every method executable (E.42–43), the
advanced-method opt-in ticked when the plan has advanced methods; the exactly-once confirm (the plan post moves
open → approved atomically, then an ``Approval`` record with its idempotency key is committed *before*
``POST …/research-runs``; a retry after a timeout reuses the record's key; the approver's share of the Minds budget
is the gate's to check first, and the run is recorded for ``/minds activity`` — sent, then started or failed as
Minds answered, one record per approval; the plan's blocks are kept with the
plan post before Minds is asked, so a restart mid-confirm or mid-run can still rewrite its closing line), the
honest answers to refusals (``PLAN_LIMIT``: an upgrade is required and nothing started; 409: the reason), and
the ``RunHandler`` for ``RunKind.RESEARCH``
(progress edits, one terminal result in the thread — closed by "Compare with…" when it has results — then the
plan message's closing line and the reaction (``flows/outcome.py``), then the DMs to the requester and whoever
pressed the approval line's "Notify me when it ends" (``flows/run_notice.py``), then charts and the report —
asked for anew (``force``) when Minds' cached Study report predates the run — and last the run's spend counts the
responses Minds received, for ``/minds activity``) and ``RunKind.CONSISTENCY`` (the
answer-consistency note that may arrive after completion).
Must not touch: Block Kit (``render/``), SQL, the preview lifecycle (``flows/planning.py``).
"""

from __future__ import annotations

import functools
import json
import logging
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from minds_bot.flows import access
from minds_bot.flows.drawing import draw
from minds_bot.flows.exports import start_export
from minds_bot.flows.methods import method_catalogue
from minds_bot.flows.model_connections import NotPinned, cached_connections, pin_connection
from minds_bot.flows.outcome import close_plan_message, react_to_request
from minds_bot.flows.planning import Refused, load_revision
from minds_bot.flows.run_notice import notify_run_end
from minds_bot.flows.spend import count_research, record_research, settle, their_work
from minds_bot.flows.tracking import Observation, say_in_thread
from minds_bot.i18n import _, in_channel, sentences
from minds_bot.minds import (
    AuthenticationError,
    Conflict,
    InvalidRequest,
    MindsError,
    NotFound,
    PermissionDenied,
    ResearchRun,
)
from minds_bot.render import Message, mention
from minds_bot.render.cancel import with_cancel
from minds_bot.render.charts import chart_not_drawn, result_chart
from minds_bot.render.compare import compare_block
from minds_bot.render.errors import minds_said, user_message
from minds_bot.render.plan import approved_note, connection_label, freeze
from minds_bot.render.plan_gate import advanced_methods, approval_gate
from minds_bot.render.run_notice import with_notify_button
from minds_bot.render.runs import (
    distribution,
    lost_text,
    progress_text,
    render_approval_refused,
    render_consistency,
    render_report_not_started,
    render_results,
    render_unconfirmed,
    terminal_line,
    uses_nps,
)
from minds_bot.services.background import Resume
from minds_bot.store import PlanPost, PlanState, RunKind, TrackedRun

if TYPE_CHECKING:
    from slack_sdk.web.async_client import AsyncWebClient

    from minds_bot.services import Services

log = logging.getLogger(__name__)

# Minds' final word on a confirm: nothing started, and sending the same request again would not change that.
DEFINITIVE_REFUSALS = (PermissionDenied, Conflict, InvalidRequest, NotFound, AuthenticationError)
CONSISTENCY_WAIT = timedelta(minutes=30)
MAX_CHARTS_PER_UPLOAD = 10
CONSISTENCY_SUFFIX = ":consistency"
REPORT_REQUESTER = "minds-bot"  # the report after a run is the bot's own request


# --- who may approve -----------------------------------------------------------------------------------------


async def may_manage_approvers(
    services: Services, slack: AsyncWebClient, *, team_id: str, channel_id: str, user_id: str
) -> bool:
    """Workspace admins, and people who already approve in this channel (so a team can share the duty)."""
    decision = await access.check(
        services, slack, team_id=team_id, user_id=user_id, act=access.Act.MANAGE_CHANNEL, channel_id=channel_id
    )
    return decision.allowed


async def approval_refusal(
    services: Services, slack: AsyncWebClient, *, post: PlanPost, user_id: str
) -> Refused | None:
    """None when the person may approve or discard the plan (the gate: its requester, the channel's approvers, an
    admin, while in its channel); otherwise what to tell them."""
    decision = await access.check(
        services, slack, team_id=post.team_id, user_id=user_id, act=access.Act.DECIDE, thing=access.plan_thing(post)
    )
    if decision.allowed:
        return None
    return refusal_for_approver(post) if decision.code == "not_allowed" else Refused(decision.reason)


def refusal_for_approver(post: PlanPost) -> Refused:
    return Refused(
        _(
            "Only the person who asked for this plan ({user}), this channel's approvers (`/minds approvers list`) "
            "or a workspace admin can approve or discard it.",
            user=mention(post.requester_id),
        )
    )


# --- approving -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Started:
    run_id: str


@dataclass(frozen=True)
class NotStarted:
    """Minds refused or did not answer; ``reason`` was posted in the thread."""

    reason: str


async def approve(
    services: Services,
    *,
    slack: AsyncWebClient,
    post: PlanPost | None,
    user_id: str,
    revision: int,
    opt_in: bool,
    blocks: list[dict[str, Any]],
    connection_id: str | None = None,
) -> Refused | Started | NotStarted:
    """Confirm exactly this revision once, then follow the run in the plan's thread. ``opt_in``: the
    advanced-method box was ticked; ``connection_id``: the model connection picked on the plan (checked with
    Minds now, pinned as (id, revision); None or Minds' own models: no connection)."""
    if post is None:
        return Refused(_("This plan is no longer tracked by the bot."))
    refused = await approval_refusal(services, slack, post=post, user_id=user_id)
    if refused is not None:
        return refused
    refused = await _state_refusal(services, post, revision)
    if refused is not None:
        return refused
    spending = await access.check(  # the approval is its consent; the approver's share of the Minds budget is asked
        services,
        slack,
        team_id=post.team_id,
        user_id=user_id,
        act=access.Act.RESEARCH,
        channel_id=post.channel_id,
        thing=access.plan_thing(post),
    )
    if spending.refused:
        return Refused(spending.reason)
    refused = await _runnable_refusal(services, post, opt_in=opt_in)
    if refused is not None:
        return refused
    pin = await pin_connection(services, post.team_id, connection_id)
    if isinstance(pin, NotPinned):
        return Refused(pin.reason)
    moved = await _move(services, post, {PlanState.OPEN}, PlanState.APPROVED)
    if moved is None:
        return Refused(_("Someone is approving this plan right now; its run will appear in the thread."))
    async with their_work(services, team_id=post.team_id, user_id=user_id):
        return await _confirm(
            services, slack=slack, post=moved, user_id=user_id, opt_in=opt_in, blocks=blocks, connection=pin
        )


async def _state_refusal(services: Services, post: PlanPost, revision: int) -> Refused | None:
    if post.state in (PlanState.APPROVED, PlanState.RUNNING) and post.draft_plan_id and post.revision:
        approval = await services.store.get_approval(
            team_id=post.team_id, draft_plan_id=post.draft_plan_id, revision=post.revision
        )
        if approval:
            return Refused(
                _(
                    "Revision {revision} was already approved by {user}; its run is in the thread.",
                    revision=post.revision,
                    user=mention(approval.approver_id),
                )
            )
        return Refused(_("Revision {revision} was already approved; its run is in the thread.", revision=post.revision))
    if post.state == PlanState.PREPARING:
        return Refused(_("A new revision of this plan is being prepared; approve it once it appears."))
    if post.state == PlanState.DISCARDED:
        return Refused(_("This plan was discarded; start a new one with `/minds plan`."))
    if post.revision != revision:
        return Refused(
            _(
                "That button belongs to revision {revision}, but the plan is now at revision {latest}. Only the "
                "latest revision can run: review it in the channel and approve it there.",
                revision=revision,
                latest=post.revision,
            )
        )
    return None


async def _runnable_refusal(services: Services, post: PlanPost, *, opt_in: bool) -> Refused | None:
    """What Minds' revision and catalogue still require, in the words the plan message shows."""
    plan = await load_revision(services, post)
    if isinstance(plan, Refused):
        return plan
    gate = approval_gate(plan, await method_catalogue(services, post.team_id))
    if gate.blocked:
        return Refused(sentences(*gate.reasons()))
    if advanced_methods(plan) and not opt_in:
        return Refused(_("This plan uses advanced methods: tick the opt-in box on the plan, then approve again."))
    return None


async def _move(services: Services, post: PlanPost, expected: set[PlanState], new: PlanState) -> PlanPost | None:
    moved = await services.store.transition_plan_post(
        team_id=post.team_id, channel_id=post.channel_id, message_ts=post.message_ts, expected=expected, new=new
    )
    if moved is not None:
        services.home_changed(moved)  # the App Homes that list it (waiting for approval, live runs)
    return moved


async def _confirm(
    services: Services,
    *,
    slack: AsyncWebClient,
    post: PlanPost,
    user_id: str,
    opt_in: bool,
    blocks: list[dict[str, Any]],
    connection: tuple[str, int] | None = None,
) -> Started | NotStarted:
    assert post.draft_plan_id is not None and post.revision is not None
    approval, _claimed = await services.store.claim_approval(
        team_id=post.team_id,
        draft_plan_id=post.draft_plan_id,
        revision=post.revision,
        approver_id=user_id,
        idempotency_key=str(uuid.uuid4()),
        advanced_opt_in=opt_in,
        model_connection=connection,
    )
    if blocks:  # kept before Minds is asked, so a restart (mid-confirm or mid-run) can still rewrite its last line
        post = await services.store.save_plan_post(post.model_copy(update={"frozen_blocks": json.dumps(blocks)}))
    elif post.frozen_blocks:  # resumed after a restart: the blocks as they were when Approve was pressed
        blocks = json.loads(post.frozen_blocks)
    opt_in = opt_in or approval.advanced_opt_in  # a retry keeps the opt-in the approval was claimed with
    pinned = approval.model_connection  # and the model connection: the same body under the same key
    minds = await services.minds.client_for(post.team_id)
    spend = await record_research(services, post=post, approval=approval)
    try:
        started = await minds.start_research_run(
            post.study_id,
            draft_plan_id=approval.draft_plan_id,  # the approved revision, as claimed: only it may run
            revision=approval.revision,
            idempotency_key=approval.idempotency_key,  # the record's key: a retry can never start a second run
            advanced_method_opt_in=True if opt_in else None,
            model_connection=pinned,
        )
    except DEFINITIVE_REFUSALS as exc:
        await settle(services, spend, started=False, detail=type(exc).__name__)
        return await _refused_by_minds(services, slack=slack, post=post, user_id=user_id, error=exc)
    except MindsError as exc:  # no answer: it may have started; Approve again re-sends the same key, same record
        return await _unconfirmed(services, slack=slack, post=post, error=exc)
    await settle(services, spend, started=True, detail=started.run_id)
    await services.store.attach_run(
        team_id=post.team_id, draft_plan_id=approval.draft_plan_id, revision=approval.revision, run_id=started.run_id
    )
    await _move(services, post, {PlanState.APPROVED}, PlanState.RUNNING)
    label = _connection_label(services, post.team_id, pinned)
    with in_channel():  # the plan message is the channel's, whoever approved it
        note = approved_note(approver_id=approval.approver_id, revision=approval.revision, connection=label)
        frozen = with_notify_button(freeze(blocks, note), started.run_id) if blocks else None
    if frozen is not None:
        await slack.chat_update(channel=post.channel_id, ts=post.message_ts, **frozen.as_kwargs())
    else:  # approved before the bot kept a plan's blocks: the message cannot be rebuilt, so say it in the thread
        await slack.chat_postMessage(channel=post.channel_id, thread_ts=post.message_ts, text=note)
    await services.tracker.track(
        TrackedRun(
            team_id=post.team_id,
            run_id=started.run_id,
            study_id=post.study_id,
            kind=RunKind.RESEARCH,
            client_request_id=approval.idempotency_key,
            channel_id=post.channel_id,
            thread_ts=post.message_ts,
            next_poll_at=services.clock(),
        )
    )
    return Started(started.run_id)


def _connection_label(services: Services, team_id: str, pinned: tuple[str, int] | None) -> str | None:
    """The pinned connection's name as last listed (its id when no longer cached)."""
    if pinned is None:
        return None
    listed = next((c for c in cached_connections(services, team_id) if c.id == pinned[0]), None)
    return (
        connection_label(listed)
        if listed
        else _("{connection} (revision {revision})", connection=pinned[0], revision=pinned[1])
    )


async def _refused_by_minds(
    services: Services, *, slack: AsyncWebClient, post: PlanPost, user_id: str, error: MindsError
) -> NotStarted:
    """Nothing started. The plan stays open (after an upgrade or once Minds are ready, approve again)."""
    assert post.draft_plan_id is not None and post.revision is not None
    reason = _refusal_text(error)
    await services.store.fail_approval(
        team_id=post.team_id, draft_plan_id=post.draft_plan_id, revision=post.revision, reason=reason
    )
    await _move(services, post, {PlanState.APPROVED}, PlanState.OPEN)
    message = render_approval_refused(user_id=user_id, revision=post.revision, reason=reason)
    await slack.chat_postMessage(channel=post.channel_id, thread_ts=post.message_ts, **message.as_kwargs())
    return NotStarted(reason)


def _refusal_text(error: MindsError) -> str:
    if isinstance(error, Conflict) and type(error) is Conflict:
        server = getattr(error, "server_message", None)
        if server:
            return _(
                "Minds refused to confirm this revision (it may already be confirmed for another run). Minds said: "
                "{said}",
                said=minds_said(server),
            )
        return _("Minds refused to confirm this revision (it may already be confirmed for another run).")
    return user_message(error)


async def _unconfirmed(services: Services, *, slack: AsyncWebClient, post: PlanPost, error: MindsError) -> NotStarted:
    """No answer from Minds: the approval stays pending with its key, so pressing Approve again re-sends the
    very same request (Minds starts it at most once)."""
    await _move(services, post, {PlanState.APPROVED}, PlanState.OPEN)
    if post.draft_plan_id is not None and post.revision is not None:  # waits for a person now, not a replica
        await services.store.release_approval(
            team_id=post.team_id, draft_plan_id=post.draft_plan_id, revision=post.revision
        )
    message = render_unconfirmed(user_message(error))
    await slack.chat_postMessage(channel=post.channel_id, thread_ts=post.message_ts, **message.as_kwargs())
    return NotStarted(message.text)


async def resume_pending_approvals(services: Services, *, abandoned_only: bool = False) -> int:
    """After a crash mid-confirm: re-send each claimed, unanswered approval with its own key. Each is leased to
    this replica first, so of several replicas exactly one re-sends it, and an approval another replica is
    confirming right now (its claimer's lease is live) is left alone. ``abandoned_only``: only approvals whose
    confirmer died (its lease ran out), not those waiting for a person to press Approve again."""
    resumed = 0
    claimed = await services.store.claim_pending_approvals(holder=services.replica, abandoned_only=abandoned_only)
    for approval in claimed:
        post = await services.store.find_plan_post(team_id=approval.team_id, draft_plan_id=approval.draft_plan_id)
        if post is None or post.state != PlanState.APPROVED or post.revision != approval.revision:
            await services.store.release_approval(
                team_id=approval.team_id, draft_plan_id=approval.draft_plan_id, revision=approval.revision
            )
            continue
        slack = await services.slack.client_for(post.team_id)
        outcome = await _confirm(
            services, slack=slack, post=post, user_id=approval.approver_id, opt_in=approval.advanced_opt_in, blocks=[]
        )
        resumed += isinstance(outcome, Started)
    return resumed


def approval_resume(services: Services) -> Resume:
    """Finish approvals a crash left between claim and Minds' answer (same key, never a new one): at start-up
    every such approval, then once a lease the approvals another replica was confirming when it died (each
    approval can still be retried by a click)."""
    return Resume(
        "approval resume",  # the loop's name in the log, verbatim
        resume=functools.partial(resume_pending_approvals, services),
        every=services.settings.minds_bot_lease_seconds,
        failure="resuming pending approvals failed",  # for logs, verbatim
        resumed="resumed pending approvals",  # for logs, verbatim
        logger=log,
    )


# --- following the run ---------------------------------------------------------------------------------------


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
