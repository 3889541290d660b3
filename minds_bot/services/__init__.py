"""What listeners, flows and background work share, created once at start and passed down.

Owns: ``Services`` (settings, store, clock, the per-workspace Minds clients, background work),
``MindsDirectory``, which hands out one ``MindsClient`` per workspace with one rate limiter per Minds key
(workspaces on one key share it; ``budget_name`` names it by a salted hash, never the key), counted in
PostgreSQL when replicas share the store and in memory otherwise, so together they keep to the key's allowance.
The operator's ``MINDS_API_KEY`` serves one workspace only: ``MINDS_BOT_DEFAULT_TEAM_ID`` in OAuth mode, the bot
token's own workspace (and its Enterprise Grid org, from ``auth.test``) in single-workspace mode; every other team
is "not connected". ``FairShare`` bounds what one person may have running in a workspace, so one person's flood
cannot hold up everyone else's commands. Every Slack Web API client the bot builds (``PacedWebClient``) counts and
times its calls by method and outcome, and each 429 Slack answers, in ``minds_bot.metrics``.
Must not touch: Slack rendering or listener registration.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import math
import re
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

from slack_sdk.errors import SlackApiError
from slack_sdk.http_retry.async_handler import AsyncRetryHandler
from slack_sdk.http_retry.builtin_async_handlers import (
    AsyncConnectionErrorRetryHandler,
    AsyncRateLimitErrorRetryHandler,
)
from slack_sdk.web.async_client import AsyncWebClient
from slack_sdk.web.async_slack_response import AsyncSlackResponse

from minds_bot import i18n, metrics
from minds_bot.i18n import N_
from minds_bot.minds.errors import MindsError
from minds_bot.minds.policy import BudgetLedger, MemoryLedger, RateLimiter, budget_name, caller
from minds_bot.services.background import Background, Followups, Periodic
from minds_bot.services.roles import Composed, HomeTabs, Observation, RunHandler, RunTracking, StimulusShelf, TellsEnds
from minds_bot.settings import Settings
from minds_bot.store import RunKind, Store, new_holder_id, utc_now

if TYPE_CHECKING:
    from minds_bot.minds.client import MindsClient

log = logging.getLogger(__name__)

__all__ = [
    "MAX_IN_FLIGHT_PER_PERSON",
    "SLACK_RATE_LIMIT_RETRIES",
    "Background",
    "Busy",
    "ChannelPacer",
    "Composed",
    "FairShare",
    "Followups",
    "HomeTabs",
    "Languages",
    "Memberships",
    "MindsDirectory",
    "NotConnected",
    "NotInstalled",
    "Observation",
    "PacedWebClient",
    "Periodic",
    "RunHandler",
    "RunTracking",
    "Services",
    "SlackDirectory",
    "StimulusShelf",
    "TellsEnds",
    "paced",
    "slack_web_client",
]


class NotConnected(MindsError):
    """This workspace has no Minds key yet."""

    default_message = N_(
        "This workspace is not connected to Minds yet. A workspace admin can connect it with `/minds connect`."
    )


@dataclass
class MindsDirectory:
    """One Minds client per workspace key. A workspace's stored key (``/minds connect``) wins over MINDS_API_KEY,
    which only ever serves the teams ``served_teams`` names (defense in depth behind the workspace middleware)."""

    settings: Settings
    store: Store
    served_teams: Callable[[], Awaitable[frozenset[str]]]
    _clients: dict[str, tuple[str, MindsClient]] = field(default_factory=dict)
    _limiters: dict[str, RateLimiter] = field(default_factory=dict)  # budget name -> the key's limiter
    _budgets: dict[str, str] = field(default_factory=dict)  # team id -> budget name of its current key
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    _ledger: BudgetLedger | None = None

    async def key_for(self, team_id: str) -> str:
        workspace = await self.store.get_workspace(team_id)
        if workspace is not None:
            return workspace.minds_key.get_secret_value()
        if self.settings.minds_api_key is not None and await self._env_key_serves(team_id):
            return self.settings.minds_api_key.get_secret_value()
        raise NotConnected()

    async def is_connected(self, team_id: str) -> bool:
        if await self.store.get_workspace(team_id) is not None:
            return True
        return self.settings.minds_api_key is not None and await self._env_key_serves(team_id)

    async def _env_key_serves(self, team_id: str) -> bool:
        return bool(team_id) and team_id in await self.served_teams()

    async def client_for(self, team_id: str) -> MindsClient:
        """The client for this workspace; raises ``NotConnected`` when it has no key."""
        key = await self.key_for(team_id)
        fingerprint = hashlib.sha256(key.encode()).hexdigest()
        async with self._lock:
            cached = self._clients.get(team_id)
            if cached is not None and cached[0] == fingerprint:
                return cached[1]
            budget = budget_name(key)
            limiter = self._limiters.get(budget) or self._limiters.setdefault(budget, self._new_limiter(budget))
            client = self.build(key, limiter=limiter)
            self._clients[team_id] = (fingerprint, client)
            self._budgets[team_id] = budget
        if cached is not None:
            await cached[1].aclose()
        return client

    async def read_delay(self, team_id: str, *, keep_free: float = 0.0) -> float:
        """Seconds until this workspace's Minds key has room for one more request (0 when it has now), leaving
        ``keep_free`` of its minute for other work."""
        budget = self._budgets.get(team_id)
        limiter = self._limiters.get(budget) if budget is not None else None
        return await limiter.delay(keep_free=keep_free) if limiter is not None else 0.0

    def build(self, api_key: str, *, limiter: RateLimiter | None = None) -> MindsClient:
        from minds_bot.minds.client import MindsClient  # its ~130 models load with a workspace's first request

        return MindsClient.create(api_key=api_key, base_url=self.settings.minds_api_url, limiter=limiter)

    def _new_limiter(self, budget: str) -> RateLimiter:
        """The key's limiter, counting in the store when replicas share it (PostgreSQL), in memory otherwise."""
        if self._ledger is None:
            from minds_bot.store.postgres import PostgresStore  # loaded with a workspace's first Minds request

            self._ledger = self.store if isinstance(self.store, PostgresStore) else MemoryLedger(time.monotonic)
        return RateLimiter(
            requests_per_minute=self.settings.minds_bot_minds_requests_per_minute,
            window=self.settings.minds_bot_minds_window_seconds,
            clock=time.monotonic,
            sleep=asyncio.sleep,
            ledger=self._ledger,
            budget=budget,
        )

    async def forget(self, team_id: str) -> None:
        """Drop a workspace's client (its key changed or the app was uninstalled)."""
        async with self._lock:
            cached = self._clients.pop(team_id, None)
            self._budgets.pop(team_id, None)
        if cached is not None:
            await cached[1].aclose()

    async def aclose(self) -> None:
        async with self._lock:
            clients = [client for _, client in self._clients.values()]
            self._clients.clear()
        for client in clients:
            await client.aclose()


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
                except Exception:  # noqa: BLE001 - one message gone or refused must not stop the others' edits
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


