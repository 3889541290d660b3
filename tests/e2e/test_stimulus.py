"""Test what was shared in Slack (issue 27, part 3): an image posted in a channel becomes the stimulus of a
question. The real bot in HTTP mode, the Slack emulator's signed requests, the Minds sandbox behind it — which
fetches the attachment from the bot as Minds would and records what arrived."""

from __future__ import annotations

import hashlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from slack_emulator.state import Message
from tests.e2e.desk import WAIT, Desk, action_ids, open_desk, shown

SHORTCUT = "minds_ask_about_message"
LAUNCH = "Launch positioning"
JPEG = b"\xff\xd8\xff\xe0" + b"jpeg" * 100
PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 959 + b"IEND"  # 245,516 bytes: "240 KB"


@pytest.fixture
async def desk(tmp_path: Path) -> AsyncIterator[Desk]:
    async with open_desk(tmp_path) as running:
        yield running


async def pick_launch(desk: Desk, view_id: str) -> dict[str, object]:
    options = await desk.emu.request_options(user=desk.ben, action_id="study_options", value="launch", view_id=view_id)
    return next(o for o in options if o["text"]["text"] == LAUNCH)


async def received(desk: Desk) -> list[dict[str, Any]]:
    origin = desk.demo.minds_url.split("/api/")[0]
    async with httpx.AsyncClient(base_url=origin, timeout=WAIT) as http:
        reply = await http.get("/_sandbox/attachments")
    reply.raise_for_status()
    return reply.json()["data"]


async def test_an_image_message_becomes_a_question_with_that_image_as_its_attachment(desk: Desk) -> None:
    await desk.faults(run_speed=50)
    shared = desk.emu.share_file(
        user=desk.ada, channel=desk.research, name="shoe <v2>.png", content=PNG, text="Would you buy this shoe?"
    )
    await desk.emu.message_shortcut(user=desk.ben, callback_id=SHORTCUT, channel=desk.research, ts=shared.ts)
    modal = await desk.modal(desk.ben, "Ask Minds about this", "Stimulus: *shoe &lt;v2&gt;.png* (image, 240 KB)")
    assert "Would you buy this shoe?" in shown(modal)
    await desk.emu.submit_view(
        user=desk.ben, view_id=modal.id, inputs={"study_options": await pick_launch(desk, modal.id)}
    )

    def answered() -> Message | None:
        replies = desk.emu.state.replies(desk.research, shared.ts)
        return next((m for m in replies if "answers_show" in action_ids(m.blocks)), None)

    await desk.wait(answered)
    [attachment] = await received(desk)
    assert attachment["question"] == "Would you buy this shoe?"
    assert (attachment["name"], attachment["type"]) == ("shoe <v2>.png", "image/png")
    assert (attachment["size"], attachment["sha256"]) == (len(PNG), hashlib.sha256(PNG).hexdigest())
    async with httpx.AsyncClient(timeout=WAIT) as http:
        served = await http.get(attachment["url"])
    assert served.status_code == 404, "Minds fetched it when it accepted the question: the address is gone"
    assert served.text == "No such file (a stimulus is kept only until Minds has fetched it)."


async def test_an_image_without_words_opens_the_dialog_for_the_question_to_write(desk: Desk) -> None:
    await desk.faults(run_speed=50)
    shared = desk.emu.share_file(user=desk.ada, channel=desk.research, name="shoe.jpg", content=JPEG)
    await desk.emu.message_shortcut(user=desk.ben, callback_id=SHORTCUT, channel=desk.research, ts=shared.ts)
    modal = await desk.modal(desk.ben, "Stimulus: *shoe.jpg* (image, 1 KB)")
    await desk.emu.submit_view(
        user=desk.ben,
        view_id=modal.id,
        inputs={"study_options": await pick_launch(desk, modal.id), "about_text_input": "Would you wear this shoe?"},
    )

    def answered() -> Message | None:
        replies = desk.emu.state.replies(desk.research, shared.ts)
        return next((m for m in replies if "answers_show" in action_ids(m.blocks)), None)

    await desk.wait(answered)
    [attachment] = await received(desk)
    assert (attachment["question"], attachment["type"]) == ("Would you wear this shoe?", "image/jpeg")
    assert attachment["sha256"] == hashlib.sha256(JPEG).hexdigest()


