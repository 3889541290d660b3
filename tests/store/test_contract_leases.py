"""Contract: leases, not luck — each due run, interrupted approval and question is claimed by exactly one replica,
renewed while it works, and taken over when its holder dies (the lease runs out). On every engine; the
cross-process tests open two stores on one SQLite file or one PostgreSQL database."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import timedelta

import pytest

from minds_bot import metrics
from minds_bot.store import DEFAULT_CLAIM_LEASE, SecretBox, Store
from tests.store import factories
from tests.store.conftest import SQL_ENGINES, START, FakeClock, open_sql, sql_database

LEASE = DEFAULT_CLAIM_LEASE
RUNS = 60
REPLICAS = 6


async def ids(store: Store, holder: str, limit: int = 100) -> list[str]:
    return [run.run_id for run in await store.claim_due_runs(holder=holder, limit=limit)]


async def test_a_claimed_run_is_nobody_elses_until_its_lease_runs_out(store: Store, clock: FakeClock) -> None:
    await store.add_tracked_run(factories.tracked_run())
    assert await ids(store, "a") == ["run-1"]
    assert await ids(store, "b") == []
    clock.advance(LEASE)
    assert await ids(store, "b") == []  # still exactly at its end: live
    clock.advance(timedelta(seconds=1))  # replica a died: its lease ran out
    assert await ids(store, "b") == ["run-1"]
    assert await ids(store, "a") == []


async def test_renewal_keeps_the_lease_and_only_its_holder_can_renew(store: Store, clock: FakeClock) -> None:
    await store.add_tracked_run(factories.tracked_run())
    await ids(store, "a")
    clock.advance(LEASE - timedelta(seconds=1))
    assert await store.renew_run_leases(holder="b", keys=[("T1", "run-1")]) == 0
    assert await store.renew_run_leases(holder="a", keys=[("T1", "run-1"), ("T1", "ghost")]) == 1
    clock.advance(timedelta(seconds=2))
    assert await ids(store, "b") == []  # renewed: replica a is still polling it
    clock.advance(LEASE)
    assert await ids(store, "b") == ["run-1"]


async def test_recording_a_poll_ends_the_lease(store: Store, clock: FakeClock) -> None:
    await store.add_tracked_run(factories.tracked_run())
    (run,) = await store.claim_due_runs(holder="a", limit=10)
    await store.update_run_poll(
        team_id="T1", run_id="run-1", next_poll_at=clock(), attempts=1, last_state="running", progress_ts=None
    )
    assert await ids(store, "b") == ["run-1"]  # due again at once, for whichever replica asks first


async def test_a_terminal_claim_is_renewed_with_the_lease(store: Store, clock: FakeClock) -> None:
    await store.add_tracked_run(factories.tracked_run())
    await ids(store, "a")
    assert await store.claim_terminal_post(team_id="T1", run_id="run-1")
    clock.advance(LEASE - timedelta(seconds=1))
    assert await store.renew_run_leases(holder="a", keys=[("T1", "run-1")]) == 1
    clock.advance(timedelta(seconds=2))
    assert await store.claim_terminal_post(team_id="T1", run_id="run-1") is False  # still being posted
    await store.mark_terminal_posted(team_id="T1", run_id="run-1")
    clock.advance(LEASE * 3)
    assert await ids(store, "b") == []
    assert await store.renew_run_leases(holder="a", keys=[("T1", "run-1")]) == 0


async def test_concurrent_claimers_split_the_due_runs_without_overlap(store: Store) -> None:
    for n in range(RUNS):
        await store.add_tracked_run(factories.tracked_run(f"run-{n:03}"))
    batches = await asyncio.gather(*(ids(store, f"replica-{n}", limit=15) for n in range(REPLICAS)))
    claimed = [run_id for batch in batches for run_id in batch]
    assert sorted(claimed) == sorted(f"run-{n:03}" for n in range(RUNS))  # every run, each exactly once


async def test_an_interrupted_approval_is_resumed_by_exactly_one_replica(store: Store, clock: FakeClock) -> None:
    await store.claim_approval(team_id="T1", draft_plan_id="d", revision=1, approver_id="U1", idempotency_key="k")
    assert await store.claim_pending_approvals(holder="b") == []  # its approver's replica is confirming it
    clock.advance(LEASE + timedelta(seconds=1))
    claims = await asyncio.gather(*(store.claim_pending_approvals(holder=f"r{n}") for n in range(REPLICAS)))
    assert [len(claim) for claim in claims].count(1) == 1 and sum(len(claim) for claim in claims) == 1
    (approval,) = next(claim for claim in claims if claim)
    assert approval.idempotency_key == "k"


async def test_an_interrupted_question_is_resent_by_exactly_one_replica(store: Store, clock: FakeClock) -> None:
    await store.begin_direct_ask(factories.direct_ask())
    clock.advance(LEASE + timedelta(seconds=1))
    claims = await asyncio.gather(*(store.claim_pending_direct_asks(holder=f"r{n}") for n in range(REPLICAS)))
    assert sum(len(claim) for claim in claims) == 1


async def test_prune_reports_whether_it_ran(store: Store, clock: FakeClock) -> None:
    assert (await store.prune(START)).skipped is False


@pytest.fixture(params=SQL_ENGINES)
async def replicas(
    request: pytest.FixtureRequest, db_path: str, box: SecretBox, clock: FakeClock
) -> AsyncIterator[list[Store]]:
    """Several stores (as several processes would open) on one SQLite file or one PostgreSQL database."""
    async with sql_database(request, request.param, db_path) as where:
        stores = [await open_sql(request.param, where, box=box, clock=clock) for _ in range(3)]
        try:
            yield stores
        finally:
            for opened in stores:
                await opened.close()


async def test_replicas_on_one_database_never_claim_the_same_run(replicas: list[Store]) -> None:
    for n in range(RUNS):
        await replicas[0].add_tracked_run(factories.tracked_run(f"run-{n:03}"))
    claimers = [replicas[n % len(replicas)] for n in range(REPLICAS)]
    batches = await asyncio.gather(*(ids(s, f"replica-{n}", limit=12) for n, s in enumerate(claimers)))
    claimed = [run_id for batch in batches for run_id in batch]
    assert sorted(claimed) == sorted(f"run-{n:03}" for n in range(RUNS))
    assert await ids(replicas[1], "late") == []


async def test_a_dead_replicas_runs_are_taken_over_by_another(replicas: list[Store], clock: FakeClock) -> None:
    first, second, _ = replicas
    taken = metrics.lease_takeovers.value("run")
    await first.add_tracked_run(factories.tracked_run())
    assert await ids(first, "first") == ["run-1"]
    assert metrics.lease_takeovers.value("run") == taken  # a first claim takes nothing over
    await first.close()  # the holder is gone without a word
    assert await ids(second, "second") == []
    clock.advance(LEASE + timedelta(seconds=1))
    assert await ids(second, "second") == ["run-1"]
    # What an operator graphs: one run taken over from a replica whose lease ran out.
    assert metrics.lease_takeovers.value("run") == taken + 1


async def test_replicas_resume_each_interrupted_approval_once(replicas: list[Store], clock: FakeClock) -> None:
    for revision in range(1, 6):
        await replicas[0].claim_approval(
            team_id="T1", draft_plan_id="d", revision=revision, approver_id="U1", idempotency_key=f"k{revision}"
        )
    clock.advance(LEASE + timedelta(seconds=1))
    claims = await asyncio.gather(*(s.claim_pending_approvals(holder=f"r{n}") for n, s in enumerate(replicas * 2)))
    resumed = [approval.revision for claim in claims for approval in claim]
    assert sorted(resumed) == [1, 2, 3, 4, 5]


async def test_a_released_approval_waits_for_a_person_not_for_another_replica(store: Store, clock: FakeClock) -> None:
    await store.claim_approval(team_id="T1", draft_plan_id="d", revision=1, approver_id="U1", idempotency_key="k1")
    await store.claim_approval(team_id="T1", draft_plan_id="d", revision=2, approver_id="U1", idempotency_key="k2")
    await store.release_approval(team_id="T1", draft_plan_id="d", revision=1)  # Minds did not answer: retry by hand
    clock.advance(LEASE + timedelta(seconds=1))  # revision 2's confirmer died
    abandoned = await store.claim_pending_approvals(holder="b", abandoned_only=True)
    assert [a.revision for a in abandoned] == [2]
    assert [a.revision for a in await store.claim_pending_approvals(holder="starting")] == [1]  # a start-up: all


async def test_a_released_question_waits_for_try_again_not_for_another_replica(store: Store, clock: FakeClock) -> None:
    await store.begin_direct_ask(factories.direct_ask("ask-released"))
    await store.begin_direct_ask(factories.direct_ask("ask-abandoned"))
    await store.release_direct_ask("ask-released")
    clock.advance(LEASE + timedelta(seconds=1))
    abandoned = await store.claim_pending_direct_asks(holder="b", abandoned_only=True)
    assert [a.client_request_id for a in abandoned] == ["ask-abandoned"]
    assert [a.client_request_id for a in await store.claim_pending_direct_asks(holder="s")] == ["ask-released"]
