"""Issue 24, rows 1, 2, 12 and 13, through the real bot against the Minds sandbox: the plan header says who answers
(the Audiences and their Mind counts — the revision's selection once "Which Audiences should answer this plan?"
narrowed it), the Approve dialog counts exactly the Audiences, Minds and responses the run then uses, the answered
confirmation question stays on the plan with who answered it (also after approval), and each revision says which
questions changed since the one shown before."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from slack_emulator.state import Message
from tests.e2e.desk import Desk, open_desk, shown

SNEAKERS = "Gen Z sneaker buyers in Germany"
SKINCARE = "Korean skincare enthusiasts"
WHO_ASKS = "Which Audiences should answer this plan?"
REQUEST = (
    'plan "Launch positioning" How do Gen Z sneaker buyers in Germany feel about a 140 EUR price for our new '
    "running shoe?"
)
ADDED = "Would you buy the running shoe online?"


def _buttons(message: Message) -> list[dict[str, Any]]:
    return [e for b in message.blocks if b.get("type") == "actions" for e in b.get("elements", [])]


def _plan_buttons(message: Message) -> list[dict[str, Any]]:
    """The plan's own buttons: once approved it keeps none (only "Notify me when it ends" while its run runs)."""
    return [e for e in _buttons(message) if e.get("action_id") != "run_notify_me"]


def _button(message: Message, label: str) -> dict[str, Any]:
    return next(e for e in _buttons(message) if e.get("type") == "button" and e["text"]["text"] == label)


def _question_count(message: Message) -> int:
    match = re.search(r"· (\d+) questions", shown(message))
    assert match, "the header counts the questions"
    return int(match[1])


async def _launch(desk: Desk) -> tuple[str, dict[str, int]]:
    study = next(s for s in await desk.minds_api("GET", "/studies?limit=100") if s["name"] == "Launch positioning")
    return study["id"], {a["name"]: a["mindCount"] for a in study["audiences"]}


async def _next_revision(desk: Desk, plan: Message, revision: int) -> Message:
    marker = f"Revision {revision} ·"
    return await desk.wait(
        lambda: next(
            (m for m in desk.emu.state.messages(desk.research) if m.ts == plan.ts and marker in shown(m)), None
        )
    )


