"""`PostgresStore`: the `Store` on PostgreSQL through an asyncpg pool, for several bot replicas on one database.

Owns the pool, translating the shared statements (sql.py, `?` placeholders) to PostgreSQL's (`$1`), upserts
by each table's key, row locks for claims (`FOR UPDATE`; `FOR UPDATE SKIP LOCKED` where replicas compete for
work, so none waits for another), the advisory lock that keeps housekeeping to one replica at a time, the
shared Minds budget (it is the Minds client's `BudgetLedger`, structurally: `budget_take` counts a request in one
round-trip, `budget_recent`, `budget_block`; budgets are named by a hash, never a key), and applying
`PG_MIGRATIONS` under an advisory lock (replicas starting together migrate once). The budget's tables and its
counting function `minds_budget_take` (PL/pgSQL) are in minds_budget.sql, next to this module, applied by
migration 15 (migrations.py). Every operation
is one statement or one short READ COMMITTED transaction on a pooled connection.

Errors reaching the server (bad URL, refused connection, wrong password, missing database) become one
`StoreUnavailableError` that names the server by `redact_url` — never the password; so does every operation that
loses the server afterwards (`_lost`: refused or dropped connections, timeouts, the server shutting down or out of
resources, a read-only standby): callers see the store's own error, never a raw `OSError` or asyncpg error.
Must not call Slack or Minds, and never writes a plaintext secret (codec.py seals them first).
"""

from __future__ import annotations

import functools
import itertools
import re
import zlib
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Unpack
from urllib.parse import urlsplit, urlunsplit

from minds_bot.store.base import RetentionPolicy
from minds_bot.store.codec import Row, encode_time
from minds_bot.store.errors import SchemaTooNewError, StoreUnavailableError
from minds_bot.store.leases import DEFAULT_CLAIM_LEASE
from minds_bot.store.migrations import PG_MIGRATIONS, Migration
from minds_bot.store.records import Clock, utc_now
from minds_bot.store.secrets import SecretBox
from minds_bot.store.session import Conflict
from minds_bot.store.sql import SqlStore, SqlStoreOptions

if TYPE_CHECKING:
    import asyncpg

DEFAULT_POOL_SIZE = 10
CONNECT_TIMEOUT_SECONDS = 10.0
URL_SCHEMES = ("postgresql", "postgres")
MIGRATION_LOCK = "migrations"

# The key each upserted table is replaced by (its primary key or unique index).
_UPSERT_KEYS: dict[str, tuple[str, ...]] = {
    "installations": ("enterprise_key", "team_key", "user_id"),
    "bots": ("enterprise_key", "team_key"),
    "oauth_states": ("state",),
    "workspaces": ("team_id",),
    "plan_posts": ("team_id", "channel_id", "message_ts"),
    "digests": ("digest_id",),
    "chat_threads": ("team_id", "channel_id", "thread_ts"),
    "channel_policies": ("team_id", "channel_id", "action"),
}
_INSERTION_ORDERED = frozenset({"installations", "plan_posts"})  # their `seq` is renewed by each upsert


def _driver() -> Any:
    """asyncpg, imported when PostgreSQL is first used: a bot on SQLite never loads it."""
    import asyncpg

    return asyncpg


def _unreachable() -> tuple[type[BaseException], ...]:
    """What asyncpg raises when the server cannot be reached or refuses us: all mean "unavailable"."""
    driver = _driver()
    return (OSError, TimeoutError, driver.PostgresError, driver.InterfaceError, driver.InternalClientError, ValueError)


def _lost() -> tuple[type[BaseException], ...]:
    """What an operation on a pooled connection raises when the server went away, is restarting, shutting down,
    out of resources or read-only (a standby after a failover): all mean "unavailable now, try again later".
    Errors in a statement itself (a constraint, bad SQL) are not among them: those are the bot's own."""
    driver = _driver()
    return (
        OSError,
        TimeoutError,
        driver.InterfaceError,  # the pool or connection is closed
        driver.InternalClientError,  # the connection is stuck mid-operation (an earlier one cut by the outage)
        driver.PostgresConnectionError,  # class 08, and a connection closed in the middle of an operation
        driver.exceptions.OperatorInterventionError,  # 57: admin or crash shutdown, cannot connect now, cancelled
        driver.exceptions.InsufficientResourcesError,  # 53: too many connections, disk full, out of memory
        driver.exceptions.PostgresSystemError,  # 58: I/O error
        driver.exceptions.ReadOnlySQLTransactionError,  # 25006: a standby cannot take writes
    )


def redact_url(url: str) -> str:
    """The URL with its password replaced by ***, safe for logs and messages."""
    try:
        parts = urlsplit(url)
        if parts.password is None:
            return url
        netloc = parts.netloc.rsplit("@", 1)
        user = (parts.username or "") + ":***"
        return urlunsplit(parts._replace(netloc=f"{user}@{netloc[-1]}"))
    except ValueError:
        return "(an unparseable URL)"


