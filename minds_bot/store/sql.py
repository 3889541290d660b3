"""`SqlStore`: every statement of the `Store` contract, shared by `SqliteStore` and `PostgresStore`.

Owns composing the sections' SQL halves (``SqlInstalls`` … ``SqlRunNotices``, each in the module of the state it
owns: base.py lists them) into one store, the lifecycle's statements (secret rotation, pruning under the
housekeeping lock) and timing every operation. Each engine supplies a `Session` (session.py: statements with `?`
placeholders, an engine's upsert, its row-locking suffixes and its exclusive-work lock) and the `_read` / `_tx`
context managers; nothing here or in a section knows which engine runs it, so no behaviour differs by engine.
Claims are single conditional writes, or a locked read followed by writes in one transaction: SQLite's
`BEGIN IMMEDIATE` makes the whole transaction single-writer, PostgreSQL locks the rows it read
(`FOR UPDATE`, `FOR UPDATE SKIP LOCKED` for leases). Must not call Slack or Minds, and never writes a plaintext
secret (codec.py seals them first). Every public operation is timed by name, and a claim that takes work over from
a replica whose lease ran out is counted (``minds_bot.metrics``, leases.py).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any, TypedDict, TypeVar, Unpack

from minds_bot import metrics
from minds_bot.store.asks import SqlAsks
from minds_bot.store.base import TERMINAL_CLAIM_LEASES, PruneCounts, RetentionPolicy, Store
from minds_bot.store.chats import SqlChats
from minds_bot.store.codec import encode_time, secret_fields
from minds_bot.store.digests import SqlDigests
from minds_bot.store.exports import SqlExports
from minds_bot.store.installs import SqlInstalls
from minds_bot.store.keys import SqlDeliveries, SqlKeyedRequests
from minds_bot.store.notices import SqlRunNotices
from minds_bot.store.plans import SqlPlans
from minds_bot.store.records import (
    FINISHED_EXPORT_STATES,
    BotRecord,
    Clock,
    InstallationRecord,
    Record,
    WorkspaceSettings,
)
from minds_bot.store.runs import SqlRuns
from minds_bot.store.secrets import SecretBox
from minds_bot.store.session import Conflict, Session, SqlSection
from minds_bot.store.spends import SqlSpends
from minds_bot.store.workspaces import SqlWorkspaces

__all__ = ["PRUNE_LOCK", "Conflict", "Session", "SqlStore", "SqlStoreOptions"]

PRUNE_LOCK = "prune"  # the name of the exclusive work lock housekeeping takes

_SECRET_TABLES: Mapping[str, type[Record]] = {
    "workspaces": WorkspaceSettings,
    "installations": InstallationRecord,
    "bots": BotRecord,
}


class SqlStoreOptions(TypedDict):
    """What an engine's store is made with, once ``open`` has connected and migrated."""

    secrets: SecretBox
    clock: Clock
    retention: RetentionPolicy | None  # None: the defaults
    claim_lease: timedelta
    schema_version: int  # the migrated database's


T = TypeVar("T", bound=type)


def _timed_operations(cls: T) -> T:
    """Every public operation of the store (its own and its sections') timed by name in
    ``minds_bot.metrics.store_seconds``: the one place store latency is measured, waits for the write lock or a
    pooled connection included."""
    for name in dir(cls):
        operation = inspect.getattr_static(cls, name)
        if name.startswith("_") or not inspect.iscoroutinefunction(operation):
            continue
        owner = next(klass for klass in cls.__mro__ if name in vars(klass))
        if issubclass(owner, SqlSection):
            setattr(cls, name, _timed(operation, name))
    return cls


def _timed(operation: Any, name: str) -> Any:
    @functools.wraps(operation)
    async def timed(*args: Any, **kwargs: Any) -> Any:
        with metrics.store_seconds.time(name):
            return await operation(*args, **kwargs)

    return timed


@_timed_operations
class SqlStore(
    SqlInstalls,
    SqlWorkspaces,
    SqlPlans,
    SqlRuns,
    SqlAsks,
    SqlKeyedRequests,
    SqlDeliveries,
    SqlExports,
    SqlDigests,
    SqlChats,
    SqlSpends,
    SqlRunNotices,
    Store,
):
    """The shared statements. Subclasses open the engine and provide `_read`, `_tx` and the lifecycle."""

    def __init__(self, **options: Unpack[SqlStoreOptions]) -> None:
        self._box = options["secrets"]
        self._clock = options["clock"]
        self._retention = options["retention"] or RetentionPolicy()
        self._lease = options["claim_lease"]
        self._post_lease = self._lease * TERMINAL_CLAIM_LEASES
        self._version = options["schema_version"]

    # -- lifecycle -------------------------------------------------------------------------------------------
    @property
    def schema_version(self) -> int:
        return self._version

    async def rotate_secrets(self) -> int:
        rewritten = 0
        async with self._tx() as q:
            for table, model in _SECRET_TABLES.items():
                for column in secret_fields(model):
                    rewritten += await self._rotate_column(q, table=table, column=column)
        return rewritten

    async def _rotate_column(self, q: Session, *, table: str, column: str) -> int:
        # Each Fernet token is unique (random IV), so the old token names its row on either engine.
        rows = await q.all(f"SELECT {column} FROM {table} WHERE {column} IS NOT NULL{q.lock_rows}")  # noqa: S608
        for (token,) in rows:
            await q.run(f"UPDATE {table} SET {column} = ? WHERE {column} = ?", (self._box.rotate(token), token))  # noqa: S608
        return len(rows)

    async def prune(self, now: datetime) -> PruneCounts:
        seen_cutoff = encode_time(now - self._retention.deliveries)
        done_cutoff = encode_time(now - self._retention.finished)
        finished_exports = tuple(state.value for state in FINISHED_EXPORT_STATES)
        async with self._tx() as q:
            if not await q.try_exclusive(PRUNE_LOCK):
                return PruneCounts(skipped=True)  # another replica is pruning right now
            return PruneCounts(
                deliveries=await q.run("DELETE FROM deliveries WHERE seen_at < ?", (seen_cutoff,)),
                runs=await q.run(
                    "DELETE FROM tracked_runs WHERE terminal_posted = 1 AND finished_at < ?", (done_cutoff,)
                ),
                direct_asks=await q.run(
                    "DELETE FROM direct_asks WHERE run_id IS NOT NULL AND updated_at < ?", (done_cutoff,)
                ),
                exports=await q.run(
                    "DELETE FROM exports WHERE state IN (?, ?) AND updated_at < ?",
                    (*finished_exports, done_cutoff),
                ),
                digest_runs=await q.run("DELETE FROM digest_runs WHERE claimed_at < ?", (done_cutoff,)),
                oauth_states=await q.run("DELETE FROM oauth_states WHERE expires_at <= ?", (encode_time(now),)),
            )
