"""Study drafts (``/study-drafts``): saving an open plan, listing, resuming in a channel, deleting, and
consuming the draft once its plan is launched — each decided by the gate (``flows/access.py``).

Owns: the draft's payload (what the bot needs to reopen the plan and who it belongs to: Study, Minds draft plan
id, revision, the workspace, channel and requester of the plan, and who saved it), the save key (team + draft
plan + revision: saving the same revision twice gives the same draft), Resume (a new plan message that asks
Minds for the latest revision of that draft plan — the same preview flow and tracker as a new plan, nothing
re-planned), Delete (only a draft still listed as active; Minds must answer with an empty reply), and
consume-on-launch (when the approved plan message carries the "saved as draft" note, every active draft of that
draft plan is consumed with its revision; a failure there is logged, never undoes the run).
Who may (``access.draft_thing``): Save — who may decide on the plan (its requester, the channel's approvers, an
admin, in its channel). A draft with a channel is that channel's: listed only to its members, resumed or deleted
only by its requester, the channel's approvers or an admin while in it, and resumed in that channel, requested by
its requester. A draft the bot saved before drafts recorded their channel is its saver's: listed to them and to
admins, resumed or deleted by them (resumed in the channel where Resume was pressed, if they and the bot are in
it). A draft made elsewhere in Minds belongs to no channel: listed to everyone (Delete only), deleted only by a
workspace admin. A refusal is the gate's words; nothing is sent to Minds but the read of the drafts list, and
nothing is posted.
Must not touch: Block Kit (``render/drafts.py``), SQL, deciding membership or who may decide itself.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from minds_bot.flows import access
from minds_bot.i18n import _, in_channel
from minds_bot.minds import MindsError, PlanPreviewRequest, StudyDraft
from minds_bot.render import Message
from minds_bot.render.drafts import (
    BOT_SOURCE,
    render_draft_deleted,
    render_draft_gone,
    render_draft_not_open,
    render_draft_resumed,
    render_draft_saved,
    render_resuming,
    resumable,
)
from minds_bot.render.plan import render_preparing
from minds_bot.store import PlanPost, PlanState, PreviewReceipt, RunKind, TrackedRun

if TYPE_CHECKING:
    from slack_sdk.web.async_client import AsyncWebClient

    from minds_bot.services import Services

log = logging.getLogger(__name__)
DRAFT_KEYS = uuid.UUID("6d1c1f0e-3a52-4a43-9a55-2f1d5e0b7a14")


@dataclass(frozen=True)
class SaveOutcome:
    message: Message
    saved: bool


async def save_draft(services: Services, slack: AsyncWebClient, *, post: PlanPost | None, user_id: str) -> SaveOutcome:
    if post is None or post.state is not PlanState.OPEN or not post.draft_plan_id or post.revision is None:
        return SaveOutcome(render_draft_not_open(), saved=False)
    decided = await access.check(
        services,
        slack,
        team_id=post.team_id,
        user_id=user_id,
        act=access.Act.DECIDE,
        channel_id=post.channel_id,
        thing=access.plan_thing(post),
    )
    if decided.refused:
        return SaveOutcome(Message(text=decided.reason), saved=False)
    state = {
        "source": BOT_SOURCE,
        "studyId": post.study_id,
        "studyName": post.study_name,
        "draftPlanId": post.draft_plan_id,
        "revision": post.revision,
        "savedBy": user_id,
        "teamId": post.team_id,
        "channelId": post.channel_id,
        "requesterId": post.requester_id,
    }
    key = str(uuid.uuid5(DRAFT_KEYS, f"{post.team_id}\n{post.draft_plan_id}\n{post.revision}"))
    minds = await services.minds.client_for(post.team_id)
    with in_channel():  # the draft is the team's: named in the workspace's language, so its key names one body
        name = _("{study}: plan revision {revision}", study=post.study_name, revision=post.revision)
    draft = await minds.create_study_draft(name=name, state=state, idempotency_key=key)
    return SaveOutcome(render_draft_saved(draft), saved=True)


def _state(draft: StudyDraft) -> dict[str, object]:
    return dict(draft.payload.state) if draft.payload else {}


async def _active(services: Services, team_id: str, draft_id: str) -> StudyDraft | None:
    minds = await services.minds.client_for(team_id)
    return next((d for d in await minds.list_study_drafts() if d.id == draft_id), None)


@dataclass(frozen=True)
class DraftList:
    """What ``/minds drafts`` shows a person: the active drafts they may see (with each one's channel, if it has
    one), and how many others there are, never named."""

    shown: list[StudyDraft]
    channels: dict[str, str] = field(default_factory=dict)  # draft id → its channel
    in_other_channels: int = 0  # drafts of channels the person is not in
    older_of_others: int = 0  # drafts saved by someone else before drafts recorded their channel


async def drafts_for(
    services: Services, slack: AsyncWebClient, *, team_id: str, user_id: str, drafts: Sequence[StudyDraft]
) -> DraftList:
    """Of ``drafts``, the active ones the person may see: those of channels they are in now (the gate's SEE),
    those made elsewhere in Minds, and older ones the bot saved before drafts recorded their channel only if they
    may decide on them (their saver or an admin). Drafts of another workspace are left out, uncounted."""
    shown: list[StudyDraft] = []
    channels: dict[str, str] = {}
    elsewhere = older = 0
    decided: dict[tuple[access.Thing, access.Act], access.Decision] = {}
    for draft in (d for d in drafts if d.status in ("draft", "starting")):
        thing = access.draft_thing(team_id, _state(draft))
        older_one = resumable(draft) and thing.channel_id is None
        act = access.Act.DECIDE if older_one else access.Act.SEE
        if (thing, act) not in decided:
            decided[thing, act] = await access.check(
                services, slack, team_id=team_id, user_id=user_id, act=act, thing=thing
            )
        decision = decided[thing, act]
        if decision.allowed:
            shown.append(draft)
            if thing.channel_id:
                channels[draft.id] = thing.channel_id
        elif decision.code == "other_workspace":
            continue
        elif older_one:
            older += 1
        else:
            elsewhere += 1
    return DraftList(shown=shown, channels=channels, in_other_channels=elsewhere, older_of_others=older)


async def _may_decide(
    services: Services, slack: AsyncWebClient, *, team_id: str, user_id: str, thing: access.Thing
) -> access.Decision:
    """Resume or delete: its requester, the channel's approvers or an admin, in its channel; a draft of no
    channel, its saver or an admin."""
    return await access.check(
        services,
        slack,
        team_id=team_id,
        user_id=user_id,
        act=access.Act.DECIDE,
        channel_id=thing.channel_id,
        thing=thing,
    )


async def delete_draft(
    services: Services, slack: AsyncWebClient, *, team_id: str, user_id: str, draft_id: str
) -> Message:
    draft = await _active(services, team_id, draft_id)
    if draft is None:
        return render_draft_gone()
    thing = access.draft_thing(team_id, _state(draft))
    decided = await _may_decide(services, slack, team_id=team_id, user_id=user_id, thing=thing)
    if decided.refused:
        return Message(text=decided.reason)
    minds = await services.minds.client_for(team_id)
    await minds.delete_study_draft(draft_id)
    return render_draft_deleted(draft.name)


async def resume_draft(
    services: Services, slack: AsyncWebClient, *, team_id: str, channel_id: str, user_id: str, draft_id: str
) -> Message:
    """Reopen the draft's plan in its own channel (a draft of no channel: in ``channel_id``, where Resume was
    pressed), requested by its requester; the private answer says where."""
    draft = await _active(services, team_id, draft_id)
    if draft is None or draft.status != "draft" or not resumable(draft) or draft.payload is None:
        return render_draft_gone()
    thing = access.draft_thing(team_id, _state(draft))
    decided = await _may_decide(services, slack, team_id=team_id, user_id=user_id, thing=thing)
    where = thing.channel_id or channel_id
    if decided.allowed:
        decided = await access.check(
            services, slack, team_id=team_id, user_id=user_id, act=access.Act.POST, channel_id=where, thing=thing
        )
    if decided.refused:
        return Message(text=decided.reason)
    requester = thing.owner_id or user_id
    await _reopen(services, slack, draft=draft, team_id=team_id, channel_id=where, requester_id=requester, by=user_id)
    return render_draft_resumed(draft.name, channel_id=where, requester_id=requester)


async def _reopen(
    services: Services,
    slack: AsyncWebClient,
    *,
    draft: StudyDraft,
    team_id: str,
    channel_id: str,
    requester_id: str,
    by: str,
) -> None:
    """A new plan message in ``channel_id`` that asks Minds for the draft plan's latest revision."""
    state = _state(draft)
    study_name = str(state.get("studyName") or state["studyId"])
    with in_channel():  # the plan message is the channel's
        preparing = render_resuming(render_preparing(study_name), resumed_by=by)
    posted = await slack.chat_postMessage(channel=channel_id, **preparing.as_kwargs())
    body = PlanPreviewRequest(draft_plan_id=str(state["draftPlanId"]), load_latest=True)
    post = await services.store.save_plan_post(
        PlanPost(
            team_id=team_id,
            channel_id=channel_id,
            message_ts=str(posted["ts"]),
            study_id=str(state["studyId"]),
            study_name=study_name,
            requester_id=requester_id,
            state=PlanState.PREPARING,
            preview_idempotency_key=str(uuid.uuid4()),
            pending_receipt=PreviewReceipt(body=body.to_body().decode()),
        )
    )
    services.home_changed(post)
    await services.tracker.track(
        TrackedRun(
            team_id=team_id,
            run_id=post.preview_idempotency_key,
            study_id=post.study_id,
            kind=RunKind.PLAN,
            client_request_id=post.preview_idempotency_key,
            channel_id=channel_id,
            thread_ts=post.message_ts,
            progress_ts=post.message_ts,
            next_poll_at=services.clock(),
        )
    )


async def consume_launched(services: Services, *, post: PlanPost) -> int:
    """After a run started for ``post``'s draft plan: consume every active draft saved from it."""
    minds = await services.minds.client_for(post.team_id)
    consumed = 0
    try:
        for draft in await minds.list_study_drafts():
            state = draft.payload.state if draft.payload else {}
            if resumable(draft) and state.get("draftPlanId") == post.draft_plan_id:
                await minds.consume_study_draft(draft.id, expected_revision=draft.revision, study_id=post.study_id)
                consumed += 1
    except MindsError:
        log.exception("consuming the launched plan's drafts failed", extra={"fields": {"plan": post.draft_plan_id}})
    return consumed
