"""The real Bolt app (every listener registered) wired to fakes: Slack's Web API on 127.0.0.1, Minds over
httpx.MockTransport, an in-memory store. Requests are signed exactly as Slack signs them and go through
Bolt's full middleware chain (signature check, once-per-delivery, listeners, error hook)."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from slack_bolt.async_app import AsyncApp
from slack_bolt.request.async_request import AsyncBoltRequest
from slack_bolt.response import BoltResponse

from minds_bot.app import build_app
from minds_bot.services import Services
from minds_bot.settings import Settings
from minds_bot.store import MemoryStore, SecretBox
from tests.fakes.minds_http import FakeMindsAPI, make_client
from tests.fakes.slack_web import FakeSlack, fake_slack

SIGNING_SECRET = "0123456789abcdef0123456789abcdef"
TEAM = "T0001"
CHANNEL = "C0001"


def signed_headers(body: str, *, content_type: str = "application/x-www-form-urlencoded") -> dict[str, list[str]]:
    ts = str(int(time.time()))
    digest = hmac.new(SIGNING_SECRET.encode(), f"v0:{ts}:{body}".encode(), hashlib.sha256).hexdigest()
    return {
        "x-slack-request-timestamp": [ts],
        "x-slack-signature": [f"v0={digest}"],
        "content-type": [content_type],
    }


@dataclass
class BotHarness:
    app: AsyncApp
    slack: FakeSlack
    services: Services
    minds_api: FakeMindsAPI

    @property
    def store(self) -> MemoryStore:
        return self.services.store  # type: ignore[return-value]

    async def send(self, body: str, *, content_type: str = "application/x-www-form-urlencoded") -> BoltResponse:
        request = AsyncBoltRequest(body=body, headers=signed_headers(body, content_type=content_type))
        return await self.app.async_dispatch(request)

    async def command(self, text: str, *, user: str = "U0001", channel: str = CHANNEL) -> BoltResponse:
        return await self.send(
            urlencode(
                {
                    "command": "/minds",
                    "text": text,
                    "team_id": TEAM,
                    "channel_id": channel,
                    "user_id": user,
                    "response_url": self.slack.response_url(),
                    "trigger_id": "trigger-1",
                }
            )
        )

    async def interaction(self, payload: dict[str, Any]) -> BoltResponse:
        payload = {"team": {"id": TEAM}, "api_app_id": "A1", **payload}
        return await self.send(urlencode({"payload": json.dumps(payload)}))

    async def action(
        self, action_id: str, *, value: str = "", user: str = "U0001", action_ts: str = "1733140001.000001"
    ) -> BoltResponse:
        return await self.interaction(
            {
                "type": "block_actions",
                "user": {"id": user},
                "channel": {"id": CHANNEL},
                "container": {"type": "message", "channel_id": CHANNEL, "message_ts": "1733140000.000100"},
                "trigger_id": "trigger-2",
                "response_url": self.slack.response_url(),
                "actions": [{"action_id": action_id, "block_id": "b", "value": value, "action_ts": action_ts}],
            }
        )

    async def submit_view(
        self, callback_id: str, values: dict[str, dict[str, Any]], *, user: str = "U0001", private_metadata: str = ""
    ) -> BoltResponse:
        return await self.interaction(
            {
                "type": "view_submission",
                "user": {"id": user},
                "trigger_id": "trigger-3",
                "view": {
                    "id": "V1",
                    "type": "modal",
                    "callback_id": callback_id,
                    "private_metadata": private_metadata,
                    "state": {"values": values},
                },
            }
        )

    async def event(self, event: dict[str, Any], *, event_id: str = "Ev1") -> BoltResponse:
        body = {"type": "event_callback", "team_id": TEAM, "api_app_id": "A1", "event_id": event_id, "event": event}
        return await self.send(json.dumps(body), content_type="application/json")


@asynccontextmanager
async def bot_harness(*, wait_for_listeners: bool = False) -> AsyncIterator[BotHarness]:
    """``wait_for_listeners``: each dispatch returns only after its listeners finished (for effects that
    leave no Slack call to wait on, such as a store change after an event)."""
    key = SecretBox.generate_key()
    api = FakeMindsAPI()
    async with fake_slack() as slack:
        settings = Settings(
            _env_file=None,
            slack_bot_token="xoxb-test-token",
            slack_signing_secret=SIGNING_SECRET,
            slack_api_url=slack.api_url,
            minds_bot_secret_key=key,
        )
        services = Services.build(settings, MemoryStore(secrets=SecretBox(key)))
        services.minds.build = lambda api_key, limiter=None: make_client(api)  # type: ignore[method-assign]
        app, _ = build_app(services, process_before_response=wait_for_listeners)
        yield BotHarness(app=app, slack=slack, services=services, minds_api=api)
