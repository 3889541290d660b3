"""Contract: keyed requests (a person's Study duplicate or Audience build, saved with its key before it is
sent) — kept as first saved, found by key, and the newest one per subject within a window."""

from __future__ import annotations

from datetime import timedelta

from minds_bot.store import KeyedRequest, Store
from tests.store.conftest import START, FakeClock


def keyed(key: str = "key-1", *, subject: str = "study-1", team_id: str = "T1", purpose: str = "dup") -> KeyedRequest:
    return KeyedRequest(
        team_id=team_id,
        key=key,
        purpose=purpose,
        subject=subject,
        arguments='{"studyId": "study-1"}',
        requester_id="U1",
        channel_id="C1",
    )


async def test_a_keyed_request_is_kept_as_first_saved(store: Store, clock: FakeClock) -> None:
    first = await store.save_keyed_request(keyed())
    assert first == keyed().model_copy(update={"created_at": START})
    clock.advance(timedelta(minutes=5))
    again = await store.save_keyed_request(keyed().model_copy(update={"arguments": "{}", "requester_id": "U2"}))
    assert again == first, "a saved key is never rewritten: Try again re-sends the original arguments"
    assert await store.get_keyed_request(team_id="T1", key="key-1") == first
    assert await store.get_keyed_request(team_id="T2", key="key-1") is None, "keys are per workspace"


async def test_the_latest_request_for_a_subject_within_the_window(store: Store, clock: FakeClock) -> None:
    await store.save_keyed_request(keyed("key-1"))
    clock.advance(timedelta(hours=1))
    await store.save_keyed_request(keyed("key-2"))
    await store.save_keyed_request(keyed("key-3", subject="study-2"))
    await store.save_keyed_request(keyed("key-4", team_id="T2"))
    await store.save_keyed_request(keyed("key-5", purpose="audience"))
    latest = await store.latest_keyed_request(team_id="T1", purpose="dup", subject="study-1", since=START)
    assert latest is not None and latest.key == "key-2"
    later = START + timedelta(hours=2)
    assert await store.latest_keyed_request(team_id="T1", purpose="dup", subject="study-1", since=later) is None
    exactly = START + timedelta(hours=1)
    found = await store.latest_keyed_request(team_id="T1", purpose="dup", subject="study-1", since=exactly)
    assert found is not None and found.key == "key-2"
