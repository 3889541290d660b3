"""The numbers a researcher reads first: mean, top-2-box and n for a scale; shares of respondents, with n, for a
choice — from the result model and in the run and question results beside the chart."""

from __future__ import annotations

import pytest

from minds_bot.minds import ResearchRun, parse_output
from minds_bot.render import results
from minds_bot.render.answers import render_result
from minds_bot.render.runs import render_results


def values(counts: dict[str, int]) -> list[str]:
    return [value for value, count in counts.items() for _ in range(count)]


@pytest.mark.parametrize(
    ("kind", "answers", "scale", "expected"),
    [
        ("scale", values({"1": 8, "3": 2}), [1, 5], "mean 1.4 on 1–5 · top-2-box 0%"),
        ("scale", values({"2": 1, "4": 2, "5": 1}), [1, 5], "mean 3.8 on 1–5 · top-2-box 75%"),
        ("scale", values({"9": 1, "10": 1, "3": 2}), [0, 10], "mean 6.2 on 0–10 · top-2-box 50%"),
        ("scale", values({"4": 3}), None, "mean 4.0"),
        ("categorical", values({"No": 3, "Yes": 7}), None, "Yes 70% · No 30%"),
        ("categorical", values({"A": 1, "B": 1, "C": 2}), None, "C 50% · A 25% · B 25%"),
        (
            "multiselect",
            ["Price; Quality", "Price; Quality", "Quality", "Quality", "Price"],
            None,
            "Quality 80% · Price 60%",
        ),
        ("scale", values({"n/a": 2}), [1, 5], "no numeric answers"),
    ],
)
def test_summary_line(kind: str, answers: list[str], scale: list | None, expected: str) -> None:
    result = results.build(title="Q", kind=kind, audiences=[("A", answers)], scale_range=scale)
    assert result is not None
    assert results.summary(result, result.audiences[0]) == expected


def test_nobody_answering_is_no_result() -> None:
    assert results.build(title="Q", kind="categorical", audiences=[("A", [])]) is None


def test_multiselect_answers_count_once_per_option_named() -> None:
    result = results.build(title="Q", kind="multiselect", audiences=[("A", ["Price; Quality", "Quality", " "])])
    assert result is not None
    assert (result.audiences[0].counts, result.audiences[0].n) == ({"Price": 1, "Quality": 2}, 2)


def _scale_output(values: list[int]) -> dict:
    return {
        "title": "How would you rate the price? (1 = far too expensive, 5 = very good value)",
        "type": "scale",
        "classification": {"type": "scale", "scaleRange": [1, 5]},
        "audiences": [
            {
                "audience": "Gen Z <buyers>",
                "value": "mean 1.4",
                "answers": [{"value": str(v), "persona": f"P{i}", "message": "ok"} for i, v in enumerate(values)],
            }
        ],
    }


def test_a_scale_question_result_reads_mean_top_box_and_n_not_raw_points() -> None:
    message = render_result(parse_output(_scale_output([1, 1, 1, 1, 5])), study_id="s1", message_id="m1", charted=True)
    text = "\n".join(str(b.to_dict()) for b in message.blocks)
    assert "*Gen Z &lt;buyers&gt;* (n=5): mean 1.8 on 1–5 · top-2-box 20%" in text
    assert "1 80%" not in text


def test_a_run_result_reads_mean_top_box_and_n_for_a_scale() -> None:
    run = ResearchRun.model_validate(
        {
            "status": "completed",
            "progress": {"total": 1, "settled": 1},
            "artifacts": [
                {"index": 0, "questionId": "q1", "kind": "response", "outputData": _scale_output([1, 4, 5, 5])}
            ],
        }
    )
    text = "\n".join(str(b.to_dict()) for m in render_results(run, study_name="Pricing pulse") for b in m.blocks)
    assert "Gen Z &lt;buyers&gt; (n=4): mean 3.8 on 1–5 · top-2-box 75%" in text
