"""Research-plan models: the research methods, a plan revision (modules, questions, confirmations,
attachments), its preparation receipt, the pending state the bot persists, the preview request body, and the
model connections a run may be pinned to.

Owns: those shapes and the exact bytes of a preview request (``PlanPreviewRequest.to_body``).
Must not touch: HTTP, Slack, the store.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import AliasChoices, Field, field_validator, model_validator

from minds_bot.minds.models.common import MindsModel


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
