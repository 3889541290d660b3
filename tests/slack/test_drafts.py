"""Study drafts through the real Bolt app: Save as draft on an open plan (the same revision twice is one draft),
``/minds drafts`` with Resume and Delete, Resume reopening the latest revision in the channel, and a launched
plan consuming its draft."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from minds_bot.store import RunKind
from tests.fakes.bot import CHANNEL, TEAM, BotHarness, bot_harness, buttons
from tests.fakes.minds_http import ok, raw
from tests.slack.plan_samples import plan_data, study_data
from tests.slack.test_plan_listeners import PREVIEW, REQUESTER, RUNS, STUDY_ID, _button, open_plan

DRAFT_ID = "7a1b2c3d-0000-4000-8000-000000000001"


def draft(state: dict[str, Any], *, status: str = "draft", revision: int = 1) -> dict[str, Any]:
    return {
        "id": DRAFT_ID,
        "userId": "7a1b2c3d-0000-4000-8000-0000000000aa",
        "name": "Reusable cups: plan revision 1",
        "mode": "custom",
        "currentStep": "questions",
        "revision": revision,
        "status": status,
        "payload": {"version": 1, "state": state},
        "studyId": None,
        "startRequestId": None,
        "startLeaseExpiresAt": None,
        "createdAt": "2026-12-07T09:00:00Z",
        "updatedAt": "2026-12-07T09:00:00Z",
    }


@pytest.fixture
async def bot() -> AsyncIterator[BotHarness]:
    async with bot_harness(unique_ts=True, user=REQUESTER) as harness:
        harness.minds_api.on("GET", f"/studies/{STUDY_ID}", ok(study_data()))
        yield harness


async def saved(bot: BotHarness, **plan_kwargs: Any) -> tuple[str, list[dict[str, Any]], dict[str, Any]]:
    ts, blocks = await open_plan(bot, **plan_kwargs)
    state_box: dict[str, Any] = {}

    def create(request: Any) -> Any:
        state_box.update(json.loads(request.content))
        return ok(draft(state_box["payload"]["state"]), status=201)

    bot.minds_api.on("POST", "/study-drafts", create, create)
    save = _button(blocks, "Save as draft")
    await bot.click(save["action_id"], save["value"], message_ts=ts, blocks=blocks)
    assert "Saved as draft" in (await bot.reply_containing("Saved as draft"))["text"]
    (marked,) = await bot.slack.wait_for("chat.update", lambda c: "plan_draft_saved" in json.dumps(c))
    assert marked["ts"] == ts and f"Saved as a Study draft by <@{REQUESTER}>" in json.dumps(marked)
    marked_blocks = json.loads(marked["blocks"]) if isinstance(marked["blocks"], str) else marked["blocks"]
    return ts, marked_blocks, state_box


def ours(draft_plan_id: str = "plan-1", **extra: Any) -> dict[str, Any]:
    """The state of a draft the bot saved from a plan REQUESTER asked for in the harness's channel."""
    state = {"source": "minds-bot", "studyId": STUDY_ID, "studyName": "Cups", "draftPlanId": draft_plan_id}
    return {**state, "teamId": TEAM, "channelId": CHANNEL, "requesterId": REQUESTER, "savedBy": REQUESTER, **extra}


async def test_save_as_draft_keeps_the_plan_and_the_same_revision_is_one_draft(bot: BotHarness) -> None:
    ts, blocks, body = await saved(bot)
    state = body["payload"]["state"]
    assert state["studyId"] == STUDY_ID and state["revision"] == 1 and state["draftPlanId"]
    # whose it is: the plan's workspace, channel and requester, and who saved it
    assert (state["teamId"], state["channelId"], state["requesterId"], state["savedBy"]) == (
        TEAM,
        CHANNEL,
        REQUESTER,
        REQUESTER,
    )
    assert body["payload"]["version"] == 1 and body["name"].endswith("plan revision 1")
    save = _button(blocks, "Save as draft")
    await bot.click(save["action_id"], save["value"], message_ts=ts, blocks=blocks)
    await bot.reply_containing("Saved as draft")
    keys = {s.json()["idempotencyKey"] for s in bot.minds_api.to("POST", "/study-drafts")}
    assert len(keys) == 1  # the same revision saved twice asks Minds with the same key


async def test_a_message_that_is_not_an_open_plan_saves_nothing(bot: BotHarness) -> None:
    await bot.click("plan_save_draft", "1", message_ts="999.000")
    assert "Only an open plan" in await bot.refusal()
    assert bot.minds_api.to("POST", "/study-drafts") == []


