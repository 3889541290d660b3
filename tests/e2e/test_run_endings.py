"""How a guided research run ends in the channel, with the real bot, the emulator's signed requests and the
sandbox: the plan message's approval line becomes the run's outcome (or only says it ended, when the workspace
turned that off), the request gets a reaction, and a run cancelled before Minds reported progress never claims
how far it got."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from slack_emulator.state import Message
from tests.e2e.desk import Desk, action_ids, open_desk, shown

REQUEST = 'plan "Launch positioning" Test three taglines for our new running shoe with Gen Z buyers'


@pytest.fixture
async def desk(tmp_path: Path) -> AsyncIterator[Desk]:
    async with open_desk(tmp_path) as opened:
        yield opened


def plan_message(desk: Desk, plan: Message) -> Message:
    return next(m for m in desk.emu.state.messages(desk.research) if m.ts == plan.ts)


def closing_line(desk: Desk, plan: Message) -> str:
    """The last context line of the plan message: what the channel reads about the run."""
    blocks = plan_message(desk, plan).blocks
    last = blocks[-1] if blocks else {}
    return " ".join(e.get("text", "") for e in last.get("elements", [])) if last.get("type") == "context" else ""


async def reacted(desk: Desk, plan: Message, name: str) -> None:
    """The bot's reaction on the plan message is ``name``, and only that."""
    bot = desk.emu.config.bot_user_id
    await desk.wait(lambda: plan_message(desk, plan).reactions)
    assert plan_message(desk, plan).reactions == {name: [bot]}


def thread(desk: Desk, plan: Message) -> str:
    return " ".join(shown(m) for m in desk.emu.state.replies(desk.research, plan.ts))


async def test_a_completed_run_closes_its_plan_message_with_the_outcome_and_a_reaction(desk: Desk) -> None:
    plan = await desk.answered_plan(desk.ben, REQUEST)
    await desk.emu.click_button(user=desk.ada, action_id="plan_approve", channel=desk.research, ts=plan.ts)
    ada = f"<@{desk.ada}>"
    await desk.wait(lambda: "Completed —" in closing_line(desk, plan))
    line = closing_line(desk, plan)
    assert line.startswith(":white_check_mark: Completed — results in the thread. Approved by ")
    assert f"Approved by {ada} (revision " in line
    assert "is running" not in shown(plan_message(desk, plan))
    await reacted(desk, plan, "white_check_mark")
    assert "Completed:" in thread(desk, plan)
    replies = desk.emu.state.messages(desk.research, include_replies=True)
    assert not [m for m in replies if m.broadcast], "the result stays in the thread; the channel has one line"


async def test_a_run_cancelled_before_minds_reported_progress_says_only_what_minds_said(desk: Desk) -> None:
    await desk.faults(run_speed=0.001, omit_progress=True)  # live long enough to cancel; Minds says no progress
    plan = await desk.answered_plan(desk.ben, REQUEST)
    approved = desk.emu.mark()
    await desk.emu.click_button(user=desk.ada, action_id="plan_approve", channel=desk.research, ts=plan.ts)
    progress = await desk.posted(approved, lambda m: "run_cancel" in action_ids(m.blocks), thread_ts=plan.ts)
    mark = desk.emu.mark()
    await desk.emu.click_button(user=desk.ben, action_id="run_cancel", channel=desk.research, ts=progress.ts)
    await desk.private(desk.ben, mark, "Minds accepted the cancellation")

    await desk.wait(lambda: "Cancelled by" in closing_line(desk, plan))
    assert closing_line(desk, plan).startswith(
        f":heavy_multiplication_x: Cancelled by <@{desk.ben}> — what Minds reported is in the thread. Approved by "
        f"<@{desk.ada}> (revision "
    )
    text = thread(desk, plan)
    assert ":heavy_multiplication_x: Cancelled: Minds reported no progress, so how far it got is unknown." in text
    assert "had settled" not in text and "all questions" not in text
    await reacted(desk, plan, "heavy_multiplication_x")


