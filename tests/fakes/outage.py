"""A store that can be switched off: while ``switch.down`` every public operation of that store raises
``StoreUnavailableError`` (as the SQL stores do when their database cannot be reached), and the attempts are
counted so a test can await "the loop has tried N times" instead of sleeping. The real database going down is
tests/durability/test_store_outage.py's (PostgreSQL stopped and started)."""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from minds_bot.store import Store, StoreUnavailableError
from minds_bot.store.health import OUTAGE_ENDED

WAIT_SECONDS = 10.0  # a bound on awaited conditions, never a timing

OUTAGE_ERROR = "the test's store is down: ConnectionRefusedError"


@dataclass
class StoreSwitch:
    down: bool = False
    refused: dict[str, int] = field(default_factory=dict)  # operation -> attempts refused
    _changed: asyncio.Event = field(default_factory=asyncio.Event)

    def total(self, *operations: str) -> int:
        return sum(n for name, n in self.refused.items() if not operations or name in operations)

    async def refused_at_least(self, count: int, *operations: str) -> None:
        """Return once ``count`` attempts (of ``operations``, or of any) were refused; bounded."""
        async with asyncio.timeout(WAIT_SECONDS):
            while self.total(*operations) < count:
                self._changed.clear()
                await self._changed.wait()

    def _refuse(self, name: str) -> None:
        self.refused[name] = self.refused.get(name, 0) + 1
        self._changed.set()
        raise StoreUnavailableError(OUTAGE_ERROR)


def switchable(store: Store) -> StoreSwitch:
    """Put every public coroutine method of ``store`` behind a switch, on this instance only."""
    switch = StoreSwitch()
    for name in dir(type(store)):
        if name.startswith("_"):
            continue
        method = getattr(store, name)
        if inspect.iscoroutinefunction(method):
            setattr(store, name, _guarded(method, switch, name))
    return switch


def _guarded(method: Callable[..., Awaitable[Any]], switch: StoreSwitch, name: str) -> Callable[..., Awaitable[Any]]:
    async def guarded(*args: Any, **kwargs: Any) -> Any:
        if switch.down:
            switch._refuse(name)  # the switch's own bookkeeping
        return await method(*args, **kwargs)

    return guarded


class _OutageLines(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.INFO)
        self.ended: dict[str, asyncio.Event] = {}

    def emit(self, record: logging.LogRecord) -> None:
        if record.getMessage() == OUTAGE_ENDED:
            self.event(str(getattr(record, "fields", {}).get("loop"))).set()

    def event(self, loop: str) -> asyncio.Event:
        return self.ended.setdefault(loop, asyncio.Event())


@dataclass
class OutageEnds:
    lines: _OutageLines

    async def of(self, loop: str) -> None:
        """Return once ``loop`` has logged the end of its outage; bounded."""
        async with asyncio.timeout(WAIT_SECONDS):
            await self.lines.event(loop).wait()


@contextmanager
def outage_ends() -> Iterator[OutageEnds]:
    """Inside the block, ``await ends.of("run tracker")`` waits for that loop's "the store answers again" line."""
    lines = _OutageLines()
    logger = logging.getLogger("minds_bot.store.health")
    logger.addHandler(lines)
    try:
        yield OutageEnds(lines)
    finally:
        logger.removeHandler(lines)