def lock_key(name: str) -> int:
    """A stable 32-bit advisory lock key for a lock name (the same on every replica)."""
    return zlib.crc32(f"minds-bot:{name}".encode())


@functools.lru_cache(maxsize=1024)
def numbered(sql: str) -> str:
    """`?` placeholders to PostgreSQL's `$1, $2, …` (the shared statements contain no literal `?`)."""
    counter = itertools.count(1)
    return re.sub(r"\?", lambda _: f"${next(counter)}", sql)


def _changed(status: str) -> int:
    """Rows changed, from a command status such as "UPDATE 3" or "INSERT 0 1"."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class _Session:
    """Statements on one pooled connection (a `sql.Session`)."""

    lock_rows = " FOR UPDATE"
    skip_locked = " FOR UPDATE SKIP LOCKED"
    insertion_order = "seq"

    def __init__(self, conn: asyncpg.Connection) -> None:
        self._conn = conn

    async def one(self, sql: str, params: Iterable[Any] = ()) -> asyncpg.Record | None:
        return await self._conn.fetchrow(numbered(sql), *params)

    async def all(self, sql: str, params: Iterable[Any] = ()) -> list[asyncpg.Record]:
        return list(await self._conn.fetch(numbered(sql), *params))

    async def run(self, sql: str, params: Iterable[Any] = ()) -> int:
        return _changed(await self._conn.execute(numbered(sql), *params))

    async def insert(self, table: str, row: Row, *, conflict: Conflict) -> int:
        columns = ", ".join(row)
        marks = ", ".join(f"${n}" for n in range(1, len(row) + 1))
        # Table and column names come from this package and the record models, never from input.
        sql = f"INSERT INTO {table} ({columns}) VALUES ({marks}) {_on_conflict(table, row, conflict)}"  # noqa: S608
        return _changed(await self._conn.execute(sql, *row.values()))

    async def try_exclusive(self, name: str) -> bool:
        return bool(await self._conn.fetchval("SELECT pg_try_advisory_xact_lock($1)", lock_key(name)))


def _on_conflict(table: str, row: Row, conflict: Conflict) -> str:
    if conflict == "ignore":
        return "ON CONFLICT DO NOTHING"
    keys = _UPSERT_KEYS[table]
    updates = [f"{column} = EXCLUDED.{column}" for column in row if column not in keys]
    if table in _INSERTION_ORDERED:
        updates.append("seq = DEFAULT")
    return f"ON CONFLICT ({', '.join(keys)}) DO UPDATE SET {', '.join(updates)}"


class PostgresStore(SqlStore):
    """Use `await PostgresStore.open(url, secrets=...)`; the constructor expects a migrated database's pool."""

    def __init__(self, pool: asyncpg.Pool, **options: Unpack[SqlStoreOptions]) -> None:
        super().__init__(**options)
        self._pool = pool

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        secrets: SecretBox,
        clock: Clock = utc_now,
        retention: RetentionPolicy | None = None,
        claim_lease: timedelta = DEFAULT_CLAIM_LEASE,
        pool_size: int = DEFAULT_POOL_SIZE,
        migrations: tuple[Migration, ...] = PG_MIGRATIONS,
    ) -> PostgresStore:
        """Connect and migrate. Raises `StoreUnavailableError` (password redacted) when the server cannot be
        used, `SchemaTooNewError` when a newer minds-bot migrated it."""
        pool = await connect_pool(url, size=pool_size)
        try:
            async with pool.acquire() as conn:
                version = await _migrate(conn, migrations=migrations, now=clock())
        except _unreachable() as exc:
            await pool.close()
            raise StoreUnavailableError(f"PostgreSQL at {redact_url(url)} failed: {_reason(exc)}") from None
        except BaseException:
            await pool.close()
            raise
        return cls(
            pool, secrets=secrets, clock=clock, retention=retention, claim_lease=claim_lease, schema_version=version
        )

    # -- plumbing --------------------------------------------------------------------------------------------
    @asynccontextmanager
    async def _read(self) -> AsyncIterator[_Session]:
        async with self._connection(transaction=False) as session:
            yield session

    @asynccontextmanager
    async def _tx(self) -> AsyncIterator[_Session]:
        async with self._connection(transaction=True) as session:
            yield session

    @asynccontextmanager
    async def _connection(self, *, transaction: bool) -> AsyncIterator[_Session]:
        """A pooled connection (in a transaction when asked). Not getting one for any reason (the pool reconnects
        a connection the server dropped: refused, wrong password, no such database …), or losing the server
        while using it (``_lost``), is a ``StoreUnavailableError``; a statement's own error is raised as it is."""
        conn: asyncpg.Connection | None = None
        try:
            async with self._pool.acquire() as conn:
                try:
                    if not transaction:
                        yield _Session(conn)
                        return
                    async with conn.transaction():
                        yield _Session(conn)
                except _lost():
                    conn.terminate()  # never handed out again: the pool makes a new one when the server is back
                    raise
        except _unreachable() as exc:
            if conn is not None and not isinstance(exc, _lost()):
                raise  # a constraint, bad SQL, a record that does not parse: the bot's error, not the server's
            raise StoreUnavailableError(f"the PostgreSQL store did not answer: {_reason(exc)}") from None

    # -- the Minds budget (a ``BudgetLedger`` of ``minds_bot.minds.policy``, shared by every replica; minds_budget.sql)
    async def budget_take(self, budget: str, *, caller: str, limit: int, window: float) -> float:
        """Count one request of ``budget`` (a hashed key name) when it fits the window: one round-trip."""
        async with self._read() as q:
            row = await q.one("SELECT minds_budget_take(?, ?, ?, ?) AS wait", (budget, caller, limit, window))
        assert row is not None
        return float(row["wait"])

    async def budget_recent(self, budget: str, *, window: float) -> list[tuple[float, str]]:
        """(seconds ago, caller) of the requests counted in the last ``window`` seconds, oldest first."""
        async with self._read() as q:
            rows = await q.all(
                "SELECT extract(epoch FROM clock_timestamp()) - sent_at AS age, caller FROM minds_budget_sends"
                " WHERE budget = ? AND sent_at > extract(epoch FROM clock_timestamp()) - ? ORDER BY sent_at",
                (budget, window),
            )
        return [(float(row["age"]), str(row["caller"])) for row in rows]

    async def budget_block(self, budget: str, *, seconds: float) -> None:
        """No request of ``budget`` for ``seconds`` from now, on any replica (Minds answered 429)."""
        async with self._read() as q:
            await q.run(
                "INSERT INTO minds_budgets (budget, blocked_until)"
                " VALUES (?, extract(epoch FROM clock_timestamp()) + ?) ON CONFLICT (budget) DO UPDATE"
                " SET blocked_until = greatest(minds_budgets.blocked_until, EXCLUDED.blocked_until)",
                (budget, seconds),
            )

    # -- lifecycle -------------------------------------------------------------------------------------------
    async def close(self) -> None:
        await self._pool.close()

    async def ping(self) -> None:
        async with self._read() as q:  # any failure to answer is a StoreUnavailableError (``_lost``)
            await q.one("SELECT 1")