MAX_IN_FLIGHT_PER_PERSON = 3  # commands one person may have running in one workspace at once
TYPICAL_COMMAND_SECONDS = 10.0  # the guess of how long a command takes until some have finished
WAIT_STEP_SECONDS = 5  # "try again in about N seconds" is said in steps of this many seconds
_RECENT_WEIGHT = 0.3  # how much the latest command's duration moves the typical one


@dataclass(frozen=True)
class Busy:
    """Why a person's command is not started now, and about when to try again."""

    reason: Literal["in_flight", "share"]
    in_flight: int
    seconds: int


# The ``running`` entry the current work is counted as (a fresh object per entry), so that ``busy`` asked from
# inside that work does not count it against itself.
_counted_as: ContextVar[object | None] = ContextVar("fair_share_counted_as", default=None)


@dataclass
class FairShare:
    """Per-workspace Minds work queued per person, with a bound.

    A person may have ``MAX_IN_FLIGHT_PER_PERSON`` commands running at once, and use at most the Minds
    limiter's caller share of the key's window (``RateLimiter.share_wait``, counted across replicas); beyond that
    ``busy`` says how long to wait. Inside ``running`` every Minds call is made for that person, so the limiter serves
    people round robin. ``busy`` asked from inside a person's own ``running`` work (the gate, before a command or a
    button spends) does not count that work itself: it is the one asking."""

    clock: Callable[[], datetime]
    _running: dict[tuple[str, str], list[datetime]] = field(default_factory=dict)
    _live: dict[object, tuple[str, str]] = field(default_factory=dict)  # running entry → whose
    _typical: float = TYPICAL_COMMAND_SECONDS

    @staticmethod
    def caller_for(*, team_id: str, user_id: str) -> str:
        return f"{team_id}:{user_id}"

    async def busy(self, *, team_id: str, user_id: str, limiter: RateLimiter | None) -> Busy | None:
        """None when the person may start one more command now."""
        running = self._running.get((team_id, user_id), [])
        itself = 1 if self.counts_current(team_id=team_id, user_id=user_id) else 0
        if len(running) - itself >= MAX_IN_FLIGHT_PER_PERSON:
            age = (self.clock() - running[0]).total_seconds()
            return Busy("in_flight", len(running) - itself, _about(self._typical - age))
        share_wait = await limiter.share_wait(self.caller_for(team_id=team_id, user_id=user_id)) if limiter else 0.0
        if share_wait > 0:
            return Busy("share", len(running), _about(share_wait))
        return None

    def counts_current(self, *, team_id: str, user_id: str) -> bool:
        """Whether the work asking already runs as this person's (inside their ``running``)."""
        return self._live.get(_counted_as.get()) == (team_id, user_id)

    @asynccontextmanager
    async def running(self, *, team_id: str, user_id: str) -> AsyncIterator[None]:
        """Count one command as running for the person, its Minds calls made on their behalf."""
        key, started, entry = (team_id, user_id), self.clock(), object()
        self._running.setdefault(key, []).append(started)
        self._live[entry] = key
        token, counted = caller.set(self.caller_for(team_id=team_id, user_id=user_id)), _counted_as.set(entry)
        try:
            yield
        finally:
            caller.reset(token)
            _counted_as.reset(counted)
            del self._live[entry]
            self._running[key].remove(started)
            if not self._running[key]:
                del self._running[key]
            took = (self.clock() - started).total_seconds()
            self._typical += _RECENT_WEIGHT * (took - self._typical)


