"""Audience models: an Audience as listed and in detail, its size limits, duplicates, from-brief jobs,
build progress, Formations, recalibration and imported sources (``/audiences…``).

Owns: the shapes of those replies (several are undeclared in the OpenAPI and parsed tolerantly: the named
alternatives accepted). A required piece that is missing is a validation error, never a default.
Must not touch: HTTP, Slack, the store.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import AliasChoices, Field, field_validator, model_validator

from minds_bot.minds.models.common import MindsModel, SharingFields


class AudienceMindRef(MindsModel):
    id: str
    name: str | None = None
    discipline: str | None = None
    profile_image_url: str | None = None


class Audience(MindsModel):
    """An Audience as listed."""

    id: str
    name: str
    mind_count: int = Field(ge=0)
    minds: list[AudienceMindRef]
    current_member_role: Literal["owner", "admin", "member", "team_member", "public_viewer"]


class AudienceSource(MindsModel):
    """One entry of an Audience's source bundle (brief, adjustment, keyword, link or file)."""

    id: str | None = None
    kind: str
    text: str | None = None
    url: str | None = None
    filename: str | None = None


class CalibrationState(MindsModel):
    """``calibration``: ``active`` while a recalibration runs (the app shows "Calibrating…")."""

    active: bool
    started_at: str | None = None


CoverageStatus = Literal["sourced", "proxy", "assumed", "missing"]


class DimensionCoverage(MindsModel):
    """One standard dimension and how its shares are grounded."""

    name: str = Field(validation_alias=AliasChoices("name", "dimension", "key", "id"))
    status: CoverageStatus
    reason: str | None = None


class ResearchState(MindsModel):
    """``grounding.research`` (or ``research``): background research phase and dimension coverage."""

    phase: str | None = None
    status: str | None = None
    dimensions: list[DimensionCoverage] | None = None

    @model_validator(mode="before")
    @classmethod
    def _lift_dimensions(cls, data: Any) -> Any:
        coverage = data.get("dimensionCoverage") if isinstance(data, dict) else None
        if isinstance(coverage, dict) and "dimensions" in coverage:
            return {**data, "dimensions": coverage["dimensions"]}
        return data


class DistributionShare(MindsModel):
    label: str
    pct: float = Field(ge=0, le=100)
    source_idx: int = Field(ge=0)


class GroundingDistribution(MindsModel):
    """One grounded axis (the OpenAPI's ``GroundingDistribution``). ``wire`` keeps the object exactly as Minds
    sent it, so selection mode sends back the review universe's entries unchanged."""

    name: str
    distribution: list[DistributionShare]
    wire: dict[str, Any] = Field(default_factory=dict, exclude=True)

    @model_validator(mode="before")
    @classmethod
    def _keep_wire(cls, data: Any) -> Any:
        return {**data, "wire": dict(data)} if isinstance(data, dict) and "wire" not in data else data


class AudienceGrounding(MindsModel):
    """``grounding`` on ``GET /audiences/{id}``: the active distributions and the complete review universe. The
    OpenAPI requires both; read as empty when a reply lacks them, so the card still shows and the Recalibrate…
    dialog simply offers no selection mode (it offers it only for distributions Minds listed)."""

    distributions: list[GroundingDistribution] = Field(default_factory=list)
    review_distributions: list[GroundingDistribution] = Field(default_factory=list)


class AudienceDetail(SharingFields):
    """``GET /audiences/{id}``. The card-only fields are optional because the duplicate and by-id lookups
    reuse this model; the card says "not reported" for a missing one rather than assuming a value."""

    id: str
    name: str
    mind_count: int = Field(ge=0)
    minds: list[AudienceMindRef]
    current_member_role: str
    members_loaded: bool | None = None
    is_shared_with_team: bool | None = None
    sources: list[AudienceSource] | None = None
    calibration: CalibrationState | None = None
    research: ResearchState | None = None
    grounding: AudienceGrounding | None = None  # absent when the Audience was never grounded

    @model_validator(mode="before")
    @classmethod
    def _research_from_grounding(cls, data: Any) -> Any:
        if not isinstance(data, dict) or data.get("research") is not None:
            return data
        grounding = data.get("grounding")
        research = grounding.get("research") if isinstance(grounding, dict) else None
        return {**data, "research": research} if research is not None else data

    @property
    def is_owner(self) -> bool:
        return self.current_member_role == "owner"


class AudienceDuplicate(MindsModel):
    audience: AudienceDetail
    replayed: bool
    audience_url: str | None = None


class ModeCeiling(MindsModel):
    mode: str
    automatic_sizing_ceiling: int | None = Field(default=None, ge=0)
    explicit_count_ceiling: int | None = Field(default=None, ge=0)


