"""A channel plans research through the real Bolt app: signed requests in, the fake Minds API and fake Slack
behind. Plan → 202 → observed → plan message; answers revise the same message; stale and unauthorised clicks
are refused from stored state; Approve confirms exactly once; refusals are said honestly."""

from __future__ import annotations

import asyncio
import json
import random
import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest

from minds_bot.flows.research import resume_pending_approvals
from minds_bot.store import DEFAULT_CLAIM_LEASE, ApprovalState, PlanState, RunKind
from tests.fakes.bot import CHANNEL, TEAM, BotHarness, WatchedTracker, bot_harness
from tests.fakes.minds_http import envelope, ok
from tests.fakes.slack_web import FakeSlack
from tests.slack.plan_samples import plan_data, study_data

STUDY_ID = "11111111-1111-4111-8111-111111111111"
REQUESTER = "UREQ"
PREVIEW = f"/studies/{STUDY_ID}/research-plans/preview"
RUNS = f"/studies/{STUDY_ID}/research-runs"
RECEIPT = {"status": "pending", "accepted": True, "operationId": "op-1", "requestId": "plan-req-1", "stage": "drafting"}


@pytest.fixture
async def bot() -> AsyncIterator[BotHarness]:
    async with bot_harness(unique_ts=True, user=REQUESTER) as harness:
        harness.minds_api.on("GET", f"/studies/{STUDY_ID}", ok(study_data()))
        yield harness


def dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _plan_updates(slack: FakeSlack, ts: str) -> list[dict[str, Any]]:
    return [c for c in slack.calls_to("chat.update") if c["ts"] == ts and "Research plan" in dump(c)]


async def open_plan(bot: BotHarness, **plan_kwargs: Any) -> tuple[str, list[dict[str, Any]]]:
    """Run /minds plan until the plan message shows revision 1; returns its ts and blocks."""
    bot.minds_api.set("POST", PREVIEW, ok(plan_data(**plan_kwargs)))
    await bot.command(f"plan {STUDY_ID} Which launch message works best?")
    run = await bot.tracker.next_tracked(RunKind.PLAN)
    await bot.tick()
    (update,) = _plan_updates(bot.slack, run.thread_ts or "")
    return update["ts"], update["blocks"]


def _button(blocks: list[dict[str, Any]], text: str) -> dict[str, Any]:
    for block in blocks:
        for element in block.get("elements") or []:
            if element.get("type") == "button" and element["text"]["text"] == text:
                return element
    raise AssertionError(f"no button {text!r}")


async def test_a_plan_request_is_prepared_through_a_202_and_shown_in_place(bot: BotHarness) -> None:
    bot.minds_api.on("POST", PREVIEW, ok(RECEIPT, status=202), ok(plan_data()))
    await bot.command(f"plan {STUDY_ID} Which launch message works best?")
    run = await bot.tracker.next_tracked(RunKind.PLAN)
    (posted,) = bot.slack.calls_to("chat.postMessage")
    assert posted["text"] == "Preparing the plan for Reusable cups…"
    stored = await bot.store.get_plan_post(team_id=TEAM, channel_id=CHANNEL, message_ts=run.thread_ts or "")
    assert stored is not None and stored.state == PlanState.PREPARING
    assert stored.pending_receipt is not None and stored.pending_receipt.body  # key and body saved before any call
    assert bot.minds_api.to("POST", PREVIEW) == []

    await bot.tick()  # 202: accepted, still preparing
    (progress,) = bot.slack.calls_to("chat.update")
    assert progress["ts"] == run.thread_ts and "stage: drafting" in progress["text"]
    await bot.tick()  # the same POST again, now 200
    first, second = bot.minds_api.to("POST", PREVIEW)
    assert first.headers["Idempotency-Key"] == second.headers["Idempotency-Key"] == stored.preview_idempotency_key
    assert first.body == second.body and json.loads(first.body)["request"] == "Which launch message works best?"
    assert second.headers["x-minds-study-plan-request-id"] == "plan-req-1"
    assert "x-minds-study-plan-request-id" not in first.headers
    (shown,) = _plan_updates(bot.slack, run.thread_ts)
    assert "Q1. Do you drink coffee on the go?" in dump(shown["blocks"])
    opened = await bot.store.get_plan_post(team_id=TEAM, channel_id=CHANNEL, message_ts=run.thread_ts)
    assert opened is not None and (opened.state, opened.revision) == (PlanState.OPEN, 1)
    await bot.tick(3)
    assert len(bot.minds_api.to("POST", PREVIEW)) == 2  # observation stops at the 200


