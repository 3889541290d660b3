"""Every request the client can send validates against the shared OpenAPI document's declared request.

Bodies are checked against the operation's ``requestBody`` schema (Draft 2020-12, ``$ref``s resolved
within the document, formats checked); query parameters and declared header parameters against their
schemas. Routes the OpenAPI copy does not declare (duplicate) or declares without a body schema (summary
refresh) are checked against what CONTRACT.md and the seeds allow.
"""

from __future__ import annotations

import json
import os
import re
from functools import cache
from pathlib import Path
from typing import Any

import httpx
from jsonschema import Draft202012Validator

from minds_bot.minds import ExportJob, PlanPending, PlanPreviewRequest
from tests.fakes.minds_http import FakeMindsAPI, Sent, make_client, ok, page, raw
from tests.minds.samples import (
    AUDIENCE_ID,
    PLAN_ID,
    RUN_ID,
    STUDY_ID,
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
UNDECLARED = {  # seeds-only routes: allowed body keys
    ("POST", "/studies/{studyId}/duplicate"): {"name", "idempotencyKey"},
    ("POST", "/audiences/{audienceId}/duplicate"): {"name", "idempotencyKey"},
}
SUMMARY_REFRESH_KEYS = {"force", "length"}


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
    found = operation_for(sent.method, sent.path)
    if found is None:
        return _undeclared_problems(sent)
    template, op = found
    errors = []
    params = op.get("parameters", [])
    declared_query = {p["name"]: p["schema"] for p in params if p["in"] == "query"}
    for name, value in sent.params.items():
        if name not in declared_query:
            errors.append(f"{sent.method} {template}: undeclared query parameter {name}")
            continue
        errors += [
            f"{template} ?{name}: {e.message}"
            for e in validator(declared_query[name]).iter_errors(coerce(value, declared_query[name]))
        ]
    for p in (p for p in params if p["in"] == "header" and p["name"] in sent.headers):
        errors += [
            f"{template} {p['name']}: {e.message}" for e in validator(p["schema"]).iter_errors(sent.headers[p["name"]])
        ]
    body_schema = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
    if body_schema is None:
        return errors + _undeclared_body_problems(sent, template)
    body = sent.json() if sent.body else None
    if body is None and op["requestBody"].get("required"):
        errors.append(f"{template}: required body missing")
    elif body is not None:
        errors += [
            f"{sent.method} {template} body {list(e.path)}: {e.message}"
            for e in validator(body_schema).iter_errors(body)
        ]
    return errors


def _undeclared_body_problems(sent: Sent, template: str) -> list[str]:
    if not sent.body:
        return []
    if (sent.method, template) == ("POST", "/studies/{studyId}/summary"):
        body = sent.json()
        extra = set(body) - SUMMARY_REFRESH_KEYS
        too_big = len(sent.body) > 4096
        return [f"summary body has {extra}"] * bool(extra) + ["summary body over 4 KiB"] * too_big
    return [f"{sent.method} {template}: sends a body the document does not declare"]


def _undeclared_problems(sent: Sent) -> list[str]:
    for (method, template), allowed in UNDECLARED.items():
        if method == sent.method and _template_matches(template, sent.path):
            extra = set(sent.json() or {}) - allowed
            return [f"{template} body has {extra}"] if extra else []
    return [f"{sent.method} {sent.path}: not an operation of the Minds API"]


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
    api.on("GET", "/minds", page([mind(1, "Ana")], **one))
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
    api.on("POST", f"/audiences/{AUDIENCE_ID}/export", ok({"status": "processing", "filename": "a.md"}))
    api.on("GET", f"/audiences/{AUDIENCE_ID}/export-status", ok({"status": "completed", "filename": "a.md"}))
    api.on("GET", f"/audiences/{AUDIENCE_ID}/export-download", httpx.Response(200, content=b"# A"))
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


async def exercise_every_call(api: FakeMindsAPI) -> None:
    def storage(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=b"%PDF")

    async with make_client(api, download=storage) as minds:
        await minds.me()
        _ = [s async for s in minds.iter_studies()]
        await minds.get_study(STUDY_ID)
        await minds.find_study("launch")
        await minds.create_study(name="Launch", audience_ids=[AUDIENCE_ID], link_sharing=False)
        await minds.duplicate_study(STUDY_ID, idempotency_key="dup-1", name="Copy")
        await minds.set_sharing(STUDY_ID, enabled=True)
        await minds.get_analytics(STUDY_ID)
        await minds.get_summary(STUDY_ID)
        await minds.refresh_summary(STUDY_ID, force=True, length="short")
        _ = [a async for a in minds.iter_audiences()]
        await minds.get_audience(AUDIENCE_ID)
        await minds.find_audience("parents")
        await minds.audience_limits()
        await minds.duplicate_audience(AUDIENCE_ID, idempotency_key="dup-2", name="Copy")
        await minds.create_audience_from_brief(
            text="Parents of toddlers in Leeds",
            idempotency_key="brief-1",
            name="Leeds parents",
            member_count=12,
        )
        await minds.wait_audience_job(uid(11))
        await minds.find_mind("Ana")
        await minds.start_direct_run(
            STUDY_ID,
            question="Would you buy it?",
            client_request_id=uid(20),
            audience_ids=[AUDIENCE_ID],
            history_mode="none",
        )
        await minds.get_run(RUN_ID)
        await minds.cancel_run(RUN_ID)
        await minds.list_study_runs(STUDY_ID, limit=20)
        await minds.get_message_answers(STUDY_ID, "m1")
        await minds.research_methods()
        new = PlanPreviewRequest(request="Test the launch", study_locale="en")
        await minds.preview_plan(STUDY_ID, new, idempotency_key="plan-1")
        revise = PlanPreviewRequest(draft_plan_id=PLAN_ID, revision=1, answers={"cq1": "Yes"}, refinement="Shorter")
        await minds.preview_plan(STUDY_ID, revise, idempotency_key="plan-2")
        await minds.preview_plan(
            STUDY_ID, PlanPreviewRequest(draft_plan_id=PLAN_ID, load_latest=True), idempotency_key="plan-3"
        )
        pending = PlanPending(
            study_id=STUDY_ID,
            idempotency_key="plan-1",
            body=new.to_body().decode(),
            request_id="plan-x",
            operation_id=uid(77),
        )
        await minds.resume_plan(pending)
        await minds.start_research_run(
            STUDY_ID,
            draft_plan_id=PLAN_ID,
            revision=1,
            idempotency_key=uid(21),
            advanced_method_opt_in=True,
            audience_ids=[AUDIENCE_ID],
        )
        await minds.get_research_run(STUDY_ID, RUN_ID)
        await minds.list_study_drafts()
        await minds.list_study_templates()
        await minds.use_study_template(uid(12), expected_revision=1, request_id=uid(22))
        job = await minds.start_export(STUDY_ID, kind="executive_brief", format="pdf", length="standard")
        await minds.wait_export(STUDY_ID, job)
        await minds.download_export(STUDY_ID, ExportJob(kind="raw_data", format="sav", job_id="j", status="queued"))
        await minds.audience_progress(AUDIENCE_ID)
        await minds.list_formations(AUDIENCE_ID)
        await minds.recalibrate_audience(AUDIENCE_ID, instruction="Skew younger", allow_shared_minds=True)
        await minds.model_connections()
        await minds.invite_to_study(STUDY_ID, emails=["a@example.com"], role="admin")
        await minds.start_audience_export(AUDIENCE_ID)
        status = await minds.wait_audience_export(AUDIENCE_ID)
        await minds.download_audience_export(AUDIENCE_ID, status=status)
        sources = await minds.import_audience_sources([("a.csv", "x")])
        await minds.create_audience_from_brief(text="Cafe owners", idempotency_key="brief-2", files=sources.files)
        await minds.get_heatmap(STUDY_ID, "m1", asset_key="a.png")
        await minds.start_heatmap(STUDY_ID, "m1", asset_key="a.png")
        await minds.export_heatmap(STUDY_ID, "m1")


async def test_every_request_matches_the_declared_request_schema():
    api = everything_api()
    await exercise_every_call(api)
    all_problems = [p for sent in api.sent for p in problems(sent)]
    assert all_problems == []
    exercised = {(s.method, (operation_for(s.method, s.path) or (s.path, None))[0]) for s in api.sent}
    assert exercised == EXPECTED_OPERATIONS


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


EXPECTED_OPERATIONS = {
    ("GET", "/auth/me"),
    ("GET", "/studies"),
    ("GET", "/studies/{studyId}"),
    ("POST", "/studies"),
    ("POST", f"/studies/{STUDY_ID}/duplicate"),
    ("PUT", "/studies/{studyId}/sharing"),
    ("GET", "/studies/{studyId}/analytics"),
    ("GET", "/studies/{studyId}/summary"),
    ("POST", "/studies/{studyId}/summary"),
    ("GET", "/audiences"),
    ("GET", "/audiences/{audienceId}"),
    ("GET", "/audiences/limits"),
    ("POST", f"/audiences/{AUDIENCE_ID}/duplicate"),
    ("POST", "/audiences/from-brief"),
    ("GET", "/audiences/from-brief/jobs/{jobId}"),
    ("GET", "/minds"),
    ("POST", "/studies/{studyId}/runs"),
    ("GET", "/runs/{runId}"),
    ("POST", "/runs/{runId}/cancel"),
    ("GET", "/studies/{studyId}/runs"),
    ("GET", "/studies/{studyId}/messages/{messageId}/answers"),
    ("GET", "/research-methods"),
    ("POST", "/studies/{studyId}/research-plans/preview"),
    ("POST", "/studies/{studyId}/research-runs"),
    ("GET", "/studies/{studyId}/research-runs/{runId}"),
    ("GET", "/study-drafts"),
    ("GET", "/study-templates"),
    ("POST", "/study-templates/{id}/use"),
    ("POST", "/studies/{studyId}/export"),
    ("GET", "/studies/{studyId}/export-status"),
    ("GET", "/studies/{studyId}/export-download"),
    ("GET", "/audiences/{audienceId}/progress"),
    ("GET", "/audiences/{audienceId}/formations"),
    ("POST", "/audiences/{audienceId}/recalibrate"),
    ("GET", "/model-connections"),
    ("POST", "/studies/{studyId}/invitations"),
    ("POST", "/audiences/{audienceId}/export"),
    ("GET", "/audiences/{audienceId}/export-status"),
    ("GET", "/audiences/{audienceId}/export-download"),
    ("POST", "/audiences/source-import"),
    ("GET", "/studies/{studyId}/heatmaps/{messageId}"),
    ("POST", "/studies/{studyId}/heatmaps/{messageId}"),
    ("POST", "/studies/{studyId}/heatmaps/{messageId}/export"),
    ("GET", "/studies/{studyId}/heatmaps/{messageId}/export-status"),
    ("GET", "/studies/{studyId}/heatmaps/{messageId}/export-download"),
}
