"""Row 13: the SQLite file, its WAL and its shared-memory index are readable by the bot's user alone (0600),
for a new file and for one an older version left world-readable, with the bot started as ``minds-bot run``
starts it (``start_http``) and a slash command answered, so the WAL really exists."""

from __future__ import annotations

import asyncio
import os
import stat
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from minds_bot.app import HttpServer, start_http
from minds_bot.store import SecretBox
from tests.fakes.bot import SIGNING_SECRET, bot_settings
from tests.fakes.slack_requests import command_body, signed_headers
from tests.fakes.slack_web import FakeSlack, fake_slack

ANSWER_SECONDS = 10.0
WIDE_OPEN = 0o644


@pytest.fixture
async def slack() -> AsyncIterator[FakeSlack]:
    async with fake_slack() as fake:
        yield fake


async def serve(slack: FakeSlack, db: Path) -> HttpServer:
    settings = bot_settings(slack=slack, secret_key=SecretBox.generate_key(), minds_key=None, db=str(db))
    return await start_http(settings, host="127.0.0.1", port=0)


async def use(server: HttpServer, slack: FakeSlack) -> None:
    """A fresh signed ``/minds help`` (its own trigger id, so never a replay): the delivery is recorded, so the
    database (and its WAL) is written."""
    body = command_body(
        text="help",
        team="T0001",
        channel="C0001",
        user="U0001",
        response_url=slack.response_url(),
        trigger=f"trigger-{uuid.uuid4().hex}",
    )
    async with httpx.AsyncClient(base_url=server.base_url) as http:
        reply = await http.post("/slack/events", content=body, headers=signed_headers(body, secret=SIGNING_SECRET))
    assert reply.status_code == 200
    await asyncio.wait_for(slack.responses.get(), ANSWER_SECONDS)


def modes(db: Path) -> dict[str, str]:
    files = [db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")]
    return {path.name: oct(stat.S_IMODE(path.stat().st_mode)) for path in files}


@pytest.fixture
def open_umask() -> object:
    """A permissive umask, as on many servers, so the test shows the bot's choice and not the runner's."""
    previous = os.umask(0o022)
    yield
    os.umask(previous)


@pytest.mark.usefixtures("open_umask")
async def test_a_new_database_and_its_wal_are_owner_only(slack: FakeSlack, tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    server = await serve(slack, db)
    try:
        await use(server, slack)
        assert modes(db) == {"bot.sqlite3": "0o600", "bot.sqlite3-wal": "0o600", "bot.sqlite3-shm": "0o600"}
    finally:
        await server.stop()


@pytest.mark.usefixtures("open_umask")
async def test_a_world_readable_database_from_before_is_made_owner_only(slack: FakeSlack, tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    server = await serve(slack, db)
    await use(server, slack)
    await server.stop()
    for path in (db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
        if path.exists():
            path.chmod(WIDE_OPEN)
    assert oct(stat.S_IMODE(db.stat().st_mode)) == oct(WIDE_OPEN)

    server = await serve(slack, db)
    try:
        await use(server, slack)
        assert set(modes(db).values()) == {"0o600"}
    finally:
        await server.stop()