async def test_answering_a_confirmation_question_updates_the_same_message_to_the_next_revision(bot: BotHarness) -> None:
    ts, blocks = await open_plan(bot)
    bot.minds_api.set("POST", PREVIEW, ok(plan_data(revision=2)))
    await bot.click(
        message_ts=ts,
        blocks=blocks,
        action_id=_button(blocks, "Yes")["action_id"],
        value=_button(blocks, "Yes")["value"],
    )
    await bot.tracker.next_tracked(RunKind.PLAN)
    await bot.tick()
    sent = json.loads(bot.minds_api.to("POST", PREVIEW)[-1].body)
    assert sent == {"answers": {"cq1": "Yes"}, "draftPlanId": "draft-1", "revision": 1}
    latest = _plan_updates(bot.slack, ts)[-1]
    assert "Revision 2 ·" in dump(latest["blocks"])
    post = await bot.store.get_plan_post(team_id=TEAM, channel_id=CHANNEL, message_ts=ts)
    assert post is not None and post.revision == 2 and post.state == PlanState.OPEN


async def test_a_click_on_an_older_revision_is_refused_and_changes_nothing(bot: BotHarness) -> None:
    ts, blocks = await open_plan(bot)
    bot.minds_api.set("POST", PREVIEW, ok(plan_data(revision=2)))
    yes = _button(blocks, "Yes")
    await bot.click(message_ts=ts, blocks=blocks, action_id=yes["action_id"], value=yes["value"])
    await bot.tracker.next_tracked(RunKind.PLAN)
    await bot.tick()
    calls = len(bot.minds_api.sent)
    no = _button(blocks, "No")  # still carries revision 1
    await bot.click(message_ts=ts, blocks=blocks, action_id=no["action_id"], value=no["value"])
    assert "belongs to revision 1, but the plan is now at revision 2" in await bot.refusal()
    # revision 1 still had open questions, so it never showed Approve: a crafted click is refused all the same
    await bot.click(message_ts=ts, blocks=blocks, action_id="plan_approve", value=dump({"r": 1}))
    assert "Only the latest revision can run" in await bot.refusal()
    assert len(bot.minds_api.sent) == calls


async def test_a_stale_revision_409_reloads_the_latest_and_says_the_edit_was_not_applied(bot: BotHarness) -> None:
    ts, blocks = await open_plan(bot)
    bot.minds_api.set("POST", PREVIEW, envelope(409, message="stale revision"), ok(plan_data(revision=3)))
    yes = _button(blocks, "Yes")
    await bot.click(message_ts=ts, blocks=blocks, action_id=yes["action_id"], value=yes["value"])
    await bot.tracker.next_tracked(RunKind.PLAN)
    await bot.tick()
    reload = json.loads(bot.minds_api.to("POST", PREVIEW)[-1].body)
    assert reload == {"draftPlanId": "draft-1", "loadLatest": True}
    latest = dump(_plan_updates(bot.slack, ts)[-1]["blocks"])
    assert "Revision 3 ·" in latest and "your edit was not applied" in latest
    post = await bot.store.get_plan_post(team_id=TEAM, channel_id=CHANNEL, message_ts=ts)
    assert post is not None and post.revision == 3


async def test_someone_who_is_not_an_approver_is_refused_from_stored_state(bot: BotHarness) -> None:
    ts, blocks = await open_plan(bot, confirmationQuestions=[])
    bot.slack.users["UOTHER"] = {"id": "UOTHER", "is_admin": False, "is_owner": False}
    approve = _button(blocks, "Approve & run")
    await bot.click(message_ts=ts, blocks=blocks, action_id=approve["action_id"], value=approve["value"], user="UOTHER")
    assert "Only the person who asked for this plan (<@UREQ>)" in await bot.refusal()
    assert bot.minds_api.to("POST", RUNS) == []
    await bot.store.add_approver(team_id=TEAM, channel_id=CHANNEL, user_id="UOTHER")
    bot.minds_api.on("POST", RUNS, ok({"runId": "run-1", "status": "queued"}))
    await bot.click(message_ts=ts, blocks=blocks, action_id=approve["action_id"], value=approve["value"], user="UOTHER")
    await bot.tracker.next_tracked(RunKind.RESEARCH)
    assert len(bot.minds_api.to("POST", RUNS)) == 1