async def test_a_file_that_is_not_an_image_or_pdf_is_said_in_the_dialog_and_the_question_goes_without_it(
    desk: Desk,
) -> None:
    await desk.faults(run_speed=50)
    shared = desk.emu.share_file(
        user=desk.ada, channel=desk.research, name="shoe.tiff", content=b"II*\x00tiff", text="Would you buy it?"
    )
    await desk.emu.message_shortcut(user=desk.ben, callback_id=SHORTCUT, channel=desk.research, ts=shared.ts)
    modal = await desk.modal(
        desk.ben, "*shoe.tiff* is not a PNG, JPEG, GIF or WebP image or a PDF, so it cannot be a stimulus."
    )
    assert "Stimulus:" not in shown(modal)
    await desk.emu.submit_view(
        user=desk.ben, view_id=modal.id, inputs={"study_options": await pick_launch(desk, modal.id)}
    )

    def answered() -> Message | None:
        replies = desk.emu.state.replies(desk.research, shared.ts)
        return next((m for m in replies if "answers_show" in action_ids(m.blocks)), None)

    await desk.wait(answered)
    assert await received(desk) == []


async def test_a_file_whose_bytes_are_not_its_type_is_not_sent_and_the_question_is_kept(desk: Desk) -> None:
    shared = desk.emu.share_file(
        user=desk.ada, channel=desk.research, name="shoe.png", content=b"<html>not a png</html>", text="Nice?"
    )
    await desk.emu.message_shortcut(user=desk.ben, callback_id=SHORTCUT, channel=desk.research, ts=shared.ts)
    modal = await desk.modal(desk.ben, "Stimulus: *shoe.png* (image, 1 KB)")
    since = desk.emu.mark()
    await desk.emu.submit_view(
        user=desk.ben,
        view_id=modal.id,
        inputs={"study_options": await pick_launch(desk, modal.id), "about_text_input": "Would you buy this shoe?"},
    )
    await desk.private(
        desk.ben,
        since,
        "*shoe.png* is not the kind of file its name says, so it was not sent.",
        "Your question was not sent: “Would you buy this shoe?”",
    )
    assert await received(desk) == []
    assert not desk.emu.state.replies(desk.research, shared.ts), "nothing was asked"


async def test_an_ask_the_channels_policy_refuses_downloads_nothing(desk: Desk) -> None:
    since = await desk.type(desk.ada, "policy")
    policy = await desk.private(desk.ada, since, "Spend policy in this channel")
    await desk.emu.select_option(
        user=desk.ada, action_id="spend_policy_set:ask", value="refuse", channel=desk.research, ts=policy.ts
    )
    await desk.posted(since, lambda m: "set the spend policy here" in m.text)
    shared = desk.emu.share_file(user=desk.ada, channel=desk.research, name="shoe.png", content=PNG, text="Nice?")
    await desk.emu.message_shortcut(user=desk.ben, callback_id=SHORTCUT, channel=desk.research, ts=shared.ts)
    modal = await desk.modal(desk.ben, "Stimulus: *shoe.png*")
    since = desk.emu.mark()
    await desk.emu.submit_view(
        user=desk.ben,
        view_id=modal.id,
        inputs={"study_options": await pick_launch(desk, modal.id), "about_text_input": "Would you buy this shoe?"},
    )
    await desk.private(desk.ben, since, "This channel's spend policy refuses this: Ask a question")
    assert not [m for m, _ in desk.emu.web_api.calls if m == "files.info"], "the file was not even looked up"
    assert len(desk.demo.bot.bot.services.stimuli) == 0 and await received(desk) == []
    assert not desk.emu.state.replies(desk.research, shared.ts), "nothing was asked"


# --- the plan dialog's concept to test ---------------------------------------------------------------------


async def open_plan_dialog(desk: Desk) -> Any:
    await desk.type(desk.ben, f'plan "{LAUNCH}"')
    return await desk.modal(desk.ben, "Plan research", "Concept to test (optional)")


async def test_a_plan_with_a_message_link_tests_that_image_and_shows_it_beside_the_questions(desk: Desk) -> None:
    shared = desk.emu.share_file(
        user=desk.ada, channel=desk.research, name="shoe_concept.png", content=PNG, text="The new shoe"
    )
    link = desk.emu.workspace.permalink(shared)
    modal = await open_plan_dialog(desk)
    since = desk.emu.mark()
    await desk.emu.submit_view(
        user=desk.ben,
        view_id=modal.id,
        inputs={
            "request/value": "Would people buy this recycled running shoe, and what price feels fair for it?",
            "stimulus/value": link,
        },
    )
    plan = await desk.posted(since, lambda m: "Research plan" in m.text and "Stimulus:" in shown(m))
    questions = [b["text"]["text"] for b in plan.blocks if b["type"] == "section" and b["text"]["text"].startswith("Q")]
    assert questions and all(q.endswith(")\nStimulus: shoe_concept.png") for q in questions), questions
    [attachment] = await received(desk)
    assert (attachment["name"], attachment["type"]) == ("shoe_concept.png", "image/png")
    assert attachment["sha256"] == hashlib.sha256(PNG).hexdigest()


