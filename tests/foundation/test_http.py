"""HTTP mode: Slack's requests are served at POST /slack/events only when signed; /healthz tells readiness."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from minds_bot import app as app_module
from minds_bot.app import HttpServer, start_http
from minds_bot.store import SecretBox
from tests.fakes.bot import SIGNING_SECRET, bot_settings
from tests.fakes.slack_requests import command_body, signed_headers
from tests.fakes.slack_web import FakeSlack

RESPONSE_TIMEOUT = 10.0


@pytest.fixture
async def server(slack: FakeSlack, tmp_path: Path) -> AsyncIterator[HttpServer]:
    settings = bot_settings(
        slack=slack, secret_key=SecretBox.generate_key(), minds_key=None, db=str(tmp_path / "bot.sqlite3")
    )
    started = await start_http(settings, host="127.0.0.1", port=0)
    yield started
    await started.stop()


def slash_body(slack: FakeSlack, text: str) -> str:
    return command_body(
        text=text, team="T0001", channel="C0001", user="U0001", response_url=slack.response_url(), trigger="1.2.3"
    )


async def test_healthz_is_ok_once_the_bot_serves_and_says_when_it_is_warm(server: HttpServer) -> None:
    async with httpx.AsyncClient(base_url=server.base_url) as http:
        first = await http.get("/healthz")
        await server.bot.background_started.wait()
        warm = await http.get("/healthz")
    assert first.status_code == 200 and first.json()["status"] == "ok"
    assert warm.status_code == 200 and warm.json() == {"status": "ok", "warm": True}
    assert server.bot.surface is not None and [c.command for c in server.bot.surface.commands] == ["/minds"]


async def test_a_bot_that_cannot_load_its_listeners_is_not_healthy(
    slack: FakeSlack, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_: object) -> None:
        raise ImportError("a listener module is missing")

    monkeypatch.setattr(app_module, "register_listeners", broken)
    settings = bot_settings(slack=slack, secret_key=SecretBox.generate_key(), minds_key=None, db=str(tmp_path / "b"))
    server = await start_http(settings, host="127.0.0.1", port=0)
    try:
        with pytest.raises(RuntimeError, match="could not register its listeners"):
            await server.bot.listeners_registered()
        async with httpx.AsyncClient(base_url=server.base_url) as http:
            reply = await http.get("/healthz")
        assert reply.status_code == 503 and reply.json() == {"status": "unavailable"}
    finally:
        await server.stop()


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"X-Slack-Signature": "v0=" + "0" * 64, "X-Slack-Request-Timestamp": str(int(time.time()))},
        "wrong-secret",
        "stale",
    ],
    ids=["unsigned", "forged", "wrong-secret", "replayed-after-5-minutes"],
)
async def test_requests_without_a_valid_signature_get_401(
    server: HttpServer, slack: FakeSlack, headers: dict[str, str] | str
) -> None:
    body = slash_body(slack, "help")
    if headers == "wrong-secret":
        headers = signed_headers(body, secret="not-the-signing-secret")
    elif headers == "stale":
        headers = signed_headers(body, secret=SIGNING_SECRET, timestamp=int(time.time()) - 600)
    async with httpx.AsyncClient(base_url=server.base_url) as http:
        reply = await http.post("/slack/events", content=body, headers=headers)
    assert reply.status_code == 401
    assert slack.responses.empty() and slack.calls == []


async def test_a_signed_slash_command_is_acknowledged_and_answered(server: HttpServer, slack: FakeSlack) -> None:
    body = slash_body(slack, "help")
    async with httpx.AsyncClient(base_url=server.base_url) as http:
        reply = await http.post("/slack/events", content=body, headers=signed_headers(body, secret=SIGNING_SECRET))
    assert reply.status_code == 200
    answer = await asyncio.wait_for(slack.responses.get(), RESPONSE_TIMEOUT)
    assert answer["response_type"] == "ephemeral"
    assert "/minds plan" in str(answer["blocks"])


async def test_healthz_says_unavailable_while_the_bot_is_not_ready(server: HttpServer) -> None:
    server.bot.ready = False  # as while its store opens, or once it stops
    async with httpx.AsyncClient(base_url=server.base_url) as http:
        reply = await http.get("/healthz")
    assert reply.status_code == 503 and reply.json() == {"status": "unavailable"}
