"""Planning research in a channel: draft a plan, revise it with answers or refinements, publish each revision
in place, discard it.

Owns: finding the Study a user named, the plan message's lifecycle in the store (``PlanPost``: preparing →
open → approved/discarded), refusing answers and revisions from people who may not approve the plan
(the gate: ``flows/access.py``), choosing and saving each preview's ``Idempotency-Key`` and exact body *before* the
first attempt, and ``PlanPreparation``, the ``RunHandler`` for ``RunKind.PLAN``: the run tracker replays
the identical preview POST (same body, same key, the 202 receipt's ids as headers) until the 200 arrives, so
preparation survives restarts and is never re-submitted under a new key (CATALOGUE §2 G.69, H.78). A 409 on
a revision reloads the latest revision and says so. Reading the open revision back from Minds (``load_revision``)
for decisions that must not trust a Slack payload: answering every confirmation question in one dialog, and
asking for a revision that uses a method's fallback (named by Minds' catalogue, reviewed before any run —
never substituted silently, CATALOGUE §2 E.43). Who answers each revision and what the post remembers between
revisions live in ``flows/plan_memory.py``. A workflow step that started a plan hears when it is published
or refused (``PlanPreparation.ended``).
Must not touch: Block Kit (``render/plan*.py``), SQL, approval (``flows/research.py``).
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from minds_bot.flows import access
from minds_bot.flows.methods import method_catalogue
from minds_bot.flows.model_connections import plan_connections
from minds_bot.flows.plan_memory import plan_context, remembered, unlisted_audiences, with_answerer
from minds_bot.flows.tracking import Observation
from minds_bot.i18n import N_, _, _n, in_channel, join_list
from minds_bot.minds import (
    MindsClient,
    MindsError,
    MindsTransportError,
    PlanPending,
    PlanPreviewRequest,
    RateLimited,
    ResearchPlan,
    ServerError,
    StaleRevision,
    Study,
    StudyDetail,
)
from minds_bot.render.access import plan_change_refused
from minds_bot.render.common import lookup_explanation
from minds_bot.render.errors import user_message
from minds_bot.render.plan import (
    PlanTooLarge,
    discarded_note,
    freeze,
    questionnaire_markdown,
    render_plan,
    render_plan_failed,
    render_preparing,
    render_revision_refused,
)
from minds_bot.render.plan_gate import PlanContext
from minds_bot.store import (
    PlanPost,
    PlanState,
    PreviewReceipt,
    RunKind,
    TrackedRun,
)

if TYPE_CHECKING:
    from slack_sdk.web.async_client import AsyncWebClient

    from minds_bot.services import PacedWebClient, Services

log = logging.getLogger(__name__)

RELOAD_WAIT_SECONDS = 20.0
MAX_CANDIDATES_NAMED = 5
NOT_DISCARDABLE = {
    PlanState.PREPARING: N_("This plan is preparing; it cannot be discarded now."),
    PlanState.OPEN: N_("This plan is open; it cannot be discarded now."),
    PlanState.APPROVED: N_("This plan is approved; it cannot be discarded now."),
    PlanState.DISCARDED: N_("This plan is discarded; it cannot be discarded now."),
    PlanState.RUNNING: N_("This plan is running; it cannot be discarded now."),
}


class StudyNotFound(MindsError):
    """The Study a user named could not be told apart (not found, or several close matches)."""


@dataclass(frozen=True)
class Refused:
    """The action was not done; ``reason`` is what to tell the person who asked, as mrkdwn (input escaped)."""

    reason: str


# --- Studies and context -------------------------------------------------------------------------------------


async def resolve_study(minds: MindsClient, text: str) -> Study | StudyDetail:
    """An exact id, an exact or single fuzzy name among the newest 1,000; otherwise ``StudyNotFound``."""
    result = await minds.find_study(text)
    if result.match is not None:
        return result.match
    if result.kind == "ambiguous":
        names = join_list(_("“{name}”", name=c.item.name) for c in result.candidates[:MAX_CANDIDATES_NAMED])
        raise StudyNotFound(
            _("Several Studies match “{text}”: {names}. Use the exact name or the Study id.", text=text, names=names)
        )
    raise StudyNotFound(lookup_explanation(result) or _("No Study matches “{text}”.", text=text))


# --- starting and revising -----------------------------------------------------------------------------------


async def start_plan(
    services: Services,
    *,
    slack: AsyncWebClient,
    team_id: str,
    channel_id: str,
    user_id: str,
    study: Study | StudyDetail,
    request: str,
    language: str | None,
    preview_key: str | None = None,
    attachments: list[dict[str, str]] | None = None,
) -> PlanPost:
    """Post "Preparing the plan…", save the post with the preview key (``preview_key``, else a new one) and body,
    and hand it to the tracker. ``attachments``: the concept to test (``flows/stimulus.py``), sent with the
    request; Minds assigns it to the questions that show it."""
    with in_channel():  # the plan message is the channel's
        preparing = render_preparing(study.name)
    posted = await slack.chat_postMessage(channel=channel_id, **preparing.as_kwargs())
    body = PlanPreviewRequest(request=request, study_locale=language, attachments=attachments or None)
    post = PlanPost(
        team_id=team_id,
        channel_id=channel_id,
        message_ts=str(posted["ts"]),
        study_id=study.id,
        study_name=study.name,
        requester_id=user_id,
        state=PlanState.PREPARING,
        preview_idempotency_key=preview_key or str(uuid.uuid4()),
        pending_receipt=PreviewReceipt(body=body.to_body().decode()),
    )
    post = await services.store.save_plan_post(post)
    services.home_changed(post)
    await _track(services, post, progress_ts=post.message_ts)
    return post


async def revise_plan(
    services: Services,
    *,
    slack: AsyncWebClient,
    post: PlanPost | None,
    user_id: str,
    revision: int,
    answers: dict[str, str] | None = None,
    refinement: str | None = None,
) -> Refused | None:
    """Ask Minds for the next revision (answers or a refinement) of the revision the person saw; only people who
    may approve the plan may change it."""
    if post is None:
        return Refused(_("This plan is no longer tracked by the bot."))
    refused = await refusal_for_changes(services, slack, post=post, user_id=user_id)
    if refused is not None:
        return refused
    refused = _check_open(post, revision)
    if refused is not None:
        return refused
    moved = await services.store.transition_plan_post(
        team_id=post.team_id,
        channel_id=post.channel_id,
        message_ts=post.message_ts,
        expected={PlanState.OPEN},
        new=PlanState.PREPARING,
    )
    if moved is None:
        return Refused(_("Someone else changed this plan a moment ago; wait for the new revision to appear."))
    body = PlanPreviewRequest(
        draft_plan_id=post.draft_plan_id, revision=revision, answers=answers, refinement=refinement
    )
    saved = await services.store.save_plan_post(
        moved.model_copy(
            update={
                "preview_idempotency_key": str(uuid.uuid4()),
                "pending_receipt": PreviewReceipt(body=body.to_body().decode()),
                "memory": with_answerer(moved, answers, user_id),
            }
        )
    )
    services.home_changed(saved)
    await _track(services, saved, progress_ts=None)
    return None


async def refusal_for_changes(
    services: Services, slack: AsyncWebClient, *, post: PlanPost, user_id: str
) -> Refused | None:
    """None when the person may answer the plan's questions or revise it (the gate: its requester, the channel's
    approvers, an admin, while in its channel); otherwise what to tell them."""
    decision = await access.check(
        services, slack, team_id=post.team_id, user_id=user_id, act=access.Act.DECIDE, thing=access.plan_thing(post)
    )
    if decision.allowed:
        return None
    if decision.code == "not_allowed":
        return Refused(plan_change_refused(requester_id=post.requester_id))
    return Refused(decision.reason)


def _check_open(post: PlanPost, revision: int) -> Refused | None:
    if post.state == PlanState.PREPARING:
        return Refused(_("A new revision of this plan is being prepared; use the buttons once it appears."))
    if post.state in (PlanState.APPROVED, PlanState.RUNNING):
        return Refused(_("This plan was already approved; it can no longer be changed."))
    if post.state == PlanState.DISCARDED:
        return Refused(_("This plan was discarded."))
    if post.revision != revision:
        return Refused(
            _(
                "That button belongs to revision {revision}, but the plan is now at revision {current}. "
                "Nothing was changed: review the latest revision in the channel and use its buttons.",
                revision=revision,
                current=post.revision,
            )
        )
    return None


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


# Sent to Minds as the refinement (Minds' planner reads it), never shown by the bot: not translated.
FALLBACK_REFINEMENT = 'Use the research method "{fallback}" instead of "{method}".'  # verbatim
LOAD_WAIT_SECONDS = 10.0


async def load_revision(services: Services, post: PlanPost) -> ResearchPlan | Refused:
    """The open revision as Minds returns it now (``loadLatest``); refused when Minds moved past it."""
    assert post.draft_plan_id is not None
    minds = await services.minds.client_for(post.team_id)
    request = PlanPreviewRequest(draft_plan_id=post.draft_plan_id, load_latest=True)
    latest = await minds.preview_plan(
        post.study_id, request, idempotency_key=str(uuid.uuid4()), wait_seconds=LOAD_WAIT_SECONDS
    )
    if isinstance(latest, PlanPending):
        return Refused(_("Minds is still preparing this plan; try again in a moment."))
    if latest.revision != post.revision:
        return Refused(
            _(
                "The plan changed in Minds (it is now at revision {revision}); nothing was done. "
                "Revise it here to show the latest revision.",
                revision=latest.revision,
            )
        )
    return latest


async def request_fallback(
    services: Services,
    *,
    slack: AsyncWebClient,
    post: PlanPost | None,
    user_id: str,
    revision: int,
    method_id: str,
) -> Refused | None:
    """Ask Minds for a revision that uses the catalogue's fallback for ``method_id``; it is reviewed like any
    other revision. The fallback comes from Minds' catalogue, never from the button; only people who may change
    the plan may ask."""
    if post is None:
        return Refused(_("This plan is no longer tracked by the bot."))
    refused = await refusal_for_changes(services, slack, post=post, user_id=user_id)
    if refused is not None:
        return refused
    facts = (await method_catalogue(services, post.team_id)).get(method_id)
    fallback_id = facts.fallback_method_id if facts is not None and not facts.executable else None
    if fallback_id is None:
        return Refused(_("Minds' method catalogue offers no fallback for that method; use Revise… instead."))
    refinement = FALLBACK_REFINEMENT.format(fallback=fallback_id, method=method_id)
    return await revise_plan(
        services, slack=slack, post=post, user_id=user_id, revision=revision, refinement=refinement
    )


async def plan_to_answer(
    services: Services, *, slack: AsyncWebClient, post: PlanPost | None, user_id: str, revision: int
) -> ResearchPlan | Refused:
    """The open revision's questions for the answer dialog, as Minds returns them now; refused to people who may
    not change the plan."""
    if post is None:
        return Refused(_("This plan is no longer tracked by the bot."))
    refused = await refusal_for_changes(services, slack, post=post, user_id=user_id)
    return refused or _check_open(post, revision) or await load_revision(services, post)


async def answer_all(
    services: Services,
    *,
    slack: AsyncWebClient,
    post: PlanPost | None,
    user_id: str,
    revision: int,
    picks: dict[int, str],
) -> Refused | None:
    """Answers from the one dialog with every confirmation question: ``picks`` maps a question's position to
    the chosen option's position (as text) or the typed answer, matched against the plan Minds returns now."""
    if post is None:
        return Refused(_("This plan is no longer tracked by the bot."))
    refused = await refusal_for_changes(services, slack, post=post, user_id=user_id) or _check_open(post, revision)
    if refused is not None:
        return refused
    plan = await load_revision(services, post)
    if isinstance(plan, Refused):
        return plan
    answers = _answers_from(plan, picks)
    if answers is None:
        return Refused(_("Some answers did not match Minds' questions; open the dialog again and answer every one."))
    return await revise_plan(services, slack=slack, post=post, user_id=user_id, revision=revision, answers=answers)


