"""Old delivery records are pruned, so the database does not grow forever."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from minds_bot.flows.housekeeping import Housekeeping
from minds_bot.store import MemoryStore, SecretBox


async def test_old_deliveries_are_pruned_and_recent_ones_kept() -> None:
    now = [datetime(2026, 12, 1, tzinfo=UTC)]
    store = MemoryStore(secrets=SecretBox(SecretBox.generate_key()), clock=lambda: now[0])
    await store.mark_delivery("event:old")
    now[0] += timedelta(days=10)
    await store.mark_delivery("event:new")
    housekeeping = Housekeeping(store=store, clock=lambda: now[0])
    assert await housekeeping.prune_once() == 1
    assert await store.mark_delivery("event:old") is True  # forgotten: a very late retry would be processed
    assert await store.mark_delivery("event:new") is False  # still remembered
