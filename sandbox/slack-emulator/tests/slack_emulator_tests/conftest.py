"""Fixtures for the emulator tests: a controlled clock, a signature-checking bot stand-in, the emulator."""

from __future__ import annotations

import asyncio
import json
import secrets
import urllib.parse
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from aiohttp import web
from slack_sdk.signature import SignatureVerifier
from slack_sdk.web.async_client import AsyncWebClient

from slack_emulator import Emulator, EmulatorConfig, running_emulator

SIGNING_SECRET = "test-signing-secret-" + "0" * 12
BOT_TOKEN = "xoxb-" + secrets.token_hex(8)  # fake, new each run
START = 1_733_140_000.0  # 2024-12-02, winter: Paris is UTC+1, New York UTC-5
ADA, BEN, CHLOE = "U01ADA0001", "U01BEN0002", "U01CHL0003"
GENERAL, RESEARCH, BRAND = "C01GEN0001", "C01RES0002", "C01BRA0003"


class FakeClock:
    """Time that moves only when a test says so."""

    def __init__(self, start: float = START) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@dataclass
class Received:
    """One request the bot stand-in got, decoded the way Bolt decodes it."""

    signature_valid: bool
    content_type: str
    fields: dict[str, str]
    raw: bytes = b""

    @property
    def payload(self) -> dict[str, Any]:
        return json.loads(self.fields["payload"])


Reply = Callable[[Received], Awaitable[web.StreamResponse]]


async def empty_ack(received: Received) -> web.StreamResponse:
    return web.Response(status=200)


@dataclass
class BotStandIn:
    """A tiny bot endpoint: checks Slack's signature, records each request, answers with ``reply``."""

    verifier: SignatureVerifier
    url: str = ""
    reply: Reply = empty_ack
    received: asyncio.Queue[Received] = field(default_factory=asyncio.Queue)

    async def handle(self, request: web.Request) -> web.StreamResponse:
        raw = await request.read()
        valid = self.verifier.is_valid_request(raw, dict(request.headers))
        fields = dict(urllib.parse.parse_qsl(raw.decode()))
        received = Received(signature_valid=valid, content_type=request.content_type, fields=fields, raw=raw)
        await self.received.put(received)
        if not valid:
            return web.Response(status=401)
        return await self.reply(received)

    async def next(self) -> Received:
        async with asyncio.timeout(5):
            return await self.received.get()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def bot(clock: FakeClock) -> AsyncIterator[BotStandIn]:
    stand_in = BotStandIn(verifier=SignatureVerifier(SIGNING_SECRET, clock=_VerifierClock(clock)))
    app = web.Application()
    app.router.add_post("/slack/events", stand_in.handle)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    stand_in.url = f"http://127.0.0.1:{runner.addresses[0][1]}/slack/events"
    yield stand_in
    await runner.cleanup()


class _VerifierClock:
    def __init__(self, clock: FakeClock) -> None:
        self._clock = clock

    def now(self) -> float:
        return self._clock()


def make_config(bot: BotStandIn, clock: FakeClock, **overrides: Any) -> EmulatorConfig:
    settings: dict[str, Any] = {
        "port": 0,
        "signing_secret": SIGNING_SECRET,
        "bot_token": BOT_TOKEN,
        "bot_events_url": bot.url,
        "clock": clock,
    }
    return EmulatorConfig(**(settings | overrides))


@pytest.fixture
async def emu(bot: BotStandIn, clock: FakeClock) -> AsyncIterator[Emulator]:
    async with running_emulator(make_config(bot, clock)) as emulator:
        yield emulator


@pytest.fixture
async def client(emu: Emulator) -> AsyncIterator[AsyncWebClient]:
    web_client = AsyncWebClient(token=BOT_TOKEN, base_url=emu.api_url)
    yield web_client


def section(text: str, **extra: Any) -> dict[str, Any]:
    return {"type": "section", "text": {"type": "mrkdwn", "text": text}, **extra}


def button(text: str, action_id: str, value: str = "v", **extra: Any) -> dict[str, Any]:
    return {
        "type": "button",
        "text": {"type": "plain_text", "text": text},
        "action_id": action_id,
        "value": value,
        **extra,
    }


def json_reply(body: dict[str, Any]) -> Reply:
    async def reply(received: Received) -> web.StreamResponse:
        return web.json_response(body)

    return reply