def _answers_from(plan: ResearchPlan, picks: dict[int, str]) -> dict[str, str] | None:
    answers: dict[str, str] = {}
    for index, question in enumerate(plan.confirmation_questions):
        pick = picks.get(index, "").strip()
        if question.options:
            position = int(pick) if pick.isdigit() else -1
            if not 0 <= position < len(question.options):
                return None
            pick = question.options[position]
        if not pick:
            return None
        answers[question.id] = pick
    return answers


async def discard_plan(
    services: Services, *, slack: AsyncWebClient, post: PlanPost, user_id: str, blocks: list[dict[str, Any]]
) -> Refused | None:
    """Close an open plan (it stays a draft in Minds); the message keeps the plan without buttons."""
    moved = await services.store.transition_plan_post(
        team_id=post.team_id,
        channel_id=post.channel_id,
        message_ts=post.message_ts,
        expected={PlanState.OPEN},
        new=PlanState.DISCARDED,
    )
    if moved is None:
        return Refused(_(NOT_DISCARDABLE[post.state]))
    services.home_changed(moved)
    with in_channel():  # the plan message is the channel's
        frozen = freeze(blocks, discarded_note(user_id=user_id, revision=post.revision))
    await slack.chat_update(channel=post.channel_id, ts=post.message_ts, **frozen.as_kwargs())
    return None


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
            except Exception:  # noqa: BLE001 - the plan message already says it; showing it again would not help
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
