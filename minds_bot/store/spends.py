"""Spend with consent (``/minds policy``, ``/minds activity``): a channel's policy per action and the ledger of
every spend, held or run.

Owns the store contract for them (``SpendStore``, part of ``Store``) and its two implementations: ``SqlSpends``
(tables ``channel_policies``, ``spends``) and ``MemorySpends``. A spend's outcome changes by compare-and-set:
exactly one concurrent caller wins. Must not call Slack or Minds.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Collection
from datetime import datetime
from typing import Protocol, TypedDict, Unpack

from minds_bot.store.codec import Row, encode_time, from_row
from minds_bot.store.records import ChannelPolicy, Spend, SpendOutcome
from minds_bot.store.session import Session, SqlSection
from minds_bot.store.twin import MemorySection


class SpendDecision(TypedDict, total=False):
    """What a spend's transition may record besides its outcome; a field not given (or None) keeps its value."""

    decided_by: str | None
    detail: str | None
    responses: int | None  # what Minds counted once it answered, e.g. a research run's responses


class SpendStore(Protocol):
    """Channel policies by (team, channel, action) and spends by (team, spend_id)."""

    @abstractmethod
    async def set_channel_policy(self, policy: ChannelPolicy) -> ChannelPolicy:
        """Upsert by (team, channel, action); stamps updated_at."""

    @abstractmethod
    async def list_channel_policies(self, *, team_id: str, channel_id: str) -> list[ChannelPolicy]:
        """The actions this channel set a mode for, by action."""

    @abstractmethod
    async def add_spend(self, spend: Spend) -> Spend:
        """Record a spend; an existing (team, spend_id) is kept and returned unchanged."""

    @abstractmethod
    async def get_spend(self, *, team_id: str, spend_id: str) -> Spend | None: ...

    @abstractmethod
    async def transition_spend(
        self,
        *,
        team_id: str,
        spend_id: str,
        expected: Collection[SpendOutcome],
        new: SpendOutcome,
        **decision: Unpack[SpendDecision],
    ) -> Spend | None:
        """Atomic compare-and-set of the outcome (exactly one concurrent caller wins); each field of ``decision``
        (``SpendDecision``) is only overwritten when given. None when the spend is missing or not in ``expected``."""

    @abstractmethod
    async def list_spends(self, *, team_id: str, channel_id: str, since: datetime) -> list[Spend]:
        """A channel's spends recorded at or after ``since``, newest first."""


class SqlSpends(SqlSection, SpendStore):
    """The statements for SQLite and PostgreSQL (composed into ``SqlStore``)."""

    async def set_channel_policy(self, policy: ChannelPolicy) -> ChannelPolicy:
        stored = policy.model_copy(update={"updated_at": self._clock()})
        async with self._tx() as q:
            await q.insert("channel_policies", self._row(stored), conflict="replace")
        return stored

    async def list_channel_policies(self, *, team_id: str, channel_id: str) -> list[ChannelPolicy]:
        async with self._read() as q:
            rows = await q.all(
                "SELECT * FROM channel_policies WHERE team_id = ? AND channel_id = ? ORDER BY action",
                (team_id, channel_id),
            )
        return [from_row(ChannelPolicy, row, self._box) for row in rows]

    async def add_spend(self, spend: Spend) -> Spend:
        now = self._clock()
        stored = spend.model_copy(update={"created_at": now, "updated_at": now})
        async with self._tx() as q:
            await q.insert("spends", self._row(stored), conflict="ignore")
            row = await _get_spend(q, team_id=spend.team_id, spend_id=spend.spend_id)
        assert row is not None  # inserted or found inside the same transaction
        return from_row(Spend, row, self._box)

    async def get_spend(self, *, team_id: str, spend_id: str) -> Spend | None:
        async with self._read() as q:
            row = await _get_spend(q, team_id=team_id, spend_id=spend_id)
        return None if row is None else from_row(Spend, row, self._box)

    async def transition_spend(
        self,
        *,
        team_id: str,
        spend_id: str,
        expected: Collection[SpendOutcome],
        new: SpendOutcome,
        **decision: Unpack[SpendDecision],
    ) -> Spend | None:
        async with self._tx() as q:
            row = await _get_spend(q, team_id=team_id, spend_id=spend_id, lock=True)
            if row is None or SpendOutcome(row["outcome"]) not in expected:
                return None
            await q.run(
                "UPDATE spends SET outcome = ?, decided_by = coalesce(?, decided_by), detail = coalesce(?, detail), "
                "responses = coalesce(?, responses), updated_at = ? WHERE team_id = ? AND spend_id = ?",
                (
                    new.value,
                    decision.get("decided_by"),
                    decision.get("detail"),
                    decision.get("responses"),
                    self._now(),
                    team_id,
                    spend_id,
                ),
            )
            row = await _get_spend(q, team_id=team_id, spend_id=spend_id)
        return None if row is None else from_row(Spend, row, self._box)

    async def list_spends(self, *, team_id: str, channel_id: str, since: datetime) -> list[Spend]:
        async with self._read() as q:
            rows = await q.all(
                "SELECT * FROM spends WHERE team_id = ? AND channel_id = ? AND created_at >= ? "
                "ORDER BY created_at DESC, spend_id DESC",
                (team_id, channel_id, encode_time(since)),
            )
        return [from_row(Spend, row, self._box) for row in rows]