async def test_with_the_outcome_off_the_plan_message_only_says_the_run_ended(desk: Desk) -> None:
    await desk.type(desk.ada, "connect")
    dialog = await desk.modal(desk.ada, "Say in the channel how each run ended")
    assert '"initial_options"' in shown(dialog), "on by default"
    key = desk.demo.bot.bot.services.settings.minds_api_key
    assert key is not None
    since = desk.emu.mark()
    await desk.emu.submit_view(
        user=desk.ada, inputs={"minds_key_input": key.get_secret_value(), "outcome_in_channel_input": []}
    )
    await desk.private(desk.ada, since, "Minds is connected. Minds did not say the account's name or email.")
    workspace = await desk.demo.bot.bot.services.store.get_workspace(desk.emu.config.team_id)
    assert workspace is not None and workspace.outcome_in_channel is False, "the box was left unticked"

    plan = await desk.answered_plan(desk.ben, REQUEST)
    await desk.emu.click_button(user=desk.ada, action_id="plan_approve", channel=desk.research, ts=plan.ts)
    await desk.wait(lambda: "has ended" in closing_line(desk, plan))
    assert re.fullmatch(
        rf":checkered_flag: The run has ended — results in the thread\. Approved by <@{desk.ada}> \(revision \d+\)\.",
        closing_line(desk, plan),
    )
    assert "Completed" not in closing_line(desk, plan)
    await reacted(desk, plan, "white_check_mark")


async def test_the_report_after_a_run_is_generated_anew_when_minds_cached_an_older_one(desk: Desk) -> None:
    study = next(s for s in await desk.minds_api("GET", "/studies?limit=100") if s["name"] == "Launch positioning")
    older = await desk.minds_api("POST", f"/studies/{study['id']}/export", {"kind": "full_report", "format": "md"})
    plan = await desk.answered_plan(desk.ben, REQUEST)
    cached = await desk.minds_api("GET", f"/studies/{study['id']}/export-status?jobId={older['jobId']}")
    assert cached["status"] == "completed", "Minds now holds a report from before the run"
    before = await results_at_minds(desk, study["id"])
    await desk.emu.click_button(user=desk.ada, action_id="plan_approve", channel=desk.research, ts=plan.ts)

    def report() -> str | None:
        for message in desk.emu.state.replies(desk.research, plan.ts):
            if "The full report (md) is attached" in message.text:
                return message.text
        return None

    said = await desk.wait(report)
    name = said.split("attached: ", 1)[1].split("\n", 1)[0]
    assert said == (
        f":paperclip: The full report (md) is attached: {name}\nStudy report, all runs, generated after this run."
    )
    attached = await desk.wait(
        lambda: next((f for f in desk.emu.state.files.values() if f.name == name and f.name.endswith(".md")), None)
    )
    content = (desk.emu.file_content(attached.id) or b"").decode()
    titles = [line for line in content.splitlines() if line.startswith("### ")]
    after = await results_at_minds(desk, study["id"])
    assert after > before and len(titles) == after, "the report covers every result of the Study, this run's too"


async def results_at_minds(desk: Desk, study_id: str) -> int:
    """How many results the Study holds at Minds (each a section of its full report)."""
    study = await desk.minds_api("GET", f"/studies/{study_id}")
    return sum(1 for m in study["messages"] if m["role"] == "assistant" and (m.get("metadata") or {}).get("outputData"))


async def test_a_partial_run_is_never_closed_as_completed(desk: Desk) -> None:
    await desk.faults(drop_answer_rate=0.3)
    partial = await desk.answered_plan(desk.ben, REQUEST)
    await desk.emu.click_button(user=desk.ada, action_id="plan_approve", channel=desk.research, ts=partial.ts)
    await desk.wait(lambda: "Partial" in closing_line(desk, partial))
    assert closing_line(desk, partial).startswith(
        ":warning: Partial — not complete: the run finished with gaps. Results and gaps are in the thread. "
        f"Approved by <@{desk.ada}> (revision "
    )
    assert "Completed" not in closing_line(desk, partial)
    await reacted(desk, partial, "warning")


async def test_a_run_stopped_by_the_plan_limit_is_never_closed_as_completed(desk: Desk) -> None:
    await desk.allowance(40)  # the first question's answers fit; the next ones do not
    limited = await desk.answered_plan(desk.ben, REQUEST)
    await desk.emu.click_button(user=desk.ada, action_id="plan_approve", channel=desk.research, ts=limited.ts)
    await desk.wait(lambda: "plan limit" in closing_line(desk, limited))
    assert closing_line(desk, limited).startswith(
        ":no_entry: Stopped by the Minds plan limit — the results of the questions that completed are in the thread."
    )
    assert "Completed" not in closing_line(desk, limited)
    await reacted(desk, limited, "warning")
