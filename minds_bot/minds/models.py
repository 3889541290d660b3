"""Pydantic v2 models for every Minds v1 reply the bot reads, and the request bodies it builds.

Owns: the shapes in the OpenAPI document (parsed as declared) and the shapes CONTRACT.md assumes (parsed
tolerantly: unknown fields ignored, the named alternatives accepted). A required piece that is missing is a
validation error, which the client turns into ``MalformedResponse`` — never an empty list or a default.
The one exception is a research run's ``calculations`` (their shape is ours to assume, see the comment above
``ResearchRun``): each entry is read on its own, and one the bot cannot read is kept as ``UnreadableCalculation``
so the rest of the run still shows.
Must not touch: HTTP, Slack, the store.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator
from pydantic.alias_generators import to_camel


class MindsModel(BaseModel):
    """Base: camelCase on the wire, snake_case in Python, unknown fields ignored, immutable."""

    model_config = ConfigDict(
        extra="ignore", populate_by_name=True, frozen=True, alias_generator=to_camel, defer_build=True
    )

    @field_validator("*", mode="after")
    @classmethod
    def _utc_times(cls, value: Any) -> Any:
        # Minds' times are UTC; one sent without a zone is read as UTC here, once, so that no caller ever
        # compares a naive time with an aware one.
        if isinstance(value, datetime) and value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value


# --- shared -------------------------------------------------------------------------------------------


class Pagination(MindsModel):
    total: int = Field(ge=0)
    limit: int = Field(ge=0)
    offset: int = Field(ge=0)


class Me(MindsModel):
    """``GET /auth/me``: the OpenAPI promises only ``id``; a name or email is used when Minds sends one."""

    id: str
    name: str | None = None
    email: str | None = None

    @property
    def label(self) -> str | None:
        """How a person recognises the account, or None when Minds named it only by its id."""
        return next((v.strip() for v in (self.name, self.email) if v and v.strip()), None)


# --- Studies ----------------------------------------------------------------------------------------------


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


class _SharingFields(MindsModel):
    is_public: bool | None = None
    is_link_sharing_enabled: bool | None = None
    public_share_id: str | None = None


class Study(_SharingFields):
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


class StudyDetail(_SharingFields):
    id: str
    name: str
    created_at: datetime
    updated_at: datetime
    audiences: list[StudyAudience]
    messages: list[StudyMessage]
    # Assumed (not declared), as in the Study list: the questions asked as Minds counts them — a research run's
    # one message lists all its questions, so counting messages is not counting questions.
    question_count: int | None = None


class StudyCreated(_SharingFields):
    id: str
    name: str
    created_at: datetime
    audiences: list[StudyAudience]


class StudyDuplicate(MindsModel):
    """``POST /studies/{id}/duplicate``: ``replayed`` True for a 200 (key seen before), False for 201."""

    study: StudyCreated
    replayed: bool
    workspace_url: str | None = None


# --- Audiences and Minds ----------------------------------------------------------------------------------


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


class AudienceDetail(_SharingFields):
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


class MindSummary(MindsModel):
    id: str
    name: str
    type: str | None = None
    discipline: str | None = None
    tags: list[str] = Field(default_factory=list)
    profile_image_url: str | None = None


class FromBriefResult(MindsModel):
    id: str
    name: str
    mind_count: int = Field(ge=0)
    minds: list[AudienceMindRef]


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


# --- direct runs -----------------------------------------------------------------------------------------

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


# --- research methods and plans --------------------------------------------------------------------------


class ResearchMethod(MindsModel):
    """One entry of ``GET /research-methods`` (the OpenAPI declares only ``data: object[]``; the seeds name
    executable state, availability, complexity, configuration requirements, outputs and fallbacks).
    ``executable`` is required: without it nothing may be promised, so its absence is malformed."""

    id: str
    name: str | None = None
    executable: bool
    advanced: bool = False
    status: str | None = None
    availability: str | None = None  # available | planned | experimental
    fallback_method_id: str | None = None
    complexity: str | None = None
    description: str | None = None
    output_types: list[str] = Field(default_factory=list)
    requires: list[str] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _requires_from_schema(cls, data: Any) -> Any:
        # "What it needs": the required keys of its configuration JSON Schema, else its ``requiredConfiguration``
        # list, when no explicit list is given.
        if not isinstance(data, dict) or data.get("requires"):
            return data
        schema = data.get("configurationSchema") or data.get("configSchema")
        required = schema.get("required") if isinstance(schema, dict) else data.get("requiredConfiguration")
        if isinstance(required, list) and all(isinstance(r, str) for r in required):
            return {**data, "requires": required}
        return data

    @property
    def label(self) -> str:
        return self.name or self.id


ResponseType = Literal["scale", "categorical", "multiselect", "qualitative"]


class QuestionResponse(MindsModel):
    type: ResponseType
    categorical_options: list[str] | None = None
    scale_range: list[float] | None = None
    max_selections: int | None = None


class AskIf(MindsModel):
    question_id: str
    answer_in: list[str] | None = None
    answer_not_in: list[str] | None = None


class PlanQuestion(MindsModel):
    id: str
    module_id: str | None = None
    text: str
    response: QuestionResponse
    ask_if: AskIf | None = None
    attachment_ids: list[str] = Field(default_factory=list)  # the plan's attachments this question shows


class PlanAttachment(MindsModel):
    """A file or website the plan's questions show their Minds (a stimulus). ASSUMED shape: the preview's 200
    declares no properties; its prose says the planner captures "all attached assets" and assigns them to
    questions, whose ``attachmentIds`` name them."""

    id: str
    name: str | None = None
    type: str | None = Field(default=None, validation_alias=AliasChoices("type", "mimeType"))


class PlanModule(MindsModel):
    id: str
    title: str | None = None
    purpose: str | None = None
    question_ids: list[str] = Field(default_factory=list)


class PlanMethod(MindsModel):
    id: str
    name: str | None = None
    executable: bool | None = None
    advanced: bool | None = None


class ConfirmationQuestion(MindsModel):
    id: str
    text: str
    options: list[str] | None = None

    @property
    def free_text(self) -> bool:
        return not self.options


IMPLICIT_MODULE_ID = "main"


class ResearchPlan(MindsModel):
    """The saved plan revision (200 from preview). ``draft_plan_id``, ``revision``, ``questions`` required.

    ``answered_confirmations``: the confirmation questions already answered, question id → answer, as Minds
    returns them (``answeredConfirmations``). ``audience_ids``: ASSUMED field (``audienceIds``, not yet in the
    declared preview body; the sandbox sends it): the Audiences a run of this revision asks when an answer
    narrowed them; None means every Audience attached to the Study. ``planner_notes``: ASSUMED field
    (``plannerNotes``, not in the declared preview body; the sandbox sends it): what Minds' planner says about
    this revision, e.g. an instruction of the refinement it could not apply to the questions."""

    draft_plan_id: str
    revision: int = Field(ge=1)
    replayed: bool = False
    objective: str | None = None
    study_locale: str | None = None
    modules: list[PlanModule] = Field(default_factory=list)
    questions: list[PlanQuestion]
    methods: list[PlanMethod] = Field(default_factory=list)
    confirmation_questions: list[ConfirmationQuestion] = Field(default_factory=list)
    framing_warnings: list[str] = Field(default_factory=list)
    answered_confirmations: dict[str, str] = Field(default_factory=dict)
    audience_ids: list[str] | None = None
    planner_notes: list[str] = Field(default_factory=list)
    attachments: list[PlanAttachment] = Field(default_factory=list)

    @field_validator("confirmation_questions", mode="before")
    @classmethod
    def _bare_strings(cls, value: Any) -> Any:
        # A bare string's id is its 1-based position, as text.
        if not isinstance(value, list):
            return value
        return [{"id": str(i), "text": q} if isinstance(q, str) else q for i, q in enumerate(value, start=1)]

    @model_validator(mode="after")
    def _implicit_module(self) -> ResearchPlan:
        if not self.modules:
            implicit = PlanModule(id=IMPLICIT_MODULE_ID, question_ids=[q.id for q in self.questions])
            object.__setattr__(self, "modules", [implicit])
        return self

    def questions_in(self, module: PlanModule) -> list[PlanQuestion]:
        """A module's questions in plan order; with the implicit module, every question."""
        if module.id == IMPLICIT_MODULE_ID and len(self.modules) == 1:
            return list(self.questions)
        wanted = set(module.question_ids)
        return [q for q in self.questions if q.id in wanted or q.module_id == module.id]


