"""What a research lead reads for each method calculation: its headline figures with the precision Minds sent,
what they cover (n, the Audiences), an unknown kind named, an unreadable one said to be unreadable, and all of it
in the run's result thread (paged with the rest)."""

from __future__ import annotations

from typing import Any

import pytest

from minds_bot import i18n
from minds_bot.minds import ResearchRun
from minds_bot.minds.models import parse_calculation
from minds_bot.render.calculations import calculation_blocks, calculation_text
from minds_bot.render.runs import render_results

GEN_Z = [{"id": "a1", "name": "Gen Z sneaker buyers"}]


def text_of(entry: Any) -> str:
    return calculation_text(parse_calculation(entry))


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        (
            {
                "methodId": "van-westendorp",
                "n": 24,
                "audiences": GEN_Z,
                "result": {
                    "currency": "EUR",
                    "acceptableRange": {"low": 80, "high": 140.5},
                    "optimalPricePoint": 105,
                    "indifferencePricePoint": 112,
                },
            },
            "*Van Westendorp price sensitivity* · n=24 · Audience: Gen Z sneaker buyers\n"
            "Acceptable price range: 80 EUR to 140.5 EUR\n"
            "Optimal price point: 105 EUR\n"
            "Indifference price point: 112 EUR",
        ),
        (
            {
                "methodId": "gabor-granger",
                "n": 10,
                "result": {"currency": "USD", "revenueMaximisingPrice": 119.99, "demandPct": 41},
            },
            "*Gabor-Granger pricing* · n=10\nRevenue-maximising price: 119.99 USD (41% would buy at that price)",
        ),
        (
            {
                "methodId": "maxdiff",
                "n": 12,
                "audiences": GEN_Z + [{"id": "a2", "name": "Runners"}],
                "result": {
                    "items": [
                        {"item": "Price", "score": -3},
                        {"item": "Comfort", "score": 34.25},
                        {"item": "Grip", "score": 0.5},
                    ]
                },
            },
            "*MaxDiff* · n=12 · Audiences: Gen Z sneaker buyers, Runners\n"
            "Items by preference score, highest first:\n"
            "1. Comfort: score 34.25\n"
            "2. Grip: score 0.5\n"
            "3. Price: score -3",
        ),
        (
            {
                "methodId": "turf",
                "n": 12,
                "result": {
                    "bestCombination": {"items": ["Quality", "Price", "Brand"], "reachPct": 78.5, "frequency": 1.4}
                },
            },
            "*TURF analysis* · n=12\n"
            "Best combination: Quality, Price, Brand, reaching 78.5% of respondents\n"
            "Average items reached per respondent: 1.4",
        ),
        (
            {
                "methodId": "kano",
                "n": 12,
                "result": {
                    "features": [
                        {"feature": "Free returns", "category": "must-be"},
                        {"feature": "Carbon plate", "category": "one_dimensional"},
                        {"feature": "Glow laces", "category": "Delightful-ish"},
                    ]
                },
            },
            "*Kano* · n=12\nFree returns: must-be\nCarbon plate: performance\nGlow laces: Delightful-ish",
        ),
        (
            {
                "methodId": "nps",
                "n": 12,
                "result": {"score": -42, "promotersPct": 17, "passivesPct": 25, "detractorsPct": 58},
            },
            "*Net Promoter Score* · n=12\nNPS −42 · promoters 17% · passives 25% · detractors 58%",
        ),
        (
            {
                "methodId": "key-drivers",
                "result": {
                    "outcome": "purchase intent",
                    "drivers": [{"driver": "Price", "importance": 0.31}, {"driver": "Comfort", "importance": 0.42}],
                },
            },
            "*Key drivers* · n not reported by Minds\n"
            "Drivers of purchase intent, strongest first:\n"
            "Comfort: importance 0.42\n"
            "Price: importance 0.31",
        ),
        (
            {
                "methodId": "top-bottom-box",
                "n": 30,
                "result": {"question": "How appealing is it?", "boxSize": 2, "topBoxPct": 40, "bottomBoxPct": 12.5},
            },
            "*Top/bottom box* · n=30\nQuestion: How appealing is it?\ntop-2-box 40% · bottom-2-box 12.5%",
        ),
    ],
)
def test_each_kind_shows_its_headline_figures(entry: dict[str, Any], expected: str) -> None:
    assert text_of(entry) == expected


def test_an_unknown_kind_is_named() -> None:
    assert text_of({"methodId": "conjoint-hb", "n": 3, "result": {}}) == (
        ":grey_question: Minds returned a conjoint-hb calculation that the bot cannot show here; it is in the report."
    )


def test_a_malformed_calculation_is_said_to_be_unreadable() -> None:
    assert text_of({"methodId": "van-westendorp", "result": {"currency": "EUR"}}) == (
        ":warning: Minds returned a van-westendorp calculation that the bot could not read, so none of its figures "
        "are shown."
    )
    assert text_of(42) == (
        ":warning: Minds returned a calculation that the bot could not read, so none of its figures are shown."
    )


