"""Study routes around results: direct runs (with their attachments, ``attachments.py``) and the run resource,
individual answers, summary, analytics, exports and downloads, sharing, duplication and deletion.

Owns: those handlers. Progression lives in ``engine``, file rendering in ``exports`` (run off the loop).
"""

from __future__ import annotations

import asyncio
import base64
import copy
from datetime import UTC, datetime
from typing import Any, Literal

from aiohttp import web
from pydantic import BaseModel, ConfigDict, Field, StrictBool

from minds_sandbox import exports, planner, respondents, views
from minds_sandbox.attachments import Attachment, fetch_all
from minds_sandbox.engine import LIVE_RUN_STATUSES
from minds_sandbox.errors import ApiError, bad_request, conflict, not_found
from minds_sandbox.http_support import (
    body_hash,
    idempotency_key,
    lookup,
    newest_first,
    ok,
    origin,
    parse,
    read_json,
    runtime,
    study_of,
)
from minds_sandbox.middleware import KEY_FP
from minds_sandbox.routes_research import plan_limit_error
from minds_sandbox.runtime import Runtime
from minds_sandbox.state import Record

SUMMARY_MAX_BYTES = 4 * 1024
RUNS_DEFAULT_LIMIT = 20
RUNS_MAX_LIMIT = 100
BRIEF_LENGTH_CHARS = 600  # a "question" longer than this reads as a research brief
NO_STORE = {"Cache-Control": "private, no-store"}


# ---------------------------------------------------------------- direct runs


class DirectRunBody(BaseModel):
    question: str = Field(min_length=1, max_length=20_000)
    clientRequestId: str | None = Field(default=None, pattern=r"^[0-9a-fA-F-]{36}$")
    audienceIds: list[str] | None = None
    historyMode: Literal["last5", "followup_only", "none"] = "none"
    routeResearchBrief: bool = True
    attachments: list[Attachment] | None = None


def planning_reason(question: str) -> str | None:
    """Why a direct-run text is really a questionnaire or brief, or None for one standalone question."""
    if planner.listed_questions(question):
        return "The text lists several questions; plan them together as one questionnaire."
    if question.count("?") >= 2:
        return "The text asks more than one question; plan them together instead of one at a time."
    if len(question) > BRIEF_LENGTH_CHARS:
        return "The text reads as a research brief; let the planner turn it into questions."
    return None


async def start_direct_run(request: web.Request) -> web.Response:
    rt = runtime(request)
    study = study_of(request)
    raw = await read_json(request)
    body = parse(DirectRunBody, raw)
    scope = f"direct:{study['id']}:{body.clientRequestId}" if body.clientRequestId else None
    if scope and scope in rt.state.run_requests:
        seen = rt.state.run_requests[scope]
        if seen["bodyHash"] != body_hash(raw):
            raise conflict("clientRequestId was used with a different input", code="IDEMPOTENCY_KEY_REUSED")
        return ok(_direct_receipt(rt.state.runs[seen["runId"]]), status=202)
    reason = planning_reason(body.question) if body.routeResearchBrief else None
    if reason:
        return ok({"status": "planning_required", "reason": reason})
    remaining = rt.engine.remaining_allowance(request[KEY_FP])
    if remaining is not None and remaining <= 0:
        raise plan_limit_error(rt, request[KEY_FP])
    audience_ids = body.audienceIds or study["audienceIds"]
    if any(a not in study["audienceIds"] for a in audience_ids):
        raise bad_request("audienceIds must name Audiences attached to this Study")
    present = [a for a in audience_ids if a in rt.state.audiences]  # a deleted Audience has no Minds to ask
    minds = [{**rt.state.minds[m], "audienceId": a} for a in present for m in rt.state.audiences[a]["mindIds"]]
    received = await fetch_all(body.attachments or [])  # before the run: an unreadable file starts nothing
    question = {"id": "q1", "text": body.question, "response": planner.infer_response(body.question)}
    extra: Record = {"clientRequestId": body.clientRequestId, "historyMode": body.historyMode}
    if received:
        extra["attachments"] = received
    run = rt.engine.create_run(
        study=study,
        kind="direct",
        questions=[question],
        minds=minds,
        key_fp=request[KEY_FP],
        extra=extra,
    )
    if scope:
        rt.state.run_requests[scope] = {"runId": run["id"], "bodyHash": body_hash(raw)}
    return ok(_direct_receipt(run), status=202)


