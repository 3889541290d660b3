"""Research-tool routes beyond the core research loop: an Audience's build progress (its Formations are
``routes_formations.py``), its recalibration, the team's model connections, Study invitations, source imports and
question heatmaps (image/video assets, analysed for one response per Mind, exported as a ZIP).

Owns: those handlers and the bookkeeping they keep on Audience records (``calibratingUntil``,
``retrainingMindIds``, ``adjustments``). Faults: ``model_connections`` off answers 404 (disabled on this server),
``cursor_stall`` makes the connection cursor repeat itself; every route also obeys the generic error-rate and
latency knobs. Email addresses under the reserved ``.invalid`` domain are never delivered (an ``emailFailures``
entry), so the honest-failure path is reproducible.
Must not touch runs, plans or exports.
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from typing import Any

from aiohttp import web
from pydantic import BaseModel, ConfigDict, Field

from minds_sandbox import grounding
from minds_sandbox.errors import ApiError, conflict
from minds_sandbox.http_support import (
    lookup,
    ok,
    origin,
    parse,
    read_json,
    runtime,
    study_of,
)
from minds_sandbox.middleware import KEY_FP
from minds_sandbox.state import Record, SandboxState

CALIBRATION_STEPS = 3  # engine steps a recalibration stays "Calibrating…"
RETRAIN_STEPS = 5  # engine steps the changed members keep retraining afterwards
UNDELIVERABLE_DOMAIN = ".invalid"


def _members(state: SandboxState, audience: Record) -> list[Record]:
    return sorted((state.minds[m] for m in audience["mindIds"] if m in state.minds), key=lambda m: m["name"])


def calibrating(audience: Record, now: float) -> bool:
    return now < audience.get("calibratingUntil", 0.0)


def retraining(audience: Record, now: float) -> list[str]:
    return list(audience.get("retrainingMindIds", [])) if now < audience.get("retrainUntil", 0.0) else []


# ---------------------------------------------------------------- progress


async def audience_progress(request: web.Request) -> web.Response:
    rt = runtime(request)
    audience = lookup(rt.state.audiences, request.match_info["audience_id"], "Audience")
    busy = set(retraining(audience, rt.clock.now()))
    members = [
        {"mindId": m["id"], "name": m["name"], "status": "training" if m["id"] in busy else "completed"}
        for m in _members(rt.state, audience)
    ]
    building = sum(1 for m in members if m["status"] == "training")
    return ok(
        {"total": len(members), "ready": len(members) - building, "building": building, "failed": 0, "members": members}
    )


# ---------------------------------------------------------------- recalibration


class Sources(BaseModel):
    model_config = ConfigDict(extra="forbid")
    files: list[dict[str, str]] | None = Field(default=None, max_length=20)
    links: list[str] | None = Field(default=None, max_length=20)
    keywords: list[str] | None = Field(default=None, max_length=20)


class Share(BaseModel):
    model_config = ConfigDict(extra="allow")
    label: str
    pct: float = Field(ge=0, le=100)
    sourceIdx: int = Field(ge=0)


class GroundingDistribution(BaseModel):
    model_config = ConfigDict(extra="allow")
    name: str
    distribution: list[Share]


class Recalibrate(BaseModel):
    model_config = ConfigDict(extra="forbid")
    instruction: str | None = Field(default=None, max_length=4000)
    query: str | None = Field(default=None, max_length=4000)
    requestedDistribution: str | None = Field(default=None, min_length=1, max_length=120)
    sources: Sources | None = None
    distributions: list[GroundingDistribution] | None = None  # present (even empty): selection mode
    allowSharedMinds: bool | None = None


def _shared_members(state: SandboxState, audience: Record) -> list[dict[str, Any]]:
    """Members that also belong to another Audience, with those Audiences (the 409's ``sharedMinds``)."""
    shared = []
    for mind in _members(state, audience):
        others = [
            {"id": a["id"], "name": a["name"]}
            for a in state.audiences.values()
            if a["id"] != audience["id"] and mind["id"] in a["mindIds"]
        ]
        if others:
            shared.append({"mindId": mind["id"], "mindName": mind["name"], "otherAudiences": others})
    return shared


async def recalibrate(request: web.Request) -> web.Response:
    """Owner only (every sandbox Audience is the caller's). One at a time: a second request while calibrating
    is 409. Composition words ("make", "%", "skew") re-allocate about a third of the members; other
    instructions evolve every member in place; "add N" grows the roster."""
    rt = runtime(request)
    audience = lookup(rt.state.audiences, request.match_info["audience_id"], "Audience")
    body = parse(Recalibrate, await read_json(request, required=False))
    now = rt.clock.now()
    if calibrating(audience, now):
        raise conflict(
            "A recalibration is already running for this audience. Wait for it to finish and try again.",
            code="RECALIBRATION_RUNNING",
        )
    shared = _shared_members(rt.state, audience)
    if shared and not body.allowSharedMinds and not _is_additive(body.instruction or ""):
        raise conflict(
            "Some members also belong to other Audiences; recalibrating would rewrite them there too.",
            code="AUDIENCE_MINDS_SHARED",
            data={"code": "AUDIENCE_MINDS_SHARED", "sharedMinds": shared},
        )
    _edit_grounding(audience, body, now=now)
    members = _members(rt.state, audience)
    changed = _changed_members(members, body.instruction or body.query or "")
    step = rt.engine.step
    audience["calibratingUntil"] = now + CALIBRATION_STEPS * step
    audience["retrainUntil"] = now + (CALIBRATION_STEPS + RETRAIN_STEPS) * step
    audience["retrainingMindIds"] = [m["id"] for m in changed]
    if body.instruction:
        audience.setdefault("adjustments", []).append({"text": body.instruction, "createdAt": now})
    if body.requestedDistribution:
        topic = body.requestedDistribution.strip()
        audience.setdefault("adjustments", []).append({"text": f"Add a distribution: {topic}", "createdAt": now})
        grounding.add_distribution(audience, topic)
    audience["updatedAt"] = now
    rt.state.touch()
    composition = _is_composition(body.instruction or "")
    return ok(
        {
            "grounding": _grounding(audience, now=now),
            "refreshedMembers": 0,
            "evolvedMembers": 0 if composition else len(changed),
            "retrainingMembers": len(changed),
            "addedMembers": 0,
        }
    )


RESEARCH_FIELDS = ("instruction", "query", "requestedDistribution", "sources")


def _edit_grounding(audience: Record, body: Recalibrate, *, now: float) -> None:
    """Selection mode (``distributions`` present, even empty) edits the active set and nothing else; research
    mode persists extra sources (``query`` is a one-off override: nothing of it is kept for replay)."""
    if body.distributions is not None:
        mixed = [f for f in RESEARCH_FIELDS if getattr(body, f) is not None]
        if mixed:
            raise ApiError(400, f"Selection mode cannot be combined with {', '.join(mixed)}", code="INVALID_REQUEST")
        grounding.select(audience, [d.model_dump() for d in body.distributions])
        return
    extras = audience.setdefault("sourceExtras", [])
    for word in (body.sources.keywords or []) if body.sources else []:
        extras.append({"kind": "keyword", "value": word, "createdAt": now})
    for link in (body.sources.links or []) if body.sources else []:
        extras.append({"kind": "link", "value": link, "createdAt": now})


def _is_additive(instruction: str) -> bool:
    return "add " in instruction.lower()


def _is_composition(instruction: str) -> bool:
    words = instruction.lower()
    return any(w in words for w in ("%", "make ", "skew", "more ", "fewer "))


def _changed_members(members: list[Record], instruction: str) -> list[Record]:
    if _is_composition(instruction):
        return members[: max(1, len(members) // 3)]
    return members


def _grounding(audience: Record, *, now: float) -> dict[str, Any]:
    return {
        "distributions": [],
        "sources": [],
        "summary": f"Grounding for {audience['name']}",
        "confidence": 0.6,
        "appliedToPersonas": True,
        "allocationConfig": None,
        "allocationAudit": None,
    }


# ---------------------------------------------------------------- model connections

CONNECTIONS: tuple[Record, ...] = (
    {
        "id": "8c6f0c52-4a57-4d0e-9d52-0b7e0c1f3a01",
        "name": "Team Azure GPT",
        "provider": "azure_openai",
        "model": "gpt-4.1",
        "revision": 3,
        "verifiedAt": "2026-11-20T10:00:00Z",
        "capabilities": {"chat": True, "structuredOutput": True},
    },
    {
        "id": "8c6f0c52-4a57-4d0e-9d52-0b7e0c1f3a02",
        "name": "Local Llama (unverified)",
        "provider": "openai_compatible",
        "model": "llama-3.1-70b",
        "revision": 1,
        "verifiedAt": None,
        "capabilities": {"chat": True, "structuredOutput": False},
    },
)


async def model_connections(request: web.Request) -> web.Response:
    """Two connections, one per page, so clients must follow ``nextCursor``."""
    faults = runtime(request).faults
    if not faults.model_connections:
        raise ApiError(404, "Model connections are disabled", code="MODEL_CONNECTIONS_DISABLED")
    cursor = request.query.get("cursor")
    index = 0 if not cursor else next((i for i, c in enumerate(CONNECTIONS) if c["id"] == cursor), -1)
    if index < 0:
        raise ApiError(400, "Invalid cursor", code="INVALID_CURSOR")
    following = CONNECTIONS[index + 1]["id"] if index + 1 < len(CONNECTIONS) else None
    if faults.cursor_stall and cursor:
        following = cursor
    return web.json_response({"data": [CONNECTIONS[index]], "pagination": {"nextCursor": following}})


# ---------------------------------------------------------------- invitations


class Invite(BaseModel):
    model_config = ConfigDict(extra="forbid")
    emails: list[str] = Field(min_length=1, max_length=100)
    role: str = Field(default="member", pattern="^(member|admin)$")
    inviteEntireTeam: bool = False


async def invite(request: web.Request) -> web.Response:
    rt = runtime(request)
    study = study_of(request)
    body = parse(Invite, await read_json(request))
    if any("@" not in e for e in body.emails):
        raise ApiError(400, "Invalid email address", code="INVALID_EMAIL")
    invited = [e for e in body.emails if not e.lower().endswith(UNDELIVERABLE_DOMAIN)]
    failures = [{"email": e, "reason": "Mailbox unavailable"} for e in body.emails if e not in invited]
    study.setdefault("invitations", []).extend(
        {"email": e, "role": body.role, "by": request[KEY_FP]} for e in body.emails
    )
    rt.state.touch()
    return ok({"invited": invited, "role": body.role, "emailFailures": failures})


# ---------------------------------------------------------------- source import

SOURCE_EXTENSIONS = (".txt", ".md", ".csv", ".json")
MAX_SOURCE_FILES = 20
MAX_SOURCE_BYTES = 5 * 1024 * 1024
MAX_SOURCE_TOTAL = 12 * 1024 * 1024
SOURCE_POLICY = "supplied_files"


class SourceFile(BaseModel):
    name: str = Field(min_length=1, max_length=200)
    content: str = Field(max_length=MAX_SOURCE_BYTES)


class SourceImport(BaseModel):
    files: list[SourceFile] = Field(default_factory=list, max_length=MAX_SOURCE_FILES)
    existingFiles: list[dict[str, str]] = Field(default_factory=list, max_length=MAX_SOURCE_FILES)
    groundingJson: str | None = None


async def source_import(request: web.Request) -> web.Response:
    """Content-addressed uploads: the same file imported again gets the same URL (a retry is safe)."""
    rt = runtime(request)
    body = parse(SourceImport, await read_json(request, max_bytes=MAX_SOURCE_TOTAL + 1024 * 1024))
    if not body.files:
        raise ApiError(400, "No files to import", code="NO_FILES")
    total = 0
    for item in body.files:
        if not item.name.lower().endswith(SOURCE_EXTENSIONS):
            raise ApiError(400, f"Unsupported source file type: {item.name}", code="UNSUPPORTED_SOURCE")
        total += len(item.content.encode())
    if total > MAX_SOURCE_TOTAL:
        raise ApiError(413, "Import is too large", code="IMPORT_TOO_LARGE")
    imported = [_upload(request, item) for item in body.files]
    rt.state.touch()
    return ok({"files": imported, "sourcePolicy": SOURCE_POLICY, "snapshot": None, "snapshotSha256": None})


def _upload(request: web.Request, item: SourceFile) -> dict[str, Any]:
    state = runtime(request).state
    data = item.content.encode()
    digest = hashlib.sha256(data).hexdigest()
    url = f"{origin(request)}/uploads/{digest}/{item.name}"
    state.uploads[url] = {"keyFp": request[KEY_FP], "name": item.name, "sha256": digest, "size": len(data)}
    if item.name.lower().endswith(".csv"):  # a respondent dataset a segmentation preview may read back
        state.uploads[url]["content"] = item.content
    return {"name": item.name, "url": url, "sha256": digest, "size": len(data)}


def check_source_files(request: web.Request, files: list[dict[str, str]]) -> None:
    """From-brief ``files`` must be this account's imports ("missing or foreign files are input errors")."""
    uploads = runtime(request).state.uploads
    for item in files:
        upload = uploads.get(item.get("url", ""))
        if upload is None or upload["keyFp"] != request[KEY_FP]:
            raise ApiError(400, f"Unknown source file: {item.get('name')}", code="FOREIGN_FILE")


# ---------------------------------------------------------------- question heatmaps

HEATMAP_STEPS = 2  # engine steps an analysis takes
REGIONS = ("Headline", "Product", "Price tag", "Logo", "Background")


def _message(study: Record, message_id: str) -> Record:
    message = next((m for m in study["messages"] if m["id"] == message_id), None)
    if message is None or not (message.get("metadata") or {}).get("outputData"):
        raise ApiError(404, "Study message not found", code="NOT_FOUND")
    return message


def _asset(message: Record, asset_key: str | None) -> dict[str, Any]:
    assets = [a for a in message["metadata"]["outputData"].get("assets") or [] if a["kind"] in ("image", "video")]
    chosen = next((a for a in assets if asset_key in (None, a["assetKey"])), None)
    if chosen is None:
        raise ApiError(400, "This question has no such image or video asset", code="NO_ASSET")
    return chosen


def _heatmap_view(message: Record, asset: dict[str, Any], record: Record | None, now: float, step: float) -> dict:
    respondents = sum(len(a.get("answers", [])) for a in message["metadata"]["outputData"]["audiences"])
    view: dict[str, Any] = {"status": "none", "assetKey": asset["assetKey"], "kind": asset["kind"]}
    view["respondents"] = respondents
    if record is None:
        return view
    done = now >= record["startedAt"] + HEATMAP_STEPS * step
    view["status"] = "completed" if done else "processing"
    if done:
        rng_seed = int(hashlib.sha256(asset["assetKey"].encode()).hexdigest()[:8], 16)
        weights = [((rng_seed >> (i * 3)) % 7 + 1) for i in range(len(REGIONS))]
        total = sum(weights)
        regions = [{"label": r, "attention": round(w / total, 2)} for r, w in zip(REGIONS, weights, strict=True)]
        view["regions"] = sorted(regions, key=lambda r: -r["attention"])
        view["summary"] = f"{view['regions'][0]['label']} drew the most attention across {respondents} Minds."
    return view


async def get_heatmap(request: web.Request) -> web.Response:
    rt = runtime(request)
    study = study_of(request)
    message = _message(study, request.match_info["message_id"])
    asset = _asset(message, request.query.get("assetKey"))
    record = study.get("heatmaps", {}).get(f"{message['id']}|{asset['assetKey']}")
    return ok(_heatmap_view(message, asset, record, rt.clock.now(), rt.engine.step))


class HeatmapStart(BaseModel):
    model_config = ConfigDict(extra="forbid")
    assetKey: str | None = None


async def start_heatmap(request: web.Request) -> web.Response:
    """Premium: one response per Mind from the allowance; a started or finished analysis is reused."""
    rt = runtime(request)
    study = study_of(request)
    message = _message(study, request.match_info["message_id"])
    asset = _asset(message, parse(HeatmapStart, await read_json(request, required=False)).assetKey)
    key = f"{message['id']}|{asset['assetKey']}"
    heatmaps = study.setdefault("heatmaps", {})
    if key not in heatmaps:
        respondents = _heatmap_view(message, asset, None, 0, 1)["respondents"]
        remaining = rt.engine.remaining_allowance(request[KEY_FP])
        if remaining is not None and remaining < respondents:
            raise ApiError(
                403,
                "The response allowance does not cover this heatmap",
                code="PLAN_LIMIT",
                data={"limitType": "responses", "currentPlan": "premium", "limit": rt.state.allowance},
            )
        rt.state.usage[request[KEY_FP]] = rt.state.usage.get(request[KEY_FP], 0) + respondents
        heatmaps[key] = {"startedAt": rt.clock.now()}
        rt.state.touch()
    return ok(_heatmap_view(message, asset, heatmaps[key], rt.clock.now(), rt.engine.step))


def _website_heatmap(message: Record) -> bool:
    """The export is of a website heatmap only (catalogue rule 91): the answer to a question that showed a website
    carries it; an image or video heatmap has no archive."""
    return any(a["kind"] == "website" for a in message["metadata"]["outputData"].get("assets") or [])


async def start_heatmap_export(request: web.Request) -> web.Response:
    rt = runtime(request)
    study = study_of(request)
    message = _message(study, request.match_info["message_id"])
    if not _website_heatmap(message):
        raise conflict("This question has no website heatmap to export", code="HEATMAP_NOT_READY")
    exports = study.setdefault("heatmapExports", {})
    exports.setdefault(message["id"], {"startedAt": rt.clock.now()})
    rt.state.touch()
    return ok(_heatmap_export_view(request, study, message))


def _heatmap_export_view(request: web.Request, study: Record, message: Record) -> dict[str, Any]:
    rt = runtime(request)
    job = study.get("heatmapExports", {}).get(message["id"])
    if job is None:
        return {"status": "idle"}
    done = rt.clock.now() >= job["startedAt"] + rt.engine.step
    return {
        "status": "completed" if done else "processing",
        "filename": f"heatmap-{message['id'][:8]}.zip",
        "mimeType": "application/zip",
    }


async def heatmap_export_status(request: web.Request) -> web.Response:
    study = study_of(request)
    return ok(_heatmap_export_view(request, study, _message(study, request.match_info["message_id"])))


async def heatmap_export_download(request: web.Request) -> web.Response:
    study = study_of(request)
    message = _message(study, request.match_info["message_id"])
    if _heatmap_export_view(request, study, message)["status"] != "completed":
        raise conflict("The export is not finished yet; poll export-status", code="EXPORT_NOT_READY")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("report.md", f"# Heatmap\n\nQuestion: {message['content']}\n")
        archive.writestr("metadata.json", json.dumps({"studyId": study["id"], "messageId": message["id"]}))
    headers = {"Content-Disposition": f'attachment; filename="heatmap-{message["id"][:8]}.zip"'}
    return web.Response(body=buffer.getvalue(), content_type="application/zip", headers=headers)
