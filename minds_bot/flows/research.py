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
``approval_resume``, the loop that finishes approvals a crash interrupted. Following the run that starts (its
``RunHandler``s for ``RunKind.RESEARCH`` and ``RunKind.CONSISTENCY``) is ``flows/research_run.py``'s, whose names
are importable from here.
Must not touch: Block Kit (``render/``), SQL, the preview lifecycle (``flows/planning.py``).
"""

from __future__ import annotations

import functools
import json
import logging
import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from minds_bot.flows import access
from minds_bot.flows.methods import method_catalogue
from minds_bot.flows.model_connections import NotPinned, cached_connections, pin_connection
from minds_bot.flows.planning import Refused, load_revision
from minds_bot.flows.research_run import ConsistencyFollowUp, ResearchRunHandler
from minds_bot.flows.spend import record_research, settle, their_work
from minds_bot.i18n import _, in_channel, sentences
from minds_bot.minds import (
    AuthenticationError,
    Conflict,
    InvalidRequest,
    MindsError,
    NotFound,
    PermissionDenied,
)
from minds_bot.render import mention
from minds_bot.render.errors import minds_said, user_message
from minds_bot.render.plan import approved_note, connection_label, freeze
from minds_bot.render.plan_gate import advanced_methods, approval_gate
from minds_bot.render.run_notice import with_notify_button
from minds_bot.render.runs import (
    render_approval_refused,
    render_unconfirmed,
)
from minds_bot.services.background import Resume
from minds_bot.store import PlanPost, PlanState, RunKind, TrackedRun

if TYPE_CHECKING:
    from slack_sdk.web.async_client import AsyncWebClient

    from minds_bot.services import Services

# The run handlers moved to research_run.py, still importable from here.
__all__ = ["ConsistencyFollowUp", "ResearchRunHandler"]

log = logging.getLogger(__name__)

# Minds' final word on a confirm: nothing started, and sending the same request again would not change that.
DEFINITIVE_REFUSALS = (PermissionDenied, Conflict, InvalidRequest, NotFound, AuthenticationError)


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
