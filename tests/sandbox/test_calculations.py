"""Method calculations on a finished research run: the sandbox computes one per advanced method of the confirmed
plan, deterministically (NPS from the run's own 0–10 answers when it has them, the rest a seeded simulation),
says what each covers, and appends the ``extra_calculations`` fault entries as given."""

from __future__ import annotations

import httpx

from minds_bot.sandbox.minds_api import RunningSandbox
from tests.sandbox.helpers import PRICING_STUDY, confirm, finish_run, planned_revision

PRICING_REQUEST = "What would Gen Z sneaker buyers pay for our new running shoe at 140 EUR? Use Van Westendorp"


async def finished(client: httpx.AsyncClient, sandbox: RunningSandbox, request: str) -> dict:
    revision = await planned_revision(client, PRICING_STUDY, request)
    run_id = (await confirm(client, PRICING_STUDY, revision)).json()["data"]["runId"]
    return await finish_run(client, sandbox, PRICING_STUDY, run_id)


async def test_van_westendorp_gives_an_ordered_price_range_in_the_plans_currency(
    client: httpx.AsyncClient, sandbox: RunningSandbox
) -> None:
    run = await finished(client, sandbox, PRICING_REQUEST)
    [calculation] = run["calculations"]
    assert calculation["methodId"] == "van-westendorp" and calculation["status"] == "completed"
    assert calculation["basis"] == "simulated"
    assert calculation["n"] == run["artifacts"][0]["outputData"]["responseCount"]
    assert [a["name"] for a in calculation["audiences"]]
    result = calculation["result"]
    assert result["currency"] == "EUR"
    low, high = result["acceptableRange"]["low"], result["acceptableRange"]["high"]
    assert low < result["optimalPricePoint"] <= high and low < result["indifferencePricePoint"] <= high


async def test_every_named_method_gets_its_calculation_and_the_same_run_gives_the_same_figures(
    client: httpx.AsyncClient, sandbox: RunningSandbox
) -> None:
    request = "How do buyers value our new running shoe at 140 EUR? Use MaxDiff, TURF, Kano, Gabor-Granger and NPS"
    run = await finished(client, sandbox, request)
    by_id = {c["methodId"]: c for c in run["calculations"]}
    assert set(by_id) == {"maxdiff", "turf", "kano", "gabor-granger", "nps"}
    assert [i["rank"] for i in by_id["maxdiff"]["result"]["items"]] == list(range(1, 6))
    assert len(by_id["turf"]["result"]["bestCombination"]["items"]) == 3
    assert by_id["gabor-granger"]["result"]["revenueMaximisingPrice"] in {
        p["price"] for p in by_id["gabor-granger"]["result"]["curve"]
    }
    nps = by_id["nps"]["result"]
    assert abs(nps["score"] - (nps["promotersPct"] - nps["detractorsPct"])) <= 1  # each share rounded alone
    again = await client.get(f"/studies/{PRICING_STUDY}/research-runs/{run['runId']}")
    assert again.json()["data"]["calculations"] == run["calculations"]


async def test_a_plain_survey_has_no_calculations(client: httpx.AsyncClient, sandbox: RunningSandbox) -> None:
    run = await finished(client, sandbox, "Run this questionnaire:\n1. Do you run?\n2. What shoes do you own?")
    assert run["calculations"] == []


async def test_a_survey_that_asked_its_0_to_10_recommend_question_gets_its_nps_from_the_answers(
    client: httpx.AsyncClient, sandbox: RunningSandbox
) -> None:
    """Minds' data marks the NPS question (the bot reads no words): a run that asked the sandbox's 0–10 question
    carries an NPS calculation over those answers even when the plan named no method."""
    run = await finished(client, sandbox, "How do buyers feel about our new running shoe?")
    [calculation] = run["calculations"]
    assert calculation["methodId"] == "nps" and calculation["basis"] == "answers"
    asked = next(a for a in run["artifacts"] if a["outputData"].get("classification", {}).get("scaleRange") == [0, 10])
    answered = sum(len(audience["answers"]) for audience in asked["outputData"]["audiences"])
    assert calculation["n"] == answered


async def test_extra_calculations_are_appended_as_given(client: httpx.AsyncClient, sandbox: RunningSandbox) -> None:
    extra = {"methodId": "conjoint-hb", "n": 3, "result": {"utilities": []}}
    (await client.put(f"{sandbox.origin}/_sandbox/faults", json={"extra_calculations": [extra]})).raise_for_status()
    run = await finished(client, sandbox, PRICING_REQUEST)
    assert [c["methodId"] for c in run["calculations"]] == ["van-westendorp", "conjoint-hb"]
    assert run["calculations"][-1] == extra
