"""Direct asks: a question sent to Minds, kept from before its POST until Minds answered it definitively.

Owns the store contract for them (``AskStore``, part of ``Store``) and its two implementations: ``SqlAsks``
(table ``direct_asks``) and ``MemoryAsks``. An ask is leased to its sender (leases.py), so one interrupted by a
crash is re-sent by another replica with the same clientRequestId. Must not call Slack or Minds.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Any, Protocol

from minds_bot.store.codec import Row, encode_time, from_row
from minds_bot.store.errors import RecordNotFoundError
from minds_bot.store.leases import RESUME_BATCH, count_takeovers, lease_clause, lease_free
from minds_bot.store.records import DirectAsk
from minds_bot.store.session import Session, SqlSection
from minds_bot.store.twin import MemorySection, require

_PENDING_ASKS = (
    "SELECT * FROM direct_asks WHERE run_id IS NULL AND settled = 0 AND {lease} "
    "ORDER BY created_at, client_request_id LIMIT ?"
)


class AskStore(Protocol):
    """Direct asks by clientRequestId: begun, attached to their run or settled, resumed after a crash."""

    @abstractmethod
    async def begin_direct_ask(self, ask: DirectAsk) -> tuple[DirectAsk, bool]:
        """Persist before POST /runs, leased to its creator for one claim lease. Returns (stored, created); an
        existing client_request_id is kept."""

    @abstractmethod
    async def get_direct_ask(self, client_request_id: str) -> DirectAsk | None: ...

    @abstractmethod
    async def attach_direct_run(self, *, client_request_id: str, run_id: str) -> DirectAsk:
        """Raises RecordNotFoundError."""

    @abstractmethod
    async def settle_direct_ask(self, client_request_id: str) -> DirectAsk:
        """Minds refused the ask for good (or asked for a plan): it is never re-sent. Raises RecordNotFoundError."""

    @abstractmethod
    async def claim_pending_direct_asks(self, *, holder: str, abandoned_only: bool = False) -> list[DirectAsk]:
        """Unsettled asks with no run yet and no live lease, leased to `holder`: after a crash, it resends them
        with the same clientRequestId. `abandoned_only` as for `claim_pending_approvals`."""

    @abstractmethod
    async def release_direct_ask(self, client_request_id: str) -> None:
        """The send attempt ended without a definitive answer: end its lease; it waits for Try again (or a
        start-up)."""


class SqlAsks(SqlSection, AskStore):
    """The statements for SQLite and PostgreSQL (composed into ``SqlStore``)."""

    async def begin_direct_ask(self, ask: DirectAsk) -> tuple[DirectAsk, bool]:
        now = self._clock()
        stored = ask.model_copy(update={"created_at": now, "updated_at": now})
        row = {**self._row(stored), "lease_holder": None, "lease_until": encode_time(now + self._lease)}
        async with self._tx() as q:
            created = await q.insert("direct_asks", row, conflict="ignore") == 1
            found = await _get_ask(q, ask.client_request_id)
        assert found is not None  # inserted or found inside the same transaction
        return from_row(DirectAsk, found, self._box), created

    async def release_direct_ask(self, client_request_id: str) -> None:
        async with self._tx() as q:
            await q.run(
                "UPDATE direct_asks SET lease_holder = NULL, lease_until = NULL WHERE client_request_id = ?",
                (client_request_id,),
            )

    async def get_direct_ask(self, client_request_id: str) -> DirectAsk | None:
        async with self._read() as q:
            row = await _get_ask(q, client_request_id)
        return None if row is None else from_row(DirectAsk, row, self._box)

    async def attach_direct_run(self, *, client_request_id: str, run_id: str) -> DirectAsk:
        async with self._tx() as q:
            await q.run(
                "UPDATE direct_asks SET run_id = ?, settled = 1, updated_at = ? WHERE client_request_id = ?",
                (run_id, self._now(), client_request_id),
            )
            row = await _get_ask(q, client_request_id)
        if row is None:
            raise RecordNotFoundError(f"no direct ask with clientRequestId {client_request_id}")
        return from_row(DirectAsk, row, self._box)

    async def settle_direct_ask(self, client_request_id: str) -> DirectAsk:
        async with self._tx() as q:
            await q.run(
                "UPDATE direct_asks SET settled = 1, updated_at = ? WHERE client_request_id = ?",
                (self._now(), client_request_id),
            )
            row = await _get_ask(q, client_request_id)
        if row is None:
            raise RecordNotFoundError(f"no direct ask with clientRequestId {client_request_id}")
        return from_row(DirectAsk, row, self._box)

    async def claim_pending_direct_asks(self, *, holder: str, abandoned_only: bool = False) -> list[DirectAsk]:
        now = self._clock()
        async with self._tx() as q:
            sql = _PENDING_ASKS.format(lease=lease_clause(abandoned_only=abandoned_only)) + q.skip_locked
            rows = await q.all(sql, (encode_time(now), RESUME_BATCH))
            count_takeovers("question", rows, holder)
            for row in rows:
                await q.run(
                    "UPDATE direct_asks SET lease_holder = ?, lease_until = ? WHERE client_request_id = ?",
                    (holder, encode_time(now + self._lease), row["client_request_id"]),
                )
        return [from_row(DirectAsk, row, self._box) for row in rows]


async def _get_ask(q: Session, client_request_id: str) -> Any | None:
    return await q.one("SELECT * FROM direct_asks WHERE client_request_id = ?", (client_request_id,))


class MemoryAsks(MemorySection, AskStore):
    """The in-memory twin (composed into ``MemoryStore``); each method is one uninterrupted step on the event loop."""

    _asks: dict[str, Row]

    async def begin_direct_ask(self, ask: DirectAsk) -> tuple[DirectAsk, bool]:
        existing = self._asks.get(ask.client_request_id)
        if existing is not None:
            return from_row(DirectAsk, existing, self._box), False
        now = self._clock()
        stored = ask.model_copy(update={"created_at": now, "updated_at": now})
        self._asks[ask.client_request_id] = {
            **self._row(stored),
            "lease_holder": None,
            "lease_until": self._lease_end(),
        }
        return from_row(DirectAsk, self._asks[ask.client_request_id], self._box), True

    async def release_direct_ask(self, client_request_id: str) -> None:
        row = self._asks.get(client_request_id)
        if row is not None:
            row.update(lease_holder=None, lease_until=None)

    async def get_direct_ask(self, client_request_id: str) -> DirectAsk | None:
        return self._load(DirectAsk, self._asks.get(client_request_id))

    async def attach_direct_run(self, *, client_request_id: str, run_id: str) -> DirectAsk:
        row = require(self._asks, client_request_id, what="direct ask")
        row.update(run_id=run_id, settled=True, updated_at=self._now())
        return from_row(DirectAsk, row, self._box)

    async def settle_direct_ask(self, client_request_id: str) -> DirectAsk:
        row = require(self._asks, client_request_id, what="direct ask")
        row.update(settled=True, updated_at=self._now())
        return from_row(DirectAsk, row, self._box)

    async def claim_pending_direct_asks(self, *, holder: str, abandoned_only: bool = False) -> list[DirectAsk]:
        now = self._now()
        rows = [
            row
            for row in self._asks.values()
            if row["run_id"] is None and not row["settled"] and lease_free(row, now, abandoned_only=abandoned_only)
        ]
        claimed = sorted(rows, key=lambda row: (row["created_at"], row["client_request_id"]))[:RESUME_BATCH]
        for row in claimed:
            row.update(lease_holder=holder, lease_until=self._lease_end())
        return [from_row(DirectAsk, row, self._box) for row in claimed]
