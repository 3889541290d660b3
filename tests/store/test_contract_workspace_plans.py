"""Contract: workspaces, approvers, plan posts and approvals behave the same on every Store."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from pydantic import SecretStr, ValidationError

from minds_bot.store import (
    DEFAULT_CLAIM_LEASE,
    ApprovalState,
    ConfirmationAnswer,
    PlanMemory,
    PlanState,
    PreviewReceipt,
    RecordNotFoundError,
    ShownQuestion,
    Store,
    WorkspaceSettings,
)
from tests.store import factories
from tests.store.conftest import START, FakeClock, fake_minds_key

CLAIMERS = 40


async def test_workspace_round_trips_and_updates(store: Store, clock: FakeClock) -> None:
    saved = await store.save_workspace(factories.workspace())
    loaded = await store.get_workspace("T1")
    assert loaded == saved
    assert loaded is not None and loaded.minds_key.get_secret_value() == fake_minds_key()
    assert loaded.updated_at == START

    clock.advance(timedelta(hours=1))
    await store.save_workspace(loaded.model_copy(update={"minds_key": SecretStr(fake_minds_key("1"))}))
    reloaded = await store.get_workspace("T1")
    assert reloaded is not None and reloaded.minds_key.get_secret_value() == fake_minds_key("1")
    assert reloaded.updated_at == START + timedelta(hours=1)
    assert await store.get_workspace("T2") is None


async def test_workspace_repr_never_shows_the_key(store: Store) -> None:
    await store.save_workspace(factories.workspace())
    loaded = await store.get_workspace("T1")
    assert loaded is not None
    assert fake_minds_key() not in repr(loaded)
    assert fake_minds_key() not in str(loaded)
    assert fake_minds_key() not in loaded.model_dump_json()


async def test_delete_workspace(store: Store) -> None:
    await store.save_workspace(factories.workspace())
    assert await store.delete_workspace("T1") is True
    assert await store.get_workspace("T1") is None
    assert await store.delete_workspace("T1") is False


async def test_approvers_add_remove_list(store: Store) -> None:
    assert await store.add_approver(team_id="T1", channel_id="C1", user_id="U2") is True
    assert await store.add_approver(team_id="T1", channel_id="C1", user_id="U1") is True
    assert await store.add_approver(team_id="T1", channel_id="C1", user_id="U1") is False
    assert await store.add_approver(team_id="T1", channel_id="C2", user_id="U9") is True
    assert await store.list_approvers(team_id="T1", channel_id="C1") == ["U1", "U2"]
    assert await store.remove_approver(team_id="T1", channel_id="C1", user_id="U2") is True
    assert await store.remove_approver(team_id="T1", channel_id="C1", user_id="U2") is False
    assert await store.list_approvers(team_id="T1", channel_id="C1") == ["U1"]
    assert await store.list_approvers(team_id="T2", channel_id="C1") == []


async def test_plan_post_round_trip_keeps_created_at(store: Store, clock: FakeClock) -> None:
    preparing = factories.plan_post(draft=None).model_copy(
        update={"pending_receipt": PreviewReceipt(request_id="plan-req-1", operation_id="op-1")}
    )
    first = await store.save_plan_post(preparing)
    assert await store.get_plan_post(team_id="T1", channel_id="C1", message_ts=preparing.message_ts) == first

    clock.advance(timedelta(minutes=2))
    ready = first.model_copy(
        update={
            "draft_plan_id": "draft-9",
            "revision": 2,
            "state": PlanState.OPEN,
            "pending_receipt": None,
            "frozen_blocks": '[{"type": "divider"}]',
        }
    )
    second = await store.save_plan_post(ready)
    assert second.created_at == START
    assert second.updated_at == START + timedelta(minutes=2)
    assert await store.get_plan_post(team_id="T1", channel_id="C1", message_ts=ready.message_ts) == second
    assert await store.find_plan_post(team_id="T1", draft_plan_id="draft-9") == second
    assert await store.find_plan_post(team_id="T2", draft_plan_id="draft-9") is None


async def test_find_plan_post_returns_the_latest_post_of_a_draft(store: Store, clock: FakeClock) -> None:
    await store.save_plan_post(factories.plan_post("1.1"))
    clock.advance(timedelta(seconds=1))
    newer = await store.save_plan_post(factories.plan_post("2.2"))
    found = await store.find_plan_post(team_id="T1", draft_plan_id="draft-1")
    assert found is not None and found.message_ts == newer.message_ts


async def test_recent_plan_posts_lists_a_persons_plans_newest_first(store: Store, clock: FakeClock) -> None:
    """The App Home's lists: one person's plans in one workspace, newest change first, optionally by state."""
    open_ = {"state": PlanState.OPEN}
    await store.save_plan_post(factories.plan_post("1.1").model_copy(update=open_))
    clock.advance(timedelta(seconds=1))
    await store.save_plan_post(factories.plan_post("2.2").model_copy(update={"requester_id": "U_OTHER"}))
    clock.advance(timedelta(seconds=1))
    await store.save_plan_post(factories.plan_post("3.3"))
    await store.save_plan_post(factories.plan_post("4.4", team_id="T2"))
    clock.advance(timedelta(seconds=1))
    await store.transition_plan_post(
        team_id="T1", channel_id="C1", message_ts="1.1", expected={PlanState.OPEN}, new=PlanState.RUNNING
    )

    mine = await store.recent_plan_posts(team_id="T1", requester_id="U_REQ")
    assert [p.message_ts for p in mine] == ["1.1", "3.3"]  # the transition made 1.1 the newest change
    everyone = await store.recent_plan_posts(team_id="T1", limit=2)
    assert [p.message_ts for p in everyone] == ["1.1", "3.3"]
    preparing = await store.recent_plan_posts(team_id="T1", states=[PlanState.PREPARING])
    assert [p.message_ts for p in preparing] == ["3.3", "2.2"]
    assert await store.recent_plan_posts(team_id="T3") == []


async def test_a_plan_post_remembers_its_questions_and_who_answered(store: Store) -> None:
    memory = PlanMemory(
        questions=[ShownQuestion(id="q1", text="How would you rate the price?")],
        confirmations={"cq1": "Is 140 EUR the final shelf price?"},
        answered={"cq1": ConfirmationAnswer(question="Is 140 EUR the final shelf price?", user_id="U_ADA")},
    )
    post = await store.save_plan_post(factories.plan_post().model_copy(update={"memory": memory}))
    key = {"team_id": "T1", "channel_id": "C1", "message_ts": post.message_ts}
    moved = await store.transition_plan_post(**key, expected={PlanState.PREPARING}, new=PlanState.OPEN)
    assert moved is not None and moved.memory == memory
    stored = await store.get_plan_post(**key)
    assert stored is not None and stored.memory == memory
    assert (await store.save_plan_post(factories.plan_post("2.0"))).memory is None


async def test_transition_is_compare_and_set(store: Store) -> None:
    post = await store.save_plan_post(factories.plan_post().model_copy(update={"state": PlanState.OPEN}))
    key = {"team_id": "T1", "channel_id": "C1", "message_ts": post.message_ts}
    results = await asyncio.gather(
        store.transition_plan_post(**key, expected={PlanState.OPEN}, new=PlanState.APPROVED),
        store.transition_plan_post(**key, expected={PlanState.OPEN}, new=PlanState.DISCARDED),
    )
    winners = [result for result in results if result is not None]
    assert len(winners) == 1
    stored = await store.get_plan_post(**key)
    assert stored is not None and stored.state == winners[0].state
    missing = {**key, "message_ts": "9.9"}
    assert await store.transition_plan_post(**missing, expected={PlanState.OPEN}, new=PlanState.APPROVED) is None


async def test_exactly_one_concurrent_approval_wins(store: Store) -> None:
    results = await asyncio.gather(
        *(
            store.claim_approval(
                team_id="T1",
                draft_plan_id="draft-1",
                revision=3,
                approver_id=f"U{n}",
                idempotency_key=f"key-{n}",
            )
            for n in range(CLAIMERS)
        )
    )
    created = [approval for approval, was_created in results if was_created]
    assert len(created) == 1
    winner = created[0]
    assert {approval.idempotency_key for approval, _ in results} == {winner.idempotency_key}
    assert winner.state == ApprovalState.PENDING and winner.approved_at == START
    assert await store.get_approval(team_id="T1", draft_plan_id="draft-1", revision=3) == winner


async def test_other_revisions_are_separate_approvals(store: Store) -> None:
    _, first = await store.claim_approval(
        team_id="T1", draft_plan_id="d", revision=1, approver_id="U1", idempotency_key="k1"
    )
    _, second = await store.claim_approval(
        team_id="T1", draft_plan_id="d", revision=2, approver_id="U1", idempotency_key="k2"
    )
    assert first and second


async def test_attach_run_and_pending_approvals(store: Store, clock: FakeClock) -> None:
    for revision in (1, 2):
        await store.claim_approval(
            team_id="T1",
            draft_plan_id="d",
            revision=revision,
            approver_id="U1",
            idempotency_key=f"k{revision}",
        )
    clock.advance(timedelta(seconds=5))
    attached = await store.attach_run(team_id="T1", draft_plan_id="d", revision=1, run_id="run-7")
    assert attached.state == ApprovalState.SUBMITTED and attached.run_id == "run-7"
    assert attached.updated_at == START + timedelta(seconds=5)
    assert await store.claim_pending_approvals(holder="other") == []  # their approvers hold them while confirming
    clock.advance(DEFAULT_CLAIM_LEASE)
    assert [a.revision for a in await store.claim_pending_approvals(holder="other")] == [2]
    assert await store.claim_pending_approvals(holder="third") == []  # now "other" holds it
    with pytest.raises(RecordNotFoundError):
        await store.attach_run(team_id="T1", draft_plan_id="d", revision=5, run_id="run-8")


async def test_failed_approval_can_be_claimed_again_but_submitted_cannot(store: Store) -> None:
    await store.claim_approval(team_id="T1", draft_plan_id="d", revision=1, approver_id="U1", idempotency_key="k1")
    failed = await store.fail_approval(team_id="T1", draft_plan_id="d", revision=1, reason="PLAN_LIMIT")
    assert failed.state == ApprovalState.FAILED and failed.failure == "PLAN_LIMIT"

    again, created = await store.claim_approval(
        team_id="T1", draft_plan_id="d", revision=1, approver_id="U2", idempotency_key="k2"
    )
    assert created and again.idempotency_key == "k2" and again.approver_id == "U2"
    assert again.state == ApprovalState.PENDING and again.failure is None

    await store.attach_run(team_id="T1", draft_plan_id="d", revision=1, run_id="run-1")
    third, created = await store.claim_approval(
        team_id="T1", draft_plan_id="d", revision=1, approver_id="U3", idempotency_key="k3"
    )
    assert not created and third.run_id == "run-1" and third.idempotency_key == "k2"
    with pytest.raises(RecordNotFoundError):
        await store.fail_approval(team_id="T1", draft_plan_id="x", revision=1, reason="nope")


def test_records_refuse_naive_datetimes() -> None:
    with pytest.raises(ValidationError):
        WorkspaceSettings.model_validate(
            {**factories.workspace().model_dump(), "connected_at": START.replace(tzinfo=None)}
        )


async def test_an_approval_keeps_the_model_connection_it_pinned_for_every_retry(store: Store) -> None:
    claimed, created = await store.claim_approval(
        team_id="T1", draft_plan_id="d", revision=2, approver_id="U1", idempotency_key="k1", model_connection=("mc", 4)
    )
    assert created and claimed.model_connection == ("mc", 4)
    loser, created = await store.claim_approval(
        team_id="T1", draft_plan_id="d", revision=2, approver_id="U2", idempotency_key="k2"
    )
    assert not created and loser.model_connection == ("mc", 4)  # the second click sends the first one's pick
    await store.fail_approval(team_id="T1", draft_plan_id="d", revision=2, reason="refused")
    again, created = await store.claim_approval(
        team_id="T1", draft_plan_id="d", revision=2, approver_id="U2", idempotency_key="k3"
    )
    assert created and again.model_connection is None  # re-pended with the new approver's choice: Minds' own


async def test_an_approval_remembers_the_advanced_method_opt_in(store: Store) -> None:
    claimed, created = await store.claim_approval(
        team_id="T1", draft_plan_id="d", revision=2, approver_id="U1", idempotency_key="k1", advanced_opt_in=True
    )
    assert created and claimed.advanced_opt_in
    loser, created = await store.claim_approval(
        team_id="T1", draft_plan_id="d", revision=2, approver_id="U2", idempotency_key="k2"
    )
    assert not created and loser.advanced_opt_in and loser.idempotency_key == "k1"
    assert (await store.get_approval(team_id="T1", draft_plan_id="d", revision=2)).advanced_opt_in  # type: ignore[union-attr]
