"""PostgreSQL-only behaviour, on the session's real server: migrations under concurrent start-up, refusing a newer
schema, unreachable servers named without their password, housekeeping on one replica at a time, secrets sealed
at rest, and the read-only probe `minds-bot check` uses."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import asyncpg
import pytest

from minds_bot.store import (
    PostgresStore,
    SchemaTooNewError,
    SecretBox,
    StoreUnavailableError,
    redact_url,
    schema_version_of,
)
from minds_bot.store.migrations import PG_MIGRATIONS
from minds_bot.store.postgres import lock_key
from minds_bot.store.sql import PRUNE_LOCK
from tests.pg_server import PgServer, _free_port
from tests.store import factories
from tests.store.conftest import START, FakeClock, fake_minds_key

PASSWORD = "s3cret-Pa55word"  # a made-up password the messages must never show
STARTING_TOGETHER = 4


@pytest.fixture
async def url(pg_server: PgServer) -> AsyncIterator[str]:
    made = await pg_server.new_database()
    try:
        yield made
    finally:
        await pg_server.drop_database(made)


async def _versions(url: str) -> list[int]:
    conn = await asyncpg.connect(url)
    try:
        return [row["version"] for row in await conn.fetch("SELECT version FROM schema_version ORDER BY version")]
    finally:
        await conn.close()


async def test_replicas_starting_together_migrate_once(url: str, box: SecretBox, clock: FakeClock) -> None:
    assert await schema_version_of(url) == (0, len(PG_MIGRATIONS))
    stores = await asyncio.gather(
        *(PostgresStore.open(url, secrets=box, clock=clock) for _ in range(STARTING_TOGETHER))
    )
    assert {s.schema_version for s in stores} == {len(PG_MIGRATIONS)}
    assert await _versions(url) == list(range(1, len(PG_MIGRATIONS) + 1))
    assert await schema_version_of(url) == (len(PG_MIGRATIONS), len(PG_MIGRATIONS))
    for store in stores:
        await store.close()


async def test_a_schema_from_a_newer_bot_is_refused(url: str, box: SecretBox, clock: FakeClock) -> None:
    newer = (*PG_MIGRATIONS, ("CREATE TABLE future_feature (id INTEGER PRIMARY KEY)",))
    store = await PostgresStore.open(url, secrets=box, clock=clock, migrations=newer)
    await store.close()
    with pytest.raises(SchemaTooNewError):
        await PostgresStore.open(url, secrets=box, clock=clock)


@pytest.mark.parametrize("problem", ["refused", "no such database"])
async def test_an_unusable_server_is_named_without_its_password(
    problem: str, pg_server: PgServer, box: SecretBox
) -> None:
    if problem == "refused":
        target = f"postgresql://bot:{PASSWORD}@127.0.0.1:{_free_port()}/minds"
    else:
        admin = pg_server.url_for("no_such_database_here")
        target = admin.replace("postgres@", f"postgres:{PASSWORD}@")
    with pytest.raises(StoreUnavailableError) as raised:
        await PostgresStore.open(target, secrets=box)
    message = str(raised.value)
    assert PASSWORD not in message and "***" in message and "127.0.0.1" in message
    with pytest.raises(StoreUnavailableError) as probed:
        await schema_version_of(target)
    assert PASSWORD not in str(probed.value)


def test_redaction_hides_only_the_password() -> None:
    assert redact_url(f"postgresql://bot:{PASSWORD}@db:5432/minds") == "postgresql://bot:***@db:5432/minds"
    assert redact_url("postgresql://db/minds") == "postgresql://db/minds"


async def test_housekeeping_runs_on_one_replica_at_a_time(url: str, box: SecretBox, clock: FakeClock) -> None:
    store = await PostgresStore.open(url, secrets=box, clock=clock)
    other_replica = await asyncpg.connect(url)
    try:
        await other_replica.execute("SELECT pg_advisory_lock($1)", lock_key(PRUNE_LOCK))
        assert (await store.prune(START)).skipped is True  # returns at once: never waits for the other
        await other_replica.execute("SELECT pg_advisory_unlock($1)", lock_key(PRUNE_LOCK))
        assert (await store.prune(START)).skipped is False
    finally:
        await other_replica.close()
        await store.close()


async def test_secrets_never_reach_the_database_in_plaintext(url: str, box: SecretBox, clock: FakeClock) -> None:
    store = await PostgresStore.open(url, secrets=box, clock=clock)
    await store.save_workspace(factories.workspace())
    await store.close()
    conn = await asyncpg.connect(url)
    try:
        dumped = " ".join(str(dict(row)) for row in await conn.fetch("SELECT * FROM workspaces"))
    finally:
        await conn.close()
    assert "Acme Research" in dumped and fake_minds_key() not in dumped


async def test_a_closed_store_says_it_is_unavailable(url: str, box: SecretBox, clock: FakeClock) -> None:
    store = await PostgresStore.open(url, secrets=box, clock=clock)
    await store.ping()
    await store.close()
    with pytest.raises(StoreUnavailableError):
        await store.ping()
