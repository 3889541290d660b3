"""Designing an Audience's sample: an Audience made from chosen Minds (``POST /audiences``, declared) and a
respondent dataset's segmentation preview (``POST /audiences/from-brief/segmentation-preview``, whose 200 the
OpenAPI describes only as "Complete variable distribution review").

Owns: those replies. The preview's shape is assumed from the seeds (CATALOGUE §1.5 tool 11, §2 C.25): the rows
used (all completed respondent rows), each variable's role (structural variables shape the cohort; outcomes and
drivers are held out), the distributions of the selected ones, the recommended Mind count, and the discovered
relationships and dependencies. The whole reply is reconciled before anything is shown — used rows equal to the
completed rows, each selected distribution counting exactly those rows, ``segmentationColumns`` equal to the
selected variables, a stated relationship count equal to the relationships listed — and a reply that does not
reconcile is malformed. Counts an older reply leaves out stay ``None`` ("not reported", never zero). Undeclared
fields are dropped; what is passed back to ``create_audience_from_brief`` as ``datasetSegmentation`` is the
reviewed reply with ``functionalDependencies`` and ``dependencyDiscovery`` unchanged (``reviewed``).
Must not touch: HTTP, Slack, the store.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, model_validator

from minds_bot.minds.models.audiences import AudienceMindRef
from minds_bot.minds.models.common import MindsModel

VariableRole = Literal["structural", "outcome", "driver", "identifier", "other"]


class AudienceCreated(MindsModel):
    """``POST /audiences`` 201 (new) or 200 (a replay of the same idempotency key)."""

    id: str
    name: str
    mind_count: int = Field(ge=0)
    mind_ids: list[str]
    minds: list[AudienceMindRef] = Field(default_factory=list)
    is_link_sharing_enabled: bool
    public_share_id: str | None = None
    current_member_role: Literal["owner"]
    replayed: bool = False


class SegmentShare(MindsModel):
    label: str
    count: int = Field(ge=0)
    pct: float = Field(ge=0, le=100)


class DatasetVariable(MindsModel):
    key: str
    label: str | None = None
    role: VariableRole
    selected: bool
    distribution: list[SegmentShare] | None = None


class DatasetRows(MindsModel):
    total: int = Field(ge=0)
    completed: int = Field(ge=0)
    used: int = Field(ge=0)


class DatasetFile(MindsModel):
    name: str
    kind: Literal["respondent_data"]


class SegmentationPreview(MindsModel):
    """A respondent dataset's segmentation, reconciled (see the module docstring)."""

    file: DatasetFile
    rows: DatasetRows
    recommended_mind_count: int = Field(ge=1)
    variables: list[DatasetVariable] = Field(min_length=1)
    segmentation_columns: list[str]
    relationships: list[dict[str, Any]] | None = None
    relationship_count: int | None = Field(default=None, ge=0)
    functional_dependencies: list[Any] | None = None
    dependency_count: int | None = Field(default=None, ge=0)
    dependency_discovery: dict[str, Any] | None = None

    @model_validator(mode="after")
    def _reconciled(self) -> SegmentationPreview:
        rows = self.rows
        if not rows.used == rows.completed <= rows.total:
            raise ValueError("the rows used are not all completed respondent rows")
        selected = [v for v in self.variables if v.selected]
        if [v.key for v in selected] != self.segmentation_columns:
            raise ValueError("segmentationColumns are not the selected variables")
        for variable in selected:
            if variable.role != "structural" or not variable.distribution:
                raise ValueError(f"selected variable {variable.key} is not a structural distribution")
            if sum(share.count for share in variable.distribution) != rows.used:
                raise ValueError(f"the distribution of {variable.key} does not count the rows used")
        listed = (self.relationship_count, self.relationships), (self.dependency_count, self.functional_dependencies)
        for count, items in listed:
            if count is not None and items is not None and count != len(items):
                raise ValueError("a count does not match what is listed")
        return self

    @property
    def selected(self) -> list[DatasetVariable]:
        return [v for v in self.variables if v.selected]

    @property
    def held_out(self) -> list[DatasetVariable]:
        return [v for v in self.variables if not v.selected and v.role in ("outcome", "driver")]

    def reviewed(self) -> dict[str, Any]:
        """What ``create_audience_from_brief`` takes as ``datasetSegmentation``: this reply's declared fields,
        as Minds named them (dependencies passed through unchanged)."""
        return self.model_dump(mode="json", by_alias=True, exclude_none=True)
