"""Read-mostly catalogue routes: the key check, Minds, Audiences (incl. from-brief and duplicate),
Study list and creation, research methods, Study drafts and templates.

Owns: those handlers. Must not touch runs, plans or exports.
"""

from __future__ import annotations

from typing import Any, Literal

from aiohttp import web
from pydantic import BaseModel, ConfigDict, Field

from minds_sandbox import views
from minds_sandbox.clock import iso
from minds_sandbox.errors import ApiError, bad_request, conflict, not_found
from minds_sandbox.http_support import (
    body_hash,
    idempotency_key,
    list_response,
    lookup,
    newest_first,
    ok,
    paged,
    parse,
    read_json,
    runtime,
)
from minds_sandbox.ids import stable_id
from minds_sandbox.middleware import KEY_FP
from minds_sandbox.routes_minds import advance
from minds_sandbox.routes_tools import check_source_files
from minds_sandbox.seed import MAX_BRIEF_MEMBERS, new_draft_record, new_study

TEMPLATE_USE_MAX_BYTES = 4 * 1024
SYSTEM_AUDIENCE_LIMIT = 1000  # the absolute ceiling, above any plan
AUTOMATIC_SIZING_CEILING = 24
CREATION_MODES = ("balanced", "segment_coverage", "benchmark_depth")


async def auth_me(request: web.Request) -> web.Response:
    return web.json_response({"id": stable_id("user", request[KEY_FP])})


async def list_minds(request: web.Request) -> web.Response:
    minds = newest_first([m for m in runtime(request).state.minds.values() if m.get("deletedAt") is None])
    search = request.query.get("search", "").strip().lower()
    if search:
        minds = [m for m in minds if search in f"{m['name']} {m['description']} {m['discipline']}".lower()]
    return paged(request, [views.mind_summary(m) for m in minds])


async def get_mind(request: web.Request) -> web.Response:
    rt = runtime(request)
    mind = lookup(rt.state.minds, request.match_info["mind_id"], "Mind")
    if mind.get("deletedAt") is not None:
        raise not_found("Mind")
    advance(rt, mind)
    detail = views.mind_detail(mind)
    if mind["id"] in rt.faults.training_minds:
        detail |= {"trainingStatus": "running", "readyToChat": False}
    return ok(detail)


async def list_audiences(request: web.Request) -> web.Response:
    state = runtime(request).state
    return paged(request, [views.audience_summary(state, a) for a in newest_first(list(state.audiences.values()))])


async def get_audience(request: web.Request) -> web.Response:
    state = runtime(request).state
    audience = lookup(state.audiences, request.match_info["audience_id"], "Audience")
    return ok(views.audience_detail(state, audience, now=runtime(request).clock.now()))


async def audience_limits(request: web.Request) -> web.Response:
    """The fields the OpenAPI description names: the per-Audience plan cap, the system limit, the custom-size
    maximum, ceilings per creation mode, scope, allowance and checkedAt."""
    return ok(
        {
            "perAudienceCap": MAX_BRIEF_MEMBERS,
            "systemLimit": SYSTEM_AUDIENCE_LIMIT,
            "customSizeMax": MAX_BRIEF_MEMBERS,
            "modes": [
                {
                    "mode": mode,
                    "automaticSizingCeiling": AUTOMATIC_SIZING_CEILING,
                    "explicitCountCeiling": MAX_BRIEF_MEMBERS,
                }
                for mode in CREATION_MODES
            ],
            "currentPlan": "premium",
            "scope": {"userId": stable_id("user", request[KEY_FP]), "teamId": None},
            "allowance": {"source": "plan_default"},
            "checkedAt": iso(runtime(request).clock.now()),
        },
        headers={"Cache-Control": "private, no-store"},
    )


async def list_studies(request: web.Request) -> web.Response:
    state = runtime(request).state
    return paged(request, [views.study_summary(state, s) for s in newest_first(list(state.studies.values()))])


async def get_study(request: web.Request) -> web.Response:
    state = runtime(request).state
    return ok(views.study_detail(state, lookup(state.studies, request.match_info["study_id"], "Study")))


class AudienceConfig(BaseModel):
    name: str = Field(min_length=1)
    mindIds: list[str] = Field(min_length=1)


class CreateStudy(BaseModel):
    name: str = Field(min_length=1, max_length=200)
    audienceIds: list[str] = Field(default_factory=list)
    audienceConfigs: list[AudienceConfig] = Field(default_factory=list)
    isLinkSharingEnabled: bool = False


