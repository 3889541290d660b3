"""Every public ``MindsClient`` method's requests validate against the shared OpenAPI document.

The client's public methods are introspected, so a new method without a case in ``CASES`` fails the suite.
Each case runs over ``httpx.MockTransport`` and every request it sends is checked: the method and path must be
an operation of the document (path parameters against their schemas), query parameters and non-standard
headers must be declared, and bodies must match the operation's ``requestBody`` schema (Draft 2020-12, ``$ref``s
resolved within the document, formats checked). Where the seeds and the OpenAPI disagree the client follows the
seeds, and ``SEED_EXCEPTIONS`` names each such exception with its seed rule (``CATALOGUE.md``); those requests
are checked against what the seeds allow instead.
"""

from __future__ import annotations

import inspect
import json
import os
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import httpx
import pytest
from jsonschema import Draft202012Validator

from minds_bot.minds import ExportJob, MindsClient, PlanPending, PlanPreviewRequest
from minds_bot.minds.models.audience_manage import FormationHypothesis
from tests.fakes.minds_http import FakeMindsAPI, Sent, make_client, ok, page, raw
from tests.minds.design_samples import audience_created, segmentation_preview
from tests.minds.samples import (
    AUDIENCE_ID,
    MIND_ID,
    PLAN_ID,
    RUN_ID,
    STUDY_ID,
    TS,
    audience,
    mind,
    plan,
    receipt,
    research_run,
    study,
    study_detail,
    uid,
)

REPO = Path(__file__).resolve().parents[2]
OPENAPI = Path("reference/minds-api/openapi/getminds-openapi.json")


@dataclass(frozen=True)
class SeedException:
    """A request the client shapes after the seeds where the OpenAPI copy says otherwise (or nothing)."""

    rule: str  # where the seeds say it (CATALOGUE.md)
    body_keys: frozenset[str] = frozenset()  # allowed body keys when the document declares no body schema
    headers: frozenset[str] = frozenset()  # non-standard request headers the seeds add
    max_body: int | None = None
    query: frozenset[str] = frozenset()  # query parameters the seeds add (any string value)


SEED_EXCEPTIONS: dict[tuple[str, str], SeedException] = {
    ("POST", "/studies/{studyId}/summary"): SeedException(
        rule="§3.11 (004): the refresh body is a JSON object of at most 4 KiB with only force and length; "
        "the OpenAPI declares no body",
        body_keys=frozenset({"force", "length"}),
        max_body=4096,
    ),
    ("POST", "/studies/{studyId}/duplicate"): SeedException(
        rule="§3.12 and §2 H.73: POST /studies/{studyId}/duplicate with {name?} and the Idempotency-Key header "
        "(which wins over the body key); the OpenAPI copy has no duplicate route",
        body_keys=frozenset({"name", "idempotencyKey"}),
        headers=frozenset({"idempotency-key"}),
    ),
    ("POST", "/audiences/{audienceId}/duplicate"): SeedException(
        rule="§1.5 tool 17 (duplicate_audience) and §2 H.73: POST /audiences/{audienceId}/duplicate, a retry "
        "reuses the key; the OpenAPI copy has no duplicate route",
        body_keys=frozenset({"name", "idempotencyKey"}),
        headers=frozenset({"idempotency-key"}),
    ),
    ("POST", "/audiences/{audienceId}/export"): SeedException(
        rule="§1.5 export_audience: the export body carries format and force; the OpenAPI copy declares no body",
        body_keys=frozenset({"format", "force"}),
    ),
    ("POST", "/minds"): SeedException(
        rule="§2 H.71 (create_mind): an idempotency key (a UUID) chosen before creating and reused with the same "
        "inputs for every retry; the OpenAPI copy declares no key, so it travels in the Idempotency-Key header",
        headers=frozenset({"idempotency-key"}),
    ),
    ("DELETE", "/minds"): SeedException(
        rule="§1.5 tool 37 (manage_mind delete_many) and §2 I: mindIds (1–100) with an explicit confirmation; the "
        "OpenAPI declares no body for deleteMinds, and deleteMind's description names a mindIds body",
        body_keys=frozenset({"mindIds"}),
    ),
    ("GET", "/studies/{studyId}/runs"): SeedException(
        rule="§2 B.16 (004): the run list continues with before = pagination.nextCursor while hasMore; the "
        "OpenAPI copy declares only limit",
        query=frozenset({"before"}),
    ),
    ("POST", "/studies/{studyId}/research-plans/preview"): SeedException(
        rule="§3.5 and §2 G.69/H.78: the 202 plan receipt is observed by repeating the POST with the same "
        "Idempotency-Key header and x-minds-study-plan-request-id / -operation-id; the OpenAPI declares "
        "neither the 202 nor these headers",
        headers=frozenset({"idempotency-key", "x-minds-study-plan-request-id", "x-minds-study-plan-operation-id"}),
    ),
}
STANDARD_HEADERS = frozenset(
    {"host", "accept", "accept-encoding", "connection", "user-agent", "authorization", "content-type", "content-length"}
)


def shared_dir() -> Path:
    candidates = [os.environ.get("MINDS_SHARED_DIR"), REPO.parent / "shared", "/work/shared"]
    for candidate in candidates:
        if candidate and (Path(candidate) / OPENAPI).is_file():
            return Path(candidate)
    raise AssertionError("the shared reference directory was not found (set MINDS_SHARED_DIR)")


