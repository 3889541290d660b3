"""Issue #18, model connections: a verified connection can be picked for a run on the plan message; unverified
ones are named but never offered, nothing is picked by default, and the pick is checked with Minds on approval
and pinned as (id, revision) for every retry of that approval. Through the real Bolt app."""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest

from minds_bot.flows.research import resume_pending_approvals
from minds_bot.store import DEFAULT_CLAIM_LEASE, PlanState, RunKind
from minds_sandbox.routes_tools import CONNECTIONS as SANDBOX_CONNECTIONS
from tests.fakes.bot import CHANNEL, TEAM, BotHarness, bot_harness
from tests.fakes.minds_http import envelope, ok, raw
from tests.slack.plan_samples import study_data
from tests.slack.test_plan_listeners import REQUESTER, RUNS, STUDY_ID, _button, dump, open_plan

VERIFIED, UNVERIFIED = (dict(c) for c in SANDBOX_CONNECTIONS)  # Minds' shapes, as the sandbox serves them
CONNECTIONS = "/model-connections"


def listed(*connections: dict[str, Any]) -> Any:
    return raw({"data": list(connections), "pagination": {"nextCursor": None}})


@pytest.fixture
async def bot() -> AsyncIterator[BotHarness]:
    async with bot_harness(unique_ts=True, user=REQUESTER) as harness:
        harness.minds_api.on("GET", f"/studies/{STUDY_ID}", ok(study_data()))
        harness.minds_api.set("GET", CONNECTIONS, listed(VERIFIED, UNVERIFIED))
        harness.minds_api.on("POST", RUNS, ok({"runId": "run-1", "status": "queued"}))
        yield harness


def picker(blocks: list[dict[str, Any]]) -> dict[str, Any]:
    (select,) = [e for b in blocks if b["type"] == "actions" for e in b["elements"] if e["type"] == "static_select"]
    return select


def picked(value: str) -> dict[str, Any]:
    option = {"value": value, "text": {"type": "plain_text", "text": value}}
    return {"plan_model_block": {"plan_model_connection": {"type": "static_select", "selected_option": option}}}


async def approve(bot: BotHarness, ts: str, blocks: list[dict[str, Any]], state: dict[str, Any] | None) -> None:
    button = _button(blocks, "Approve & run")
    extra = {"state": state} if state is not None else {}
    await bot.click(message_ts=ts, blocks=blocks, action_id=button["action_id"], value=button["value"], **extra)


async def test_the_plan_offers_only_verified_connections_with_minds_own_models_preselected(bot: BotHarness) -> None:
    _, blocks = await open_plan(bot, confirmationQuestions=[])
    select = picker(blocks)
    assert [o["text"]["text"] for o in select["options"]] == ["Minds' own models", "Team Azure GPT (revision 3)"]
    assert select["initial_option"]["value"] == "minds"
    assert "Not verified, so not offered: Local Llama (unverified) (revision 1)" in dump(blocks)


async def test_a_picked_verified_connection_is_pinned_and_named_on_the_approved_plan(bot: BotHarness) -> None:
    ts, blocks = await open_plan(bot, confirmationQuestions=[])
    await approve(bot, ts, blocks, picked(VERIFIED["id"]))
    await bot.tracker.next_tracked(RunKind.RESEARCH)
    (confirm,) = bot.minds_api.to("POST", RUNS)
    assert json.loads(confirm.body)["modelConnection"] == {"id": VERIFIED["id"], "revision": 3}
    approval = await bot.store.get_approval(team_id=TEAM, draft_plan_id="draft-1", revision=1)
    assert approval is not None and approval.model_connection == (VERIFIED["id"], 3)
    frozen = [c for c in bot.slack.calls_to("chat.update") if c["ts"] == ts][-1]
    assert "answer with the model connection Team Azure GPT (revision 3)" in dump(frozen["blocks"])


async def test_without_a_pick_the_run_uses_minds_own_models(bot: BotHarness) -> None:
    ts, blocks = await open_plan(bot, confirmationQuestions=[])
    await approve(bot, ts, blocks, None)
    await bot.tracker.next_tracked(RunKind.RESEARCH)
    (confirm,) = bot.minds_api.to("POST", RUNS)
    assert "modelConnection" not in json.loads(confirm.body)