class PlanReceipt(MindsModel):
    """202 from plan preview: preparation accepted durably, not finished, nothing run."""

    status: str = "pending"
    accepted: bool
    request_id: str
    operation_id: str | None = None
    stage: str | None = None


class PlanPending(MindsModel):
    """A plan still being prepared. Persist it (``model_dump_json``) and pass it to ``resume_plan`` later."""

    study_id: str
    idempotency_key: str
    body: str
    request_id: str
    operation_id: str | None = None
    stage: str | None = None


class PlanPreviewRequest(MindsModel):
    """Body of ``POST /studies/{id}/research-plans/preview`` (the key goes in a header)."""

    request: str | None = None
    draft_plan_id: str | None = None
    revision: int | None = Field(default=None, ge=1)
    refinement: str | None = None
    answers: dict[str, str] | None = None
    study_locale: str | None = None
    load_latest: bool | None = None
    # Files Minds fetches and keeps with the draft ({url, name, type}; declared ``attachments[]``).
    attachments: list[dict[str, str]] | None = None

    @model_validator(mode="after")
    def _coherent(self) -> PlanPreviewRequest:
        revising = self.refinement is not None or self.answers is not None or self.load_latest
        if revising and self.draft_plan_id is None:
            raise ValueError("revising or reloading a plan needs draft_plan_id")
        if self.load_latest and (self.request or self.refinement or self.answers):
            raise ValueError("load_latest cannot be combined with planner inputs")
        if not (self.request or self.draft_plan_id):
            raise ValueError("a plan preview needs request text or a draft_plan_id")
        return self

    def to_body(self) -> bytes:
        """The exact bytes sent; observation re-sends these same bytes."""
        payload = self.model_dump(by_alias=True, exclude_none=True)
        return json.dumps(payload, separators=(",", ":"), sort_keys=True).encode()


