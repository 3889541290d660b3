"""Slack-looking identifiers for the emulator: message timestamps, file/view/trigger ids, block ids.

Owns id generation only; deterministic for a given seed and clock so tests and demos are reproducible.
"""

from __future__ import annotations

import random
import string
from collections.abc import Callable

_ID_ALPHABET = string.ascii_uppercase + string.digits
_MICROS = 1_000_000


class IdFactory:
    """Issues ids shaped like Slack's; ``ts`` strings strictly increase even when the clock stalls."""

    def __init__(self, *, clock: Callable[[], float], seed: int = 0) -> None:
        self._clock = clock
        self._random = random.Random(seed)
        self._last_micros = 0

    def ts(self) -> str:
        micros = max(int(self._clock() * _MICROS), self._last_micros + 1)
        self._last_micros = micros
        return f"{micros // _MICROS}.{micros % _MICROS:06d}"

    def last_ts(self) -> str:
        """The newest ts issued so far ("0.000000" before any): a cursor for "messages after now"."""
        return f"{self._last_micros // _MICROS}.{self._last_micros % _MICROS:06d}"

    def prefixed(self, prefix: str, length: int = 10) -> str:
        return prefix + "".join(self._random.choice(_ID_ALPHABET) for _ in range(length))

    def trigger_id(self) -> str:
        return f"{int(self._clock())}.{self._random.randrange(10**9, 10**10)}.{self.token(32)}"

    def token(self, length: int = 24) -> str:
        return "".join(self._random.choice(string.ascii_lowercase + string.digits) for _ in range(length))

    def block_id(self) -> str:
        # Slack fills in short random block and action ids the app did not set.
        return "".join(self._random.choice(string.ascii_letters + string.digits) for _ in range(5))


def permalink_fragment(ts: str) -> str:
    """``1733140000.000100`` -> ``p1733140000000100`` as in Slack permalinks."""
    return "p" + ts.replace(".", "")


def ts_key(ts: str) -> tuple[int, int]:
    """Sort key of a Slack ts; string comparison breaks once the seconds gain a digit."""
    seconds, _, micros = ts.partition(".")
    return int(seconds), int(micros or 0)
