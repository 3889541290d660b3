"""Issue 27 part 5, Minds in Workflow Builder, end to end through the real app against the sandbox: a workflow's
"Ask Minds a question" step asks in a channel thread and completes with the thread's result, n and link; "Plan
Minds research" posts the plan for approval and completes with its link; bad inputs complete with an error.
Issue 33: each step acts as the person who runs the workflow (the emulator fills the step's user_context with the
person at the keyboard, as Slack does from the workflow's trigger) and its question is recorded like
``/minds ask``'s."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from minds_bot.render import unescape
from slack_emulator.ids import permalink_fragment
from slack_emulator.state import FunctionExecution
from tests.e2e.desk import WAIT, Desk, action_ids, open_desk, shown

LAUNCH = "Launch positioning"
ASK = "minds_ask_question"
PLAN = "minds_plan_research"
QUESTION = (
    "Which of these matter to you when buying shoes? Select all that apply (Price, Quality, Design, Sustainability)"
)


@pytest.fixture
async def desk(tmp_path: Path) -> AsyncIterator[Desk]:
    async with open_desk(tmp_path) as running:
        yield running


async def run_step(desk: Desk, callback_id: str, **inputs: str) -> FunctionExecution:
    execution, delivery = await desk.emu.run_function(callback_id=callback_id, inputs=inputs, user=desk.ben)
    assert delivery.ok, f"the bot did not acknowledge the step: {delivery.error}"
    return await desk.emu.wait_for_function(execution.id, timeout=WAIT)


async def test_the_ask_step_asks_in_a_thread_and_completes_with_the_result_n_and_link(desk: Desk) -> None:
    since = desk.emu.mark()
    step = await run_step(desk, ASK, study=LAUNCH, question=QUESTION, channel=desk.research)

    assert step.status == "completed", step.error
    outputs = step.outputs or {}
    summary = unescape(outputs["summary"])
    assert summary.startswith("Results: Which of these matter to you when buying shoes?")
    assert "— 28 answers" in summary.splitlines()[0]
    assert summary.splitlines()[1] == "Simulated locally by the minds-bot sandbox — not answers from Minds."
    assert (
        "*Gen Z sneaker buyers in Germany* (% of respondents · several answers allowed · n=12): "
        "Price 50% · Quality 58% · Design 17% · Sustainability 42%"  # Minds' option order (issue 34 row 2)
    ) in summary
    assert outputs["n"] == 28
    declared = next(f for f in desk.demo.bot.bot.surface.functions if f.callback_id == ASK)
    assert set(outputs) == {p.name for p in declared.outputs}  # what the manifest promises Workflow Builder
    parent = next(m for m in desk.channel_since(since) if not m.is_reply and "asked" in m.text)
    assert f"<@{desk.ben}> asked *{LAUNCH}*" in parent.text
    assert outputs["thread_link"].endswith(f"/archives/{desk.research}/{permalink_fragment(parent.ts)}")
    replies = desk.emu.state.replies(desk.research, parent.ts)
    assert any(unescape(m.text).startswith("Results: Which of these matter") for m in replies)


async def test_the_plan_step_posts_the_plan_for_approval_and_completes_with_its_link(desk: Desk) -> None:
    since = desk.emu.mark()
    request = "Test three taglines for the running shoe launch with Gen Z buyers"
    step = await run_step(desk, PLAN, study=LAUNCH, request=request, channel=desk.research)

    assert step.status == "completed", step.error
    # Completed once the plan is in its message, ready for approval — not while it was still being prepared.
    (plan,) = [m for m in desk.channel_since(since) if not m.is_reply and "Research plan" in m.text]
    assert "plan_approve" in action_ids(plan.blocks) or any(
        a.startswith("plan_answer:") for a in action_ids(plan.blocks)
    )
    assert f"<@{desk.ben}>" in shown(plan)  # the person who ran the workflow requested it
    assert (step.outputs or {})["plan_link"].endswith(f"/archives/{desk.research}/{permalink_fragment(plan.ts)}")


@pytest.mark.parametrize(
    ("inputs", "error"),
    [
        (
            {"study": LAUNCH, "question": "  "},
            "The step has no Question: fill it in the workflow (or map it to an earlier step's answer).",
        ),
        (
            {"study": LAUNCH, "question": "Why? " * 500},
            "The Question is longer than 2,000 characters; shorten it in the workflow.",
        ),
        (
            {"study": LAUNCH, "question": "Do you like it? And would you buy it?"},
            "Minds was not asked: This text holds 2 questions. This step asks one question; "
            "use the “Plan Minds research” step for several.",
        ),
        (
            {"study": "No such study anywhere", "question": "Do you like it?"},
            "Minds was not asked: Nothing named “No such study anywhere” among all 2 items.",
        ),
        (
            {"study": LAUNCH, "question": "Do you like it?", "channel": "C0NOSUCH"},
            "You are not a member of C0NOSUCH, so the bot will not post there for you. Pick a channel you are in.",
        ),
    ],
)
async def test_bad_inputs_complete_the_ask_step_with_an_error(desk: Desk, inputs: dict[str, str], error: str) -> None:
    since = desk.emu.mark()
    step = await run_step(desk, ASK, **({"channel": desk.research} | inputs))

    assert step.status == "failed"
    assert (step.error or "").startswith(error)
    assert not [m for m in desk.channel_since(since) if "asked" in m.text]  # nothing was asked


async def test_a_cancelled_question_completes_the_ask_step_with_an_error_and_the_thread(desk: Desk) -> None:
    await desk.faults(run_speed=0.001)  # the run stays live long enough to be cancelled
    since = desk.emu.mark()
    inputs = {"study": LAUNCH, "question": "Do you like the new logo?", "channel": desk.research}
    execution, delivery = await desk.emu.run_function(callback_id=ASK, inputs=inputs, user=desk.ben)
    assert delivery.ok
    progress = await desk.posted(since, lambda m: m.is_reply and "run_cancel" in action_ids(m.blocks))
    assert desk.emu.state.functions[execution.id].status == "running"  # the step waits for the run's end

    await desk.emu.click_button(user=desk.ben, action_id="run_cancel", channel=desk.research, ts=progress.ts)
    step = await desk.emu.wait_for_function(execution.id, timeout=WAIT)

    assert step.status == "failed" and step.outputs is None
    link = f"/archives/{desk.research}/{permalink_fragment(progress.thread_ts or '')}"
    assert (step.error or "").startswith("The run was cancelled; there are no answers to show. The thread: http")
    assert (step.error or "").endswith(link)


async def test_a_question_the_step_asked_is_in_minds_activity_as_the_person_who_ran_it(desk: Desk) -> None:
    step = await run_step(desk, ASK, study=LAUNCH, question=QUESTION, channel=desk.research)
    assert step.status == "completed", step.error

    since = await desk.type(desk.ben, "activity")
    activity = await desk.private(desk.ben, since, "Minds spending in this channel, last 7 days")
    text = shown(activity)
    assert "*Totals:* 1 request sent to Minds, counting 28 Minds responses" in text
    assert f"<@{desk.ben}>" in text and "· Minds responses: 28 · started at Minds" in text


async def test_with_asking_held_for_an_approver_the_step_ends_and_the_question_waits_in_the_channel(
    desk: Desk,
) -> None:
    since = await desk.type(desk.ada, "policy")
    policy = await desk.private(desk.ada, since, "Spend policy in this channel")
    await desk.emu.select_option(
        user=desk.ada, action_id="spend_policy_set:ask", value="approve", channel=desk.research, ts=policy.ts
    )
    await desk.posted(since, lambda m: "set the spend policy here" in m.text)
    since = desk.emu.mark()

    step = await run_step(desk, ASK, study=LAUNCH, question="Do you like the new logo?", channel=desk.research)

    assert step.status == "failed" and step.outputs is None
    assert step.error == (
        "Minds was not asked yet: asking in #research needs an approver. The question waits there for one of the "
        "channel's approvers; once it is approved, the answer appears in #research."
    )
    line = await desk.posted(since, lambda m: "wants to" in m.text)
    assert line.text.startswith(f"<@{desk.ben}> wants to ask ") and "“Do you like the new logo?”" in line.text
    assert not [m for m in desk.channel_since(since) if "asked" in m.text], "held: nothing asked yet"

    await desk.emu.click_button(user=desk.ada, action_id="spend_hold_approve", channel=desk.research, ts=line.ts)
    parent = await desk.posted(since, lambda m: "asked" in m.text and not m.is_reply)
    assert f"<@{desk.ben}> asked *{LAUNCH}*" in parent.text  # as the person who ran the workflow, once approved


async def test_a_scheduled_workflow_has_nobody_to_act_as_and_sends_nothing(desk: Desk) -> None:
    since = desk.emu.mark()
    inputs = {"study": LAUNCH, "question": "Do you like the new logo?", "channel": desk.research}
    execution, delivery = await desk.emu.run_function(callback_id=ASK, inputs=inputs, user=desk.ben, scheduled=True)
    assert delivery.ok
    step = await desk.emu.wait_for_function(execution.id, timeout=WAIT)

    assert step.status == "failed"
    assert step.error == (
        "The step acts as the person who uses the workflow, and Slack did not say who that is (a scheduled "
        "workflow has no such person). Start the workflow from a link or a button, or put a step someone clicks "
        "before this one. Nothing was sent."
    )
    assert desk.channel_since(since) == []
