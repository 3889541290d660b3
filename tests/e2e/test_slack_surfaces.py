"""Slack-native surfaces in the local demo: the message shortcut "Ask Minds about this" and link unfurls. The
real bot in HTTP mode, the Slack emulator's signed requests, the Minds sandbox behind it."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from minds_bot.flows.unfurls import minds_links
from minds_bot.render.home import HOME_PLAN_ACTION
from slack_emulator.state import Message
from tests.e2e.desk import Desk, action_ids, open_desk, shown

SHORTCUT = "minds_ask_about_message"
LAUNCH = "Launch positioning"


@pytest.fixture
async def desk(tmp_path: Path) -> AsyncIterator[Desk]:
    async with open_desk(tmp_path) as running:
        yield running


async def pick_launch(desk: Desk, view_id: str) -> dict[str, object]:
    options = await desk.emu.request_options(user=desk.ben, action_id="study_options", value="launch", view_id=view_id)
    return next(o for o in options if o["text"]["text"] == LAUNCH)


async def test_a_message_with_one_question_is_asked_and_answered_in_its_thread(desk: Desk) -> None:
    await desk.faults(run_speed=50)
    said = await desk.emu.post_message(
        user=desk.ada, channel=desk.research, text="Would people pay more for a shoe made from recycled plastic?"
    )
    since = desk.emu.mark()
    delivery = await desk.emu.message_shortcut(user=desk.ben, callback_id=SHORTCUT, channel=desk.research, ts=said.ts)
    assert delivery.ok
    modal = await desk.modal(desk.ben, "Ask Minds about this", "goes to the Study's Minds as one question")
    assert "Would people pay more for a shoe made from recycled plastic?" in shown(modal)
    await desk.emu.submit_view(
        user=desk.ben, view_id=modal.id, inputs={"study_options": await pick_launch(desk, modal.id)}
    )

    def answered() -> Message | None:
        replies = desk.emu.state.replies(desk.research, said.ts)
        return next((m for m in replies if "answers_show" in action_ids(m.blocks)), None)

    await desk.wait(answered)
    replies = desk.emu.state.replies(desk.research, said.ts)
    assert any("asked" in m.text and "recycled plastic" in m.text for m in replies), "the thread says who asked what"
    assert not [m for m in desk.channel_since(since) if not m.is_reply], "nothing new at the top of the channel"


async def test_a_message_with_several_questions_becomes_a_plan_to_review(desk: Desk) -> None:
    said = await desk.emu.post_message(
        user=desk.ada,
        channel=desk.research,
        text="Which colour sells best? And what price feels fair for the recycled shoe?",
    )
    since = desk.emu.mark()
    await desk.emu.message_shortcut(user=desk.ben, callback_id=SHORTCUT, channel=desk.research, ts=said.ts)
    modal = await desk.modal(desk.ben, "holds several questions", "Draft a plan")
    await desk.emu.submit_view(
        user=desk.ben, view_id=modal.id, inputs={"study_options": await pick_launch(desk, modal.id)}
    )
    plan = await desk.posted(since, lambda m: "Research plan" in m.text)
    assert LAUNCH in shown(plan)


async def test_a_question_too_long_for_the_dialog_is_said_not_cut_silently(desk: Desk) -> None:
    words = "How would a runner who cares about the planet judge this shoe " * 40
    said = await desk.emu.post_message(user=desk.ada, channel=desk.research, text=words.strip() + "?")
    await desk.emu.message_shortcut(user=desk.ben, callback_id=SHORTCUT, channel=desk.research, ts=said.ts)
    modal = await desk.modal(desk.ben, "characters; a question takes at most 2,000")
    [question] = [
        e["element"]
        for e in modal.payload["blocks"]
        if e.get("type") == "input" and e["element"].get("action_id") == "about_text_input"
    ]
    assert 0 < len(question["initial_value"]) <= 2000


async def test_a_study_link_unfurls_into_a_card_and_a_link_minds_cannot_read_unfurls_nothing(desk: Desk) -> None:
    launch = next(s for s in await desk.minds_api("GET", "/studies?limit=20") if s["name"] == LAUNCH)
    known = f"https://getminds.ai/studies/{launch['id']}"
    unknown = "https://getminds.ai/studies/00000000-0000-4000-8000-000000000000"
    said = await desk.emu.post_message(user=desk.ada, channel=desk.research, text=f"See {known} and <{unknown}>")

    def unfurled() -> Message | None:
        message = next(m for m in desk.emu.state.messages(desk.research) if m.ts == said.ts)
        return message if message.unfurls else None

    message = await desk.wait(unfurled)
    assert list(message.unfurls) == [known], "the link Minds does not know is not unfurled"
    card = json.dumps(message.unfurls[known])
    assert LAUNCH in card and "Minds Study" in card and "latest run: *completed*" in card
    assert "Audiences:" in card


def test_only_study_and_audience_links_on_the_minds_host_are_unfurled() -> None:
    study = "https://getminds.ai/studies/2a517c04-0a7c-5083-8392-0acbc1f63280"
    audience = "https://app.getminds.ai/team/audiences/97E03AC3-10A9-5557-86C8-899B76446A4D/members"
    links = minds_links(
        [
            study,
            audience,
            study,  # twice: once
            "https://getminds.ai.evil.example/studies/2a517c04-0a7c-5083-8392-0acbc1f63280",
            "https://getminds.ai/docs/api/studies",
            "javascript:alert(1)//getminds.ai/studies/2a517c04-0a7c-5083-8392-0acbc1f63280",
            None,
            "https://getminds.ai/studies/" + "a" * 5000,
        ],
        host="getminds.ai",
    )
    assert [(link.kind, link.id) for link in links] == [
        ("study", "2a517c04-0a7c-5083-8392-0acbc1f63280"),
        ("audience", "97e03ac3-10a9-5557-86c8-899b76446a4d"),
    ]


async def test_the_home_plans_research_on_a_recent_study_in_a_chosen_channel(desk: Desk) -> None:
    """Ben planned research on a Study; his Home lists it with Plan research, which opens the plan dialog with
    that Study and a channel to post in; the plan arrives in the chosen channel."""
    since = await desk.type(desk.ben, 'plan "Launch positioning" Which of three taglines lands with Gen Z?')
    await desk.posted(since, lambda m: "Research plan" in m.text)
    since = await desk.type(desk.ada, 'digest add weekly monday 09:00 Europe/Berlin "Launch positioning"')
    await desk.private(desk.ada, since, "added")

    await desk.emu.open_home(user=desk.ben)
    home = await desk.wait(
        lambda: (h := desk.emu.state.home(desk.ben)) is not None and "Launch positioning" in shown(h) and h or None
    )
    study_block = next(
        b
        for b in home.payload["blocks"]
        if (b.get("accessory") or {}).get("action_id") == HOME_PLAN_ACTION and b["accessory"]["value"]
    )
    assert "Launch positioning" in study_block["text"]["text"]
    assert "Waiting for your approval" in shown(home) and "Launch positioning" in shown(home)
    assert "every Monday at 09:00 (Europe/Berlin)" in shown(home), "Ada's digest in #research, where Ben is too"
    assert "could not be read" not in shown(home)

    delivery = await desk.emu.click_button(
        user=desk.ben, action_id=HOME_PLAN_ACTION, block_id=study_block["block_id"], view_id=home.id
    )
    assert delivery.ok, delivery.error
    await desk.modal(desk.ben, "Post the plan in", "Launch positioning")
    since = desk.emu.mark()
    inputs = {"channel/value": desk.research, "request/value": "How do runners react to a 20 EUR premium?"}
    delivery = await desk.emu.submit_view(user=desk.ben, inputs=inputs)
    assert delivery.ok, delivery.error
    plan = await desk.posted(since, lambda m: "Research plan" in m.text and not m.is_reply)
    assert "Launch positioning" in shown(plan)
