"""The exports resource: a Study's export jobs (start, poll, the cached artifact, download by signed redirect) and
Audience and Mind profile exports (``/studies/{id}/export…``, ``/{audiences|minds}/{id}/export…``).

Must not touch: Slack, the store. The download itself (never with the Minds key) is ``minds_bot.minds.downloads``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from minds_bot.minds.downloads import MAX_EXPORT_BYTES, REDIRECTS, Downloads
from minds_bot.minds.errors import ExportFailed, MalformedResponse
from minds_bot.minds.models import (
    DownloadedFile,
    ExportFormat,
    ExportJob,
    ExportKind,
    ExportStatus,
    ProfileExport,
    ProfileExportKind,
    ProfileFormat,
)
from minds_bot.minds.transport import DEFAULT_EXPORT_WAIT, _data, _drop_none, _parse, _seg


class ExportsApi(Downloads):
    """Study exports and Audience/Mind profile exports."""

    async def start_export(
        self,
        study_id: str,
        *,
        kind: ExportKind,
        format: ExportFormat,  # noqa: A002 — the wire name
        length: Literal["short", "standard", "detailed"] | None = None,
        force: bool | None = None,
    ) -> ExportJob:
        body = _drop_none({"kind": kind, "format": format, "length": length, "force": force})
        resp, info = await self._call("POST", f"/studies/{_seg(study_id)}/export", json_body=body)
        return _parse(ExportJob, _data(resp, info), info)

    async def export_status(self, study_id: str, job: ExportJob) -> ExportStatus:
        """One poll; ``failed`` raises ``ExportFailed`` with Minds' errorCode and text."""
        params = {"jobId": job.job_id, "kind": job.kind, "format": job.format}
        resp, info = await self._call("GET", f"/studies/{_seg(study_id)}/export-status", params=params)
        status = _parse(ExportStatus, _data(resp, info), info)
        if status.status == "failed":
            raise ExportFailed(error_code=status.error_code, error=status.error, request=info)
        return status

    async def cached_export(
        self,
        study_id: str,
        *,
        kind: ExportKind,
        format: ExportFormat,  # noqa: A002 — the wire name
    ) -> ExportStatus:
        """``GET …/export-status`` without a job: the cached artifact for ``kind``/``format`` (``generatedAt`` says
        how old it is), or ``idle`` when there is none. A failed one is returned, not raised."""
        params = {"kind": kind, "format": format}
        return await self._get_data(f"/studies/{_seg(study_id)}/export-status", ExportStatus, params=params)

    async def wait_export(
        self, study_id: str, job: ExportJob, *, wait_seconds: float = DEFAULT_EXPORT_WAIT
    ) -> ExportStatus:
        """Poll until completed; at the deadline return the last state (check later, never re-export)."""
        deadline = self._clock() + wait_seconds
        status = await self.export_status(study_id, job)
        attempt = 0
        while status.status != "completed":
            attempt += 1
            if not await self._pause(attempt, deadline):
                return status
            status = await self.export_status(study_id, job)
        return status

    async def download_export(
        self,
        study_id: str,
        job: ExportJob,
        *,
        status: ExportStatus | None = None,
        dest_dir: Path | None = None,
        max_bytes: int = MAX_EXPORT_BYTES,
    ) -> DownloadedFile:
        """Fetch a completed export to a temporary file. The 302's signed URL is fetched with a plain client
        that never carries the Minds key."""
        resp, info = await self._call("GET", f"/studies/{_seg(study_id)}/export-download", params={"jobId": job.job_id})
        if resp.status_code not in REDIRECTS:
            detail = f"expected a redirect to the file, got HTTP {resp.status_code}"  # verbatim
            raise MalformedResponse(detail, request=info)
        location = resp.headers.get("location")
        if not location:
            raise MalformedResponse("redirect without a Location", request=info)  # verbatim
        target = resp.request.url.join(location)
        fallback_name = f"{study_id}-{job.kind}.{job.format}"
        return await self._stream_to_file(
            target,
            filename=(status.filename if status else None) or fallback_name,
            mime_type=status.mime_type if status else None,
            dest_dir=dest_dir,
            max_bytes=max_bytes,
        )

    async def start_profile_export(
        self,
        kind: ProfileExportKind,
        item_id: str,
        *,
        format: ProfileFormat,  # noqa: A002 - the API's name
        force: bool | None = None,
    ) -> ProfileExport:
        """``POST /{kind}/{id}/export``: a cached artifact at once, or a job to follow. Not retried (no key)."""
        body = _drop_none({"format": format, "force": force})
        resp, info = await self._call("POST", f"/{kind}/{_seg(item_id)}/export", json_body=body)
        return _parse(ProfileExport, _data(resp, info), info)

    async def profile_export_status(
        self,
        kind: ProfileExportKind,
        item_id: str,
        *,
        job_id: str,
        format: ProfileFormat,  # noqa: A002
    ) -> ProfileExport:
        params = {"jobId": job_id, "format": format}
        return await self._get_data(f"/{kind}/{_seg(item_id)}/export-status", ProfileExport, params=params)

    async def wait_profile_export(
        self,
        kind: ProfileExportKind,
        item_id: str,
        export: ProfileExport,
        *,
        format: ProfileFormat,  # noqa: A002
        wait_seconds: float = DEFAULT_EXPORT_WAIT,
    ) -> ProfileExport:
        """Poll the original job (never a new export) until it is completed or failed; raises ``ExportFailed``
        for ``failed``, for a job Minds no longer knows (``idle``) and when ``wait_seconds`` pass unfinished."""
        deadline = self._clock() + wait_seconds
        attempt = 0
        while export.status in ("queued", "processing"):
            if export.job_id is None:
                raise MalformedResponse("an unfinished export carries no jobId")  # verbatim
            if not await self._pause(attempt, deadline):
                raise ExportFailed(error_code=None, error=None, trouble="late")
            attempt += 1
            export = await self.profile_export_status(kind, item_id, job_id=export.job_id, format=format)
        if export.status == "failed":
            raise ExportFailed(error_code=None, error=export.error)
        if export.status == "idle":
            raise ExportFailed(error_code=None, error=None, trouble="unknown_job")
        return export
