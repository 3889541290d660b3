"""Study draft and template models (``/study-drafts``, ``/study-templates``).

Owns: those shapes. Must not touch: HTTP, Slack, the store.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import Field

from minds_bot.minds.models.common import MindsModel
from minds_bot.minds.models.plans import QuestionResponse


class DraftPayload(MindsModel):
    version: Literal[1]
    state: dict[str, Any]


class StudyDraft(MindsModel):
    id: str
    name: str
    mode: Literal["quick", "custom"]
    current_step: str
    revision: int = Field(ge=1)
    status: Literal["draft", "starting", "consumed"]
    study_id: str | None
    created_at: datetime
    updated_at: datetime
    payload: DraftPayload | None = None  # required by the OpenAPI; kept optional for drafts read before it was


class TemplateQuestion(MindsModel):
    text: str
    response: QuestionResponse
    # Kept as Minds stores them (``StudyTemplateAsset``), so an edit sends them back unchanged.
    attachments: list[dict[str, Any]] = Field(default_factory=list)


class TemplateConfiguration(MindsModel):
    version: Literal[1]
    goal: str
    study_locale: str
    method_id: str
    questions: list[TemplateQuestion] = Field(min_length=1)


class StudyTemplate(MindsModel):
    id: str
    name: str
    revision: int = Field(ge=1)
    configuration: TemplateConfiguration
    is_shared_with_team: bool
    can_manage: bool
    can_share_with_team: bool
    created_at: datetime
    updated_at: datetime
