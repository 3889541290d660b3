"""Contract: the threads that talk to one Mind (``/minds chat``) — saved with their Minds chat id, found again
after a restart, touched on every turn, and closed once when idle."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from minds_bot.store import ChatThread, SecretBox, SqliteStore, Store
from tests.store.conftest import START, FakeClock


def thread(ts: str = "111.000", *, at: timedelta = timedelta(0)) -> ChatThread:
    return ChatThread(
        team_id="T1",
        channel_id="C1",
        thread_ts=ts,
        chat_id=f"chat-{ts}",
        mind_id="mind-1",
        mind_name="Mia",
        started_by="U1",
        last_activity_at=START + at,
    )


async def test_a_thread_is_saved_and_found_by_its_slack_thread(store: Store, clock: FakeClock) -> None:
    saved = await store.save_chat_thread(thread())
    assert saved.created_at == START and saved.closed_at is None
    assert await store.get_chat_thread(team_id="T1", channel_id="C1", thread_ts="111.000") == saved
    assert await store.get_chat_thread(team_id="T2", channel_id="C1", thread_ts="111.000") is None
    clock.advance(timedelta(minutes=5))
    again = await store.save_chat_thread(thread().model_copy(update={"chat_id": "chat-new"}))
    assert again.created_at == START and again.updated_at == START + timedelta(minutes=5)
    assert again.chat_id == "chat-new"


async def test_turns_keep_a_thread_open_and_idle_threads_close_once(store: Store) -> None:
    await store.save_chat_thread(thread("1.0"))
    await store.save_chat_thread(thread("2.0"))
    assert await store.touch_chat_thread(team_id="T1", channel_id="C1", thread_ts="2.0", at=START + timedelta(hours=20))
    assert not await store.touch_chat_thread(team_id="T1", channel_id="C1", thread_ts="9.9", at=START)

    closed = await store.close_idle_chat_threads(idle_since=START + timedelta(hours=10))
    assert [t.thread_ts for t in closed] == ["1.0"] and closed[0].closed_at is not None
    assert await store.close_idle_chat_threads(idle_since=START + timedelta(hours=10)) == []
    found = await store.get_chat_thread(team_id="T1", channel_id="C1", thread_ts="1.0")
    assert found is not None and found.closed_at is not None
    assert not await store.touch_chat_thread(team_id="T1", channel_id="C1", thread_ts="1.0", at=START)
    open_one = await store.get_chat_thread(team_id="T1", channel_id="C1", thread_ts="2.0")
    assert open_one is not None and open_one.closed_at is None
    assert open_one.last_activity_at == START + timedelta(hours=20)


async def test_concurrent_closers_each_close_a_thread_once(store: Store) -> None:
    for n in range(5):
        await store.save_chat_thread(thread(f"{n}.0"))
    batches = await asyncio.gather(
        *(store.close_idle_chat_threads(idle_since=START + timedelta(days=1)) for _ in range(8))
    )
    assert sorted(t.thread_ts for batch in batches for t in batch) == [f"{n}.0" for n in range(5)]


async def test_a_chat_thread_survives_a_restart(db_path: str, box: SecretBox, clock: FakeClock) -> None:
    first = await SqliteStore.open(db_path, secrets=box, clock=clock)
    await first.save_chat_thread(thread())
    await first.close()
    reopened = await SqliteStore.open(db_path, secrets=box, clock=clock)
    try:
        found = await reopened.get_chat_thread(team_id="T1", channel_id="C1", thread_ts="111.000")
        assert found is not None and found.chat_id == "chat-111.000"
    finally:
        await reopened.close()
