"""Preparing and publishing a plan revision: ``PlanPreparation``, the ``RunHandler`` for ``RunKind.PLAN`` — the run
tracker replays the identical preview POST (same body, same key, the 202 receipt's ids as headers) until the 200
arrives, so preparation survives restarts and is never re-submitted under a new key (CATALOGUE §2 G.69, H.78); a
409 on a revision reloads the latest revision and says so — and ``publish_plan``, which shows a revision in the
plan message in place (its extra pages and the Markdown questionnaire in the thread; a plan whose header alone
fills a message is attached whole) and opens it. A workflow step that started a plan hears when it is published
or refused (``PlanPreparation.ended``).
Must not touch: Block Kit (``render/plan*.py``), SQL, starting, revising and discarding a plan
(``flows/planning.py``), approval (``flows/research.py``).
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from minds_bot.flows.methods import method_catalogue
from minds_bot.flows.model_connections import plan_connections
from minds_bot.flows.plan_memory import plan_context, remembered, unlisted_audiences
from minds_bot.flows.tracking import Observation
from minds_bot.i18n import _, _n, in_channel
from minds_bot.minds import (
    MindsError,
    MindsTransportError,
    PlanPending,
    PlanPreviewRequest,
    RateLimited,
    ResearchPlan,
    ServerError,
    StaleRevision,
)
from minds_bot.render.errors import user_message
from minds_bot.render.plan import (
    PlanTooLarge,
    questionnaire_markdown,
    render_plan,
    render_plan_failed,
    render_preparing,
    render_revision_refused,
)
from minds_bot.render.plan_gate import PlanContext
from minds_bot.store import PlanPost, PlanState, PreviewReceipt, RunKind, TrackedRun

if TYPE_CHECKING:
    from slack_sdk.web.async_client import AsyncWebClient

    from minds_bot.services import PacedWebClient, Services

log = logging.getLogger(__name__)

RELOAD_WAIT_SECONDS = 20.0


async def _track(services: Services, post: PlanPost, *, progress_ts: str | None) -> None:
    await services.tracker.track(
        TrackedRun(
            team_id=post.team_id,
            run_id=post.preview_idempotency_key,
            study_id=post.study_id,
            kind=RunKind.PLAN,
            client_request_id=post.preview_idempotency_key,
            channel_id=post.channel_id,
            thread_ts=post.message_ts,
            progress_ts=progress_ts,
            next_poll_at=services.clock(),
        )
    )


# --- publishing a revision -----------------------------------------------------------------------------------


async def publish_plan(
    services: Services, *, slack: AsyncWebClient, post: PlanPost, plan: ResearchPlan, note: str | None = None
) -> PlanPost:
    """Show ``plan`` in the plan message (in place), its extra pages and Markdown in the thread; open it.
    Everything posted speaks the channel's language."""
    with in_channel():
        return await _publish_plan(services, slack=slack, post=post, plan=plan, note=note)


async def _publish_plan(
    services: Services, *, slack: AsyncWebClient, post: PlanPost, plan: ResearchPlan, note: str | None
) -> PlanPost:
    minds = await services.minds.client_for(post.team_id)
    study = await minds.get_study(post.study_id)
    context = plan_context(
        study,
        requester_id=post.requester_id,
        plan=plan,
        memory=post.memory,
        shown_revision=post.revision,
        others=await unlisted_audiences(minds, study, plan),
    )
    catalogue = await method_catalogue(services, post.team_id)
    connections = await plan_connections(services, post.team_id)
    try:
        rendered = render_plan(plan, context, catalogue=catalogue, connections=connections, note=note)
    except PlanTooLarge:
        return await _too_large(services, slack=slack, post=post, plan=plan, context=context)
    # Saved as open before the buttons appear, so a quick click finds this revision ready to answer or approve.
    opened = await services.store.save_plan_post(
        post.model_copy(
            update={
                "draft_plan_id": plan.draft_plan_id,
                "revision": plan.revision,
                "state": PlanState.OPEN,
                "pending_receipt": None,
                "memory": remembered(post, plan),
            }
        )
    )
    services.home_changed(opened)
    await slack.chat_update(channel=post.channel_id, ts=post.message_ts, **rendered.message.as_kwargs())
    for page in rendered.pages:
        await slack.chat_postMessage(channel=post.channel_id, thread_ts=post.message_ts, **page.as_kwargs())
    if rendered.questionnaire is not None:
        await slack.files_upload_v2(
            channel=post.channel_id,
            thread_ts=post.message_ts,
            content=rendered.questionnaire,
            filename=f"research-plan-revision-{plan.revision}.md",
            title=_(
                "Research plan for {study}, revision {revision} (full questionnaire)",
                study=post.study_name,
                revision=plan.revision,
            ),
        )
    return opened


