"""Clocks the sandbox reads time from, injected so tests and demos control how runs progress.

Owns: the ``Clock`` protocol, ``SystemClock`` (wall time plus a skippable offset) and ``ManualClock`` (frozen
until advanced). Must not touch state or the event loop.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Protocol

# 2026-01-05T09:00:00Z: a fixed start so a ManualClock sandbox is reproducible to the second.
MANUAL_CLOCK_START = 1_767_603_600.0


class Clock(Protocol):
    def now(self) -> float:
        """Seconds since the epoch."""
        ...

    def advance(self, seconds: float) -> None:
        """Move time forward (demos skip ahead, tests step deterministically)."""
        ...


class SystemClock:
    """Wall-clock time; ``advance`` adds an offset so ``/_sandbox/advance`` also works in a live demo."""

    def __init__(self) -> None:
        self._offset = 0.0

    def now(self) -> float:
        return time.time() + self._offset

    def advance(self, seconds: float) -> None:
        self._offset += max(0.0, seconds)


class ManualClock:
    """Time stands still until a test advances it."""

    def __init__(self, start: float = MANUAL_CLOCK_START) -> None:
        self._now = start

    def now(self) -> float:
        return self._now

    def advance(self, seconds: float) -> None:
        self._now += max(0.0, seconds)


def iso(ts: float) -> str:
    """RFC 3339 UTC timestamp with milliseconds, as Minds sends them."""
    return datetime.fromtimestamp(ts, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
