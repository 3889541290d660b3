"""Advanced-method calculations in a run's result thread, with the real bot, the emulator's signed requests and
the sandbox: a Van Westendorp plan approved with the advanced-method opt-in shows Minds' acceptable price range and
price points with n and the Audience; a kind the bot does not know is named and an entry it cannot read is said
to be unreadable — neither is skipped."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from minds_bot.sandbox.slack_api.state import Message
from tests.e2e.desk import Desk, open_desk, shown

PRICING = 'plan "Pricing pulse" What would US IT procurement leads pay for our new laptop dock? Use Van Westendorp'
SURVEY = 'plan "Launch positioning" Test three taglines for our new running shoe with Gen Z buyers'


@pytest.fixture
async def desk(tmp_path: Path) -> AsyncIterator[Desk]:
    async with open_desk(tmp_path) as opened:
        yield opened


def thread(desk: Desk, plan: Message) -> str:
    return " ".join(shown(m) for m in desk.emu.state.replies(desk.research, plan.ts))


async def settled(desk: Desk, plan: Message, *needles: str) -> str:
    await desk.wait(lambda: all(n in thread(desk, plan) for n in needles))
    return thread(desk, plan)


async def latest_research_run(desk: Desk, study_name: str) -> dict[str, Any]:
    """The run as Minds reports it, to hold the thread to Minds' own figures."""
    study = next(s for s in await desk.minds_api("GET", "/studies?limit=100") if s["name"] == study_name)
    runs = await desk.minds_api("GET", f"/studies/{study['id']}/runs?limit=1")
    return await desk.minds_api("GET", f"/studies/{study['id']}/research-runs/{runs[0]['runId']}")


async def test_a_van_westendorp_run_shows_the_acceptable_price_range_minds_computed(desk: Desk) -> None:
    plan = await desk.answered_plan(desk.ben, PRICING)
    assert "Van Westendorp" in shown(plan)
    await desk.emu.select_option(
        user=desk.ada, action_id="plan_opt_in", value=["advanced"], channel=desk.research, ts=plan.ts
    )
    await desk.emu.click_button(user=desk.ada, action_id="plan_approve", channel=desk.research, ts=plan.ts)
    text = await settled(desk, plan, "Completed:", "Acceptable price range:")
    [calc] = (await latest_research_run(desk, "Pricing pulse"))["calculations"]
    result, audience = calc["result"], calc["audiences"][0]["name"]
    low, high = result["acceptableRange"]["low"], result["acceptableRange"]["high"]
    assert ":abacus: *Method calculations* (figures as Minds computed them)" in text
    assert (
        f"*Van Westendorp price sensitivity* · n={calc['n']} · Audience: {audience}\n"
        f"Acceptable price range: {low} USD to {high} USD\n"
        f"Optimal price point: {result['optimalPricePoint']} USD\n"
        f"Indifference price point: {result['indifferencePricePoint']} USD"
    ) in text.replace("\\n", "\n")


async def test_an_unknown_kind_is_named_and_an_unreadable_one_said_so(desk: Desk) -> None:
    await desk.faults(
        extra_calculations=[
            {"methodId": "conjoint-hb", "status": "completed", "n": 12, "result": {"utilities": []}},
            {"methodId": "van-westendorp", "status": "completed", "n": 12, "result": {"currency": "EUR"}},
        ]
    )
    plan = await desk.answered_plan(desk.ben, SURVEY)
    await desk.emu.click_button(user=desk.ada, action_id="plan_approve", channel=desk.research, ts=plan.ts)
    text = await settled(desk, plan, "Completed:", "conjoint-hb")
    assert (
        ":grey_question: Minds returned a conjoint-hb calculation that the bot cannot show here; it is in the report."
    ) in text
    assert (
        ":warning: Minds returned a van-westendorp calculation that the bot could not read, so none of its figures "
        "are shown."
    ) in text
    assert "Acceptable price range" not in text