# --- research runs ---------------------------------------------------------------------------------------

ResearchRunStatus = Literal["queued", "running", "completed", "partial", "failed", "cancelled", "plan_limited"]
TERMINAL_RESEARCH_STATUSES = frozenset({"completed", "partial", "failed", "cancelled", "plan_limited"})


class ResearchRunStarted(MindsModel):
    run_id: str = Field(validation_alias=AliasChoices("runId", "id"))
    status: ResearchRunStatus
    draft_plan_id: str | None = None
    revision: int | None = None
    question_count: int | None = None


class RunProgress(MindsModel):
    total: int
    settled: int
    failed: int = 0
    partial: int = 0
    skipped: int = 0
    pct: int | None = None


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


# --- calculations -------------------------------------------------------------------------------------------
#
# The OpenAPI declares ``calculations: object[]`` with additional properties only, so the shape below is OUR
# assumption, parsed tolerantly. One entry:
#
#     {"methodId": "van-westendorp",        # also "method", "kind", "type" or "id"; spelling is free
#      "status": "completed",               # absent means completed; "failed", "skipped", … are not-computed
#      "n": 24,                             # also "responseCount", "respondents" or "base"
#      "audiences": [{"id": "…", "name": "Gen Z sneaker buyers"}],   # or "audienceNames": ["…"]
#      "result": {…}}                       # also "results", "output" or "data"; absent: the entry itself
#
# and ``result`` per kind (percentages are ``…Pct`` on 0–100; a bare share such as ``reach`` is a fraction 0–1):
#   van-westendorp  {"currency", "acceptableRange": {"low", "high"} | [low, high]  (or pointOfMarginalCheapness /
#                   pointOfMarginalExpensiveness), "optimalPricePoint", "indifferencePricePoint"}
#   gabor-granger   {"currency", "revenueMaximisingPrice" (or "optimalPrice"), "demandPct" at that price,
#                   "curve": [{"price", "demandPct"}] (the tested prices), "monotone": false when demand rises}
#   maxdiff         {"items": [{"item" (or "label", "name"), "score", "rank"}]}
#   turf            {"bestCombination": {"items": […], "reachPct" | "reach", "frequency"}}
#   kano            {"features": [{"feature" (or "name"), "category"}]}
#   nps             {"score", "promotersPct", "passivesPct", "detractorsPct"}
#   key-drivers     {"outcome", "drivers": [{"driver" (or "name"), "importance"}]}
#   top-bottom-box  {"question", "boxSize", "topBoxPct", "bottomBoxPct"}
# A known kind whose headline figures are missing or of the wrong type is UNREADABLE (never shown as empty);
# a kind the bot does not know is kept as UNKNOWN with Minds' own word for it (never skipped). Numbers are kept
# exactly as Minds sent them: nothing is rounded or derived here.

