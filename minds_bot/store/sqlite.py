"""`SqliteStore`: the embedded `Store` on aiosqlite (the default when no PostgreSQL URL is configured).

Owns the connection, WAL mode, the busy timeout and applying the migrations; the statements themselves are
`SqlStore`'s (sql.py), shared with PostgreSQL. One aiosqlite connection per store; an asyncio lock keeps each
operation (a single statement or one short `BEGIN IMMEDIATE` transaction) from interleaving with another
coroutine's on that connection, and every statement gets its own cursor. `BEGIN IMMEDIATE` makes every write
transaction single-writer across processes sharing the file, so a claim (a read then writes) is atomic without
row locks. Also owns the database files' mode: 0600, so only the bot's user reads the file, its WAL and
shared-memory index (also when they existed before with wider permissions). A file SQLite cannot use for an
operation (locked beyond the busy timeout, an I/O error, a full disk, gone or unreadable) or a closed store is a
`StoreUnavailableError`, never a raw `sqlite3` error; a statement's own error (a constraint) is raised as it is.
Must not call Slack or Minds.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Unpack

import aiosqlite

from minds_bot.store.base import RetentionPolicy
from minds_bot.store.codec import Row, encode_time
from minds_bot.store.errors import SchemaTooNewError, StoreUnavailableError
from minds_bot.store.leases import DEFAULT_CLAIM_LEASE
from minds_bot.store.migrations import MIGRATIONS, Migration
from minds_bot.store.records import Clock, utc_now
from minds_bot.store.secrets import SecretBox
from minds_bot.store.session import Conflict
from minds_bot.store.sql import SqlStore, SqlStoreOptions

BUSY_TIMEOUT_SECONDS = 5.0  # how long a writer waits for another process's transaction before failing
WAL_RETRY_FIRST_DELAY_SECONDS = 0.01
MEMORY_PATH = ":memory:"
# The database holds encrypted keys and all research state: nobody but the bot's user reads it.
FILE_MODE = 0o600
SIDE_FILE_SUFFIXES = ("-wal", "-shm", "-journal")
_CONFLICT = {"replace": "OR REPLACE", "ignore": "OR IGNORE"}


class _Session:
    """Statements on one connection, each with its own cursor (a `sql.Session`)."""

    lock_rows = ""  # BEGIN IMMEDIATE already holds the file's write lock for the whole transaction
    skip_locked = ""
    insertion_order = "rowid"  # INSERT OR REPLACE deletes and re-inserts: the newest save has the highest rowid

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def one(self, sql: str, params: Iterable[Any] = ()) -> sqlite3.Row | None:
        async with self._conn.execute(sql, tuple(params)) as cursor:
            return await cursor.fetchone()

    async def all(self, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]:
        async with self._conn.execute(sql, tuple(params)) as cursor:
            return list(await cursor.fetchall())

    async def run(self, sql: str, params: Iterable[Any] = ()) -> int:
        """Execute a write; returns the number of rows it changed."""
        async with self._conn.execute(sql, tuple(params)) as cursor:
            return cursor.rowcount

    async def script(self, sql: str) -> None:
        """Run several statements in one call (the schema's migrations; never text from outside)."""
        await self._conn.executescript(sql)

    @property
    def in_transaction(self) -> bool:
        return self._conn.in_transaction

    async def insert(self, table: str, row: Row, *, conflict: Conflict) -> int:
        columns = ", ".join(row)
        marks = ", ".join("?" for _ in row)
        # Table and column names come from this package and the record models, never from input.
        sql = f"INSERT {_CONFLICT[conflict]} INTO {table} ({columns}) VALUES ({marks})"  # noqa: S608
        return await self.run(sql, row.values())

    async def try_exclusive(self, name: str) -> bool:
        return True  # the immediate transaction is already the only writer


class SqliteStore(SqlStore):
    """Use `await SqliteStore.open(path, secrets=...)`; the constructor expects a migrated connection."""

    def __init__(self, conn: aiosqlite.Connection, **options: Unpack[SqlStoreOptions]) -> None:
        super().__init__(**options)
        self._conn = conn
        self._lock = asyncio.Lock()
        self._closed = False

    @classmethod
    async def open(
        cls,
        path: str | None,
        *,
        secrets: SecretBox,
        clock: Clock = utc_now,
        retention: RetentionPolicy | None = None,
        claim_lease: timedelta = DEFAULT_CLAIM_LEASE,
        migrations: tuple[Migration, ...] = MIGRATIONS,
    ) -> SqliteStore:
        """Open (creating if needed) and migrate. `None` or ":memory:" gives a private in-memory database."""
        conn = await _connect(path or MEMORY_PATH)
        try:
            version = await _migrate(_Session(conn), migrations=migrations, now=clock())
        except BaseException:
            await conn.close()
            raise
        return cls(
            conn, secrets=secrets, clock=clock, retention=retention, claim_lease=claim_lease, schema_version=version
        )

    # -- plumbing --------------------------------------------------------------------------------------------
    @asynccontextmanager
    async def _read(self) -> AsyncIterator[_Session]:
        async with self._lock, self._usable():
            yield _Session(self._conn)

    @asynccontextmanager
    async def _tx(self) -> AsyncIterator[_Session]:
        async with self._lock, self._usable():
            session = _Session(self._conn)
            try:
                await session.run("BEGIN IMMEDIATE")
                yield session
                await session.run("COMMIT")
            except BaseException:
                # A cancelled await does not stop the statement: aiosqlite's thread still runs BEGIN (or COMMIT)
                # after the caller has gone. Queue a ROLLBACK behind it whatever `in_transaction` says right now,
                # shielded from a second cancel, or the connection stays inside a transaction holding the
                # file's write lock and every later write, here and in other processes, fails.
                await asyncio.shield(_rollback(self._conn))
                raise

    @asynccontextmanager
    async def _usable(self) -> AsyncIterator[None]:
        """The file cannot be used now (``sqlite3.OperationalError``: locked beyond the busy timeout, an I/O
        error, a full disk, a file gone or unreadable) or the store is closed: ``StoreUnavailableError``."""
        if self._closed:
            raise StoreUnavailableError("the SQLite store is closed")
        try:
            yield
        except sqlite3.OperationalError as exc:
            raise StoreUnavailableError(f"the SQLite store did not answer: {exc}") from None

    # -- lifecycle -------------------------------------------------------------------------------------------
    async def close(self) -> None:
        self._closed = True
        await self._conn.close()

    async def ping(self) -> None:
        try:
            async with self._read() as q:
                await q.one("SELECT 1")
        except (sqlite3.Error, ValueError) as exc:  # aiosqlite raises ValueError once closed
            raise StoreUnavailableError("the SQLite store did not answer") from exc


async def sqlite_schema_version(path: str) -> tuple[int, int]:
    """(version the file is at, latest this code knows), without creating or changing it; (0, latest) when the
    file does not exist yet."""
    uri = _read_only_uri(path)
    if uri is None:
        return 0, len(MIGRATIONS)
    try:
        async with aiosqlite.connect(uri, uri=True) as conn:
            async with conn.execute("SELECT name FROM sqlite_master WHERE name = 'schema_version'") as cursor:
                exists = await cursor.fetchone() is not None
            if not exists:
                return 0, len(MIGRATIONS)
            async with conn.execute("SELECT max(version) FROM schema_version") as cursor:
                row = await cursor.fetchone()
    except sqlite3.Error as exc:
        raise StoreUnavailableError(f"cannot read the SQLite file {path}: {exc}") from None
    return int(row[0] or 0) if row else 0, len(MIGRATIONS)


def _read_only_uri(path: str) -> str | None:
    if path == MEMORY_PATH or not Path(path).exists():
        return None
    return f"{Path(path).resolve().as_uri()}?mode=ro"


async def _rollback(conn: aiosqlite.Connection) -> None:
    """Roll back whatever transaction is open once the statements queued before this one have run."""
    with contextlib.suppress(sqlite3.OperationalError):  # "no transaction is active": it committed or never began
        await conn.execute("ROLLBACK")


async def _connect(path: str) -> aiosqlite.Connection:
    if path != MEMORY_PATH:
        await asyncio.to_thread(_owner_only, path)
    # isolation_level=None: we issue BEGIN IMMEDIATE / COMMIT ourselves, so transactions stay explicit.
    conn = await aiosqlite.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT_SECONDS)
    conn.row_factory = sqlite3.Row
    try:
        session = _Session(conn)
        await session.run(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_SECONDS * 1000)}")
        if path != MEMORY_PATH:
            await _enable_wal(session)
            await asyncio.to_thread(_owner_only, path)
    except BaseException:
        await conn.close()
        raise
    return conn


