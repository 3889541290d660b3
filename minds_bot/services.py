"""What listeners, flows and background work share, created once at start and passed down.

Owns: ``Services`` (settings, store, clock, the per-workspace Minds clients, background work) and
``MindsDirectory``, which hands out one ``MindsClient`` per workspace key with one rate limiter per workspace,
so a busy workspace cannot spend another's Minds allowance.
Must not touch: Slack rendering or listener registration.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from slack_sdk.web.async_client import AsyncWebClient

from minds_bot.minds import MindsClient, MindsError, RateLimiter
from minds_bot.settings import Settings
from minds_bot.store import RunKind, Store, new_holder_id, utc_now


class NotConnected(MindsError):
    """This workspace has no Minds key yet."""

    default_message = (
        "This workspace is not connected to Minds yet. A workspace admin can connect it with `/minds connect`."
    )


class Background:
    """Long-lived work (run tracker, digest scheduler) started after the store is ready and stopped first."""

    async def start(self) -> None:
        raise NotImplementedError

    async def stop(self) -> None:
        raise NotImplementedError


@dataclass
class MindsDirectory:
    """One Minds client per workspace key. A workspace's stored key (``/minds connect``) wins over MINDS_API_KEY."""

    settings: Settings
    store: Store
    _clients: dict[str, tuple[str, MindsClient]] = field(default_factory=dict)
    _limiters: dict[str, RateLimiter] = field(default_factory=dict)
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def key_for(self, team_id: str) -> str:
        workspace = await self.store.get_workspace(team_id)
        if workspace is not None:
            return workspace.minds_key.get_secret_value()
        if self.settings.minds_api_key is not None:
            return self.settings.minds_api_key.get_secret_value()
        raise NotConnected()

    async def is_connected(self, team_id: str) -> bool:
        return self.settings.minds_api_key is not None or await self.store.get_workspace(team_id) is not None

    async def client_for(self, team_id: str) -> MindsClient:
        """The client for this workspace; raises ``NotConnected`` when it has no key."""
        key = await self.key_for(team_id)
        fingerprint = hashlib.sha256(key.encode()).hexdigest()
        async with self._lock:
            cached = self._clients.get(team_id)
            if cached is not None and cached[0] == fingerprint:
                return cached[1]
            client = self.build(key, limiter=self._limiters.setdefault(team_id, self._new_limiter()))
            self._clients[team_id] = (fingerprint, client)
        if cached is not None:
            await cached[1].aclose()
        return client

    def build(self, api_key: str, *, limiter: RateLimiter | None = None) -> MindsClient:
        return MindsClient.create(api_key=api_key, base_url=self.settings.minds_api_url, limiter=limiter)

    def _new_limiter(self) -> RateLimiter:
        return RateLimiter(clock=time.monotonic, sleep=asyncio.sleep)

    async def forget(self, team_id: str) -> None:
        """Drop a workspace's client (its key changed or the app was uninstalled)."""
        async with self._lock:
            cached = self._clients.pop(team_id, None)
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
    _clients: dict[str, AsyncWebClient] = field(default_factory=dict)

    async def client_for(self, team_id: str) -> AsyncWebClient:
        if not self.settings.oauth_enabled:
            token = self.settings.slack_bot_token.get_secret_value() if self.settings.slack_bot_token else None
            return self._cached("", token)
        bot = await self.store.find_bot(enterprise_id=None, team_id=team_id)
        if bot is None or bot.bot_token is None:
            raise NotInstalled()
        return self._cached(team_id, bot.bot_token.get_secret_value())

    def _cached(self, team_id: str, token: str | None) -> AsyncWebClient:
        client = self._clients.get(team_id)
        if client is None or client.token != token:
            client = AsyncWebClient(token=token, base_url=self.settings.slack_api_url)
            self._clients[team_id] = client
        return client


class NotInstalled(Exception):
    """The bot has no install (bot token) for this workspace any more."""


@dataclass
class Services:
    """Shared by every listener and flow; built once in ``app.open_bot`` (and by tests).

    ``run_handlers`` is filled by the surface modules at registration (one ``RunHandler`` per run kind) and
    read by the run tracker, which ``app.open_bot`` starts as background work.
    """

    settings: Settings
    store: Store
    minds: MindsDirectory
    slack: SlackDirectory
    clock: Callable[[], datetime] = utc_now
    background: list[Background] = field(default_factory=list)
    run_handlers: dict[RunKind, Any] = field(default_factory=dict)
    tracker: Any = None  # minds_bot.flows.tracking.RunTracker once the bot is open
    replica: str = field(default_factory=new_holder_id)  # this process's name in the store's leases

    async def broadcast_results(self, team_id: str) -> bool:
        """Whether a run's final result is also posted to the channel, not only in its thread."""
        workspace = await self.store.get_workspace(team_id)
        return workspace.broadcast_terminal if workspace else self.settings.minds_broadcast_results

    @classmethod
    def build(cls, settings: Settings, store: Store, *, clock: Callable[[], datetime] = utc_now) -> Services:
        return cls(
            settings=settings,
            store=store,
            minds=MindsDirectory(settings, store),
            slack=SlackDirectory(settings, store),
            clock=clock,
        )