@cache
def spec() -> dict[str, Any]:
    return json.loads((shared_dir() / OPENAPI).read_text())


def operation_for(method: str, path: str) -> tuple[str, dict[str, Any]] | None:
    """The declared operation for a sent path; literal segments win (/audiences/limits over /{audienceId})."""
    found = []
    for template, ops in spec()["paths"].items():
        relative = template.removeprefix("/api/v1")
        if _template_matches(relative, path) and method.lower() in ops:
            found.append((relative.count("{"), relative, ops[method.lower()]))
    return min(found, key=lambda f: f[0])[1:] if found else None


def _template_matches(template: str, path: str) -> bool:
    pattern = "^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)) + "$"
    return re.match(pattern, path) is not None


def validator(schema: dict[str, Any]) -> Draft202012Validator:
    rooted = {**schema, "components": spec()["components"]}  # lets "#/components/..." refs resolve
    return Draft202012Validator(rooted, format_checker=Draft202012Validator.FORMAT_CHECKER)


def coerce(value: str, schema: dict[str, Any]) -> Any:
    return int(value) if schema.get("type") == "integer" else value


def problems(sent: Sent) -> list[str]:
    """Everything about ``sent`` the document (or, for a listed exception, the seeds) does not allow."""
    found = operation_for(sent.method, sent.path)
    exception = _seed_exception(sent)
    if found is None:
        if exception is None:
            return [f"{sent.method} {sent.path}: not an operation of the Minds API"]
        return _header_problems(sent, {}, exception) + _seed_body_problems(sent, exception)
    template, op = found
    params = op.get("parameters", [])
    errors = _path_problems(sent, template, params) + _query_problems(sent, template, params, exception)
    errors += _header_problems(sent, op, exception)
    body_schema = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
    if body_schema is None:
        if exception is not None and exception.body_keys:
            return errors + _seed_body_problems(sent, exception)
        return errors + ([f"{sent.method} {template}: sends a body the document does not declare"] * bool(sent.body))
    body = sent.json() if sent.body else None
    if body is None and op["requestBody"].get("required"):
        errors.append(f"{template}: required body missing")
    elif body is not None:
        errors += [
            f"{sent.method} {template} body {list(e.path)}: {e.message}"
            for e in validator(body_schema).iter_errors(body)
        ]
    return errors


def _seed_exception(sent: Sent) -> SeedException | None:
    for (method, template), exception in SEED_EXCEPTIONS.items():
        if method == sent.method and _template_matches(template, sent.path):
            return exception
    return None


def _path_problems(sent: Sent, template: str, params: list[dict[str, Any]]) -> list[str]:
    names = re.findall(r"\{([^}]+)\}", template)
    pattern = "^" + re.sub(r"\\\{[^}]+\\\}", "([^/]+)", re.escape(template)) + "$"
    match = re.match(pattern, sent.path)
    assert match is not None
    schemas = {p["name"]: p["schema"] for p in params if p["in"] == "path"}
    errors = []
    for name, value in zip(names, match.groups(), strict=True):
        schema = schemas.get(name, {"type": "string"})
        errors += [f"{template} {{{name}}}: {e.message}" for e in validator(schema).iter_errors(value)]
    return errors


def _query_problems(
    sent: Sent, template: str, params: list[dict[str, Any]], exception: SeedException | None
) -> list[str]:
    declared = {p["name"]: p["schema"] for p in params if p["in"] == "query"}
    errors = []
    for name, value in sent.params.items():
        if exception is not None and name in exception.query and name not in declared:
            continue
        if name not in declared:
            errors.append(f"{sent.method} {template}: undeclared query parameter {name}")
            continue
        errors += [
            f"{template} ?{name}: {e.message}"
            for e in validator(declared[name]).iter_errors(coerce(value, declared[name]))
        ]
    return errors


def _header_problems(sent: Sent, op: dict[str, Any], exception: SeedException | None) -> list[str]:
    declared = {p["name"].lower(): p["schema"] for p in op.get("parameters", []) if p["in"] == "header"}
    allowed = STANDARD_HEADERS | set(declared) | (exception.headers if exception else frozenset())
    errors = [f"{sent.method} {sent.path}: undeclared header {name}" for name in sent.headers if name not in allowed]
    for name, schema in declared.items():
        if name in sent.headers:
            errors += [f"{sent.path} {name}: {e.message}" for e in validator(schema).iter_errors(sent.headers[name])]
    return errors


def _seed_body_problems(sent: Sent, exception: SeedException) -> list[str]:
    if not sent.body:
        return []
    body = sent.json()
    if not isinstance(body, dict):
        return [f"{sent.path}: the body must be a JSON object ({exception.rule})"]
    extra = set(body) - exception.body_keys
    too_big = exception.max_body is not None and len(sent.body) > exception.max_body
    return [f"{sent.path} body has {extra} ({exception.rule})"] * bool(extra) + [f"{sent.path} body too big"] * too_big


