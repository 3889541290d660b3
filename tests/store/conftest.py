"""Fixtures for the store contract suite: every store-backed test runs against MemoryStore and SqliteStore."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from minds_bot.store import MemoryStore, SecretBox, SqliteStore, Store

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


@pytest.fixture(params=["memory", "sqlite"])
async def store(request: pytest.FixtureRequest, db_path: str, box: SecretBox, clock: FakeClock) -> AsyncIterator[Store]:
    if request.param == "memory":
        opened: Store = MemoryStore(secrets=box, clock=clock)
    else:
        opened = await SqliteStore.open(db_path, secrets=box, clock=clock)
    yield opened
    await opened.close()
