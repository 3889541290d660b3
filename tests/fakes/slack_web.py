"""A tiny fake Slack Web API on 127.0.0.1 for listener tests: answers auth.test, records every call,
and accepts ``response_url`` posts so tests can await what the bot said."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl

from aiohttp import web

CALL_TIMEOUT_SECONDS = 10.0


@dataclass
class FakeSlack:
    base_url: str = ""
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    responses: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)
    # Every Web API call as it arrives, so a test can await a call made after the ack.
    arrivals: asyncio.Queue[tuple[str, dict[str, Any]]] = field(default_factory=asyncio.Queue)
    # Canned JSON per Web API method (e.g. "users.info"), answered instead of the generic ok reply.
    replies: dict[str, dict[str, Any]] = field(default_factory=dict)

    def calls_to(self, method: str) -> list[dict[str, Any]]:
        return [args for name, args in self.calls if name == method]

    async def next_call(self, method: str) -> dict[str, Any]:
        """Await the next call to ``method`` (other calls that arrive first are skipped), for at most 10 s."""
        async with asyncio.timeout(CALL_TIMEOUT_SECONDS):
            while True:
                name, args = await self.arrivals.get()
                if name == method:
                    return args

    @property
    def api_url(self) -> str:
        return f"{self.base_url}/api/"

    def response_url(self, name: str = "1") -> str:
        return f"{self.base_url}/respond/{name}"


async def _body(request: web.Request) -> dict[str, Any]:
    if request.method == "GET":  # slack_sdk sends a few read methods (users.info) as GET with a query
        return dict(request.query)
    raw = await request.text()
    if request.content_type == "application/json":
        return json.loads(raw or "{}")
    return dict(parse_qsl(raw))


@asynccontextmanager
async def fake_slack() -> AsyncIterator[FakeSlack]:
    fake = FakeSlack()

    async def api(request: web.Request) -> web.Response:
        method = request.match_info["method"]
        body = await _body(request)
        fake.calls.append((method, body))
        fake.arrivals.put_nowait((method, body))
        if method in fake.replies:
            return web.json_response(fake.replies[method])
        if method == "auth.test":
            return web.json_response(
                {"ok": True, "team": "Acme", "team_id": "T0001", "user": "minds", "user_id": "UBOT", "bot_id": "B1"}
            )
        return web.json_response({"ok": True, "ts": "1733140000.000100", "channel": "C0001"})

    async def respond(request: web.Request) -> web.Response:
        await fake.responses.put(await _body(request))
        return web.Response(text="ok")

    app = web.Application()
    app.router.add_post("/api/{method}", api)
    app.router.add_get("/api/{method}", api)
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