async def _too_large(
    services: Services, *, slack: AsyncWebClient, post: PlanPost, plan: ResearchPlan, context: PlanContext
) -> PlanPost:
    """The plan's header alone (objective, framing warnings, methods) fills a message — confirmation questions
    never do, they move to one dialog: attach the whole plan and say so; nothing is cut."""
    reason = _("its objective and warnings alone fill a Slack message. The full plan is attached below.")
    await slack.chat_update(
        channel=post.channel_id, ts=post.message_ts, **render_plan_failed(post.study_name, reason).as_kwargs()
    )
    await slack.files_upload_v2(
        channel=post.channel_id,
        thread_ts=post.message_ts,
        content=questionnaire_markdown(plan, context),
        filename=f"research-plan-revision-{plan.revision}.md",
        title=_("Research plan for {study}, revision {revision}", study=post.study_name, revision=plan.revision),
    )
    discarded = await services.store.save_plan_post(
        post.model_copy(update={"state": PlanState.DISCARDED, "pending_receipt": None})
    )
    services.home_changed(discarded)
    return discarded


# --- the tracker's handler for preparations ------------------------------------------------------------------


@dataclass(frozen=True)
class _Superseded:
    """The post moved on (another preview key, or it is gone): nothing to show."""


# Errors worth another look later; every other Minds error is Minds' final answer for this preview.
_TRANSIENT = (MindsTransportError, RateLimited, ServerError)


PlanEnd = Callable[[TrackedRun, PlanPost, "str | None"], Awaitable[None]]