def everything_api() -> FakeMindsAPI:
    api = FakeMindsAPI()
    one = {"total": 1, "offset": 0}
    api.on("GET", "/auth/me", raw({"id": uid(9)}))
    api.on("GET", "/studies", page([study(1, "Launch positioning")], **one))
    api.on("GET", f"/studies/{STUDY_ID}", ok(study_detail()))
    created = {k: v for k, v in study_detail().items() if k != "messages"}
    api.on("POST", "/studies", ok(created, status=201))
    api.on(
        "POST",
        f"/studies/{STUDY_ID}/duplicate",
        raw({"data": created, "workspaceUrl": "https://w"}, status=201),
    )
    api.on(
        "PUT",
        f"/studies/{STUDY_ID}/sharing",
        ok({"isPublic": False, "isLinkSharingEnabled": True, "publicShareId": uid(6), "sharedStudyUrl": "u"}),
    )
    api.on("GET", f"/studies/{STUDY_ID}/analytics", ok({"questions": []}))
    api.on("GET", f"/studies/{STUDY_ID}/summary", ok({"summary": "# S", "revision": 1, "isGenerating": False}))
    api.on("POST", f"/studies/{STUDY_ID}/summary", ok({"summary": "# S", "revision": 2}))
    api.on("GET", "/audiences", page([audience(1, "Parents")], **one))
    api.on(
        "GET",
        f"/audiences/{AUDIENCE_ID}",
        ok({**audience(0, "Parents"), "id": AUDIENCE_ID, "isPublic": False}),
    )
    api.on("GET", "/audiences/limits", ok({"perAudienceCap": 50, "modes": [{"mode": "balanced"}]}))
    api.on(
        "POST",
        f"/audiences/{AUDIENCE_ID}/duplicate",
        ok({**audience(5, "Parents (copy)"), "isPublic": False}, status=201),
    )
    api.on(
        "POST",
        "/audiences/from-brief",
        ok({"jobId": uid(11), "status": "queued", "progress": 0, "statusUrl": "/x"}, status=202),
    )
    api.on(
        "GET",
        f"/audiences/from-brief/jobs/{uid(11)}",
        ok({"jobId": uid(11), "status": "completed", "result": {**audience(7), "mindCount": 1}}),
    )
    api.on("POST", "/audiences", ok(audience_created(), status=201))
    api.on("POST", "/audiences/from-brief/segmentation-preview", ok(segmentation_preview()))
    api.on("GET", "/minds", page([mind(1, "Ana")], **one))
    training = {"status": "queued", "readyToChat": False}
    api.on("POST", "/minds", raw({"data": mind(3, "Nora"), "training": training}, status=201))
    api.on("GET", f"/minds/{MIND_ID}/training", raw(training))
    api.on("PUT", f"/minds/{MIND_ID}", ok(mind(3, "Nora N.")))
    api.on("DELETE", f"/minds/{MIND_ID}", raw(None, status=204))
    api.on("POST", f"/minds/{MIND_ID}/retrain", raw(training))
    prompt = {"id": MIND_ID, "name": "Nora", "systemPrompt": "## Nora", "promptLength": 7}
    api.on("POST", f"/minds/{MIND_ID}/regenerate-prompt", raw({"success": True, "data": prompt}))
    item = {"id": uid(71), "description": "Survey", "link": "https://example.com/s", "processing": {"status": "queued"}}
    api.on("GET", f"/minds/{MIND_ID}/knowledge", raw({"success": True, "data": {"items": [item], "total": 1}}))
    api.on("POST", f"/minds/{MIND_ID}/knowledge", raw({"success": True, "data": item}, status=202))
    status = {"processing": {"status": "completed"}, "readyForRetrieval": True}
    api.on("GET", f"/minds/{MIND_ID}/knowledge/{uid(71)}/status", raw({"success": True, "data": status}))
    api.on("DELETE", f"/minds/{MIND_ID}/knowledge/{uid(71)}", raw(None, status=204))
    api.on("DELETE", "/minds", raw({"success": True, "data": {"results": [{"mindId": MIND_ID, "deleted": True}]}}))
    image = {"mindId": MIND_ID, "name": "Nora", "enqueued": True}
    api.on("POST", f"/minds/{MIND_ID}/regenerate-image", raw({"success": True, "data": image}))
    api.on("POST", f"/minds/{MIND_ID}/regenerate-embeddings", raw({"success": True}, status=202))
    pattern = {"id": 1, "aspect": "Openness", "subAspect": None, "mind": "Likes bold ideas"}
    api.on("GET", f"/minds/{MIND_ID}/patterns", raw({"data": [pattern]}))
    grouped = {"mindId": MIND_ID, "mindName": "Nora", "totalPatterns": 0, "frameworks": []}
    api.on("GET", f"/minds/{MIND_ID}/knowledge/patterns", raw({"success": True, "data": grouped}))
    api.on("PUT", f"/minds/{MIND_ID}/knowledge/{uid(71)}", raw({"success": True, "data": item}))
    enriched = {"mindId": MIND_ID, "keywords": ["a"], "queued": True, "regeneratePrompt": False, "message": "ok"}
    api.on("POST", f"/minds/{MIND_ID}/knowledge/enrich", raw({"success": True, "data": enriched}, status=202))
    api.on("POST", f"/studies/{STUDY_ID}/runs", ok({"runId": RUN_ID, "status": "queued"}, status=202))
    api.on("GET", f"/runs/{RUN_ID}", ok({"runId": RUN_ID, "status": "completed", "messageId": "m1"}))
    api.on("POST", f"/runs/{RUN_ID}/cancel", ok({"status": "cancelled"}))
    api.on("GET", f"/studies/{STUDY_ID}/runs", raw({"data": []}))
    api.on("GET", f"/studies/{STUDY_ID}/messages/m1/answers", raw({"messageId": "m1", "outputData": {}}))
    api.on("GET", "/research-methods", raw({"data": [{"id": "maxdiff", "executable": True}]}))
    api.on("POST", f"/studies/{STUDY_ID}/research-plans/preview", ok(receipt(), status=202), ok(plan()))
    api.on("POST", f"/studies/{STUDY_ID}/research-runs", ok({"runId": RUN_ID, "status": "queued"}))
    api.on("GET", f"/studies/{STUDY_ID}/research-runs/{RUN_ID}", ok(research_run()))
    api.on("GET", "/study-drafts", raw({"data": []}))
    api.on("GET", "/study-templates", raw({"data": []}))
    api.on(
        "POST",
        f"/study-templates/{uid(12)}/use",
        ok(
            {
                "id": uid(13),
                "userId": uid(14),
                "name": "Draft",
                "mode": "custom",
                "currentStep": "questions",
                "revision": 1,
                "status": "draft",
                "payload": {"version": 1, "state": {}},
                "studyId": None,
                "startRequestId": None,
                "startLeaseExpiresAt": None,
                "createdAt": "2025-01-01T00:00:00Z",
                "updatedAt": "2025-01-01T00:00:00Z",
            },
            status=201,
        ),
    )
    api.on(
        "POST",
        f"/studies/{STUDY_ID}/export",
        ok({"kind": "executive_brief", "format": "pdf", "jobId": "job-1", "status": "queued"}),
    )
    api.on("GET", f"/studies/{STUDY_ID}/export-status", ok({"status": "completed", "filename": "b.pdf"}))
    api.on(
        "GET",
        f"/studies/{STUDY_ID}/export-download",
        httpx.Response(302, headers={"Location": "https://s.test/f"}),
    )
    api.on("GET", f"/audiences/{AUDIENCE_ID}/progress", ok({"total": 1, "building": 0, "members": []}))
    api.on("GET", f"/audiences/{AUDIENCE_ID}/formations", raw({"data": []}))
    api.on(
        "POST",
        f"/audiences/{AUDIENCE_ID}/recalibrate",
        ok({"refreshedMembers": 0, "evolvedMembers": 1, "retrainingMembers": 1, "addedMembers": 0}),
    )
    api.on(
        "GET",
        "/model-connections",
        raw({"data": [{"id": uid(30), "verifiedAt": "2026-01-01T00:00:00Z"}], "pagination": {"nextCursor": uid(30)}}),
        raw({"data": [{"id": uid(31)}], "pagination": {"nextCursor": None}}),
    )
    api.on("POST", f"/studies/{STUDY_ID}/invitations", ok({"invited": ["a@example.com"], "emailFailures": []}))
    _toolbox(api)
    _manage(api)
    digest = "2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881"  # sha256("x")
    source = {"name": "a.csv", "url": "https://m/a.csv", "sha256": digest}
    api.on("POST", "/audiences/source-import", ok({"files": [source], "sourcePolicy": "supplied_files"}))
    heatmaps = f"/studies/{STUDY_ID}/heatmaps/m1"
    api.on("GET", heatmaps, ok({"status": "none", "assetKey": "a.png"}))
    api.on("POST", heatmaps, ok({"status": "queued", "assetKey": "a.png"}))
    api.on("POST", f"{heatmaps}/export", ok({"status": "processing"}))
    api.on("GET", f"{heatmaps}/export-status", ok({"status": "completed", "filename": "h.zip"}))
    api.on("GET", f"{heatmaps}/export-download", httpx.Response(302, headers={"Location": "https://s.test/h.zip"}))
    return api


