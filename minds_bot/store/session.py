"""What every section's SQL half stands on: the `Session` an engine gives it and `SqlSection`, the host's plumbing.

Owns the contract between the shared statements (each section module's ``Sql…`` class, composed into
`SqlStore` in sql.py) and an engine (sqlite.py, postgres.py): statements with `?` placeholders, an engine's
upsert (`Conflict`), its row-locking suffixes and its exclusive-work lock. `SqlSection` names what `SqlStore`
provides every section (the secret box, clock, leases, `_read` / `_tx`) and the helpers they share. Must not
import an engine, Slack or Minds.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterable
from contextlib import AbstractAsyncContextManager
from datetime import timedelta
from typing import Any, Literal, Protocol

from minds_bot.store.codec import Row, encode_time, to_row
from minds_bot.store.records import Clock, Record
from minds_bot.store.secrets import SecretBox

Conflict = Literal["replace", "ignore"]


class Session(Protocol):
    """Statements inside one `_read` or `_tx` block. Rows are mappings by column name."""

    # Appended to a SELECT whose rows the transaction goes on to change ("" where the whole transaction is
    # already single-writer).
    lock_rows: str
    # Appended to a SELECT that claims work: rows another transaction is claiming are skipped, not waited for.
    skip_locked: str
    # The column that orders rows by insertion (newest upsert last), for ties.
    insertion_order: str

    async def one(self, sql: str, params: Iterable[Any] = ()) -> Any | None: ...

    async def all(self, sql: str, params: Iterable[Any] = ()) -> list[Any]: ...

    async def run(self, sql: str, params: Iterable[Any] = ()) -> int:
        """Execute a write; returns the number of rows it changed."""
        ...

    async def insert(self, table: str, row: Row, *, conflict: Conflict) -> int:
        """ "replace" upserts the whole record by the table's key; "ignore" lets the first writer win."""
        ...

    async def try_exclusive(self, name: str) -> bool:
        """Take the named lock for the rest of the transaction; False when another holder has it now."""
        ...


class SqlSection:
    """The base of each section's SQL half: `SqlStore` sets these attributes and opens the sessions."""

    _box: SecretBox
    _clock: Clock
    _lease: timedelta  # one claim lease
    _post_lease: timedelta  # how long a terminal-post claim lasts (TERMINAL_CLAIM_LEASES leases)

    @abstractmethod
    def _read(self) -> AbstractAsyncContextManager[Session]: ...

    @abstractmethod
    def _tx(self) -> AbstractAsyncContextManager[Session]: ...

    def _now(self) -> str:
        return encode_time(self._clock())

    def _row(self, record: Record) -> Row:
        return to_row(record, self._box)

    async def _insert_new(self, table: str, record: Record) -> bool:
        """Insert ``record`` stamped created and updated now; False (and nothing changes) when its key exists."""
        now = self._clock()
        stored = record.model_copy(update={"created_at": now, "updated_at": now})
        async with self._tx() as q:
            return await q.insert(table, self._row(stored), conflict="ignore") == 1