class PlanPreparation:
    """``RunHandler`` for ``RunKind.PLAN``: one identical preview POST per poll until the saved revision.
    ``ended`` are told when a new plan's first revision is published (``None``) or refused (why, in words)."""

    def __init__(self, services: Services) -> None:
        self._services = services
        self.ended: list[PlanEnd] = []

    async def _tell_ended(self, run: TrackedRun, post: PlanPost, refused: str | None) -> None:
        for listener in self.ended:
            try:
                await listener(run, post, refused)
            except Exception:  # the plan message already says it; showing it again would not help
                log.exception("telling a plan's start failed", extra={"fields": {"plan": post.message_ts}})

    async def _post_for(self, run: TrackedRun) -> PlanPost | None:
        post = await self._services.store.get_plan_post(
            team_id=run.team_id, channel_id=run.channel_id, message_ts=run.thread_ts or ""
        )
        if post is None or post.preview_idempotency_key != run.run_id or post.pending_receipt is None:
            return None
        return post

    async def observe(self, run: TrackedRun) -> Observation:
        post = await self._post_for(run)
        if post is None or post.pending_receipt is None or post.pending_receipt.body is None:
            return Observation(visible="superseded", terminal=True, detail=_Superseded())
        try:
            outcome = await self._replay(post, post.pending_receipt)
        except _TRANSIENT:
            raise  # the tracker looks again later with the same key and body
        except MindsError as exc:
            return Observation(visible="refused", terminal=True, detail=exc)
        if isinstance(outcome, ResearchPlan):
            return Observation(visible="ready", terminal=True, detail=outcome)
        receipt = PreviewReceipt(
            request_id=outcome.request_id, operation_id=outcome.operation_id, body=post.pending_receipt.body
        )
        if receipt != post.pending_receipt:
            await self._services.store.save_plan_post(post.model_copy(update={"pending_receipt": receipt}))
        return Observation(visible=f"preparing:{outcome.stage or ''}", terminal=False, detail=outcome)

    async def _replay(self, post: PlanPost, receipt: PreviewReceipt) -> ResearchPlan | PlanPending:
        minds = await self._services.minds.client_for(post.team_id)
        key, body = post.preview_idempotency_key, receipt.body or ""
        if receipt.request_id is None:
            request = PlanPreviewRequest.model_validate_json(body)
            return await minds.preview_plan(post.study_id, request, idempotency_key=key, wait_seconds=0)
        pending = PlanPending(
            study_id=post.study_id,
            idempotency_key=key,
            body=body,
            request_id=receipt.request_id,
            operation_id=receipt.operation_id,
        )
        return await minds.resume_plan(pending, wait_seconds=0)

    async def show_progress(self, run: TrackedRun, observation: Observation) -> str | None:
        post = await self._post_for(run)
        if post is None:
            return None
        stage = observation.detail.stage if isinstance(observation.detail, PlanPending) else None
        next_revision = (post.revision or 0) + 1 if post.draft_plan_id else None
        message = render_preparing(post.study_name, stage=stage, revision=next_revision)
        slack = await self._services.slack.client_for(run.team_id)
        if run.progress_ts:
            await slack.edit_progress(channel=run.channel_id, ts=run.progress_ts, **message.as_kwargs())
            return run.progress_ts
        posted = await slack.chat_postMessage(channel=run.channel_id, thread_ts=post.message_ts, **message.as_kwargs())
        return str(posted["ts"])

    async def post_terminal(self, run: TrackedRun, observation: Observation) -> None:
        detail = observation.detail
        if isinstance(detail, _Superseded):
            return
        post = await self._post_for(run)
        if post is None:
            return
        slack = await self._services.slack.client_for(run.team_id)
        if isinstance(detail, ResearchPlan):
            await publish_plan(self._services, slack=slack, post=post, plan=detail)
            ready = _("Revision {revision} is ready in the plan message.", revision=detail.revision)
            await self._close_progress(slack, run, post, ready)
            if post.draft_plan_id is None:
                await self._tell_ended(run, post, None)
        elif isinstance(detail, StaleRevision) and post.draft_plan_id:
            await self._reload_latest(slack, run, post)
        else:
            await self._refused(slack, run, post, detail)

    async def post_lost(self, run: TrackedRun, reads: int) -> None:
        """Not reached in practice (``observe`` answers a 404 itself), but a lost preparation is said plainly."""
        post = await self._post_for(run)
        if post is not None:
            slack = await self._services.slack.client_for(run.team_id)
            lost = _n(
                "Minds no longer finds this plan ({count} read in a row).",
                "Minds no longer finds this plan ({count} reads in a row).",
                reads,
            )
            await self._refused(slack, run, post, lost)

    async def _close_progress(self, slack: PacedWebClient, run: TrackedRun, post: PlanPost, text: str) -> None:
        if run.progress_ts and run.progress_ts != post.message_ts:
            await slack.edit_progress(channel=run.channel_id, ts=run.progress_ts, text=text, blocks=[])

    async def _reload_latest(self, slack: PacedWebClient, run: TrackedRun, post: PlanPost) -> None:
        """409: someone else revised first. Show the latest saved revision and say the change was not applied."""
        minds = await self._services.minds.client_for(post.team_id)
        request = PlanPreviewRequest(draft_plan_id=post.draft_plan_id, load_latest=True)
        key = str(uuid.uuid4())
        latest = await minds.preview_plan(post.study_id, request, idempotency_key=key, wait_seconds=RELOAD_WAIT_SECONDS)
        if isinstance(latest, PlanPending):
            receipt = PreviewReceipt(request_id=latest.request_id, operation_id=latest.operation_id, body=latest.body)
            saved = await self._services.store.save_plan_post(
                post.model_copy(update={"preview_idempotency_key": key, "pending_receipt": receipt})
            )
            await _track(self._services, saved, progress_ts=None)
            return
        note = _(
            "This plan changed before your edit reached Minds, so your edit was not applied. This is the latest "
            "revision ({revision}); make the change again if it still matters.",
            revision=latest.revision,
        )
        await publish_plan(self._services, slack=slack, post=post, plan=latest, note=note)
        reloaded = _("Reloaded the latest revision ({revision}).", revision=latest.revision)
        await self._close_progress(slack, run, post, reloaded)

    async def _refused(self, slack: AsyncWebClient, run: TrackedRun, post: PlanPost, error: Any) -> None:
        reason = user_message(error) if isinstance(error, BaseException) else str(error or _("no reason given"))
        if post.draft_plan_id is None:
            message = render_plan_failed(post.study_name, reason)
            await slack.chat_update(channel=post.channel_id, ts=post.message_ts, **message.as_kwargs())
            state = PlanState.DISCARDED
        else:
            message = render_revision_refused(reason=reason, revision=post.revision)
            await slack.chat_postMessage(channel=post.channel_id, thread_ts=post.message_ts, **message.as_kwargs())
            state = PlanState.OPEN
        saved = await self._services.store.save_plan_post(
            post.model_copy(update={"state": state, "pending_receipt": None})
        )
        self._services.home_changed(saved)
        if post.draft_plan_id is None:
            await self._tell_ended(run, post, reason)
