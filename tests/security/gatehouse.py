"""The real bot over real HTTP, watched the way an attacker's target is watched: the real Bolt app behind the
real aiohttp routes on 127.0.0.1, a fake Slack Web API, the scripted fake Minds, an in-memory store that
records every call, a recorder of every outbound HTTP request the bot's aiohttp clients make (Slack's Web API
and ``response_url`` posts), and an "evil" server on another port that plays the attacker's URL."""

from __future__ import annotations

import hashlib
import hmac
import inspect
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import httpx
from aiohttp import web

from minds_bot.app import build_app, build_web_app
from minds_bot.log import Redactor, TextFormatter
from minds_bot.services import Services
from minds_bot.store import MemoryStore, SecretBox
from tests.fakes.bot import SIGNING_SECRET, Clock, bot_settings, use_fake_minds
from tests.fakes.minds_http import FakeMindsAPI
from tests.fakes.slack_requests import FORM, signed_headers
from tests.fakes.slack_web import FakeSlack, fake_slack

TEAM, CHANNEL, USER = "T0001", "C0001", "U0001"


class WatchedStore(MemoryStore):
    """The in-memory store, noting the name of every public method called on it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.calls: list[str] = []

    def __getattribute__(self, name: str) -> Any:
        attr = super().__getattribute__(name)
        if name.startswith("_") or not inspect.iscoroutinefunction(attr):
            return attr
        calls = super().__getattribute__("calls")

        async def watched(*args: Any, **kwargs: Any) -> Any:
            calls.append(name)
            return await attr(*args, **kwargs)

        return watched


@dataclass
class Evil:
    """A server the attacker controls: every request it receives is kept."""

    base_url: str = ""
    received: list[str] = field(default_factory=list)

    def url(self, path: str = "hook") -> str:
        return f"{self.base_url}/{path}"


@dataclass
class Gatehouse:
    base_url: str
    slack: FakeSlack
    evil: Evil
    store: WatchedStore
    minds_api: FakeMindsAPI
    services: Services
    outbound: list[str]  # every URL the bot's aiohttp clients requested

    async def post(self, body: bytes | str, headers: dict[str, Any]) -> httpx.Response:
        async with httpx.AsyncClient(base_url=self.base_url, timeout=10) as http:
            return await http.post("/slack/events", content=body, headers=headers)

    async def send(self, body: str, *, content_type: str = FORM) -> httpx.Response:
        """``body`` signed as Slack signs it."""
        return await self.post(body, signed_headers(body, secret=SIGNING_SECRET, content_type=content_type))

    def non_slack_calls(self) -> list[str]:
        return [url for url in self.outbound if not url.startswith(self.slack.base_url)]


def sign(body: bytes, *, content_type: str = FORM, timestamp: int | None = None) -> dict[str, str]:
    """Slack's headers for raw bytes (the helper in tests/fakes signs text)."""
    ts = str(int(time.time()) if timestamp is None else timestamp)
    digest = hmac.new(SIGNING_SECRET.encode(), f"v0:{ts}:".encode() + body, hashlib.sha256).hexdigest()
    return {"x-slack-request-timestamp": ts, "x-slack-signature": f"v0={digest}", "content-type": content_type}


def shown(record: logging.LogRecord) -> str:
    """A log record as the operator's log file shows it (message, context fields, traceback)."""
    return TextFormatter(Redactor()).format(record)


def bot_records(records: list[logging.LogRecord]) -> list[logging.LogRecord]:
    """What the bot logged: without the test client's own httpx lines about its posts to the bot."""
    return [r for r in records if not (r.name == "httpx" and "/slack/events" in r.getMessage())]


def warnings_and_worse(records: list[logging.LogRecord]) -> list[logging.LogRecord]:
    return [r for r in records if r.levelno >= logging.WARNING]


def tracebacks(records: list[logging.LogRecord]) -> list[logging.LogRecord]:
    return [r for r in records if r.exc_info or r.levelno >= logging.ERROR or "Traceback" in r.getMessage()]


@asynccontextmanager
async def _evil_server() -> AsyncIterator[Evil]:
    evil = Evil()

    async def anything(request: web.Request) -> web.Response:
        evil.received.append(f"{request.method} {request.path}")
        return web.Response(text="ok")

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", anything)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    evil.base_url = f"http://127.0.0.1:{runner.addresses[0][1]}"
    try:
        yield evil
    finally:
        await runner.cleanup()


@asynccontextmanager
async def _recording_outbound() -> AsyncIterator[list[str]]:
    """Every request made through an aiohttp ``ClientSession`` (slack_sdk and Bolt's ``respond`` use it)."""
    seen: list[str] = []
    original: Callable[..., Awaitable[Any]] = aiohttp.ClientSession._request

    async def recording(self: aiohttp.ClientSession, method: str, url: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append(str(url))
        return await original(self, method, url, *args, **kwargs)

    aiohttp.ClientSession._request = recording  # type: ignore[method-assign]
    try:
        yield seen
    finally:
        aiohttp.ClientSession._request = original  # type: ignore[method-assign]


@asynccontextmanager
async def gatehouse(
    *,
    process_before_response: bool = True,
    minds_key: str | None = None,
    minds_api: FakeMindsAPI | None = None,
    clock: Callable[[], float] = time.time,
) -> AsyncIterator[Gatehouse]:
    """A bot serving ``POST /slack/events`` on 127.0.0.1. ``process_before_response``: each HTTP answer waits
    for the listeners (a listener failing before its ack then shows as a 5xx, and nothing is still running
    afterwards); False is production's ack-first mode. ``clock``: the server's time (signatures, refusal
    minutes)."""
    async with fake_slack() as slack, _evil_server() as evil, _recording_outbound() as outbound:
        secret_key = SecretBox.generate_key()
        settings = bot_settings(slack=slack, secret_key=secret_key, minds_key=minds_key)
        store_clock = Clock()
        store = WatchedStore(secrets=SecretBox(secret_key), clock=store_clock)
        services = Services.build(settings, store, clock=store_clock)
        minds_api = minds_api or FakeMindsAPI()
        use_fake_minds(services, minds_api)
        app, _ = build_app(services, process_before_response=process_before_response)
        web_app = build_web_app(app, ready=lambda: True, signing_secret=SIGNING_SECRET, clock=clock)
        runner = web.AppRunner(web_app, access_log=None)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", 0).start()
        try:
            yield Gatehouse(
                base_url=f"http://127.0.0.1:{runner.addresses[0][1]}",
                slack=slack,
                evil=evil,
                store=store,
                minds_api=minds_api,
                services=services,
                outbound=outbound,
            )
        finally:
            await runner.cleanup()
            await services.minds.aclose()
