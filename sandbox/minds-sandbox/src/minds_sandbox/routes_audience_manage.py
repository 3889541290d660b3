"""Managing an existing Audience per the OpenAPI: rename and team sharing (``PUT``), delete (with its orphan
member Minds), follow/unfollow, members added and removed, and portrait regeneration.

Owns: those handlers and the fields they keep on records (``isPublic``, ``isSharedWithTeam``, ``followed`` on an
Audience; ``deletedAt`` on a Mind — a deleted Mind's record stays so that runs and chats already under way still
read it, but the API no longer lists or returns it). Every sandbox Audience is the caller's (owner).
Must not touch runs, plans or exports.
"""

from __future__ import annotations

from aiohttp import web
from pydantic import BaseModel, ConfigDict, Field

from minds_sandbox import views
from minds_sandbox.errors import bad_request, not_found
from minds_sandbox.http_support import lookup, ok, parse, read_json, runtime
from minds_sandbox.state import Record

MAX_SAMPLE = 10


def _audience(request: web.Request) -> Record:
    return lookup(runtime(request).state.audiences, request.match_info["audience_id"], "Audience")


class Update(BaseModel):
    model_config = ConfigDict(extra="ignore")
    name: str | None = None
    isPublic: bool | None = None
    isSharedWithTeam: bool | None = None


async def update_audience(request: web.Request) -> web.Response:
    rt = runtime(request)
    audience = _audience(request)
    body = parse(Update, await read_json(request))
    name = (body.name or "").strip()
    if not name:
        raise bad_request("name is required")
    audience["name"] = name
    if body.isPublic is not None:
        audience["isPublic"] = body.isPublic
    if body.isSharedWithTeam is not None:
        audience["isSharedWithTeam"] = body.isSharedWithTeam
    audience["updatedAt"] = rt.clock.now()
    rt.state.touch()
    return ok(views.audience_update(rt.state, audience))


async def delete_audience(request: web.Request) -> web.Response:
    """Deletes the Audience and the member Minds that belong to no other Audience."""
    rt = runtime(request)
    audience = _audience(request)
    others = {m for a in rt.state.audiences.values() if a["id"] != audience["id"] for m in a["mindIds"]}
    now = rt.clock.now()
    for mind_id in audience["mindIds"]:
        if mind_id not in others and mind_id in rt.state.minds:
            rt.state.minds[mind_id]["deletedAt"] = now
    del rt.state.audiences[audience["id"]]
    rt.state.touch()
    return web.Response(status=204)


async def follow(request: web.Request) -> web.Response:
    rt = runtime(request)
    audience = rt.state.audiences.get(request.match_info["audience_id"])
    if audience is None:
        raise not_found("Public Audience")
    audience["followed"] = True
    rt.state.touch()
    return web.Response(status=200)


async def unfollow(request: web.Request) -> web.Response:
    rt = runtime(request)
    audience = rt.state.audiences.get(request.match_info["audience_id"])
    if audience is not None:
        audience["followed"] = False
        rt.state.touch()
    return web.Response(status=200)


class AddMembers(BaseModel):
    model_config = ConfigDict(extra="ignore")
    mindId: str | None = None
    mindIds: list[str] | None = Field(default=None)


async def add_members(request: web.Request) -> web.Response:
    """Adds Minds (nothing when any is unknown); members already in are ignored."""
    rt = runtime(request)
    audience = _audience(request)
    body = parse(AddMembers, await read_json(request))
    if body.mindId is None and body.mindIds is None:
        raise bad_request("mindId or mindIds is required")
    wanted = [body.mindId] if body.mindId is not None else list(dict.fromkeys(body.mindIds or []))
    if not wanted:
        raise bad_request("At least one Mind ID is required")
    minds = rt.state.minds
    if any(m not in minds or minds[m].get("deletedAt") is not None for m in wanted):
        raise not_found("One or more Minds not found or not accessible")
    audience["mindIds"] = [*audience["mindIds"], *(m for m in wanted if m not in audience["mindIds"])]
    audience["updatedAt"] = rt.clock.now()
    rt.state.touch()
    return ok({"added": len(wanted)})


async def remove_member(request: web.Request) -> web.Response:
    rt = runtime(request)
    audience = _audience(request)
    mind_id = request.match_info["mind_id"]
    if mind_id in audience["mindIds"]:
        audience["mindIds"] = [m for m in audience["mindIds"] if m != mind_id]
        audience["updatedAt"] = rt.clock.now()
        rt.state.touch()
    return web.Response(status=204)


class Images(BaseModel):
    model_config = ConfigDict(extra="ignore")
    force: bool = False
    limit: int | None = Field(default=None, ge=1)
    dry: bool = False


async def regenerate_images(request: web.Request) -> web.Response:
    """Sandbox Minds have no portrait (``profileImageUrl`` null), so every member is a candidate."""
    rt = runtime(request)
    audience = _audience(request)
    body = parse(Images, await read_json(request, required=False))
    members = [rt.state.minds[m] for m in audience["mindIds"] if m in rt.state.minds]
    candidates = list(members)
    if body.limit is not None:
        candidates = candidates[: body.limit]
    return ok(
        {
            "audienceId": audience["id"],
            "totalMembers": len(members),
            "candidates": len(candidates),
            "enqueued": 0 if body.dry else len(candidates),
            "skipped": 0,
            "errors": 0,
            "dry": body.dry,
            "sample": [{"id": m["id"], "name": m["name"]} for m in candidates[:MAX_SAMPLE]],
        }
    )