def _toolbox(api: FakeMindsAPI) -> None:
    """Issue 14's calls: a Mind and its chat, Study drafts and templates, Audience and Mind profile exports."""
    api.on("GET", f"/minds/{MIND_ID}", ok({**mind(3, "Mia"), "id": MIND_ID, "readyToChat": True}))
    chat = {"id": CHAT_ID, "name": "Chat", "createdAt": TS, "minds": [{"id": MIND_ID, "name": "Mia"}]}
    api.on("POST", "/chats", ok(chat, status=201))
    api.on("POST", f"/chats/{CHAT_ID}/messages", raw({"content": "It depends on the price.", "messageId": "m1"}))
    api.on("POST", "/study-drafts", ok(DRAFT, status=201))
    api.on("DELETE", f"/study-drafts/{DRAFT_ID}", raw(None, status=204))
    api.on("POST", f"/study-drafts/{DRAFT_ID}/consume", ok({**DRAFT, "status": "consumed", "studyId": STUDY_ID}))
    api.on("POST", "/study-templates", ok(TEMPLATE, status=201))
    # issue 37: reading, editing and deleting drafts, templates, Studies and chats
    api.on("GET", f"/study-drafts/{DRAFT_ID}", ok(DRAFT))
    api.on("PATCH", f"/study-drafts/{DRAFT_ID}", ok({**DRAFT, "name": "Cups v2", "revision": 2}))
    api.on("GET", f"/study-templates/{TEMPLATE['id']}", ok(TEMPLATE))
    api.on("PATCH", f"/study-templates/{TEMPLATE['id']}", ok({**TEMPLATE, "name": "Coffee v2", "revision": 2}))
    api.on("DELETE", f"/study-templates/{TEMPLATE['id']}", raw({"success": True}))
    api.on("DELETE", f"/chats/{CHAT_ID}", raw(None, status=204))
    api.on("DELETE", f"/studies/{STUDY_ID}", raw(None, status=204))
    for kind, item in (("audiences", AUDIENCE_ID), ("minds", MIND_ID)):
        api.on("POST", f"/{kind}/{item}/export", ok({"status": "queued", "jobId": "pj-1"}))
        api.on("GET", f"/{kind}/{item}/export-status", ok(PROFILE_DONE))