def _direct_receipt(run: Record) -> Record:
    receipt = {"runId": run["id"], "id": run["id"], "status": run["status"], "studyId": run["studyId"]}
    if run.get("clientRequestId"):
        receipt["clientRequestId"] = run["clientRequestId"]
    return receipt


async def list_study_runs(request: web.Request) -> web.Response:
    rt = runtime(request)
    study = study_of(request)
    limit = _runs_limit(request)
    runs = newest_first([r for r in rt.state.runs.values() if r["studyId"] == study["id"]])
    client_request_id = request.query.get("clientRequestId")
    if client_request_id:
        runs = [r for r in runs if r.get("clientRequestId") == client_request_id]
    before = request.query.get("before")
    if before:
        ids = [r["id"] for r in runs]
        if before not in ids:
            raise bad_request("Invalid cursor for this Study and filter", code="INVALID_CURSOR")
        runs = runs[ids.index(before) + 1 :]
    page = runs[:limit]
    has_more = len(runs) > limit
    return web.json_response(
        {
            "data": [views.agent_run(r) for r in page],
            "pagination": {
                "limit": limit,
                "hasMore": has_more,
                "nextCursor": page[-1]["id"] if has_more else None,
            },
        }
    )


def _runs_limit(request: web.Request) -> int:
    raw = request.query.get("limit", str(RUNS_DEFAULT_LIMIT))
    if not raw.isdigit() or not 1 <= int(raw) <= RUNS_MAX_LIMIT:
        raise bad_request(f"limit must be an integer between 1 and {RUNS_MAX_LIMIT}")
    return int(raw)


async def get_run(request: web.Request) -> web.Response:
    return ok(views.agent_run(lookup(runtime(request).state.runs, request.match_info["run_id"], "Run")))


async def cancel_run(request: web.Request) -> web.Response:
    rt = runtime(request)
    run = lookup(rt.state.runs, request.match_info["run_id"], "Run")
    if run["status"] not in LIVE_RUN_STATUSES:
        raise conflict(f"The run is already {run['status']}", code="RUN_NOT_ACTIVE", data={"status": run["status"]})
    rt.engine.cancel(run)
    return ok(views.agent_run(run))


async def message_answers(request: web.Request) -> web.Response:
    rt = runtime(request)
    study = study_of(request)
    message_id = request.match_info["message_id"]
    item = next(
        (
            i
            for r in rt.state.runs.values()
            if r["studyId"] == study["id"]
            for i in r["items"]
            if i.get("messageId") == message_id
        ),
        None,
    )
    if item is None:
        raise not_found("Message answers")
    preview = request.query.get("scope") == "preview"
    return web.json_response(
        {
            "messageId": message_id,
            "outputData": respondents.with_answers(item["outputData"], item["answers"], preview=preview),
        }
    )


# ---------------------------------------------------------------- summary and analytics


async def get_summary(request: web.Request) -> web.Response:
    return ok(views.summary(study_of(request)), headers=NO_STORE)


class SummaryBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    force: StrictBool = False
    length: Literal["short", "standard", "detailed"] = "standard"


async def refresh_summary(request: web.Request) -> web.Response:
    """Waits for the generation; a newer generation started meanwhile supersedes it (409)."""
    rt = runtime(request)
    study = study_of(request)
    body = parse(SummaryBody, await read_json(request, max_bytes=SUMMARY_MAX_BYTES, required=False))
    revision, done = rt.engine.request_summary(study, length=body.length, force=body.force)
    if done is not None and not await done:
        raise conflict(
            "A newer summary generation superseded this one; reload the summary before retrying",
            code="SUMMARY_SUPERSEDED",
            data={"revision": revision},
        )
    return ok({**views.summary(study), "revision": revision}, headers=NO_STORE)


async def analytics(request: web.Request) -> web.Response:
    study = study_of(request)
    results = [m for m in study["messages"] if m["role"] == "assistant" and m["metadata"].get("outputData")]
    questions = [{"messageId": m["id"], **{k: v for k, v in m["metadata"]["outputData"].items()}} for m in results]
    return ok(
        {
            "studyId": study["id"],
            "questionCount": len(questions),
            "responseCount": sum(q["responseCount"] for q in questions),
            "questions": questions,
        }
    )


# ---------------------------------------------------------------- exports


class ExportBody(BaseModel):
    kind: Literal["executive_brief", "full_report", "raw_data"] = "full_report"
    format: Literal["pdf", "md", "docx", "pptx", "csv", "xls", "sav"] = "md"
    length: Literal["short", "standard", "detailed"] = "standard"
    force: bool = False
    scheduledRunId: str | None = None


