"""Study exports delivered into Slack: start, follow, download, attach.

Owns: starting ``POST /studies/{id}/export`` and saving the ``ExportJob`` record, and ``ExportDelivery``,
the ``RunHandler`` for ``RunKind.EXPORT`` (the run tracker polls ``/export-status`` with backoff; a poll
never re-exports). When the file is ready it is streamed to a temporary file by the Minds client, uploaded
with ``files_upload_v2`` into the thread and the temporary file deleted. ``EXPORT_FAILED`` is said plainly.
Must not touch: Block Kit, SQL.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from minds_bot.flows.tracking import Observation
from minds_bot.minds import DownloadFailed, ExportFailed, ExportStatus
from minds_bot.minds import ExportJob as MindsExportJob
from minds_bot.render.exports import (
    download_failed,
    export_attached,
    export_failed,
    export_progress,
    export_requested,
)
from minds_bot.store import ExportJob as ExportRecord
from minds_bot.store import ExportState, RunKind, TrackedRun

if TYPE_CHECKING:
    from slack_sdk.web.async_client import AsyncWebClient

    from minds_bot.services import Services

log = logging.getLogger(__name__)


async def start_export(
    services: Services,
    *,
    slack: AsyncWebClient,
    team_id: str,
    study_id: str,
    channel_id: str,
    thread_ts: str | None,
    requested_by: str,
    kind: str,
    format: str,  # noqa: A002 - the wire name
    length: str | None = None,
    study_name: str | None = None,
) -> ExportRecord:
    """Start the export, then say so: in ``thread_ts``, or as a new channel message whose thread gets the file."""
    minds = await services.minds.client_for(team_id)
    job = await minds.start_export(study_id, kind=kind, format=format, length=length)  # type: ignore[arg-type]
    progress_ts = None
    if thread_ts is None:
        text = export_requested(study_name=study_name or study_id, kind=kind, format=format, user_id=requested_by)
        # Minds' name is escaped text; no preview of an address someone put in it either.
        posted = await slack.chat_postMessage(channel=channel_id, text=text, unfurl_links=False, unfurl_media=False)
        thread_ts = progress_ts = str(posted["ts"])
    record = ExportRecord(
        team_id=team_id,
        job_id=job.job_id,
        study_id=study_id,
        kind=job.kind,
        format=job.format,
        requested_by=requested_by,
        channel_id=channel_id,
        thread_ts=thread_ts,
    )
    await services.store.add_export(record)
    await services.tracker.track(
        TrackedRun(
            team_id=team_id,
            run_id=job.job_id,
            study_id=study_id,
            kind=RunKind.EXPORT,
            client_request_id=f"{job.kind}:{job.format}",
            channel_id=channel_id,
            thread_ts=thread_ts,
            progress_ts=progress_ts,
            next_poll_at=services.clock(),
        )
    )
    return record


REPORT_READY = "The export is ready: the file is attached below."


@dataclass(frozen=True)
class _Gone:
    """The export record is missing or already finished."""


class ExportDelivery:
    """``RunHandler`` for ``RunKind.EXPORT``."""

    def __init__(self, services: Services) -> None:
        self._services = services

    async def _record(self, run: TrackedRun) -> ExportRecord | None:
        record = await self._services.store.get_export(team_id=run.team_id, job_id=run.run_id)
        if record is None or record.state in (ExportState.FAILED, ExportState.DELIVERED):
            return None
        return record

    async def observe(self, run: TrackedRun) -> Observation:
        record = await self._record(run)
        if record is None:
            return Observation(visible="gone", terminal=True, detail=_Gone())
        minds = await self._services.minds.client_for(run.team_id)
        try:
            status = await minds.export_status(record.study_id, _job(record))
        except ExportFailed as exc:
            return Observation(visible="failed", terminal=True, detail=exc)
        if status.status == "completed":
            return Observation(visible="completed", terminal=True, detail=status)
        if status.status in ("queued", "processing") and record.state.value != status.status:
            await self._services.store.update_export(
                team_id=run.team_id, job_id=run.run_id, state=ExportState(status.status)
            )
        visible = export_progress(kind=record.kind, format=record.format, status=status)
        return Observation(visible=visible, terminal=False, detail=status)

    async def show_progress(self, run: TrackedRun, observation: Observation) -> str | None:
        slack = await self._services.slack.client_for(run.team_id)
        if run.progress_ts:
            await slack.chat_update(channel=run.channel_id, ts=run.progress_ts, text=observation.visible, blocks=[])
            return run.progress_ts
        posted = await slack.chat_postMessage(channel=run.channel_id, thread_ts=run.thread_ts, text=observation.visible)
        return str(posted["ts"])

    async def post_terminal(self, run: TrackedRun, observation: Observation) -> None:
        detail = observation.detail
        record = await self._record(run)
        if isinstance(detail, _Gone) or record is None:
            return
        slack = await self._services.slack.client_for(run.team_id)
        if isinstance(detail, ExportFailed):
            await self._say(slack, run, export_failed(kind=record.kind, format=record.format, error=detail))
            await self._finish(record, ExportState.FAILED)
            return
        await self._deliver(slack, run, record, detail)

    async def _deliver(
        self, slack: AsyncWebClient, run: TrackedRun, record: ExportRecord, status: ExportStatus
    ) -> None:
        minds = await self._services.minds.client_for(run.team_id)
        try:
            downloaded = await minds.download_export(record.study_id, _job(record), status=status)
        except DownloadFailed as exc:
            await self._say(slack, run, download_failed(kind=record.kind, format=record.format, reason=exc.message))
            await self._finish(record, ExportState.FAILED)
            return
        path = Path(downloaded.path)
        try:
            await self._services.store.update_export(
                team_id=record.team_id, job_id=record.job_id, state=ExportState.COMPLETED
            )
            data = await asyncio.to_thread(path.read_bytes)
            comment = export_attached(kind=record.kind, format=record.format, filename=downloaded.filename)
            await slack.files_upload_v2(
                file=data,
                filename=downloaded.filename,
                title=downloaded.filename,
                channel=run.channel_id,
                thread_ts=run.thread_ts,
                initial_comment=comment,
            )
        finally:
            await asyncio.to_thread(path.unlink, missing_ok=True)
        if run.progress_ts:
            await slack.chat_update(channel=run.channel_id, ts=run.progress_ts, text=REPORT_READY, blocks=[])
        await self._finish(record, ExportState.DELIVERED, file_name=downloaded.filename, sha256=downloaded.sha256)

    async def _say(self, slack: AsyncWebClient, run: TrackedRun, text: str) -> None:
        if run.progress_ts:
            await slack.chat_update(channel=run.channel_id, ts=run.progress_ts, text=text, blocks=[])
        else:
            await slack.chat_postMessage(channel=run.channel_id, thread_ts=run.thread_ts, text=text)

    async def _finish(
        self, record: ExportRecord, state: ExportState, *, file_name: str | None = None, sha256: str | None = None
    ) -> None:
        await self._services.store.update_export(
            team_id=record.team_id, job_id=record.job_id, state=state, file_name=file_name, sha256=sha256
        )


def _job(record: ExportRecord) -> MindsExportJob:
    return MindsExportJob.model_validate(
        {"kind": record.kind, "format": record.format, "jobId": record.job_id, "status": "queued"}
    )