async def test_a_link_to_a_message_without_a_file_is_said_beside_the_link_and_the_dialog_keeps_its_words(
    desk: Desk,
) -> None:
    said = await desk.emu.post_message(user=desk.ada, channel=desk.research, text="just words")
    modal = await open_plan_dialog(desk)
    await desk.emu.submit_view(
        user=desk.ben,
        view_id=modal.id,
        inputs={"request/value": "What do runners think of it?", "stimulus/value": desk.emu.workspace.permalink(said)},
    )
    kept = await desk.wait(
        lambda: next((v for v in desk.emu.state.views.values() if v.id == modal.id and v.errors), None)
    )
    assert kept.errors == {"stimulus": "That message has no file to test."}
    assert await received(desk) == []


async def test_a_link_to_another_workspace_is_refused_beside_it_and_nothing_is_read(desk: Desk) -> None:
    shared = desk.emu.share_file(user=desk.ada, channel=desk.research, name="ad.png", content=PNG, text="The ad")
    elsewhere = "https://globex.slack.com/archives/" + desk.emu.workspace.permalink(shared).split("/archives/")[1]
    modal = await open_plan_dialog(desk)
    await desk.emu.submit_view(
        user=desk.ben, view_id=modal.id, inputs={"request/value": "Does this ad work?", "stimulus/value": elsewhere}
    )
    kept = await desk.wait(
        lambda: next((v for v in desk.emu.state.views.values() if v.id == modal.id and v.errors), None)
    )
    assert kept.errors == {
        "stimulus": "That link is to another Slack workspace. Paste the link of a message in this workspace; "
        "nothing was downloaded."
    }
    assert not [m for m, _ in desk.emu.web_api.calls if m in ("conversations.replies", "files.info")]
    assert await received(desk) == []


async def test_a_link_into_a_channel_the_bot_is_not_in_asks_to_invite_it(desk: Desk) -> None:
    brand = desk.emu.state.resolve_channel("brand")
    assert brand is not None
    brand.bot_is_member = False
    shared = desk.emu.share_file(user=desk.ada, channel=brand.id, name="ad.png", content=PNG, text="The ad")
    modal = await open_plan_dialog(desk)
    await desk.emu.submit_view(
        user=desk.ben,
        view_id=modal.id,
        inputs={"request/value": "Does this ad work?", "stimulus/value": desk.emu.workspace.permalink(shared)},
    )
    kept = await desk.wait(
        lambda: next((v for v in desk.emu.state.views.values() if v.id == modal.id and v.errors), None)
    )
    assert kept.errors == {"stimulus": "The bot cannot read that message: invite it to the channel first."}


async def test_when_minds_cannot_fetch_the_stimulus_the_thread_says_so_and_nothing_is_asked(desk: Desk) -> None:
    shelf = desk.demo.bot.bot.services.stimuli
    shelf.base_url = desk.demo.bot_url + "/elsewhere"  # an address where the bot serves nothing
    shared = desk.emu.share_file(
        user=desk.ada, channel=desk.research, name="shoe.png", content=PNG, text="Would you buy this shoe?"
    )
    await desk.emu.message_shortcut(user=desk.ben, callback_id=SHORTCUT, channel=desk.research, ts=shared.ts)
    modal = await desk.modal(desk.ben, "Stimulus: *shoe.png*")
    await desk.emu.submit_view(
        user=desk.ben, view_id=modal.id, inputs={"study_options": await pick_launch(desk, modal.id)}
    )

    def refused() -> Message | None:
        replies = desk.emu.state.replies(desk.research, shared.ts)
        return next((m for m in replies if "Could not fetch file URL (HTTP 404)" in shown(m)), None)

    said = await desk.wait(refused)
    assert said.text == "Minds rejected the request: Could not fetch file URL (HTTP 404)"
    assert await received(desk) == []
    assert not [r for r in desk.emu.state.replies(desk.research, shared.ts) if "answers_show" in action_ids(r.blocks)]
