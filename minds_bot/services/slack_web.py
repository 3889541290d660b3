"""The bot's Slack Web API clients: one per workspace, all keeping Slack's pace and counted.

Owns: ``SlackDirectory`` (the environment's bot token, or the token a workspace's OAuth install saved;
``NotInstalled`` when there is none), ``ChannelPacer`` (Slack's pace for one bot: per channel for posts, per
workspace for ``chat.update``; progress edits keep only the newest content) and ``PacedWebClient``, which every
client the bot builds is (``slack_web_client``, ``paced``): it keeps the pace, retries a dropped connection and a
429, and counts and times its calls by method and outcome, and each 429 Slack answers, in ``minds_bot.metrics``.
Must not touch: rendering, listener registration, Minds.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import re
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from slack_sdk.errors import SlackApiError
from slack_sdk.http_retry.async_handler import AsyncRetryHandler
from slack_sdk.http_retry.builtin_async_handlers import (
    AsyncConnectionErrorRetryHandler,
    AsyncRateLimitErrorRetryHandler,
)
from slack_sdk.web.async_client import AsyncWebClient
from slack_sdk.web.async_slack_response import AsyncSlackResponse

from minds_bot import metrics
from minds_bot.settings import Settings
from minds_bot.store import Store

log = logging.getLogger(__name__)


class NotInstalled(Exception):
    """The bot has no install (bot token) for this workspace any more."""


@dataclass
class SlackDirectory:
    """A Web API client for a workspace: the environment's bot token, or the token its OAuth install saved."""

    settings: Settings
    store: Store
    _clients: dict[str, PacedWebClient] = field(default_factory=dict)
    _installed: frozenset[str] | None = None
    pacer: ChannelPacer = field(init=False)  # every Slack client of this bot shares it

    def __post_init__(self) -> None:
        self.pacer = ChannelPacer(
            rate=self.settings.minds_bot_slack_posts_per_second,
            updates_per_minute=self.settings.minds_bot_slack_updates_per_minute,
        )

    async def served_teams(self) -> frozenset[str]:
        """The workspace (and Enterprise Grid org) the operator's MINDS_API_KEY belongs to: the one named by
        MINDS_BOT_DEFAULT_TEAM_ID in OAuth mode, the bot token's own (``auth.test``, asked once) otherwise."""
        if self.settings.oauth_enabled:
            named = self.settings.minds_bot_default_team_id
            return frozenset({named}) if named else frozenset()
        if self._installed is None:
            reply = await (await self.client_for("")).auth_test()
            self._installed = frozenset(t for t in (reply.get("team_id"), reply.get("enterprise_id")) if t)
        return self._installed

    async def client_for(self, team_id: str) -> PacedWebClient:
        if not self.settings.oauth_enabled:
            token = self.settings.slack_bot_token.get_secret_value() if self.settings.slack_bot_token else None
            return self._cached("", token)
        bot = await self.store.find_bot(enterprise_id=None, team_id=team_id)
        if bot is None or bot.bot_token is None:
            raise NotInstalled()
        return self._cached(team_id, bot.bot_token.get_secret_value())

    def _cached(self, team_id: str, token: str | None) -> PacedWebClient:
        client = self._clients.get(team_id)
        if client is None or client.token != token:
            client = slack_web_client(token, base_url=self.settings.slack_api_url, pacer=self.pacer)
            self._clients[team_id] = client
        return client


SLACK_RATE_LIMIT_RETRIES = 3
POSTS_PER_SECOND = 1.0  # per channel, Slack's sustained rate for chat.postMessage
POST_BURST = 10  # Slack allows short bursts; a quiet channel takes this many at once
UPDATES_PER_MINUTE = 45  # per workspace for chat.update (Slack's Tier 3: 50 a minute), with a margin
UPDATE_WINDOW_SECONDS = 60.0
PACED_METHODS = frozenset({"chat.postMessage", "chat.update", "files.completeUploadExternal"})
WORKSPACE_PACED_METHODS = frozenset({"chat.update"})


