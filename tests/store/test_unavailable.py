"""A store that cannot be reached says so in one typed error, ``StoreUnavailableError``, never a raw ``OSError``,
asyncpg or sqlite3 error, so that everything above it (the Slack middleware, the error hook, the background loops)
has one thing to recognise. PostgreSQL is a real server of the test's own, stopped (a fast shutdown: the pool's
connections are cut mid-use) and started again: the same store answers again without being reopened, and asyncpg
logs no traceback meanwhile. A statement's own error (a constraint) stays what it is."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import AsyncIterator, Iterator

import asyncpg
import pytest

from minds_bot.store import PostgresStore, SecretBox, SqliteStore, Store, StoreUnavailableError
from minds_bot.store import sqlite as sqlite_module
from tests.pg_server import PgServer, PgUnavailable, start_own_server
from tests.store import factories
from tests.store.conftest import START, FakeClock


@pytest.fixture(scope="module")
def own_pg() -> Iterator[PgServer]:
    """A server this module halts and resumes (never the session's shared one)."""
    try:
        server = start_own_server()
    except PgUnavailable as exc:
        pytest.fail(f"PostgreSQL is required for this test: {exc}", pytrace=False)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
async def pg_store(own_pg: PgServer, box: SecretBox, clock: FakeClock) -> AsyncIterator[PostgresStore]:
    url = await own_pg.new_database()
    store = await PostgresStore.open(url, secrets=box, clock=clock)
    try:
        yield store
    finally:
        await store.close()


async def _every_kind_of_operation(store: Store) -> list[BaseException | None]:
    """A read, a write, a transaction with row locks, the budget ledger's call and the ping: what each raised."""
    calls = [
        lambda: store.get_workspace("T1"),
        lambda: store.mark_delivery("event:Ev-outage"),
        lambda: store.claim_due_runs(holder="replica-1", limit=5),
        lambda: store.list_digests(),
        store.ping,
    ]
    if isinstance(store, PostgresStore):
        calls.append(lambda: store.budget_take("budget", caller="U1", limit=10, window=60.0))
    raised: list[BaseException | None] = []
    for call in calls:
        try:
            await call()
        except BaseException as exc:  # noqa: BLE001 - what each raised is the assertion
            raised.append(exc)
        else:
            raised.append(None)
    return raised


async def test_postgres_down_is_store_unavailable_and_the_same_store_answers_once_it_is_back(
    own_pg: PgServer, pg_store: PostgresStore, caplog: pytest.LogCaptureFixture
) -> None:
    await pg_store.add_tracked_run(factories.tracked_run(due=START))
    assert await pg_store.mark_delivery("event:Ev-before")  # a pooled connection is open and in use
    own_pg.halt()
    try:
        with caplog.at_level(logging.DEBUG):
            first = await _every_kind_of_operation(pg_store)
            again = await _every_kind_of_operation(pg_store)
    finally:
        own_pg.resume()
    for raised in (*first, *again):
        assert isinstance(raised, StoreUnavailableError), repr(raised)
        assert "did not answer" in str(raised)
    assert [r for r in caplog.records if r.exc_info or r.name.startswith("asyncpg")] == []

    assert await pg_store.mark_delivery("event:Ev-after") is True  # no reopening: the pool reconnects
    assert [run.run_id for run in await pg_store.claim_due_runs(holder="replica-1", limit=5)] == ["run-1"]
    await pg_store.ping()


async def test_a_statement_error_on_postgres_is_not_an_outage(pg_store: PostgresStore) -> None:
    with pytest.raises(asyncpg.UndefinedTableError):
        async with pg_store._read() as q:  # a statement the store itself never sends
            await q.one("SELECT * FROM no_such_table")


async def test_a_closed_sqlite_store_is_unavailable_for_every_operation(db_path: str, box: SecretBox) -> None:
    store = await SqliteStore.open(db_path, secrets=box)
    await store.close()
    for raised in await _every_kind_of_operation(store):
        assert isinstance(raised, StoreUnavailableError), repr(raised)


async def test_a_sqlite_file_locked_beyond_the_busy_timeout_is_unavailable(
    db_path: str, box: SecretBox, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sqlite_module, "BUSY_TIMEOUT_SECONDS", 0.05)
    store = await SqliteStore.open(db_path, secrets=box)
    other_process = sqlite3.connect(db_path, isolation_level=None)
    try:
        other_process.execute("BEGIN IMMEDIATE")  # holds the write lock
        with pytest.raises(StoreUnavailableError, match="locked"):
            await store.mark_delivery("event:Ev1")
        other_process.execute("ROLLBACK")
        assert await store.mark_delivery("event:Ev1") is True
    finally:
        other_process.close()
        await store.close()


async def test_a_sqlite_constraint_error_is_not_an_outage(db_path: str, box: SecretBox) -> None:
    store = await SqliteStore.open(db_path, secrets=box)
    try:
        with pytest.raises(sqlite3.IntegrityError):
            async with store._tx() as q:  # a statement the store itself never sends
                await q.run("INSERT INTO deliveries (delivery_key, seen_at) VALUES (NULL, NULL)")
    finally:
        await store.close()
