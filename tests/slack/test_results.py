"""Issue #24 rows 3, 4, 5 and "charts say what they show", issue #34 rows 1, 2 and 8: one result model per question
decides what its text, its chart and the answers CSV say — the base (respondents), n per Audience, the option order
(Minds' option list or scale points, unchosen at 0%; by share only without a list, said once), the shares, the
scale statistics and the NPS (only when Minds marks the method NPS; never from the question's words)."""

from __future__ import annotations

import pytest

from minds_bot.render import results
from minds_bot.render.charts import result_chart, result_panel

GEN_Z = "Gen Z"


def one(kind: str, values: list[str], **kwargs: object) -> results.QuestionResult:
    result = results.build(title=kwargs.pop("title", "Q"), kind=kind, audiences=[(GEN_Z, values)], **kwargs)  # type: ignore[arg-type]
    assert result is not None
    return result


def line(result: results.QuestionResult) -> str:
    audience = result.audiences[0]
    return f"{results.base_text(result, audience)}: {results.summary(result, audience)}"


@pytest.mark.parametrize(
    ("kind", "values", "kwargs", "expected"),
    [
        # Row 3: a multiselect's shares are of the people who answered (4), so they add up to more than 100%;
        # #34 row 2: in Minds' option order.
        (
            "multiselect",
            ["Price; Quality", "Quality", "Quality; Design", "Price", ""],
            {"listed": ["Price", "Quality", "Design"]},
            "% of respondents · several answers allowed · n=4: Price 50% · Quality 75% · Design 25%",
        ),
        # Row 4: an ordered list keeps Minds' order and shows the option nobody chose at 0%.
        (
            "categorical",
            ["Very likely", "Somewhat likely", "Very likely", "Not at all likely"],
            {"listed": ["Very likely", "Somewhat likely", "Not very likely", "Not at all likely"]},
            "% of respondents · n=4: Very likely 50% · Somewhat likely 25% · Not very likely 0% · "
            "Not at all likely 25%",
        ),
        # #34 row 2: any option list Minds gives keeps Minds' order (no words decide); unchosen stays, at 0%.
        (
            "categorical",
            ["Tea", "Coffee", "Coffee", "Juice"],
            {"listed": ["Tea", "Water", "Juice", "Coffee"]},
            "% of respondents · n=4: Tea 25% · Water 0% · Juice 25% · Coffee 50%",
        ),
        (
            "categorical",
            ["Probably would buy", "Definitely would buy", "Probably would buy", "Definitely would not buy"],
            {
                "listed": [
                    "Definitely would buy",
                    "Probably would buy",
                    "Probably would not buy",
                    "Definitely would not buy",
                ]
            },
            "% of respondents · n=4: Definitely would buy 25% · Probably would buy 50% · "
            "Probably would not buy 0% · Definitely would not buy 25%",
        ),
        # Without an option list from Minds the answers are sorted by share (and the result says so once).
        (
            "categorical",
            ["Tea", "Coffee", "Coffee", "Juice"],
            {},
            "% of respondents · n=4: Coffee 50% · Tea 25% · Juice 25%",
        ),
        # Scale statistics are unchanged: mean, top-2-box on the declared range, n.
        ("scale", ["1", "4", "5", "5"], {"scale_range": [1, 5]}, "n=4: mean 3.8 on 1–5 · top-2-box 75%"),
        ("scale", ["9", "10", "3", "3"], {"scale_range": [0, 10]}, "n=4: mean 6.2 on 0–10 · top-2-box 50%"),
        # #34 row 1: a 0–10 scale of which Minds marks the method NPS shows the NPS: 2 promoters, 1 passive,
        # 7 detractors of 10 → −50; the word "recommend" alone decides nothing.
        (
            "scale",
            ["10", "9", "8", "6", "5", "4", "3", "2", "1", "0"],
            {"scale_range": [0, 10], "title": "How likely are you to recommend Cups to a friend?", "method_nps": True},
            "n=10: NPS −50 · promoters (9–10) 20% · passives (7–8) 10% · detractors (0–6) 70%",
        ),
        (
            "scale",
            ["10", "9", "8", "6", "5", "4", "3", "2", "1", "0"],
            {"scale_range": [0, 10], "title": "How likely are you to recommend Cups to a friend?"},
            "n=10: mean 4.8 on 0–10 · top-2-box 20%",
        ),
        (
            "scale",
            ["10", "9", "9", "7"],
            {"scale_range": [0, 10], "title": "Rate it", "method_nps": True},
            "n=4: NPS +75 · promoters (9–10) 75% · passives (7–8) 25% · detractors (0–6) 0%",
        ),
    ],
)
def test_what_a_result_says(kind: str, values: list[str], kwargs: dict, expected: str) -> None:
    assert line(one(kind, values, **kwargs)) == expected


def test_a_scale_lists_every_point_low_to_high_with_unchosen_points_at_zero() -> None:
    result = one("scale", ["5", "1", "5"], scale_range=[1, 5])
    assert result.ordered
    assert result.options == ["1", "2", "3", "4", "5"]
    assert [round(s) for s in result.audiences[0].shares] == [33, 0, 0, 0, 67]


def test_nps_arithmetic_keeps_n_and_a_zero_score() -> None:
    nps = results.nps_of({"9": 2, "5": 2, "7": 1})
    assert nps == results.Nps(score=0, promoters=2, passives=1, detractors=2, n=5)
    assert results.nps_text(0) == "NPS 0"
    assert results.nps_text(-42) == "NPS −42"


