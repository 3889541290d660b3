"""Heatmap models: one asset's attention heatmap and its ZIP export's status
(``/studies/{id}/heatmaps/{messageId}…``, undeclared shapes).

Owns: those shapes (a completed heatmap must carry its regions). Must not touch: HTTP, Slack, the store.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from minds_bot.minds.models.common import MindsModel


class HeatmapExportStatus(MindsModel):
    """``POST /studies/{id}/heatmaps/{messageId}/export`` and ``GET …/export-status`` (undeclared shapes): the
    heatmap ZIP being made, downloaded from ``…/export-download`` once ``completed``."""

    status: Literal["idle", "queued", "processing", "completed", "failed"]
    job_id: str | None = None
    progress: float | None = None
    filename: str | None = None
    mime_type: str | None = None
    error: str | None = None


HeatmapStatus = Literal["none", "idle", "queued", "processing", "completed", "failed"]


class HeatmapRegion(MindsModel):
    label: str
    attention: float = Field(ge=0, le=1)


class Heatmap(MindsModel):
    """``GET|POST /studies/{id}/heatmaps/{messageId}`` (undeclared shape): one asset's heatmap and its queue
    state. ``regions`` are present once ``completed``; a completed heatmap without them is malformed."""

    status: HeatmapStatus
    asset_key: str | None = None
    kind: str | None = None
    respondents: int | None = Field(default=None, ge=0)
    regions: list[HeatmapRegion] | None = None
    summary: str | None = None
    error: str | None = None
    queue_position: int | None = None

    @model_validator(mode="after")
    def _completed_has_regions(self) -> Heatmap:
        if self.status == "completed" and self.regions is None:
            raise ValueError("a completed heatmap carries no regions")
        return self

    @property
    def finished(self) -> bool:
        return self.status in ("completed", "failed")