FORMATION_ID = uid(71)
HYPOTHESIS = {
    "intent": "Audience by age",
    "subgroups": [
        {"id": "young", "label": "Under 30", "definition": "Aged under 30"},
        {"id": "older", "label": "30 and over", "definition": "Aged 30 or more"},
    ],
}


def _manage(api: FakeMindsAPI) -> None:
    """Issue 37's calls: an Audience renamed, deleted, followed, its members and portraits, its Formations."""
    base = f"/audiences/{AUDIENCE_ID}"
    updated = {**audience(1), "id": AUDIENCE_ID, "createdAt": TS, "updatedAt": TS, "isPublic": False}
    updated |= {"isSharedWithTeam": True, "isLinkSharingEnabled": False, "publicShareId": None}
    api.on("PUT", base, ok(updated))
    api.on("DELETE", base, raw(None, status=204))
    api.on("POST", f"{base}/follow", raw(None))
    api.on("DELETE", f"{base}/follow", raw(None))
    api.on("POST", f"{base}/members", ok({"added": 1}))
    api.on("DELETE", f"{base}/members/{MIND_ID}", raw(None, status=204))
    images = {"audienceId": AUDIENCE_ID, "totalMembers": 1, "candidates": 1, "enqueued": 0, "skipped": 0}
    api.on("POST", f"{base}/regenerate-images", ok({**images, "errors": 0, "dry": True, "sample": []}))
    preview = {"memberCount": 1, "softWarn": False, "hardCapExceeded": False, "phase": "hypothesizing"}
    api.on("POST", f"{base}/formations/preview", raw({"success": True, "data": {**preview, "hypothesis": HYPOTHESIS}}))
    api.on("POST", f"{base}/formations", ok({"id": FORMATION_ID, "name": "Age", "status": "building"}))
    detail = {"id": FORMATION_ID, "name": "Age", "status": "ready", "source": "manual", "visibility": "shared"}
    detail |= {"canMutate": True, "subgroups": [], "hypothesis": HYPOTHESIS, "progress": None}
    api.on("GET", f"{base}/formations/{FORMATION_ID}", ok(detail))
    api.on("POST", f"{base}/formations/{FORMATION_ID}/recompute", ok({"id": FORMATION_ID, "status": "building"}))
    api.on("DELETE", f"{base}/formations/{FORMATION_ID}", raw(None, status=204))


Case = Callable[[MindsClient], Awaitable[object]]
STIMULUS = {"url": "https://bot.example/stimuli/tok", "name": "shoe.png", "type": "image/png"}
NEW_PLAN = PlanPreviewRequest(request="Test the launch", study_locale="en", attachments=[STIMULUS])
EXPORT_JOB = ExportJob(kind="raw_data", format="sav", job_id="j", status="queued")
CHAT_ID = uid(40)
DRAFT_ID = uid(51)
DRAFT = {
    "id": DRAFT_ID,
    "userId": uid(52),
    "name": "Cups: plan revision 1",
    "mode": "custom",
    "currentStep": "questions",
    "revision": 1,
    "status": "draft",
    "payload": {"version": 1, "state": {"studyId": STUDY_ID}},
    "studyId": None,
    "startRequestId": None,
    "startLeaseExpiresAt": None,
    "createdAt": TS,
    "updatedAt": TS,
}
TEMPLATE_CONFIGURATION = {
    "version": 1,
    "goal": "concept",
    "studyLocale": "en",
    "methodId": "survey",
    "questions": [{"text": "First reaction?", "response": {"type": "qualitative"}}],
}
TEMPLATE = {
    "id": uid(61),
    "name": "Coffee",
    "revision": 1,
    "configuration": TEMPLATE_CONFIGURATION,
    "isSharedWithTeam": False,
    "canManage": True,
    "canShareWithTeam": False,
    "createdAt": TS,
    "updatedAt": TS,
}
PROFILE_DONE = {"status": "completed", "jobId": "pj-1", "filename": "a.md", "mimeType": "text/markdown", "content": "#"}


async def _all(items: Any) -> list[Any]:
    return [item async for item in items]