def _about(seconds: float) -> int:
    return max(WAIT_STEP_SECONDS, math.ceil(seconds / WAIT_STEP_SECONDS) * WAIT_STEP_SECONDS)


MEMBERSHIP_SECONDS = 10.0  # how long "is this person in that channel" is trusted for what is only shown
MAX_MEMBERSHIPS = 50_000  # answers kept; beyond, the cache starts again


class Memberships:
    """Slack's recent answers to "is this person in that channel" (and "is that channel private"), kept
    ``MEMBERSHIP_SECONDS`` so a list or a Home does not ask Slack once per line; the gate (``flows/access.py``)
    asks again before anything is posted, decided or spent. Keys are the gate's own tuples."""

    def __init__(self, *, seconds: float = MEMBERSHIP_SECONDS, clock: Callable[[], float] = time.monotonic) -> None:
        self._seconds, self._clock = seconds, clock
        self._known: dict[tuple[str, ...], tuple[float, bool]] = {}

    def get(self, key: tuple[str, ...]) -> bool | None:
        found = self._known.get(key)
        if found is None or self._clock() - found[0] >= self._seconds:
            return None
        return found[1]

    def put(self, key: tuple[str, ...], value: bool) -> None:
        if len(self._known) >= MAX_MEMBERSHIPS:
            self._known.clear()
        self._known[key] = (self._clock(), value)


