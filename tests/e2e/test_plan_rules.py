"""The plan rules end to end (the real bot, the emulator's signed requests, the Minds sandbox): a plan whose
confirmation question is open offers no Approve; a request for Conjoint — which the sandbox's catalogue lists as
planned, not executable, with MaxDiff as its fallback — names the method, offers the MaxDiff revision to review
and keeps the advanced opt-in."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from minds_sandbox.routes_tools import CONNECTIONS
from tests.e2e.desk import Desk, action_ids, open_desk, shown

CONJOINT = 'plan "Launch positioning" A conjoint study of price and cushioning for our new running shoe'


@pytest.fixture
async def desk(tmp_path: Path) -> AsyncIterator[Desk]:
    async with open_desk(tmp_path) as opened:
        yield opened


async def test_an_open_confirmation_question_keeps_approve_off_the_plan(desk: Desk) -> None:
    since = await desk.type(desk.ben, 'plan "Launch positioning" Test three taglines with Gen Z buyers')
    plan = await desk.posted(since, lambda m: "Research plan" in m.text)
    assert "plan_approve" not in action_ids(plan.blocks)
    # Who answers, and what the taglines are: the brief does not say, so Minds asks the requester.
    assert "Which Audiences should answer this plan?" in shown(plan)
    assert "How would you describe the three taglines in a sentence or two?" in shown(plan)
    assert "Answer 2 more questions to approve." in shown(plan)


async def test_a_non_executable_method_is_named_and_its_fallback_offered_as_a_revision_to_review(
    desk: Desk,
) -> None:
    since = await desk.type(desk.ben, CONJOINT)
    plan = await desk.posted(since, lambda m: "Research plan" in m.text)
    text = shown(plan)
    assert "Conjoint is not executable in Minds' catalogue (planned)" in text and "MaxDiff" in text
    assert "plan_approve" not in action_ids(plan.blocks) and "plan_opt_in" in action_ids(plan.blocks)
    review = next(a for a in action_ids(plan.blocks) if a.startswith("plan_fallback:"))
    await desk.emu.click_button(user=desk.ben, action_id=review, channel=desk.research, ts=plan.ts)
    revised = await desk.wait(
        lambda: next(
            (m for m in desk.emu.state.messages(desk.research) if m.ts == plan.ts and "revision 2" in m.text), None
        )
    )
    assert "not executable" not in shown(revised) and "MaxDiff" in shown(revised)
    methods = await desk.minds_api("GET", "/research-methods")
    assert {m["id"]: m["executable"] for m in methods}["conjoint"] is False


async def test_a_verified_model_connection_picked_on_the_plan_answers_the_run(desk: Desk) -> None:
    """The picker's choice travels with the Approve click (Slack's message state), Minds accepts the pinned
    connection, and the approved plan names it; the sandbox's unverified connection is never offered."""
    plan = await desk.answered_plan(desk.ben, 'plan "Launch positioning" Test three taglines with Gen Z buyers')
    assert "plan_model_connection" in action_ids(plan.blocks)
    assert "Not verified, so not offered: Local Llama (unverified) (revision 1)" in shown(plan)
    verified = CONNECTIONS[0]
    await desk.emu.select_option(
        user=desk.ben, action_id="plan_model_connection", value=verified["id"], channel=desk.research, ts=plan.ts
    )
    await desk.emu.click_button(user=desk.ben, action_id="plan_approve", channel=desk.research, ts=plan.ts)
    approved = await desk.wait(
        lambda: next(
            (m for m in desk.emu.state.messages(desk.research) if m.ts == plan.ts and "Approved by" in shown(m)),
            None,
        )
    )
    assert "answer with the model connection Team Azure GPT (revision 3)" in shown(approved)
