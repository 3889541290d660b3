"""Question heatmaps from a result in Slack: read a finished analysis, or — after the requester confirmed the cost —
start one and follow it in the result's thread; export a website's heatmap as a ZIP into that thread
(the one heatmap Minds exports, catalogue rule 91).

Owns: ``show_heatmap`` (a finished analysis is posted in the thread; one under way is said so; none yet → the cost
prompt, privately), ``start_heatmap`` (through the channel's spend policy, ``flows/spend.py``; one POST, never
retried; then ``HeatmapHandler`` follows it with GETs through the run tracker), and ``export_heatmap`` (bounded
wait; an unfinished archive is said so). Must not touch: Block Kit (``render/heatmaps.py``) or SQL.

"""

from __future__ import annotations

import asyncio
import hashlib
import json
from dataclasses import asdict, dataclass
from pathlib import Path

from slack_sdk.web.async_client import AsyncWebClient

from minds_bot.flows.invocation import Invocation
from minds_bot.flows.spend import SpendRequest, consent, settle
from minds_bot.flows.tracking import Observation, progress_line, say_in_thread
from minds_bot.flows.uploads import upload_file
from minds_bot.i18n import N_, _, in_channel
from minds_bot.minds import DownloadedFile, Heatmap, MindsError
from minds_bot.render.errors import user_message
from minds_bot.render.heatmaps import (
    render_heatmap,
    render_heatmap_export_failed,
    render_heatmap_export_unfinished,
    render_heatmap_progress,
    render_heatmap_prompt,
)
from minds_bot.render.run_status import lost_text
from minds_bot.services import Services
from minds_bot.store import RunKind, TrackedRun

PREMIUM = "premium"  # what a heatmap's spend counts: Minds reports no number of responses or credits for it
EXPORTING = N_("Minds is preparing the heatmap archive…")
ATTACHED = N_("The heatmap archive is attached below.")


@dataclass(frozen=True)
class HeatmapTarget:
    """Which heatmap: the result's Study, message and asset, and the thread the result sits in."""

    study_id: str
    message_id: str
    asset_key: str
    thread_ts: str


async def show_heatmap(invocation: Invocation, target: HeatmapTarget) -> None:
    minds = await invocation.minds()
    heatmap = await minds.get_heatmap(target.study_id, target.message_id, asset_key=target.asset_key)
    if heatmap.status == "completed":
        await _post(invocation.client, invocation.channel_id, target.thread_ts, heatmap)
    elif heatmap.status in ("queued", "processing"):
        await invocation.reply(render_heatmap_progress(heatmap))
    else:
        prompt = render_heatmap_prompt(
            heatmap=heatmap,
            study_id=target.study_id,
            message_id=target.message_id,
            requester=invocation.user_id,
            thread_ts=target.thread_ts,
        )
        await invocation.reply(prompt)


async def start_heatmap(invocation: Invocation, target: HeatmapTarget, *, respondents: int | None = None) -> None:
    """The confirmed start, through the channel's spend policy (a Premium heatmap uses one response per Mind:
    ``respondents`` as Minds reported them on the prompt, else the spend says "premium"): a finished analysis is
    reused (Minds says so); otherwise follow it in the thread."""
    minds = await invocation.minds()
    request = SpendRequest(
        action="heatmap",
        subject=target.asset_key,  # the image or video the heatmap reads (its URL)
        command=json.dumps({**asdict(target), "respondents": respondents}),
        responses=respondents,
        cost=PREMIUM,
    )
    spend = await consent(invocation, request)
    if spend is None:
        return
    try:
        heatmap = await minds.start_heatmap(target.study_id, target.message_id, asset_key=target.asset_key)
    except MindsError as exc:
        await settle(invocation.services, spend, started=False, detail=type(exc).__name__)
        raise
    await settle(invocation.services, spend, started=True, detail=heatmap.status)
    if heatmap.finished:
        await _post(invocation.client, invocation.channel_id, target.thread_ts, heatmap)
        return
    slack = invocation.client
    with in_channel():  # followed in the result's thread
        progress = render_heatmap_progress(heatmap)
    posted = await slack.chat_postMessage(
        channel=invocation.channel_id, thread_ts=target.thread_ts, **progress.as_kwargs()
    )
    digest = hashlib.sha256(target.asset_key.encode()).hexdigest()[:16]
    services = invocation.services
    await services.tracker.track(
        TrackedRun(
            team_id=invocation.team_id,
            run_id=f"heatmap:{target.message_id}:{digest}",
            study_id=target.study_id,
            kind=RunKind.HEATMAP,
            client_request_id=target.asset_key,
            channel_id=invocation.channel_id,
            thread_ts=target.thread_ts,
            progress_ts=posted["ts"],
            last_state=heatmap.status,
            next_poll_at=services.clock(),
        )
    )


