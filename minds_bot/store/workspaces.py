"""Workspaces and approvers: a team's Minds connection and settings, and who may approve runs in a channel.

Owns the store contract for them (``WorkspaceStore``, part of ``Store``) and its two implementations:
``SqlWorkspaces`` (tables ``workspaces``, ``approvers``) and ``MemoryWorkspaces``. The Minds key is sealed before
it is written (codec.py). Must not call Slack or Minds.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Protocol

from minds_bot.store.codec import Row, from_row
from minds_bot.store.records import WorkspaceSettings
from minds_bot.store.session import SqlSection
from minds_bot.store.twin import MemorySection


class WorkspaceStore(Protocol):
    """A team's settings (its Minds key among them) and each channel's named approvers."""

    @abstractmethod
    async def save_workspace(self, settings: WorkspaceSettings) -> WorkspaceSettings:
        """Upsert by team; returns the stored record (updated_at stamped)."""

    @abstractmethod
    async def get_workspace(self, team_id: str) -> WorkspaceSettings | None: ...

    @abstractmethod
    async def delete_workspace(self, team_id: str) -> bool: ...

    @abstractmethod
    async def add_approver(self, *, team_id: str, channel_id: str, user_id: str) -> bool:
        """True when newly added, False when already an approver."""

    @abstractmethod
    async def remove_approver(self, *, team_id: str, channel_id: str, user_id: str) -> bool:
        """True when removed, False when the user was not an approver."""

    @abstractmethod
    async def list_approvers(self, *, team_id: str, channel_id: str) -> list[str]:
        """User ids, sorted."""


class SqlWorkspaces(SqlSection, WorkspaceStore):
    """The statements for SQLite and PostgreSQL (composed into ``SqlStore``)."""

    async def save_workspace(self, settings: WorkspaceSettings) -> WorkspaceSettings:
        stored = settings.model_copy(update={"updated_at": self._clock()})
        async with self._tx() as q:
            await q.insert("workspaces", self._row(stored), conflict="replace")
        return stored

    async def get_workspace(self, team_id: str) -> WorkspaceSettings | None:
        async with self._read() as q:
            row = await q.one("SELECT * FROM workspaces WHERE team_id = ?", (team_id,))
        return None if row is None else from_row(WorkspaceSettings, row, self._box)

    async def delete_workspace(self, team_id: str) -> bool:
        async with self._tx() as q:
            return await q.run("DELETE FROM workspaces WHERE team_id = ?", (team_id,)) == 1

    async def add_approver(self, *, team_id: str, channel_id: str, user_id: str) -> bool:
        row = {"team_id": team_id, "channel_id": channel_id, "user_id": user_id, "added_at": self._now()}
        async with self._tx() as q:
            return await q.insert("approvers", row, conflict="ignore") == 1

    async def remove_approver(self, *, team_id: str, channel_id: str, user_id: str) -> bool:
        async with self._tx() as q:
            changed = await q.run(
                "DELETE FROM approvers WHERE team_id = ? AND channel_id = ? AND user_id = ?",
                (team_id, channel_id, user_id),
            )
        return changed == 1

    async def list_approvers(self, *, team_id: str, channel_id: str) -> list[str]:
        async with self._read() as q:
            rows = await q.all(
                "SELECT user_id FROM approvers WHERE team_id = ? AND channel_id = ? ORDER BY user_id",
                (team_id, channel_id),
            )
        return [row["user_id"] for row in rows]


class MemoryWorkspaces(MemorySection, WorkspaceStore):
    """The in-memory twin (composed into ``MemoryStore``); each method is one uninterrupted step on the event loop."""

    _workspaces: dict[str, Row]
    _approvers: dict[tuple[str, str], set[str]]

    async def save_workspace(self, settings: WorkspaceSettings) -> WorkspaceSettings:
        stored = settings.model_copy(update={"updated_at": self._clock()})
        self._workspaces[settings.team_id] = self._row(stored)
        return stored

    async def get_workspace(self, team_id: str) -> WorkspaceSettings | None:
        return self._load(WorkspaceSettings, self._workspaces.get(team_id))

    async def delete_workspace(self, team_id: str) -> bool:
        return self._workspaces.pop(team_id, None) is not None

    async def add_approver(self, *, team_id: str, channel_id: str, user_id: str) -> bool:
        users = self._approvers.setdefault((team_id, channel_id), set())
        if user_id in users:
            return False
        users.add(user_id)
        return True

    async def remove_approver(self, *, team_id: str, channel_id: str, user_id: str) -> bool:
        users = self._approvers.get((team_id, channel_id), set())
        if user_id not in users:
            return False
        users.discard(user_id)
        return True

    async def list_approvers(self, *, team_id: str, channel_id: str) -> list[str]:
        return sorted(self._approvers.get((team_id, channel_id), set()))
