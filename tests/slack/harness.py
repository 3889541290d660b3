"""The real Bolt app, driven with signed Slack requests, backed by the fake Minds API and the fake Slack Web API.

``Bot.command`` / ``click`` / ``submit`` / ``options`` sign and dispatch a request exactly as Slack would send it;
the answer is awaited from the fake Slack (response URLs, Web API calls) — never slept for.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import itertools
import json
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlencode

from slack_bolt.async_app import AsyncApp
from slack_bolt.request.async_request import AsyncBoltRequest

from minds_bot.app import build_app
from minds_bot.flows.tracking import RunTracker
from minds_bot.minds import RateLimiter
from minds_bot.services import Services
from minds_bot.settings import Settings
from minds_bot.store import MemoryStore, SecretBox
from tests.fakes.minds_http import FakeMindsAPI, fake_key, make_client
from tests.fakes.slack_web import WAIT_SECONDS, FakeSlack, fake_slack

SIGNING_SECRET = "0f1e2d3c4b5a69788796a5b4c3d2e1f0"
TEAM, CHANNEL, USER = "T0001", "C0001", "U0001"
START = datetime(2026, 12, 7, 9, 0, tzinfo=UTC)


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


class RecordingStore(MemoryStore):
    """The in-memory store, noting when a direct ask is saved so tests can check it happens before the POST."""

    def __init__(self, *args: Any, events: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.events = events

    async def begin_direct_ask(self, ask: Any) -> Any:
        stored = await super().begin_direct_ask(ask)
        self.events.append(f"saved ask {ask.client_request_id}")
        return stored


class WatchedTracker(RunTracker):
    """The real tracker (driven by ``tick()`` in tests) that also hands each newly tracked run to a queue."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.tracked: asyncio.Queue[Any] = asyncio.Queue()

    async def track(self, run: Any) -> None:
        await super().track(run)
        await self.tracked.put(run)


def signed(body: str, content_type: str = "application/x-www-form-urlencoded") -> dict[str, str]:
    ts = str(int(time.time()))
    digest = hmac.new(SIGNING_SECRET.encode(), f"v0:{ts}:{body}".encode(), hashlib.sha256).hexdigest()
    return {"x-slack-request-timestamp": ts, "x-slack-signature": f"v0={digest}", "content-type": content_type}


@dataclass
class Bot:
    app: AsyncApp
    services: Services
    slack: FakeSlack
    minds: FakeMindsAPI
    store: RecordingStore
    clock: Clock
    tracker: WatchedTracker
    events: list[str]
    _seq: itertools.count = field(default_factory=lambda: itertools.count(1))

    async def _send(self, body: str) -> int:
        response = await self.app.async_dispatch(AsyncBoltRequest(body=body, headers=signed(body)))
        return response.status

    async def command(self, text: str, *, user: str = USER, trigger: str | None = None) -> int:
        n = next(self._seq)
        body = urlencode(
            {
                "command": "/minds",
                "text": text,
                "team_id": TEAM,
                "channel_id": CHANNEL,
                "user_id": user,
                "response_url": self.slack.response_url(f"cmd{n}"),
                "trigger_id": trigger or f"trigger.{n}",
            }
        )
        return await self._send(body)

    async def click(
        self, action_id: str, value: str, *, user: str = USER, ephemeral: bool = True, message_ts: str = "1.000"
    ) -> int:
        n = next(self._seq)
        payload = {
            "type": "block_actions",
            "team": {"id": TEAM},
            "user": {"id": user, "team_id": TEAM},
            "channel": {"id": CHANNEL},
            "container": {"type": "message", "message_ts": message_ts, "is_ephemeral": ephemeral},
            "trigger_id": f"click.{n}",
            "response_url": self.slack.response_url(f"act{n}"),
            "actions": [
                {"type": "button", "action_id": action_id, "block_id": "b", "value": value, "action_ts": f"{n}.5"}
            ],
        }
        return await self._send(urlencode({"payload": json.dumps(payload)}))

    async def submit(self, view: dict[str, Any], values: dict[str, Any], *, user: str = USER) -> Any:
        n = next(self._seq)
        payload = {
            "type": "view_submission",
            "team": {"id": TEAM},
            "user": {"id": user, "team_id": TEAM},
            "trigger_id": f"view.{n}",
            "view": {"type": "modal", **view, "id": "V0001", "state": {"values": values}},
            "response_urls": [
                {
                    "block_id": "where",
                    "action_id": "where_select",
                    "channel_id": CHANNEL,
                    "response_url": self.slack.response_url(f"view{n}"),
                }
            ],
        }
        body = urlencode({"payload": json.dumps(payload)})
        return await self.app.async_dispatch(AsyncBoltRequest(body=body, headers=signed(body)))

    async def options(self, action_id: str, value: str) -> Any:
        payload = {
            "type": "block_suggestion",
            "team": {"id": TEAM},
            "user": {"id": USER, "team_id": TEAM},
            "action_id": action_id,
            "block_id": "study",
            "value": value,
            "view": {"type": "modal", "id": "V0001", "callback_id": "minds_pick_study"},
        }
        body = urlencode({"payload": json.dumps(payload)})
        return await self.app.async_dispatch(AsyncBoltRequest(body=body, headers=signed(body)))

    async def reply(self) -> dict[str, Any]:
        """The next message the bot sent through a response URL."""
        answer = await asyncio.wait_for(self.slack.responses.get(), WAIT_SECONDS)
        if isinstance(answer.get("blocks"), str):
            answer["blocks"] = json.loads(answer["blocks"])
        return answer

    async def reply_containing(self, text: str) -> dict[str, Any]:
        """Skip progress notes ("Looking that up…") until a reply contains ``text``."""
        while True:
            answer = await self.reply()
            if text in json.dumps(answer, ensure_ascii=False):
                return answer


def blocks_of(call: dict[str, Any]) -> list[dict[str, Any]]:
    blocks = call.get("blocks") or []
    return json.loads(blocks) if isinstance(blocks, str) else blocks


def buttons(message: dict[str, Any]) -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    for block in blocks_of(message):
        for element in block.get("elements", []) + ([block["accessory"]] if "accessory" in block else []):
            if element.get("type") == "button":
                found[element["action_id"]] = element
    return found


@asynccontextmanager
async def running_bot() -> AsyncIterator[Bot]:
    async with fake_slack() as slack:
        clock = Clock()
        minds = FakeMindsAPI()
        settings = Settings(
            _env_file=None,
            slack_bot_token="xoxb-test-token",
            slack_signing_secret=SIGNING_SECRET,
            slack_api_url=slack.api_url,
            minds_api_key=fake_key(),
            minds_bot_secret_key=SecretBox.generate_key(),
        )
        events: list[str] = []
        store = RecordingStore(secrets=SecretBox(SecretBox.generate_key()), clock=clock, events=events)
        services = Services.build(settings, store, clock=clock)
        # Every workspace's Minds client talks to the fake Minds API (its clock never really sleeps).
        services.minds.build = lambda key, limiter=None: make_client(  # type: ignore[method-assign]
            minds, limiter=RateLimiter(clock=minds.clock, sleep=minds.clock.sleep)
        )
        app, _ = build_app(services)
        tracker = WatchedTracker(store=store, handlers=services.run_handlers, clock=clock)
        services.tracker = tracker
        yield Bot(
            app=app,
            services=services,
            slack=slack,
            minds=minds,
            store=store,
            clock=clock,
            tracker=tracker,
            events=events,
        )
        await services.minds.aclose()
