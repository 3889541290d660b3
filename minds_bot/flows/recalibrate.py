"""Recalibrating an Audience (owner only), followed in a channel thread until every member is ready.

Owns: ``may_recalibrate`` (the Slack person acts for the Minds account — a workspace admin/owner or the installer —
and Minds reports the account as the Audience's owner; both read on the server, never from a payload),
``start_recalibration`` (research mode — instruction or replacing query, one distribution to add, extra links and
keywords — or selection mode's distributions; the request in the channel, "Calibrating…" in its thread, the one POST
— never retried, it has no idempotency key — and Minds' counts of changed members) and ``RecalibrationHandler`` for
the run tracker: GETs only (``calibration.active``, then build progress) until the members are ready. A refusal says
nothing changed; an unanswered POST says it may have started, never that it failed or worked.
Must not touch: Block Kit (``render/recalibrate.py``) or SQL.
"""

from __future__ import annotations

from dataclasses import dataclass

from slack_sdk.web.async_client import AsyncWebClient

from minds_bot.flows.access import may_manage_workspace
from minds_bot.flows.tracking import Observation, progress_line, say_in_thread
from minds_bot.i18n import in_channel
from minds_bot.minds import (
    AudienceDetail,
    AudienceProgress,
    Conflict,
    GroundingDistribution,
    InvalidRequest,
    MindsError,
    NotFound,
    PermissionDenied,
)
from minds_bot.render import Message
from minds_bot.render.errors import user_message
from minds_bot.render.recalibrate import (
    render_calibrating,
    render_recalibrated,
    render_recalibration_done,
    render_recalibration_failed,
    render_recalibration_progress,
    render_recalibration_request,
    render_recalibration_unconfirmed,
    render_shared_members_refused,
)
from minds_bot.render.run_status import lost_text
from minds_bot.services import Services
from minds_bot.store import RunKind, TrackedRun

REFUSED = (Conflict, InvalidRequest, PermissionDenied, NotFound)  # Minds answered: nothing was changed


async def may_recalibrate(
    services: Services, slack: AsyncWebClient, *, team_id: str, user_id: str, audience: AudienceDetail
) -> bool:
    """The person acts for the Minds account in Slack, and Minds says that account owns the Audience."""
    if not audience.is_owner:
        return False
    return await may_manage_workspace(services, slack, team_id=team_id, user_id=user_id)


@dataclass(frozen=True)
class RecalibrationRequest:
    team_id: str
    channel_id: str
    user_id: str
    audience: AudienceDetail
    instruction: str | None
    key: str  # the Slack submission's derived key: names the tracked run
    requested_distribution: str | None = None  # one distribution Minds adds (the OpenAPI's research mode)
    allow_shared_minds: bool = False  # consent to rewrite members other Audiences share
    query: str | None = None  # research mode: replaces the brief for this recalibration
    links: tuple[str, ...] = ()  # research mode: extra sources Minds keeps with the Audience
    keywords: tuple[str, ...] = ()
    # Selection mode when not None (even empty): the complete active set, from the Audience's review universe.
    distributions: tuple[GroundingDistribution, ...] | None = None


async def start_recalibration(services: Services, slack: AsyncWebClient, request: RecalibrationRequest) -> None:
    """Post the request and "Calibrating…", send the one POST, then follow the members until ready — all in the
    channel's language."""
    with in_channel():
        await _start(services, slack, request)


async def _start(services: Services, slack: AsyncWebClient, request: RecalibrationRequest) -> None:
    audience = request.audience
    parent = render_recalibration_request(
        user_id=request.user_id,
        audience_name=audience.name,
        instruction=request.instruction,
        query=request.query,
        selection=request.distributions is not None,
    )
    thread_ts = (await slack.chat_postMessage(channel=request.channel_id, **parent.as_kwargs()))["ts"]
    progress = await slack.chat_postMessage(
        channel=request.channel_id, thread_ts=thread_ts, **render_calibrating().as_kwargs()
    )
    minds = await services.minds.client_for(request.team_id)
    try:
        result = await minds.recalibrate_audience(
            audience.id,
            instruction=request.instruction,
            requested_distribution=request.requested_distribution,
            allow_shared_minds=request.allow_shared_minds or None,
            query=request.query,
            links=request.links,
            keywords=request.keywords,
            distributions=request.distributions,
        )
    except MindsError as exc:
        reason = user_message(exc)
        failed = _shared_refusal(exc) or (
            render_recalibration_failed(reason)
            if isinstance(exc, REFUSED)
            else render_recalibration_unconfirmed(reason, audience_name=audience.name)
        )
        await slack.chat_update(channel=request.channel_id, ts=progress["ts"], **failed.as_kwargs())
        return
    summary = render_recalibrated(result)
    await slack.chat_postMessage(channel=request.channel_id, thread_ts=thread_ts, text=summary)
    await services.tracker.track(
        TrackedRun(
            team_id=request.team_id,
            run_id=request.key,
            study_id=audience.id,
            kind=RunKind.RECALIBRATION,
            channel_id=request.channel_id,
            thread_ts=thread_ts,
            progress_ts=progress["ts"],
            last_state="calibrating",
            next_poll_at=services.clock(),
        )
    )


def _shared_refusal(exc: MindsError) -> Message | None:
    """Minds refused because members are shared with other Audiences (409 ``AUDIENCE_MINDS_SHARED``)."""
    if not isinstance(exc, Conflict) or exc.code != "AUDIENCE_MINDS_SHARED":
        return None
    shared = exc.data.get("sharedMinds")
    names = [str(m.get("mindName")) for m in shared if isinstance(m, dict)] if isinstance(shared, list) else []
    return render_shared_members_refused(names)


@dataclass(frozen=True)
class AudienceState:
    calibrating: bool
    progress: AudienceProgress


class RecalibrationHandler:
    """How the run tracker follows a recalibration: calibrating → retraining → ready."""

    def __init__(self, services: Services) -> None:
        self._services = services

    async def observe(self, run: TrackedRun) -> Observation:
        minds = await self._services.minds.client_for(run.team_id)
        audience = await minds.get_audience(run.study_id)
        progress = await minds.audience_progress(run.study_id)
        calibrating = bool(audience.calibration and audience.calibration.active)
        state = AudienceState(calibrating=calibrating, progress=progress)
        if calibrating:
            return Observation(visible="calibrating", terminal=False, detail=state)
        if progress.in_progress:
            return Observation(visible=f"retraining:{progress.building}", terminal=False, detail=state)
        return Observation(visible="ready", terminal=True, detail=state)

    async def show_progress(self, run: TrackedRun, observation: Observation) -> str | None:
        state: AudienceState = observation.detail
        slack = await self._services.slack.client_for(run.team_id)
        message = render_recalibration_progress(
            calibrating=state.calibrating, retraining=state.progress.building, total=state.progress.total
        )
        return await progress_line(slack, run, **message.as_kwargs())

    async def post_terminal(self, run: TrackedRun, observation: Observation) -> None:
        slack = await self._services.slack.client_for(run.team_id)
        await progress_line(slack, run, **render_recalibration_done().as_kwargs())

    async def post_lost(self, run: TrackedRun, reads: int) -> None:
        slack = await self._services.slack.client_for(run.team_id)
        await say_in_thread(slack, run, lost_text("recalibration", reads=reads))
