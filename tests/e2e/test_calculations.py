"""Advanced-method calculations in a run's result thread, with the real bot, the emulator's signed requests and
the sandbox: a Van Westendorp plan whose answers name no price says it was not computed, with n (English and
German); one whose answers name prices shows Minds' acceptable price range and price points with n and the
Audiences; a Gabor-Granger run names only its tested prices, and a curve where demand rises with price is flagged
and an untested price not named; a kind the bot does not know is named and an entry it cannot read is said to be
unreadable — neither is skipped."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from slack_emulator.state import Message
from tests.e2e.desk import Desk, action_ids, open_desk, shown
from tests.e2e.test_languages import SLACK_LOCALE, said
from tests.e2e.test_languages import _connect as connect

PRICING = 'plan "Pricing pulse" What would US IT procurement leads pay for our new laptop dock? Use Van Westendorp'
SURVEY = 'plan "Launch positioning" Test three taglines for our new running shoe with Gen Z buyers'
VW_PRICES = 'plan "Launch positioning" What would Gen Z sneaker buyers pay for our new running shoe? Use Van Westendorp'
GG_LADDER = 'plan "Launch positioning" Would Gen Z sneaker buyers buy our new running shoe at 90 EUR? Use Gabor-Granger'


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


async def approved(desk: Desk, request: str, language: str = "en") -> Message:
    """The plan of ``request`` with its questions answered, the advanced methods opted in and approved."""
    since = await desk.type(desk.ben, request)
    plan = await desk.posted(since, lambda m: said(language, "Research plan: {study}") in shown(m))
    while "plan_approve" not in action_ids(plan.blocks):
        plan = await desk.answer_first_question(desk.ben, plan)
    await desk.emu.select_option(
        user=desk.ada, action_id="plan_opt_in", value=["advanced"], channel=desk.research, ts=plan.ts
    )
    await desk.emu.click_button(user=desk.ada, action_id="plan_approve", channel=desk.research, ts=plan.ts)
    return plan


NOT_COMPUTED = {  # what a reader sees when every respondent said "Needs to see it first"
    "en": "*Van Westendorp price sensitivity* · n=0 · Audience: US IT procurement leads\n"
    ":warning: Not computed: none of the 10 respondents answered its price questions with a number, so there are "
    "no figures to show.",
    "de": "*Van-Westendorp-Preissensitivität* · n=0 · Audience: US IT procurement leads\n"
    ":warning: Nicht berechnet: Keiner der 10 Befragten hat die Preisfragen mit einer Zahl beantwortet, "
    "daher gibt es keine Werte.",
}


@pytest.mark.parametrize("language", ["en", "de"])
async def test_a_van_westendorp_run_whose_answers_name_no_price_says_it_was_not_computed(
    desk: Desk, language: str
) -> None:
    if language != "en":
        for person in (desk.ada, desk.ben):
            desk.emu.state.set_locale(person, SLACK_LOCALE[language])
        await connect(desk, language)
    await desk.faults(unpriced_categories=True)  # nobody can name a price of the laptop dock
    plan = await approved(desk, PRICING, language)
    text = (await settled(desk, plan, "n=0")).replace("\\n", "\n")
    [calc] = (await latest_research_run(desk, "Pricing pulse"))["calculations"]
    assert (calc["status"], calc["reasonCode"], calc["n"], calc["answered"]) == (
        "insufficient_data",
        "no_numeric_answers",
        0,
        10,
    )
    assert NOT_COMPUTED[language] in text
    assert "USD" not in text.split("n=0")[1]  # no price range, no price point


async def test_a_van_westendorp_run_with_prices_shows_the_range_minds_computed_from_them(desk: Desk) -> None:
    plan = await approved(desk, VW_PRICES)
    text = (await settled(desk, plan, "Completed:", "Acceptable price range:")).replace("\\n", "\n")
    [calc] = (await latest_research_run(desk, "Launch positioning"))["calculations"]
    result = calc["result"]
    audiences = ", ".join(a["name"] for a in calc["audiences"])
    low, high = result["acceptableRange"]["low"], result["acceptableRange"]["high"]
    assert calc["basis"] == "answers"
    assert ":abacus: *Method calculations* (figures as Minds computed them)" in text
    assert (
        f"*Van Westendorp price sensitivity* · n={calc['n']} · Audiences: {audiences}\n"
        f"Acceptable price range: {low} USD to {high} USD\n"
        f"Optimal price point: {result['optimalPricePoint']} USD\n"
        f"Indifference price point: {result['indifferencePricePoint']} USD"
    ) in text


async def test_a_gabor_granger_run_names_only_the_tested_prices(desk: Desk) -> None:
    plan = await approved(desk, GG_LADDER)
    text = (await settled(desk, plan, "Completed:", "Revenue-maximising price:")).replace("\\n", "\n")
    [calc] = (await latest_research_run(desk, "Launch positioning"))["calculations"]
    curve = calc["result"]["curve"]
    assert [p["price"] for p in curve] == [76, 90, 103]
    points = " · ".join(f"{p['price']} EUR: {p['demandPct']}%" for p in curve)
    best = calc["result"]["revenueMaximisingPrice"]
    assert (
        f"Would buy at each tested price: {points}\n"
        f"Revenue-maximising price: {best} EUR ({calc['result']['demandPct']}% would buy at that price)"
    ) in text
    assert "Demand rises with price" not in text


async def test_a_demand_curve_rising_with_price_is_flagged_and_an_untested_price_not_named(desk: Desk) -> None:
    await desk.faults(
        extra_calculations=[
            {
                "methodId": "gabor-granger",
                "status": "completed",
                "n": 10,
                "result": {
                    "currency": "USD",
                    "revenueMaximisingPrice": 132,
                    "demandPct": 80,
                    "curve": [
                        {"price": 100, "demandPct": 20},
                        {"price": 120, "demandPct": 40},
                        {"price": 140, "demandPct": 30},
                    ],
                },
            }
        ]
    )
    plan = await desk.answered_plan(desk.ben, SURVEY)
    await desk.emu.click_button(user=desk.ada, action_id="plan_approve", channel=desk.research, ts=plan.ts)
    text = (await settled(desk, plan, "Completed:", "Gabor-Granger")).replace("\\n", "\n")
    assert (
        "*Gabor-Granger pricing* · n=10\n"
        "Would buy at each tested price: 100 USD: 20% · 120 USD: 40% · 140 USD: 30%\n"
        ":warning: Minds' revenue-maximising price is not one of the tested prices, so it is not shown.\n"
        ":warning: Demand rises with price here: 40% would buy at 120 USD but only 20% at 100 USD. Demand should "
        "fall as the price rises, so the revenue-maximising price is not reliable."
    ) in text
    assert "132" not in text and "80%" not in text


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


async def test_the_report_attached_to_the_thread_carries_the_calculation_and_the_threads_labels(desk: Desk) -> None:
    await desk.faults(unpriced_categories=True)  # nobody can name a price of the laptop dock
    plan = await approved(desk, PRICING)
    text = await settled(desk, plan, "n=0", "of the run of")

    def report() -> bytes | None:
        files = [f for m in desk.emu.state.replies(desk.research, plan.ts) for f in m.files]
        md = [f for f in files if desk.emu.state.files[f].name.endswith("full-report.md")]
        return desk.emu.file_content(md[0]) if md else None

    content = (await desk.wait(report)).decode()
    labels = re.search(r"Questions Q1–Q(\d+) of the run of (\d{4}-\d\d-\d\d \d\d:\d\d UTC)", text)
    assert labels is not None
    last, date = int(labels[1]), labels[2]
    assert "*Q1. " in text and f"*Q{last}. " in text
    assert f"### Q1 (run of {date})." in content and f"### Q{last} (run of {date})." in content
    assert f"### Van Westendorp price sensitivity (run of {date})" in content
    assert "- n=0 of 10 who answered · Audience: US IT procurement leads" in content
    assert (
        "- Not computed: None of the 10 respondents named a price in answer to the four price questions, so there "
        "is no price range."
    ) in content