async def create_study(request: web.Request) -> web.Response:
    rt = runtime(request)
    body = parse(CreateStudy, await read_json(request))
    state = rt.state
    for audience_id in body.audienceIds:
        lookup(state.audiences, audience_id, "Audience")
    for config in body.audienceConfigs:
        for mind_id in config.mindIds:
            lookup(state.minds, mind_id, "Mind")
    now = rt.clock.now()
    inline = [_inline_audience(request, config, now=now) for config in body.audienceConfigs]
    study = new_study(state, name=body.name, audience_ids=body.audienceIds + inline, now=now)
    if body.isLinkSharingEnabled:
        study["isLinkSharingEnabled"], study["publicShareId"] = True, state.new_id("share")
    return ok(views.study_created(state, study), status=201)


def _inline_audience(request: web.Request, config: AudienceConfig, *, now: float) -> str:
    state = runtime(request).state
    audience_id = state.new_id("audience")
    state.audiences[audience_id] = {
        "id": audience_id,
        "name": config.name,
        "mindIds": list(config.mindIds),
        "createdAt": now,
        "updatedAt": now,
        "isLinkSharingEnabled": False,
        "publicShareId": None,
        "brief": None,
    }
    return audience_id


async def research_methods(request: web.Request) -> web.Response:
    return list_response(request, [dict(m) for m in views.RESEARCH_METHODS], pagination=None)


# ---------------------------------------------------------------- Audience from brief


class FromBrief(BaseModel):
    text: str = Field(min_length=1, max_length=200_000)
    name: str | None = None
    files: list[dict[str, str]] = Field(default_factory=list)
    links: list[str] = Field(default_factory=list)
    keywords: list[str] = Field(default_factory=list)
    includeWebSearch: bool = True
    isLinkSharingEnabled: bool = False
    memberCount: int | None = Field(default=None, ge=1, le=SYSTEM_AUDIENCE_LIMIT)
    audienceCreationMode: Literal["balanced", "segment_coverage", "benchmark_depth"] | None = None
    datasetSegmentation: dict[str, Any] | None = None
    trainMembers: bool | None = None
    idempotencyKey: str | None = None


async def create_audience_from_brief(request: web.Request) -> web.Response:
    rt = runtime(request)
    raw = await read_json(request)
    body = parse(FromBrief, raw)
    if body.trainMembers is False:
        raise bad_request("trainMembers: false is no longer supported", code="TRAIN_MEMBERS_OPT_OUT_REMOVED")
    if body.memberCount and body.memberCount > MAX_BRIEF_MEMBERS:
        raise ApiError(
            403,
            f"This plan allows at most {MAX_BRIEF_MEMBERS} Minds per Audience",
            code="PLAN_LIMIT",
            data={
                "limitType": "audienceMembers",
                "currentPlan": "premium",
                "limit": MAX_BRIEF_MEMBERS,
                "requested": body.memberCount,
            },
        )
    check_source_files(request, body.files)
    if body.datasetSegmentation is not None and body.audienceCreationMode != "benchmark_depth":
        raise bad_request("datasetSegmentation requires audienceCreationMode benchmark_depth", code="MODE_REQUIRED")
    if any(not link.startswith(("https://", "http://")) for link in body.links):
        raise bad_request("links must be http(s) URLs", code="VALIDATION_ERROR")
    key = idempotency_key(request, body.idempotencyKey)
    scope = f"brief:{request[KEY_FP]}:{key}" if key else None
    if scope and scope in rt.state.run_requests:
        return _replay_brief(request, rt.state.run_requests[scope], body_hash(raw))
    job: dict[str, Any] = {
        "id": rt.state.new_id("brief-job"),
        "text": body.text,
        "name": body.name,
        "memberCount": body.memberCount or _dataset_size(body.datasetSegmentation),
        "files": body.files,
        "links": body.links,
        "keywords": body.keywords,
        "includeWebSearch": body.includeWebSearch,
        "creationMode": body.audienceCreationMode or "balanced",
        "isLinkSharingEnabled": body.isLinkSharingEnabled,
        "datasetColumns": (body.datasetSegmentation or {}).get("segmentationColumns"),
        "status": "queued",
        "progress": 0,
        "createdAt": rt.clock.now(),
    }
    rt.state.brief_jobs[job["id"]] = job
    if scope:
        rt.state.run_requests[scope] = {"jobId": job["id"], "bodyHash": body_hash(raw)}
    rt.state.touch()
    return ok(_job_view(job), status=202)


def _dataset_size(segmentation: dict[str, Any] | None) -> int | None:
    """A reviewed dataset's recommended Mind count sizes the Audience when no count was asked for."""
    count = (segmentation or {}).get("recommendedMindCount")
    return min(count, MAX_BRIEF_MEMBERS) if isinstance(count, int) and count > 0 else None


