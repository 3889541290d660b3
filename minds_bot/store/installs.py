"""Slack installations and OAuth state: what Bolt's installation and OAuth-state stores keep (slack_oauth.py).

Owns the store contract for them (``InstallStore``, part of ``Store``) and its two implementations: ``SqlInstalls``
(SQLite and PostgreSQL, tables ``installations``, ``bots``, ``oauth_states``) and ``MemoryInstalls``. Tokens are
sealed before they are written (codec.py). Must not call Slack or Minds.
"""

from __future__ import annotations

from abc import abstractmethod
from datetime import datetime
from typing import Protocol

from minds_bot.store.codec import Row, encode_time, from_row
from minds_bot.store.records import BotRecord, InstallationRecord
from minds_bot.store.session import SqlSection
from minds_bot.store.twin import MemorySection


class InstallStore(Protocol):
    """Installations per (enterprise, team, installer), their bots, and one-time OAuth states."""

    @abstractmethod
    async def save_installation(self, installation: InstallationRecord) -> None:
        """Upsert per (enterprise, team, installer); also upserts its bot when it carries a bot token."""

    @abstractmethod
    async def save_bot(self, bot: BotRecord) -> None:
        """Upsert per (enterprise, team)."""

    @abstractmethod
    async def find_bot(self, *, enterprise_id: str | None, team_id: str | None) -> BotRecord | None: ...

    @abstractmethod
    async def find_installation(
        self, *, enterprise_id: str | None, team_id: str | None, user_id: str | None = None
    ) -> InstallationRecord | None:
        """The installer's installation, or without `user_id` the latest installed in that team."""

    @abstractmethod
    async def delete_bot(self, *, enterprise_id: str | None, team_id: str | None) -> None: ...

    @abstractmethod
    async def delete_installation(
        self, *, enterprise_id: str | None, team_id: str | None, user_id: str | None = None
    ) -> None:
        """Deletes the installer's installation, or without `user_id` every installation of that team."""

    @abstractmethod
    async def issue_oauth_state(self, state: str, *, expires_at: datetime) -> None: ...

    @abstractmethod
    async def consume_oauth_state(self, state: str, *, now: datetime) -> bool:
        """True once for a state issued and not expired at `now`; the state is gone afterwards."""


class SqlInstalls(SqlSection, InstallStore):
    """The statements for SQLite and PostgreSQL (composed into ``SqlStore``)."""

    async def save_installation(self, installation: InstallationRecord) -> None:
        bot = installation.to_bot()
        async with self._tx() as q:
            await q.insert("installations", self._row(installation), conflict="replace")
            if bot is not None:
                await q.insert("bots", self._row(bot), conflict="replace")

    async def save_bot(self, bot: BotRecord) -> None:
        async with self._tx() as q:
            await q.insert("bots", self._row(bot), conflict="replace")

    async def find_bot(self, *, enterprise_id: str | None, team_id: str | None) -> BotRecord | None:
        async with self._read() as q:
            row = await q.one(
                "SELECT * FROM bots WHERE enterprise_key = ? AND team_key = ?",
                (enterprise_id or "", team_id or ""),
            )
        return None if row is None else from_row(BotRecord, row, self._box)

    async def find_installation(
        self, *, enterprise_id: str | None, team_id: str | None, user_id: str | None = None
    ) -> InstallationRecord | None:
        where, params = _installation_filter(enterprise_id=enterprise_id, team_id=team_id, user_id=user_id)
        async with self._read() as q:
            order = f"installed_at DESC, {q.insertion_order} DESC"
            row = await q.one(f"SELECT * FROM installations WHERE {where} ORDER BY {order} LIMIT 1", params)  # noqa: S608
        return None if row is None else from_row(InstallationRecord, row, self._box)

    async def delete_bot(self, *, enterprise_id: str | None, team_id: str | None) -> None:
        async with self._tx() as q:
            await q.run(
                "DELETE FROM bots WHERE enterprise_key = ? AND team_key = ?",
                (enterprise_id or "", team_id or ""),
            )

    async def delete_installation(
        self, *, enterprise_id: str | None, team_id: str | None, user_id: str | None = None
    ) -> None:
        where, params = _installation_filter(enterprise_id=enterprise_id, team_id=team_id, user_id=user_id)
        async with self._tx() as q:
            await q.run(f"DELETE FROM installations WHERE {where}", params)  # noqa: S608

    async def issue_oauth_state(self, state: str, *, expires_at: datetime) -> None:
        async with self._tx() as q:
            await q.insert("oauth_states", {"state": state, "expires_at": encode_time(expires_at)}, conflict="replace")

    async def consume_oauth_state(self, state: str, *, now: datetime) -> bool:
        async with self._tx() as q:
            # One conditional delete decides, so two concurrent callbacks cannot both consume the state.
            valid = await q.run(
                "DELETE FROM oauth_states WHERE state = ? AND expires_at > ?", (state, encode_time(now))
            )
            await q.run("DELETE FROM oauth_states WHERE state = ?", (state,))
        return valid == 1