@pytest.mark.parametrize(
    ("value", "now_listed"),
    [
        (UNVERIFIED["id"], (VERIFIED, UNVERIFIED)),  # a crafted payload picks the unverified one
        (VERIFIED["id"], (UNVERIFIED,)),  # removed in Minds since the plan was shown
        (VERIFIED["id"], ({**VERIFIED, "verifiedAt": None},)),  # no longer verified
    ],
    ids=["unverified", "gone", "unverified since"],
)
async def test_a_pick_that_is_not_verified_now_is_refused_and_nothing_runs(
    bot: BotHarness, value: str, now_listed: tuple[dict[str, Any], ...]
) -> None:
    ts, blocks = await open_plan(bot, confirmationQuestions=[])
    bot.minds_api.set("GET", CONNECTIONS, listed(*now_listed))
    await approve(bot, ts, blocks, picked(value))
    assert "no longer listed as verified" in await bot.refusal()
    assert bot.minds_api.to("POST", RUNS) == []
    post = await bot.store.get_plan_post(team_id=TEAM, channel_id=CHANNEL, message_ts=ts)
    assert post is not None and post.state == PlanState.OPEN  # pick again and approve


async def test_a_forged_pick_longer_than_slack_allows_is_not_read_and_minds_own_models_run(bot: BotHarness) -> None:
    ts, blocks = await open_plan(bot, confirmationQuestions=[])
    await approve(bot, ts, blocks, picked("x" * 40_000))
    await bot.tracker.next_tracked(RunKind.RESEARCH)
    (confirm,) = bot.minds_api.to("POST", RUNS)
    assert "modelConnection" not in json.loads(confirm.body)
    assert len(bot.minds_api.to("GET", CONNECTIONS)) == 1  # the plan message's read: the forged value was not


async def test_when_minds_cannot_list_connections_now_the_approval_is_refused_not_guessed(bot: BotHarness) -> None:
    ts, blocks = await open_plan(bot, confirmationQuestions=[])
    bot.minds_api.set("GET", CONNECTIONS, envelope(503, message="busy"))
    await approve(bot, ts, blocks, picked(VERIFIED["id"]))
    assert "Could not check the model connection with Minds" in await bot.refusal()
    assert bot.minds_api.to("POST", RUNS) == []


async def test_a_server_without_model_connections_shows_no_picker(bot: BotHarness) -> None:
    bot.minds_api.set("GET", CONNECTIONS, envelope(404, code="MODEL_CONNECTIONS_DISABLED"))
    _, blocks = await open_plan(bot, confirmationQuestions=[])
    assert not [e for b in blocks if b["type"] == "actions" for e in b["elements"] if e["type"] == "static_select"]
    assert "model connection" not in dump(blocks).lower()


async def test_an_unreadable_list_is_said_on_the_plan_not_shown_as_none(bot: BotHarness) -> None:
    bot.minds_api.set("GET", CONNECTIONS, raw({"data": "not a list"}))
    _, blocks = await open_plan(bot, confirmationQuestions=[])
    assert "Model connections could not be read from Minds" in dump(blocks)


async def test_a_resumed_approval_sends_the_connection_it_pinned(bot: BotHarness) -> None:
    ts, _ = await open_plan(bot, confirmationQuestions=[])
    await bot.store.transition_plan_post(
        team_id=TEAM, channel_id=CHANNEL, message_ts=ts, expected={PlanState.OPEN}, new=PlanState.APPROVED
    )
    approval, _ = await bot.store.claim_approval(
        team_id=TEAM,
        draft_plan_id="draft-1",
        revision=1,
        approver_id=REQUESTER,
        idempotency_key=str(uuid.uuid4()),
        model_connection=(VERIFIED["id"], 3),
    )
    bot.clock.advance(DEFAULT_CLAIM_LEASE.total_seconds() + 1)  # the crashed claimer's lease ran out
    assert await resume_pending_approvals(bot.services) == 1
    (confirm,) = bot.minds_api.to("POST", RUNS)
    body = json.loads(confirm.body)
    assert body["idempotencyKey"] == approval.idempotency_key
    assert body["modelConnection"] == {"id": VERIFIED["id"], "revision": 3}