CalculationKind = Literal[
    "van_westendorp", "gabor_granger", "maxdiff", "turf", "kano", "nps", "key_drivers", "top_bottom_box"
]
_CALCULATION_KINDS: dict[str, CalculationKind] = {
    "vanwestendorp": "van_westendorp",
    "vanwestendorppsm": "van_westendorp",
    "pricesensitivitymeter": "van_westendorp",
    "gaborgranger": "gabor_granger",
    "maxdiff": "maxdiff",
    "bestworstscaling": "maxdiff",
    "turf": "turf",
    "kano": "kano",
    "nps": "nps",
    "netpromoterscore": "nps",
    "keydrivers": "key_drivers",
    "keydriveranalysis": "key_drivers",
    "drivers": "key_drivers",
    "topbottombox": "top_bottom_box",
    "topbox": "top_bottom_box",
    "topbottom2box": "top_bottom_box",
}
_CALCULATION_DONE = frozenset({"completed", "complete", "succeeded", "success", "done", "ok", "ready"})
_METHOD_KEYS = ("methodId", "method", "kind", "type", "id")
_RESULT_KEYS = ("result", "results", "output", "data")
_N_KEYS = ("n", "responseCount", "respondents", "base")


def _first(data: dict[str, Any], keys: tuple[str, ...]) -> Any:
    return next((data[key] for key in keys if data.get(key) is not None), None)


def _pct_from(data: dict[str, Any], pct_key: str, share_key: str) -> Any:
    """A percentage (0–100) as sent, or a fraction (0–1) turned into one; None when neither is there."""
    if data.get(pct_key) is not None:
        return data[pct_key]
    share = data.get(share_key)
    # round() only removes binary noise (0.29 * 100 = 28.999…); it never drops a digit Minds sent.
    return round(share * 100, 9) if isinstance(share, int | float) and not isinstance(share, bool) else share


def _lifted(data: dict[str, Any], **found: Any) -> dict[str, Any]:
    """``data`` with the figures found under other names added (found as None adds nothing)."""
    return {**data, **{key: value for key, value in found.items() if value is not None}}


class CalculationCoverage(MindsModel):
    """What a calculation covers, as Minds said it: n (None when not sent) and the Audiences it names."""

    method_id: str
    n: int | None = Field(default=None, ge=0)
    audience_names: tuple[str, ...] = ()


