"""Which Minds key serves a workspace, and one Minds client per key.

Owns: ``MindsDirectory``, which hands out one ``MindsClient`` per workspace with one rate limiter per Minds key
(workspaces on one key share it; ``budget_name`` names it by a salted hash, never the key), counted in
PostgreSQL when replicas share the store and in memory otherwise, so together they keep to the key's allowance.
The operator's ``MINDS_API_KEY`` serves one workspace only: ``MINDS_BOT_DEFAULT_TEAM_ID`` in OAuth mode, the bot
token's own workspace (and its Enterprise Grid org, from ``auth.test``) in single-workspace mode; every other team
is "not connected" (``NotConnected``).
Must not touch: Slack, rendering, listener registration.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from minds_bot.i18n import N_
from minds_bot.minds.errors import MindsError
from minds_bot.minds.policy import BudgetLedger, MemoryLedger, RateLimiter, budget_name
from minds_bot.settings import Settings
from minds_bot.store import Store

if TYPE_CHECKING:
    from minds_bot.minds.client import MindsClient


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
