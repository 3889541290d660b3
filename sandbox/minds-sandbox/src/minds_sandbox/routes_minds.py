"""Creating and managing Minds (personas) and their knowledge, per the OpenAPI's Minds and Knowledge operations.

Owns: ``POST /minds`` (validation per mode; an ``Idempotency-Key`` header replays the Mind it created with the
same body, 409 with another body), ``GET /minds/{id}/training``, ``PUT`` and ``DELETE /minds/{id}``,
``POST /minds/{id}/retrain`` (409 while queued or running) and the knowledge of a Mind: ``GET``/``POST
/minds/{id}/knowledge``, ``GET …/knowledge/{itemId}/status`` and ``DELETE …/knowledge/{itemId}``.
Training and ingestion progress on the sandbox clock, derived when read (``advance``): a Mind is ``queued``, then
``running`` one engine step later and ``completed`` two steps after that; a ``manual`` Mind reports ``failed``
(``PROFILE_GEN_FAILED``, retryable) as the OpenAPI says, until it is retrained. Seeded Minds have finished
training (no ``training`` record). A knowledge item is ``queued``, ``running`` half a step later and
``completed`` after a step. Must not contain: anything of the bot.
"""

from __future__ import annotations

from typing import Any, Literal
from urllib.parse import urlsplit

from aiohttp import web
from pydantic import BaseModel, ConfigDict, Field

from minds_sandbox import views
from minds_sandbox.clock import iso
from minds_sandbox.errors import ApiError, bad_request, conflict, not_found
from minds_sandbox.http_support import body_hash, idempotency_key, lookup, ok, parse, read_json, runtime
from minds_sandbox.middleware import KEY_FP
from minds_sandbox.runtime import Runtime
from minds_sandbox.state import Record

TRAINING_STEPS = 3  # queued for one engine step, running for two
MAX_TAGS = 20
MODE_FIELDS = {"keywords": "keywords", "clone": "personaContext", "link": "contextLink"}


class CreateMindBody(BaseModel):
    model_config = ConfigDict(extra="ignore")
    name: str | None = None
    discipline: str | None = None
    description: str | None = None
    mode: Literal["keywords", "clone", "link", "manual"] = "keywords"
    type: Literal["creative", "expert", "user"] = "expert"
    keywords: list[str] | None = None
    personaContext: str | None = None
    contextLink: str | None = None
    link: str | None = None
    tags: list[str] = Field(default_factory=list, max_length=MAX_TAGS)
    includeWebSearch: bool = True


class KnowledgeFile(BaseModel):
    model_config = ConfigDict(extra="ignore")
    name: str
    url: str
    type: str | None = None


class AddKnowledgeBody(BaseModel):
    model_config = ConfigDict(extra="ignore")
    link: str | None = None
    file: KnowledgeFile | None = None
    description: str | None = None
    regeneratePrompt: bool = False
    url: str | None = None


def _public_url(value: str) -> bool:
    try:
        parts = urlsplit(value)
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and bool(parts.hostname) and parts.hostname not in ("localhost",)


# --- training on the sandbox clock ---------------------------------------------------------------------------------


def advance(rt: Runtime, mind: Record) -> None:
    """Bring the Mind's training and its knowledge items up to the sandbox clock."""
    now, step = rt.clock.now(), rt.engine.step
    training = mind.get("training")
    if training is not None and training["status"] in ("queued", "running"):
        if training["status"] == "queued" and now >= training["queuedAt"] + step:
            training.update(status="running", startedAt=training["queuedAt"] + step)
        if training["status"] == "running" and now >= training["queuedAt"] + TRAINING_STEPS * step:
            training.update(status="completed", completedAt=training["queuedAt"] + TRAINING_STEPS * step)
        rt.state.touch()
    for item in mind.get("knowledge", []):
        processing = item["processing"]
        if processing["status"] == "queued" and now >= item["queuedAt"] + step / 2:
            processing["status"] = "running"
        if processing["status"] == "running" and now >= item["queuedAt"] + step:
            processing["status"] = "completed"
            item["updatedAt"] = item["queuedAt"] + step


