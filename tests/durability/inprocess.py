"""The real Bolt app and services on a SQLite file, dispatched in process with Slack's signatures: several
"processes" (app + store) can share one file. Slack is tests/fakes/slack_web.py, Minds the scripted fake or
the sandbox."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from slack_bolt.async_app import AsyncApp
from slack_bolt.response import BoltResponse

from minds_bot.app import build_app
from minds_bot.composition import compose
from minds_bot.flows.tracking import RunTracker
from minds_bot.services import Services
from minds_bot.store import PlanPost, PlanState, SecretBox, SqliteStore
from tests.fakes.bot import SIGNING_SECRET, Clock, bot_settings, dispatch, use_fake_minds
from tests.fakes.minds_http import FakeMindsAPI
from tests.fakes.slack_requests import (
    FORM,
    JSON,
    button_click,
    command_body,
    event_body,
    interaction_body,
    signed_headers,
)
from tests.fakes.slack_web import FakeSlack


@dataclass
class Process:
    """One bot process: its own store connection on the shared file, its own Bolt app."""

    app: AsyncApp
    services: Services

    @property
    def store(self) -> SqliteStore:
        return self.services.store  # type: ignore[return-value]

    async def send(self, body: str, *, content_type: str = FORM, retry: int | None = None) -> BoltResponse:
        headers = signed_headers(body, secret=SIGNING_SECRET, content_type=content_type, retry=retry)
        return await dispatch(self.app, body, headers)

    async def command(
        self, text: str, *, slack: FakeSlack, team: str, channel: str, user: str, trigger: str = "1.2.3"
    ) -> BoltResponse:
        body = command_body(
            text=text, team=team, channel=channel, user=user, response_url=slack.response_url(), trigger=trigger
        )
        return await self.send(body)

    async def interaction(self, payload: dict[str, Any]) -> BoltResponse:
        return await self.send(interaction_body(payload))

    async def event(self, event: dict[str, Any], *, team: str, event_id: str, retry: int | None = None) -> BoltResponse:
        return await self.send(event_body(event, team=team, event_id=event_id), content_type=JSON, retry=retry)


def click_payload(
    *,
    slack: FakeSlack,
    team: str,
    channel: str,
    message_ts: str,
    user: str,
    action_id: str,
    value: dict[str, Any] | str,
    action_ts: str,
) -> dict[str, Any]:
    """A signed-ready ``block_actions`` payload for a button on a channel message."""
    return button_click(
        team=team,
        channel=channel,
        user=user,
        action_id=action_id,
        value=value if isinstance(value, str) else json.dumps(value),
        action_ts=action_ts,
        message_ts=message_ts,
        response_url=slack.response_url(),
        trigger=f"trigger-{action_ts}",
        blocks=[],
    )


async def open_process(
    path: Path,
    *,
    slack: FakeSlack,
    secret_key: str,
    clock: Clock,
    minds_api_url: str | None = None,
    minds_key: str | None = None,
    api: FakeMindsAPI | None = None,
) -> Process:
    """A bot process on ``path``. With ``api`` every Minds client is the scripted fake; otherwise the real
    client talks to ``minds_api_url``."""
    settings = bot_settings(slack=slack, secret_key=secret_key, minds_key=minds_key, minds_api_url=minds_api_url)
    store = await SqliteStore.open(str(path), secrets=SecretBox(secret_key), clock=clock)
    services = Services.build(settings, store, clock=clock)
    if api is not None:
        use_fake_minds(services, api)
    compose(
        services, tracker=RunTracker(store=store, handlers=services.run_handlers, clock=clock, rng=random.Random(7))
    )
    app, _ = build_app(services, process_before_response=True)
    return Process(app=app, services=services)


async def close_process(process: Process) -> None:
    await process.services.minds.aclose()
    await process.store.close()


def drain(slack: FakeSlack) -> list[dict[str, Any]]:
    """Every response_url post so far (dispatches ran to completion, so nothing is still on its way)."""
    answers = []
    while not slack.responses.empty():
        answers.append(slack.responses.get_nowait())
    return answers


def open_plan_post(*, team_id: str, channel_id: str, message_ts: str, study_id: str, requester_id: str) -> PlanPost:
    """A plan at revision 1, open for answers and approval, as the bot stores it once Minds prepared it."""
    return PlanPost(
        team_id=team_id,
        channel_id=channel_id,
        message_ts=message_ts,
        study_id=study_id,
        study_name="Reusable cups",
        draft_plan_id="draft-1",
        revision=1,
        requester_id=requester_id,
        state=PlanState.OPEN,
        preview_idempotency_key="preview-key-1",
    )
