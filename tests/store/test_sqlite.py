"""SQLite-only behaviour: migrations, durability across reopen, encryption at rest, cross-process claims."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from slack_sdk.oauth.installation_store.models.installation import Installation

from minds_bot.store import (
    DEFAULT_CLAIM_LEASE,
    SchemaTooNewError,
    SecretBox,
    SecretDecryptError,
    SqliteStore,
    open_store,
)
from minds_bot.store.migrations import MIGRATIONS
from minds_bot.store.slack_oauth import StoreInstallationStore
from tests.store import factories
from tests.store.conftest import START, FakeClock, fake_minds_key

CLAIMERS = 40
FUTURE_MIGRATION = ("CREATE TABLE future_feature (id INTEGER PRIMARY KEY, note TEXT)",)


async def _schema_rows(store: SqliteStore) -> list[int]:
    async with store._read() as q:  # inspecting the bookkeeping table itself
        return [row["version"] for row in await q.all("SELECT version FROM schema_version ORDER BY version")]


async def test_open_twice_applies_nothing_again(db_path: str, box: SecretBox, clock: FakeClock) -> None:
    first = await SqliteStore.open(db_path, secrets=box, clock=clock)
    await first.save_workspace(factories.workspace())
    await first.close()
    second = await SqliteStore.open(db_path, secrets=box, clock=clock)
    assert second.schema_version == len(MIGRATIONS)
    assert await _schema_rows(second) == list(range(1, len(MIGRATIONS) + 1))
    assert await second.get_workspace("T1") is not None
    await second.close()


async def test_an_older_file_is_upgraded_and_keeps_its_data(db_path: str, box: SecretBox, clock: FakeClock) -> None:
    old = await SqliteStore.open(db_path, secrets=box, clock=clock)
    await old.add_tracked_run(factories.tracked_run())
    await old.close()

    newer = MIGRATIONS + (FUTURE_MIGRATION,)
    upgraded = await SqliteStore.open(db_path, secrets=box, clock=clock, migrations=newer)
    assert upgraded.schema_version == len(newer)
    assert await _schema_rows(upgraded) == list(range(1, len(newer) + 1))
    assert [run.run_id for run in await upgraded.unfinished_runs()] == ["run-1"]
    async with upgraded._read() as q:
        assert await q.all("SELECT * FROM future_feature") == []
    await upgraded.close()


async def test_a_failing_migration_leaves_the_old_version(db_path: str, box: SecretBox, clock: FakeClock) -> None:
    await (await SqliteStore.open(db_path, secrets=box, clock=clock)).close()
    broken = MIGRATIONS + (("CREATE TABLE half_done (id INTEGER)", "THIS IS NOT SQL"),)
    with pytest.raises(Exception, match="syntax error"):
        await SqliteStore.open(db_path, secrets=box, clock=clock, migrations=broken)
    kept = await SqliteStore.open(db_path, secrets=box, clock=clock)
    assert kept.schema_version == len(MIGRATIONS)  # the file still has every earlier migration
    await kept.close()
    store = await SqliteStore.open(db_path, secrets=box, clock=clock, migrations=MIGRATIONS + (FUTURE_MIGRATION,))
    assert store.schema_version == len(MIGRATIONS) + 1  # the broken step was rolled back whole
    async with store._read() as q:
        assert await q.one("SELECT name FROM sqlite_master WHERE name = 'half_done'") is None
    await store.close()


async def test_a_newer_file_is_refused(db_path: str, box: SecretBox, clock: FakeClock) -> None:
    await (
        await SqliteStore.open(db_path, secrets=box, clock=clock, migrations=MIGRATIONS + (FUTURE_MIGRATION,))
    ).close()
    with pytest.raises(SchemaTooNewError, match=f"version {len(MIGRATIONS) + 1}"):
        await SqliteStore.open(db_path, secrets=box, clock=clock)


async def test_concurrent_first_opens_migrate_once(db_path: str, box: SecretBox, clock: FakeClock) -> None:
    stores = await asyncio.gather(*(SqliteStore.open(db_path, secrets=box, clock=clock) for _ in range(4)))
    assert await _schema_rows(stores[0]) == list(range(1, len(MIGRATIONS) + 1))
    for store in stores:
        await store.close()


async def test_file_uses_wal_and_a_busy_timeout(db_path: str, box: SecretBox) -> None:
    store = await open_store(db_path, secrets=box)
    async with store._read() as q:  # type: ignore[attr-defined]
        assert (await q.one("PRAGMA journal_mode"))[0] == "wal"
        assert (await q.one("PRAGMA busy_timeout"))[0] >= 1000
    await store.close()


@pytest.mark.parametrize("path", [None, ":memory:"])
async def test_memory_paths_give_a_private_database(path: str | None, box: SecretBox) -> None:
    one, two = await open_store(path, secrets=box), await open_store(path, secrets=box)
    await one.save_workspace(factories.workspace())
    assert await two.get_workspace("T1") is None
    await one.close()
    await two.close()


async def test_deliveries_runs_and_asks_survive_a_restart(db_path: str, box: SecretBox, clock: FakeClock) -> None:
    before = await SqliteStore.open(db_path, secrets=box, clock=clock)
    assert await before.mark_delivery("Ev1")
    await before.add_tracked_run(factories.tracked_run())
    await before.begin_direct_ask(factories.direct_ask())
    await before.claim_approval(team_id="T1", draft_plan_id="d", revision=1, approver_id="U1", idempotency_key="k")
    await before.close()

    after = await SqliteStore.open(db_path, secrets=box, clock=clock)
    clock.advance(DEFAULT_CLAIM_LEASE * 2)  # the crashed process's leases ran out
    assert await after.mark_delivery("Ev1") is False
    assert [run.run_id for run in await after.unfinished_runs()] == ["run-1"]
    assert [ask.client_request_id for ask in await after.claim_pending_direct_asks(holder="after")] == [
        factories.direct_ask().client_request_id
    ]
    assert [approval.idempotency_key for approval in await after.claim_pending_approvals(holder="after")] == ["k"]
    await after.close()


async def test_two_processes_on_one_file_see_exactly_one_winner(db_path: str, box: SecretBox, clock: FakeClock) -> None:
    one = await SqliteStore.open(db_path, secrets=box, clock=clock)
    two = await SqliteStore.open(db_path, secrets=box, clock=clock)
    await one.add_tracked_run(factories.tracked_run())
    await one.save_digest(factories.digest())
    stores = [one, two] * (CLAIMERS // 2)

    terminal = await asyncio.gather(*(s.claim_terminal_post(team_id="T1", run_id="run-1") for s in stores))
    approvals = await asyncio.gather(
        *(
            s.claim_approval(team_id="T1", draft_plan_id="d", revision=1, approver_id=f"U{n}", idempotency_key=f"k{n}")
            for n, s in enumerate(stores)
        )
    )
    digests = await asyncio.gather(*(s.claim_digest_run(digest_id="digest-1", window_key="w") for s in stores))
    deliveries = await asyncio.gather(*(s.mark_delivery("Ev1") for s in stores))

    assert terminal.count(True) == 1
    assert [created for _, created in approvals].count(True) == 1
    assert len({approval.idempotency_key for approval, _ in approvals}) == 1
    assert digests.count(True) == 1
    assert deliveries.count(True) == 1
    await one.close()
    await two.close()


def _file_bytes(db_path: str) -> bytes:
    directory = Path(db_path).parent
    return b"".join(path.read_bytes() for path in sorted(directory.iterdir()) if path.is_file())


async def test_secrets_never_reach_the_file_in_plaintext(db_path: str, box: SecretBox, clock: FakeClock) -> None:
    bot_token, user_token = "xoxb-" + "1" * 24, "xoxp-" + "2" * 24
    store = await SqliteStore.open(db_path, secrets=box, clock=clock)
    await store.save_workspace(factories.workspace())
    await StoreInstallationStore(store).async_save(
        Installation(
            team_id="T1",
            user_id="U1",
            bot_token=bot_token,
            bot_id="B1",
            bot_user_id="UB",
            user_token=user_token,
            installed_at=START.timestamp(),
        )
    )
    written = _file_bytes(db_path)  # the database and its WAL, while open
    await store.close()
    written += _file_bytes(db_path)
    assert b"Acme Research" in written  # the check can see ordinary values...
    for secret in (fake_minds_key(), bot_token, user_token):
        assert secret.encode() not in written  # ...but no secret


async def test_rotation_lets_the_old_key_be_dropped(db_path: str, clock: FakeClock) -> None:
    old, new = SecretBox.generate_key(), SecretBox.generate_key()
    store = await SqliteStore.open(db_path, secrets=SecretBox(old), clock=clock)
    await store.save_workspace(factories.workspace())
    await store.close()

    rotating = await SqliteStore.open(db_path, secrets=SecretBox(f"{new},{old}"), clock=clock)
    assert await rotating.rotate_secrets() == 1
    await rotating.close()

    only_new = await SqliteStore.open(db_path, secrets=SecretBox(new), clock=clock)
    loaded = await only_new.get_workspace("T1")
    assert loaded is not None and loaded.minds_key.get_secret_value() == fake_minds_key()
    await only_new.close()


async def test_a_missing_key_is_an_error_not_an_empty_key(db_path: str, box: SecretBox, clock: FakeClock) -> None:
    store = await SqliteStore.open(db_path, secrets=box, clock=clock)
    await store.save_workspace(factories.workspace())
    await store.close()
    stranger = await SqliteStore.open(db_path, secrets=SecretBox(SecretBox.generate_key()), clock=clock)
    with pytest.raises(SecretDecryptError):
        await stranger.get_workspace("T1")
    await stranger.close()
