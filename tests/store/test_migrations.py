"""A shipped migration never changes: a database migrated before and one migrated now end identical.

Each migration's statements (SQLite's ``MIGRATIONS`` and PostgreSQL's ``PG_MIGRATIONS``) are held to the digest
they shipped with, whether they are written in migrations.py or loaded from a ``.sql`` file of the package (the
Minds budget's, ``minds_budget.sql``). A new migration is appended; this list may grow, never change.
"""

from __future__ import annotations

import hashlib

from minds_bot.store.migrations import MIGRATIONS, PG_MIGRATIONS, Migration

SHIPPED = (
    "50651d3fc37d1862",
    "448ca5f015411a38",
    "cf19dc385c2c43f4",
    "79443bd498c5aad7",
    "8d14895f85516ca7",
    "f1ef6d63aa3756b1",
    "adf8fe1624bb2a68",
    "9d3a305c3e09ab3d",
    "a2854999d9979db3",
    "afec6ac3ab02ec96",
    "6bc4fdd1c3336c7c",
    "388d9ef2c44a440e",
    "4f498788d6e83bec",
    "1582cde1255d04d0",
    "314f5bd1b6cb656f",  # 15: the Minds budget's tables (minds_budget.sql)
)
# PostgreSQL's differ where it adds to a migration: `seq` columns (1), the budget's function (15).
PG_SHIPPED = {1: "aee9ef7bd049ab28", 15: "46b5a613e9ce7d44"}


def _digest(migration: Migration) -> str:
    return hashlib.sha256("\x00".join(migration).encode()).hexdigest()[:16]


def test_every_shipped_sqlite_migration_is_unchanged() -> None:
    assert [_digest(m) for m in MIGRATIONS[: len(SHIPPED)]] == list(SHIPPED)


def test_every_shipped_postgresql_migration_is_unchanged() -> None:
    expected = [PG_SHIPPED.get(version, digest) for version, digest in enumerate(SHIPPED, start=1)]
    assert [_digest(m) for m in PG_MIGRATIONS[: len(SHIPPED)]] == expected


def test_the_minds_budget_function_is_postgresql_only_and_its_tables_are_on_both() -> None:
    budget = MIGRATIONS[14]
    assert [s.split(" (")[0] for s in budget] == [
        "CREATE TABLE minds_budgets",
        "CREATE TABLE minds_budget_sends",
        "CREATE INDEX minds_budget_sends_at ON minds_budget_sends",
    ]
    assert PG_MIGRATIONS[14][: len(budget)] == budget
    assert [s.split("(")[0] for s in PG_MIGRATIONS[14][len(budget) :]] == ["CREATE FUNCTION minds_budget_take"]
