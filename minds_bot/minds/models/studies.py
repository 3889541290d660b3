"""Study models: a Study as listed and in detail, created or duplicated, its summary, analytics, sharing state
and invitations (``/studies…``).

Owns: the shapes of those replies, parsed at the boundary. A required piece that is missing is a validation error
(the client's ``MalformedResponse``), never an empty list or a default.
Must not touch: HTTP, Slack, the store.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import AliasChoices, Field, field_validator

from minds_bot.minds.models.common import MindsModel, SharingFields


class StudyMind(MindsModel):
    id: str
    name: str
    discipline: str | None = None
    profile_image_url: str | None = None


class StudyAudience(MindsModel):
    id: str
    name: str
    minds: list[StudyMind]
    mind_count: int | None = None


class Study(SharingFields):
    """A Study as listed (``StudySummary`` in the OpenAPI document)."""

    id: str
    name: str
    created_at: datetime
    updated_at: datetime
    message_count: int  # every message: the questions asked and Minds' answers
    question_count: int | None = None  # assumed (not declared): the questions asked, when Minds says
    audiences: list[StudyAudience]


class StudyMessage(MindsModel):
    id: str
    role: str
    content: str
    metadata: Any = None
    created_at: datetime


class StudyDetail(SharingFields):
    id: str
    name: str
    created_at: datetime
    updated_at: datetime
    audiences: list[StudyAudience]
    messages: list[StudyMessage]
    # Assumed (not declared), as in the Study list: the questions asked as Minds counts them — a research run's
    # one message lists all its questions, so counting messages is not counting questions.
    question_count: int | None = None


class StudyCreated(SharingFields):
    id: str
    name: str
    created_at: datetime
    audiences: list[StudyAudience]


class StudyDuplicate(MindsModel):
    """``POST /studies/{id}/duplicate``: ``replayed`` True for a 200 (key seen before), False for 201."""

    study: StudyCreated
    replayed: bool
    workspace_url: str | None = None


class SemanticSummary(MindsModel):
    """``GET /studies/{id}/summary`` (``data`` is an open object in the OpenAPI): ``generatedAt`` when Minds sends it.
    Run listings carry no completion time, so whether a summary predates the latest run cannot be told exactly."""

    summary: str | None
    revision: int | None = None
    is_generating: bool = False
    generated_at: datetime | None = None
    blocks: list[dict[str, Any]] = Field(default_factory=list)


class AnalyticsShare(MindsModel):
    option: str
    count: int | None = None
    pct: float | None = None


class AnalyticsTheme(MindsModel):
    theme: str
    count: int | None = None


class QuestionAnalytics(MindsModel):
    """One answered question's figures as Minds computed them. The OpenAPI declares no schema ("Canonical
    study statistics"), so every figure is optional and absent when Minds does not send it — never zero."""

    title: str
    type: str
    message_id: str | None = None
    response_count: int | None = None
    distribution: list[AnalyticsShare] | None = None  # categorical, multiselect
    dominant: str | None = None
    divergence: float | None = None
    mean: float | None = None  # scale
    median: float | None = None
    min: float | None = None
    max: float | None = None
    std_dev: float | None = None
    consensus: float | None = None
    scale_range: list[float] | None = None
    themes: list[AnalyticsTheme] | None = None  # qualitative
    diversity_index: float | None = None


class StudyAnalytics(MindsModel):
    """``GET /studies/{id}/analytics``: ``questions`` is required (a reply without it is malformed, not empty)."""

    study_id: str | None = None
    question_count: int | None = None
    response_count: int | None = None
    questions: list[QuestionAnalytics]


class SharingState(MindsModel):
    is_public: bool
    is_link_sharing_enabled: bool
    public_share_id: str | None = None
    shared_study_url: str | None = None

    @property
    def public_url(self) -> str | None:
        """The link exactly as Minds gave it, and only while public access is active."""
        if self.is_public or self.is_link_sharing_enabled:
            return self.shared_study_url
        return None


class EmailFailure(MindsModel):
    email: str
    reason: str | None = Field(default=None, validation_alias=AliasChoices("reason", "error", "message"))


class InvitationResult(MindsModel):
    """``POST /studies/{id}/invitations`` 200: who was invited and which emails could not be delivered.
    ``emailFailures`` is required: without it nobody can say the emails went out."""

    invited: list[str] = Field(default_factory=list)
    email_failures: list[EmailFailure]

    @field_validator("invited", mode="before")
    @classmethod
    def _emails(cls, value: Any) -> Any:
        if isinstance(value, list):
            return [v.get("email") if isinstance(v, dict) else v for v in value]
        return value
