"""Once per key: keyed requests a person asked for (Try again reuses the key) and Slack deliveries (a retried event
or action is handled once).

Owns the store contracts for them (``KeyedRequestStore``, ``DeliveryStore``, parts of ``Store``) and their
implementations: ``SqlKeyedRequests`` / ``SqlDeliveries`` (tables ``keyed_requests``, ``deliveries``) and
``MemoryKeyedRequests`` / ``MemoryDeliveries``. The first writer of a key wins. Must not call Slack or Minds.
"""

from __future__ import annotations

from abc import abstractmethod
from datetime import datetime
from typing import Protocol

from minds_bot.store.codec import Row, encode_time, from_row
from minds_bot.store.records import KeyedRequest
from minds_bot.store.session import SqlSection
from minds_bot.store.twin import MemorySection


class KeyedRequestStore(Protocol):
    """Requests by (team, key), kept before they are sent: a retry sends the same key."""

    @abstractmethod
    async def save_keyed_request(self, request: KeyedRequest) -> KeyedRequest:
        """Persist before the request is sent; an existing (team_id, key) is kept and returned unchanged."""

    @abstractmethod
    async def get_keyed_request(self, *, team_id: str, key: str) -> KeyedRequest | None: ...

    @abstractmethod
    async def latest_keyed_request(
        self, *, team_id: str, purpose: str, subject: str, since: datetime
    ) -> KeyedRequest | None:
        """The newest request for this purpose and subject created at or after ``since``."""


class DeliveryStore(Protocol):
    """Slack delivery keys seen, so a retried delivery is handled once."""

    @abstractmethod
    async def mark_delivery(self, key: str) -> bool:
        """True the first time `key` is seen (event id, or action + user + action_ts); False for repeats."""


class SqlKeyedRequests(SqlSection, KeyedRequestStore):
    """The statements for SQLite and PostgreSQL (composed into ``SqlStore``)."""

    async def save_keyed_request(self, request: KeyedRequest) -> KeyedRequest:
        stored = request.model_copy(update={"created_at": self._clock()})
        async with self._tx() as q:
            await q.insert("keyed_requests", self._row(stored), conflict="ignore")
            row = await q.one(
                "SELECT * FROM keyed_requests WHERE team_id = ? AND key = ?", (request.team_id, request.key)
            )
        assert row is not None  # inserted or found inside the same transaction
        return from_row(KeyedRequest, row, self._box)

    async def get_keyed_request(self, *, team_id: str, key: str) -> KeyedRequest | None:
        async with self._read() as q:
            row = await q.one("SELECT * FROM keyed_requests WHERE team_id = ? AND key = ?", (team_id, key))
        return None if row is None else from_row(KeyedRequest, row, self._box)

    async def latest_keyed_request(
        self, *, team_id: str, purpose: str, subject: str, since: datetime
    ) -> KeyedRequest | None:
        async with self._read() as q:
            row = await q.one(
                "SELECT * FROM keyed_requests WHERE team_id = ? AND purpose = ? AND subject = ? AND created_at >= ? "
                "ORDER BY created_at DESC, key DESC LIMIT 1",
                (team_id, purpose, subject, encode_time(since)),
            )
        return None if row is None else from_row(KeyedRequest, row, self._box)


class SqlDeliveries(SqlSection, DeliveryStore):
    """The statements for SQLite and PostgreSQL (composed into ``SqlStore``)."""

    async def mark_delivery(self, key: str) -> bool:
        async with self._tx() as q:
            return await q.insert("deliveries", {"delivery_key": key, "seen_at": self._now()}, conflict="ignore") == 1


class MemoryKeyedRequests(MemorySection, KeyedRequestStore):
    """The in-memory twin (composed into ``MemoryStore``); each method is one uninterrupted step on the event loop."""

    _keyed: dict[tuple[str, str], Row]

    async def save_keyed_request(self, request: KeyedRequest) -> KeyedRequest:
        slot = (request.team_id, request.key)
        if slot not in self._keyed:
            self._keyed[slot] = self._row(request.model_copy(update={"created_at": self._clock()}))
        return from_row(KeyedRequest, self._keyed[slot], self._box)

    async def get_keyed_request(self, *, team_id: str, key: str) -> KeyedRequest | None:
        return self._load(KeyedRequest, self._keyed.get((team_id, key)))

    async def latest_keyed_request(
        self, *, team_id: str, purpose: str, subject: str, since: datetime
    ) -> KeyedRequest | None:
        found = [
            from_row(KeyedRequest, row, self._box)
            for row in self._keyed.values()
            if (row["team_id"], row["purpose"], row["subject"]) == (team_id, purpose, subject)
        ]
        recent = [r for r in found if r.created_at is not None and r.created_at >= since]
        return max(recent, key=lambda r: (r.created_at, r.key), default=None)


class MemoryDeliveries(MemorySection, DeliveryStore):
    """The in-memory twin (composed into ``MemoryStore``); each method is one uninterrupted step on the event loop."""

    _deliveries: dict[str, str]

    async def mark_delivery(self, key: str) -> bool:
        if key in self._deliveries:
            return False
        self._deliveries[key] = self._now()
        return True
