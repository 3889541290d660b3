"""An Audience built from a brief, followed in a thread: the request line in the channel, a progress line in its
thread (queued → processing → ready) edited only when the state changes, then the Audience or Minds' reason.

Owns: starting the job after the account's limits were read (a per-Audience cap of 0 is a workspace lock:
nothing is created), the Idempotency-Key derived from the Slack request (a redelivery reuses it, so Minds builds
and charges one Audience), and the ``RunHandler`` for ``RunKind.AUDIENCE`` — the run tracker polls the job
(never resubmitting) and survives restarts, so a long build is never lost.
Must not touch: Minds wire shapes or SQL.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from minds_bot.flows.keys import derived_key
from minds_bot.flows.tracking import Observation
from minds_bot.minds import AudienceJobFailed, FromBriefJob, FromBriefResult, ImportedSource, MindsError
from minds_bot.render.errors import user_message
from minds_bot.render.jobs import (
    render_audience_failed,
    render_audience_locked,
    render_audience_progress,
    render_audience_ready,
    render_audience_request,
)
from minds_bot.store import RunKind, TrackedRun

if TYPE_CHECKING:
    from minds_bot.flows.invocation import Invocation
    from minds_bot.services import Services

FAILED = "failed"


async def start_audience(invocation: Invocation, *, brief: str, files: Sequence[ImportedSource] | None = None) -> None:
    """Read the limits, start (or replay) the job, post the request and its progress, and follow it.
    ``files``: imported sources (``flows/source_import.py``), passed to Minds exactly as it returned them."""
    services = invocation.services
    minds = await invocation.minds()
    limits = await minds.audience_limits()
    if limits.locked:
        await invocation.reply(render_audience_locked())
        return
    key = derived_key(purpose="audience", team_id=invocation.team_id, trigger_id=invocation.trigger_id)
    created = await minds.create_audience_from_brief(text=brief, idempotency_key=key, files=files)
    slack = invocation.client
    request = render_audience_request(user_id=invocation.user_id, brief=brief)
    parent = await slack.chat_postMessage(channel=invocation.channel_id, **request.as_kwargs())
    thread_ts = parent["ts"]
    if isinstance(created, FromBriefResult):  # a replay of a finished build
        ready = render_audience_ready(created, limits=limits)
        await slack.chat_postMessage(channel=invocation.channel_id, thread_ts=thread_ts, **ready.as_kwargs())
        return
    progress = render_audience_progress(created, limits=limits)
    posted = await slack.chat_postMessage(channel=invocation.channel_id, thread_ts=thread_ts, **progress.as_kwargs())
    await services.tracker.track(
        TrackedRun(
            team_id=invocation.team_id,
            run_id=created.job_id,
            study_id="",
            kind=RunKind.AUDIENCE,
            client_request_id=key,
            channel_id=invocation.channel_id,
            thread_ts=thread_ts,
            progress_ts=posted["ts"],
            last_state=created.status,
            next_poll_at=services.clock(),
        )
    )


class AudienceJobHandler:
    """How the run tracker reads an Audience build and shows it in its thread."""

    def __init__(self, services: Services) -> None:
        self._services = services

    async def observe(self, run: TrackedRun) -> Observation:
        minds = await self._services.minds.client_for(run.team_id)
        try:
            job = await minds.get_audience_job(run.run_id)
        except AudienceJobFailed as exc:
            return Observation(visible=FAILED, terminal=True, detail=exc)
        return Observation(visible=job.status, terminal=job.status == "completed", detail=job)

    async def show_progress(self, run: TrackedRun, observation: Observation) -> str | None:
        job: FromBriefJob = observation.detail
        slack = await self._services.slack.client_for(run.team_id)
        message = render_audience_progress(job)
        if run.progress_ts:
            await slack.chat_update(channel=run.channel_id, ts=run.progress_ts, **message.as_kwargs())
            return run.progress_ts
        posted = await slack.chat_postMessage(channel=run.channel_id, thread_ts=run.thread_ts, **message.as_kwargs())
        return str(posted["ts"])

    async def post_terminal(self, run: TrackedRun, observation: Observation) -> None:
        slack = await self._services.slack.client_for(run.team_id)
        detail = observation.detail
        if isinstance(detail, MindsError):
            message = render_audience_failed(user_message(detail))
        else:
            job: FromBriefJob = detail
            assert job.result is not None  # the model refuses a completed job without its Audience
            message = render_audience_ready(job.result)
        if run.progress_ts:
            await slack.chat_update(channel=run.channel_id, ts=run.progress_ts, **message.as_kwargs())
        else:
            await slack.chat_postMessage(channel=run.channel_id, thread_ts=run.thread_ts, **message.as_kwargs())


def register_handler(services: Services) -> None:
    services.run_handlers[RunKind.AUDIENCE] = AudienceJobHandler(services)