def test_a_calculation_minds_did_not_compute_says_so_with_its_reason() -> None:
    assert text_of({"methodId": "kano", "status": "failed", "reason": "Too few answers"}) == (
        ":warning: Minds did not compute the Kano calculation (status: failed). Minds said: Too few answers"
    )


def test_words_from_minds_are_escaped() -> None:
    text = text_of({"methodId": "kano", "result": {"features": [{"feature": "<!channel> & co", "category": "<b>"}]}})
    assert "&lt;!channel&gt; &amp; co: &lt;b&gt;" in text and "<!channel>" not in text
    assert "&lt;x&gt;" in text_of({"methodId": "<x>"})


def test_no_calculations_add_nothing() -> None:
    assert calculation_blocks([]) == []


def _all_text(messages: list[Any]) -> str:
    return "\n".join((b.to_dict().get("text") or {}).get("text", "") for m in messages for b in m.blocks)


def test_the_result_thread_shows_calculations_after_the_questions_and_pages_them() -> None:
    many = [
        {
            "methodId": "maxdiff",
            "n": 12,
            "result": {"items": [{"item": f"Item {i} " + "x" * 80, "score": i} for i in range(30)]},
        }
        for _ in range(40)
    ]
    state = ResearchRun.model_validate(
        {
            "status": "completed",
            "progress": {"total": 1, "settled": 1},
            "calculations": many + [{"methodId": "mystery"}],
        }
    )
    messages = render_results(state, study_name="Pricing pulse")
    text = _all_text(messages)
    assert len(messages) > 1  # paged, every message within Slack's block limit (checked by Message)
    assert text.count("*MaxDiff* · n=12") == 40
    assert ":abacus: *Method calculations* (figures as Minds computed them)" in text
    assert text.endswith("Minds returned a mystery calculation that the bot cannot show here; it is in the report.")


NEEDS_TO_SEE_IT = {  # every respondent said they would need to see it before naming a price
    "methodId": "van-westendorp",
    "status": "insufficient_data",
    "reasonCode": "no_numeric_answers",
    "reason": "None of the 10 respondents named a price in answer to the four price questions, so there is no "
    "price range.",
    "n": 0,
    "answered": 10,
    "audiences": [{"id": "a1", "name": "US IT procurement leads"}],
}


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "en",
            ":warning: Not computed: none of the 10 respondents answered its price questions with a number, so there "
            "are no figures to show.",
        ),
        (
            "de",
            ":warning: Nicht berechnet: Keiner der 10 Befragten hat die Preisfragen mit einer Zahl beantwortet, daher "
            "gibt es keine Werte.",
        ),
        (
            "es",
            ":warning: No calculado: ninguna de las 10 personas encuestadas respondió a las preguntas de precio con un "
            "número, así que no hay cifras que mostrar.",
        ),
        ("zh", ":warning: 未计算：10 位受访者都没有用数字回答价格问题，因此没有可显示的数值。"),
        ("ko", ":warning: 계산되지 않음: 응답자 10명 중 누구도 가격 질문에 숫자로 답하지 않아 표시할 수치가 없습니다."),
    ],
)
def test_van_westendorp_from_answers_without_a_price_says_it_was_not_computed(language: str, expected: str) -> None:
    with i18n.speaking(language):
        heading, reason = text_of(NEEDS_TO_SEE_IT).split("\n")
    assert heading.startswith("*") and " · n=0 · " in heading and heading.endswith("US IT procurement leads")
    assert reason == expected
    assert "EUR" not in reason and "USD" not in reason


def test_too_few_and_no_demand_say_how_many_and_the_minimum() -> None:
    few = NEEDS_TO_SEE_IT | {"reasonCode": "too_few_numeric_answers", "n": 3, "minimumN": 5}
    assert text_of(few).split("\n")[1] == (
        ":warning: Not computed: only 3 of the 10 respondents gave usable answers to all its price questions; the "
        "method needs at least 5."
    )
    none = NEEDS_TO_SEE_IT | {"methodId": "gabor-granger", "reasonCode": "no_demand", "n": 10}
    assert text_of(none) == (
        "*Gabor-Granger pricing* · n=10 · Audience: US IT procurement leads\n"
        ":warning: Not computed: none of the 10 respondents would buy at any tested price."
    )


def test_gabor_granger_flagged_by_minds_without_a_curve_is_still_flagged() -> None:
    entry = {
        "methodId": "gabor-granger",
        "n": 8,
        "result": {"currency": "EUR", "revenueMaximisingPrice": 90, "demandPct": 50, "monotone": False},
    }
    assert text_of(entry) == (
        "*Gabor-Granger pricing* · n=8\n"
        "Revenue-maximising price: 90 EUR (50% would buy at that price)\n"
        ":warning: Minds flagged this demand curve: demand does not fall as the price rises, so the "
        "revenue-maximising price is not reliable."
    )
