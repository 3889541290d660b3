"""A research run's ``calculations`` parsed at the boundary with the assumed shape (see ``ResearchRun``): each kind
into its typed model with the figures exactly as sent, an unknown kind kept under Minds' own name, and anything
malformed kept as unreadable — one bad entry never makes the run unreadable or vanishes."""

from __future__ import annotations

from typing import Any

import pytest

from minds_bot.minds import ResearchRun
from minds_bot.minds.models import (
    GaborGrangerCalculation,
    KanoCalculation,
    KeyDriversCalculation,
    MaxDiffCalculation,
    NotComputedCalculation,
    NpsCalculation,
    TopBottomBoxCalculation,
    TurfCalculation,
    UnknownCalculation,
    UnreadableCalculation,
    VanWestendorpCalculation,
    calculation_kind,
    parse_calculation,
)

AUDIENCES = [{"id": "a1", "name": "Gen Z sneaker buyers"}]


def parsed(*entries: Any) -> list[Any]:
    return ResearchRun.model_validate({"status": "completed", "calculations": list(entries)}).calculations


def test_van_westendorp_keeps_its_prices_and_what_they_cover() -> None:
    [calc] = parsed(
        {
            "methodId": "van-westendorp",
            "status": "completed",
            "n": 24,
            "audiences": AUDIENCES,
            "result": {
                "currency": "EUR",
                "acceptableRange": {"low": 80, "high": 140.5},
                "optimalPricePoint": 105,
                "indifferencePricePoint": 112,
            },
        }
    )
    assert calc == VanWestendorpCalculation(
        method_id="van-westendorp",
        n=24,
        audience_names=("Gen Z sneaker buyers",),
        currency="EUR",
        acceptable_low=80,
        acceptable_high=140.5,
        optimal_price=105,
        indifference_price=112,
    )


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        (
            {
                "methodId": "van_westendorp",
                "result": {"pointOfMarginalCheapness": 9, "pointOfMarginalExpensiveness": 14},
            },
            VanWestendorpCalculation(method_id="van_westendorp", acceptable_low=9, acceptable_high=14),
        ),
        (
            {
                "methodId": "gabor-granger",
                "n": 10,
                "result": {"currency": "USD", "revenueMaximisingPrice": 119.99, "demand": 0.41},
            },
            GaborGrangerCalculation(
                method_id="gabor-granger", n=10, currency="USD", revenue_price=119.99, demand_pct=41
            ),
        ),
        (
            {
                "kind": "MaxDiff",
                "n": 12,
                "items": [{"item": "Comfort", "score": 34.2, "rank": 1}, {"label": "Price", "score": -3}],
            },
            MaxDiffCalculation.model_validate(
                {
                    "methodId": "MaxDiff",
                    "n": 12,
                    "items": [{"item": "Comfort", "score": 34.2, "rank": 1}, {"item": "Price", "score": -3}],
                }
            ),
        ),
        (
            {
                "methodId": "turf",
                "result": {"bestCombination": {"items": ["Quality", "Price"], "reach": 0.785, "frequency": 1.4}},
            },
            TurfCalculation(method_id="turf", items=["Quality", "Price"], reach_pct=78.5, frequency=1.4),
        ),
        (
            {"methodId": "kano", "result": {"features": [{"feature": "Free returns", "category": "must-be"}]}},
            KanoCalculation.model_validate(
                {"methodId": "kano", "features": [{"feature": "Free returns", "category": "must-be"}]}
            ),
        ),
        (
            {
                "methodId": "NPS",
                "n": 12,
                "result": {"score": -42, "promotersPct": 17, "passivesPct": 25, "detractorsPct": 58},
            },
            NpsCalculation(method_id="NPS", n=12, score=-42, promoters_pct=17, passives_pct=25, detractors_pct=58),
        ),
        (
            {
                "methodId": "key-drivers",
                "result": {"outcome": "purchase intent", "drivers": [{"driver": "Price", "importance": 0.31}]},
            },
            KeyDriversCalculation.model_validate(
                {
                    "methodId": "key-drivers",
                    "outcome": "purchase intent",
                    "drivers": [{"driver": "Price", "importance": 0.31}],
                }
            ),
        ),
        (
            {"methodId": "top_bottom_box", "result": {"boxSize": 2, "topBoxPct": 40, "bottomBoxPct": 12.5}},
            TopBottomBoxCalculation(method_id="top_bottom_box", box_size=2, top_box_pct=40, bottom_box_pct=12.5),
        ),
    ],
)
def test_each_known_kind_is_read_into_its_model(entry: dict[str, Any], expected: Any) -> None:
    assert parse_calculation(entry) == expected