async def test_the_plan_says_who_answers_and_the_run_asks_exactly_the_chosen_audience(tmp_path: Path) -> None:
    async with open_desk(tmp_path) as desk:
        study_id, minds = await _launch(desk)
        sneakers, skincare = minds[SNEAKERS], minds[SKINCARE]
        since = await desk.type(desk.ada, REQUEST)
        plan = await desk.posted(since, lambda m: "Research plan" in m.text)

        # Row 1: revision 1 names both attached Audiences with the Mind counts Minds gave.
        first = shown(plan)
        assert (
            f"Who answers: {SNEAKERS} ({sneakers} Minds), {SKINCARE} ({skincare} Minds) — "
            f"{sneakers + skincare} Minds in total"
        ) in first
        assert WHO_ASKS in first and "Changed since" not in first

        # Ada answers "Which Audiences should answer this plan?" with the sneaker buyers.
        await desk.emu.click_button(
            user=desk.ada, action_id=_button(plan, SNEAKERS)["action_id"], channel=desk.research, ts=plan.ts
        )
        second = await _next_revision(desk, plan, 2)
        text = shown(second)
        assert f"Who answers: {SNEAKERS} ({sneakers} Minds) (chosen for this revision)" in text  # row 1
        assert SKINCARE not in text
        assert f"Answered by <@{desk.ada}>: {WHO_ASKS} — {SNEAKERS}" in text  # row 12
        assert "*Changed since revision 1:* No question changed." in text  # row 13

        # Row 13: Revise… adds a question; revision 3 says so and keeps the answer and the selection.
        await desk.emu.click_button(user=desk.ada, action_id="plan_revise", channel=desk.research, ts=plan.ts)
        modal = await desk.modal(desk.ada, "Minds will revise revision 2")
        await desk.emu.submit_view(user=desk.ada, view_id=modal.id, inputs={"refinement/value": ADDED})
        third = await _next_revision(desk, plan, 3)
        text = shown(third)
        count = _question_count(third)
        assert "*Changed since revision 2:*" in text and f"• Added Q{count}: {ADDED}" in text
        assert "Removed" not in text and "Reworded" not in text
        assert f"Answered by <@{desk.ada}>: {WHO_ASKS} — {SNEAKERS}" in text
        assert f"Who answers: {SNEAKERS} ({sneakers} Minds) (chosen for this revision)" in text

        # Row 2: the Approve dialog counts the chosen Audience, its Minds and questions × Minds responses.
        dialog = _button(third, "Approve & run")["confirm"]["text"]["text"]
        bound = "up to " if "asked if" in text else ""
        assert dialog == (
            f"Run {count} questions of revision 3 with 1 Audience ({SNEAKERS}): {sneakers} Minds, "
            f"{bound}{count * sneakers} responses ({count} questions × {sneakers} Minds). Responses count toward "
            "your Minds plan."
        )

        await desk.emu.click_button(user=desk.ada, action_id="plan_approve", channel=desk.research, ts=plan.ts)
        approved = await desk.wait(
            lambda: next(
                (
                    m
                    for m in desk.emu.state.messages(desk.research)
                    if m.ts == plan.ts and "Approved by" in m.text and not _plan_buttons(m)
                ),
                None,
            )
        )
        assert f"Answered by <@{desk.ada}>: {WHO_ASKS} — {SNEAKERS}" in shown(approved)  # row 12, after approval

        # ... and the run Minds made asked exactly those Minds.
        runs = await desk.minds_api("GET", f"/studies/{study_id}/runs?limit=10")
        run_id = runs[0]["id"]

        def completed() -> bool:
            replies = desk.emu.state.replies(desk.research, plan.ts)
            return any("completed" in (m.text + str(m.blocks)).lower() for m in replies)

        await desk.wait(completed)
        run = await desk.minds_api("GET", f"/studies/{study_id}/research-runs/{run_id}")
        first_answers = next(a["outputData"] for a in run["artifacts"] if a.get("outputData"))
        assert {g["audience"] for g in first_answers["audiences"]} == {SNEAKERS}
        assert first_answers["responseCoverage"]["expected"] == sneakers


async def test_a_studys_only_audience_answers_and_the_answered_question_stays_after_approval(tmp_path: Path) -> None:
    async with open_desk(tmp_path) as desk:
        study = next(s for s in await desk.minds_api("GET", "/studies?limit=100") if s["name"] == "Pricing pulse")
        [audience] = study["audiences"]
        since = await desk.type(desk.ben, 'plan "Pricing pulse" How do IT buyers judge a 140 EUR price for our dock?')
        plan = await desk.posted(since, lambda m: "Research plan" in m.text)
        first = shown(plan)
        assert f"Who answers: {audience['name']} ({audience['mindCount']} Minds)" in first  # the Study's Audience
        assert "chosen for this revision" not in first
        question = re.search(r"\*Minds asks:\* ([^\"]+?)\"", first)
        assert question, "Minds asks one confirmation question"

        await desk.emu.click_button(
            user=desk.ada, action_id=_button(plan, "Yes")["action_id"], channel=desk.research, ts=plan.ts
        )
        second = await _next_revision(desk, plan, 2)
        line = f"Answered by <@{desk.ada}>: {question[1]} — Yes"
        assert line in shown(second)
        await desk.emu.click_button(user=desk.ben, action_id="plan_approve", channel=desk.research, ts=plan.ts)
        approved = await desk.wait(
            lambda: next(
                (m for m in desk.emu.state.messages(desk.research) if m.ts == plan.ts and "Approved by" in m.text),
                None,
            )
        )
        assert line in shown(approved) and not _plan_buttons(approved)
