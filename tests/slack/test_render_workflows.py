"""What a workflow step hands Workflow Builder: the same result lines as the question's thread, and plain errors."""

from __future__ import annotations

from minds_bot.flows.workflows import ASK_INPUTS, read_inputs
from minds_bot.minds import parse_output
from minds_bot.render.answers import render_result
from minds_bot.render.workflows import step_summary
from tests.slack.test_render_stats import _scale_output


def test_the_summary_is_the_threads_title_and_lines() -> None:
    output = parse_output(_scale_output([1, 1, 1, 1, 5]))
    summary = step_summary(output)
    assert summary.splitlines() == [
        "Results: How would you rate the price? (1 = far too expensive, 5 = very good value) — 5 answers",
        "*Gen Z &lt;buyers&gt;* (n=5): mean 1.8 on 1–5 · top-2-box 20%",
    ]
    thread = render_result(output, study_id="s1", message_id="m1", charted=False)
    assert thread.text == summary.splitlines()[0]
    assert summary.splitlines()[1] in str(thread.blocks[1].to_dict())


def test_a_qualitative_summary_gives_each_audiences_themes() -> None:
    data = _scale_output([3, 4]) | {"type": "qualitative", "classification": None}
    data["audiences"][0]["value"] = "Most find it fair; two want a student price."
    summary = step_summary(parse_output(data))
    assert summary.splitlines()[0].startswith("Themes: How would you rate the price?")
    assert summary.splitlines()[1:] == [
        "*Gen Z &lt;buyers&gt;* (2 answers)",
        "Most find it fair; two want a student price.",
    ]


def test_inputs_are_trimmed_and_the_first_missing_or_too_long_one_is_named() -> None:
    good = {"study": " Launch ", "question": "Why?", "channel": "C1"}
    assert read_inputs(good, ASK_INPUTS).values["study"] == "Launch"
    assert read_inputs(None, ASK_INPUTS).error == (
        "The step has no Study: fill it in the workflow (or map it to an earlier step's answer)."
    )
    assert read_inputs(good | {"channel": 5}, ASK_INPUTS).error == (
        "The step has no Channel: fill it in the workflow (or map it to an earlier step's answer)."
    )
    assert read_inputs(good | {"question": "x" * 2001}, ASK_INPUTS).error == (
        "The Question is longer than 2,000 characters; shorten it in the workflow."
    )
