"""A write cancelled mid-transaction (a task stopped while the bot shuts down or restarts) must not leave the
SQLite file locked: the same store and a second process's store can still write afterwards."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from minds_bot.store import SecretBox, SqliteStore

WAIT = 10.0


async def test_a_write_cancelled_while_waiting_for_the_lock_leaves_no_transaction_open(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    key = SecretBox(SecretBox.generate_key())
    store = await SqliteStore.open(str(path), secrets=key)
    other_process = await SqliteStore.open(str(path), secrets=key)
    blocker = sqlite3.connect(path, isolation_level=None)
    loop = asyncio.get_running_loop()
    began = asyncio.Event()

    def traced(statement: str) -> None:  # runs on aiosqlite's thread as each statement starts
        if statement.startswith("BEGIN IMMEDIATE"):
            loop.call_soon_threadsafe(began.set)

    try:
        await store._conn.set_trace_callback(traced)  # the only way to see the thread reach BEGIN
        blocker.execute("BEGIN IMMEDIATE")  # another process holds the write lock
        write = asyncio.create_task(store.mark_delivery("event:Ev1"))
        await asyncio.wait_for(began.wait(), WAIT)  # the store's BEGIN now waits for that lock in its thread
        write.cancel()
        blocker.execute("ROLLBACK")  # the lock frees; the abandoned BEGIN goes through on the store's thread
        await asyncio.gather(write, return_exceptions=True)

        assert await other_process.mark_delivery("event:Ev2") is True  # another process can write
        assert await store.mark_delivery("event:Ev1") is True  # and so can this one: the cancelled write is gone
    finally:
        blocker.close()
        await other_process.close()
        await store.close()
