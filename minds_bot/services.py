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

from minds_bot.minds import MindsClient, MindsError, RateLimiter
from minds_bot.settings import Settings
from minds_bot.store import Store, utc_now


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
        if workspace is not None and workspace.minds_api_key:
            return workspace.minds_api_key
        if self.settings.minds_api_key is not None:
            return self.settings.minds_api_key.get_secret_value()
        raise NotConnected()

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
class Services:
    """Shared by every listener and flow; built once in ``app.open_bot``."""

    settings: Settings
    store: Store
    minds: MindsDirectory
    clock: Callable[[], datetime] = utc_now
    background: list[Background] = field(default_factory=list)
