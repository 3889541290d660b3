"""`minds-bot check` says exactly what is wrong and never prints a secret."""

from __future__ import annotations

from pathlib import Path

import pytest

from minds_bot.checks import run_checks
from minds_bot.settings import Settings
from minds_bot.store import SecretBox
from minds_sandbox import SandboxConfig, running_sandbox
from tests.fakes.slack_web import fake_slack
from tests.pg_server import PgServer

WRONG_KEY = "minds_" + "f" * 48


def settings_for(*, slack_api_url: str, minds_url: str, minds_key: str | None) -> Settings:
    return Settings(
        slack_bot_token="xoxb-check-token",
        slack_signing_secret="check-signing-secret",
        slack_api_url=slack_api_url,
        minds_api_url=minds_url,
        minds_api_key=minds_key,
        minds_bot_secret_key=SecretBox.generate_key(),
    )


async def test_everything_ok_against_a_minds_api_and_slack() -> None:
    async with running_sandbox(SandboxConfig()) as minds, fake_slack() as slack:
        results = await run_checks(
            settings_for(slack_api_url=slack.api_url, minds_url=minds.base_url, minds_key=minds.demo_key)
        )
    assert [r.ok for r in results] == [True, True, True, True]
    lines = "\n".join(r.line() for r in results)
    assert "key accepted" in lines and "connected to Acme" in lines
    assert minds.demo_key not in lines


@pytest.mark.parametrize("problem", ["wrong key", "minds down"])
async def test_a_refused_or_unreachable_minds_is_named_without_the_key(problem: str) -> None:
    async with running_sandbox(SandboxConfig(allowed_keys=frozenset({"minds_" + "0" * 48}))) as minds:
        url = minds.base_url
        async with fake_slack() as slack:
            target = url if problem == "wrong key" else "http://127.0.0.1:9/api/v1"
            results = await run_checks(settings_for(slack_api_url=slack.api_url, minds_url=target, minds_key=WRONG_KEY))
    minds_result = results[1]
    assert not minds_result.ok
    expected = "did not accept" if problem == "wrong key" else "connect"
    assert expected in minds_result.detail.lower()
    assert WRONG_KEY not in minds_result.line()


async def test_a_rejected_slack_token_is_named() -> None:
    async with fake_slack() as slack:
        slack.fail_auth = True
        results = await run_checks(
            settings_for(slack_api_url=slack.api_url, minds_url="http://127.0.0.1:9/api/v1", minds_key=None)
        )
    slack_result = results[2]
    assert not slack_result.ok and "invalid_auth" in slack_result.detail
    assert "xoxb-check-token" not in slack_result.line()
    assert results[1].ok  # no key configured: workspaces connect with /minds connect


async def test_the_store_is_named_with_whether_it_is_reachable_and_migrated(
    pg_server: PgServer, tmp_path: Path
) -> None:
    from minds_bot.checks import check_store
    from minds_bot.store import PostgresStore

    url = await pg_server.new_database()
    with_password = url.replace("postgres@", "postgres:check-db-password@")  # trust auth ignores it
    try:
        pg = Settings(minds_bot_database_url=with_password)
        fresh = await check_store(pg)
        assert (
            fresh.ok and "PostgreSQL at postgresql://postgres:***@127.0.0.1" in fresh.detail and "new" in fresh.detail
        )
        store = await PostgresStore.open(url, secrets=SecretBox(SecretBox.generate_key()))
        await store.close()
        migrated = await check_store(pg)
        assert migrated.ok and "migrated (schema version" in migrated.detail
        assert "check-db-password" not in fresh.line() + migrated.line()
    finally:
        await pg_server.drop_database(url)
    sqlite = await check_store(Settings(minds_bot_db=str(tmp_path / "bot.sqlite3")))
    assert sqlite.ok and "SQLite file" in sqlite.detail and "new" in sqlite.detail


async def test_an_unreachable_database_fails_the_check_without_its_password() -> None:
    from minds_bot.checks import check_store

    result = await check_store(Settings(minds_bot_database_url="postgresql://bot:hidden-pw@127.0.0.1:9/minds"))
    assert not result.ok and "cannot connect" in result.detail and "hidden-pw" not in result.line()