def test_nps_comes_from_minds_method_never_from_words() -> None:
    """The same 0–10 answers: NPS exactly when Minds marks the method NPS, whatever the question's words; a
    standalone scale (no method in Minds' data) says once that it is shown as a scale; a run whose calculations
    name another method says nothing more."""
    for title in ("How likely are you to recommend us?", "Wie wahrscheinlich empfehlen Sie uns?", "Rate it"):
        assert one("scale", ["9"], scale_range=[0, 10], title=title, method_nps=True).is_nps
        silent = one("scale", ["9"], scale_range=[0, 10], title=title)
        assert not silent.is_nps
        assert results.assumed_text(silent) == (
            "Minds named no method for this 0–10 scale: shown as a scale (mean), not as an NPS."
        )
        other = one("scale", ["9"], scale_range=[0, 10], title=title, method_nps=False)
        assert not other.is_nps and results.assumed_text(other) is None
    assert not one("scale", ["9"], scale_range=[1, 10], method_nps=True).is_nps  # NPS is on Minds' 0–10 only


def test_an_unordered_list_is_never_dropped_and_answers_off_the_list_are_kept() -> None:
    result = one("multiselect", ["Price; Something else"], listed=["Price", "Quality"])
    assert result.options == ["Price", "Quality", "Something else"]
    assert results.assumed_text(result) is None


def test_without_minds_option_list_the_order_is_by_share_and_said_once() -> None:
    result = one("categorical", ["Tea", "Coffee", "Coffee"])
    assert result.options == ["Coffee", "Tea"] and not result.ordered
    assert results.assumed_text(result) == "Minds sent no option list: answers sorted by share, largest first."


def test_the_csv_cells_are_the_scale_value_and_the_position_in_minds_list() -> None:
    scale = one("scale", ["7", "0"], scale_range=[0, 10])
    assert [results.csv_cells(scale, v) for v in ("7", "0", "7.0", "n/a")] == [
        ("7", "8"),
        ("0", "1"),
        ("7", "8"),
        ("", ""),
    ]
    listed = ["Never", "Rarely", "Sometimes", "Often", "Always"]
    ladder = one("categorical", ["Often"], listed=listed)
    assert results.csv_cells(ladder, "Often") == ("", "4")
    assert results.csv_cells(ladder, "Something else") == ("", "")
    several = one("multiselect", ["Price; Design"], listed=["Price", "Quality", "Design"])
    assert results.csv_cells(several, "Price; Design") == ("", "1; 3")
    assert results.csv_cells(None, "anything") == ("", "")


def test_nobody_answered_is_no_result() -> None:
    assert results.build(title="Q", kind="categorical", audiences=[(GEN_Z, ["", " "])]) is None


def test_the_chart_draws_the_same_numbers_the_text_says_with_n_base_and_anchors() -> None:
    result = results.build(
        title="Would you buy it?",
        kind="multiselect",
        audiences=[(GEN_Z, ["Price; Quality", "Quality"]), ("Parents", ["Price"])],
        listed=["Price", "Quality", "Design"],
    )
    assert result is not None
    panel = result_panel(result, title="Q1. Would you buy it?")
    assert panel.unit == "% of respondents (several answers allowed)"
    assert list(panel.values) == ["Gen Z (n=2)", "Parents (n=1)"]
    assert panel.options == ["Price", "Quality", "Design"]
    assert panel.value_labels == {"Gen Z (n=2)": ["50%", "100%", "0%"], "Parents (n=1)": ["100%", "0%", "0%"]}
    assert results.summary(result, result.audiences[0]) == "Price 50% · Quality 100% · Design 0%"
    assert result_chart(result=result, title="Q1").startswith(b"\x89PNG")


def test_the_chart_names_a_scale_s_ends_and_each_audience_s_nps() -> None:
    result = one(
        "scale",
        ["10", "0"],
        scale_range=[0, 10],
        anchors=("Not at all likely", "Extremely likely"),
        title="How likely are you to recommend us?",
        method_nps=True,
    )
    panel = result_panel(result, title="Q1")
    assert panel.options[0] == "0 (Not at all likely)" and panel.options[-1] == "10 (Extremely likely)"
    assert list(panel.values) == ["Gen Z (n=2, NPS 0)"]
    assert panel.unit == "% of respondents"


@pytest.mark.parametrize(
    "listed",
    [
        ["Never", "Rarely", "Sometimes", "Often", "Always"],
        ["Nie", "Selten", "Manchmal", "Oft", "Immer"],
        ["Nunca", "Rara vez", "A veces", "A menudo", "Siempre"],
        ["从不", "很少", "有时", "经常", "总是"],
        ["전혀 안 함", "드물게", "가끔", "자주", "항상"],
    ],
    ids=["en", "de", "es", "zh", "ko"],
)
def test_the_chart_keeps_minds_order_with_the_unchosen_option_at_zero_in_every_language(listed: list[str]) -> None:
    """Issue 34 row 2: the chart draws Minds' option order (not by share), the option nobody chose at 0%."""
    values = [listed[4]] * 3 + [listed[0]] + [listed[2]] * 2  # Always 50%, Sometimes 33%, Never 17%
    result = one("categorical", values, listed=listed)
    panel = result_panel(result, title="Q1")
    assert panel.options == listed
    assert panel.value_labels == {"Gen Z (n=6)": ["17%", "0%", "33%", "0%", "50%"]}
    assert results.assumed_text(result) is None  # Minds' order: nothing assumed
