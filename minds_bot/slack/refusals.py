"""How refused requests to the Slack endpoint reach the log: bounded, however fast a client sends them.

Owns: ``RefusalLog``. A source's (the client address's) first refusal in a minute is one WARNING line, as
before (status, reason, size; never the body); the rest of that minute are counted, and when the minute is over
one summary line per source says how many there were and why (``reasons``: each reason with its count). About
180 KiB/s of refusal lines from one client become two lines a minute. Sources are bounded in number: past
``MAX_SOURCES`` in one minute the rest are counted together under ``other sources``.
Must not touch: what is refused (``gate.py``), the store, the network.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

log = logging.getLogger("minds_bot.slack.gate")  # the refusal lines keep the logger operators already filter on

WINDOW_SECONDS = 60.0
MAX_SOURCES = 1_000  # per minute; a flood from more addresses is summed up under OTHER_SOURCES
OTHER_SOURCES = "other sources"
MAX_REASONS_LISTED = 10


@dataclass
class _Window:
    """One source's refusals since its first line: counted by reason, with their total size."""

    started: float
    reasons: Counter[str] = field(default_factory=Counter)
    bytes: int = 0


class RefusalLog:
    """Logs refusals per source and minute: the first in full, the rest as one summary line when the minute is
    over (``flush``, called on each request and by the server's minute timer)."""

    def __init__(self, *, clock: Callable[[], float], window: float = WINDOW_SECONDS) -> None:
        self._clock = clock
        self._window = window
        self._sources: dict[str, _Window] = {}  # in the order their minutes started

    def refused(self, *, source: str | None, status: int, reason: str, size: int) -> None:
        """Note one refusal of a request of ``size`` bytes from ``source`` (the client's address)."""
        now = self._clock()
        self.flush(now)
        key = source or "unknown"
        if key not in self._sources and len(self._sources) >= MAX_SOURCES:
            key = OTHER_SOURCES
        window = self._sources.get(key)
        if window is None:
            self._sources[key] = _Window(started=now)
            fields = {"status": status, "reason": reason, "bytes": size, "source": key}
            log.warning("refused a request to the Slack endpoint", extra={"fields": fields})
            return
        window.reasons[f"{status} {reason}"] += 1
        window.bytes += size

    def flush(self, now: float | None = None) -> None:
        """One summary line for each source whose minute is over and that was refused more than once in it."""
        now = self._clock() if now is None else now
        while self._sources:
            source, window = next(iter(self._sources.items()))
            if now - window.started < self._window:
                return  # later minutes started later: none of them is over either
            del self._sources[source]
            if window.reasons:
                self._summarise(source, window)

    def flush_all(self) -> None:
        """Every pending summary now (the server is stopping)."""
        self.flush(float("inf"))

    def _summarise(self, source: str, window: _Window) -> None:
        count = sum(window.reasons.values())
        listed = window.reasons.most_common(MAX_REASONS_LISTED)
        reasons = ", ".join(f"{reason} ×{n}" for reason, n in listed)
        if len(window.reasons) > MAX_REASONS_LISTED:
            reasons += ", …"
        fields = {"source": source, "count": count, "reasons": reasons, "bytes": window.bytes}
        log.warning(
            "refused more requests to the Slack endpoint from one source within a minute", extra={"fields": fields}
        )
