"""Shapes of managing an existing Audience (``manage_audience``, ``manage_formation``): renaming it, its members,
its portraits, and its Formations — the hypothesis a preview proposes, the created/recomputed build and the detail.

Owns: those replies as the OpenAPI declares them (a required piece missing is a validation error, never a default)
and the hypothesis the bot sends back to create a Formation.
Must not touch: HTTP, Slack, the store.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, field_validator

from minds_bot.minds.models.common import MindsModel

FormationStatus = Literal["building", "ready", "failed"]
MIN_SUBGROUPS = 2
MAX_SUBGROUPS = 15
RESERVED_SUBGROUP_IDS = frozenset({"unanswered", "__unanswered", "__other"})  # the seeds: never to be sent


class MembersAdded(MindsModel):
    """``POST /audiences/{id}/members``: ``added`` counts the distinct ids sent, not the new memberships."""

    added: int = Field(ge=1)


class HypothesisSubgroup(MindsModel):
    id: str = Field(min_length=1)
    label: str = Field(min_length=1)
    definition: str = Field(min_length=1)


class FormationHypothesis(MindsModel):
    """A proposed split into 2–15 subgroups."""

    intent: str = Field(min_length=1)
    subgroups: list[HypothesisSubgroup] = Field(min_length=MIN_SUBGROUPS, max_length=MAX_SUBGROUPS)


class FormationPreview(MindsModel):
    """``POST …/formations/preview`` (JSON mode): nothing is saved."""

    member_count: int = Field(ge=0)
    soft_warn: bool
    hard_cap_exceeded: bool
    phase: Literal["hypothesizing"]
    hypothesis: FormationHypothesis


class FormationBuild(MindsModel):
    """``POST …/formations`` and ``…/recompute``: the build was queued (``name`` only on create)."""

    id: str
    status: FormationStatus
    name: str | None = None


class Membership(MindsModel):
    mind_id: str
    confidence: float | None = Field(default=None, ge=0, le=1)


class FormationDetailSubgroup(MindsModel):
    id: str
    label: str
    definition: str | None
    is_auxiliary: bool
    position: int = Field(ge=0)
    memberships: list[Membership]


class FormationDetail(MindsModel):
    """``GET …/formations/{formationId}``: while ``building`` the subgroups may be empty (the hypothesis shows the
    proposed buckets); counts are final only at ``ready``."""

    id: str
    name: str
    status: FormationStatus
    source: Literal["auto", "manual"]
    visibility: Literal["shared", "viewer_private"]
    can_mutate: bool
    subgroups: list[FormationDetailSubgroup]
    hypothesis: FormationHypothesis | None  # legacy auto-seeded rows store an empty object

    @field_validator("hypothesis", mode="before")
    @classmethod
    def _empty_is_none(cls, value: Any) -> Any:
        return None if value == {} else value


class ImageSample(MindsModel):
    id: str
    name: str


class ImagesRegeneration(MindsModel):
    """``POST /audiences/{id}/regenerate-images``: what was queued (nothing on a dry run)."""

    audience_id: str
    total_members: int = Field(ge=0)
    candidates: int = Field(ge=0)
    enqueued: int = Field(ge=0)
    skipped: int = Field(ge=0)
    errors: int = Field(ge=0)
    dry: bool
    sample: list[ImageSample] = Field(max_length=10)