def training_view(mind: Record) -> dict[str, Any]:
    """The OpenAPI's ``TrainingStatus``; a seeded Mind has finished."""
    training = mind.get("training")
    if training is None:
        created = iso(mind["createdAt"])
        return {
            "status": "completed",
            "readyToChat": True,
            "message": "Training complete",
            "startedAt": created,
            "completedAt": created,
            "error": None,
        }
    status = training["status"]
    view: dict[str, Any] = {
        "status": status,
        "readyToChat": status == "completed",
        "message": _message(training),
        "startedAt": iso(training["startedAt"]) if training.get("startedAt") else None,
        "completedAt": iso(training["completedAt"]) if training.get("completedAt") else None,
        "error": None,
    }
    if status == "failed":
        view["error"] = {"code": training["error"]["code"], "retryable": training["error"]["retryable"]}
    return view


def _message(training: Record) -> str:
    if training.get("error") is not None:
        return str(training["error"]["message"])
    said = _MESSAGES[training["status"]]
    return said if training.get("webSearch", True) else said + " (no web research)"


_MESSAGES = {
    "queued": "Waiting for a training worker",
    "running": "Collecting sources and building the profile",
    "completed": "Training complete",
    "failed": "Training failed",
}


def _queued(now: float) -> Record:
    return {"status": "queued", "queuedAt": now, "startedAt": None, "completedAt": None, "error": None}


def _manual(now: float) -> Record:
    error = {
        "code": "PROFILE_GEN_FAILED",
        "retryable": True,
        "message": "No system prompt yet: add knowledge, then retrain",
    }
    return {"status": "failed", "queuedAt": now, "startedAt": None, "completedAt": now, "error": error}


# --- the Minds ------------------------------------------------------------------------------------------------------


def _check_create(body: CreateMindBody) -> None:
    name = (body.name or "").strip()
    if not 2 <= len(name) <= 100:
        raise bad_request("Name must be between 2 and 100 characters", code="VALIDATION_ERROR")
    if not (body.discipline or "").strip():
        raise bad_request("discipline is required", code="VALIDATION_ERROR")
    needed = MODE_FIELDS.get(body.mode)
    link = body.contextLink or body.link
    keywords = [k for k in body.keywords or [] if k.strip()]
    given = {"keywords": keywords, "personaContext": body.personaContext, "contextLink": link}
    if needed is not None and not given[needed]:
        raise bad_request(f"{needed} is required when mode={body.mode}", code="VALIDATION_ERROR")
    if body.mode == "link" and link and not _public_url(link):
        raise bad_request("contextLink must be a public http(s) URL", code="VALIDATION_ERROR")


async def create_mind(request: web.Request) -> web.Response:
    rt = runtime(request)
    raw = await read_json(request)
    key = idempotency_key(request)
    scope = f"mind:{request[KEY_FP]}:{key}" if key else None
    if scope is not None and scope in rt.state.duplicates:
        earlier = rt.state.duplicates[scope]
        if earlier["bodyHash"] != body_hash(raw):
            raise conflict("This Idempotency-Key was used with another request", code="IDEMPOTENCY_KEY_REUSED")
        replayed = lookup(rt.state.minds, earlier["mindId"], "Mind")
        advance(rt, replayed)
        return _created(replayed, status=201)
    body = parse(CreateMindBody, raw)
    _check_create(body)
    now = rt.clock.now()
    mind: Record = {
        "id": rt.state.new_id("mind"),
        "name": body.name.strip() if body.name else "",
        "description": (body.description or "").strip() or "Created via API",
        "type": body.type,
        "discipline": (body.discipline or "").strip(),
        "tags": [t.strip() for t in body.tags if t.strip()][:MAX_TAGS],
        "persona": {"mode": body.mode},
        "createdAt": now,
        "updatedAt": now,
        "training": _manual(now) if body.mode == "manual" else _queued(now) | {"webSearch": body.includeWebSearch},
        "knowledge": [],
    }
    rt.state.minds[mind["id"]] = mind
    if scope is not None:
        rt.state.duplicates[scope] = {"mindId": mind["id"], "bodyHash": body_hash(raw)}
    rt.state.touch()
    return _created(mind, status=201)


