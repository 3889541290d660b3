"""Session-wide fixtures: one real PostgreSQL server for every test that needs one (tests/pg_server.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.pg_server import PgServer, PgUnavailable, start_server


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """Started on first use, stopped when the session ends. Fails (never skips) when no server can be had."""
    try:
        server = start_server()
    except PgUnavailable as exc:
        pytest.fail(f"PostgreSQL is required for this test: {exc}", pytrace=False)
    try:
        yield server
    finally:
        server.stop()
