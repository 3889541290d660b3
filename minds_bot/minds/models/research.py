"""Guided research-run models: a started run and its state (``/studies/{id}/research-runs…``) with its
artifacts, response coverage, routing and answer consistency.

Owns: those shapes; the ``calculations`` of a run are read by ``minds_bot.minds.models.calculations``.
Must not touch: HTTP, Slack, the store.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import AliasChoices, Field, field_validator, model_validator

from minds_bot.minds.models.calculations import Calculation, parse_calculations
from minds_bot.minds.models.common import MindsModel
from minds_bot.minds.models.runs import RunProgress

ResearchRunStatus = Literal["queued", "running", "completed", "partial", "failed", "cancelled", "plan_limited"]
TERMINAL_RESEARCH_STATUSES = frozenset({"completed", "partial", "failed", "cancelled", "plan_limited"})


class ResearchRunStarted(MindsModel):
    run_id: str = Field(validation_alias=AliasChoices("runId", "id"))
    status: ResearchRunStatus
    draft_plan_id: str | None = None
    revision: int | None = None
    question_count: int | None = None


class MissingMember(MindsModel):
    audience_id: str | None = None
    mind_id: str | None = None


class ResponseCoverage(MindsModel):
    expected: int
    received: int
    missing: list[MissingMember] = Field(default_factory=list)


class ConsistencyFlag(MindsModel):
    mind_id: str
    with_item: int
    reason: str | None = None


class ArtifactConsistency(MindsModel):
    flags: list[ConsistencyFlag] = Field(default_factory=list)


class Routing(MindsModel):
    question_id: str | None = None
    gate_question_id: str
    answer_in: list[str] | None = None
    answer_not_in: list[str] | None = None
    asked_count: int
    not_asked_count: int
    not_asked_mind_ids: list[str] = Field(default_factory=list)
    gate_unavailable: bool = False


class RunArtifact(MindsModel):
    index: int
    question_id: str | None = None
    message_id: str | None = None
    kind: str
    output_data: dict[str, Any] | None = None
    routing: Routing | None = None
    answer_consistency: ArtifactConsistency | None = None
    # From outputData.responseCoverage. None means unknown (older artifacts), never "everyone answered".
    response_coverage: ResponseCoverage | None = None

    @model_validator(mode="before")
    @classmethod
    def _lift_coverage(cls, data: Any) -> Any:
        output = data.get("outputData") if isinstance(data, dict) else None
        if isinstance(output, dict) and "responseCoverage" in output:
            return {**data, "responseCoverage": output["responseCoverage"]}
        return data

    @property
    def not_asked(self) -> bool:
        """Finished, not failed: no Mind met the routing condition."""
        return self.kind == "not_asked"

    @property
    def simulated(self) -> bool:
        """The embedded sandbox simulated this result (its ``outputData.simulated: true``); Minds never says so."""
        return (self.output_data or {}).get("simulated") is True


class AnswerConsistency(MindsModel):
    status: Literal["checked", "incomplete", "failed"]
    checked_minds: int | None = None
    flagged_minds: int | None = None
    flag_count: int | None = None
    unchecked_minds: int | None = None
    unsaved_items: list[int] | None = None


class ResearchRun(MindsModel):
    """``GET /studies/{id}/research-runs/{runId}``.

    ``calculations`` (declared only as ``object[]``) is read with the assumed shape written above
    ``CalculationKind`` in ``minds_bot.minds.models.calculations``: ``{"methodId": "van-westendorp", "status":
    "completed", "n": 24, "audiences": [{"name": …}], "result": {…}}`` with one ``result`` shape per kind. Each
    entry becomes a typed ``Calculation``: a known kind with its headline figures, ``NotComputedCalculation`` (a
    status other than completed), ``UnknownCalculation`` (a kind the bot cannot show, named by Minds' word) or
    ``UnreadableCalculation``."""

    run_id: str | None = Field(default=None, validation_alias=AliasChoices("runId", "id"))
    status: ResearchRunStatus
    progress: RunProgress | None = None
    completed_questions: int | None = None
    completed_at: datetime | None = None  # when Minds says the run ended (a report must be generated after it)
    created_at: datetime | None = None  # when it started: with a question's number, its label ("Q6 · run of …")
    artifacts: list[RunArtifact] = Field(default_factory=list)
    answer_consistency: AnswerConsistency | None = None
    # Parsed one by one (see ``parse_calculation``): one malformed entry never makes the run unreadable.
    calculations: list[Calculation] = Field(default_factory=list)

    @field_validator("calculations", mode="before")
    @classmethod
    def _calculations(cls, raw: Any) -> list[Calculation]:
        return parse_calculations(raw)

    @property
    def is_terminal(self) -> bool:
        return self.status in TERMINAL_RESEARCH_STATUSES

    @property
    def simulated(self) -> bool:
        """Any of its results was simulated by the embedded sandbox, not answered by Minds."""
        return any(a.simulated for a in self.artifacts)

    @property
    def responses_received(self) -> int | None:
        """The responses Minds counts for this run: the sum of its questions' ``responseCoverage.received``; None
        when no question carries coverage (unknown, never zero)."""
        covered = [a.response_coverage.received for a in self.artifacts if a.response_coverage is not None]
        return sum(covered) if covered else None

    @property
    def questions_completed(self) -> int | None:
        """How many questions completed: ``completedQuestions``, else settled; None when unknown."""
        if self.completed_questions is not None:
            return self.completed_questions
        return self.progress.settled if self.progress else None