async def _from_brief_and_files(minds: MindsClient) -> None:
    await minds.create_audience_from_brief(
        text="Parents of toddlers in Leeds", idempotency_key="brief-1", name="Leeds parents", member_count=12
    )
    sources = await minds.import_audience_sources([("a.csv", "x")])
    await minds.create_audience_from_brief(text="Cafe owners", idempotency_key="brief-2", files=sources.files)
    preview = await minds.preview_dataset_segmentation(name="panel.csv", url="https://example.com/panel.csv")
    await minds.create_audience_from_brief(
        text="Commuters in Lyon",
        idempotency_key="brief-3",
        name="Lyon commuters",
        member_count=30,
        links=["https://example.com/report"],
        keywords=["bike", "metro"],
        include_web_search=False,
        creation_mode="benchmark_depth",
        dataset_segmentation=preview.reviewed(),
        link_sharing=True,
    )


async def _profile_export(minds: MindsClient, kind: Any) -> None:
    item = AUDIENCE_ID if kind == "audiences" else MIND_ID
    started = await minds.start_profile_export(kind, item, format="md", force=True)
    await minds.wait_profile_export(kind, item, started, format="md")


async def _preview_everything(minds: MindsClient) -> None:
    await minds.preview_plan(STUDY_ID, NEW_PLAN, idempotency_key="plan-1")  # a 202 receipt, then the plan
    revise = PlanPreviewRequest(draft_plan_id=PLAN_ID, revision=1, answers={"cq1": "Yes"}, refinement="Shorter")
    await minds.preview_plan(STUDY_ID, revise, idempotency_key="plan-2")
    latest = PlanPreviewRequest(draft_plan_id=PLAN_ID, load_latest=True)
    await minds.preview_plan(STUDY_ID, latest, idempotency_key="plan-3")


def _pending() -> PlanPending:
    body = NEW_PLAN.to_body().decode()
    return PlanPending(
        study_id=STUDY_ID, idempotency_key="plan-1", body=body, request_id="plan-x", operation_id=uid(77)
    )


