"""Numbers and the punctuation around other people's words, as each of the five languages writes them: decimals,
percentages (German and Spanish "75 %" with a no-break space), signed scores with a true minus, list separators
(Chinese "、"), "and"/"or" lists from Babel's patterns, and brackets (Chinese full-width, no space before)."""

from __future__ import annotations

import pytest

from minds_bot import i18n
from minds_bot.minds.models import parse_calculation
from minds_bot.render import charts, results
from minds_bot.render.calculations import calculation_text
from minds_bot.render.common import listing
from minds_bot.render.help import CAVEAT
from minds_bot.render.home import HomeState, render_home

NBSP = "\u00a0"


@pytest.mark.parametrize(
    ("language", "mean", "share", "large"),
    [
        ("en", "3.9", "75%", "1,234.5"),
        ("de", "3,9", f"75{NBSP}%", "1.234,5"),
        ("es", "3,9", f"75{NBSP}%", "1.234,5"),
        ("zh", "3.9", "75%", "1,234.5"),
        ("ko", "3.9", "75%", "1,234.5"),
    ],
)
def test_decimals_and_shares_are_written_as_the_language_writes_them(
    language: str, mean: str, share: str, large: str
) -> None:
    with i18n.speaking(language):
        assert i18n.format_decimal(3.94) == mean
        assert i18n.format_share(75.2) == share
        assert i18n.format_decimal(1234.5) == large


def test_a_decimal_keeps_its_places_and_a_share_its_asked_decimals() -> None:
    with i18n.speaking("de"):
        assert i18n.format_decimal(4) == "4,0"  # a mean of exactly 4 still says it is a mean to one decimal
        assert i18n.format_decimal(3.96, digits=2) == "3,96"
        assert i18n.format_share(78.5, digits=1) == f"78,5{NBSP}%"
    assert i18n.format_share(0) == "0%"


@pytest.mark.parametrize("language", ["en", "de", "es", "zh", "ko"])
def test_a_signed_score_has_a_true_minus_in_every_language(language: str) -> None:
    with i18n.speaking(language):
        assert (i18n.format_signed(-42), i18n.format_signed(12), i18n.format_signed(0)) == ("−42", "+12", "0")


@pytest.mark.parametrize(
    ("language", "listed", "both", "either"),
    [
        ("en", "Gen Z, Boomers, Parents", "Gen Z, Boomers and Parents", "Gen Z, Boomers or Parents"),
        ("de", "Gen Z, Boomers, Parents", "Gen Z, Boomers und Parents", "Gen Z, Boomers oder Parents"),
        ("es", "Gen Z, Boomers, Parents", "Gen Z, Boomers y Parents", "Gen Z, Boomers o Parents"),
        ("zh", "Gen Z、Boomers、Parents", "Gen Z、Boomers和Parents", "Gen Z、Boomers或Parents"),
        ("ko", "Gen Z, Boomers, Parents", "Gen Z, Boomers 및 Parents", "Gen Z, Boomers 또는 Parents"),
    ],
)
def test_lists_are_joined_as_the_language_joins_them(language: str, listed: str, both: str, either: str) -> None:
    names = ["Gen Z", "Boomers", "Parents"]
    with i18n.speaking(language):
        assert i18n.join_list(names) == listed
        assert i18n.join_list(names, style="and") == both
        assert i18n.join_list(names, style="or") == either
        assert i18n.join_list(["Gen Z"], style="and") == "Gen Z"
        assert i18n.join_list([]) == ""


@pytest.mark.parametrize(("language", "joined"), [("en", "a; b"), ("de", "a; b"), ("zh", "a；b"), ("ko", "a; b")])
def test_clauses_are_joined_with_the_language_s_semicolon(language: str, joined: str) -> None:
    with i18n.speaking(language):
        assert i18n.join_list(["a", "b"], style="clauses") == joined


@pytest.mark.parametrize(
    ("language", "bracketed", "annotated"),
    [
        ("en", "(n=12)", "Gen Z (n=12)"),
        ("de", "(n=12)", "Gen Z (n=12)"),
        ("zh", "（n=12）", "Gen Z（n=12）"),
        ("ko", "(n=12)", "Gen Z (n=12)"),
    ],
)
def test_brackets_are_the_language_s_own(language: str, bracketed: str, annotated: str) -> None:
    with i18n.speaking(language):
        assert i18n.bracket("n=12") == bracketed
        assert i18n.annotate("Gen Z", "n=12") == annotated
        assert i18n.annotate("Gen Z", None) == "Gen Z"


def test_figures_are_separated_by_a_middle_dot_and_empty_ones_left_out() -> None:
    with i18n.speaking("zh"):
        assert i18n.separated(["平均值 3.9", None, "75%"]) == "平均值 3.9 · 75%"


# --- renderers use them: what passes without new catalog entries ----------------------------------------------


def _yes_no_result(language: str) -> results.QuestionResult:
    with i18n.speaking(language):
        built = results.build(
            title="Would you buy it?",
            kind="categorical",
            audiences=[("Gen Z", ["Yes"] * 11 + ["No"])],
            listed=["Yes", "No"],
        )
    assert built is not None
    return built


def test_a_charts_bar_labels_are_the_threads_percentages_in_german() -> None:
    with i18n.speaking("de"):
        panel = charts.result_panel(_yes_no_result("de"), title="Q1")
    assert panel.value_labels is not None
    assert list(panel.value_labels.values()) == [[f"92{NBSP}%", f"8{NBSP}%"]]


def test_a_charts_scale_anchors_are_bracketed_as_chinese_brackets_them() -> None:
    with i18n.speaking("zh"):
        result = results.build(
            title="Q", kind="scale", audiences=[("Gen Z", ["1", "3"])], scale_range=[1, 3], anchors=("很差", "很好")
        )
        assert result is not None
        assert charts.result_panel(result, title="Q").options == ["1（很差）", "2", "3（很好）"]


def test_a_method_nps_keeps_its_true_minus_and_minds_decimals_in_german() -> None:
    calculation = parse_calculation({"methodId": "nps", "n": 12, "result": {"score": -12.5, "promotersPct": 17.5}})
    with i18n.speaking("de"):
        assert calculation_text(calculation).splitlines()[-1] == f"NPS −12,5 · Promotoren 17,5{NBSP}%"


def test_names_are_listed_with_the_chinese_enumeration_comma() -> None:
    with i18n.speaking("zh"):
        assert listing(["Gen Z", "Boomers"]) == "Gen Z、Boomers"


def test_the_home_tabs_closing_sentences_have_no_space_between_them_in_chinese() -> None:
    with i18n.speaking("zh"):
        view = render_home(HomeState(connected=True))
        closing = view.blocks[-1].elements[0].text  # type: ignore[attr-defined]
        assert closing == i18n._("Type `/minds help` in any channel for every command.") + i18n._(CAVEAT)
        assert "。 " not in closing  # two sentences, no space between them


def test_bold_next_to_a_full_width_bracket_or_enumeration_comma_still_renders() -> None:
    """Slack shows "*Gen Z*（" with literal asterisks: the helpers put a zero-width space where a span meets CJK."""
    with i18n.speaking("zh"):
        assert i18n.annotate("*Gen Z*", "n=12") == "*Gen Z*\u200b（n=12）"
        assert i18n.join_list(["*A*", "*B*"]) == "*A*\u200b、\u200b*B*"
    with i18n.speaking("de"):
        assert i18n.annotate("*Gen Z*", "n=12") == "*Gen Z* (n=12)"