async def test_drafts_list_offers_resume_for_bot_drafts_and_delete_for_all(bot: BotHarness) -> None:
    theirs = {**draft({}), "id": "7a1b2c3d-0000-4000-8000-000000000002", "name": "Made in Minds"}
    bot.minds_api.on("GET", "/study-drafts", raw({"data": [draft(ours("p1")), theirs]}))
    await bot.command("drafts")
    listing = await bot.reply_containing("Study drafts")
    found = buttons(listing)
    assert f"draft_resume:{DRAFT_ID}" in found and "draft_resume:7a1b2c3d-0000-4000-8000-000000000002" not in found
    assert found[f"draft_delete:{DRAFT_ID}"]["confirm"]["title"]["text"] == "Delete this draft?"
    line = listing["blocks"][1]["text"]["text"]
    assert line.startswith("*Reusable cups: plan revision 1* · revision 1 · saved <!date^") and line.endswith(
        f" · in <#{CHANNEL}>"
    )


async def test_resume_reopens_the_latest_revision_in_the_channel(bot: BotHarness) -> None:
    bot.minds_api.on("GET", "/study-drafts", raw({"data": [draft(ours())]}))
    bot.minds_api.set("POST", PREVIEW, ok(plan_data(confirmationQuestions=[])))  # ready: Approve is offered
    await bot.click(f"draft_resume:{DRAFT_ID}", DRAFT_ID, ephemeral=True)
    assert (await bot.reply_containing("Reopening"))["text"] == (
        f"Reopening “Reusable cups: plan revision 1” in <#{CHANNEL}>, requested by <@{REQUESTER}>: the latest "
        "revision of its plan appears there."
    )
    await bot.tracker.next_tracked(RunKind.PLAN)
    await bot.tick()
    (sent,) = bot.minds_api.to("POST", PREVIEW)
    assert sent.json()["draftPlanId"] == "plan-1" and "request" not in sent.json()
    assert any(_has(c, "Approve & run") for c in bot.slack.calls_to("chat.update"))


def _has(call: dict[str, Any], text: str) -> bool:
    return text in json.dumps(call.get("blocks"), ensure_ascii=False)


async def test_delete_removes_an_active_draft_and_refuses_a_gone_one(bot: BotHarness) -> None:
    bot.minds_api.on("GET", "/study-drafts", raw({"data": [draft(ours())]}), raw({"data": []}))
    bot.minds_api.on("DELETE", f"/study-drafts/{DRAFT_ID}", raw(None, status=204))
    await bot.click(f"draft_delete:{DRAFT_ID}", f"{DRAFT_ID}:1", ephemeral=True)
    assert "Deleted the draft" in (await bot.reply())["text"]
    await bot.click(f"draft_delete:{DRAFT_ID}", f"{DRAFT_ID}:1", ephemeral=True)
    assert "no longer active" in await bot.refusal()
    assert len(bot.minds_api.to("DELETE", f"/study-drafts/{DRAFT_ID}")) == 1


async def test_a_launched_plan_consumes_its_draft(bot: BotHarness) -> None:
    # no confirmation questions left: Approve waits for answered ones (issue 18a), and this plan is ready
    ts, blocks, body = await saved(bot, confirmationQuestions=[])
    state = body["payload"]["state"]
    bot.minds_api.on("GET", "/study-drafts", raw({"data": [draft(state)]}))
    bot.minds_api.on("POST", f"/study-drafts/{DRAFT_ID}/consume", ok({**draft(state), "status": "consumed"}))
    bot.minds_api.on("POST", RUNS, ok({"runId": "run-1", "status": "queued"}))
    approve = _button(blocks, "Approve & run")
    await bot.click(approve["action_id"], approve["value"], message_ts=ts, blocks=blocks)
    await bot.tracker.next_tracked(RunKind.RESEARCH)
    await bot.slack.wait_for("chat.update", lambda c: "approved" in json.dumps(c).lower())
    (consume,) = await _eventually(bot, f"/study-drafts/{DRAFT_ID}/consume")
    assert consume.json() == {"expectedRevision": 1, "studyId": STUDY_ID}


async def _eventually(bot: BotHarness, path: str) -> list[Any]:
    for _ in range(200):
        sent = bot.minds_api.to("POST", path)
        if sent:
            return sent
        await bot.slack.next_call("chat.postMessage")
    raise AssertionError(f"nothing sent to {path}")