def _owner_only(path: str) -> None:
    """Create the database file readable by its owner alone, and make it (and its WAL and shared-memory index,
    when present) 0600 if it existed before with wider permissions."""
    os.close(os.open(path, os.O_RDWR | os.O_CREAT, FILE_MODE))
    for name in (path, *(path + suffix for suffix in SIDE_FILE_SUFFIXES)):
        with contextlib.suppress(FileNotFoundError):
            os.chmod(name, FILE_MODE)


async def _enable_wal(q: _Session) -> None:
    """Switch the file to WAL (a persistent property of the file, so normally a no-op).

    SQLite does not run the busy handler for this switch, so when two processes create a fresh file at the
    same moment one of them gets "database is locked": retry with a short backoff, within the busy timeout.
    """
    deadline = asyncio.get_running_loop().time() + BUSY_TIMEOUT_SECONDS
    delay = WAL_RETRY_FIRST_DELAY_SECONDS
    while True:
        try:
            await q.one("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError:
            if asyncio.get_running_loop().time() + delay > deadline:
                raise
        await asyncio.sleep(delay)
        delay = min(delay * 2, 0.5)


async def _migrate(q: _Session, *, migrations: tuple[Migration, ...], now: datetime) -> int:
    """Bring the file to the latest schema: every pending migration in one immediate transaction (all or
    none), sent as one script (one trip to the connection's thread, not one per statement). Safe if two
    processes start at once: the one that comes second fails on a table or a ``schema_version`` row that is
    already there, rolls back and finds the file migrated. An up-to-date file costs one read and no write lock."""
    await q.run("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)")
    current = _checked(await _current_version(q), migrations)
    if current == len(migrations):
        return current
    applied_at = encode_time(now)  # fixed-width digits and separators: safe inside the script
    script = ["BEGIN IMMEDIATE"]
    for version in range(current + 1, len(migrations) + 1):
        script += migrations[version - 1]
        script.append(f"INSERT INTO schema_version (version, applied_at) VALUES ({version}, '{applied_at}')")  # noqa: S608
    script.append("COMMIT")
    try:
        await q.script(";\n".join(script) + ";")
    except BaseException:
        if q.in_transaction:
            await q.run("ROLLBACK")
        if _checked(await _current_version(q), migrations) == len(migrations):
            return len(migrations)  # another process migrated the file first
        raise
    return len(migrations)


def _checked(current: int, migrations: tuple[Migration, ...]) -> int:
    if current > len(migrations):
        raise SchemaTooNewError(f"database schema is version {current}, this minds-bot knows up to {len(migrations)}")
    return current


async def _current_version(q: _Session) -> int:
    row = await q.one("SELECT max(version) AS version FROM schema_version")
    return 0 if row is None or row["version"] is None else int(row["version"])