async def test_a_workspace_admin_may_approve(bot: BotHarness) -> None:
    ts, blocks = await open_plan(bot, confirmationQuestions=[])
    bot.slack.users["UADMIN"] = {"id": "UADMIN", "is_admin": True}
    bot.minds_api.on("POST", RUNS, ok({"runId": "run-1", "status": "queued"}))
    approve = _button(blocks, "Approve & run")
    await bot.click(message_ts=ts, blocks=blocks, action_id=approve["action_id"], value=approve["value"], user="UADMIN")
    run = await bot.tracker.next_tracked(RunKind.RESEARCH)
    assert run.thread_ts == ts
    frozen = bot.slack.calls_to("chat.update")[-1]
    assert "Approved by <@UADMIN>: revision 1 is running" in dump(frozen["blocks"])
    actions = [e["action_id"] for b in frozen["blocks"] if b["type"] == "actions" for e in b["elements"]]
    assert actions == ["run_notify_me"], "the plan's buttons are gone; only Notify me when it ends is offered"


async def test_concurrent_and_repeated_approvals_confirm_exactly_once(bot: BotHarness) -> None:
    ts, blocks = await open_plan(bot, confirmationQuestions=[])
    bot.minds_api.on("POST", RUNS, ok({"runId": "run-1", "status": "queued"}))
    approve = _button(blocks, "Approve & run")
    click = {"message_ts": ts, "blocks": blocks, "action_id": approve["action_id"], "value": approve["value"]}
    await asyncio.gather(bot.click(**click), bot.click(**click), bot.click(**click, action_ts="1733150000.999999"))
    await bot.click(**click, action_ts="1733150000.999999")  # Slack redelivers the same action
    await bot.tracker.next_tracked(RunKind.RESEARCH)
    refusals = [await bot.refusal(), await bot.refusal()]
    assert all("approv" in r for r in refusals)
    (confirm,) = bot.minds_api.to("POST", RUNS)
    body = json.loads(confirm.body)
    assert body["draftPlanId"] == "draft-1" and body["revision"] == 1 and body["confirmation"] == {"accepted": True}
    approval = await bot.store.get_approval(team_id=TEAM, draft_plan_id="draft-1", revision=1)
    assert approval is not None and approval.idempotency_key == body["idempotencyKey"]
    assert approval.state == ApprovalState.SUBMITTED and approval.run_id == "run-1"
    await bot.click(**click, action_ts="1733150001.000001")
    assert "already approved by <@UREQ>" in await bot.refusal()
    assert len(bot.minds_api.to("POST", RUNS)) == 1


async def test_a_retry_after_no_answer_reuses_the_same_key(bot: BotHarness) -> None:
    ts, blocks = await open_plan(bot, confirmationQuestions=[])
    bot.minds_api.on("POST", RUNS, envelope(503, message="busy"))
    approve = _button(blocks, "Approve & run")
    click = {"message_ts": ts, "blocks": blocks, "action_id": approve["action_id"], "value": approve["value"]}
    await bot.click(**click)
    note = await bot.slack.wait_for("chat.postMessage", lambda c: "did not confirm" in c.get("text", ""))
    assert "cannot start twice" in note[0]["text"]
    first_keys = {json.loads(s.body)["idempotencyKey"] for s in bot.minds_api.to("POST", RUNS)}
    bot.minds_api.set("POST", RUNS, ok({"runId": "run-1", "status": "queued"}))
    await bot.click(**click)
    await bot.tracker.next_tracked(RunKind.RESEARCH)
    keys = {json.loads(s.body)["idempotencyKey"] for s in bot.minds_api.to("POST", RUNS)}
    assert len(first_keys) == 1 and keys == first_keys


