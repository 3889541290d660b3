"""Issue 25, "Revise applies the refinement to the questions", through the real bot against the Minds sandbox: the
README's pricing example revised with "add an open why question" gets that question, and the revision says it was
added; the issue's "Add an open question asking why, and ask which of three claims they prefer" adds both, Minds
asks the requester for the claims and her answer becomes the options ("Changed how Q6 is answered"); removing and
rewording read right in "Changed since revision N"; a refinement Minds cannot apply to the questions changes none
of them and the revision says so, instead of pasting it into the objective."""

from __future__ import annotations

import re
from pathlib import Path

from slack_emulator.state import Message
from tests.e2e.desk import Desk, open_desk, shown

README_EXAMPLE = (
    'plan "Launch positioning" How do Gen Z sneaker buyers in Germany feel about a 140 EUR price for our new '
    "running shoe?"
)
WHY = "Why would you, or would you not, buy the new running shoe at 140 EUR?"
FAIRER = "How fair is 140 EUR for the new running shoe?"


def _question_count(message: Message) -> int:
    match = re.search(r"· (\d+) questions", shown(message))
    assert match, "the header counts the questions"
    return int(match[1])


def _questions(message: Message) -> list[str]:
    """The numbered questions as the plan shows them, in order."""
    return re.findall(r"Q\d+\. ([^\n\"]+?)\\n\(", shown(message))


async def _revise(desk: Desk, plan: Message, *, revision: int, refinement: str) -> Message:
    await desk.emu.click_button(user=desk.ada, action_id="plan_revise", channel=desk.research, ts=plan.ts)
    modal = await desk.modal(desk.ada, f"Minds will revise revision {revision}")
    await desk.emu.submit_view(user=desk.ada, view_id=modal.id, inputs={"refinement/value": refinement})
    return await _next(desk, plan, revision=revision + 1)


async def _next(desk: Desk, plan: Message, *, revision: int) -> Message:
    marker = f"Revision {revision} ·"
    return await desk.wait(
        lambda: next(
            (m for m in desk.emu.state.messages(desk.research) if m.ts == plan.ts and marker in shown(m)), None
        )
    )


async def test_revise_adds_an_open_why_question_and_the_revision_says_so(tmp_path: Path) -> None:
    async with open_desk(tmp_path) as desk:
        since = await desk.type(desk.ada, README_EXAMPLE)
        plan = await desk.posted(since, lambda m: "Research plan" in m.text)
        before, count = _questions(plan), _question_count(plan)
        assert len(before) == count and WHY not in before

        second = await _revise(desk, plan, revision=1, refinement="add an open why question")
        text = shown(second)
        assert _question_count(second) == count + 1
        assert _questions(second) == [*before, WHY]  # the new question, every other one as it was
        assert f"Q{count + 1}. {WHY}\\n(Open answer)" in text
        assert f"*Changed since revision 1:*\\n• Added Q{count + 1}: {WHY}" in text
        assert "Removed" not in text and "Reworded" not in text and "Notes from Minds" not in text
        assert "add an open why question" not in text  # not pasted into the objective


async def test_the_issues_refinement_adds_both_questions_and_the_requesters_claims_become_the_options(
    tmp_path: Path,
) -> None:
    async with open_desk(tmp_path) as desk:
        since = await desk.type(desk.ada, README_EXAMPLE)
        plan = await desk.posted(since, lambda m: "Research plan" in m.text)
        before, count = _questions(plan), _question_count(plan)
        prefer = "Which of these claims do you prefer?"

        refinement = "Add an open question asking why, and ask which of three claims they prefer"
        second = await _revise(desk, plan, revision=1, refinement=refinement)
        text = shown(second)
        assert _questions(second) == [*before, WHY, prefer]
        assert f"Q{count + 2}. {prefer}\\n(One of: Claim 1 · Claim 2 · Claim 3)" in text
        assert f"*Changed since revision 1:*\\n• Added Q{count + 1}: {WHY}\\n• Added Q{count + 2}: {prefer}" in text
        asks = (
            f"Which 3 claims should respondents choose between in Q{count + 2}? "
            "List them separated by semicolons or on separate lines."
        )
        assert f"*Minds asks:* {asks}" in text

        # Ada answers Minds' question with the three claims; they become the question's options.
        await desk.emu.click_button(
            user=desk.ada, action_id=_answer_button(second, asks), channel=desk.research, ts=plan.ts
        )
        modal = await desk.modal(desk.ada, "Which 3 claims")
        claims = "Lightest in its class; Made in Germany; Runs 1,000 km"
        await desk.emu.submit_view(user=desk.ada, view_id=modal.id, inputs={"answer/value": claims})
        third = await _next(desk, plan, revision=3)
        text = shown(third)
        options = "One of: Lightest in its class · Made in Germany · Runs 1,000 km · No preference"
        assert f"Q{count + 2}. {prefer}\\n({options})" in text
        assert (
            f"*Changed since revision 2:*\\n• Changed how Q{count + 2} is answered: One of: Claim 1 · Claim 2 · "
            f"Claim 3 → {options}"
        ) in text
        assert f"Answered by <@{desk.ada}>: {asks} — {claims}" in text


def _answer_button(message: Message, question: str) -> str:
    """The action id of the "Answer…" button under Minds' confirmation question ``question``."""
    blocks = message.blocks
    index = next(i for i, b in enumerate(blocks) if question in (b.get("text") or {}).get("text", ""))
    return blocks[index + 1]["elements"][0]["action_id"]


async def test_removed_and_reworded_questions_read_right_and_an_unusable_refinement_is_named(tmp_path: Path) -> None:
    async with open_desk(tmp_path) as desk:
        since = await desk.type(desk.ada, README_EXAMPLE)
        plan = await desk.posted(since, lambda m: "Research plan" in m.text)
        before, count = _questions(plan), _question_count(plan)

        second = await _revise(desk, plan, revision=1, refinement=f"Remove question 1 and reword Q2 to: {FAIRER}")
        text = shown(second)
        assert _questions(second) == [FAIRER, *before[2:]]
        assert _question_count(second) == count - 1
        assert f"*Changed since revision 1:*\\n• Removed Q1: {before[0]}\\n" in text
        assert f"• Reworded Q1 (was Q2): “{before[1]}” → “{FAIRER}”" in text
        assert "Added" not in text

        third = await _revise(desk, plan, revision=2, refinement="Make it more fun")
        text = shown(third)
        assert _questions(third) == _questions(second)
        assert "*Changed since revision 2:* No question changed." in text
        assert (
            ":information_source: *Notes from Minds on this revision*\\n"
            '• Not applied to the questions: \\"Make it more fun\\". The sandbox planner applies instructions that '
            "add, remove or reword a question or keep a number of questions; this one changed nothing."
        ) in text
        assert "(Make it more fun)" not in text  # the objective is not rewritten