def _created(mind: Record, *, status: int) -> web.Response:
    return web.json_response({"data": views.mind_summary(mind), "training": training_view(mind)}, status=status)


def _mind(request: web.Request) -> Record:
    rt = runtime(request)
    mind = lookup(rt.state.minds, request.match_info["mind_id"], "Mind")
    advance(rt, mind)
    return mind


async def get_training(request: web.Request) -> web.Response:
    return web.json_response(training_view(_mind(request)))


class UpdateMindBody(BaseModel):
    model_config = ConfigDict(extra="ignore")
    name: Any = None
    description: Any = None
    discipline: Any = None
    tags: Any = None
    systemPrompt: Any = None


async def update_mind(request: web.Request) -> web.Response:
    rt = runtime(request)
    mind = _mind(request)
    body = parse(UpdateMindBody, await read_json(request))
    changes: Record = {}
    if isinstance(body.name, str):
        if not 2 <= len(body.name.strip()) <= 100:
            raise bad_request("Name must be between 2 and 100 characters")
        changes["name"] = body.name.strip()
    if isinstance(body.description, str):
        changes["description"] = body.description.strip()
    if isinstance(body.discipline, str):
        changes["discipline"] = body.discipline.strip() or None
    if isinstance(body.tags, list):
        changes["tags"] = [t.strip() for t in body.tags if isinstance(t, str) and t.strip()][:MAX_TAGS]
    if isinstance(body.systemPrompt, str):
        changes["systemPrompt"] = body.systemPrompt
    if not changes:
        raise bad_request("No valid fields to update")
    mind.update(changes, updatedAt=rt.clock.now())
    rt.state.touch()
    data = {
        **views.mind_summary(mind),
        "systemPrompt": mind.get("systemPrompt") or f"You are {mind['name']}, {mind['description']}.",
        "isPublic": False,
        "isLinkSharingEnabled": False,
        "publicShareId": None,
    }
    return ok(data)


async def delete_mind(request: web.Request) -> web.Response:
    rt = runtime(request)
    mind = _mind(request)
    del rt.state.minds[mind["id"]]
    for audience in rt.state.audiences.values():
        if mind["id"] in audience["mindIds"]:
            audience["mindIds"] = [m for m in audience["mindIds"] if m != mind["id"]]
    rt.state.touch()
    return web.Response(status=204)


async def retrain_mind(request: web.Request) -> web.Response:
    rt = runtime(request)
    mind = _mind(request)
    current = training_view(mind)["status"]
    if current in ("queued", "running"):
        raise conflict("Mind is still training; a retrain is already in flight", code="TRAINING_IN_PROGRESS")
    mind["training"] = _queued(rt.clock.now()) | {"webSearch": (mind.get("training") or {}).get("webSearch", True)}
    rt.state.touch()
    return web.json_response(training_view(mind))


async def regenerate_prompt(request: web.Request) -> web.Response:
    """Rebuilds the prompt from the Mind's knowledge, synchronously; a Mind with no knowledge and no collected
    sources (a manual Mind) has too little to build from (500, as Minds says). A Mind that failed for want of a
    prompt has finished training once it has one."""
    rt = runtime(request)
    mind = _mind(request)
    await read_json(request, required=False)
    sources = [i["description"] for i in mind.get("knowledge", []) if i["processing"]["status"] == "completed"]
    manual = (mind.get("persona") or {}).get("mode") == "manual"
    if manual and not sources:
        raise ApiError(500, "Failed to generate system prompt - insufficient content generated")
    prompt = f"## {mind['name']}\n\n{mind['description']}\n\nKnows: " + "; ".join(sources or [mind["discipline"]])
    mind.update(systemPrompt=prompt, updatedAt=rt.clock.now())
    training = mind.get("training")
    if training is not None and (training.get("error") or {}).get("code") == "PROFILE_GEN_FAILED":
        training.update(status="completed", completedAt=rt.clock.now(), error=None)
    rt.state.touch()
    data = {"id": mind["id"], "name": mind["name"], "systemPrompt": prompt, "promptLength": len(prompt)}
    return web.json_response({"success": True, "data": data})