async def connect_pool(url: str, *, size: int) -> asyncpg.Pool:
    """A pool of up to `size` connections, one made at once; `StoreUnavailableError` (password redacted) when none
    can be made.

    No floor (``min_size=0``; the first connection is made by hand and stays pooled): asyncpg restores a floor in a
    task of its own that logs a traceback on every retry while the server is down; the bot's loops report an outage
    in one line each instead (``store/health.py``)."""
    try:
        pool = await _driver().create_pool(
            url, min_size=0, max_size=max(size, 1), timeout=CONNECT_TIMEOUT_SECONDS, command_timeout=60
        )
    except _unreachable() as exc:
        raise StoreUnavailableError(f"cannot connect to PostgreSQL at {redact_url(url)}: {_reason(exc)}") from None
    try:
        async with pool.acquire():
            pass
    except _unreachable() as exc:
        await pool.close()
        raise StoreUnavailableError(f"cannot connect to PostgreSQL at {redact_url(url)}: {_reason(exc)}") from None
    except BaseException:
        await pool.close()
        raise
    return pool


async def schema_version_of(url: str) -> tuple[int, int]:
    """(version the database is at, latest this code knows), without changing anything; for `minds-bot check`."""
    try:
        conn = await _driver().connect(url, timeout=CONNECT_TIMEOUT_SECONDS)
    except _unreachable() as exc:
        raise StoreUnavailableError(f"cannot connect to PostgreSQL at {redact_url(url)}: {_reason(exc)}") from None
    try:
        exists = await conn.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
        current = await conn.fetchval("SELECT max(version) FROM schema_version") if exists else None
    except _unreachable() as exc:
        raise StoreUnavailableError(f"PostgreSQL at {redact_url(url)} failed: {_reason(exc)}") from None
    finally:
        await conn.close()
    return int(current or 0), len(PG_MIGRATIONS)


def _reason(exc: BaseException) -> str:
    """What went wrong, in the driver's words, which never carry the password."""
    detail = str(exc).strip()
    return f"{type(exc).__name__}: {detail}" if detail else type(exc).__name__


async def _migrate(conn: asyncpg.Connection, *, migrations: tuple[Migration, ...], now: datetime) -> int:
    """Apply each pending migration in its own transaction, under an advisory lock so replicas that start at
    the same moment apply it once."""
    while True:
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", lock_key(MIGRATION_LOCK))
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)"
            )
            current = int(await conn.fetchval("SELECT coalesce(max(version), 0) FROM schema_version"))
            if current > len(migrations):
                raise SchemaTooNewError(
                    f"database schema is version {current}, this minds-bot knows up to {len(migrations)}"
                )
            if current == len(migrations):
                return current
            for statement in migrations[current]:
                await conn.execute(statement)
            await conn.execute(
                "INSERT INTO schema_version (version, applied_at) VALUES ($1, $2)", current + 1, encode_time(now)
            )