class ChannelPacer:
    """Slack's pace for one bot, shared by every Slack client it builds (``SlackDirectory.pacer``), so runs,
    digests and listeners posting to one channel share its pace.

    Two limits: a token bucket per channel (``POST_BURST`` posts at once, then ``POSTS_PER_SECOND``) for posts
    and edits, and a sliding window per workspace (``UPDATES_PER_MINUTE`` per minute) for ``chat.update``,
    Slack's Tier 3 method. Progress edits go through ``edit_latest``: sent at once when the pace allows,
    otherwise only the newest content per message is kept and sent as the pace allows, so a busy workspace
    sees fewer edits, never a 429 and never an old state after a new one.
    ``clock``/``sleep`` are injectable for tests."""

    def __init__(
        self,
        *,
        rate: float = POSTS_PER_SECOND,
        burst: int = POST_BURST,
        updates_per_minute: int = UPDATES_PER_MINUTE,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self._rate, self._burst, self._clock, self._sleep = rate, burst, clock, sleep
        self._updates_per_minute = updates_per_minute
        self._buckets: dict[str, tuple[float, float]] = {}  # channel -> (tokens, at)
        self._updates: dict[str, deque[float]] = {}  # workspace -> when its recent (and reserved) updates go
        self._edits: dict[str, dict[tuple[str, str], tuple[AsyncWebClient, dict[str, Any]]]] = {}
        self._drains: dict[str, asyncio.Task[None]] = {}

    async def wait(self, channel: str, *, workspace: str | None = None) -> None:
        """Wait for this channel's turn (and, given ``workspace``, for room in its ``chat.update`` window)."""
        now = self._clock()
        tokens, at = self._buckets.get(channel, (float(self._burst), now))
        tokens = min(float(self._burst), tokens + (now - at) * self._rate) - 1.0
        self._buckets[channel] = (tokens, now)  # reserved before sleeping: the next caller queues behind
        if len(self._buckets) > MAX_PACED_CHANNELS:
            self._forget_full(now)
        wait = -tokens / self._rate if tokens < 0 else 0.0
        if workspace is not None:
            wait = max(wait, self._reserve_update(workspace, now))
        if wait > 0:
            await self._sleep(wait)

    def ready(self, channel: str, *, workspace: str | None = None) -> bool:
        """Whether a post (an update, given ``workspace``) to ``channel`` would go out now without waiting."""
        now = self._clock()
        tokens, at = self._buckets.get(channel, (float(self._burst), now))
        if min(float(self._burst), tokens + (now - at) * self._rate) < 1.0:
            return False
        return workspace is None or self._update_at(workspace, now) <= now

    def paces(self, channel: str) -> bool:
        """Whether posts to ``channel`` went through this pacer recently."""
        return channel in self._buckets

    async def edit_latest(self, client: AsyncWebClient, workspace: str, channel: str, ts: str, **content: Any) -> None:
        """Edit a message whose newer content may replace this one: at once when the pace allows and nothing
        waits before it, otherwise kept (an older pending edit of the same message is dropped) and sent by one
        task per workspace, in the order the messages first waited. Never waits for the pace itself."""
        pending = self._edits.get(workspace)
        if not pending and self.ready(channel, workspace=workspace):
            await client.chat_update(channel=channel, ts=ts, **content)
            return
        self._edits.setdefault(workspace, {})[(channel, ts)] = (client, content)
        if workspace not in self._drains:
            self._drains[workspace] = asyncio.create_task(self._drain(workspace), name="slack-edits")

    async def settled(self) -> None:
        """Wait until every edit kept for later has been sent (or refused)."""
        while self._drains:
            await asyncio.gather(*self._drains.values(), return_exceptions=True)

    async def _drain(self, workspace: str) -> None:
        try:
            while pending := self._edits.get(workspace):
                (channel, ts), (client, content) = next(iter(pending.items()))
                del pending[(channel, ts)]
                try:
                    await client.chat_update(channel=channel, ts=ts, **content)
                except Exception:  # one message gone or refused must not stop the others' edits
                    log.warning("a progress edit was refused", exc_info=True, extra={"fields": {"channel": channel}})
        finally:
            self._drains.pop(workspace, None)
            if not self._edits.get(workspace):
                self._edits.pop(workspace, None)

    def _update_at(self, workspace: str, now: float) -> float:
        sent = self._updates.get(workspace)
        if not sent:
            return now
        while sent and sent[0] <= now - UPDATE_WINDOW_SECONDS:
            sent.popleft()
        if len(sent) < self._updates_per_minute:
            return now
        return max(now, sent[-self._updates_per_minute] + UPDATE_WINDOW_SECONDS)

    def _reserve_update(self, workspace: str, now: float) -> float:
        at = self._update_at(workspace, now)
        self._updates.setdefault(workspace, deque()).append(at)
        if len(self._updates) > MAX_PACED_CHANNELS:
            self._updates = {w: d for w, d in self._updates.items() if d and d[-1] > now - UPDATE_WINDOW_SECONDS}
        return at - now

    def _forget_full(self, now: float) -> None:
        for channel, (tokens, at) in list(self._buckets.items()):
            if tokens + (now - at) * self._rate >= self._burst:
                del self._buckets[channel]


MAX_PACED_CHANNELS = 10_000


class PacedWebClient(AsyncWebClient):
    """An ``AsyncWebClient`` whose posts and updates keep Slack's pace (``ChannelPacer``): per channel, and for
    ``chat.update`` per workspace (one bot token is one workspace)."""

    def __init__(self, *args: Any, pacer: ChannelPacer, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.pacer = pacer
        self.workspace = hashlib.sha256((self.token or "").encode()).hexdigest()[:16]

    async def api_call(self, api_method: str, **kwargs: Any) -> Any:
        if api_method in PACED_METHODS:
            args = kwargs.get("json") or kwargs.get("data") or kwargs.get("params") or {}
            channel = args.get("channel") or args.get("channel_id") if isinstance(args, dict) else None
            if isinstance(channel, str) and channel:
                workspace = self.workspace if api_method in WORKSPACE_PACED_METHODS else None
                await self.pacer.wait(channel, workspace=workspace)
        return await super().api_call(api_method, **kwargs)

    async def _request(self, *, http_verb: str, api_url: str, req_args: dict[str, Any]) -> dict[str, Any]:
        """Every Web API call of the bot's clients passes here once, its 429 retries inside: counted and timed
        by method (``minds_bot.metrics``), never by workspace or channel. A reply that is not a JSON object (an
        HTML error page, plain text, broken JSON) becomes Slack's usual refusal, ``{"ok": false, "error":
        "invalid_response"}``, so every caller reads a ``SlackApiError`` with an error code, never a crash."""
        method = _slack_method(api_url)
        with metrics.slack_call_seconds.time(method):
            try:
                response: dict[str, Any] = await super()._request(
                    http_verb=http_verb, api_url=api_url, req_args=req_args
                )
            except SlackApiError as exc:
                if isinstance(exc.response, AsyncSlackResponse):
                    metrics.slack_calls.inc(method, "failed")
                    raise
                response = _not_json(getattr(exc.response, "status", 200))  # its body was not JSON
            except Exception:
                metrics.slack_calls.inc(method, "failed")
                raise
        replied = response.get("data")
        if not isinstance(replied, dict) or "ok" not in replied:  # every Web API reply says whether it is ok
            response = _not_json(response.get("status_code") or 200)
        data = response.get("data")
        if response.get("status_code") == 429:
            outcome = "rate_limited"
        else:
            outcome = "ok" if isinstance(data, dict) and data.get("ok") else "error"
        metrics.slack_calls.inc(method, outcome)
        return response

    async def edit_progress(self, *, channel: str, ts: str, **content: Any) -> None:
        """Show a run's newest state in its progress message without waiting for Slack's pace: a later edit
        of the same message replaces one still waiting (``ChannelPacer.edit_latest``)."""
        await self.pacer.edit_latest(self, self.workspace, channel, ts, **content)


INVALID_RESPONSE = "invalid_response"  # the error code a reply that is not a JSON object is read as


def _not_json(status: int) -> dict[str, Any]:
    return {"data": {"ok": False, "error": INVALID_RESPONSE}, "headers": {}, "status_code": status}


_SLACK_METHOD = re.compile(r"^[a-zA-Z]+(\.[a-zA-Z]+)+$")


def _slack_method(api_url: str) -> str:
    """``chat.postMessage`` from a Web API URL; anything else (a file upload's URL) is ``other``."""
    method = api_url.rstrip("/").rsplit("/", 1)[-1].split("?", 1)[0]
    return method if _SLACK_METHOD.match(method) and len(method) <= 64 else "other"


class _CountRateLimits(AsyncRetryHandler):
    """Sees every answer of every attempt first and counts Slack's 429s (also those retried); never retries."""

    async def can_retry_async(
        self, *, state: Any, request: Any, response: Any = None, error: Exception | None = None
    ) -> bool:
        if response is not None and response.status_code == 429:
            metrics.slack_rate_limited.inc(_slack_method(request.url))
        return False


def _retry_handlers() -> list[Any]:
    return [
        _CountRateLimits(),
        AsyncConnectionErrorRetryHandler(),
        AsyncRateLimitErrorRetryHandler(SLACK_RATE_LIMIT_RETRIES),
    ]


def slack_web_client(token: str | None, *, base_url: str, pacer: ChannelPacer) -> PacedWebClient:
    """The one way the bot builds a Slack Web API client: posts and updates keep each channel's pace, a dropped
    connection is retried once, and an HTTP 429 waits Slack's ``Retry-After`` and tries again (up to
    ``SLACK_RATE_LIMIT_RETRIES`` times) instead of losing the post or update."""
    return PacedWebClient(token=token, base_url=base_url, retry_handlers=_retry_handlers(), pacer=pacer)


def paced(client: AsyncWebClient, pacer: ChannelPacer) -> PacedWebClient:
    """Bolt's client for one request (its token, team and session kept) with the same pace and retries."""
    return PacedWebClient(
        token=client.token,
        base_url=client.base_url,
        session=client.session,
        team_id=client.default_params.get("team_id"),
        logger=client.logger,
        retry_handlers=_retry_handlers(),
        pacer=pacer,
    )