USER_LANGUAGE_SECONDS = 600.0  # how long a person's Slack locale is trusted before users.info is asked again
WORKSPACE_LANGUAGE_SECONDS = 60.0  # another replica's /minds connect reaches this one within this long
USER_LOOKUP_SECONDS = 1.0  # users.info slower than this: the workspace's language this time


class Languages:
    """Which of the bot's languages a person and a workspace speak.

    A person speaks their Slack locale (``users.info`` with ``include_locale``, kept ``USER_LANGUAGE_SECONDS``)
    when the bot speaks it; otherwise, and for everything posted to a channel, the workspace's language from
    ``/minds connect``; before a language was saved there, the Slack locale of the person who installed the app
    (the OAuth installation's installer, asked with the ``client`` of the request at first use and remembered);
    otherwise English. A failed or slow lookup is not remembered. While the store cannot be reached,
    ``of_person_without_store`` answers from Slack and what was last read (``slack/outage.py``).
    """

    def __init__(self, store: Store, *, clock: Callable[[], float] = time.monotonic) -> None:
        self._store = store
        self._clock = clock
        self._people: dict[tuple[str, str], tuple[float, str | None]] = {}
        self._workspaces: dict[str, tuple[float, str]] = {}
        self._installers: dict[str, str] = {}  # the installer's language as last learned, for work without a request

    async def of_workspace(self, team_id: str, client: Any = None) -> str:
        """The language of what is posted to the workspace's channels: the one ``/minds connect`` saved, else the
        installer's Slack locale (asked with ``client`` when it is not known yet), else English."""
        now = self._clock()
        cached = self._workspaces.get(team_id)
        if cached is not None and now - cached[0] < WORKSPACE_LANGUAGE_SECONDS:
            return cached[1]
        workspace = await self._store.get_workspace(team_id) if team_id else None
        if workspace is not None:
            language = i18n.language_of(workspace.default_language) or i18n.SOURCE_LANGUAGE
        else:
            installer = await self._installer(team_id)
            known = self._people.get((team_id, installer)) if installer else None
            if installer is None:
                language = i18n.SOURCE_LANGUAGE
            elif known is not None and now - known[0] < USER_LANGUAGE_SECONDS:
                language = known[1] or i18n.SOURCE_LANGUAGE
            elif client is None:  # nobody's request to ask Slack with (a digest, a run's end): as last learned
                return self._installers.get(team_id, i18n.SOURCE_LANGUAGE)
            else:
                language = await self._person_locale(client, team_id, installer) or i18n.SOURCE_LANGUAGE
            self._installers[team_id] = language
        self._workspaces[team_id] = (now, language)
        return language

    async def of_installer(self, client: Any, team_id: str) -> str | None:
        """The Slack locale of the person who installed the app in ``team_id`` (its latest OAuth installation)
        when the bot speaks it: the first language a workspace is offered. None without an installation or such
        a locale."""
        installer = await self._installer(team_id)
        return await self._person_locale(client, team_id, installer) if installer and client is not None else None

    async def _installer(self, team_id: str) -> str | None:
        if not team_id:
            return None
        installation = await self._store.find_installation(enterprise_id=None, team_id=team_id)
        return installation.user_id if installation is not None and installation.user_id else None

    async def of_person(self, client: Any, *, team_id: str, user_id: str) -> str:
        """The person's language, else the workspace's."""
        return await self._person_locale(client, team_id, user_id) or await self.of_workspace(team_id)

    async def of_person_without_store(self, client: Any, *, team_id: str, user_id: str | None) -> str:
        """The person's language while the store cannot be reached: their Slack locale, else the workspace's
        language as last read (however long ago), else English. Never asks the store."""
        if user_id and client is not None and (language := await self._person_locale(client, team_id, user_id)):
            return language
        known = self._workspaces.get(team_id)
        return known[1] if known is not None else i18n.SOURCE_LANGUAGE

    async def _person_locale(self, client: Any, team_id: str, user_id: str) -> str | None:
        now = self._clock()
        cached = self._people.get((team_id, user_id))
        if cached is not None and now - cached[0] < USER_LANGUAGE_SECONDS:
            return cached[1]
        try:
            async with asyncio.timeout(USER_LOOKUP_SECONDS):
                reply = await client.users_info(user=user_id, include_locale=True)
        except Exception as exc:  # any failure: the workspace's language now, asked again next time
            log.info("users.info for the person's language failed: %s", type(exc).__name__)
            return None
        user = reply.get("user") if hasattr(reply, "get") else None
        language = i18n.language_of(user.get("locale")) if isinstance(user, dict) else None
        if len(self._people) > 50_000:
            self._people.clear()
        self._people[(team_id, user_id)] = (now, language)
        return language

    def forget_person(self, *, team_id: str, user_id: str) -> None:
        """After Slack said the person's profile changed: their locale is read again next time."""
        self._people.pop((team_id, user_id), None)

    def forget_workspace(self, team_id: str) -> None:
        """After ``/minds connect`` saved a new language."""
        self._workspaces.pop(team_id, None)


