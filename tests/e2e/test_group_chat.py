"""A chat with several Minds at once and deleting a chat, typed in the demo workspace against the Minds sandbox:
each Mind answers every reply under its own name; Delete chat (behind a confirmation naming the chat) deletes it in
Minds, closes the thread, and only its starter, the channel's approvers or an admin may."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.e2e.desk import Desk, action_ids, open_desk, shown


@pytest.fixture
async def desk(tmp_path: Path) -> AsyncIterator[Desk]:
    async with open_desk(tmp_path) as running:
        yield running


async def two_minds(desk: Desk) -> list[dict]:
    return (await desk.minds_api("GET", "/minds?limit=2"))[:2]


async def test_a_chat_with_two_minds_answers_each_reply_once_per_mind_by_name(desk: Desk) -> None:
    first, second = await two_minds(desk)
    mark = desk.emu.mark()
    await desk.type(desk.ben, f"chat {first['id']}, {second['id']}")
    header = await desk.posted(mark, lambda m: "opened a chat with" in shown(m) and not m.is_reply)
    assert f"*{first['name']}* and *{second['name']}*" in shown(header)
    assert "each answers in turn, named" in shown(header) and "chat_delete" in action_ids(header.blocks)
    buttons = [e for b in header.blocks for e in b.get("elements", []) if isinstance(e, dict)]
    confirm = next(e["confirm"] for e in buttons if e.get("action_id") == "chat_delete")
    assert f"The chat with {first['name']} and {second['name']} and all its messages are deleted in Minds" in (
        confirm["text"]["text"]
    )

    asked = desk.emu.mark()
    question = "Would you buy sneakers made from ocean plastic?"
    await desk.emu.post_message(user=desk.chloe, channel=desk.research, text=question, thread_ts=header.ts)
    answers = []
    for _ in range(2):
        answers.append(
            await desk.posted(
                asked,
                lambda m, seen=tuple(a.ts for a in answers): "Synthetic answer" in shown(m) and m.ts not in seen,
                thread_ts=header.ts,
            )
        )
    named = [a.text.split(" (synthetic)")[0] for a in answers]
    assert named == [first["name"], second["name"]], "each answer under its own Mind's name, in speaking order"


async def test_deleting_a_chat_needs_its_starter_and_closes_the_thread(desk: Desk) -> None:
    first, second = await two_minds(desk)
    mark = desk.emu.mark()
    await desk.type(desk.ben, f"chat {first['id']}, {second['id']}")
    header = await desk.posted(mark, lambda m: "opened a chat with" in shown(m) and not m.is_reply)

    since = desk.emu.mark()
    await desk.emu.click_button(user=desk.chloe, action_id="chat_delete", channel=desk.research, ts=header.ts)
    refused = await desk.private(desk.chloe, since, "Only <@")
    assert "can do that with" in shown(refused)

    await desk.emu.click_button(user=desk.ben, action_id="chat_delete", channel=desk.research, ts=header.ts)
    deleted = await desk.posted(since, lambda m: "deleted this chat with" in m.text, thread_ts=header.ts)
    assert f"{first['name']} and {second['name']} in Minds; replies here are no longer sent." in deleted.text

    asked = desk.emu.mark()
    await desk.emu.post_message(user=desk.ben, channel=desk.research, text="Still there?", thread_ts=header.ts)
    closed = await desk.private(desk.ben, asked, "was deleted in Minds, so replies here are no longer sent.")
    assert "Synthetic answer" not in shown(closed)