async def test_plan_limit_says_upgrade_required_and_tracks_nothing(bot: BotHarness) -> None:
    ts, blocks = await open_plan(bot, confirmationQuestions=[])
    limit = {"limitType": "responses", "currentPlan": "free", "limit": 100, "current": 100}
    bot.minds_api.on("POST", RUNS, envelope(403, code="PLAN_LIMIT", data=limit))
    approve = _button(blocks, "Approve & run")
    await bot.click(message_ts=ts, blocks=blocks, action_id=approve["action_id"], value=approve["value"])
    (said,) = await bot.slack.wait_for("chat.postMessage", lambda c: "nothing started" in c.get("text", ""))
    assert said["thread_ts"] == ts
    assert "upgrade is required" in said["text"] and "queued" not in said["text"]
    assert [r for r in await bot.store.unfinished_runs() if r.kind == RunKind.RESEARCH] == []
    post = await bot.store.get_plan_post(team_id=TEAM, channel_id=CHANNEL, message_ts=ts)
    assert post is not None and post.state == PlanState.OPEN  # after an upgrade, approve again


async def test_minds_still_training_names_the_minds(bot: BotHarness) -> None:
    ts, blocks = await open_plan(bot, confirmationQuestions=[])
    not_ready = {"notReady": [{"mindId": "m1", "name": "Ana", "audienceId": "a1", "trainingStatus": "training"}]}
    bot.minds_api.on("POST", RUNS, envelope(409, code="PANEL_MINDS_NOT_READY", data=not_ready))
    approve = _button(blocks, "Approve & run")
    await bot.click(message_ts=ts, blocks=blocks, action_id=approve["action_id"], value=approve["value"])
    (said,) = await bot.slack.wait_for("chat.postMessage", lambda c: "nothing started" in c.get("text", ""))
    assert "still training (Ana)" in said["text"]


async def test_an_advanced_plan_needs_the_opt_in_box(bot: BotHarness) -> None:
    ts, blocks = await open_plan(bot, advanced=True, confirmationQuestions=[])
    bot.minds_api.on("POST", RUNS, ok({"runId": "run-1", "status": "queued"}))
    approve = _button(blocks, "Approve & run")
    click = {"message_ts": ts, "blocks": blocks, "action_id": approve["action_id"], "value": approve["value"]}
    await bot.click(**click)
    assert "tick the opt-in box" in await bot.refusal()
    ticked = {"plan_opt_in_block": {"plan_opt_in": {"type": "checkboxes", "selected_options": [{"value": "advanced"}]}}}
    await bot.click(**click, state=ticked)
    await bot.tracker.next_tracked(RunKind.RESEARCH)
    (confirm,) = bot.minds_api.to("POST", RUNS)
    assert json.loads(confirm.body)["confirmation"] == {"accepted": True, "advancedMethodOptIn": True}


async def test_discard_closes_the_plan_without_buttons(bot: BotHarness) -> None:
    ts, blocks = await open_plan(bot)
    discard = _button(blocks, "Discard")
    await bot.click(message_ts=ts, blocks=blocks, action_id=discard["action_id"], value=discard["value"])
    (update,) = await bot.slack.wait_for("chat.update", lambda c: "Discarded by" in dump(c.get("blocks")))
    assert not any(b["type"] == "actions" for b in update["blocks"])
    post = await bot.store.get_plan_post(team_id=TEAM, channel_id=CHANNEL, message_ts=ts)
    assert post is not None and post.state == PlanState.DISCARDED


async def test_a_big_plan_pages_its_questions_into_the_thread_and_attaches_the_markdown(bot: BotHarness) -> None:
    ts, _ = await open_plan(bot, questions=45)
    pages = [c for c in bot.slack.calls_to("chat.postMessage") if c.get("thread_ts") == ts]
    assert [p["text"].split(" ·")[0] for p in pages] == ["Questions 21–40", "Questions 41–45"]
    (complete,) = bot.slack.calls_to("files.completeUploadExternal")
    assert complete["thread_ts"] == ts
    (uploaded,) = bot.slack.uploads.values()
    assert b"45. Extra question number 45?" in uploaded


