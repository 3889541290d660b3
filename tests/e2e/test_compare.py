"""Issue 27 part 2, "Compare", end to end through the real app against the sandbox: two runs of one Study that
share questions, compared by ``/minds compare`` and by "Compare with…" on a result — the exact differences per
Audience with each side's n, one chart per compared question, the questions only one run asked, and the
significance caveat — one run's Audiences compared, and the private answers to what cannot be compared."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from slack_emulator.state import Message
from tests.e2e.desk import Desk, action_ids, open_desk, shown

LAUNCH = "Launch positioning"
GEN_Z = "Gen Z sneaker buyers in Germany"
KOREA = "Korean skincare enthusiasts"
OFTEN = "How often do you buy new sneakers? (Never / Rarely / Sometimes / Often / Always)"
RATE = "Rate the look of our recycled running shoe from 1 to 5"
BUY = "Would you buy running shoes made from recycled material?"
BRAND = "Do you care which brand your running shoes are?"
FIRST = f'plan "{LAUNCH}" Wave one\n1. {BUY}\n2. {OFTEN}\n3. {RATE}'
SECOND = f'plan "{LAUNCH}" Wave two\n1. {BRAND}\n2. {OFTEN}\n3. {RATE}'
SIGNIFICANCE = "_Differences between synthetic samples are not significance tests._"
# The shared questions compared, Audience by Audience, exactly as each run's own result gave them (see below). How
# often a Mind buys sneakers is its own habit, so both waves give the same shares; the rating moves with the wave.
OFTEN_COMPARED = (
    f"*Q2. {OFTEN}*\n"
    "_% of respondents_\n"
    f"*A · {GEN_Z} (n=12) → B · {GEN_Z} (n=12)*\n"
    "• Never: 0% → 0% (0 pp)\n"
    "• Rarely: 17% → 17% (0 pp)\n"
    "• Sometimes: 33% → 33% (0 pp)\n"
    "• Often: 42% → 42% (0 pp)\n"
    "• Always: 8% → 8% (0 pp)\n"
    f"*A · {KOREA} (n=16) → B · {KOREA} (n=16)*\n"
    "• Never: 12% → 12% (0 pp)\n"
    "• Rarely: 31% → 31% (0 pp)\n"
    "• Sometimes: 56% → 56% (0 pp)\n"
    "• Often: 0% → 0% (0 pp)\n"
    "• Always: 0% → 0% (0 pp)"
)
RATE_COMPARED = (
    f"*Q3. {RATE}*\n"
    f"*A · {GEN_Z} (n=12) → B · {GEN_Z} (n=12)*\n"
    "mean 3.3 → 3.6 (+0.3) · top-2-box 33% → 42% (+9 pp)\n"
    f"*A · {KOREA} (n=16) → B · {KOREA} (n=16)*\n"
    "mean 2.5 → 2.6 (+0.1) · top-2-box 0% → 0% (0 pp)"
)
SIMULATED = "_Simulated locally by the minds-bot sandbox — not answers from Minds._"


@pytest.fixture
async def desk(tmp_path: Path) -> AsyncIterator[Desk]:
    async with open_desk(tmp_path) as opened:
        yield opened


def thread(desk: Desk, parent_ts: str) -> list[Message]:
    return desk.emu.state.replies(desk.research, parent_ts)


async def ran(desk: Desk, request: str) -> tuple[Message, Message]:
    """A plan approved and run to its end: the plan and its result message (the one with "Compare with…")."""
    plan = await desk.answered_plan(desk.ben, request)
    await desk.emu.click_button(user=desk.ada, action_id="plan_approve", channel=desk.research, ts=plan.ts)
    result = await desk.wait(
        lambda: next((m for m in thread(desk, plan.ts) if "compare_with" in action_ids(m.blocks)), None)
    )
    return plan, result


def texts(messages: list[Message]) -> list[str]:
    return [block["text"]["text"] for m in messages for block in m.blocks if block.get("type") == "section"]


def charts(desk: Desk, messages: list[Message]) -> list[str]:
    return [desk.emu.state.files[f].name for m in messages for f in m.files]


def intro_lines(message: Message) -> list[str]:
    return texts([message])[0].splitlines()


async def test_two_runs_are_compared_by_the_command_and_by_compare_with_on_a_result(desk: Desk) -> None:
    first_plan, first = await ran(desk, FIRST)
    second_plan, second = await ran(desk, SECOND)
    # Each run's own result gives the numbers the comparison compares.
    assert f"{GEN_Z} (% of respondents · n=12): Never 0% · Rarely 17% · Sometimes 33% · Often 42% · Always 8%" in (
        shown(first)
    )
    assert f"{KOREA} (n=16): mean 2.6 on 1–5 · top-2-box 0%" in shown(second)

    since = await desk.type(desk.chloe, f'compare "{LAUNCH}"')
    parent = await desk.posted(since, lambda m: "compared" in m.text and not m.is_reply)
    lines = intro_lines(parent)
    assert lines[0] == f":left_right_arrow: *Two runs of {LAUNCH} compared*: 2 questions both asked."
    assert lines[1].startswith("*A:* <!date^") and lines[1].endswith(f"“{BUY}” (+2 more questions) · completed")
    assert lines[2].startswith("*B:* <!date^") and lines[2].endswith(f"“{BRAND}” (+2 more questions) · completed")
    assert lines[3:] == [
        "Differences are B minus A, Audience by Audience; each side gives its n.",
        f"Only in A: Q1 “{BUY}”.",
        f"Only in B: Q1 “{BRAND}”.",
        SIMULATED,  # the embedded sandbox answered, and every result from it says so
        SIGNIFICANCE,
    ]
    await desk.wait(lambda: charts(desk, thread(desk, parent.ts)))
    replies = thread(desk, parent.ts)
    assert texts(replies) == [OFTEN_COMPARED, RATE_COMPARED]
    assert charts(desk, replies) == ["compare-q2.png", "compare-q3.png"]  # one chart per compared question

    # "Compare with…" on the second run's result: a dialog offers the Study's other runs; the comparison follows
    # in that result's thread.
    await desk.emu.click_button(user=desk.chloe, action_id="compare_with", channel=desk.research, ts=second.ts)
    dialog = await desk.modal(desk.chloe, "Compare this run with")
    options = dialog.payload["blocks"][0]["element"]["options"]
    earlier = next(o["value"] for o in options if "completed · “Would you buy" in o["text"]["text"])
    assert options[-1]["text"]["text"] == "This run's Audiences, side by side"
    await desk.emu.submit_view(user=desk.chloe, inputs={"compare_run/value": earlier})
    # The run's own charts and report may still be arriving in the same thread: the comparison is found by what
    # it says, not by its place.
    await desk.wait(lambda: "compare-q3.png" in charts(desk, thread(desk, second_plan.ts)))
    posted = [m for m in thread(desk, second_plan.ts) if "compared" in m.text or m.text.startswith(("Q2.", "Q3."))]
    assert intro_lines(posted[0])[0] == f":left_right_arrow: *Two runs of {LAUNCH} compared*: 2 questions both asked."
    assert SIGNIFICANCE in intro_lines(posted[0])
    assert texts(posted[1:]) == [OFTEN_COMPARED, RATE_COMPARED]  # the older run is A either way

    # "This run's Audiences, side by side" on the first run's result compares its two Audiences in its thread.
    await desk.emu.click_button(user=desk.chloe, action_id="compare_with", channel=desk.research, ts=first.ts)
    await desk.modal(desk.chloe, "Compare this run with")
    await desk.emu.submit_view(user=desk.chloe, inputs={"compare_run/value": "audiences"})
    heading = f":left_right_arrow: *The Audiences of one run of {LAUNCH} compared*: 3 questions."
    intro = await desk.wait(lambda: next((m for m in thread(desk, first_plan.ts) if m.text == heading), None))
    assert f"*A:* {GEN_Z} · *B:* {KOREA}" in intro_lines(intro)

    # A standalone question is a run too: named by its number, it is compared with the first wave's same question.
    since = await desk.type(desk.ben, f'ask "{LAUNCH}" {OFTEN}')
    asked = await desk.posted(since, lambda m: "asked" in m.text and not m.is_reply)
    result = await desk.wait(
        lambda: next((m for m in thread(desk, asked.ts) if "answers_show" in action_ids(m.blocks)), None)
    )
    assert "compare_with" in action_ids(result.blocks)  # a standalone question's result can be compared too
    since = await desk.type(desk.chloe, f'compare "{LAUNCH}" 3 1')  # 1 = the question, 2 = wave two, 3 = wave one
    parent = await desk.posted(since, lambda m: "compared" in m.text and not m.is_reply)
    lines = intro_lines(parent)
    assert lines[0] == f":left_right_arrow: *Two runs of {LAUNCH} compared*: 1 question both asked."
    assert lines[2].endswith(f"“{OFTEN}” · completed")
    assert f"Only in A: Q1 “{BUY}”; Q3 “{RATE}”." in lines
    await desk.wait(lambda: charts(desk, thread(desk, parent.ts)))
    assert texts(thread(desk, parent.ts))[0].splitlines()[2:] == [
        f"*A · {GEN_Z} (n=12) → B · {GEN_Z} (n=12)*",
        "• Never: 0% → 0% (0 pp)",  # how often a Mind buys sneakers is its own habit, asked alone or in a run
        "• Rarely: 17% → 17% (0 pp)",
        "• Sometimes: 33% → 33% (0 pp)",
        "• Often: 42% → 42% (0 pp)",
        "• Always: 8% → 8% (0 pp)",
        f"*A · {KOREA} (n=16) → B · {KOREA} (n=16)*",
        "• Never: 12% → 12% (0 pp)",
        "• Rarely: 31% → 31% (0 pp)",
        "• Sometimes: 56% → 56% (0 pp)",
        "• Often: 0% → 0% (0 pp)",
        "• Always: 0% → 0% (0 pp)",
    ]


async def test_one_runs_audiences_are_compared_and_what_cannot_be_compared_is_said_privately(desk: Desk) -> None:
    since = await desk.type(desk.chloe, f'compare "{LAUNCH}" 1')  # the seeded run, asked of two Audiences
    parent = await desk.posted(since, lambda m: "compared" in m.text and not m.is_reply)
    lines = intro_lines(parent)
    assert lines[0].startswith(f":left_right_arrow: *The Audiences of one run of {LAUNCH} compared*:")
    assert lines[2] == f"*A:* {GEN_Z} · *B:* {KOREA}"
    assert lines[-1] == SIGNIFICANCE
    await desk.wait(lambda: charts(desk, thread(desk, parent.ts)))
    first = texts(thread(desk, parent.ts))[0]
    assert first.splitlines()[1:] == [
        f"*A · {GEN_Z} (n=12) → B · {KOREA} (n=16)*",
        "mean 3.5 → 2.8 (−0.7) · top-2-box 58% → 0% (−58 pp)",
    ]
    assert "Not compared: Q1 “In a sentence or two" in shown(parent)  # open-ended: named, not compared

    since = await desk.type(desk.chloe, "compare Nonexistent study")
    await desk.private(desk.chloe, since, "Nothing named “Nonexistent study” among all 2 items.")

    since = await desk.type(desk.chloe, 'compare "Pricing pulse"')
    said = await desk.private(desk.chloe, since, "has one finished run")
    assert "so there is nothing to compare it with yet" in shown(said)
    assert "`/minds compare Pricing pulse 1`" in shown(said)

    since = await desk.type(desk.chloe, f'compare "{LAUNCH}" 9')
    said = await desk.private(desk.chloe, since, "has no run “9”")
    assert f"{LAUNCH} has no run “9”. Name a run by its number below (1 = newest" in shown(said)
    assert "\n1. <!date^" in said.text  # the Study's runs, numbered as the command reads them

    since = await desk.type(desk.chloe, "compare")
    assert "`/minds compare <study> <run> <run>`" in shown(await desk.private(desk.chloe, since, "compare"))
