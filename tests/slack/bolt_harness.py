"""The real Bolt app wired to fakes: signed Slack requests in, a scripted Minds API and a fake Slack Web API
behind, a controlled clock, and a run tracker the test ticks by hand."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import itertools
import json
import random
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlencode

from slack_bolt.async_app import AsyncApp
from slack_bolt.request.async_request import AsyncBoltRequest

from minds_bot.app import build_app
from minds_bot.flows.tracking import MAX_INTERVAL_SECONDS, RunTracker
from minds_bot.minds import MindsClient
from minds_bot.services import Services
from minds_bot.settings import Settings
from minds_bot.store import MemoryStore, RunKind, SecretBox, TrackedRun
from tests.fakes.minds_http import FakeMindsAPI, fake_key, make_client
from tests.fakes.slack_web import FakeSlack

SIGNING_SECRET = "e3b0c44298fc1c149afbf4c8996fb924"
TEAM = "T0001"
CHANNEL = "C0001"
REQUESTER = "UREQ"
STUDY_ID = "11111111-1111-4111-8111-111111111111"
WAIT = 10.0


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 12, 7, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


class SignallingTracker(RunTracker):
    """The real tracker; ``tracked`` lets a test await the moment a listener handed a run over."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.tracked: asyncio.Queue[TrackedRun] = asyncio.Queue()

    async def track(self, run: TrackedRun) -> None:
        await super().track(run)
        self.tracked.put_nowait(run)

    async def next_tracked(self, kind: RunKind) -> TrackedRun:
        while True:
            run = await asyncio.wait_for(self.tracked.get(), WAIT)
            if run.kind == kind:
                return run


@dataclass
class Harness:
    app: AsyncApp
    services: Services
    tracker: SignallingTracker
    clock: Clock
    api: FakeMindsAPI
    slack: FakeSlack
    minds: MindsClient
    _ts: itertools.count = field(default_factory=lambda: itertools.count(1))

    @property
    def store(self) -> MemoryStore:
        return self.services.store  # type: ignore[return-value]

    async def dispatch(self, body: str) -> int:
        headers = _signed(body)
        response = await self.app.async_dispatch(AsyncBoltRequest(body=body, headers=headers))
        return response.status

    async def command(self, text: str, *, user: str = REQUESTER) -> int:
        body = urlencode(
            {
                "command": "/minds",
                "text": text,
                "team_id": TEAM,
                "channel_id": CHANNEL,
                "user_id": user,
                "response_url": self.slack.response_url(),
                "trigger_id": "1.2.3",
            }
        )
        return await self.dispatch(body)

    async def click(
        self,
        *,
        message_ts: str,
        blocks: list[dict[str, Any]],
        action_id: str,
        value: str | None = None,
        user: str = REQUESTER,
        action_ts: str | None = None,
        state: dict[str, Any] | None = None,
    ) -> int:
        action = {"action_id": action_id, "block_id": _block_of(blocks, action_id), "type": "button"}
        if value is not None:
            action["value"] = value
        action["action_ts"] = action_ts or f"1733150000.{next(self._ts):06d}"
        payload = {
            "type": "block_actions",
            "api_app_id": "A1",
            "token": "legacy",
            "team": {"id": TEAM, "domain": "acme"},
            "user": {"id": user, "team_id": TEAM},
            "channel": {"id": CHANNEL, "name": "research"},
            "container": {"type": "message", "message_ts": message_ts, "channel_id": CHANNEL},
            "message": {"type": "message", "ts": message_ts, "blocks": blocks, "text": "plan"},
            "trigger_id": "1.2.3",
            "response_url": self.slack.response_url(),
            "state": {"values": state or {}},
            "actions": [action],
        }
        return await self.dispatch(urlencode({"payload": json.dumps(payload)}))

    async def tick(self, passes: int = 1) -> None:
        """Let time pass beyond the longest poll interval, then give the tracker a pass; ``passes`` times."""
        for _ in range(passes):
            self.clock.advance(MAX_INTERVAL_SECONDS * 1.5)
            await self.tracker.tick()

    async def refusal(self) -> str:
        answer = await asyncio.wait_for(self.slack.responses.get(), WAIT)
        assert answer["response_type"] == "ephemeral"
        return answer["text"]


def _block_of(blocks: list[dict[str, Any]], action_id: str) -> str:
    for block in blocks:
        for element in block.get("elements") or []:
            if element.get("action_id") == action_id:
                return str(block.get("block_id"))
    return "unknown"


def _signed(body: str) -> dict[str, str]:
    ts = str(int(time.time()))
    digest = hmac.new(SIGNING_SECRET.encode(), f"v0:{ts}:{body}".encode(), hashlib.sha256).hexdigest()
    return {
        "x-slack-request-timestamp": ts,
        "x-slack-signature": f"v0={digest}",
        "content-type": "application/x-www-form-urlencoded",
    }


def build_harness(slack: FakeSlack, *, download: Any = None) -> Harness:
    clock = Clock()
    settings = Settings(
        _env_file=None,
        slack_bot_token="xoxb-test-token",
        slack_signing_secret=SIGNING_SECRET,
        slack_api_url=slack.api_url,
        minds_api_key=fake_key(),
        minds_bot_secret_key=SecretBox.generate_key(),
    )
    store = MemoryStore(secrets=SecretBox(SecretBox.generate_key()), clock=clock)
    services = Services.build(settings, store, clock=clock)
    api = FakeMindsAPI()
    minds = make_client(api, download=download)
    services.minds.build = lambda api_key, limiter=None: minds  # type: ignore[method-assign]
    app, _ = build_app(services)
    tracker = SignallingTracker(store=store, handlers=services.run_handlers, clock=clock, rng=random.Random(7))
    services.tracker = tracker
    return Harness(app=app, services=services, tracker=tracker, clock=clock, api=api, slack=slack, minds=minds)
