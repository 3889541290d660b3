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


@dataclass
class FakeSlack:
    base_url: str = ""
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    responses: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)
    users: dict[str, dict[str, Any]] = field(default_factory=dict)  # users.info answers by user id
    fail_auth: bool = False  # auth.test answers invalid_auth
    _called: asyncio.Condition = field(default_factory=asyncio.Condition)

    async def record(self, method: str, body: dict[str, Any]) -> None:
        async with self._called:
            self.calls.append((method, body))
            self._called.notify_all()

    async def wait_for(self, method: str, *, count: int = 1) -> list[dict[str, Any]]:
        """Wait (up to WAIT_SECONDS) until ``method`` has been called ``count`` times; returns those calls' bodies."""

        def matching() -> list[dict[str, Any]]:
            return [body for name, body in self.calls if name == method]

        async with asyncio.timeout(WAIT_SECONDS), self._called:
            await self._called.wait_for(lambda: len(matching()) >= count)
            return matching()

    @property
    def api_url(self) -> str:
        return f"{self.base_url}/api/"

    def response_url(self, name: str = "1") -> str:
        return f"{self.base_url}/respond/{name}"


WAIT_SECONDS = 10.0
# What oauth.v2.access answers for a bot install into team T0001 by user U0001.
OAUTH_ACCESS = {
    "ok": True,
    "app_id": "A0001",
    "authed_user": {"id": "U0001"},
    "scope": "commands,chat:write",
    "token_type": "bot",
    "access_token": "xoxb-installed-bot-token",
    "bot_user_id": "UBOT",
    "team": {"id": "T0001", "name": "Acme"},
    "enterprise": None,
    "is_enterprise_install": False,
}


async def _body(request: web.Request) -> dict[str, Any]:
    if request.method == "GET":
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
        await fake.record(method, body)
        if method == "users.info":
            user_id = body.get("user", "")
            return web.json_response({"ok": True, "user": {"id": user_id, **fake.users.get(user_id, {})}})
        if method == "oauth.v2.access":
            return web.json_response(OAUTH_ACCESS)
        if method == "auth.test" and fake.fail_auth:
            return web.json_response({"ok": False, "error": "invalid_auth"})
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
