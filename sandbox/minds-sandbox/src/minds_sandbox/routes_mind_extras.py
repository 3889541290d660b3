"""The rest of a Mind's lifecycle, per the OpenAPI's Minds and Knowledge operations: ``DELETE /minds`` (several at
once), ``POST /minds/{id}/regenerate-image`` and ``…/regenerate-embeddings``, ``GET /minds/{id}/patterns`` and
``…/knowledge/patterns``, ``PUT /minds/{id}/knowledge/{itemId}`` and ``POST /minds/{id}/knowledge/enrich``.

Patterns are derived from the knowledge that finished processing (two per source: one Big Five aspect, one DISC
aspect), so a Mind without ready knowledge has none. ``DELETE /minds`` answers ``{data: {results: [{mindId,
deleted, error?}]}}`` (the OpenAPI says "per-Mind deletion results" and no shape). Enrichment adds one
auto-collected link source per keyword, queued like any other source. Must not contain: anything of the bot.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from aiohttp import web

from minds_sandbox.clock import iso
from minds_sandbox.errors import ApiError, bad_request
from minds_sandbox.http_support import read_json, runtime
from minds_sandbox.routes_minds import _item, _item_view, _mind, advance
from minds_sandbox.state import Record

MAX_DELETE_MANY = 100
MAX_PERSONA_CONTEXT = 16_000
MAX_KEYWORDS = 15
SKIPPED = "image already set (pass force=true to regenerate)"
FRAMEWORKS = (
    ("ocean", "Big Five (OCEAN)", "ocean-O", "Openness to Experience", "Imagination, curiosity and new ideas."),
    ("disc", "DISC", "disc-C", "Conscientiousness", "Accuracy, quality and careful planning."),
)


async def delete_minds(request: web.Request) -> web.Response:
    rt = runtime(request)
    body = await read_json(request, required=False)
    ids = body.get("mindIds")
    if not isinstance(ids, list) or not ids or len(ids) > MAX_DELETE_MANY or not all(isinstance(i, str) for i in ids):
        raise bad_request("Invalid or empty mindIds array")
    results: list[dict[str, Any]] = []
    for mind_id in dict.fromkeys(ids):
        if mind_id not in rt.state.minds:
            results.append({"mindId": mind_id, "deleted": False, "error": "Mind not found"})
            continue
        del rt.state.minds[mind_id]
        for audience in rt.state.audiences.values():
            audience["mindIds"] = [m for m in audience["mindIds"] if m != mind_id]
        results.append({"mindId": mind_id, "deleted": True})
    rt.state.touch()
    return web.json_response({"success": True, "data": {"results": results}})


async def regenerate_image(request: web.Request) -> web.Response:
    rt = runtime(request)
    mind = _mind(request)
    body = await read_json(request, required=False)
    context = body.get("personaContext")
    if isinstance(context, str) and len(context.strip()) > MAX_PERSONA_CONTEXT:
        raise bad_request(f"personaContext exceeds {MAX_PERSONA_CONTEXT} characters")
    data: dict[str, Any] = {"mindId": mind["id"], "name": mind["name"], "enqueued": True}
    if mind.get("profileImageUrl") and body.get("force") is not True:
        data.update(enqueued=False, skippedReason=SKIPPED)
    else:
        count = int(mind.get("portraits", 0)) + 1
        mind.update(portraits=count, profileImageUrl=f"https://images.example.com/minds/{mind['id']}/{count}.png")
        mind["updatedAt"] = rt.clock.now()
        rt.state.touch()
    return web.json_response({"success": True, "data": data})


async def regenerate_embeddings(request: web.Request) -> web.Response:
    rt = runtime(request)
    mind = _mind(request)
    mind["embeddingRebuilds"] = int(mind.get("embeddingRebuilds", 0)) + 1
    rt.state.touch()
    return web.json_response({"success": True, "data": {"mindId": mind["id"]}}, status=202)


def _ready(mind: Record) -> list[Record]:
    items = [i for i in mind.get("knowledge", []) if i["processing"]["status"] == "completed"]
    return sorted(items, key=lambda i: i["createdAt"], reverse=True)


def _rows(mind: Record) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for number, item in enumerate(_ready(mind)):
        for offset, (_fid, _fname, _aid, aspect, _about) in enumerate(FRAMEWORKS):
            rows.append(
                {
                    "id": 1000 * (number + 1) + offset,
                    "mindId": mind["id"],
                    "aspect": aspect,
                    "subAspect": None,
                    "mind": f"Draws on “{item['description']}”.",
                    "portfolioItemId": item["id"],
                    "messageId": None,
                    "isPredefined": True,
                    "isPredefinedAspect": True,
                    "isPredefinedSubAspect": False,
                    "createdAt": iso(item["updatedAt"]),
                }
            )
    return rows


async def list_patterns(request: web.Request) -> web.Response:
    return web.json_response({"data": _rows(_mind(request))})


async def knowledge_patterns(request: web.Request) -> web.Response:
    mind = _mind(request)
    ready = _ready(mind)
    frameworks = []
    for fid, fname, aid, aspect, about in FRAMEWORKS if ready else ():
        evidence = [
            {"mind": f"Draws on “{i['description']}”.", "portfolioItemId": i["id"], "createdAt": iso(i["updatedAt"])}
            for i in ready
        ]
        general = {
            "id": "(none)",
            "name": "(General)",
            "description": "",
            "occurrences": len(ready),
            "evidence": evidence,
        }
        frameworks.append(
            {
                "id": fid,
                "name": fname,
                "totalOccurrences": len(ready),
                "aspects": [
                    {
                        "id": aid,
                        "name": aspect,
                        "description": about,
                        "occurrences": len(ready),
                        "subAspects": [general],
                    }
                ],
            }
        )
    data = {"mindId": mind["id"], "mindName": mind["name"], "totalPatterns": 2 * len(ready), "frameworks": frameworks}
    return web.json_response({"success": True, "data": data})


async def update_knowledge(request: web.Request) -> web.Response:
    rt = runtime(request)
    mind = _mind(request)
    item = _item(request, mind)
    body = await read_json(request, required=False)
    description = body.get("description")
    if not isinstance(description, str):
        raise bad_request("No valid fields to update. Updatable fields: description")
    if not description.strip():
        raise bad_request("Description must not be empty")
    item.update(description=description.strip(), updatedAt=rt.clock.now())
    rt.state.touch()
    view = {k: v for k, v in _item_view(mind, item).items() if k not in ("processing", "statusUrl")}
    return web.json_response({"success": True, "data": view})


async def enrich_knowledge(request: web.Request) -> web.Response:
    rt = runtime(request)
    mind = _mind(request)
    try:
        body = await read_json(request)
    except ApiError:
        body = {}
    keywords = body.get("keywords")
    if not isinstance(keywords, list) or not keywords:
        raise bad_request("keywords array is required and must not be empty")
    wanted = list(dict.fromkeys(k.strip() for k in keywords if isinstance(k, str) and k.strip()))[:MAX_KEYWORDS]
    if not wanted:
        raise bad_request("At least one valid keyword is required")
    regenerate = body.get("regeneratePrompt", True) is not False
    now = rt.clock.now()
    for keyword in wanted:
        mind.setdefault("knowledge", []).append(
            {
                "id": rt.state.new_id("knowledge"),
                "description": f"Web research: {keyword}",
                "link": f"https://search.example.com/?q={quote(keyword)}",
                "filePath": None,
                "processing": {"status": "queued", "regeneratePrompt": regenerate},
                "createdAt": now,
                "updatedAt": now,
                "queuedAt": now,
            }
        )
    mind["updatedAt"] = now
    advance(rt, mind)
    rt.state.touch()
    message = (
        f"Knowledge enrichment queued with {len(wanted)} keyword(s). Web search and content processing will run in "
        "background."
    )
    data = {
        "mindId": mind["id"],
        "keywords": wanted,
        "queued": True,
        "regeneratePrompt": regenerate,
        "message": message,
    }
    return web.json_response({"success": True, "data": data}, status=202)
