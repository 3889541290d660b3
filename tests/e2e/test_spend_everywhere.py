"""Issue #33 rows 7–8 as #research lives them with the real bot, the emulator's signed requests and the sandbox:
the Audience card's Ask waits for an approver under an approval policy and is then asked once as its requester,
counting the Audience's Minds; a chat is refused, then its start and a reply each wait for an approver; an approved
research run is listed by `/minds activity` with its Study's name, who asked and who approved."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from slack_emulator.state import Message
from tests.e2e.desk import Desk, action_ids, open_desk, shown
from tests.e2e.test_spend_consent import runs_at_minds, set_policy

SNEAKERS = "Gen Z sneaker buyers in Germany"
QUESTION = "Which colour do you wear most?"
REFUSED_CHAT = (
    "This channel's spend policy refuses this: Chat with a Mind (`/minds chat`). See `/minds policy`. "
    "Workspace admins and this channel's approvers (`/minds approvers list`) can change it."
)


@pytest.fixture
async def desk(tmp_path: Path) -> AsyncIterator[Desk]:
    async with open_desk(tmp_path) as opened:
        yield opened


async def approve(desk: Desk, line: Message) -> None:
    await desk.emu.click_button(user=desk.ada, action_id="spend_hold_approve", channel=desk.research, ts=line.ts)


async def activity(desk: Desk) -> str:
    since = await desk.type(desk.chloe, "activity")
    return shown(await desk.private(desk.chloe, since, "Minds spending in this channel"))


async def test_the_audience_cards_ask_waits_for_an_approver_then_asks_once_counting_the_audiences_minds(
    desk: Desk,
) -> None:
    await set_policy(desk, desk.ada, "ask", "approve")
    studies, runs = await desk.study_names(), await runs_at_minds(desk)
    since = await desk.type(desk.ben, f'audience "{SNEAKERS}"')
    card = await desk.private(desk.ben, since, "Coverage of the standard dimensions")
    since = desk.emu.mark()
    await desk.emu.click_button(user=desk.ben, action_id="audience_ask", channel=desk.research, ts=card.ts)
    modal = await desk.modal(desk.ben, "Ask an Audience", SNEAKERS)
    await desk.emu.submit_view(user=desk.ben, view_id=modal.id, inputs={"value": QUESTION})
    line = await desk.posted(since, lambda m: "wants to" in m.text)
    minds = line.text.split("wants to ask ")[1].split(" Minds")[0]
    assert line.text == f"<@{desk.ben}> wants to ask {minds} Minds “{QUESTION}” — needs an approver" and int(minds)
    await desk.private(desk.ben, since, "waits for an approver of this channel")
    assert await desk.study_names() == studies and await runs_at_minds(desk) == runs, "held: nothing made or asked"

    await approve(desk, line)
    parent = await desk.posted(since, lambda m: "asked" in m.text and QUESTION in m.text and not m.is_reply)
    assert f"<@{desk.ben}>" in parent.text, "asked as the requester"
    await desk.private(desk.ben, since, "creates a new private Study in Minds")
    await desk.wait(
        lambda: any("answers_show" in action_ids(m.blocks) for m in desk.emu.state.replies(desk.research, parent.ts))
    )
    assert await runs_at_minds(desk) == runs + 1
    text = await activity(desk)
    assert (
        f"Ask a question (`/minds ask`): ask {minds} Minds “{QUESTION}” · Minds responses: {minds} · started at Minds"
        in text
    )
    assert f"*Totals:* 1 request sent to Minds, counting {minds} Minds responses" in text


async def test_a_refused_chat_starts_nothing_and_a_held_start_and_reply_each_wait_for_an_approver(desk: Desk) -> None:
    mind = (await desk.minds_api("GET", "/minds?limit=1"))[0]
    await set_policy(desk, desk.ada, "chat", "refuse")
    since = await desk.type(desk.ben, f"chat {mind['id']}")
    refused = await desk.private(desk.ben, since, "refuses")
    assert refused.text == REFUSED_CHAT
    assert not [m for m in desk.channel_since(since) if "opened a chat" in m.text]

    await set_policy(desk, desk.ada, "chat", "approve")
    since = await desk.type(desk.ben, f"chat {mind['id']}")
    start = await desk.posted(since, lambda m: "wants to" in m.text)
    assert start.text.startswith(f"<@{desk.ben}> wants to start a chat with ")
    await approve(desk, start)
    header = await desk.posted(since, lambda m: "opened a chat with" in shown(m) and not m.is_reply)

    asked = desk.emu.mark()
    words = "Would you buy sneakers made from ocean plastic?"
    await desk.emu.post_message(user=desk.chloe, channel=desk.research, text=words, thread_ts=header.ts)
    turn = await desk.posted(asked, lambda m: "wants to send" in m.text)
    assert turn.text == f"<@{desk.chloe}> wants to send “{words}” to a Mind in a chat thread — needs an approver"
    replies = desk.emu.state.replies(desk.research, header.ts)
    assert not [m for m in replies if "Synthetic answer" in shown(m)], "held: the Mind has not been asked"
    await approve(desk, turn)
    await desk.posted(asked, lambda m: "Synthetic answer" in shown(m), thread_ts=header.ts)

    text = await activity(desk)
    assert f"Chat with a Mind (`/minds chat`): start a chat with {mind['id']} · Minds responses: 0 · refused" in text
    assert f"start a chat with {mind['name']} · Minds responses: 0 · started at Minds (decided by <@" in text
    assert f"send “{words}” to a Mind in a chat thread · Minds responses: 1 · started at Minds (decided by <@" in text


async def test_an_approved_research_run_is_listed_with_its_study_who_asked_and_who_approved(desk: Desk) -> None:
    plan = await desk.answered_plan(desk.ben, 'plan "Launch positioning" Which tagline works best for Gen Z?')
    await desk.emu.click_button(user=desk.ada, action_id="plan_approve", channel=desk.research, ts=plan.ts)
    await desk.wait(
        lambda: next(
            (m for m in desk.emu.state.messages(desk.research) if m.ts == plan.ts and "Approved by" in shown(m)), None
        )
    )
    assert await runs_at_minds(desk) >= 1
    text = await activity(desk)
    assert (
        f"<@{desk.ben}> · Run approved research (a plan's *Approve & run*): run the approved research plan of "
        f"Launch positioning · Minds responses: not known · started at Minds (decided by <@{desk.ada}>)"
    ) in text
    assert "*Totals:* 1 request sent to Minds, counting 0 Minds responses · 1 with a count not known" in text
