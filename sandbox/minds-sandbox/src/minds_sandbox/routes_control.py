"""Routes outside the Minds API: the ``/_sandbox`` control surface for tests and benchmarks, and the signed
``/_files`` download path.

Owns: fault changes, reset, clock advance, allowance control, status, per-key traffic, the list of question attachments
received (``attachments.py``), and serving export files by signed token.
Must not be reachable as part of ``/api/v1``; these routes take no Minds key.
"""

from __future__ import annotations

import base64

from aiohttp import web
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from minds_sandbox.clock import iso
from minds_sandbox.config import Faults
from minds_sandbox.errors import ApiError, bad_request, not_found
from minds_sandbox.http_support import parse, read_json, runtime

MAX_ADVANCE_SECONDS = 90 * 86_400


async def get_faults(request: web.Request) -> web.Response:
    return web.json_response(runtime(request).faults.model_dump())


async def put_faults(request: web.Request) -> web.Response:
    """Merge the given knobs into the current faults; unknown or invalid knobs are a 400 and change
    nothing."""
    rt = runtime(request)
    body = await read_json(request)
    try:
        faults = Faults.model_validate({**rt.faults.model_dump(), **body})
    except ValidationError as exc:
        issues = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        raise bad_request(f"Invalid faults: {issues}") from exc
    rt.engine.faults = faults
    return web.json_response(faults.model_dump())


async def reset(request: web.Request) -> web.Response:
    rt = runtime(request)
    rt.reset()
    return web.json_response({"ok": True, "now": iso(rt.clock.now())})


class AdvanceBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seconds: float = Field(ge=0, le=MAX_ADVANCE_SECONDS)


async def advance(request: web.Request) -> web.Response:
    rt = runtime(request)
    body = parse(AdvanceBody, await read_json(request))
    rt.clock.advance(body.seconds)
    rt.engine.tick()
    return web.json_response({"now": iso(rt.clock.now())})


class AllowanceBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    limit: int | None = Field(ge=0)
    resetUsage: bool = False


async def put_allowance(request: web.Request) -> web.Response:
    rt = runtime(request)
    body = parse(AllowanceBody, await read_json(request))
    rt.state.allowance = body.limit
    if body.resetUsage:
        rt.state.usage.clear()
    rt.state.touch()
    return web.json_response({"limit": rt.state.allowance, "used": sum(rt.state.usage.values())})


async def status(request: web.Request) -> web.Response:
    rt = runtime(request)
    state = rt.state
    live = [r["id"] for r in state.runs.values() if r["status"] in ("queued", "running")]
    return web.json_response(
        {
            "now": iso(rt.clock.now()),
            "seed": state.seed,
            "faults": rt.faults.model_dump(),
            "allowance": state.allowance,
            "counts": {
                "studies": len(state.studies),
                "audiences": len(state.audiences),
                "minds": len(state.minds),
                "runs": len(state.runs),
            },
            "liveRuns": live,
        }
    )


async def traffic(request: web.Request) -> web.Response:
    """Per key fingerprint: requests that reached ``/api/v1``, the most in any sliding ``windowSeconds`` (on the
    real clock), and how many were answered 429. Counted since start or the last reset."""
    rt = runtime(request)
    keys = {fp: seen.as_json() for fp, seen in rt.traffic.items()}
    return web.json_response({"windowSeconds": rt.config.rate_window_seconds, "keys": keys})


async def download_file(request: web.Request) -> web.Response:
    rt = runtime(request)
    file_id = rt.verify(request.match_info["token"])
    if file_id is None:
        raise ApiError(403, "This download link is invalid or has expired", code="SIGNATURE_INVALID")
    record = rt.state.files.get(file_id)
    if record is None:
        raise not_found("File")
    return web.Response(
        body=base64.b64decode(record["content"]),
        content_type=record["mimeType"].split(";")[0],
        headers={"Content-Disposition": f'attachment; filename="{record["filename"]}"'},
    )


async def attachments(request: web.Request) -> web.Response:
    """What question attachments the sandbox fetched, per run, oldest first: for tests to see what arrived."""
    state = runtime(request).state
    received = [
        {"runId": run["id"], "studyId": run["studyId"], "question": run["questions"][0]["text"], **item}
        for run in state.runs.values()
        for item in run.get("attachments") or []
    ]
    received += [
        {"draftPlanId": plan["id"], "studyId": plan["studyId"], "revision": revision["revision"], **item}
        for plan in state.plans.values()
        for revision in plan["revisions"][:1]  # fetched once, with the request that made the draft
        for item in revision.get("attachments") or []
    ]
    return web.json_response({"data": received})
