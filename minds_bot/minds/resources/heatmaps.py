"""The heatmaps resource: one asset's attention heatmap, starting one, and its ZIP export
(``/studies/{id}/heatmaps/{messageId}…``).

Must not touch: Slack, the store.
"""

from __future__ import annotations

from pathlib import Path

from minds_bot.minds.downloads import Downloads
from minds_bot.minds.errors import ExportFailed, RequestInfo
from minds_bot.minds.models import DownloadedFile, Heatmap, HeatmapExportStatus
from minds_bot.minds.transport import DEFAULT_EXPORT_WAIT, _data, _parse, _seg


class HeatmapsApi(Downloads):
    """``/studies/{id}/heatmaps/{messageId}…``."""

    async def get_heatmap(self, study_id: str, message_id: str, *, asset_key: str) -> Heatmap:
        """``GET /studies/{id}/heatmaps/{messageId}?assetKey=``: a saved analysis or its queue state."""
        path = f"/studies/{_seg(study_id)}/heatmaps/{_seg(message_id)}"
        return await self._get_data(path, Heatmap, params={"assetKey": asset_key})

    async def start_heatmap(self, study_id: str, message_id: str, *, asset_key: str) -> Heatmap:
        """``POST`` the same path: starts an analysis (Premium; one response per Mind) or reuses a finished one.
        No idempotency key exists for it, so it is never retried."""
        path = f"/studies/{_seg(study_id)}/heatmaps/{_seg(message_id)}"
        resp, info = await self._call("POST", path, json_body={"assetKey": asset_key}, retryable=False)
        return _parse(Heatmap, _data(resp, info), info)

    async def export_heatmap(
        self, study_id: str, message_id: str, *, wait_seconds: float = DEFAULT_EXPORT_WAIT, dest_dir: Path | None = None
    ) -> DownloadedFile | HeatmapExportStatus:
        """Start (or reuse) the heatmap ZIP export, poll it for a bounded time, then download it. An export that
        is not finished by then comes back as its last status — check again later, never ``force``."""
        base = f"/studies/{_seg(study_id)}/heatmaps/{_seg(message_id)}"
        resp, info = await self._call("POST", f"{base}/export")
        status = _unless_failed(_parse(HeatmapExportStatus, _data(resp, info), info), info)
        deadline = self._clock() + wait_seconds
        attempt = 0
        while status.status != "completed":
            attempt += 1
            if not await self._pause(attempt, deadline):
                return status
            resp, info = await self._call("GET", f"{base}/export-status")
            status = _unless_failed(_parse(HeatmapExportStatus, _data(resp, info), info), info)
        return await self._download_artifact(
            f"{base}/export-download", status=status, dest_dir=dest_dir, fallback=f"heatmap-{message_id}.zip"
        )


def _unless_failed(status: HeatmapExportStatus, info: RequestInfo) -> HeatmapExportStatus:
    if status.status == "failed":
        raise ExportFailed(error_code=None, error=status.error, request=info)
    return status
