"""Study exports delivered into Slack: start, follow, download, attach.

Owns: starting ``POST /studies/{id}/export`` and saving the ``ExportJob`` record, and ``ExportDelivery``, the
``RunHandler`` for ``RunKind.EXPORT`` (the run tracker polls ``/export-status`` with backoff; a poll never
re-exports). When the file is ready it is streamed to a temporary file by the Minds client, streamed from disk into
the thread (``flows/uploads.py``: never whole in memory) and the temporary file deleted; the thread gets one
announcement per export (a progress reply in the thread becomes it, and the file then goes without a second
comment). A CSV file is attached with its formula-like cells neutralised (``csv_safety.py``) and the comment says
how many; Minds' original is attached instead only when the person asked for it (``original``), with a warning.
A person's export says when Minds generated the file (``generatedAt`` of ``/export-status``: Minds serves a cached
file unless ``force``) and whether it covers the Study's latest run, read from the Study's runs as Minds lists
them; when Minds gives no generation time the comment says so and claims nothing.
``EXPORT_FAILED`` is said plainly.
A person's export (``request_export``) is not started twice by accident: the same Study, kind and format still
being prepared is asked about first ("start another?"), and a request Minds did not answer offers **Try
again** rather than assuming it failed or worked (Minds takes no key for exports, which the message says).
Must not touch: Block Kit, SQL.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from minds_bot.flows.csv_safety import neutralise_csv
from minds_bot.flows.keyed import UNCERTAIN
from minds_bot.flows.tracking import Observation, say_in_thread
from minds_bot.flows.uploads import upload_file
from minds_bot.i18n import N_, _, in_channel
from minds_bot.minds import AgentRun, DownloadFailed, ExportFailed, ExportStatus, MindsError
from minds_bot.minds import ExportJob as MindsExportJob
from minds_bot.render.errors import minds_error_text, user_message
from minds_bot.render.exports import (
    KIND_WORDS,
    download_failed,
    export_already_running,
    export_attached,
    export_covers,
    export_failed,
    export_not_answered,
    export_progress,
    export_requested,
    export_value,
)
from minds_bot.render.outcome import report_covers
from minds_bot.render.runs import lost_text
from minds_bot.store import ExportJob as ExportRecord
from minds_bot.store import ExportState, RunKind, TrackedRun

if TYPE_CHECKING:
    from slack_sdk.web.async_client import AsyncWebClient

    from minds_bot.flows.invocation import Invocation
    from minds_bot.services import PacedWebClient, Services

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
    original: bool = False,
    force: bool | None = None,
    for_run: str | None = None,
    after_run_at: datetime | None = None,
) -> ExportRecord:
    """Start the export, then say so: in ``thread_ts``, or as a new channel message whose thread gets the file.
    ``original``: attach Minds' file unchanged, even a CSV whose cells could run as formulas. ``force``: Minds
    generates it anew instead of serving its cached artifact. ``for_run``/``after_run_at``: the report follows
    that research run, which Minds says ended then; the attached file says whether it covers it."""
    minds = await services.minds.client_for(team_id)
    job = await minds.start_export(
        study_id,
        kind=kind,  # type: ignore[arg-type]
        format=format,  # type: ignore[arg-type]
        length=length,  # type: ignore[arg-type]
        force=force,
    )
    progress_ts = None
    if thread_ts is None:
        with in_channel():  # the request message is the channel's
            text = export_requested(
                study_name=study_name or study_id,
                kind=kind,
                format=format,
                user_id=requested_by,
                length=length,
                force=bool(force),
                original=original,
            )
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
        for_run=for_run,
        after_run_at=after_run_at,
    )
    await services.store.add_export(record)
    await services.tracker.track(
        TrackedRun(
            team_id=team_id,
            run_id=job.job_id,
            study_id=study_id,
            kind=RunKind.EXPORT,
            client_request_id=f"{job.kind}:{job.format}{ORIGINAL_MARK if original else ''}",
            channel_id=channel_id,
            thread_ts=thread_ts,
            progress_ts=progress_ts,
            next_poll_at=services.clock(),
        )
    )
    return record


async def request_export(
    invocation: Invocation,
    *,
    study_id: str,
    study_name: str,
    kind: str,
    format: str,  # noqa: A002 - the wire name
    length: str | None,
    again: bool,
    original: bool = False,
    force: bool = False,
) -> None:
    """A person's export: asked about when the same one is still being prepared (unless ``again``), and
    offered Try again when Minds does not answer. ``original``: Minds' file unchanged; ``force``: Minds makes a
    new file rather than serving its cached one (see ``start_export``)."""
    services = invocation.services
    value = export_value(study_id=study_id, kind=kind, format=format, length=length, original=original, force=force)
    running = None if again else await _running(services, invocation.team_id, study_id, kind=kind, format=format)
    if running is not None:
        message = export_already_running(
            study_name=study_name, kind=kind, format=format, requested_by=running.requested_by, value=value
        )
        await invocation.reply(message)
        return
    try:
        await start_export(
            services,
            slack=invocation.client,
            team_id=invocation.team_id,
            study_id=study_id,
            channel_id=invocation.channel_id,
            thread_ts=None,
            requested_by=invocation.user_id,
            kind=kind,
            format=format,
            length=length,
            study_name=study_name,
            original=original,
            force=force or None,
        )
    except UNCERTAIN as exc:
        message = export_not_answered(
            study_name=study_name, kind=kind, format=format, reason=user_message(exc), value=value
        )
        await invocation.reply(message)


async def _running(
    services: Services,
    team_id: str,
    study_id: str,
    *,
    kind: str,
    format: str,  # noqa: A002
) -> ExportRecord | None:
    same = (team_id, study_id, kind, format)
    unfinished = await services.store.unfinished_exports()
    return next((e for e in unfinished if (e.team_id, e.study_id, e.kind, e.format) == same), None)


REPORT_READY = N_("The export is ready: the file is attached below.")
# Marks a tracked export whose file goes to Slack exactly as Minds sent it (the tracked run's label carries it).
ORIGINAL_MARK = ":original"


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
            await slack.edit_progress(channel=run.channel_id, ts=run.progress_ts, text=observation.visible, blocks=[])
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

    async def post_lost(self, run: TrackedRun, reads: int) -> None:
        record = await self._record(run)
        if record is None:
            return
        slack = await self._services.slack.client_for(run.team_id)
        await say_in_thread(
            slack,
            run,
            # i18n: {kind} and {format} are Minds' wire names (full_report, pdf): "full_report export (pdf)".
            lost_text("export", reads=reads, export=record.kind, format=record.format),
        )
        await self._finish(record, ExportState.FAILED)

    async def _deliver(
        self, slack: PacedWebClient, run: TrackedRun, record: ExportRecord, status: ExportStatus
    ) -> None:
        minds = await self._services.minds.client_for(run.team_id)
        try:
            downloaded = await minds.download_export(record.study_id, _job(record), status=status)
        except DownloadFailed as exc:
            await self._say(
                slack, run, download_failed(kind=record.kind, format=record.format, reason=minds_error_text(exc))
            )
            await self._finish(record, ExportState.FAILED)
            return
        path = Path(downloaded.path)
        safe = path.with_name(path.name + ".safe")
        try:
            await self._services.store.update_export(
                team_id=record.team_id, job_id=record.job_id, state=ExportState.COMPLETED
            )
            changed = None
            if record.format == "csv" and not (run.client_request_id or "").endswith(ORIGINAL_MARK):
                changed = await asyncio.to_thread(neutralise_csv, path, safe)
            comment = export_attached(
                kind=record.kind,
                format=record.format,
                filename=downloaded.filename,
                cells_neutralised=changed,
                study_id=record.study_id,
            )
            if record.for_run is not None:  # a run's report says what it covers
                comment += "\n" + report_covers(generated_at=status.generated_at, run_ended_at=record.after_run_at)
            else:  # a person's export says when it was generated and whether it covers the latest run
                comment += "\n" + await self._covers(run.team_id, record, status)
            # One announcement per export in the thread: a progress reply there becomes it, so the file goes
            # without a second comment; otherwise the file's own comment is the announcement.
            in_thread = bool(run.progress_ts) and run.progress_ts != run.thread_ts
            await upload_file(  # streamed from disk: a 200 MB export never sits in memory
                slack,
                path=path if changed is None else safe,
                filename=downloaded.filename,
                title=downloaded.filename,
                channel=run.channel_id,
                thread_ts=run.thread_ts,
                initial_comment=None if in_thread else comment,
            )
        finally:
            await asyncio.to_thread(path.unlink, missing_ok=True)
            await asyncio.to_thread(safe.unlink, missing_ok=True)
        if run.progress_ts:
            text = comment if in_thread else _(REPORT_READY)  # the channel message a person's export hangs from
            await slack.edit_progress(channel=run.channel_id, ts=run.progress_ts, text=text, blocks=[])
        await self._finish(record, ExportState.DELIVERED, file_name=downloaded.filename, sha256=downloaded.sha256)

    async def _covers(self, team_id: str, record: ExportRecord, status: ExportStatus) -> str:
        """Minds' ``generatedAt`` against the Study's runs as Minds lists them (research runs and standalone
        questions, paged to the end: catalogue rule 16); never more than Minds said."""
        runs: list[AgentRun] | None = None
        if status.generated_at is not None:
            minds = await self._services.minds.client_for(team_id)
            try:
                runs = (await minds.all_study_runs(record.study_id)).items
            except MindsError as exc:  # the file is still delivered; the comment says what is not known
                log.info("export %s: the Study's runs could not be listed: %s", record.job_id, type(exc).__name__)
        force = f"/minds export {record.study_id} {record.format} {KIND_WORDS.get(record.kind, record.kind)} force"
        return export_covers(generated_at=status.generated_at, runs=runs, force_command=force)

    async def _say(self, slack: PacedWebClient, run: TrackedRun, text: str) -> None:
        if run.progress_ts:
            await slack.edit_progress(channel=run.channel_id, ts=run.progress_ts, text=text, blocks=[])
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
