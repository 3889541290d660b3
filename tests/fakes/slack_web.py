"""A tiny fake Slack Web API on 127.0.0.1 for listener tests: answers auth.test, records every call,
and accepts ``response_url`` posts so tests can await what the bot said.

Also: ``wait_for(method, count)`` awaits calls (no sleeping), file uploads (files.getUploadURLExternal → the
upload URL → files.completeUploadExternal, bytes kept in ``uploads``), and views.open/update return a view id."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl

from aiohttp import web

WAIT_SECONDS = 10.0


@dataclass
class FakeSlack:
    base_url: str = ""
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    responses: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)
    uploads: dict[str, bytes] = field(default_factory=dict)
    changed: asyncio.Condition = field(default_factory=asyncio.Condition)

    def calls_to(self, method: str) -> list[dict[str, Any]]:
        return [body for name, body in self.calls if name == method]

    async def wait_for(self, method: str, count: int = 1) -> list[dict[str, Any]]:
        """Wait (at most WAIT_SECONDS) until ``method`` was called ``count`` times; returns its calls so far."""
        async with self.changed:
            await asyncio.wait_for(self.changed.wait_for(lambda: len(self.calls_to(method)) >= count), WAIT_SECONDS)
        return self.calls_to(method)

    @property
    def api_url(self) -> str:
        return f"{self.base_url}/api/"

    def response_url(self, name: str = "1") -> str:
        return f"{self.base_url}/respond/{name}"


async def _body(request: web.Request) -> dict[str, Any]:
    """The call's arguments: slack_sdk sends some in the query string (e.g. files.completeUploadExternal)."""
    raw = await request.text()
    query = dict(request.query)
    if request.content_type == "application/json":
        return {**query, **json.loads(raw or "{}")}
    return {**query, **dict(parse_qsl(raw))}


@asynccontextmanager
async def fake_slack() -> AsyncIterator[FakeSlack]:
    fake = FakeSlack()

    async def api(request: web.Request) -> web.Response:
        method = request.match_info["method"]
        body = await _body(request)
        fake.calls.append((method, body))
        async with fake.changed:
            fake.changed.notify_all()
        if method == "files.getUploadURLExternal":
            file_id = f"F{len(fake.calls_to(method)):04d}"
            upload_url = f"{fake.base_url}/upload/{file_id}"
            return web.json_response({"ok": True, "file_id": file_id, "upload_url": upload_url})
        if method == "files.completeUploadExternal":
            files = json.loads(body.get("files") or "[]") if isinstance(body.get("files"), str) else body.get("files")
            return web.json_response({"ok": True, "files": [{"id": f["id"], "title": f.get("title")} for f in files]})
        if method in ("views.open", "views.update"):
            return web.json_response({"ok": True, "view": {"id": "V0001"}})
        if method == "auth.test":
            return web.json_response(
                {"ok": True, "team": "Acme", "team_id": "T0001", "user": "minds", "user_id": "UBOT", "bot_id": "B1"}
            )
        return web.json_response({"ok": True, "ts": "1733140000.000100", "channel": "C0001"})

    async def respond(request: web.Request) -> web.Response:
        await fake.responses.put(await _body(request))
        return web.Response(text="ok")

    async def upload(request: web.Request) -> web.Response:
        fake.uploads[request.match_info["file_id"]] = await request.read()
        return web.Response(text="OK - ok")

    app = web.Application()
    app.router.add_post("/api/{method}", api)
    app.router.add_post("/upload/{file_id}", upload)
    app.router.add_post("/respond/{name}", respond)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    fake.base_url = f"http://127.0.0.1:{runner.addresses[0][1]}"
    try:
        yield fake
    finally:
        await runner.cleanup()
