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

from minds_sandbox import voices
from slack_emulator.state import Message
from tests.e2e.desk import Desk, action_ids, open_desk, shown

LAUNCH = "Launch positioning"
SWITCH = "What would make you switch running-shoe brand?"
LABEL = "Why would a third-party label make a carbon-neutral claim more credible to you, or not?"
SIMULATED = "Simulated locally by the minds-bot sandbox — not answers from Minds."
QUOTE = re.compile(r"> “(?P<said>[^”]+)”")
THEME = re.compile(r"(?:^|(?<= · ))(?P<theme>[^*\n·]+?) \((?P<count>\d+) of (?P<n>\d+)\)(?= · |$)", re.MULTILINE)
NAMED = re.compile(r"^\*(?P<audience>[^*]+)\* \((?P<n>\d+) answers\)\n(?P<themes>.+)$", re.MULTILINE)
QUOTED = re.compile(r"> “(?P<said>[^”]+)”\n— (?P<persona>[^,\n]+), (?P<audience>.+)$", re.MULTILINE)


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


async def test_the_quotes_of_an_open_result_illustrate_the_themes_its_audiences_name(desk: Desk) -> None:
    switch = await asked(desk, SWITCH)

    named: dict[str, dict[str, int]] = {}
    for line in NAMED.finditer(switch):
        themes = {m["theme"]: int(m["count"]) for m in THEME.finditer(line["themes"])}
        assert sum(themes.values()) == int(line["n"]), line.group(0)  # every answer carries one named theme
        assert list(themes.values()) == sorted(themes.values(), reverse=True)
        named[line["audience"]] = themes
    assert named["Korean skincare enthusiasts"] == {"Not my field": 16}
    assert len(named["Gen Z sneaker buyers in Germany"]) >= 2

    # which theme a quoted answer carries, by the sentence that carries it
    sentences = {sentence.split(":")[0]: theme for theme, sentence in voices._REASONS["switch"].values()}
    sentences["I don't know much about shoes"] = "Not my field"
    quotes = list(QUOTED.finditer(switch))
    assert len(quotes) == 3
    carried = []
    for quote in quotes:
        theme = next(t for said, t in sentences.items() if said in quote["said"])
        assert theme in named[quote["audience"]], (quote.group(0), named)
        carried.append((quote["audience"], theme))
    gen_z = [t for a, t in carried if a == "Gen Z sneaker buyers in Germany"]
    assert gen_z == list(named["Gen Z sneaker buyers in Germany"])[:2], "the two leading themes, one quote each"