def _replay_brief(request: web.Request, seen: dict, digest: str) -> web.Response:
    state = runtime(request).state
    job = state.brief_jobs[seen["jobId"]]
    if seen["bodyHash"] != digest:
        raise conflict("This Idempotency-Key was used with a different request", code="IDEMPOTENCY_KEY_REUSED")
    if job["status"] != "completed":
        raise conflict(
            "The Audience for this Idempotency-Key is still being created",
            code="IN_PROGRESS",
            data={"jobId": job["id"]},
        )
    audience = state.audiences[job["audienceId"]]
    return ok(views.audience_from_brief_result(state, audience, replayed=True))


def _job_view(job: dict) -> dict:
    return {
        "jobId": job["id"],
        "status": job["status"],
        "progress": job["progress"],
        "statusUrl": f"/api/v1/audiences/from-brief/jobs/{job['id']}",
    }


async def get_brief_job(request: web.Request) -> web.Response:
    state = runtime(request).state
    job = lookup(state.brief_jobs, request.match_info["job_id"], "Audience creation job")
    view = _job_view(job)
    if job["status"] == "completed":
        view["result"] = views.audience_from_brief_result(state, state.audiences[job["audienceId"]], replayed=False)
    return ok(view)


# ---------------------------------------------------------------- duplicate Audience


class Duplicate(BaseModel):
    name: str | None = Field(default=None, min_length=1, max_length=200)
    idempotencyKey: str | None = None


async def duplicate_audience(request: web.Request) -> web.Response:
    rt = runtime(request)
    state = rt.state
    source = lookup(state.audiences, request.match_info["audience_id"], "Audience")
    raw = await read_json(request, required=False)
    body = parse(Duplicate, raw)
    key = idempotency_key(request, body.idempotencyKey)
    scope = f"audience:{source['id']}:{key}"
    if key and scope in state.duplicates:
        return ok(views.audience_summary(state, state.audiences[state.duplicates[scope]["id"]]), status=200)
    now = rt.clock.now()
    copy_id = state.new_id("audience")
    mind_ids = [_copy_mind(request, state.minds[m], audience_id=copy_id, now=now) for m in source["mindIds"]]
    state.audiences[copy_id] = {
        **source,
        "id": copy_id,
        "name": body.name or f"{source['name']} (copy)",
        "mindIds": mind_ids,
        "createdAt": now,
        "updatedAt": now,
        "isLinkSharingEnabled": False,
        "publicShareId": None,
    }
    if key:
        state.duplicates[scope] = {"id": copy_id}
    state.touch()
    return ok(views.audience_summary(state, state.audiences[copy_id]), status=201)


def _copy_mind(request: web.Request, mind: dict, *, audience_id: str, now: float) -> str:
    state = runtime(request).state
    copy_id = state.new_id("mind")
    state.minds[copy_id] = {
        **mind,
        "id": copy_id,
        "audienceId": audience_id,
        "createdAt": now,
        "updatedAt": now,
    }
    return copy_id


# ---------------------------------------------------------------- drafts and templates


async def list_study_drafts(request: web.Request) -> web.Response:
    drafts = [d for d in runtime(request).state.drafts.values() if d["status"] in ("draft", "starting")]
    drafts.sort(key=lambda d: d["createdAt"], reverse=True)
    return list_response(request, drafts, pagination=None)


async def list_study_templates(request: web.Request) -> web.Response:
    return list_response(request, list(runtime(request).state.templates.values()), pagination=None)


class TemplateUse(BaseModel):
    model_config = ConfigDict(extra="forbid")
    expectedRevision: int = Field(ge=1)
    requestId: str = Field(pattern=r"^[0-9a-fA-F-]{36}$")


async def use_study_template(request: web.Request) -> web.Response:
    rt = runtime(request)
    state = rt.state
    template = lookup(state.templates, request.match_info["template_id"], "Template")
    body = parse(TemplateUse, await read_json(request, max_bytes=TEMPLATE_USE_MAX_BYTES))
    if body.expectedRevision != template["revision"]:
        raise conflict(
            "The template changed; reload it before using it",
            code="REVISION_CONFLICT",
            data={"currentRevision": template["revision"]},
        )
    draft_id = stable_id("template-use", template["id"], body.requestId)
    if draft_id not in state.drafts:
        questions = template["configuration"]["questions"]
        state.drafts[draft_id] = new_draft_record(
            draft_id=draft_id,
            name=template["name"],
            created=iso(rt.clock.now()),
            state_payload={"templateId": template["id"], "questions": questions},
        )
        state.touch()
    return ok(state.drafts[draft_id], status=201)
