"""Audience and Mind profile exports: ``POST /{audiences|minds}/{id}/export`` and ``GET …/export-status``.

Owns: a persona profile (a Mind) or an Audience brief as Markdown, PDF or DOCX (the PDF and DOCX are the
Markdown drawn as headings and lists by ``documents.py``), produced as a job that completes one engine step after
it was asked for, then served inline (``content`` for md, ``contentBase64`` for pdf and docx) and from
the cache for later requests unless ``force``. The ``profile_export_failure`` fault knob makes jobs fail.
An unknown or mismatched ``jobId`` reports ``idle``, as the Mind export does.
Must not contain: anything of the bot.
"""

from __future__ import annotations

import asyncio
import base64
from typing import Any, Literal

from aiohttp import web
from pydantic import BaseModel, ConfigDict

from minds_sandbox import documents, exports
from minds_sandbox.errors import bad_request
from minds_sandbox.http_support import lookup, ok, parse, read_json, runtime
from minds_sandbox.runtime import Runtime
from minds_sandbox.state import Record

RENDERED = ("md", "pdf", "docx")
MIME = {"md": "text/markdown;charset=utf-8", "pdf": "application/pdf", "docx": exports.MIME_TYPES["docx"]}


class ExportBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    format: Literal["pdf", "md", "docx", "pptx"] = "md"
    force: bool = False


def _item(request: web.Request) -> tuple[str, Record]:
    rt = runtime(request)
    if "mind_id" in request.match_info:
        return "minds", lookup(rt.state.minds, request.match_info["mind_id"], "Mind")
    return "audiences", lookup(rt.state.audiences, request.match_info["audience_id"], "Audience")


async def start_export(request: web.Request) -> web.Response:
    rt = runtime(request)
    kind, item = _item(request)
    body = parse(ExportBody, await read_json(request, required=False))
    if body.format not in RENDERED:
        raise bad_request(f"The sandbox renders md, pdf and docx exports, not {body.format}")
    cached = rt.state.profile_exports.get(f"{kind}:{item['id']}:{body.format}")
    if cached is not None and cached["status"] == "completed" and not body.force:
        return ok(await _view(rt, cached))
    job = {
        "jobId": rt.state.new_id("profile-export"),
        "kind": kind,
        "itemId": item["id"],
        "format": body.format,
        "status": "queued",
        "dueAt": rt.clock.now() + rt.engine.step,
    }
    rt.state.profile_exports[job["jobId"]] = job
    rt.state.touch()
    return ok(await _view(rt, job))


async def export_status(request: web.Request) -> web.Response:
    rt = runtime(request)
    kind, item = _item(request)
    job = rt.state.profile_exports.get(request.query.get("jobId", ""))
    fmt = request.query.get("format", "md")
    if job is None or job["itemId"] != item["id"] or job["format"] != fmt:
        return ok({"status": "idle"})
    return ok(await _view(rt, job))


async def _view(rt: Runtime, job: Record) -> dict[str, Any]:
    if job["status"] == "queued" and rt.clock.now() >= job["dueAt"]:
        await _finish(rt, job)
    if job["status"] != "completed":
        view: dict[str, Any] = {"status": job["status"], "jobId": job["jobId"]}
        if job["status"] == "failed":
            view["error"] = job["error"]
        else:
            view["progress"] = 0
        return view
    return {key: job[key] for key in ("status", "jobId", "format", "filename", "mimeType")} | job["inline"]


async def _finish(rt: Runtime, job: Record) -> None:
    """Renders the file off the event loop (a PDF loads its fonts: up to seconds for a CJK font); a second poll
    meanwhile renders the same file again, harmlessly."""
    if rt.faults.profile_export_failure:
        job.update(status="failed", error="The profile could not be rendered")
        rt.state.touch()
        return
    title, lines = _profile(rt, job)
    fmt, markdown = job["format"], "\n".join(lines) + "\n"
    if fmt == "md":
        inline = {"content": markdown}
    else:
        drawn = await asyncio.to_thread(documents.pdf if fmt == "pdf" else documents.docx, markdown)
        inline = {"contentBase64": base64.b64encode(drawn).decode()}
    job.update(status="completed", filename=f"{title}.{fmt}", mimeType=MIME[fmt], inline=inline)
    rt.state.profile_exports[f"{job['kind']}:{job['itemId']}:{fmt}"] = job
    rt.state.touch()


def _profile(rt: Runtime, job: Record) -> tuple[str, list[str]]:
    state = rt.state
    if job["kind"] == "minds":
        mind = state.minds[job["itemId"]]
        persona = mind.get("persona") or {}
        esc = documents.escape
        lines = [f"# {esc(mind['name'])}", "", esc(mind.get("description") or ""), ""]
        lines += [f"- **{esc(key.capitalize())}**: {esc(value)}" for key, value in persona.items() if key != "traits"]
        return mind["name"], lines
    audience = state.audiences[job["itemId"]]
    members = [state.minds[m] for m in audience["mindIds"] if m in state.minds]
    esc = documents.escape
    lines = [f"# {esc(audience['name'])}", "", f"{len(members)} Minds", ""]
    lines += [f"- **{esc(m['name'])}** — {esc(m.get('description') or '')}" for m in members]
    return audience["name"], lines
