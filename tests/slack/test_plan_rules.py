"""The rules a plan must meet before it runs, tried against the real Bolt app (fake Minds, fake Slack):
every confirmation question answered (CATALOGUE §2 E.41) and every method executable in Minds' catalogue, with
the fallback offered as a revision to review (E.42–43). Crafted and stale Approve clicks are refused on the
server with the words the plan message shows; nothing reaches ``POST …/research-runs``."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from minds_bot.flows.methods import CATALOGUE_TTL
from minds_bot.store import PlanState, RunKind
from tests.fakes.bot import CHANNEL, TEAM, BotHarness, bot_harness
from tests.fakes.minds_http import ok
from tests.slack.plan_samples import plan_data, study_data
from tests.slack.test_plan_listeners import PREVIEW, REQUESTER, RUNS, STUDY_ID, _plan_updates, dump, open_plan

ONE_QUESTION = [{"id": "cq1", "text": "Should the Minds see the price?", "options": ["Yes", "No"]}]
CONJOINT = [{"id": "conjoint", "name": "Conjoint", "executable": False, "advanced": True}]


@pytest.fixture
async def bot() -> AsyncIterator[BotHarness]:
    async with bot_harness(unique_ts=True, user=REQUESTER) as harness:
        harness.minds_api.on("GET", f"/studies/{STUDY_ID}", ok(study_data()))
        yield harness


def labels(blocks: list[dict[str, Any]]) -> list[str]:
    return [e["text"]["text"] for b in blocks if b["type"] == "actions" for e in b["elements"] if e["type"] == "button"]


def button(blocks: list[dict[str, Any]], text: str) -> dict[str, Any]:
    return next(
        e for b in blocks if b["type"] == "actions" for e in b["elements"] if e.get("text", {}).get("text") == text
    )


async def crafted_approve(
    bot: BotHarness, ts: str, *, revision: int, blocks: list[dict[str, Any]] | None = None
) -> str:
    """An Approve click Slack never offered (the button is not on the message): only its revision is in it."""
    await bot.click(message_ts=ts, blocks=blocks, action_id="plan_approve", value=dump({"r": revision}))
    return await bot.refusal()


async def next_revision(bot: BotHarness, ts: str) -> list[dict[str, Any]]:
    await bot.tracker.next_tracked(RunKind.PLAN)
    await bot.tick()
    return _plan_updates(bot.slack, ts)[-1]["blocks"]


async def test_open_confirmation_questions_hold_approve_back_on_the_message_and_on_the_server(bot: BotHarness) -> None:
    ts, blocks = await open_plan(bot)
    assert "Approve & run" not in labels(blocks)
    assert "Answer 2 more questions to approve." in dump(blocks)
    assert await crafted_approve(bot, ts, revision=1, blocks=blocks) == "Answer 2 more questions to approve."
    assert await crafted_approve(bot, ts, revision=1) == "Answer 2 more questions to approve."  # no blocks at all
    assert bot.minds_api.to("POST", RUNS) == []
    post = await bot.store.get_plan_post(team_id=TEAM, channel_id=CHANNEL, message_ts=ts)
    assert post is not None and post.state == PlanState.OPEN


async def test_approve_appears_once_the_last_question_is_answered_and_an_older_message_stays_refused(
    bot: BotHarness,
) -> None:
    ts, first = await open_plan(bot)
    bot.minds_api.set("POST", PREVIEW, ok(plan_data(revision=2, confirmationQuestions=["Brand?"])))
    yes = button(first, "Yes")
    await bot.click(message_ts=ts, blocks=first, action_id=yes["action_id"], value=yes["value"])
    second = await next_revision(bot, ts)
    assert "Answer 1 more question to approve." in dump(second) and "Approve & run" not in labels(second)

    bot.minds_api.set("POST", PREVIEW, ok(plan_data(revision=3, confirmationQuestions=[])))
    await bot.click(message_ts=ts, blocks=second, action_id="plan_answer_text:0", value=dump({"r": 2, "q": "1"}))
    modal = (await bot.slack.wait_for("views.open", lambda c: True))[-1]
    view = json.loads(modal["view"]) if isinstance(modal["view"], str) else modal["view"]
    await bot.submit(view, {"answer": {"value": {"type": "plain_text_input", "value": "Keep it friendly"}}})
    third = await next_revision(bot, ts)
    assert "Approve & run" in labels(third) and "more question" not in dump(third)

    assert "Only the latest revision can run" in await crafted_approve(bot, ts, revision=2, blocks=second)
    bot.minds_api.on("POST", RUNS, ok({"runId": "run-1", "status": "queued"}))
    approve = button(third, "Approve & run")
    await bot.click(message_ts=ts, blocks=third, action_id=approve["action_id"], value=approve["value"])
    await bot.tracker.next_tracked(RunKind.RESEARCH)
    (confirm,) = bot.minds_api.to("POST", RUNS)
    assert json.loads(confirm.body)["revision"] == 3


async def test_the_server_decides_from_minds_not_from_the_stored_message(bot: BotHarness) -> None:
    """The message showed Approve, but Minds now reports an open question on that revision: refused."""
    ts, blocks = await open_plan(bot, confirmationQuestions=[])
    bot.minds_api.set("POST", PREVIEW, ok(plan_data(confirmationQuestions=ONE_QUESTION)))
    approve = button(blocks, "Approve & run")
    await bot.click(message_ts=ts, blocks=blocks, action_id=approve["action_id"], value=approve["value"])
    assert await bot.refusal() == "Answer 1 more question to approve."
    reload = json.loads(bot.minds_api.to("POST", PREVIEW)[-1].body)
    assert reload == {"draftPlanId": "draft-1", "loadLatest": True}
    assert bot.minds_api.to("POST", RUNS) == []


async def test_a_non_executable_method_is_named_its_fallback_offered_for_review_and_approve_refused(
    bot: BotHarness,
) -> None:
    ts, blocks = await open_plan(bot, confirmationQuestions=[], methods=CONJOINT)
    shown = dump(blocks)
    assert "Conjoint is not executable in Minds' catalogue (planned)" in shown
    assert "Minds suggests MaxDiff instead" in shown
    assert "Approve & run" not in labels(blocks) and "Review with MaxDiff" in labels(blocks)
    assert any(b.get("block_id") == "plan_opt_in_block" for b in blocks), "the advanced opt-in stays"
    refusal = await crafted_approve(bot, ts, revision=1, blocks=blocks)
    assert refusal.startswith("Conjoint is not executable in Minds' catalogue (planned)")
    assert bot.minds_api.to("POST", RUNS) == []

    maxdiff = [{"id": "maxdiff", "name": "MaxDiff", "executable": True, "advanced": True}]
    bot.minds_api.set("POST", PREVIEW, ok(plan_data(revision=2, confirmationQuestions=[], methods=maxdiff)))
    review = button(blocks, "Review with MaxDiff")
    assert json.loads(review["value"]) == {"r": 1, "m": "conjoint"}
    await bot.click(message_ts=ts, blocks=blocks, action_id=review["action_id"], value=review["value"])
    revised = await next_revision(bot, ts)
    sent = json.loads(bot.minds_api.to("POST", PREVIEW)[-1].body)
    assert sent["refinement"] == 'Use the research method "maxdiff" instead of "conjoint".' and sent["revision"] == 1
    assert "Approve & run" in labels(revised) and any(b.get("block_id") == "plan_opt_in_block" for b in revised)
    assert bot.minds_api.to("POST", RUNS) == [], "asking for the fallback never runs anything by itself"


async def test_a_fallback_click_is_checked_against_the_catalogue_not_the_button(bot: BotHarness) -> None:
    ts, blocks = await open_plan(bot, confirmationQuestions=[], methods=CONJOINT)
    previews = len(bot.minds_api.to("POST", PREVIEW))
    await bot.click(message_ts=ts, blocks=blocks, action_id="plan_fallback:0", value=dump({"r": 1, "m": "maxdiff"}))
    assert "offers no fallback" in await bot.refusal()
    assert len(bot.minds_api.to("POST", PREVIEW)) == previews


async def test_a_method_missing_from_the_catalogue_is_never_promised(bot: BotHarness) -> None:
    unknown = [{"id": "turf", "name": "TURF", "executable": True, "advanced": True}]
    ts, blocks = await open_plan(bot, confirmationQuestions=[], methods=unknown)
    assert "TURF is not in Minds' method catalogue" in dump(blocks) and "Approve & run" not in labels(blocks)


async def test_an_advanced_plan_needs_the_opt_in_even_when_the_payload_omits_the_box(bot: BotHarness) -> None:
    ts, _ = await open_plan(bot, advanced=True, confirmationQuestions=[])
    assert "tick the opt-in box" in await crafted_approve(bot, ts, revision=1, blocks=None)
    assert bot.minds_api.to("POST", RUNS) == []


async def test_the_method_catalogue_is_read_once_per_workspace_until_it_expires(bot: BotHarness) -> None:
    ts, blocks = await open_plan(bot)
    bot.minds_api.set("POST", PREVIEW, ok(plan_data(revision=2)))
    yes = button(blocks, "Yes")
    await bot.click(message_ts=ts, blocks=blocks, action_id=yes["action_id"], value=yes["value"])
    await next_revision(bot, ts)
    assert len(bot.minds_api.to("GET", "/research-methods")) == 1
    bot.clock.advance(CATALOGUE_TTL.total_seconds())
    await crafted_approve(bot, ts, revision=2)
    assert len(bot.minds_api.to("GET", "/research-methods")) == 2


async def test_more_confirmation_questions_than_a_message_holds_are_answered_in_one_dialog(bot: BotHarness) -> None:
    many = [{"id": f"cq{i}", "text": f"Question {i}?", "options": ["Yes", "No"]} for i in range(40)]
    many[7] = {"id": "cq7", "text": "Anything else?"}
    ts, blocks = await open_plan(bot, confirmationQuestions=many)
    post = await bot.store.get_plan_post(team_id=TEAM, channel_id=CHANNEL, message_ts=ts)
    assert post is not None and post.state == PlanState.OPEN, "the plan stays open"
    assert "Answer 40 more questions to approve." in dump(blocks) and "Approve & run" not in labels(blocks)
    answer_all = button(blocks, "Answer all 40 questions…")
    (attached,) = bot.slack.uploads.values()
    assert b"Question 39? (Yes / No)" in attached

    await bot.click(message_ts=ts, blocks=blocks, action_id=answer_all["action_id"], value=answer_all["value"])
    (updated,) = await bot.slack.wait_for("views.update", lambda c: True)
    view = json.loads(updated["view"]) if isinstance(updated["view"], str) else updated["view"]
    inputs = [b for b in view["blocks"] if b["type"] == "input"]
    assert len(inputs) == 40 and inputs[7]["element"]["type"] == "plain_text_input"
    values: dict[str, Any] = {
        f"cq_{i}": {"value": {"type": "static_select", "selected_option": {"value": str(i % 2)}}} for i in range(40)
    }
    values["cq_7"] = {"value": {"type": "plain_text_input", "value": "Be concise"}}
    loaded, answered = ok(plan_data(confirmationQuestions=many)), ok(plan_data(revision=2, confirmationQuestions=[]))
    bot.minds_api.set("POST", PREVIEW, loaded, answered)  # the answers are matched to Minds' questions first
    await bot.submit(view, values)
    revised = await next_revision(bot, ts)
    answers = json.loads(bot.minds_api.to("POST", PREVIEW)[-1].body)["answers"]
    assert len(answers) == 40 and answers["cq0"] == "Yes" and answers["cq1"] == "No" and answers["cq7"] == "Be concise"
    assert "Approve & run" in labels(revised)


async def test_the_answer_dialog_of_an_older_revision_says_so_instead_of_asking(bot: BotHarness) -> None:
    many = [{"id": f"cq{i}", "text": f"Question {i}?", "options": ["Yes", "No"]} for i in range(40)]
    ts, blocks = await open_plan(bot, confirmationQuestions=many)
    previews = len(bot.minds_api.to("POST", PREVIEW))
    await bot.click(message_ts=ts, blocks=blocks, action_id="plan_answer_all", value=dump({"r": 0}))
    (updated,) = await bot.slack.wait_for("views.update", lambda c: True)
    view = json.loads(updated["view"]) if isinstance(updated["view"], str) else updated["view"]
    assert "belongs to revision 0, but the plan is now at revision 1" in dump(view)
    assert not [b for b in view["blocks"] if b["type"] == "input"]
    assert len(bot.minds_api.to("POST", PREVIEW)) == previews