async def start_export(request: web.Request) -> web.Response:
    """A new job; without ``force`` a completed artifact of the same kind and format is served from the cache
    as it is (its ``generatedAt`` and content unchanged, however old), as Minds does."""
    rt = runtime(request)
    study = study_of(request)
    body = parse(ExportBody, await read_json(request, required=False))
    cached = None
    if not body.force:
        cached = _cached_export(rt, study["id"], kind=body.kind, fmt=body.format, length=body.length)
    if cached is not None:
        job = {**cached, "id": rt.state.new_id("export"), "createdAt": rt.clock.now()}
        rt.state.exports[job["id"]] = job
        rt.state.touch()
        return ok({"kind": body.kind, "format": body.format, "jobId": job["id"], "status": "queued"})
    job = {
        "id": rt.state.new_id("export"),
        "studyId": study["id"],
        "kind": body.kind,
        "format": body.format,
        "length": body.length,
        "status": "queued",
        "progress": 0,
        "createdAt": rt.clock.now(),
        "generatedAt": None,
        "sourceVersion": len(study["messages"]),
        "fileId": None,
        "error": None,
        "filename": f"export.{body.format}",
        "mimeType": exports.MIME_TYPES.get(body.format, ""),
    }
    try:
        produced = await asyncio.to_thread(
            exports.render_export,
            study=copy.deepcopy(study),
            answers=_answer_rows(rt, study["id"]),
            kind=body.kind,
            fmt=body.format,
            runs=_report_runs(rt, study["id"]),
            length=body.length,
        )
    except exports.ExportUnsupported as exc:
        job["error"] = str(exc)
    else:
        job["fileId"] = rt.state.new_id("file")
        rt.state.files[job["fileId"]] = {
            "filename": produced.filename,
            "mimeType": produced.mime_type,
            "content": base64.b64encode(produced.content).decode(),
        }
        job["filename"], job["mimeType"] = produced.filename, produced.mime_type
    rt.state.exports[job["id"]] = job
    rt.state.touch()
    return ok({"kind": body.kind, "format": body.format, "jobId": job["id"], "status": "queued"})


def _cached_export(rt: Runtime, study_id: str, *, kind: str, fmt: str, length: str = "standard") -> Record | None:
    """The newest completed artifact of this kind, format and length (another length is another file)."""
    done = [
        j
        for j in rt.state.exports.values()
        if j["studyId"] == study_id
        and (j["kind"], j["format"], j.get("length", "standard")) == (kind, fmt, length)
        and j["status"] == "completed"
    ]
    return newest_first(done)[0] if done else None


def _report_runs(rt: Runtime, study_id: str) -> list[dict[str, Any]]:
    """The Study's runs oldest first, as the report labels their questions and lists their calculations."""
    runs = sorted((r for r in rt.state.runs.values() if r["studyId"] == study_id), key=lambda r: r["createdAt"])
    return [
        {
            "id": run["id"],
            "label": datetime.fromtimestamp(run["createdAt"], UTC).strftime("%Y-%m-%d %H:%M UTC"),
            "questionIds": [q["id"] for q in run["questions"]],
            "calculations": copy.deepcopy(run.get("calculations") or []),
        }
        for run in runs
    ]


def _answer_rows(rt: Runtime, study_id: str) -> list[dict[str, Any]]:
    rows = []
    for run in rt.state.runs.values():
        if run["studyId"] != study_id:
            continue
        texts = {q["id"]: q["text"] for q in run["questions"]}
        rows += [
            {**a, "runId": run["id"], "question": texts[a["questionId"]]} for i in run["items"] for a in i["answers"]
        ]
    return rows


def _job_for(request: web.Request, study: Record, *, completed_only: bool) -> Record | None:
    state = runtime(request).state
    job_id = request.query.get("jobId")
    kind, fmt = request.query.get("kind"), request.query.get("format")
    if job_id:
        job = state.exports.get(job_id)
        if job is None or job["studyId"] != study["id"]:
            raise not_found("Export job")
        if (kind and kind != job["kind"]) or (fmt and fmt != job["format"]):
            raise bad_request("kind/format do not match this export job")
        return job
    if not kind and not fmt:
        kind, fmt = "full_report", "pdf"
    jobs = [
        j
        for j in newest_first([j for j in state.exports.values() if j["studyId"] == study["id"]])
        if (not kind or j["kind"] == kind)
        and (not fmt or j["format"] == fmt)
        and (j["status"] == "completed" or not completed_only)
    ]
    return jobs[0] if jobs else None


