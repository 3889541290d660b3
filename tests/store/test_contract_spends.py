"""Contract: spend with consent — a channel's policy per action (kept per channel, replaced by the next
setting) and the spend ledger (kept as first recorded, listed newest first, and decided exactly once)."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from minds_bot.store import ChannelPolicy, PolicyMode, Spend, SpendOutcome, Store
from tests.store.conftest import START, FakeClock


def spend(spend_id: str = "s-1", *, channel_id: str = "C1", outcome: SpendOutcome = SpendOutcome.HELD) -> Spend:
    return Spend(
        team_id="T1",
        spend_id=spend_id,
        channel_id=channel_id,
        user_id="U1",
        action="ask",
        subject="Would you buy it?",
        command="ask study-1 Would you buy it?",
        responses=28,
        outcome=outcome,
    )


async def test_a_policy_is_per_channel_and_replaced_by_the_next_setting(store: Store, clock: FakeClock) -> None:
    await store.set_channel_policy(
        ChannelPolicy(team_id="T1", channel_id="C1", action="ask", mode=PolicyMode.APPROVE, set_by="U1")
    )
    clock.advance(timedelta(minutes=1))
    await store.set_channel_policy(
        ChannelPolicy(team_id="T1", channel_id="C1", action="ask", mode=PolicyMode.REFUSE, set_by="U2")
    )
    await store.set_channel_policy(
        ChannelPolicy(team_id="T1", channel_id="C2", action="heatmap", mode=PolicyMode.NOW, set_by="U1")
    )
    [policy] = await store.list_channel_policies(team_id="T1", channel_id="C1")
    assert (policy.action, policy.mode, policy.set_by) == ("ask", PolicyMode.REFUSE, "U2")
    assert policy.updated_at == START + timedelta(minutes=1)
    assert await store.list_channel_policies(team_id="T2", channel_id="C1") == []


async def test_spends_are_kept_as_first_recorded_and_listed_newest_first(store: Store, clock: FakeClock) -> None:
    first = await store.add_spend(spend("s-1"))
    assert first.created_at == START and first.responses == 28
    assert await store.add_spend(spend("s-1").model_copy(update={"responses": 1})) == first
    clock.advance(timedelta(hours=1))
    await store.add_spend(spend("s-2"))
    await store.add_spend(spend("s-3", channel_id="C2"))
    listed = await store.list_spends(team_id="T1", channel_id="C1", since=START)
    assert [s.spend_id for s in listed] == ["s-2", "s-1"]
    later = await store.list_spends(team_id="T1", channel_id="C1", since=START + timedelta(minutes=30))
    assert [s.spend_id for s in later] == ["s-2"]
    assert await store.get_spend(team_id="T2", spend_id="s-1") is None


async def test_a_held_spend_is_decided_exactly_once(store: Store) -> None:
    await store.add_spend(spend())
    tries = [
        store.transition_spend(
            team_id="T1", spend_id="s-1", expected=(SpendOutcome.HELD,), new=SpendOutcome.APPROVED, decided_by=who
        )
        for who in ("U7", "U8", "U9")
    ]
    won = [s for s in await asyncio.gather(*tries) if s is not None]
    assert len(won) == 1 and won[0].outcome is SpendOutcome.APPROVED
    sent = await store.transition_spend(
        team_id="T1", spend_id="s-1", expected=(SpendOutcome.APPROVED,), new=SpendOutcome.STARTED, detail="run-1"
    )
    assert sent is not None and sent.decided_by == won[0].decided_by and sent.detail == "run-1"
    assert (
        await store.transition_spend(
            team_id="T1", spend_id="s-1", expected=(SpendOutcome.HELD,), new=SpendOutcome.DECLINED
        )
        is None
    )


async def test_the_responses_minds_counted_are_added_once_it_answered(store: Store) -> None:
    """Issue 34 row 9: a research run's spend is recorded with its count not known, then counts what Minds received."""
    unknown = spend("s-run", outcome=SpendOutcome.STARTED).model_copy(update={"responses": None})
    await store.add_spend(unknown)
    counted = await store.transition_spend(
        team_id="T1", spend_id="s-run", expected=(SpendOutcome.STARTED,), new=SpendOutcome.STARTED, responses=23
    )
    assert counted is not None and counted.responses == 23 and counted.outcome is SpendOutcome.STARTED
    kept = await store.transition_spend(
        team_id="T1", spend_id="s-run", expected=(SpendOutcome.STARTED,), new=SpendOutcome.STARTED, detail="run-1"
    )
    assert kept is not None and kept.responses == 23, "a later transition without a count keeps it"
