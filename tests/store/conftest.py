"""Fixtures for the store contract suite: every store-backed test runs against MemoryStore, SqliteStore and
PostgresStore (a fresh database on the session's real server, tests/pg_server.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from minds_bot.store import MemoryStore, PostgresStore, SecretBox, SqliteStore, Store
from tests.pg_server import PgServer

START = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self, start: datetime = START) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, delta: timedelta) -> None:
        self.now += delta


def fake_minds_key(digit: str = "0") -> str:
    return "minds_" + digit * 48


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def box() -> SecretBox:
    return SecretBox(SecretBox.generate_key())


@pytest.fixture
def db_path(tmp_path: Path) -> str:
    return str(tmp_path / "minds-bot.sqlite3")


ENGINES = ["memory", "sqlite", "postgres"]
SQL_ENGINES = ["sqlite", "postgres"]


@asynccontextmanager
async def sql_database(request: pytest.FixtureRequest, engine: str, db_path: str) -> AsyncIterator[str]:
    """Where a SQL store of `engine` lives: a SQLite file, or a fresh database on the session's PostgreSQL
    (started only for the tests that need it)."""
    if engine != "postgres":
        yield db_path
        return
    server: PgServer = request.getfixturevalue("pg_server")
    url = await server.new_database()
    try:
        yield url
    finally:
        await server.drop_database(url)


async def open_sql(engine: str, where: str, *, box: SecretBox, clock: FakeClock, **options: object) -> Store:
    if engine == "postgres":
        return await PostgresStore.open(where, secrets=box, clock=clock, **options)  # type: ignore[arg-type]
    return await SqliteStore.open(where, secrets=box, clock=clock, **options)  # type: ignore[arg-type]


@pytest.fixture(params=ENGINES)
async def store(request: pytest.FixtureRequest, db_path: str, box: SecretBox, clock: FakeClock) -> AsyncIterator[Store]:
    if request.param == "memory":
        opened: Store = MemoryStore(secrets=box, clock=clock)
    else:
        async with sql_database(request, request.param, db_path) as where:
            opened = await open_sql(request.param, where, box=box, clock=clock)
            yield opened
            await opened.close()
            return
    yield opened
    await opened.close()