async def export_status(request: web.Request) -> web.Response:
    study = study_of(request)
    job = _job_for(request, study, completed_only=False)
    if job is None:
        return ok({"status": "idle", "progress": 0})
    url = f"{origin(request)}/api/v1/studies/{study['id']}/export-download?jobId={job['id']}"
    return ok(views.export_status(job, download_url=url))


async def export_download(request: web.Request) -> web.Response:
    rt = runtime(request)
    study = study_of(request)
    job = _job_for(request, study, completed_only=True)
    if job is None:
        raise not_found("Completed export")
    if job["status"] == "failed":
        raise ApiError(409, job["error"], code="EXPORT_FAILED")
    if job["status"] != "completed":
        raise conflict(
            "The export is not finished yet; poll export-status",
            code="EXPORT_NOT_READY",
            data={"status": job["status"]},
        )
    location = f"{origin(request)}/_files/{rt.sign(job['fileId'])}"
    return web.Response(status=302, headers={"Location": location})


# ---------------------------------------------------------------- sharing and duplicate


class SharingBody(BaseModel):
    isLinkSharingEnabled: StrictBool


async def update_sharing(request: web.Request) -> web.Response:
    rt = runtime(request)
    study = study_of(request)
    body = parse(SharingBody, await read_json(request))
    study["isLinkSharingEnabled"] = body.isLinkSharingEnabled
    if body.isLinkSharingEnabled and not study["publicShareId"]:
        study["publicShareId"] = rt.state.new_id("share")
    rt.state.touch()
    return ok(views.sharing(study, origin=origin(request)))


class DuplicateBody(BaseModel):
    name: str | None = Field(default=None, min_length=1, max_length=200)
    idempotencyKey: str | None = None


async def duplicate_study(request: web.Request) -> web.Response:
    rt = runtime(request)
    state = rt.state
    source = study_of(request)
    body = parse(DuplicateBody, await read_json(request, required=False))
    key = idempotency_key(request, body.idempotencyKey)
    scope = f"study:{source['id']}:{key}"
    if key and scope in state.duplicates:
        copy_study = state.studies[state.duplicates[scope]["id"]]
        return _duplicate_response(request, copy_study, status=200)
    if rt.engine.live_run_for_study(source["id"]):
        raise conflict(
            "The Study has a live run; retry when it has finished or cancel it first",
            code="STUDY_RUN_IN_PROGRESS",
        )
    copy_study = _copy_study(rt, source, name=body.name or f"{source['name']} (copy)")
    if key:
        state.duplicates[scope] = {"id": copy_study["id"]}
    return _duplicate_response(request, copy_study, status=201)


def _copy_study(rt: Runtime, source: Record, *, name: str) -> Record:
    """Questions, answers, summary and finished runs are copied; sharing and exports are not."""
    state, now = rt.state, rt.clock.now()
    copy_id = state.new_id("study")
    study = {
        **copy.deepcopy(source),
        "id": copy_id,
        "name": name,
        "createdAt": now,
        "updatedAt": now,
        "isLinkSharingEnabled": False,
        "publicShareId": None,
        "summaryGeneration": None,
    }
    state.studies[copy_id] = study
    for run in [r for r in state.runs.values() if r["studyId"] == source["id"]]:
        run_copy = {**copy.deepcopy(run), "id": state.new_id("run"), "studyId": copy_id}
        state.runs[run_copy["id"]] = run_copy
    state.touch()
    return study


async def delete_study(request: web.Request) -> web.Response:
    """``DELETE /studies/{id}``: 204 with no body; the Study's runs, plans and exports go with it (a live run is
    stopped with it); its Audiences and Minds stay. 404 for a Study that is not (or no longer) there."""
    state = runtime(request).state
    study = study_of(request)
    study_id = study["id"]
    for table in (state.runs, state.plans, state.exports):
        for record_id in [k for k, r in table.items() if r.get("studyId") == study_id]:
            del table[record_id]
    for scope in [k for k in state.plan_ops if k.startswith(f"{study_id}:")]:
        del state.plan_ops[scope]
    del state.studies[study_id]
    state.touch()
    return web.Response(status=204)


def _duplicate_response(request: web.Request, study: Record, *, status: int) -> web.Response:
    state = runtime(request).state
    workspace = f"{origin(request)}/studies/{study['id']}"
    return web.json_response({"data": views.study_created(state, study), "workspaceUrl": workspace}, status=status)