class VanWestendorpCalculation(CalculationCoverage):
    kind: Literal["van_westendorp"] = "van_westendorp"
    currency: str | None = None
    acceptable_low: float
    acceptable_high: float
    optimal_price: float | None = None
    indifference_price: float | None = None

    @model_validator(mode="before")
    @classmethod
    def _lift(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        span = data.get("acceptableRange") or data.get("acceptablePriceRange")
        low = data.get("pointOfMarginalCheapness")
        high = data.get("pointOfMarginalExpensiveness")
        if isinstance(span, dict):
            low, high = _first(span, ("low", "min", "from")), _first(span, ("high", "max", "to"))
        elif isinstance(span, list) and len(span) == 2:
            low, high = span
        return _lifted(
            data,
            acceptableLow=low,
            acceptableHigh=high,
            optimalPrice=data.get("optimalPricePoint"),
            indifferencePrice=data.get("indifferencePricePoint"),
        )


class DemandPoint(MindsModel):
    """One tested price of a Gabor-Granger ladder and the share (0–100) who would buy at it."""

    price: float
    demand_pct: float = Field(ge=0, le=100)


class GaborGrangerCalculation(CalculationCoverage):
    kind: Literal["gabor_granger"] = "gabor_granger"
    currency: str | None = None
    revenue_price: float
    demand_pct: float | None = Field(default=None, ge=0, le=100)
    curve: list[DemandPoint] = Field(default_factory=list)  # the tested prices, when Minds sends them
    monotone: bool | None = None  # Minds' own word on whether demand falls as the price rises

    @property
    def demand_rise(self) -> tuple[DemandPoint, DemandPoint] | None:
        """The first pair of tested prices where more would buy at the higher one; None when demand never rises."""
        ladder = sorted(self.curve, key=lambda point: point.price)
        return next(((a, b) for a, b in zip(ladder, ladder[1:], strict=False) if b.demand_pct > a.demand_pct), None)

    @property
    def tested(self) -> bool:
        """Whether the revenue-maximising price is one of the tested prices (True when Minds sent no curve)."""
        return not self.curve or any(point.price == self.revenue_price for point in self.curve)

    @model_validator(mode="before")
    @classmethod
    def _lift(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        price = _first(data, ("revenueMaximisingPrice", "revenueMaximizingPrice", "optimalPrice"))
        return _lifted(data, revenuePrice=price, demandPct=_pct_from(data, "demandPct", "demand"))


class MaxDiffItem(MindsModel):
    item: str = Field(validation_alias=AliasChoices("item", "label", "name"))
    score: float
    rank: int | None = None


class MaxDiffCalculation(CalculationCoverage):
    kind: Literal["maxdiff"] = "maxdiff"
    items: list[MaxDiffItem] = Field(min_length=1)

    @property
    def ranked(self) -> list[MaxDiffItem]:
        """Minds' ranks when every item has one, else highest score first (ties keep Minds' order)."""
        if all(item.rank is not None for item in self.items):
            return sorted(self.items, key=lambda item: item.rank or 0)
        return sorted(self.items, key=lambda item: -item.score)


class TurfCalculation(CalculationCoverage):
    kind: Literal["turf"] = "turf"
    items: list[str] = Field(min_length=1)
    reach_pct: float = Field(ge=0, le=100)
    frequency: float | None = None

    @model_validator(mode="before")
    @classmethod
    def _lift(cls, data: Any) -> Any:
        if not isinstance(data, dict) or not isinstance(data.get("bestCombination"), dict):
            return data
        best = data["bestCombination"]
        return _lifted(
            data,
            items=best.get("items"),
            reachPct=_pct_from(best, "reachPct", "reach"),
            frequency=best.get("frequency"),
        )


class KanoFeature(MindsModel):
    feature: str = Field(validation_alias=AliasChoices("feature", "name", "item"))
    category: str


class KanoCalculation(CalculationCoverage):
    kind: Literal["kano"] = "kano"
    features: list[KanoFeature] = Field(min_length=1)


class NpsCalculation(CalculationCoverage):
    kind: Literal["nps"] = "nps"
    score: float = Field(ge=-100, le=100)
    promoters_pct: float | None = Field(default=None, ge=0, le=100)
    passives_pct: float | None = Field(default=None, ge=0, le=100)
    detractors_pct: float | None = Field(default=None, ge=0, le=100)

    @model_validator(mode="before")
    @classmethod
    def _lift(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        groups = ("promoters", "passives", "detractors")
        shares = {f"{group}Pct": _pct_from(data, f"{group}Pct", group) for group in groups}
        return _lifted(data, score=_first(data, ("score", "nps")), **shares)


class KeyDriver(MindsModel):
    driver: str = Field(validation_alias=AliasChoices("driver", "name", "item"))
    importance: float


class KeyDriversCalculation(CalculationCoverage):
    kind: Literal["key_drivers"] = "key_drivers"
    outcome: str | None = None
    drivers: list[KeyDriver] = Field(min_length=1)


class TopBottomBoxCalculation(CalculationCoverage):
    kind: Literal["top_bottom_box"] = "top_bottom_box"
    question: str | None = None
    box_size: int | None = Field(default=None, ge=1)
    top_box_pct: float = Field(ge=0, le=100)
    bottom_box_pct: float | None = Field(default=None, ge=0, le=100)


class NotComputedCalculation(CalculationCoverage):
    """A known kind Minds reports as not computed (``failed``, ``skipped``, …), with its reason when given."""

    kind: CalculationKind
    status: str
    reason: str | None = None
    reason_code: str | None = None  # e.g. no_numeric_answers, too_few_numeric_answers, no_demand
    answered: int | None = Field(default=None, ge=0)  # respondents who answered the method's questions
    minimum_n: int | None = Field(default=None, ge=0)  # the fewest usable respondents the method needs


class UnknownCalculation(CalculationCoverage):
    """A kind the bot cannot show; ``method_id`` is Minds' own word for it."""

    kind: Literal["unknown"] = "unknown"


class UnreadableCalculation(MindsModel):
    """An entry the bot could not read; ``method_id`` when Minds named one."""

    kind: Literal["unreadable"] = "unreadable"
    method_id: str | None = None


_CALCULATION_MODELS: dict[str, type[CalculationCoverage]] = {
    "van_westendorp": VanWestendorpCalculation,
    "gabor_granger": GaborGrangerCalculation,
    "maxdiff": MaxDiffCalculation,
    "turf": TurfCalculation,
    "kano": KanoCalculation,
    "nps": NpsCalculation,
    "key_drivers": KeyDriversCalculation,
    "top_bottom_box": TopBottomBoxCalculation,
}

Calculation = (
    VanWestendorpCalculation
    | GaborGrangerCalculation
    | MaxDiffCalculation
    | TurfCalculation
    | KanoCalculation
    | NpsCalculation
    | KeyDriversCalculation
    | TopBottomBoxCalculation
    | NotComputedCalculation
    | UnknownCalculation
    | UnreadableCalculation
)


def calculation_kind(method_id: str) -> CalculationKind | None:
    """The kind a method id names, whatever its spelling ("van_westendorp", "Van-Westendorp" …); None if unknown."""
    return _CALCULATION_KINDS.get(re.sub(r"[^a-z0-9]", "", method_id.lower()))


def _coverage(raw: dict[str, Any]) -> dict[str, Any]:
    audiences = raw.get("audiences")
    names = raw.get("audienceNames")
    if isinstance(audiences, list):
        names = [a["name"] for a in audiences if isinstance(a, dict) and isinstance(a.get("name"), str)]
    return {"n": _first(raw, _N_KEYS), "audienceNames": names or ()}


def parse_calculation(raw: object) -> Calculation:
    """One entry of ``calculations`` as a typed model; never raises (what cannot be read is ``Unreadable``)."""
    if not isinstance(raw, dict):
        return UnreadableCalculation()
    method_id = _first(raw, _METHOD_KEYS)
    if not isinstance(method_id, str) or not method_id.strip():
        return UnreadableCalculation()
    kind = calculation_kind(method_id)
    try:
        common = {"methodId": method_id, **_coverage(raw)}
        if kind is None:
            return UnknownCalculation.model_validate(common)
        status = raw.get("status")
        if status is not None and str(status).lower() not in _CALCULATION_DONE:
            reason = _first(raw, ("reason", "error", "message"))
            code = raw.get("reasonCode")
            return NotComputedCalculation.model_validate(
                {
                    **common,
                    "kind": kind,
                    "status": str(status),
                    "reason": reason if isinstance(reason, str) else None,
                    "reasonCode": code if isinstance(code, str) else None,
                    "answered": raw.get("answered"),
                    "minimumN": raw.get("minimumN"),
                }
            )
        result = _first(raw, _RESULT_KEYS)
        result = raw if result is None else result
        if not isinstance(result, dict):
            return UnreadableCalculation(method_id=method_id)
        fields = {key: value for key, value in result.items() if key not in ("kind", "status")}
        fields.update({key: value for key, value in common.items() if value is not None})
        return _CALCULATION_MODELS[kind].model_validate(fields)  # type: ignore[return-value]
    except ValidationError:
        return UnreadableCalculation(method_id=method_id)


def parse_calculations(raw: object) -> list[Calculation]:
    """``calculations`` as sent: absent is none; anything but a list is one unreadable entry, never none."""
    if raw is None:
        return []
    if not isinstance(raw, list):
        return [UnreadableCalculation()]
    return [parse_calculation(entry) for entry in raw]


class ResearchRun(MindsModel):
    """``GET /studies/{id}/research-runs/{runId}``.

    ``calculations`` (declared only as ``object[]``) is read with the assumed shape written above
    ``CalculationKind``: ``{"methodId": "van-westendorp", "status": "completed", "n": 24, "audiences": [{"name":
    …}], "result": {…}}`` with one ``result`` shape per kind. Each entry becomes a typed ``Calculation``: a known
    kind with its headline figures, ``NotComputedCalculation`` (a status other than completed),
    ``UnknownCalculation`` (a kind the bot cannot show, named by Minds' word) or ``UnreadableCalculation``."""

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


# --- summary, analytics, sharing ---------------------------------------------------------------------------


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


# --- exports ---------------------------------------------------------------------------------------------

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


# --- drafts and templates -----------------------------------------------------------------------------------


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


# --- research tools in Slack: methods, Audience card, recalibration, model connections, invitations ---------


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


class ModelConnection(MindsModel):
    """Declared metadata and capability flags only; credentials and probe results are never read."""

    id: str
    name: str | None = None
    provider: str | None = None
    model: str | None = None
    revision: int | str | None = None
    verified_at: str | None = None
    capabilities: dict[str, bool] = Field(default_factory=dict)

    @field_validator("capabilities", mode="before")
    @classmethod
    def _flags_only(cls, value: Any) -> Any:
        if isinstance(value, dict):
            return {k: v for k, v in value.items() if isinstance(v, bool)}
        return value

    @property
    def verified(self) -> bool:
        """Verified only with a ``verifiedAt`` and no capability flag reported false."""
        return self.verified_at is not None and all(self.capabilities.values())


class ModelConnectionPage(MindsModel):
    data: list[ModelConnection]
    next_cursor: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _cursor(cls, data: Any) -> Any:
        pagination = data.get("pagination") if isinstance(data, dict) else None
        if isinstance(pagination, dict):
            return {**data, "nextCursor": pagination.get("nextCursor")}
        return data


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


# --- talking to a Mind ---------------------------------------------------------------------------------------


class MindDetail(MindsModel):
    """``GET /minds/{id}``: who the Mind is and whether it can chat yet (``readyToChat`` is required)."""

    id: str
    name: str
    description: str | None = None
    discipline: str | None = None
    profile_image_url: str | None = None
    training_status: str | None = None
    ready_to_chat: bool


class ChatMind(MindsModel):
    id: str
    name: str
    discipline: str | None = None
    profile_image_url: str | None = None


class ChatCreated(MindsModel):
    """``POST /chats`` (``data``): the stateful chat the thread talks to."""

    id: str
    name: str
    minds: list[ChatMind]


class ChatReply(MindsModel):
    """``POST /chats/{id}/messages`` for a one-Mind chat (top level, no ``data``). ``content`` may be empty only
    when the turn ended in tool calls, which the bot never requests."""

    content: str
    message_id: str


# --- Audience and Mind profile exports ---------------------------------------------------------------------

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


class HeatmapExportStatus(MindsModel):
    """``POST /studies/{id}/heatmaps/{messageId}/export`` and ``GET …/export-status`` (undeclared shapes): the
    heatmap ZIP being made, downloaded from ``…/export-download`` once ``completed``."""

    status: Literal["idle", "queued", "processing", "completed", "failed"]
    job_id: str | None = None
    progress: float | None = None
    filename: str | None = None
    mime_type: str | None = None
    error: str | None = None


HeatmapStatus = Literal["none", "idle", "queued", "processing", "completed", "failed"]


class HeatmapRegion(MindsModel):
    label: str
    attention: float = Field(ge=0, le=1)


class Heatmap(MindsModel):
    """``GET|POST /studies/{id}/heatmaps/{messageId}`` (undeclared shape): one asset's heatmap and its queue
    state. ``regions`` are present once ``completed``; a completed heatmap without them is malformed."""

    status: HeatmapStatus
    asset_key: str | None = None
    kind: str | None = None
    respondents: int | None = Field(default=None, ge=0)
    regions: list[HeatmapRegion] | None = None
    summary: str | None = None
    error: str | None = None
    queue_position: int | None = None

    @model_validator(mode="after")
    def _completed_has_regions(self) -> Heatmap:
        if self.status == "completed" and self.regions is None:
            raise ValueError("a completed heatmap carries no regions")
        return self

    @property
    def finished(self) -> bool:
        return self.status in ("completed", "failed")