# --- knowledge -----------------------------------------------------------------------------------------------------


def _item_view(mind: Record, item: Record, *, accepted: bool = False) -> dict[str, Any]:
    view: dict[str, Any] = {
        "id": item["id"],
        "description": item["description"],
        "link": item["link"],
        "filePath": item["filePath"],
        "isWatched": False,
        "processing": dict(item["processing"]),
        "statusUrl": f"/api/v1/minds/{mind['id']}/knowledge/{item['id']}/status",
        "createdAt": iso(item["createdAt"]),
        "updatedAt": iso(item["updatedAt"]),
    }
    if accepted:
        view = {k: v for k, v in view.items() if v is not None and k not in ("isWatched", "updatedAt")}
    return view


async def list_knowledge(request: web.Request) -> web.Response:
    mind = _mind(request)
    items = sorted(mind.get("knowledge", []), key=lambda i: i["createdAt"], reverse=True)
    data = {"items": [_item_view(mind, i) for i in items], "total": len(items)}
    return web.json_response({"success": True, "data": data})


async def add_knowledge(request: web.Request) -> web.Response:
    rt = runtime(request)
    mind = _mind(request)
    if not request.content_type.startswith("application/json"):
        said = "Unsupported Content-Type. Use application/json for links or multipart/form-data for files"
        raise ApiError(415, said)
    body = parse(AddKnowledgeBody, await read_json(request))
    description = (body.description or "").strip()
    if body.url and not body.link and body.file is None:
        raise bad_request("Use { link, description } not { type: 'link', url }.")
    if body.file is not None:
        if not (body.file.name.strip() and body.file.url.strip() and description):
            raise bad_request("file.name, file.url, and description are required")
        if not _public_url(body.file.url):
            raise bad_request("File URL is not a safe or fetchable public/workspace upload URL")
    elif not (body.link and description):
        raise bad_request("Link and description are required (or provide keywords array for web search)")
    elif not _public_url(body.link):
        raise bad_request("Link must be a public http(s) URL")
    now = rt.clock.now()
    name = body.file.name.strip().replace("/", "_") if body.file else None
    item: Record = {
        "id": rt.state.new_id("knowledge"),
        "description": description,
        "link": body.link if body.file is None else None,
        "filePath": f"portfolio/{request[KEY_FP][:12]}/{int(now)}_{name}" if name else None,
        "processing": {"status": "queued", "regeneratePrompt": body.regeneratePrompt},
        "createdAt": now,
        "updatedAt": now,
        "queuedAt": now,
    }
    mind.setdefault("knowledge", []).append(item)
    mind["updatedAt"] = now
    rt.state.touch()
    return web.json_response({"success": True, "data": _item_view(mind, item, accepted=True)}, status=202)


def _item(request: web.Request, mind: Record) -> Record:
    wanted = request.match_info["item_id"]
    item = next((i for i in mind.get("knowledge", []) if i["id"] == wanted), None)
    if item is None:
        raise not_found("Knowledge item")
    return item


async def knowledge_status(request: web.Request) -> web.Response:
    mind = _mind(request)
    item = _item(request, mind)
    done = item["processing"]["status"] == "completed"
    data = {
        "id": item["id"],
        "processing": dict(item["processing"]),
        "embeddingCount": 12 if done else 0,
        "patternCount": 3 if done else 0,
        "readyForRetrieval": done,
    }
    return web.json_response({"success": True, "data": data})


async def delete_knowledge(request: web.Request) -> web.Response:
    rt = runtime(request)
    mind = _mind(request)
    item = _item(request, mind)
    mind["knowledge"] = [i for i in mind["knowledge"] if i["id"] != item["id"]]
    rt.state.touch()
    return web.Response(status=204)
