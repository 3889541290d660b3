"""``StoreHealth`` pings the store at most once a second, bounded and shared; ``Outage`` backs a loop off
exponentially up to a cap and logs an outage in two lines (its start, its end with a count), whatever the number
of failed attempts in between. Time is the test's."""

from __future__ import annotations

import asyncio
import logging
import random

import pytest

from minds_bot.store import MemoryStore, SecretBox, StoreUnavailableError
from minds_bot.store.health import MAX_BACKOFF_SECONDS, OUTAGE_ENDED, OUTAGE_STARTED, Outage, StoreHealth


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class PingedStore(MemoryStore):
    """A store whose ping fails while ``down``, hangs while ``hanging``, and counts the pings."""

    def __init__(self) -> None:
        super().__init__(secrets=SecretBox(SecretBox.generate_key()))
        self.down = False
        self.hanging = False
        self.pings = 0

    async def ping(self) -> None:
        self.pings += 1
        if self.hanging:
            await asyncio.Event().wait()
        if self.down:
            raise StoreUnavailableError("the test's store is down")


async def test_health_pings_at_most_once_per_interval_and_says_when_the_store_is_down_or_back() -> None:
    store, clock = PingedStore(), Clock()
    health = StoreHealth(store, every=1.0, clock=clock)
    assert await health.reachable() and await health.reachable()
    assert store.pings == 1  # the second answer was the first one's, within the second
    store.down = True
    assert await health.reachable()  # still the cached answer
    clock.now += 1.0
    assert not await health.reachable() and store.pings == 2
    store.down = False
    clock.now += 1.0
    assert await health.reachable() and store.pings == 3


async def test_health_callers_at_the_same_moment_share_one_ping_and_a_hanging_store_is_down() -> None:
    store, clock = PingedStore(), Clock()
    store.hanging = True
    health = StoreHealth(store, timeout=0.01, clock=clock)
    answers = await asyncio.gather(*(health.reachable() for _ in range(5)))
    assert answers == [False] * 5 and store.pings == 1


def test_an_outage_backs_off_exponentially_up_to_the_cap() -> None:
    outage = Outage("the test loop", first=0.5, cap=30.0, clock=Clock(), rng=random.Random(1))
    error = StoreUnavailableError("down")
    delays = [outage.failed(error) for _ in range(12)]
    assert 0.45 <= delays[0] <= 0.55 and 0.9 <= delays[1] <= 1.1 and 1.8 <= delays[2] <= 2.2
    assert all(later >= earlier * 0.8 for earlier, later in zip(delays, delays[1:], strict=False))
    assert max(delays) <= MAX_BACKOFF_SECONDS and delays[-1] >= 0.9 * MAX_BACKOFF_SECONDS


def test_an_outage_is_two_log_lines_whatever_the_failed_attempts(caplog: pytest.LogCaptureFixture) -> None:
    clock = Clock()
    outage = Outage("run tracker", clock=clock)
    with caplog.at_level(logging.INFO, logger="minds_bot.store.health"):
        outage.recovered()  # no outage: nothing to say
        for _ in range(40):
            outage.failed(StoreUnavailableError("the PostgreSQL store did not answer: ConnectionRefusedError"))
            clock.now += 1.0
        assert outage.down and outage.failures == 40
        outage.recovered()
        outage.recovered()
    lines = [(r.levelname, r.getMessage(), getattr(r, "fields", {})) for r in caplog.records]
    assert lines == [
        (
            "WARNING",
            OUTAGE_STARTED,
            {"loop": "run tracker", "error": "the PostgreSQL store did not answer: ConnectionRefusedError"},
        ),
        ("INFO", OUTAGE_ENDED, {"loop": "run tracker", "failed_attempts": 40, "seconds": 40.0}),
    ]
    assert not outage.down and all(r.exc_info is None for r in caplog.records)
