"""Mind (persona) models: a Mind as listed (``GET /minds``) and in detail (``GET /minds/{id}``).

Owns: those two shapes. Must not touch: HTTP, Slack, the store.
"""

from __future__ import annotations

from pydantic import Field

from minds_bot.minds.models.common import MindsModel


class MindSummary(MindsModel):
    id: str
    name: str
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