async def _get_spend(q: Session, *, team_id: str, spend_id: str, lock: bool = False) -> Row | None:
    suffix = q.lock_rows if lock else ""
    return await q.one(f"SELECT * FROM spends WHERE team_id = ? AND spend_id = ?{suffix}", (team_id, spend_id))  # noqa: S608


class MemorySpends(MemorySection, SpendStore):
    """The in-memory twin (composed into ``MemoryStore``); each method is one uninterrupted step on the event loop."""

    _policies: dict[tuple[str, str, str], Row]
    _spends: dict[tuple[str, str], Row]

    async def set_channel_policy(self, policy: ChannelPolicy) -> ChannelPolicy:
        stored = policy.model_copy(update={"updated_at": self._clock()})
        self._policies[(policy.team_id, policy.channel_id, policy.action)] = self._row(stored)
        return stored

    async def list_channel_policies(self, *, team_id: str, channel_id: str) -> list[ChannelPolicy]:
        rows = [r for (t, c, _a), r in self._policies.items() if (t, c) == (team_id, channel_id)]
        return self._load_all(ChannelPolicy, rows, order=lambda r: r["action"])

    async def add_spend(self, spend: Spend) -> Spend:
        slot = (spend.team_id, spend.spend_id)
        if slot not in self._spends:
            now = self._clock()
            self._spends[slot] = self._row(spend.model_copy(update={"created_at": now, "updated_at": now}))
        return from_row(Spend, self._spends[slot], self._box)

    async def get_spend(self, *, team_id: str, spend_id: str) -> Spend | None:
        return self._load(Spend, self._spends.get((team_id, spend_id)))

    async def transition_spend(
        self,
        *,
        team_id: str,
        spend_id: str,
        expected: Collection[SpendOutcome],
        new: SpendOutcome,
        **decision: Unpack[SpendDecision],
    ) -> Spend | None:
        row = self._spends.get((team_id, spend_id))
        if row is None or SpendOutcome(row["outcome"]) not in expected:
            return None
        row.update(outcome=new.value, updated_at=self._now())
        row.update({field: value for field, value in decision.items() if value is not None})
        return self._load(Spend, row)

    async def list_spends(self, *, team_id: str, channel_id: str, since: datetime) -> list[Spend]:
        cutoff = encode_time(since)
        rows = [
            r
            for (t, _s), r in self._spends.items()
            if t == team_id and r["channel_id"] == channel_id and r["created_at"] >= cutoff
        ]
        ordered = self._load_all(Spend, rows, order=lambda r: (r["created_at"], r["spend_id"]))
        return ordered[::-1]