# One case per public MindsClient method; every request a case sends is checked.
CASES: dict[str, Case] = {
    "me": lambda m: m.me(),
    "iter_studies": lambda m: _all(m.iter_studies()),
    "studies_page": lambda m: m.studies_page(offset=0, limit=20),
    "get_study": lambda m: m.get_study(STUDY_ID),
    "find_study": lambda m: m.find_study("launch"),
    "create_study": lambda m: m.create_study(name="Launch", audience_ids=[AUDIENCE_ID], link_sharing=False),
    "duplicate_study": lambda m: m.duplicate_study(STUDY_ID, idempotency_key="dup-1", name="Copy"),
    "set_sharing": lambda m: m.set_sharing(STUDY_ID, enabled=True),
    "get_analytics": lambda m: m.get_analytics(STUDY_ID),
    "get_summary": lambda m: m.get_summary(STUDY_ID),
    "refresh_summary": lambda m: m.refresh_summary(STUDY_ID, force=True, length="short"),
    "iter_audiences": lambda m: _all(m.iter_audiences()),
    "audiences_page": lambda m: m.audiences_page(offset=0, limit=20),
    "get_audience": lambda m: m.get_audience(AUDIENCE_ID),
    "find_audience": lambda m: m.find_audience("parents"),
    "audience_limits": lambda m: m.audience_limits(),
    "duplicate_audience": lambda m: m.duplicate_audience(AUDIENCE_ID, idempotency_key="dup-2", name="Copy"),
    "create_audience_from_brief": _from_brief_and_files,
    "get_audience_job": lambda m: m.get_audience_job(uid(11)),
    "create_audience": lambda m: m.create_audience(
        name="Coffee fans", mind_ids=[MIND_ID, MIND_ID], idempotency_key="aud-1", link_sharing=False
    ),
    "preview_dataset_segmentation": lambda m: m.preview_dataset_segmentation(
        name="panel.csv", url="https://example.com/panel.csv", columns=["age_band"]
    ),
    "wait_audience_job": lambda m: m.wait_audience_job(uid(11)),
    "iter_minds": lambda m: _all(m.iter_minds(search="Ana")),
    "minds_page": lambda m: m.minds_page(offset=0, limit=20, search="Ana"),
    "find_mind": lambda m: m.find_mind("Ana"),
    "start_direct_run": lambda m: m.start_direct_run(
        STUDY_ID,
        question="Would you buy it?",
        client_request_id=uid(20),
        audience_ids=[AUDIENCE_ID],
        history_mode="none",
        attachments=[STIMULUS],
    ),
    "get_run": lambda m: m.get_run(RUN_ID),
    "cancel_run": lambda m: m.cancel_run(RUN_ID),
    "list_study_runs": lambda m: m.list_study_runs(STUDY_ID, limit=20),
    "study_runs_page": lambda m: m.study_runs_page(STUDY_ID, before=RUN_ID, limit=100),
    "all_study_runs": lambda m: m.all_study_runs(STUDY_ID),
    "get_message_answers": lambda m: m.get_message_answers(STUDY_ID, "m1"),
    "research_methods": lambda m: m.research_methods(),
    "preview_plan": _preview_everything,
    "resume_plan": lambda m: m.resume_plan(_pending()),
    "start_research_run": lambda m: m.start_research_run(
        STUDY_ID,
        draft_plan_id=PLAN_ID,
        revision=1,
        idempotency_key=uid(21),
        advanced_method_opt_in=True,
        audience_ids=[AUDIENCE_ID],
        model_connection=(uid(23), 2),
    ),
    "get_research_run": lambda m: m.get_research_run(STUDY_ID, RUN_ID),
    "list_study_drafts": lambda m: m.list_study_drafts(),
    "list_study_templates": lambda m: m.list_study_templates(),
    "use_study_template": lambda m: m.use_study_template(uid(12), expected_revision=1, request_id=uid(22)),
    "start_export": lambda m: m.start_export(STUDY_ID, kind="executive_brief", format="pdf", length="standard"),
    "export_status": lambda m: m.export_status(STUDY_ID, EXPORT_JOB),
    "cached_export": lambda m: m.cached_export(STUDY_ID, kind="full_report", format="md"),
    "wait_export": lambda m: m.wait_export(STUDY_ID, EXPORT_JOB),
    "download_export": lambda m: m.download_export(STUDY_ID, EXPORT_JOB),
    # issue 14, the toolbox
    "get_mind": lambda m: m.get_mind(MIND_ID),
    # issue 37, Minds from Slack
    "create_mind": lambda m: m.create_mind(
        name="Nora Nights",
        discipline="Nursing",
        mode="keywords",
        idempotency_key=uid(72),
        description="A night nurse",
        mind_type="user",
        keywords=["night shifts"],
        include_web_search=False,
    ),
    "mind_training": lambda m: m.mind_training(MIND_ID),
    "update_mind": lambda m: m.update_mind(MIND_ID, name="Nora N.", description="", discipline="Nursing"),
    "delete_mind": lambda m: m.delete_mind(MIND_ID),
    "retrain_mind": lambda m: m.retrain_mind(MIND_ID),
    "regenerate_mind_prompt": lambda m: m.regenerate_mind_prompt(MIND_ID),
    "list_mind_knowledge": lambda m: m.list_mind_knowledge(MIND_ID),
    "add_mind_knowledge": lambda m: m.add_mind_knowledge(
        MIND_ID, description="Survey", file={"name": "s.pdf", "url": "https://example.com/s.pdf"}
    ),
    "mind_knowledge_status": lambda m: m.mind_knowledge_status(MIND_ID, uid(71)),
    "delete_mind_knowledge": lambda m: m.delete_mind_knowledge(MIND_ID, uid(71)),
    "delete_minds": lambda m: m.delete_minds([MIND_ID]),
    "regenerate_mind_image": lambda m: m.regenerate_mind_image(MIND_ID, force=True, persona_context=" A nurse "),
    "regenerate_mind_embeddings": lambda m: m.regenerate_mind_embeddings(MIND_ID),
    "mind_patterns": lambda m: m.mind_patterns(MIND_ID),
    "mind_knowledge_patterns": lambda m: m.mind_knowledge_patterns(MIND_ID),
    "update_mind_knowledge": lambda m: m.update_mind_knowledge(MIND_ID, uid(71), description=" Shift survey "),
    "enrich_mind_knowledge": lambda m: m.enrich_mind_knowledge(MIND_ID, keywords=["a", " "], regenerate_prompt=False),
    "create_chat": lambda m: m.create_chat(mind_id=MIND_ID, name="Chat"),
    "send_chat_message": lambda m: m.send_chat_message(CHAT_ID, content="Why?", end_user_name="Ana"),
    "create_study_draft": lambda m: m.create_study_draft(
        name="Cups", state={"studyId": STUDY_ID}, idempotency_key="draft-1"
    ),
    "delete_study_draft": lambda m: m.delete_study_draft(DRAFT_ID),
    # issue 37
    "delete_study": lambda m: m.delete_study(STUDY_ID),
    "get_study_draft": lambda m: m.get_study_draft(DRAFT_ID),
    "update_study_draft": lambda m: m.update_study_draft(
        DRAFT_ID, expected_revision=1, name="Cups v2", mode="custom", current_step="questions"
    ),
    "get_study_template": lambda m: m.get_study_template(TEMPLATE["id"]),
    "update_study_template": lambda m: m.update_study_template(
        TEMPLATE["id"], expected_revision=1, name="Coffee v2", configuration=TEMPLATE_CONFIGURATION
    ),
    "delete_study_template": lambda m: m.delete_study_template(TEMPLATE["id"]),
    "delete_chat": lambda m: m.delete_chat(CHAT_ID),
    "consume_study_draft": lambda m: m.consume_study_draft(DRAFT_ID, expected_revision=1, study_id=STUDY_ID),
    "save_study_template": lambda m: m.save_study_template(
        name="Coffee", configuration=TEMPLATE_CONFIGURATION, request_id=uid(62)
    ),
    "start_profile_export": lambda m: m.start_profile_export("audiences", AUDIENCE_ID, format="pdf", force=True),
    "profile_export_status": lambda m: m.profile_export_status("minds", MIND_ID, job_id="pj-1", format="md"),
    "wait_profile_export": lambda m: _profile_export(m, "minds"),
    # issue 18, the research tools
    "audience_progress": lambda m: m.audience_progress(AUDIENCE_ID),
    "list_formations": lambda m: m.list_formations(AUDIENCE_ID),
    "recalibrate_audience": lambda m: m.recalibrate_audience(
        AUDIENCE_ID,
        instruction="Skew younger",
        allow_shared_minds=True,
        requested_distribution="Household income",
        links=["https://example.com/report"],
        keywords=["sneaker resale"],
    ),
    "update_audience": lambda m: m.update_audience(AUDIENCE_ID, name="Leeds parents", shared_with_team=True),
    "delete_audience": lambda m: m.delete_audience(AUDIENCE_ID),
    "follow_audience": lambda m: m.follow_audience(AUDIENCE_ID),
    "unfollow_audience": lambda m: m.unfollow_audience(AUDIENCE_ID),
    "add_audience_members": lambda m: m.add_audience_members(AUDIENCE_ID, [MIND_ID, MIND_ID]),
    "remove_audience_member": lambda m: m.remove_audience_member(AUDIENCE_ID, MIND_ID),
    "regenerate_audience_images": lambda m: m.regenerate_audience_images(AUDIENCE_ID, dry=True, limit=5),
    "preview_formation": lambda m: m.preview_formation(AUDIENCE_ID, user_input="  split by age  "),
    "create_formation": lambda m: m.create_formation(
        AUDIENCE_ID, hypothesis=FormationHypothesis.model_validate(HYPOTHESIS), name="Age"
    ),
    "get_formation": lambda m: m.get_formation(AUDIENCE_ID, FORMATION_ID),
    "recompute_formation": lambda m: m.recompute_formation(AUDIENCE_ID, FORMATION_ID),
    "delete_formation": lambda m: m.delete_formation(AUDIENCE_ID, FORMATION_ID),
    "model_connections": lambda m: m.model_connections(),
    "invite_to_study": lambda m: m.invite_to_study(STUDY_ID, emails=["a@example.com"], role="admin"),
    "import_audience_sources": lambda m: m.import_audience_sources([("a.csv", "x")]),
    "get_heatmap": lambda m: m.get_heatmap(STUDY_ID, "m1", asset_key="a.png"),
    "start_heatmap": lambda m: m.start_heatmap(STUDY_ID, "m1", asset_key="a.png"),
    "export_heatmap": lambda m: m.export_heatmap(STUDY_ID, "m1"),
}
SENDS_NOTHING = {"create", "aclose"}  # building and closing a client make no request