def _installation_filter(
    *, enterprise_id: str | None, team_id: str | None, user_id: str | None
) -> tuple[str, tuple[str, ...]]:
    if user_id is None:
        return "enterprise_key = ? AND team_key = ?", (enterprise_id or "", team_id or "")
    return "enterprise_key = ? AND team_key = ? AND user_id = ?", (
        enterprise_id or "",
        team_id or "",
        user_id,
    )


class MemoryInstalls(MemorySection, InstallStore):
    """The in-memory twin (composed into ``MemoryStore``); each method is one uninterrupted step on the event loop."""

    _installations: dict[tuple[str, str, str], Row]
    _bots: dict[tuple[str, str], Row]
    _oauth_states: dict[str, str]

    async def save_installation(self, installation: InstallationRecord) -> None:
        key = (installation.enterprise_id or "", installation.team_id or "", installation.user_id)
        self._installations.pop(key, None)  # re-insert so the newest save is also the last on ties
        self._installations[key] = self._row(installation)
        bot = installation.to_bot()
        if bot is not None:
            await self.save_bot(bot)

    async def save_bot(self, bot: BotRecord) -> None:
        self._bots[(bot.enterprise_id or "", bot.team_id or "")] = self._row(bot)

    async def find_bot(self, *, enterprise_id: str | None, team_id: str | None) -> BotRecord | None:
        return self._load(BotRecord, self._bots.get((enterprise_id or "", team_id or "")))

    async def find_installation(
        self, *, enterprise_id: str | None, team_id: str | None, user_id: str | None = None
    ) -> InstallationRecord | None:
        matches = self._installation_keys(enterprise_id=enterprise_id, team_id=team_id, user_id=user_id)
        if not matches:
            return None
        # Latest installed_at wins; on a tie the later save (later in insertion order) wins, as in SQLite.
        position = {key: index for index, key in enumerate(self._installations)}
        best = max(matches, key=lambda key: (self._installations[key]["installed_at"], position[key]))
        return self._load(InstallationRecord, self._installations[best])

    async def delete_bot(self, *, enterprise_id: str | None, team_id: str | None) -> None:
        self._bots.pop((enterprise_id or "", team_id or ""), None)

    async def delete_installation(
        self, *, enterprise_id: str | None, team_id: str | None, user_id: str | None = None
    ) -> None:
        for key in self._installation_keys(enterprise_id=enterprise_id, team_id=team_id, user_id=user_id):
            del self._installations[key]

    def _installation_keys(
        self, *, enterprise_id: str | None, team_id: str | None, user_id: str | None
    ) -> list[tuple[str, str, str]]:
        wanted = (enterprise_id or "", team_id or "")
        return [key for key in self._installations if key[:2] == wanted and (user_id is None or key[2] == user_id)]

    async def issue_oauth_state(self, state: str, *, expires_at: datetime) -> None:
        self._oauth_states[state] = encode_time(expires_at)

    async def consume_oauth_state(self, state: str, *, now: datetime) -> bool:
        expires_at = self._oauth_states.pop(state, None)
        return expires_at is not None and expires_at > encode_time(now)
