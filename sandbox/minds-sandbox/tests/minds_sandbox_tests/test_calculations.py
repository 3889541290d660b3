"""Method calculations on a finished research run: the sandbox computes one per advanced method of the confirmed
plan, deterministically (Van Westendorp, Gabor-Granger and NPS from the run's own answers, the rest a seeded
simulation), says what each covers, says when the answers cannot support a method (no range from "needs to see it
first"), names only tested prices, flags a demand curve that rises with price, and appends the
``extra_calculations`` fault entries as given."""

from __future__ import annotations

import httpx

from minds_sandbox import RunningSandbox
from minds_sandbox.calculations import for_run
from minds_sandbox_tests.helpers import LAUNCH_STUDY, PRICING_STUDY, confirm, finish_run, planned_revision

PRICING_REQUEST = "What would Gen Z sneaker buyers pay for our new running shoe at 140 EUR? Use Van Westendorp"
NO_PRICE_REQUEST = "What would US IT procurement leads pay for our new laptop dock? Use Van Westendorp"
LADDER_REQUEST = "Would Gen Z sneaker buyers buy our new running shoe at 90 EUR? Use Gabor-Granger"


async def finished(
    client: httpx.AsyncClient, sandbox: RunningSandbox, request: str, study: str = PRICING_STUDY
) -> dict:
    revision = await planned_revision(client, study, request)
    run_id = (await confirm(client, study, revision)).json()["data"]["runId"]
    return await finish_run(client, sandbox, study, run_id)


async def test_van_westendorp_gives_an_ordered_price_range_in_the_plans_currency(
    client: httpx.AsyncClient, sandbox: RunningSandbox
) -> None:
    run = await finished(client, sandbox, PRICING_REQUEST)
    [calculation] = run["calculations"]
    assert calculation["methodId"] == "van-westendorp" and calculation["status"] == "completed"
    assert calculation["basis"] == "answers"
    assert calculation["n"] == calculation["answered"] == run["artifacts"][0]["outputData"]["responseCount"]
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
    assert by_id["gabor-granger"]["status"] == "insufficient_data"  # nobody in this Audience buys at 119–161 EUR
    assert by_id["gabor-granger"]["reasonCode"] == "no_demand"
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


async def test_van_westendorp_from_answers_that_name_no_price_is_not_computable_with_its_n(
    client: httpx.AsyncClient, sandbox: RunningSandbox
) -> None:
    unpriced = {"unpriced_categories": True}  # nobody can name a price of a category the sandbox does not know
    (await client.put(f"{sandbox.origin}/_sandbox/faults", json=unpriced)).raise_for_status()
    run = await finished(client, sandbox, NO_PRICE_REQUEST)
    state = sandbox.runtime.state.runs[run["runId"]]
    price_answers = [
        a
        for q, item in zip(state["questions"], state["items"], strict=True)
        if q.get("methodInput")
        for a in item["answers"]
    ]
    assert len(price_answers) == 40 and {a["theme"] for a in price_answers} == {"Needs to see it first"}
    [calculation] = run["calculations"]
    assert calculation == calculation | {
        "methodId": "van-westendorp",
        "status": "insufficient_data",
        "reasonCode": "no_numeric_answers",
        "n": 0,
        "answered": 10,
        "reason": "None of the 10 respondents named a price in answer to the four price questions, so there is no "
        "price range.",
    }
    assert "result" not in calculation


async def test_gabor_granger_names_only_tested_prices_with_the_demand_the_answers_give(
    client: httpx.AsyncClient, sandbox: RunningSandbox
) -> None:
    run = await finished(client, sandbox, LADDER_REQUEST, LAUNCH_STUDY)
    [calculation] = run["calculations"]
    state = sandbox.runtime.state.runs[run["runId"]]
    ladder = [q for q in state["questions"] if (q.get("methodInput") or {}).get("methodId") == "gabor-granger"]
    tested = [q["methodInput"]["price"] for q in ladder]
    result = calculation["result"]
    assert calculation["basis"] == "answers" and tested == [76, 90, 103]
    assert [p["price"] for p in result["curve"]] == tested
    assert result["revenueMaximisingPrice"] in tested and result["monotone"] is True
    by_price = {p["price"]: p["demandPct"] for p in result["curve"]}
    assert result["demandPct"] == by_price[result["revenueMaximisingPrice"]]
    first = {q["id"]: q for q in ladder}[ladder[0]["id"]]
    item = next(i for i in state["items"] if state["questions"][i["index"]]["id"] == first["id"])
    buys = sum(a["value"] in first["methodInput"]["wouldBuy"] for a in item["answers"])
    assert by_price[76] == round(100 * buys / calculation["n"])


def _ladder_run(demand: dict[int, int], *, respondents: int = 10) -> dict:
    """A finished run asking a three-price Gabor-Granger ladder; ``demand``: how many would buy at each price."""
    minds = [{"mindId": f"m{i}", "audienceId": "a"} for i in range(respondents)]
    questions, items = [], []
    for index, (price, buyers) in enumerate(demand.items()):
        method = {"methodId": "gabor-granger", "role": "buy", "price": price, "currency": "USD"}
        questions.append({"id": f"q{index}", "text": f"Buy at {price} USD?", "response": {"type": "categorical"}})
        questions[-1]["methodInput"] = method | {"wouldBuy": ["Yes"]}
        answers = [{"mindId": m["mindId"], "value": "Yes" if n < buyers else "No"} for n, m in enumerate(minds)]
        items.append({"index": index, "answers": answers})
    return {
        "id": "r",
        "questions": questions,
        "items": items,
        "minds": minds,
        "methods": [{"id": "gabor-granger", "executable": True}],
    }


def test_a_gabor_granger_curve_rising_with_price_is_flagged_and_only_tested_prices_are_named() -> None:
    run = _ladder_run({100: 2, 120: 4, 140: 3})
    [calculation] = for_run(seed=1, run=run, minds={}, audience_names={"a": "Buyers"})
    result = calculation["result"]
    assert calculation["n"] == 10 and result["curve"] == [
        {"price": 100, "demandPct": 20},
        {"price": 120, "demandPct": 40},
        {"price": 140, "demandPct": 30},
    ]
    assert result["revenueMaximisingPrice"] == 120 and result["demandPct"] == 40
    assert result["monotone"] is False
    assert result["demandRises"] == [
        {"lowerPrice": 100, "lowerDemandPct": 20, "higherPrice": 120, "higherDemandPct": 40}
    ]
    assert result["note"].startswith("More respondents would buy at a higher tested price than at a lower one")


def test_too_few_answers_for_gabor_granger_say_how_many_and_the_minimum() -> None:
    run = _ladder_run({100: 2, 120: 1, 140: 0}, respondents=3)
    [calculation] = for_run(seed=1, run=run, minds={}, audience_names={"a": "Buyers"})
    assert {k: calculation[k] for k in ("status", "reasonCode", "n", "answered", "minimumN")} == {
        "status": "insufficient_data",
        "reasonCode": "too_few_numeric_answers",
        "n": 3,
        "answered": 3,
        "minimumN": 5,
    }
