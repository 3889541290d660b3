"""Digests: scheduled summaries of a channel's studies, and the windows already posted.

Owns the store contract for them (``DigestStore``, part of ``Store``) and its two implementations: ``SqlDigests``
(tables ``digests``, ``digest_runs``) and ``MemoryDigests``. Each (digest, window) is claimed by exactly one
caller across processes, so a window is posted once. Must not call Slack or Minds.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Any, Protocol

from minds_bot.store.codec import Row, from_row
from minds_bot.store.errors import RecordNotFoundError
from minds_bot.store.records import Digest
from minds_bot.store.session import Session, SqlSection
from minds_bot.store.twin import MemorySection, require


class DigestStore(Protocol):
    """Digests by id and the once-only claim of each window."""

    @abstractmethod
    async def save_digest(self, digest: Digest) -> Digest: ...

    @abstractmethod
    async def get_digest(self, digest_id: str) -> Digest | None: ...

    @abstractmethod
    async def list_digests(self, *, team_id: str | None = None) -> list[Digest]:
        """Ordered by creation."""

    @abstractmethod
    async def delete_digest(self, digest_id: str) -> bool: ...

    @abstractmethod
    async def claim_digest_run(self, *, digest_id: str, window_key: str) -> bool:
        """True for exactly one caller per (digest, window), across processes."""

    @abstractmethod
    async def release_digest_run(self, *, digest_id: str, window_key: str) -> None:
        """Undo an unfinished claim after a failed post so the window can be retried."""

    @abstractmethod
    async def complete_digest_run(self, *, digest_id: str, window_key: str, watermark: str | None) -> Digest:
        """Mark the window posted; sets the digest's watermark and last_posted_at. Raises
        RecordNotFoundError."""


class SqlDigests(SqlSection, DigestStore):
    """The statements for SQLite and PostgreSQL (composed into ``SqlStore``)."""

    async def save_digest(self, digest: Digest) -> Digest:
        async with self._tx() as q:
            existing = await _get_digest(q, digest.digest_id)
            now = self._clock()
            created = from_row(Digest, existing, self._box).created_at if existing is not None else now
            stored = digest.model_copy(update={"created_at": created, "updated_at": now})
            await q.insert("digests", self._row(stored), conflict="replace")
        return stored

    async def get_digest(self, digest_id: str) -> Digest | None:
        async with self._read() as q:
            row = await _get_digest(q, digest_id)
        return None if row is None else from_row(Digest, row, self._box)

    async def list_digests(self, *, team_id: str | None = None) -> list[Digest]:
        where, params = ("", ()) if team_id is None else (" WHERE team_id = ?", (team_id,))
        async with self._read() as q:
            rows = await q.all(f"SELECT * FROM digests{where} ORDER BY created_at, digest_id", params)  # noqa: S608
        return [from_row(Digest, row, self._box) for row in rows]

    async def delete_digest(self, digest_id: str) -> bool:
        async with self._tx() as q:
            await q.run("DELETE FROM digest_runs WHERE digest_id = ?", (digest_id,))
            return await q.run("DELETE FROM digests WHERE digest_id = ?", (digest_id,)) == 1

    async def claim_digest_run(self, *, digest_id: str, window_key: str) -> bool:
        row = {
            "digest_id": digest_id,
            "window_key": window_key,
            "claimed_at": self._now(),
            "completed_at": None,
        }
        async with self._tx() as q:
            if await _get_digest(q, digest_id) is None:
                raise RecordNotFoundError(f"no digest {digest_id}")
            return await q.insert("digest_runs", row, conflict="ignore") == 1

    async def release_digest_run(self, *, digest_id: str, window_key: str) -> None:
        async with self._tx() as q:
            await q.run(
                "DELETE FROM digest_runs WHERE digest_id = ? AND window_key = ? AND completed_at IS NULL",
                (digest_id, window_key),
            )

    async def complete_digest_run(self, *, digest_id: str, window_key: str, watermark: str | None) -> Digest:
        now = self._now()
        async with self._tx() as q:
            claimed = await q.run(
                "UPDATE digest_runs SET completed_at = ? WHERE digest_id = ? AND window_key = ?",
                (now, digest_id, window_key),
            )
            await q.run(
                "UPDATE digests SET watermark = ?, last_posted_at = ?, updated_at = ? WHERE digest_id = ?",
                (watermark, now, now, digest_id),
            )
            row = await _get_digest(q, digest_id)
            if claimed == 0 or row is None:
                raise RecordNotFoundError(f"digest {digest_id} has no claimed window {window_key}")
        return from_row(Digest, row, self._box)


async def _get_digest(q: Session, digest_id: str) -> Any | None:
    return await q.one("SELECT * FROM digests WHERE digest_id = ?", (digest_id,))


class MemoryDigests(MemorySection, DigestStore):
    """The in-memory twin (composed into ``MemoryStore``); each method is one uninterrupted step on the event loop."""

    _digests: dict[str, Row]
    _digest_runs: dict[tuple[str, str], Row]

    async def save_digest(self, digest: Digest) -> Digest:
        existing = self._load(Digest, self._digests.get(digest.digest_id))
        now = self._clock()
        created = existing.created_at if existing is not None else now
        stored = digest.model_copy(update={"created_at": created, "updated_at": now})
        self._digests[digest.digest_id] = self._row(stored)
        return stored

    async def get_digest(self, digest_id: str) -> Digest | None:
        return self._load(Digest, self._digests.get(digest_id))

    async def list_digests(self, *, team_id: str | None = None) -> list[Digest]:
        rows = (row for row in self._digests.values() if team_id is None or row["team_id"] == team_id)
        return self._load_all(Digest, rows, order=lambda row: (row["created_at"], row["digest_id"]))

    async def delete_digest(self, digest_id: str) -> bool:
        for key in [key for key in self._digest_runs if key[0] == digest_id]:
            del self._digest_runs[key]
        return self._digests.pop(digest_id, None) is not None

    async def claim_digest_run(self, *, digest_id: str, window_key: str) -> bool:
        require(self._digests, digest_id, what="digest")
        key = (digest_id, window_key)
        if key in self._digest_runs:
            return False
        self._digest_runs[key] = {"claimed_at": self._now(), "completed_at": None}
        return True

    async def release_digest_run(self, *, digest_id: str, window_key: str) -> None:
        run = self._digest_runs.get((digest_id, window_key))
        if run is not None and run["completed_at"] is None:
            del self._digest_runs[(digest_id, window_key)]

    async def complete_digest_run(self, *, digest_id: str, window_key: str, watermark: str | None) -> Digest:
        run = self._digest_runs.get((digest_id, window_key))
        digest = self._digests.get(digest_id)
        if run is None or digest is None:
            raise RecordNotFoundError(f"digest {digest_id} has no claimed window {window_key}")
        now = self._now()
        run["completed_at"] = now
        digest.update(watermark=watermark, last_posted_at=now, updated_at=now)
        return from_row(Digest, digest, self._box)
