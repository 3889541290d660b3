"""Direct-run models: a standalone question's run (``/studies/{id}/runs``, ``/runs/{id}``), its progress,
cancellation and individual answers.

Owns: those shapes and ``RunProgress``, which guided research runs report too.
Must not touch: HTTP, Slack, the store.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import AliasChoices, Field

from minds_bot.minds.models.common import MindsModel

# Direct runs report the first five; the Study's run list may also carry guided research runs, whose terminal
# states include partial and plan_limited — reported as such, never folded into "completed" or "failed".
AgentRunStatus = Literal["queued", "running", "completed", "failed", "cancelled", "partial", "plan_limited"]


class DirectRunAccepted(MindsModel):
    run_id: str = Field(validation_alias=AliasChoices("runId", "id"))
    status: AgentRunStatus
    client_request_id: str | None = None


class PlanningRequired(MindsModel):
    """200 from ``POST /studies/{id}/runs``: the text is a research brief; no run was created."""

    status: Literal["planning_required"]
    reason: str | None = None


class AgentRun(MindsModel):
    run_id: str = Field(validation_alias=AliasChoices("runId", "id"))
    status: AgentRunStatus
    message_id: str | None = None
    client_request_id: str | None = None
    # Named in CONTRACT.md's run list only as "the run shape"; the sandbox sends these. Absent → shown as unknown.
    created_at: datetime | None = None
    completed_at: datetime | None = None
    question: str | None = None  # a standalone question's text
    progress: RunProgress | None = None

    @property
    def is_terminal(self) -> bool:
        return self.status not in ("queued", "running")


class RunCancellation(MindsModel):
    status: str


class MessageAnswers(MindsModel):
    message_id: str
    output_data: dict[str, Any]


class RunProgress(MindsModel):
    total: int
    settled: int
    failed: int = 0
    partial: int = 0
    skipped: int = 0
    pct: int | None = None
