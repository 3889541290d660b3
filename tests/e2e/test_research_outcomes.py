"""Every way a guided research run can end, as the channel sees it, with the real bot, the emulator's signed
requests and the sandbox: partial coverage, the plan limit at confirmation and mid-run, and polls that fail
along the way. Nothing is ever called complete that is not, and nothing is ever submitted twice."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from slack_emulator.state import Message
from tests.e2e.desk import Desk, open_desk, shown

REQUEST = 'plan "Launch positioning" Test three taglines for our new running shoe with Gen Z buyers'


@pytest.fixture
async def desk(tmp_path: Path) -> AsyncIterator[Desk]:
    async with open_desk(tmp_path) as opened:
        yield opened


async def approved_plan(desk: Desk) -> Message:
    plan = await desk.answered_plan(desk.ben, REQUEST)
    await desk.emu.click_button(user=desk.ada, action_id="plan_approve", channel=desk.research, ts=plan.ts)
    return plan


def thread(desk: Desk, plan: Message) -> str:
    return " ".join(shown(m) for m in desk.emu.state.replies(desk.research, plan.ts))


async def settled(desk: Desk, plan: Message, *needles: str) -> str:
    await desk.wait(lambda: all(n in thread(desk, plan) for n in needles))
    return thread(desk, plan)


async def runs_at_minds(desk: Desk) -> int:
    """How many runs the sandbox holds (seeded history included): what Minds was actually asked to start."""
    origin = desk.demo.minds_url.split("/api/")[0]
    async with httpx.AsyncClient(base_url=origin, timeout=30) as http:
        reply = await http.get("/_sandbox/status")
    return int(reply.json()["counts"]["runs"])


async def test_missing_answers_make_a_partial_run_that_is_never_called_complete(desk: Desk) -> None:
    await desk.faults(drop_answer_rate=0.3)
    plan = await approved_plan(desk)
    text = await settled(desk, plan, "Partial — not complete", "report")
    assert "Completed:" not in text
    assert "incomplete coverage" in text or "missing" in text.lower()


async def test_a_spent_allowance_at_confirmation_starts_nothing(desk: Desk) -> None:
    plan = await desk.answered_plan(desk.ben, REQUEST)
    await desk.allowance(0)
    await desk.emu.click_button(user=desk.ada, action_id="plan_approve", channel=desk.research, ts=plan.ts)
    text = await settled(desk, plan, "nothing started", "upgrade")
    assert "Running" not in text and "Queued" not in text
    buttons = next(m for m in desk.emu.state.messages(desk.research) if m.ts == plan.ts).blocks
    assert "plan_approve" in shown_actions(buttons), "the plan stays open to approve again after an upgrade"


async def test_the_plan_limit_mid_run_keeps_what_finished_and_asks_for_an_upgrade(desk: Desk) -> None:
    await desk.allowance(40)  # the first question's 28 answers fit; the next ones do not
    plan = await approved_plan(desk)
    text = await settled(desk, plan, "Stopped by the Minds plan limit")
    assert re.search(r"\d+ of \d+ questions completed", text) and "Did not run: Q" in text
    assert "upgrade is needed" in text
    assert "Completed:" not in text


async def test_failing_polls_never_submit_again_and_the_result_arrives_once(desk: Desk) -> None:
    before = await runs_at_minds(desk)
    await desk.faults(error_rates={"GET /api/v1/studies/*/research-runs/*": 0.5})
    plan = await approved_plan(desk)
    await settled(desk, plan, "Completed:", "report")
    headlines = [m for m in desk.emu.state.replies(desk.research, plan.ts) if m.text.startswith(":white_check_mark:")]
    assert len(headlines) == 1
    assert await runs_at_minds(desk) == before + 1


def shown_actions(blocks: list[dict]) -> list[str]:
    return [e.get("action_id", "") for b in blocks if b.get("type") == "actions" for e in b.get("elements", [])]
