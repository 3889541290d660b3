"""The one in-process way to drive the bot in tests: the real Bolt app (every listener registered) over fakes —
Slack's Web API on 127.0.0.1 (tests/fakes/slack_web.py), Minds over httpx.MockTransport
(tests/fakes/minds_http.py), an in-memory store on a clock the test moves, and the real run tracker that the
test ticks by hand. Requests are signed exactly as Slack signs them and go through the HTTP gate and Bolt's full
middleware chain (signature check, shape, once-per-delivery, listeners, error hook). Answers are awaited from the
fake Slack, never slept for. Multi-process and crash scenarios live in tests/durability/ (they reuse
``bot_settings`` and ``use_fake_minds``); request bodies and signatures are tests/fakes/slack_requests.py's."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
from slack_bolt.async_app import AsyncApp
from slack_bolt.response import BoltResponse

from minds_bot.app import build_app
from minds_bot.composition import compose
from minds_bot.flows.tracking import MAX_INTERVAL_SECONDS, RunTracker
from minds_bot.minds import RateLimiter
from minds_bot.services import Services
from minds_bot.settings import Settings
from minds_bot.slack.gate import Refusal, admit
from minds_bot.store import MemoryStore, RunKind, SecretBox, TrackedRun
from tests.fakes.minds_http import FakeMindsAPI, envelope, fake_key, make_client, raw
from tests.fakes.slack_requests import (
    FORM,
    JSON,
    button_click,
    command_body,
    event_body,
    interaction_body,
    signed_headers,
)
from tests.fakes.slack_web import WAIT_SECONDS, FakeSlack, fake_slack
from tests.slack.plan_samples import METHODS

SIGNING_SECRET = "0123456789abcdef0123456789abcdef"
TEAM, CHANNEL, USER = "T0001", "C0001", "U0001"
START = datetime(2026, 12, 7, 9, 0, tzinfo=UTC)
MINDS_KEY = fake_key()


async def dispatch(app: AsyncApp, body: str, headers: dict[str, str]) -> BoltResponse:
    """Through the same gate as ``POST /slack/events`` (signature, body, shape), then into Bolt."""
    admitted = admit(secret=SIGNING_SECRET, body=body.encode(), headers=headers, now=time.time())
    if isinstance(admitted, Refusal):
        return BoltResponse(status=admitted.status, body="")
    return await app.async_dispatch(admitted)


class Clock:
    """The bot's time, moved only by the test."""

    def __init__(self, start: datetime = START) -> None:
        self.now = start

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
    """The real tracker (driven by ``tick()`` in tests); ``tracked`` lets a test await the moment a listener
    handed a run over."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.tracked: asyncio.Queue[TrackedRun] = asyncio.Queue()

    async def track(self, run: TrackedRun) -> None:
        await super().track(run)
        self.tracked.put_nowait(run)

    async def next_tracked(self, kind: RunKind) -> TrackedRun:
        while True:
            run = await asyncio.wait_for(self.tracked.get(), WAIT_SECONDS)
            if run.kind == kind:
                return run


@dataclass
class BotHarness:
    """One running bot: ``command``/``click``/``submit``/``options``/``event`` send what Slack would send and
    return Bolt's acknowledgement; ``reply``/``refusal`` await what the bot answered; ``tick`` moves the clock
    past the longest poll interval and gives the tracker a pass."""

    app: AsyncApp
    services: Services
    slack: FakeSlack
    minds_api: FakeMindsAPI
    store: RecordingStore
    clock: Clock
    tracker: WatchedTracker
    events: list[str]
    user: str = USER  # who sends commands, clicks and submissions unless a call names someone else
    _seq: itertools.count = field(default_factory=lambda: itertools.count(1))

    def acts(self, user: str | None) -> str:
        """The person acting (``user``, else the harness's): a member of every channel the test did not list."""
        person = user or self.user
        self.slack.acting.add(person)
        return person

    async def send(self, body: str, *, content_type: str = FORM, retry: int | None = None) -> BoltResponse:
        headers = signed_headers(body, secret=SIGNING_SECRET, content_type=content_type, retry=retry)
        return await dispatch(self.app, body, headers)

    async def command(
        self, text: str, *, user: str | None = None, channel: str = CHANNEL, trigger: str | None = None
    ) -> BoltResponse:
        n = next(self._seq)
        body = command_body(
            text=text,
            team=TEAM,
            channel=channel,
            user=self.acts(user),
            response_url=self.slack.response_url(f"cmd{n}"),
            trigger=trigger or f"trigger.{n}",
        )
        return await self.send(body)

    async def interaction(self, payload: dict[str, Any]) -> BoltResponse:
        payload = {"team": {"id": TEAM}, "api_app_id": "A1", **payload}
        return await self.send(interaction_body(payload))

    async def click(
        self,
        action_id: str,
        value: str | None = None,
        *,
        user: str | None = None,
        message_ts: str = "1.000",
        ephemeral: bool | None = None,
        blocks: list[dict[str, Any]] | None = None,
        state: dict[str, Any] | None = None,
        action_ts: str | None = None,
        channel: str = CHANNEL,
    ) -> BoltResponse:
        """A button press on a message in ``channel``; with ``blocks`` the payload carries the message as Slack
        shows it."""
        n = next(self._seq)
        payload = button_click(
            team=TEAM,
            channel=channel,
            user=self.acts(user),
            action_id=action_id,
            value=value,
            action_ts=action_ts or f"1733150000.{n:06d}",
            message_ts=message_ts,
            response_url=self.slack.response_url(f"act{n}"),
            trigger=f"click.{n}",
            block_id="b" if blocks is None else _block_of(blocks, action_id),
            blocks=blocks,
            ephemeral=ephemeral,
            state=state,
        )
        return await self.interaction(payload)

    async def submit(self, view: dict[str, Any], values: dict[str, Any], *, user: str | None = None) -> BoltResponse:
        """A modal submission; ``view`` holds at least its ``callback_id``."""
        n = next(self._seq)
        payload = {
            "type": "view_submission",
            "user": {"id": self.acts(user), "team_id": TEAM},
            "trigger_id": f"view.{n}",
            "view": {"type": "modal", "private_metadata": "", **view, "id": "V0001", "state": {"values": values}},
            "response_urls": [
                {
                    "block_id": "where",
                    "action_id": "where_select",
                    "channel_id": CHANNEL,
                    "response_url": self.slack.response_url(f"view{n}"),
                }
            ],
        }
        return await self.interaction(payload)

    async def options(self, action_id: str, value: str, *, callback_id: str = "minds_pick_study") -> BoltResponse:
        payload = {
            "type": "block_suggestion",
            "user": {"id": self.user, "team_id": TEAM},
            "action_id": action_id,
            "block_id": "study",
            "value": value,
            "view": {"type": "modal", "id": "V0001", "callback_id": callback_id},
        }
        return await self.interaction(payload)

    async def event(self, event: dict[str, Any], *, event_id: str = "Ev1", retry: int | None = None) -> BoltResponse:
        return await self.send(event_body(event, team=TEAM, event_id=event_id), content_type=JSON, retry=retry)

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

    async def refusal(self) -> str:
        """The next response-URL answer, which must be an ephemeral note; its text."""
        answer = await asyncio.wait_for(self.slack.responses.get(), WAIT_SECONDS)
        assert answer["response_type"] == "ephemeral"
        return answer["text"]

    async def tick(self, passes: int = 1) -> None:
        """Let time pass beyond the longest poll interval, then give the tracker a pass; ``passes`` times."""
        for _ in range(passes):
            self.clock.advance(MAX_INTERVAL_SECONDS * 1.5)
            await self.tracker.tick()
            await self.services.followups.settled()  # charts and reports after a result
            await self.services.slack.pacer.settled()  # progress edits kept back for Slack's pace


def _block_of(blocks: list[dict[str, Any]], action_id: str) -> str:
    for block in blocks:
        for element in block.get("elements") or []:
            if element.get("action_id") == action_id:
                return str(block.get("block_id"))
    return "unknown"


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


def bot_settings(
    *,
    slack: FakeSlack,
    secret_key: str,
    minds_key: str | None,
    minds_api_url: str | None = None,
    db: str | None = None,
) -> Settings:
    """Settings for a bot whose Slack is ``slack`` and whose requests are signed with ``SIGNING_SECRET``;
    ``db`` is the SQLite file of an HTTP-mode bot."""
    extra: dict[str, str] = {"minds_api_url": minds_api_url} if minds_api_url else {}
    if db is not None:
        extra["minds_bot_db"] = db
    return Settings(
        slack_bot_token="xoxb-test-token",
        slack_signing_secret=SIGNING_SECRET,
        slack_api_url=slack.api_url,
        minds_api_key=minds_key,
        minds_bot_secret_key=secret_key,
        **extra,
    )


def use_fake_minds(
    services: Services,
    minds_api: FakeMindsAPI,
    *,
    download: Callable[[httpx.Request], httpx.Response] | None = None,
) -> None:
    """Every workspace's Minds client talks to ``minds_api`` (its clock never really sleeps)."""
    services.minds.build = lambda api_key, limiter=None: make_client(  # type: ignore[method-assign]
        minds_api, download=download, limiter=RateLimiter(clock=minds_api.clock, sleep=minds_api.clock.sleep)
    )


@asynccontextmanager
async def bot_harness(
    *,
    minds_key: str | None = MINDS_KEY,
    user: str = USER,
    start: datetime = START,
    wait_for_listeners: bool = False,
    unique_ts: bool = False,
    download: Callable[[httpx.Request], httpx.Response] | None = None,
) -> AsyncIterator[BotHarness]:
    """``minds_key``: the install-wide Minds key (None: workspaces must ``/minds connect`` first).
    ``user``: who acts unless a call names someone. ``start``: the clock's first reading.
    ``wait_for_listeners``: each dispatch returns only after its listeners finished (for effects that leave no
    Slack call to wait on, such as a store change after an event). ``unique_ts``: the fake Slack gives every
    posted message its own ts. ``download``: serves the signed report URLs Minds hands out."""
    async with fake_slack(unique_ts=unique_ts) as slack:
        clock = Clock(start)
        minds_api = FakeMindsAPI()
        minds_api.on("GET", "/research-methods", raw({"data": METHODS}))  # the account's method catalogue
        minds_api.on("GET", "/model-connections", envelope(404, code="MODEL_CONNECTIONS_DISABLED"))  # none here
        secret_key = SecretBox.generate_key()
        settings = bot_settings(slack=slack, secret_key=secret_key, minds_key=minds_key)
        events: list[str] = []
        store = RecordingStore(secrets=SecretBox(secret_key), clock=clock, events=events)
        services = Services.build(settings, store, clock=clock)
        use_fake_minds(services, minds_api, download=download)
        tracker = WatchedTracker(
            store=store,
            handlers=services.run_handlers,  # filled by the composition
            clock=clock,
            rng=random.Random(7),
            language=services.languages.of_workspace,
            on_change=services.home_changed,
        )
        compose(services, tracker=tracker)
        app, _ = build_app(services, process_before_response=wait_for_listeners)
        yield BotHarness(
            app=app,
            services=services,
            slack=slack,
            minds_api=minds_api,
            store=store,
            clock=clock,
            tracker=tracker,
            events=events,
            user=user,
        )
        await services.minds.aclose()