async def test_approvers_are_managed_by_admins_and_existing_approvers(bot: BotHarness) -> None:
    bot.slack.users["UREQ"] = {"id": "UREQ", "is_admin": False}
    await bot.command("approvers add <@UBEN>")
    answer = await bot.refusal()
    assert "Only workspace admins and this channel's approvers" in answer
    bot.slack.users["UADMIN"] = {"id": "UADMIN", "is_admin": True}
    await bot.command("approvers add <@UBEN> <@UCAT>", user="UADMIN")
    assert "<@UBEN>, <@UCAT> can now approve" in await bot.refusal()
    await bot.command("approvers remove <@UCAT>", user="UBEN")
    assert "<@UCAT> no longer approve" in await bot.refusal()
    await bot.command("approvers list", user=REQUESTER)
    assert "Approvers in this channel: <@UBEN>." in await bot.refusal()


async def test_a_preparation_resumes_after_a_restart_with_the_same_key(bot: BotHarness) -> None:
    bot.minds_api.on("POST", PREVIEW, ok(RECEIPT, status=202), ok(plan_data()))
    await bot.command(f"plan {STUDY_ID} Which launch message works best?")
    run = await bot.tracker.next_tracked(RunKind.PLAN)
    await bot.tick()  # 202 observed, then the process "dies"
    restarted = WatchedTracker(
        store=bot.store, handlers=bot.services.run_handlers, clock=bot.clock, rng=random.Random(3)
    )
    bot.services.tracker = restarted
    bot.clock.advance(120)
    await restarted.tick()
    first, second = bot.minds_api.to("POST", PREVIEW)
    assert first.headers["Idempotency-Key"] == second.headers["Idempotency-Key"] and first.body == second.body
    assert second.headers["x-minds-study-plan-request-id"] == "plan-req-1"
    assert _plan_updates(bot.slack, run.thread_ts or "")


async def test_an_approval_interrupted_by_a_crash_is_resent_with_its_key_at_start_up(bot: BotHarness) -> None:
    ts, _ = await open_plan(bot)
    post = await bot.store.transition_plan_post(
        team_id=TEAM, channel_id=CHANNEL, message_ts=ts, expected={PlanState.OPEN}, new=PlanState.APPROVED
    )
    assert post is not None
    approval, _ = await bot.store.claim_approval(
        team_id=TEAM, draft_plan_id="draft-1", revision=1, approver_id=REQUESTER, idempotency_key=str(uuid.uuid4())
    )
    bot.minds_api.on("POST", RUNS, ok({"runId": "run-1", "status": "queued"}))
    bot.clock.advance(DEFAULT_CLAIM_LEASE.total_seconds() + 1)  # the crashed claimer's lease ran out
    assert await resume_pending_approvals(bot.services) == 1
    (confirm,) = bot.minds_api.to("POST", RUNS)
    assert json.loads(confirm.body)["idempotencyKey"] == approval.idempotency_key
    run = await bot.tracker.next_tracked(RunKind.RESEARCH)
    assert run.thread_ts == ts


async def test_a_resumed_approval_keeps_the_advanced_method_opt_in_it_was_given(bot: BotHarness) -> None:
    ts, _ = await open_plan(bot)
    await bot.store.transition_plan_post(
        team_id=TEAM, channel_id=CHANNEL, message_ts=ts, expected={PlanState.OPEN}, new=PlanState.APPROVED
    )
    approval, _ = await bot.store.claim_approval(
        team_id=TEAM,
        draft_plan_id="draft-1",
        revision=1,
        approver_id=REQUESTER,
        idempotency_key=str(uuid.uuid4()),
        advanced_opt_in=True,
    )
    assert approval.advanced_opt_in
    bot.minds_api.on("POST", RUNS, ok({"runId": "run-1", "status": "queued"}))
    bot.clock.advance(DEFAULT_CLAIM_LEASE.total_seconds() + 1)  # the crashed claimer's lease ran out
    assert await resume_pending_approvals(bot.services) == 1
    (confirm,) = bot.minds_api.to("POST", RUNS)
    body = json.loads(confirm.body)
    assert body["idempotencyKey"] == approval.idempotency_key
    assert body["confirmation"] == {"accepted": True, "advancedMethodOptIn": True}
