"""What every section's in-memory half stands on: `MemorySection`, the plumbing `MemoryStore` provides.

Owns the helpers each section's ``Memory…`` class shares: encoding a record as the same row SQL would store
(codec.py: secrets sealed, times as UTC text), loading rows back, a lease's end, and finding a row or raising
`RecordNotFoundError`. The tables themselves are `MemoryStore`'s (memory.py makes them; each section names the
ones it uses). Must not call Slack or Minds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import timedelta
from typing import Any, TypeVar

from minds_bot.store.codec import Row, encode_time, from_row, to_row
from minds_bot.store.errors import RecordNotFoundError
from minds_bot.store.records import Clock, Record
from minds_bot.store.secrets import SecretBox

R = TypeVar("R", bound=Record)
K = TypeVar("K")


class MemorySection:
    """The base of each section's in-memory half: `MemoryStore` sets these attributes and makes the tables."""

    _box: SecretBox
    _clock: Clock
    _lease: timedelta  # one claim lease
    _post_lease: timedelta  # how long a terminal-post claim lasts (TERMINAL_CLAIM_LEASES leases)

    def _now(self) -> str:
        return encode_time(self._clock())

    def _row(self, record: Record) -> Row:
        return to_row(record, self._box)

    def _load(self, model: type[R], row: Row | None) -> R | None:
        return None if row is None else from_row(model, row, self._box)

    def _load_all(self, model: type[R], rows: Iterable[Row], *, order: Callable[[Row], Any]) -> list[R]:
        return [from_row(model, row, self._box) for row in sorted(rows, key=order)]

    def _lease_end(self) -> str:
        return encode_time(self._clock() + self._lease)

    def _insert_new(self, table: dict[K, Row], key: K, record: Record) -> bool:
        """Store ``record`` stamped created and updated now; False (and nothing changes) when ``key`` exists."""
        if key in table:
            return False
        now = self._clock()
        table[key] = self._row(record.model_copy(update={"created_at": now, "updated_at": now}))
        return True


def require(table: dict[K, Row], key: K, *, what: str) -> Row:
    row = table.get(key)
    if row is None:
        raise RecordNotFoundError(f"no {what} {key!r}")
    return row
