"""Guided research end to end on one machine: a plan in #research, a confirmation answer, approval, progress in
the thread, honest results with charts, and the report attached — the real bot, the Slack emulator sending
signed requests, and the Minds sandbox running the study."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from minds_bot.demo import Demo, running_demo
from minds_sandbox import SandboxConfig
from slack_emulator import Emulator

FAST = SandboxConfig(seconds_per_step=0.05)
REQUEST = 'plan "Launch positioning" Test three taglines for our new running shoe with Gen Z buyers'
TAGLINES = "Run further. / Made to last. / Light on the planet."
FLOW_SECONDS = 60.0  # a bound, not a timing: the flow usually settles in a few seconds


@pytest.fixture
async def demo(tmp_path: Path) -> AsyncIterator[Demo]:
    async with running_demo(page_port=0, workdir=tmp_path, sandbox=FAST) as running:
        yield running


def person(emu: Emulator, name: str) -> str:
    return next(u.id for u in emu.config.users if u.name.lower().startswith(name))


def channel(emu: Emulator, name: str) -> str:
    return next(c.id for c in emu.config.channels if c.name == name)


def action_ids(blocks: list[dict]) -> list[str]:
    return [e.get("action_id", "") for b in blocks if b.get("type") == "actions" for e in b.get("elements", [])]


def text_of(blocks: list[dict]) -> str:
    return json.dumps(blocks, ensure_ascii=False)


async def test_plan_answer_approve_run_and_report(demo: Demo) -> None:
    emu = demo.emulator
    ada, ben, research = person(emu, "ada"), person(emu, "ben"), channel(emu, "research")

    since = emu.mark()
    await emu.send_slash_command(user=ben, channel=research, text=REQUEST)
    plan = await emu.wait_for_message(research, lambda m: "Research plan" in m.text, since=since, timeout=FLOW_SECONDS)
    assert "revision 1" in plan.text
    answers = [a for a in action_ids(plan.blocks) if a.startswith("plan_answer:")]
    assert answers, "the plan offers its confirmation questions as buttons"

    await emu.click_button(user=ben, action_id=answers[0], channel=research, ts=plan.ts)
    revised = await emu.wait_for(
        lambda: next((m for m in emu.state.messages(research) if m.ts == plan.ts and "revision 2" in m.text), None),
        timeout=FLOW_SECONDS,
    )
    # The brief names no taglines, so Minds asks Ben to describe them; what he types is what the Minds read.
    assert "How would you describe the three taglines for the new running shoe in a sentence or two?" in text_of(
        revised.blocks
    )
    await emu.click_button(user=ben, action_id="plan_answer_text:0", channel=research, ts=plan.ts)
    dialog = await emu.wait_for_modal(ben, lambda v: "Your answer" in json.dumps(v.payload), timeout=FLOW_SECONDS)
    await emu.submit_view(user=ben, view_id=dialog.id, inputs={"answer/value": TAGLINES})
    revised = await emu.wait_for(
        lambda: next((m for m in emu.state.messages(research) if m.ts == plan.ts and "revision 3" in m.text), None),
        timeout=FLOW_SECONDS,
    )
    assert (
        f'Q1. Please read this description of the three taglines for the new running shoe: \\"{TAGLINES}\\". '
        "In a sentence or two, what is your first reaction?"
    ) in text_of(revised.blocks)
    assert "plan_approve" in action_ids(revised.blocks)

    await emu.click_button(user=ada, action_id="plan_approve", channel=research, ts=plan.ts)

    def report_in_thread() -> list[str] | None:
        names = [emu.state.files[f].name for m in emu.state.replies(research, plan.ts) for f in m.files]
        return names if any(n.endswith(".md") for n in names) else None

    files = await emu.wait_for(report_in_thread, timeout=FLOW_SECONDS)
    assert any(n.endswith(".png") for n in files), "results come with charts"
    thread = emu.state.replies(research, plan.ts)
    everything = " ".join(m.text + text_of(m.blocks) for m in thread)
    assert "completed" in everything.lower()
    approved = next(m for m in emu.state.messages(research) if m.ts == plan.ts)
    assert "plan_approve" not in action_ids(approved.blocks), "approval removes the buttons"
    report = next(f for f in emu.state.files.values() if f.name.endswith(".md"))
    content = emu.file_content(report.id)
    assert content is not None and content.startswith(b"#")

    def announced() -> list[str] | None:
        said = [m.text for m in emu.state.replies(research, plan.ts) if "attached" in m.text or "report" in m.text]
        return said if any(report.name in t for t in said) else None

    said = await emu.wait_for(announced, timeout=FLOW_SECONDS)
    assert said == [
        f":paperclip: The full report (md) is attached: {report.name}\n"
        "Study report, all runs, generated after this run."
    ], "one announcement, saying what it covers, then the file"
    replies = emu.state.replies(research, plan.ts)
    where = [i for i, m in enumerate(replies) if report.id in m.files or m.text in said]
    assert len(where) == 2 and replies[where[0]].text in said, "the announcement comes before the file"


async def test_someone_else_cannot_approve(demo: Demo) -> None:
    emu = demo.emulator
    ben, chloe, research = person(emu, "ben"), person(emu, "chlo"), channel(emu, "research")
    since = emu.mark()
    await emu.send_slash_command(user=ben, channel=research, text=REQUEST)
    plan = await emu.wait_for_message(research, lambda m: "Research plan" in m.text, since=since, timeout=FLOW_SECONDS)
    revision = 1
    while "plan_approve" not in action_ids(plan.blocks):  # Ben answers who answers, then describes the taglines
        answer = next(a for a in action_ids(plan.blocks) if a.startswith(("plan_answer:", "plan_answer_text:")))
        await emu.click_button(user=ben, action_id=answer, channel=research, ts=plan.ts)
        if answer.startswith("plan_answer_text:"):
            dialog = await emu.wait_for_modal(
                ben, lambda v: "Your answer" in json.dumps(v.payload), timeout=FLOW_SECONDS
            )
            await emu.submit_view(user=ben, view_id=dialog.id, inputs={"answer/value": TAGLINES})
        revision += 1
        plan = await emu.wait_for(
            lambda r=revision, ts=plan.ts: next(
                (m for m in emu.state.messages(research) if m.ts == ts and f"revision {r}" in m.text), None
            ),
            timeout=FLOW_SECONDS,
        )
    since = emu.mark()
    await emu.click_button(user=chloe, action_id="plan_approve", channel=research, ts=plan.ts)
    refusal = await emu.wait_for_ephemeral(chloe, since=since, timeout=FLOW_SECONDS)
    assert "approve" in refusal.text.lower()
    assert emu.state.replies(research, plan.ts) == [] or all(
        "Running" not in m.text for m in emu.state.replies(research, plan.ts)
    )


async def test_one_question_gets_a_chart_and_quotes_in_the_thread(demo: Demo) -> None:
    emu = demo.emulator
    ben, research = person(emu, "ben"), channel(emu, "research")
    since = emu.mark()
    await emu.send_slash_command(
        user=ben,
        channel=research,
        text='ask "Launch positioning" Would you buy a running shoe made from recycled ocean plastic?',
    )
    parent = await emu.wait_for_message(research, lambda m: "asked" in m.text, since=since, timeout=FLOW_SECONDS)

    def result_in_thread() -> bool:
        replies = emu.state.replies(research, parent.ts)
        chart = any(emu.state.files[f].name.endswith(".png") for m in replies for f in m.files)
        settled = not any("Queued" in m.text or "Asking" in m.text for m in replies)  # progress line updated
        return chart and settled and "Show answers" in " ".join(text_of(m.blocks) for m in replies)

    await emu.wait_for(result_in_thread, timeout=FLOW_SECONDS)


async def test_a_questionnaire_is_not_asked_question_by_question(demo: Demo) -> None:
    emu = demo.emulator
    ben, research = person(emu, "ben"), channel(emu, "research")
    since = emu.mark()
    await emu.send_slash_command(
        user=ben, channel=research, text='ask "Launch positioning" Do you run weekly? Which brand do you wear?'
    )
    offer = await emu.wait_for_ephemeral(ben, since=since, timeout=FLOW_SECONDS)
    assert "study_plan" in text_of(offer.blocks)
    assert not [m for m in emu.state.messages(research) if "asked" in m.text]


async def test_an_admin_connects_minds_and_a_question_ends_with_a_reaction_not_a_broadcast(demo: Demo) -> None:
    emu = demo.emulator
    ada, ben, research = person(emu, "ada"), person(emu, "ben"), channel(emu, "research")
    key = demo.bot.bot.services.settings.minds_api_key
    assert key is not None
    await emu.send_slash_command(user=ada, channel=research, text="connect")
    await emu.wait_for(lambda: emu.state.modal_stack(ada), timeout=FLOW_SECONDS)
    since = emu.mark()
    await emu.submit_view(
        user=ada, inputs={"minds_key_input": key.get_secret_value(), "outcome_in_channel_input": ["outcome"]}
    )
    connected = await emu.wait_for_ephemeral(ada, since=since, timeout=FLOW_SECONDS)
    assert connected.text == "Minds is connected. Minds did not say the account's name or email. Try `/minds studies`."
    assert key.get_secret_value() not in connected.text

    await emu.send_slash_command(
        user=ben, channel=research, text='ask "Pricing pulse" Would you pay 12 dollars a month for this?'
    )
    asked = await emu.wait_for_message(research, lambda m: "asked" in m.text and not m.is_reply, timeout=FLOW_SECONDS)

    def reacted() -> bool:
        parent = next(m for m in emu.state.messages(research) if m.ts == asked.ts)
        return parent.reactions == {"white_check_mark": [emu.config.bot_user_id]}

    await emu.wait_for(reacted, timeout=FLOW_SECONDS)
    answers = [m for m in emu.state.replies(research, asked.ts) if "answers" in m.text]
    assert answers, "the answers are in the question's thread"
    assert not [m for m in emu.state.messages(research, include_replies=True) if m.broadcast]