class NotInstalled(Exception):
    """The bot has no install (bot token) for this workspace any more."""


@dataclass
class Services:
    """Shared by every listener and flow; built once in ``app.open_bot`` (and by tests), its roles plugged in by
    ``minds_bot.composition.compose`` (the run handlers, the tracker, the Home tabs, the stimulus shelf and the
    background work) before any listener runs."""

    settings: Settings
    store: Store
    minds: MindsDirectory
    slack: SlackDirectory
    clock: Callable[[], datetime] = utc_now
    background: list[Background] = field(default_factory=list)  # started in order, stopped in reverse
    run_handlers: dict[RunKind, RunHandler] = field(default_factory=dict)  # read by the tracker
    followups: Followups = field(default_factory=Followups)  # charts and reports after a posted result
    method_catalogues: dict[str, Any] = field(default_factory=dict)  # per workspace; see flows/methods.py
    connection_lists: dict[str, Any] = field(default_factory=dict)  # per workspace; flows/model_connections
    replica: str = field(default_factory=new_holder_id)  # this process's name in the store's leases
    workspace_urls: dict[str, str] = field(default_factory=dict)  # team id -> auth.test's url (flows/stimulus_link)
    fair: FairShare = field(init=False)
    languages: Languages = field(init=False)
    memberships: Memberships = field(default_factory=Memberships)  # the gate's recent answers (flows/access.py)
    composed: bool = False  # the roles below are plugged in (minds_bot.composition.compose)
    # Plugged in by the composition; reading one before is an error that says so.
    tracker = Composed[RunTracking]()  # follows started runs (flows/tracking.py)
    home = Composed[HomeTabs]()  # the App Home tabs (flows/home.py)
    stimuli = Composed[StimulusShelf]()  # files Minds fetches for "Ask Minds about this" (flows/stimulus.py)

    def __post_init__(self) -> None:
        self.fair = FairShare(clock=self.clock)
        self.languages = Languages(self.store)

    def home_changed(self, record: Any) -> None:
        """A plan post, tracked run or digest changed: the Home tabs that show it are refreshed (paced)."""
        if self.composed:
            self.home.changed(record)

    async def outcome_in_channel(self, team_id: str) -> bool:
        """Whether the closing line a run leaves in the channel says how it ended (else only that it ended)."""
        workspace = await self.store.get_workspace(team_id)
        return workspace.outcome_in_channel if workspace else self.settings.minds_outcome_in_channel

    @classmethod
    def build(cls, settings: Settings, store: Store, *, clock: Callable[[], datetime] = utc_now) -> Services:
        slack = SlackDirectory(settings, store)
        return cls(
            settings=settings,
            store=store,
            minds=MindsDirectory(settings, store, served_teams=slack.served_teams),
            slack=slack,
            clock=clock,
        )