def test_a_result_inside_carries_n_when_the_entry_does_not() -> None:
    calc = parse_calculation({"methodId": "nps", "result": {"score": 10, "n": 7}})
    assert isinstance(calc, NpsCalculation) and calc.n == 7


def test_an_unknown_kind_is_kept_under_minds_own_name() -> None:
    assert parsed({"methodId": "conjoint-hb", "n": 3, "result": {"utilities": []}}) == [
        UnknownCalculation(method_id="conjoint-hb", n=3)
    ]


def test_a_kind_minds_did_not_compute_keeps_its_status_and_reason() -> None:
    [calc] = parsed({"methodId": "kano", "status": "failed", "error": "Too few answers"})
    assert calc == NotComputedCalculation(method_id="kano", kind="kano", status="failed", reason="Too few answers")


@pytest.mark.parametrize(
    ("entry", "method_id"),
    [
        ({"methodId": "van-westendorp", "result": {"currency": "EUR"}}, "van-westendorp"),  # no range
        ({"methodId": "gabor-granger", "result": {"revenueMaximisingPrice": "cheap"}}, "gabor-granger"),
        ({"methodId": "maxdiff", "result": {"items": []}}, "maxdiff"),  # empty is not a result
        ({"methodId": "turf", "result": {"bestCombination": {"items": ["A"], "reachPct": 140}}}, "turf"),
        ({"methodId": "nps", "result": ["not", "an", "object"]}, "nps"),
        ({"methodId": "nps", "n": -1, "result": {"score": 5}}, "nps"),
        ({"result": {"score": 5}}, None),  # no method named
        ("van-westendorp", None),
        (None, None),
    ],
)
def test_a_malformed_entry_is_unreadable_never_empty(entry: Any, method_id: str | None) -> None:
    assert parse_calculation(entry) == UnreadableCalculation(method_id=method_id)


def test_one_malformed_entry_leaves_the_others_and_the_run_readable() -> None:
    calcs = parsed({"methodId": "maxdiff", "items": "oops"}, {"methodId": "nps", "result": {"score": 12}})
    assert [type(c) for c in calcs] == [UnreadableCalculation, NpsCalculation]


def test_calculations_that_are_not_a_list_are_one_unreadable_entry() -> None:
    assert parsed_raw({"x": 1}) == [UnreadableCalculation()]
    assert parsed_raw(None) == []


def parsed_raw(raw: Any) -> list[Any]:
    return ResearchRun.model_validate({"status": "completed", "calculations": raw}).calculations


@pytest.mark.parametrize(
    ("method_id", "kind"),
    [
        ("van-westendorp", "van_westendorp"),
        ("Van Westendorp", "van_westendorp"),
        ("gabor_granger", "gabor_granger"),
        ("MaxDiff", "maxdiff"),
        ("net-promoter-score", "nps"),
        ("key_driver_analysis", "key_drivers"),
        ("top-bottom-box", "top_bottom_box"),
        ("conjoint", None),
    ],
)
def test_method_ids_are_read_whatever_their_spelling(method_id: str, kind: str | None) -> None:
    assert calculation_kind(method_id) == kind