def held_heatmap(command: str) -> tuple[HeatmapTarget, int | None] | None:
    """The heatmap (and its responses) a held start saved in its spend; None for anything else."""
    try:
        saved = json.loads(command)
        respondents = saved.pop("respondents", None)
        return HeatmapTarget(**saved), respondents if isinstance(respondents, int) else None
    except (ValueError, TypeError, AttributeError):
        return None


async def export_heatmap(invocation: Invocation, target: HeatmapTarget) -> None:
    slack, channel = invocation.client, invocation.channel_id
    with in_channel():  # the export is said in the result's thread
        exporting = _(EXPORTING)
    progress = await slack.chat_postMessage(channel=channel, thread_ts=target.thread_ts, text=exporting)
    minds = await invocation.minds()
    try:
        outcome = await minds.export_heatmap(target.study_id, target.message_id)
    except MindsError as exc:
        with in_channel():
            failed = render_heatmap_export_failed(user_message(exc))
        await slack.chat_update(channel=channel, ts=progress["ts"], **failed.as_kwargs())
        return
    if not isinstance(outcome, DownloadedFile):
        with in_channel():
            unfinished = render_heatmap_export_unfinished()
        await slack.chat_update(channel=channel, ts=progress["ts"], **unfinished.as_kwargs())
        return
    path = Path(outcome.path)
    try:
        await upload_file(
            slack,
            path=path,
            filename=outcome.filename,
            title=outcome.filename,
            channel=channel,
            thread_ts=target.thread_ts,
        )
    finally:
        await asyncio.to_thread(path.unlink, missing_ok=True)
    with in_channel():
        attached = _(ATTACHED)
    await slack.chat_update(channel=channel, ts=progress["ts"], text=attached, blocks=[])


async def _post(slack: AsyncWebClient, channel_id: str, thread_ts: str, heatmap: Heatmap) -> None:
    with in_channel():  # the analysis is posted in the result's thread
        message = render_heatmap(heatmap)
    await slack.chat_postMessage(channel=channel_id, thread_ts=thread_ts, **message.as_kwargs())


class HeatmapHandler:
    """How the run tracker follows a heatmap analysis: GETs only, the analysis posted once when finished."""

    def __init__(self, services: Services) -> None:
        self._services = services

    async def observe(self, run: TrackedRun) -> Observation:
        minds = await self._services.minds.client_for(run.team_id)
        message_id = run.run_id.split(":")[1]
        heatmap = await minds.get_heatmap(run.study_id, message_id, asset_key=run.client_request_id or "")
        return Observation(visible=heatmap.status, terminal=heatmap.finished, detail=heatmap)

    async def show_progress(self, run: TrackedRun, observation: Observation) -> str | None:
        slack = await self._services.slack.client_for(run.team_id)
        return await progress_line(slack, run, **render_heatmap_progress(observation.detail).as_kwargs())

    async def post_terminal(self, run: TrackedRun, observation: Observation) -> None:
        slack = await self._services.slack.client_for(run.team_id)
        await progress_line(slack, run, **render_heatmap(observation.detail).as_kwargs())

    async def post_lost(self, run: TrackedRun, reads: int) -> None:
        slack = await self._services.slack.client_for(run.team_id)
        await say_in_thread(slack, run, lost_text("heatmap", reads=reads))