def public_methods() -> set[str]:
    """Every public method of the client: each one that talks to Minds needs a case."""
    return {name for name, _ in inspect.getmembers(MindsClient, callable) if not name.startswith("_")}


async def sent_by(name: str) -> list[Sent]:
    """What one case sends, over MockTransport against the scripted API."""
    api = everything_api()

    def storage(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=b"%PDF")

    async with make_client(api, download=storage) as minds:
        await CASES[name](minds)
    return api.sent


def test_every_public_client_method_has_a_contract_case() -> None:
    assert public_methods() - SENDS_NOTHING == set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
async def test_every_request_of_each_client_method_matches_the_openapi(name: str) -> None:
    sent = await sent_by(name)
    assert sent, f"{name} sent no request"
    assert [p for request in sent for p in problems(request)] == []


async def test_each_seed_exception_is_a_request_the_client_really_sends() -> None:
    """An exception no case exercises is stale: drop it, or the client drifted from the seeds."""
    used = set()
    for name in CASES:
        for request in await sent_by(name):
            used |= {key for key, exception in SEED_EXCEPTIONS.items() if _seed_exception(request) is exception}
    assert used == set(SEED_EXCEPTIONS)


def test_the_checker_catches_a_wrong_body():
    bad = Sent(
        "POST",
        f"/studies/{STUDY_ID}/research-runs",
        {},
        httpx.Headers(),
        json.dumps({"draftPlanId": "not-a-uuid", "revision": 0}).encode(),
        0.0,
    )
    found = problems(bad)
    assert any("confirmation" in p for p in found)
    assert any("uuid" in p for p in found)
    assert any("minimum" in p for p in found)


def test_the_checker_catches_undeclared_query_and_routes():
    stray = Sent("GET", "/studies", {"before": "x"}, httpx.Headers(), b"", 0.0)
    nowhere = Sent("POST", "/studies/x/teleport", {}, httpx.Headers(), b"{}", 0.0)
    assert problems(stray) == ["GET /studies: undeclared query parameter before"]
    assert problems(nowhere) and "not an operation" in problems(nowhere)[0]


def test_the_checker_catches_an_undeclared_header_and_a_bad_path_parameter():
    headed = Sent("GET", f"/studies/{STUDY_ID}", {}, httpx.Headers({"x-made-up": "1"}), b"", 0.0)
    assert problems(headed) == [f"GET /studies/{STUDY_ID}: undeclared header x-made-up"]
    not_uuid = Sent("GET", "/studies/launch-positioning", {}, httpx.Headers(), b"", 0.0)
    assert any("{studyId}" in p and "uuid" in p for p in problems(not_uuid))


def test_a_seed_exception_allows_only_what_its_seed_rule_says():
    summary = f"/studies/{STUDY_ID}/summary"
    fine = Sent("POST", summary, {}, httpx.Headers(), b'{"force":true,"length":"short"}', 0.0)
    extra = Sent("POST", summary, {}, httpx.Headers(), b'{"force":true,"refresh":true}', 0.0)
    keyless = Sent("POST", f"/studies/{STUDY_ID}/export", {}, httpx.Headers({"idempotency-key": "k"}), b"{}", 0.0)
    assert problems(fine) == []
    assert problems(extra) and "§3.11" in problems(extra)[0]
    assert problems(keyless) == [f"POST /studies/{STUDY_ID}/export: undeclared header idempotency-key"]
