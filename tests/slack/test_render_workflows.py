"""What a workflow step hands Workflow Builder: the same result lines as the question's thread, and errors in plain
words; and who a step acts as: the id of its user context, nothing else."""

from __future__ import annotations

import pytest

from minds_bot.flows.workflows import ASK_INPUTS, read_inputs, run_by
from minds_bot.minds import parse_output
from minds_bot.render.answers import render_result
from minds_bot.render.workflows import plain_words, step_summary
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


@pytest.mark.parametrize(
    ("mrkdwn", "channels", "plain"),
    [
        (
            "Minds is not in <#C0001>. Nothing was posted.",
            {"C0001": "research"},
            "Minds is not in #research. Nothing was posted.",
        ),
        ("You are not a member of <#G0SECRET>, so …", {}, "You are not a member of G0SECRET, so …"),
        ("In <#C0001|brand> now", {}, "In #brand now"),
        ("See `/minds policy`. *Gen Z &lt;buyers&gt;* &amp; more", {}, "See /minds policy. Gen Z <buyers> & more"),
        (
            "<@U0BEN> asked, <!here>: <https://x.test/t|the thread>",
            {},
            "@U0BEN asked, @here: the thread (https://x.test/t)",
        ),
        ("a*b stays, 2 * 3 * 4 stays, &amp;lt; is one level", {}, "a*b stays, 2 * 3 * 4 stays, &lt; is one level"),
    ],
)
def test_a_steps_error_is_handed_to_slack_in_plain_words(mrkdwn: str, channels: dict[str, str], plain: str) -> None:
    assert plain_words(mrkdwn, channels=channels) == plain


@pytest.mark.parametrize(
    ("inputs", "person"),
    [
        ({"run_by": {"id": "U0BEN", "secret": "s"}}, "U0BEN"),
        ({"run_by": {"id": "W0BEN"}}, "W0BEN"),
        ({"run_by": "U0BEN"}, None),  # typed text is not Slack's user context
        ({"run_by": {"id": "<@U0BEN>"}}, None),
        ({"run_by": {"id": 7}}, None),
        ({"asked_by": "U0ADA", "requested_by": "U0ADA"}, None),  # naming someone makes nobody the runner
        ("run_by", None),
        (None, None),
    ],
)
def test_the_person_is_the_id_of_the_user_context_only(inputs: object, person: str | None) -> None:
    assert run_by(inputs) == person
