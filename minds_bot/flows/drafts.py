"""Study drafts (``/study-drafts``): saving an open plan, listing, resuming in a channel, deleting, and
consuming the draft once its plan is launched.

Owns: the draft's payload (what the bot needs to reopen the plan: Study, Minds draft plan id, revision), the
save key (team + draft plan + revision: saving the same revision twice gives the same draft), Resume (a new plan
message that asks Minds for the latest revision of that draft plan — the same preview flow and tracker as a new
plan, nothing re-planned), Delete (only a draft still listed as active; Minds must answer with an empty reply),
and consume-on-launch (when the approved plan message carries the "saved as draft" note, every active draft of
that draft plan is consumed with its revision; a failure there is logged, never undoes the run).
Must not touch: Block Kit (``render/drafts.py``), SQL.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING

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


async def save_draft(services: Services, *, post: PlanPost | None, user_id: str) -> SaveOutcome:
    if post is None or post.state is not PlanState.OPEN or not post.draft_plan_id or post.revision is None:
        return SaveOutcome(render_draft_not_open(), saved=False)
    state = {
        "source": BOT_SOURCE,
        "studyId": post.study_id,
        "studyName": post.study_name,
        "draftPlanId": post.draft_plan_id,
        "revision": post.revision,
        "savedBy": user_id,
    }
    key = str(uuid.uuid5(DRAFT_KEYS, f"{post.team_id}\n{post.draft_plan_id}\n{post.revision}"))
    minds = await services.minds.client_for(post.team_id)
    with in_channel():  # the draft is the team's: named in the workspace's language, so its key names one body
        name = _("{study}: plan revision {revision}", study=post.study_name, revision=post.revision)
    draft = await minds.create_study_draft(name=name, state=state, idempotency_key=key)
    return SaveOutcome(render_draft_saved(draft), saved=True)


async def _active(services: Services, team_id: str, draft_id: str) -> StudyDraft | None:
    minds = await services.minds.client_for(team_id)
    return next((d for d in await minds.list_study_drafts() if d.id == draft_id), None)


async def delete_draft(services: Services, *, team_id: str, draft_id: str) -> Message:
    draft = await _active(services, team_id, draft_id)
    if draft is None:
        return render_draft_gone()
    minds = await services.minds.client_for(team_id)
    await minds.delete_study_draft(draft_id)
    return render_draft_deleted(draft.name)


async def resume_draft(
    services: Services, slack: AsyncWebClient, *, team_id: str, channel_id: str, user_id: str, draft_id: str
) -> Message:
    draft = await _active(services, team_id, draft_id)
    if draft is None or draft.status != "draft" or not resumable(draft) or draft.payload is None:
        return render_draft_gone()
    state = draft.payload.state
    study_name = str(state.get("studyName") or state["studyId"])
    with in_channel():  # the plan message is the channel's
        preparing = render_preparing(study_name)
    posted = await slack.chat_postMessage(channel=channel_id, **preparing.as_kwargs())
    body = PlanPreviewRequest(draft_plan_id=str(state["draftPlanId"]), load_latest=True)
    post = await services.store.save_plan_post(
        PlanPost(
            team_id=team_id,
            channel_id=channel_id,
            message_ts=str(posted["ts"]),
            study_id=str(state["studyId"]),
            study_name=study_name,
            requester_id=user_id,
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
    return render_draft_resumed(draft.name)


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
