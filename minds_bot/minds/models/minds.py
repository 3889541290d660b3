"""Mind (persona) models: a Mind as listed (``GET /minds``), in detail (``GET /minds/{id}``), as created
(``POST /minds``) and updated (``PUT``), its training status (``GET /minds/{id}/training``) and its knowledge
(``/minds/{id}/knowledge``).

Owns: those shapes. Must not touch: HTTP, Slack, the store.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import Field

from minds_bot.minds.models.common import MindsModel

TrainingState = Literal["queued", "running", "completed", "failed"]


class MindSummary(MindsModel):
    id: str
    name: str
    description: str | None = None
    type: str | None = None
    discipline: str | None = None
    tags: list[str] = Field(default_factory=list)
    profile_image_url: str | None = None


class MindDetail(MindsModel):
    """``GET /minds/{id}``: who the Mind is and whether it can chat yet (``readyToChat`` is required)."""

    id: str
    name: str
    description: str | None = None
    discipline: str | None = None
    profile_image_url: str | None = None
    training_status: str | None = None
    ready_to_chat: bool
    knowledge_item_count: int | None = None


class TrainingError(MindsModel):
    code: str
    retryable: bool


class TrainingStatus(MindsModel):
    """The OpenAPI's ``TrainingStatus``: ``readyToChat`` only once training completed; ``error`` only on
    ``failed`` (``retryable``: a retrain may recover it)."""

    status: TrainingState
    ready_to_chat: bool
    message: str | None = None
    started_at: datetime | None = None
    completed_at: datetime | None = None
    error: TrainingError | None = None


class CreatedMind(MindsModel):
    """``POST /minds`` (201): the Mind and its first training block (``queued``; ``failed`` for a manual Mind)."""

    data: MindSummary
    training: TrainingStatus


class RegeneratedPrompt(MindsModel):
    """``POST /minds/{id}/regenerate-prompt``: the prompt Minds rebuilt from the knowledge and saved."""

    id: str
    name: str
    prompt_length: int = Field(ge=0)


class KnowledgeProcessing(MindsModel):
    status: TrainingState
    error: str | None = None


class KnowledgeItem(MindsModel):
    """One source of a Mind's knowledge: exactly one of ``link`` or ``file_path`` for items people added.
    ``processing`` is absent for legacy items (their state is not known)."""

    id: str
    description: str
    link: str | None = None
    file_path: str | None = None
    processing: KnowledgeProcessing | None = None
    created_at: datetime | None = None


class KnowledgeList(MindsModel):
    """``GET /minds/{id}/knowledge``: every item in one reply (no pagination); ``total`` must equal the items."""

    items: list[KnowledgeItem]
    total: int = Field(ge=0)


class KnowledgeStatus(MindsModel):
    """``GET /minds/{id}/knowledge/{itemId}/status``: processing and whether the item is retrieved in answers."""

    id: str | None = None
    processing: KnowledgeProcessing | None = None
    ready_for_retrieval: bool
    embedding_count: int | None = None
    pattern_count: int | None = None


class RegeneratedImage(MindsModel):
    """``POST /minds/{id}/regenerate-image``: whether a portrait job was queued (``enqueued``), or why not."""

    mind_id: str
    name: str
    enqueued: bool
    skipped_reason: str | None = None


class MindPattern(MindsModel):
    """One raw row of ``GET /minds/{id}/patterns`` (newest first): an aspect, its sub-aspect and the quote."""

    id: int
    aspect: str
    sub_aspect: str | None = None
    mind: str
    created_at: datetime | None = None


class PatternSubAspect(MindsModel):
    id: str
    name: str
    occurrences: int = Field(ge=0)


class PatternAspect(MindsModel):
    id: str
    name: str
    occurrences: int = Field(ge=0)
    sub_aspects: list[PatternSubAspect]


class PatternFramework(MindsModel):
    id: str
    name: str
    total_occurrences: int = Field(ge=0)
    aspects: list[PatternAspect]


class KnowledgePatterns(MindsModel):
    """``GET /minds/{id}/knowledge/patterns``: the patterns grouped by framework, then aspect (most first);
    ``frameworks`` is empty until some were extracted."""

    mind_id: str
    mind_name: str
    total_patterns: int = Field(ge=0)
    frameworks: list[PatternFramework]


class KnowledgeEnrichment(MindsModel):
    """``POST /minds/{id}/knowledge/enrich`` (202): the keywords Minds queued (trimmed, de-duplicated, ≤ 15)."""

    mind_id: str
    keywords: list[str]
    queued: Literal[True]
    regenerate_prompt: bool
    message: str


class MindDeletion(MindsModel):
    """One Mind's outcome in ``DELETE /minds``: deleted, or Minds' reason it was not."""

    mind_id: str
    deleted: bool
    error: str | None = None


class MindsDeleted(MindsModel):
    """``DELETE /minds``: one outcome per Mind asked for (the OpenAPI says "per-Mind deletion results" and no
    shape; this is the shape the bot and the sandbox follow)."""

    results: list[MindDeletion]
