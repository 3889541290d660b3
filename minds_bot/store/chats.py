"""Chat threads (``/minds chat``): the Slack thread that talks to one Mind, and its Minds chat id across restarts.

Owns the store contract for them (``ChatStore``, part of ``Store``) and its two implementations: ``SqlChats``
(table ``chat_threads``) and ``MemoryChats``. An idle thread is closed once, whoever else closes at the same
moment. Must not call Slack or Minds.
"""

from __future__ import annotations

from abc import abstractmethod
from datetime import datetime
from typing import Protocol

from minds_bot.store.codec import Row, encode_time, from_row
from minds_bot.store.records import ChatThread
from minds_bot.store.session import Session, SqlSection
from minds_bot.store.twin import MemorySection


class ChatStore(Protocol):
    """Chat threads by (team, channel, thread_ts): turns recorded, idle ones closed once."""

    @abstractmethod
    async def save_chat_thread(self, thread: ChatThread) -> ChatThread:
        """Upsert by (team, channel, thread_ts); keeps created_at, stamps updated_at."""

    @abstractmethod
    async def get_chat_thread(self, *, team_id: str, channel_id: str, thread_ts: str) -> ChatThread | None: ...

    @abstractmethod
    async def touch_chat_thread(self, *, team_id: str, channel_id: str, thread_ts: str, at: datetime) -> bool:
        """Record a turn at `at` in an open thread; False when the thread is unknown or closed."""

    @abstractmethod
    async def close_idle_chat_threads(self, *, idle_since: datetime) -> list[ChatThread]:
        """Close every open thread whose last turn was before `idle_since` and return them, closed; each
        thread is returned to exactly one caller, across processes (it is then posted about once)."""


class SqlChats(SqlSection, ChatStore):
    """The statements for SQLite and PostgreSQL (composed into ``SqlStore``)."""

    async def save_chat_thread(self, thread: ChatThread) -> ChatThread:
        now = self._clock()
        async with self._tx() as q:
            old = await _get_chat_thread(q, team_id=thread.team_id, channel_id=thread.channel_id, ts=thread.thread_ts)
            created = from_row(ChatThread, old, self._box).created_at if old is not None else now
            stored = thread.model_copy(update={"created_at": created, "updated_at": now})
            await q.insert("chat_threads", self._row(stored), conflict="replace")
        return stored

    async def get_chat_thread(self, *, team_id: str, channel_id: str, thread_ts: str) -> ChatThread | None:
        async with self._read() as q:
            row = await _get_chat_thread(q, team_id=team_id, channel_id=channel_id, ts=thread_ts)
        return None if row is None else from_row(ChatThread, row, self._box)

    async def touch_chat_thread(self, *, team_id: str, channel_id: str, thread_ts: str, at: datetime) -> bool:
        async with self._tx() as q:
            changed = await q.run(
                "UPDATE chat_threads SET last_activity_at = ?, updated_at = ? "
                "WHERE team_id = ? AND channel_id = ? AND thread_ts = ? AND closed_at IS NULL",
                (encode_time(at), self._now(), team_id, channel_id, thread_ts),
            )
        return changed == 1

    async def close_idle_chat_threads(self, *, idle_since: datetime) -> list[ChatThread]:
        """Close each idle thread once, whoever else closes at the same moment: the rows are locked while read
        (PostgreSQL) or read inside a single-writer transaction (SQLite)."""
        now = self._now()
        async with self._tx() as q:
            rows = await q.all(_IDLE_CHATS + q.lock_rows, (encode_time(idle_since),))
            for row in rows:
                await q.run(
                    "UPDATE chat_threads SET closed_at = ?, updated_at = ? "
                    "WHERE team_id = ? AND channel_id = ? AND thread_ts = ?",
                    (now, now, row["team_id"], row["channel_id"], row["thread_ts"]),
                )
        closed = {"closed_at": self._clock(), "updated_at": self._clock()}
        return [from_row(ChatThread, row, self._box).model_copy(update=closed) for row in rows]


_IDLE_CHATS = "SELECT * FROM chat_threads WHERE closed_at IS NULL AND last_activity_at < ? ORDER BY last_activity_at"


async def _get_chat_thread(q: Session, *, team_id: str, channel_id: str, ts: str) -> Row | None:
    return await q.one(
        "SELECT * FROM chat_threads WHERE team_id = ? AND channel_id = ? AND thread_ts = ?", (team_id, channel_id, ts)
    )


class MemoryChats(MemorySection, ChatStore):
    """The in-memory twin (composed into ``MemoryStore``); each method is one uninterrupted step on the event loop."""

    _chats: dict[tuple[str, str, str], Row]

    async def save_chat_thread(self, thread: ChatThread) -> ChatThread:
        key = (thread.team_id, thread.channel_id, thread.thread_ts)
        old = self._load(ChatThread, self._chats.get(key))
        now = self._clock()
        stored = thread.model_copy(update={"created_at": old.created_at if old else now, "updated_at": now})
        self._chats[key] = self._row(stored)
        return stored

    async def get_chat_thread(self, *, team_id: str, channel_id: str, thread_ts: str) -> ChatThread | None:
        return self._load(ChatThread, self._chats.get((team_id, channel_id, thread_ts)))

    async def touch_chat_thread(self, *, team_id: str, channel_id: str, thread_ts: str, at: datetime) -> bool:
        row = self._chats.get((team_id, channel_id, thread_ts))
        if row is None or row["closed_at"] is not None:
            return False
        self._chats[(team_id, channel_id, thread_ts)] = {
            **row,
            "last_activity_at": encode_time(at),
            "updated_at": self._now(),
        }
        return True

    async def close_idle_chat_threads(self, *, idle_since: datetime) -> list[ChatThread]:
        cutoff, now = encode_time(idle_since), self._now()
        idle = [k for k, r in self._chats.items() if r["closed_at"] is None and r["last_activity_at"] < cutoff]
        idle.sort(key=lambda k: self._chats[k]["last_activity_at"])
        for key in idle:
            self._chats[key] = {**self._chats[key], "closed_at": now, "updated_at": now}
        return [from_row(ChatThread, self._chats[key], self._box) for key in idle]
