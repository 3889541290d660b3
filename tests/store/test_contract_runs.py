"""Contract: tracked runs and direct asks — never forget a run, post its result exactly once."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from minds_bot.store import DEFAULT_CLAIM_LEASE, RecordNotFoundError, Store
from minds_bot.store.base import TERMINAL_CLAIM_LEASES
from tests.store import factories
from tests.store.conftest import START, FakeClock

CLAIMERS = 40


async def test_tracked_run_round_trips_and_is_added_once(store: Store) -> None:
    run = factories.tracked_run()
    assert await store.add_tracked_run(run) is True
    assert await store.add_tracked_run(run.model_copy(update={"channel_id": "C_OTHER"})) is False
    stored = await store.get_tracked_run(team_id="T1", run_id="run-1")
    assert stored == run.model_copy(update={"created_at": START, "updated_at": START})
    assert await store.get_tracked_run(team_id="T2", run_id="run-1") is None


async def claimed(store: Store, holder: str = "replica-a", limit: int = 10) -> list[str]:
    return [run.run_id for run in await store.claim_due_runs(holder=holder, limit=limit)]


async def test_due_runs_are_claimed_oldest_first_limited_and_never_early(store: Store, clock: FakeClock) -> None:
    await store.add_tracked_run(factories.tracked_run("late", due=START + timedelta(seconds=30)))
    await store.add_tracked_run(factories.tracked_run("b", due=START - timedelta(seconds=5)))
    await store.add_tracked_run(factories.tracked_run("a", due=START - timedelta(seconds=10)))
    await store.add_tracked_run(factories.tracked_run("c", due=START))
    assert await claimed(store, limit=2) == ["a", "b"]
    assert await claimed(store, "replica-b") == ["c"]  # a and b are leased to replica-a
    clock.advance(timedelta(minutes=1))
    assert await claimed(store, "replica-b") == ["late"]
    assert await claimed(store, "replica-c") == []


async def test_update_run_poll_records_progress_only(store: Store, clock: FakeClock) -> None:
    await store.add_tracked_run(factories.tracked_run())
    assert await store.claim_terminal_post(team_id="T1", run_id="run-1")
    clock.advance(timedelta(seconds=3))
    await store.update_run_poll(
        team_id="T1",
        run_id="run-1",
        next_poll_at=START + timedelta(seconds=20),
        attempts=2,
        last_state='{"status":"running","pct":40}',
        progress_ts="1700000000.000200",
    )
    run = await store.get_tracked_run(team_id="T1", run_id="run-1")
    assert run is not None
    assert (run.attempts, run.last_state, run.progress_ts) == (
        2,
        '{"status":"running","pct":40}',
        "1700000000.000200",
    )
    assert run.next_poll_at == START + timedelta(seconds=20)
    assert run.terminal_claimed_at == START  # the poll update left the claim alone
    assert run.updated_at == START + timedelta(seconds=3)
    with pytest.raises(RecordNotFoundError):
        await store.update_run_poll(
            team_id="T1", run_id="nope", next_poll_at=START, attempts=0, last_state=None, progress_ts=None
        )


async def test_exactly_one_concurrent_terminal_claim_wins(store: Store) -> None:
    await store.add_tracked_run(factories.tracked_run())
    results = await asyncio.gather(*(store.claim_terminal_post(team_id="T1", run_id="run-1") for _ in range(CLAIMERS)))
    assert results.count(True) == 1
    assert await claimed(store) == []  # claimed: nobody else polls it meanwhile


async def test_release_lets_a_later_poll_claim_again(store: Store) -> None:
    await store.add_tracked_run(factories.tracked_run())
    assert await store.claim_terminal_post(team_id="T1", run_id="run-1")
    await store.release_terminal_post(team_id="T1", run_id="run-1")
    assert await claimed(store) == ["run-1"]
    assert await store.claim_terminal_post(team_id="T1", run_id="run-1")


async def test_posted_run_is_never_claimed_polled_or_resumed_again(store: Store, clock: FakeClock) -> None:
    await store.add_tracked_run(factories.tracked_run("done"))
    await store.add_tracked_run(factories.tracked_run("open"))
    assert await store.claim_terminal_post(team_id="T1", run_id="done")
    clock.advance(timedelta(seconds=1))
    await store.mark_terminal_posted(team_id="T1", run_id="done")
    done = await store.get_tracked_run(team_id="T1", run_id="done")
    assert done is not None and done.terminal_posted and done.finished_at == START + timedelta(seconds=1)
    clock.advance(DEFAULT_CLAIM_LEASE * 2)
    assert await store.claim_terminal_post(team_id="T1", run_id="done") is False
    assert await claimed(store) == ["open"]
    assert [r.run_id for r in await store.unfinished_runs()] == ["open"]


async def test_an_abandoned_claim_expires_after_the_lease(store: Store, clock: FakeClock) -> None:
    await store.add_tracked_run(factories.tracked_run())
    assert await store.claim_terminal_post(team_id="T1", run_id="run-1")  # then the process "crashes"
    clock.advance(DEFAULT_CLAIM_LEASE * TERMINAL_CLAIM_LEASES)
    assert await store.claim_terminal_post(team_id="T1", run_id="run-1") is False
    assert await claimed(store) == []
    clock.advance(timedelta(seconds=1))
    assert await claimed(store) == ["run-1"]
    assert await store.claim_terminal_post(team_id="T1", run_id="run-1") is True


async def test_who_cancelled_a_run_is_kept_and_polls_leave_it(store: Store, clock: FakeClock) -> None:
    await store.add_tracked_run(factories.tracked_run())
    await store.note_cancel_requested(team_id="T1", run_id="run-1", user_id="U_ADA")
    await store.update_run_poll(
        team_id="T1", run_id="run-1", next_poll_at=START, attempts=0, last_state="x", progress_ts=None
    )
    stored = await store.get_tracked_run(team_id="T1", run_id="run-1")
    assert stored is not None and stored.cancelled_by == "U_ADA"
    with pytest.raises(RecordNotFoundError):
        await store.note_cancel_requested(team_id="T1", run_id="ghost", user_id="U_ADA")


async def test_claims_on_unknown_runs_are_errors_not_silent_losses(store: Store) -> None:
    for operation in (store.claim_terminal_post, store.release_terminal_post, store.mark_terminal_posted):
        with pytest.raises(RecordNotFoundError):
            await operation(team_id="T1", run_id="ghost")


async def test_a_direct_asks_stimulus_is_kept_for_its_retry(store: Store) -> None:
    attachment = {"url": "https://bot.example/stimuli/abc", "name": "shoe.png", "type": "image/png"}
    await store.begin_direct_ask(factories.direct_ask().model_copy(update={"attachments": [attachment]}))
    kept = await store.get_direct_ask(factories.direct_ask().client_request_id)
    assert kept is not None and kept.attachments == [attachment]


async def test_direct_ask_is_kept_before_the_call_and_reused(store: Store, clock: FakeClock) -> None:
    ask = factories.direct_ask()
    stored, created = await store.begin_direct_ask(ask)
    assert created and stored == ask.model_copy(update={"created_at": START, "updated_at": START})
    again, created = await store.begin_direct_ask(ask.model_copy(update={"question": "changed"}))
    assert not created and again == stored
    assert await store.claim_pending_direct_asks(holder="other") == []  # its asker holds it while sending
    clock.advance(DEFAULT_CLAIM_LEASE + timedelta(seconds=1))  # the asker died: another replica resumes it
    assert await store.claim_pending_direct_asks(holder="other") == [stored]

    clock.advance(timedelta(seconds=2))
    attached = await store.attach_direct_run(client_request_id=ask.client_request_id, run_id="run-42")
    assert attached.run_id == "run-42" and attached.updated_at == clock()
    assert await store.get_direct_ask(ask.client_request_id) == attached
    clock.advance(DEFAULT_CLAIM_LEASE * 2)
    assert await store.claim_pending_direct_asks(holder="other") == []
    with pytest.raises(RecordNotFoundError):
        await store.attach_direct_run(client_request_id="missing", run_id="run-1")


async def test_a_settled_ask_is_never_resent(store: Store, clock: FakeClock) -> None:
    refused, _ = await store.begin_direct_ask(factories.direct_ask("ask-refused"))
    waiting, _ = await store.begin_direct_ask(factories.direct_ask("ask-waiting"))
    settled = await store.settle_direct_ask("ask-refused")
    assert settled.settled and settled.run_id is None
    clock.advance(DEFAULT_CLAIM_LEASE * 2)
    assert [a.client_request_id for a in await store.claim_pending_direct_asks(holder="h")] == [
        waiting.client_request_id
    ]
    with pytest.raises(RecordNotFoundError):
        await store.settle_direct_ask("missing")
