"""Export models: a Study's export job and status, a downloaded file, and Audience and Mind profile exports.

Owns: those shapes (a completed profile export must carry its file inline).
Must not touch: HTTP, Slack, the store.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import model_validator

from minds_bot.minds.models.common import MindsModel

ExportKind = Literal["executive_brief", "full_report", "raw_data"]
ExportFormat = Literal["pdf", "md", "docx", "pptx", "csv", "xls", "sav"]


class ExportJob(MindsModel):
    kind: ExportKind
    format: ExportFormat
    job_id: str
    status: Literal["queued"]


class ExportStatus(MindsModel):
    status: Literal["idle", "queued", "processing", "completed", "failed"]
    progress: float | None = None
    filename: str | None = None
    mime_type: str | None = None
    error: str | None = None
    error_code: str | None = None
    kind: str | None = None
    format: str | None = None
    generated_at: datetime | None = None  # when Minds generated the artifact (a cached one may be older)


class DownloadedFile(MindsModel):
    path: str
    filename: str
    mime_type: str
    size: int
    sha256: str


ProfileExportKind = Literal["audiences", "minds"]
ProfileFormat = Literal["pdf", "md", "docx", "pptx"]
INLINE_TRUNCATED_MARK = "_[truncated]_"


class ProfileExport(MindsModel):
    """``POST /{audiences|minds}/{id}/export`` and ``GET …/export-status`` (``data``): a cached or finished
    artifact inline (``content`` for md, ``contentBase64`` otherwise), or a job to follow (``jobId``).
    The Mind shape is declared (``MindExportStatusResponse``); the Audience export follows the same shape."""

    status: Literal["idle", "queued", "processing", "completed", "failed"]
    job_id: str | None = None
    progress: float | None = None
    error: str | None = None
    format: str | None = None
    filename: str | None = None
    mime_type: str | None = None
    content: str | None = None
    content_base64: str | None = None

    @model_validator(mode="after")
    def _complete_means_a_file(self) -> ProfileExport:
        if self.status == "completed" and (self.content is None and self.content_base64 is None or not self.filename):
            raise ValueError("a completed export carries its filename and the file inline")
        return self

    @property
    def truncated(self) -> bool:
        """Minds shortens inline Markdown past 100,000 characters and marks it."""
        return self.content is not None and self.content.rstrip().endswith(INLINE_TRUNCATED_MARK)
