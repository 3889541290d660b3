"""Everything the sandbox knows, as JSON-ready records, and the SQLite snapshot store that keeps it
across restarts.

Owns: ``SandboxState`` (collections of plain records keyed by id) and ``SnapshotStore``. Records are plain
dicts because they are the wire shapes plus bookkeeping; handlers and the engine own their meaning.
Must not touch HTTP or clocks. API keys never enter the state: only their fingerprints do.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from minds_sandbox.ids import stable_id

Record = dict[str, Any]
SNAPSHOT_FORMAT = 1


@dataclass
class SandboxState:
    seed: int
    counter: int = 0
    minds: dict[str, Record] = field(default_factory=dict)
    audiences: dict[str, Record] = field(default_factory=dict)
    studies: dict[str, Record] = field(default_factory=dict)
    plans: dict[str, Record] = field(default_factory=dict)
    plan_ops: dict[str, Record] = field(default_factory=dict)  # "<studyId>:<Idempotency-Key>" -> preparation
    runs: dict[str, Record] = field(default_factory=dict)
    run_requests: dict[str, Record] = field(default_factory=dict)  # idempotency scope -> {runId, bodyHash}
    exports: dict[str, Record] = field(default_factory=dict)
    files: dict[str, Record] = field(default_factory=dict)
    brief_jobs: dict[str, Record] = field(default_factory=dict)
    duplicates: dict[str, Record] = field(default_factory=dict)  # "<kind>:<sourceId>:<key>" -> copy
    drafts: dict[str, Record] = field(default_factory=dict)
    templates: dict[str, Record] = field(default_factory=dict)
    chats: dict[str, Record] = field(default_factory=dict)
    profile_exports: dict[str, Record] = field(default_factory=dict)  # jobId -> job; "<kind>:<id>:<fmt>" -> cache
    uploads: dict[str, Record] = field(default_factory=dict)  # source-import URL -> {keyFp, name, sha256, size}
    usage: dict[str, int] = field(default_factory=dict)  # key fingerprint -> responses used
    allowance: int | None = None
    revision: int = 0  # bumped by every mutation so the store knows when a save is due

    def new_id(self, kind: str) -> str:
        """A fresh id that is still reproducible: the n-th id of a kind under a seed is always the same."""
        self.counter += 1
        return stable_id("sandbox", self.seed, kind, self.counter)

    def touch(self) -> None:
        self.revision += 1

    def to_json(self) -> str:
        return json.dumps({"format": SNAPSHOT_FORMAT, "state": dataclasses.asdict(self)}, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> SandboxState:
        body = json.loads(text)
        if body.get("format") != SNAPSHOT_FORMAT:
            raise ValueError(f"unsupported sandbox snapshot format {body.get('format')!r}")
        return cls(**body["state"])


class SnapshotStore:
    """One row holding the latest JSON snapshot; written in a transaction off the event loop."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._lock = asyncio.Lock()
        self._saved_revision = -1

    async def load(self) -> SandboxState | None:
        text = await asyncio.to_thread(self._read)
        if text is None:
            return None
        state = SandboxState.from_json(text)
        self._saved_revision = state.revision
        return state

    async def save_if_changed(self, state: SandboxState) -> None:
        async with self._lock:
            if state.revision == self._saved_revision:
                return
            revision, text = state.revision, state.to_json()
            await asyncio.to_thread(self._write, text)
            self._saved_revision = revision

    def _connect(self) -> sqlite3.Connection:
        self._path.parent.mkdir(parents=True, exist_ok=True)
        connection = sqlite3.connect(self._path)
        connection.execute("CREATE TABLE IF NOT EXISTS snapshot (id INTEGER PRIMARY KEY CHECK (id = 1), body TEXT)")
        return connection

    def _read(self) -> str | None:
        connection = self._connect()
        try:
            row = connection.execute("SELECT body FROM snapshot WHERE id = 1").fetchone()
            return row[0] if row else None
        finally:
            connection.close()

    def _write(self, text: str) -> None:
        connection = self._connect()
        try:
            with connection:
                connection.execute("INSERT OR REPLACE INTO snapshot (id, body) VALUES (1, ?)", (text,))
        finally:
            connection.close()