class AudienceLimits(MindsModel):
    """Per-Audience size ceilings. A ``per_audience_cap`` of 0 is a workspace lock, not missing data."""

    per_audience_cap: int = Field(ge=0, validation_alias=AliasChoices("perAudienceCap", "planCap"))
    system_limit: int | None = Field(default=None, ge=0)
    custom_size_max: int | None = Field(default=None, ge=0)
    modes: list[ModeCeiling]
    scope: dict[str, Any] | None = None
    allowance: Any = None
    checked_at: str | None = None

    @field_validator("modes", mode="before")
    @classmethod
    def _modes_from_map(cls, value: Any) -> Any:
        if isinstance(value, dict):
            return [{"mode": key, **(item if isinstance(item, dict) else {})} for key, item in value.items()]
        return value

    @field_validator("modes")
    @classmethod
    def _modes_unique(cls, value: list[ModeCeiling]) -> list[ModeCeiling]:
        names = [m.mode for m in value]
        if len(names) != len(set(names)):
            raise ValueError("creation modes repeat")
        return value

    @property
    def locked(self) -> bool:
        return self.per_audience_cap == 0


class FromBriefResult(MindsModel):
    """The built Audience. ``audience_creation_mode`` is the mode Minds applied (it may differ from the one asked
    for: read it, never assume the request was accepted unchanged); the public-link fields as Minds reports them."""

    id: str
    name: str
    mind_count: int = Field(ge=0)
    minds: list[AudienceMindRef]
    audience_creation_mode: str | None = None
    is_public: bool | None = None
    is_link_sharing_enabled: bool | None = None
    public_share_id: str | None = None


class FromBriefJob(MindsModel):
    """An Audience-from-brief operation. ``result`` is present once ``status == "completed"``."""

    job_id: str = Field(validation_alias=AliasChoices("jobId", "id", "operationId"))
    status: Literal["queued", "processing", "completed", "failed"]
    progress: int | None = None
    status_url: str | None = None
    result: FromBriefResult | None = None
    error: str | None = None

    @field_validator("error", mode="before")
    @classmethod
    def _error_text(cls, value: Any) -> Any:
        if isinstance(value, dict):
            return value.get("message") or value.get("code")
        return value

    @model_validator(mode="after")
    def _completed_has_result(self) -> FromBriefJob:
        if self.status == "completed" and self.result is None:
            raise ValueError("a completed Audience job carries no Audience")
        return self


class FormationSubgroupCount(MindsModel):
    memberships: int = Field(ge=0)


class FormationSubgroup(MindsModel):
    id: str
    label: str
    is_auxiliary: bool
    position: int = Field(ge=0)
    count: FormationSubgroupCount = Field(validation_alias=AliasChoices("_count", "count"))


class Formation(MindsModel):
    """``FormationSummary``: counts are final only at ``ready``; a missing member count is malformed."""

    id: str
    name: str
    status: Literal["building", "ready", "failed"]
    source: str | None = None
    dimension_key: str | None = None
    visibility: str | None = None
    can_mutate: bool | None = None  # whether this account may recompute or delete it
    subgroups: list[FormationSubgroup]


class MemberProgress(MindsModel):
    id: str | None = Field(default=None, validation_alias=AliasChoices("id", "mindId"))
    name: str | None = None
    status: str | None = Field(default=None, validation_alias=AliasChoices("status", "trainingStatus"))


class AudienceProgress(MindsModel):
    """``GET /audiences/{id}/progress`` (undeclared shape): members still building and how far along."""

    total: int | None = Field(default=None, ge=0)
    ready: int | None = Field(default=None, ge=0)
    building: int | None = Field(default=None, ge=0)
    failed: int | None = Field(default=None, ge=0)
    members: list[MemberProgress] = Field(default_factory=list)

    @property
    def in_progress(self) -> bool:
        return bool(self.building) or any(m.status in ("queued", "training", "building") for m in self.members)


class Recalibration(MindsModel):
    """``POST /audiences/{id}/recalibrate`` 200: how many members changed and how."""

    refreshed_members: int = Field(ge=0)
    evolved_members: int = Field(ge=0)
    retraining_members: int = Field(ge=0)
    added_members: int = Field(ge=0)


class ImportedSource(MindsModel):
    """One imported file: a durable, content-addressed upload URL and its checksum."""

    name: str
    url: str
    sha256: str
    size: int | None = Field(default=None, ge=0)


class SourceImport(MindsModel):
    """``POST /audiences/source-import`` 200 (the OpenAPI says only ``data: object``). ``files`` and
    ``sourcePolicy`` are required: without them nothing can be verified. ``snapshot`` (with ``groundingJson``)
    is kept exactly as returned, for preview or creation."""

    files: list[ImportedSource]
    source_policy: str
    snapshot: Any = None
    snapshot_sha256: str | None = None
