"""Saving, reading, editing, deleting and consuming Study drafts: ``POST /study-drafts``, ``GET|PATCH|DELETE
/study-drafts/{id}``, ``POST /study-drafts/{id}/consume``; saving a template, ``POST /study-templates`` (a
repeated ``requestId`` returns the same template), and reading, editing and deleting one, ``GET|PATCH|DELETE
/study-templates/{id}`` (owner only; an edit needs the current revision; a delete answers ``success: true``).
Listing and template use live in ``routes_catalogue``.

Owns: creating a draft (a repeated ``idempotencyKey`` returns the same draft; a caller-chosen ``id`` that exists
is 409), deleting with an empty 204, and consuming once (a stale ``expectedRevision`` is 409; a repeat returns
the existing consumed record). The versioned payload is capped at 512 KiB (413).
Must not contain: anything of the bot.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from aiohttp import web
from pydantic import BaseModel, ConfigDict, Field

from minds_sandbox.clock import iso
from minds_sandbox.errors import ApiError, conflict
from minds_sandbox.http_support import lookup, ok, parse, read_json, runtime
from minds_sandbox.ids import stable_id
from minds_sandbox.seed import new_draft_record

MAX_PAYLOAD_BYTES = 512 * 1024


class DraftPayload(BaseModel):
    model_config = ConfigDict(extra="allow")
    version: Literal[1]
    state: dict[str, Any]


class CreateDraft(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str | None = None
    name: str = "Untitled study"
    mode: Literal["quick", "custom"] = "custom"
    currentStep: str = "questions"
    payload: DraftPayload | None = None
    idempotencyKey: str | None = Field(default=None, min_length=1, max_length=200)


class ConsumeDraft(BaseModel):
    model_config = ConfigDict(extra="forbid")
    expectedRevision: int = Field(ge=1)
    studyId: str | None = None


async def create_draft(request: web.Request) -> web.Response:
    rt = runtime(request)
    body = parse(CreateDraft, await read_json(request, required=False))
    payload = body.payload.model_dump() if body.payload else {"version": 1, "state": {}}
    if len(json.dumps(payload)) > MAX_PAYLOAD_BYTES:
        raise ApiError(413, "The versioned payload exceeds the allowed size", code="PAYLOAD_TOO_LARGE")
    draft_id = body.id or (stable_id("draft-key", body.idempotencyKey) if body.idempotencyKey else None)
    draft_id = draft_id or rt.state.new_id("draft")
    existing = rt.state.drafts.get(draft_id)
    if existing is not None:
        if body.id is not None:
            raise conflict("The supplied draft ID already exists", code="DRAFT_EXISTS")
        return ok(existing, status=201)
    draft = new_draft_record(draft_id=draft_id, name=body.name, created=iso(rt.clock.now()), state_payload={})
    draft.update(mode=body.mode, currentStep=body.currentStep, payload=payload)
    rt.state.drafts[draft_id] = draft
    rt.state.touch()
    return ok(draft, status=201)


async def delete_draft(request: web.Request) -> web.Response:
    rt = runtime(request)
    draft = lookup(rt.state.drafts, request.match_info["draft_id"], "Study draft")
    del rt.state.drafts[draft["id"]]
    rt.state.touch()
    return web.Response(status=204)


async def consume_draft(request: web.Request) -> web.Response:
    rt = runtime(request)
    draft = lookup(rt.state.drafts, request.match_info["draft_id"], "Study draft")
    body = parse(ConsumeDraft, await read_json(request))
    if draft["status"] == "consumed":
        return ok(draft)
    if body.expectedRevision != draft["revision"]:
        raise conflict("Stale revision", code="STALE_REVISION", data={"revision": draft["revision"]})
    draft.update(status="consumed", studyId=body.studyId, updatedAt=iso(rt.clock.now()))
    rt.state.touch()
    return ok(draft)


class TemplateResponse(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: Literal["qualitative", "categorical", "multiselect", "scale"]
    scaleRange: list[float] | None = Field(default=None, min_length=2, max_length=2)
    categoricalOptions: list[str] | None = None
    maxSelections: int | None = Field(default=None, ge=1)


class TemplateQuestion(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: str
    response: TemplateResponse
    attachments: list[dict[str, Any]] = Field(default_factory=list)


class TemplateConfiguration(BaseModel):
    model_config = ConfigDict(extra="forbid")
    version: Literal[1]
    goal: Literal["concept", "comparison", "website", "pricing", "market", "explore"]
    studyLocale: Literal["ar", "de", "en", "es", "fr", "ja", "ko", "tr", "zh"]
    methodId: str
    questions: list[TemplateQuestion] = Field(min_length=1)


class SaveTemplate(BaseModel):
    model_config = ConfigDict(extra="forbid")
    requestId: str | None = None
    name: str = Field(min_length=1, max_length=200)
    configuration: TemplateConfiguration


async def save_template(request: web.Request) -> web.Response:
    rt = runtime(request)
    body = parse(SaveTemplate, await read_json(request))
    template_id = stable_id("template-save", body.requestId) if body.requestId else rt.state.new_id("template")
    if template_id not in rt.state.templates:
        now = iso(rt.clock.now())
        rt.state.templates[template_id] = {
            "id": template_id,
            "name": body.name,
            "revision": 1,
            "isSharedWithTeam": False,
            "canManage": True,
            "canShareWithTeam": False,
            "createdAt": now,
            "updatedAt": now,
            "configuration": body.configuration.model_dump(exclude_none=True),
        }
        rt.state.touch()
    return ok(rt.state.templates[template_id], status=201)


# ---------------------------------------------------------------- reading, editing and deleting one


class UpdateDraft(BaseModel):
    model_config = ConfigDict(extra="forbid")
    expectedRevision: int = Field(ge=1)
    name: str | None = Field(default=None, min_length=1, max_length=200)
    mode: Literal["quick", "custom"] | None = None
    currentStep: str | None = Field(default=None, min_length=1)
    payload: DraftPayload | None = None


async def get_draft(request: web.Request) -> web.Response:
    draft = lookup(runtime(request).state.drafts, request.match_info["draft_id"], "Study draft")
    return ok(draft)


async def update_draft(request: web.Request) -> web.Response:
    """Compare-and-swap on ``expectedRevision``; a consumed draft or a stale revision is 409; an unchanged state
    keeps its revision and ``updatedAt``."""
    rt = runtime(request)
    draft = lookup(rt.state.drafts, request.match_info["draft_id"], "Study draft")
    body = parse(UpdateDraft, await read_json(request))
    if draft["status"] == "consumed":
        raise conflict("The draft was already consumed", code="DRAFT_CONSUMED")
    if body.expectedRevision != draft["revision"]:
        raise conflict("Stale revision", code="STALE_REVISION", data={"revision": draft["revision"]})
    changes = body.model_dump(exclude_none=True, exclude={"expectedRevision"})
    if "payload" in changes and len(json.dumps(changes["payload"])) > MAX_PAYLOAD_BYTES:
        raise ApiError(413, "The versioned payload exceeds the allowed size", code="PAYLOAD_TOO_LARGE")
    if any(draft.get(field) != value for field, value in changes.items()):
        draft.update(changes, revision=draft["revision"] + 1, updatedAt=iso(rt.clock.now()))
        rt.state.touch()
    return ok(draft)


class UpdateTemplate(BaseModel):
    model_config = ConfigDict(extra="forbid")
    expectedRevision: int = Field(ge=1)
    name: str | None = Field(default=None, min_length=1, max_length=200)
    configuration: TemplateConfiguration | None = None
    isSharedWithTeam: bool | None = None


async def get_template(request: web.Request) -> web.Response:
    return ok(lookup(runtime(request).state.templates, request.match_info["template_id"], "Template"))


async def update_template(request: web.Request) -> web.Response:
    """Owner only (``canManage``); the current revision, else 409; at least one of name, configuration, sharing.
    A change raises the revision."""
    rt = runtime(request)
    template = lookup(rt.state.templates, request.match_info["template_id"], "Template")
    body = parse(UpdateTemplate, await read_json(request))
    if not template["canManage"]:
        raise ApiError(404, "Template not found or not owned by the caller", code="NOT_FOUND")
    if body.expectedRevision != template["revision"]:
        data = {"revision": template["revision"]}
        raise conflict("The template changed; reload it", code="STALE_REVISION", data=data)
    if body.name is None and body.configuration is None and body.isSharedWithTeam is None:
        raise ApiError(400, "Nothing to update: name, configuration or isSharedWithTeam", code="INVALID_REQUEST")
    if body.isSharedWithTeam and not template["canShareWithTeam"]:
        raise ApiError(400, "The owner has no team to share with", code="NO_TEAM")
    changes: dict[str, Any] = {"name": body.name, "isSharedWithTeam": body.isSharedWithTeam}
    if body.configuration is not None:
        changes["configuration"] = body.configuration.model_dump(exclude_none=True)
    template.update({k: v for k, v in changes.items() if v is not None})
    template.update(revision=template["revision"] + 1, updatedAt=iso(rt.clock.now()))
    rt.state.touch()
    return ok(template)


async def delete_template(request: web.Request) -> web.Response:
    rt = runtime(request)
    template = lookup(rt.state.templates, request.match_info["template_id"], "Template")
    if not template["canManage"]:
        raise ApiError(404, "Template not found or not owned by the caller", code="NOT_FOUND")
    del rt.state.templates[template["id"]]
    rt.state.touch()
    return web.json_response({"success": True})
