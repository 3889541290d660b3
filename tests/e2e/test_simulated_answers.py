"""Issue #25, "Answers from the question and the persona" and "Honest labelling", end to end through the real app
against the sandbox: two unrelated questions asked in one Study get different themes and quotes (each answering
its own question, an Audience outside the topic saying it is not its field), and every result the sandbox
produced — a standalone question's and a guided run's — says it was simulated locally, not answered by Minds."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from html import unescape
from pathlib import Path

import pytest

from minds_bot.sandbox.slack_api.state import Message
from tests.e2e.desk import Desk, action_ids, open_desk, shown

LAUNCH = "Launch positioning"
SWITCH = "What would make you switch running-shoe brand?"
LABEL = "Why would a third-party label make a carbon-neutral claim more credible to you, or not?"
SIMULATED = "Simulated locally by the minds-bot sandbox — not answers from Minds."
QUOTE = re.compile(r"> “(?P<said>[^”]+)”")
THEME = re.compile(r"^(?P<theme>[^*\n]+) \((?P<count>\d+) of (?P<n>\d+)\)$", re.MULTILINE)


@pytest.fixture
async def desk(tmp_path: Path) -> AsyncIterator[Desk]:
    async with open_desk(tmp_path) as running:
        yield running


async def asked(desk: Desk, question: str) -> str:
    """``/minds ask`` in the launch Study; what its result reads."""
    since = await desk.type(desk.ben, f'ask "{LAUNCH}" {question}')
    parent = await desk.posted(since, lambda m: "asked" in m.text and not m.is_reply)

    def result() -> Message | None:
        replies = desk.emu.state.replies(desk.research, parent.ts)
        return next((m for m in replies if "answers_show" in action_ids(m.blocks)), None)

    message = await desk.wait(result)
    sections = [b["text"]["text"] for b in message.blocks if isinstance(b.get("text"), dict)]
    contexts = [e["text"] for b in message.blocks if b["type"] == "context" for e in b["elements"]]
    return unescape("\n".join([message.text, *sections, *contexts]))


async def test_two_unrelated_questions_in_one_study_get_their_own_themes_and_quotes(desk: Desk) -> None:
    switch = await asked(desk, SWITCH)
    label = await asked(desk, LABEL)

    switch_quotes = {m["said"] for m in QUOTE.finditer(switch)}
    label_quotes = {m["said"] for m in QUOTE.finditer(label)}
    assert switch_quotes and label_quotes and switch_quotes.isdisjoint(label_quotes)
    switch_themes = {m["theme"] for m in THEME.finditer(switch)}
    label_themes = {m["theme"] for m in THEME.finditer(label)}
    assert switch_themes and label_themes and switch_themes.isdisjoint(label_themes), (switch, label)
    # Each answers its own question; the skincare Audience says shoes are not its field.
    assert "Not my field (16 of 16)" in switch
    assert "Honestly, I don't know much about shoes, so I have no strong view." in switch
    assert any(q.startswith(("Yes, it would.", "Somewhat.", "Not by itself.")) for q in label_quotes)
    assert "Not my field" not in label
    for text in (switch, label):
        assert text.count(SIMULATED) == 1


async def test_a_guided_run_result_says_it_was_simulated_locally(desk: Desk) -> None:
    plan = await desk.answered_plan(
        desk.ben, f'plan "{LAUNCH}" What would make Gen Z buyers switch running-shoe brand?'
    )
    await desk.emu.click_button(user=desk.ada, action_id="plan_approve", channel=desk.research, ts=plan.ts)

    def result() -> Message | None:
        return next(
            (m for m in desk.emu.state.replies(desk.research, plan.ts) if "Completed:" in shown(m) and m.blocks), None
        )

    message = await desk.wait(result)
    blocks = message.blocks
    assert "Completed:" in blocks[0]["text"]["text"]
    assert blocks[1]["type"] == "context" and blocks[1]["elements"][0]["text"] == SIMULATED
