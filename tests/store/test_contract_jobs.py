"""Contract: exports, digests, Slack delivery dedup, retention and secret rotation."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from slack_sdk.oauth.installation_store.models.installation import Installation

from minds_bot.store import (
    ExportState,
    RecordNotFoundError,
    RetentionPolicy,
    Store,
    StoreUnavailableError,
)
from minds_bot.store.slack_oauth import StoreInstallationStore
from tests.store import factories
from tests.store.conftest import START, FakeClock, fake_minds_key

CLAIMERS = 40


async def test_export_lifecycle(store: Store, clock: FakeClock) -> None:
    job = factories.export_job()
    assert await store.add_export(job) is True
    assert await store.add_export(job) is False
    assert await store.get_export(team_id="T1", job_id="job-1") == job.model_copy(
        update={"created_at": START, "updated_at": START}
    )
    clock.advance(timedelta(seconds=9))
    ready = await store.update_export(
        team_id="T1", job_id="job-1", state=ExportState.COMPLETED, file_name="brief.pdf", sha256="ab" * 32
    )
    assert (ready.state, ready.file_name, ready.sha256) == (ExportState.COMPLETED, "brief.pdf", "ab" * 32)
    delivered = await store.update_export(team_id="T1", job_id="job-1", state=ExportState.DELIVERED)
    assert delivered.file_name == "brief.pdf" and delivered.sha256 == "ab" * 32  # kept when not given
    assert delivered.updated_at == START + timedelta(seconds=9)
    with pytest.raises(RecordNotFoundError):
        await store.update_export(team_id="T1", job_id="nope", state=ExportState.FAILED)


async def test_unfinished_exports_are_those_neither_delivered_nor_failed(store: Store) -> None:
    for job_id, state in (
        ("q", None),
        ("p", ExportState.PROCESSING),
        ("d", ExportState.DELIVERED),
        ("f", ExportState.FAILED),
    ):
        await store.add_export(factories.export_job(job_id))
        if state is not None:
            await store.update_export(team_id="T1", job_id=job_id, state=state)
    assert sorted(job.job_id for job in await store.unfinished_exports()) == ["p", "q"]


async def test_digest_round_trip_list_and_delete(store: Store, clock: FakeClock) -> None:
    first = await store.save_digest(factories.digest("d1"))
    clock.advance(timedelta(seconds=1))
    second = await store.save_digest(factories.digest("d2", team_id="T2"))
    assert await store.get_digest("d1") == first and first.study_ids == ("study-1", "study-2")
    assert await store.list_digests() == [first, second]
    assert await store.list_digests(team_id="T2") == [second]
    clock.advance(timedelta(seconds=1))
    edited = await store.save_digest(first.model_copy(update={"spec": "fri 17:00"}))
    assert edited.created_at == first.created_at and edited.spec == "fri 17:00"
    assert await store.delete_digest("d1") is True
    assert await store.delete_digest("d1") is False
    assert await store.list_digests() == [second]


async def test_exactly_one_digest_window_claim_wins(store: Store, clock: FakeClock) -> None:
    await store.save_digest(factories.digest())
    results = await asyncio.gather(
        *(store.claim_digest_run(digest_id="digest-1", window_key="2025-W10") for _ in range(CLAIMERS))
    )
    assert results.count(True) == 1
    assert await store.claim_digest_run(digest_id="digest-1", window_key="2025-W11") is True

    clock.advance(timedelta(minutes=1))
    done = await store.complete_digest_run(digest_id="digest-1", window_key="2025-W10", watermark="run-9")
    assert done.watermark == "run-9" and done.last_posted_at == START + timedelta(minutes=1)
    await store.release_digest_run(digest_id="digest-1", window_key="2025-W10")  # completed: stays claimed
    assert await store.claim_digest_run(digest_id="digest-1", window_key="2025-W10") is False


async def test_released_digest_window_can_be_retried(store: Store) -> None:
    await store.save_digest(factories.digest())
    assert await store.claim_digest_run(digest_id="digest-1", window_key="w")
    await store.release_digest_run(digest_id="digest-1", window_key="w")
    assert await store.claim_digest_run(digest_id="digest-1", window_key="w")
    with pytest.raises(RecordNotFoundError):
        await store.complete_digest_run(digest_id="digest-1", window_key="never-claimed", watermark=None)
    with pytest.raises(RecordNotFoundError):
        await store.claim_digest_run(digest_id="ghost", window_key="w")


async def test_mark_delivery_is_true_only_the_first_time(store: Store) -> None:
    keys = ["Ev1", "Ev2", "block_actions:U1:1700000000.1"]
    assert [await store.mark_delivery(key) for key in keys] == [True, True, True]
    results = await asyncio.gather(*(store.mark_delivery("Ev3") for _ in range(CLAIMERS)))
    assert results.count(True) == 1
    assert await store.mark_delivery("Ev1") is False


async def test_prune_removes_only_old_finished_things(store: Store, clock: FakeClock) -> None:
    policy = RetentionPolicy()
    await store.mark_delivery("old-event")
    await store.add_tracked_run(factories.tracked_run("old-done"))
    await store.mark_terminal_posted(team_id="T1", run_id="old-done")
    await store.add_tracked_run(factories.tracked_run("old-open"))  # never finished: must survive
    ask, _ = await store.begin_direct_ask(factories.direct_ask("ask-answered"))
    await store.attach_direct_run(client_request_id=ask.client_request_id, run_id="run-x")
    await store.begin_direct_ask(factories.direct_ask("ask-pending"))
    await store.add_export(factories.export_job("old-delivered"))
    await store.update_export(team_id="T1", job_id="old-delivered", state=ExportState.DELIVERED)
    await store.add_export(factories.export_job("old-queued"))
    await store.save_digest(factories.digest())
    await store.claim_digest_run(digest_id="digest-1", window_key="old")
    await store.issue_oauth_state("expired", expires_at=START + timedelta(minutes=10))

    clock.advance(policy.finished + timedelta(seconds=1))
    await store.mark_delivery("new-event")
    await store.add_tracked_run(factories.tracked_run("new-done"))
    await store.mark_terminal_posted(team_id="T1", run_id="new-done")
    await store.issue_oauth_state("live", expires_at=clock() + timedelta(minutes=10))

    counts = await store.prune(clock())
    assert (counts.deliveries, counts.runs, counts.direct_asks, counts.exports) == (1, 1, 1, 1)
    assert (counts.digest_runs, counts.oauth_states, counts.total) == (1, 1, 6)
    assert await store.mark_delivery("new-event") is False
    assert {r.run_id for r in await store.unfinished_runs()} == {"old-open"}
    assert await store.get_tracked_run(team_id="T1", run_id="new-done") is not None
    assert [a.client_request_id for a in await store.claim_pending_direct_asks(holder="h")] == ["ask-pending"]
    assert [j.job_id for j in await store.unfinished_exports()] == ["old-queued"]
    assert await store.consume_oauth_state("live", now=clock()) is True
    assert (await store.prune(clock())).total == 0


async def test_rotate_secrets_rewrites_every_secret_and_keeps_them_readable(store: Store) -> None:
    await store.save_workspace(factories.workspace())
    await StoreInstallationStore(store).async_save(
        Installation(
            team_id="T1",
            user_id="U1",
            bot_token="xoxb-" + "0" * 20,
            bot_id="B1",
            bot_user_id="UB",
            user_token="xoxp-" + "0" * 20,
            installed_at=START.timestamp(),
        )
    )
    # the workspace's Minds key, the installation's bot and user tokens, and the bot's token
    assert await store.rotate_secrets() == 4
    workspace = await store.get_workspace("T1")
    assert workspace is not None and workspace.minds_key.get_secret_value() == fake_minds_key()
    bot = await store.find_bot(enterprise_id=None, team_id="T1")
    assert bot is not None and bot.bot_token.get_secret_value() == "xoxb-" + "0" * 20


async def test_ping_answers_until_closed(store: Store) -> None:
    await store.ping()
    await store.close()
    with pytest.raises(StoreUnavailableError):
        await store.ping()
