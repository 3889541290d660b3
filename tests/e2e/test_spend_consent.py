"""Spend with consent, as #research lives it with the real bot, the emulator's signed requests and the sandbox: a
channel whose policy wants an approver holds `/minds ask` until one clicks, then asks exactly once (also when two
approvers click at once) and `/minds activity` lists it with a CSV; a refused action says who can change that;
people who are not approvers neither set the policy nor approve; and the default keeps `/minds ask` immediate
while `share on` waits for an approver."""

from __future__ import annotations

import asyncio
import csv
import io
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from slack_emulator.state import Ephemeral, Message
from tests.e2e.desk import Desk, action_ids, open_desk, shown

LAUNCH = "Launch positioning"
QUESTION = "Would you pay 20 euros more for a shoe made from recycled ocean plastic?"


@pytest.fixture
async def desk(tmp_path: Path) -> AsyncIterator[Desk]:
    async with open_desk(tmp_path) as opened:
        yield opened


async def runs_at_minds(desk: Desk) -> int:
    """How many runs the sandbox holds: what Minds was actually asked to start."""
    origin = desk.demo.minds_url.split("/api/")[0]
    async with httpx.AsyncClient(base_url=origin, timeout=30) as http:
        reply = await http.get("/_sandbox/status")
    return int(reply.json()["counts"]["runs"])


async def set_policy(desk: Desk, user: str, action: str, mode: str) -> Ephemeral:
    """``/minds policy`` and one choice in its select, as ``user``; returns the policy message chosen in."""
    since = await desk.type(user, "policy")
    policy = await desk.private(user, since, "Spend policy in this channel")
    await desk.emu.select_option(
        user=user, action_id=f"spend_policy_set:{action}", value=mode, channel=desk.research, ts=policy.ts
    )
    await desk.posted(since, lambda m: "set the spend policy here" in m.text)
    return policy


def buttons(item: Message | Ephemeral) -> list[str]:
    return [a for a in action_ids(item.blocks) if a]


def hold_line(desk: Desk, since: str) -> Message | None:
    return next((m for m in desk.channel_since(since) if "wants to" in m.text), None)


def asked_parents(desk: Desk, since: str) -> list[Message]:
    return [m for m in desk.channel_since(since) if "asked" in m.text and QUESTION in m.text and not m.is_reply]


async def test_an_approval_policy_holds_ask_until_an_approver_clicks_then_it_runs_once_and_activity_lists_it(
    desk: Desk,
) -> None:
    start = desk.emu.mark()
    await set_policy(desk, desk.ada, "ask", "approve")
    changed = await desk.posted(start, lambda m: "set the spend policy here" in m.text)
    assert changed.text.startswith(f"<@{desk.ada}> set the spend policy here: ")
    assert "Ask a question (`/minds ask`) — needs an approver" in shown(changed)
    since = await desk.type(desk.ada, f"approvers add <@{desk.chloe}>")
    await desk.private(desk.ada, since, "can now approve")
    before = await runs_at_minds(desk)

    since = await desk.type(desk.ben, f'ask "{LAUNCH}" {QUESTION}')
    note = await desk.private(desk.ben, since, "waits for an approver of this channel")
    line = await desk.posted(since, lambda m: "wants to" in m.text)
    minds = line.text.split("wants to ask ")[1].split(" Minds")[0]
    assert line.text == f"<@{desk.ben}> wants to ask {minds} Minds “{QUESTION}” — needs an approver"
    assert int(minds) > 0 and f"ask {minds} Minds" in shown(note)
    assert buttons(line) == ["spend_hold_approve", "spend_hold_decline"]
    assert not asked_parents(desk, since) and await runs_at_minds(desk) == before, "held: nothing asked yet"

    # Ben is no approver: his click changes nothing.
    await desk.emu.click_button(user=desk.ben, action_id="spend_hold_approve", channel=desk.research, ts=line.ts)
    await desk.private(desk.ben, since, "Only this channel's approvers")
    assert not asked_parents(desk, since) and await runs_at_minds(desk) == before

    # Two approvers click at once, and Slack delivers one click twice: the question is asked exactly once.
    await asyncio.gather(
        desk.emu.click_button(user=desk.ada, action_id="spend_hold_approve", channel=desk.research, ts=line.ts),
        desk.emu.click_button(user=desk.chloe, action_id="spend_hold_approve", channel=desk.research, ts=line.ts),
        desk.emu.click_button(user=desk.ada, action_id="spend_hold_approve", channel=desk.research, ts=line.ts),
    )
    parent = await desk.posted(since, lambda m: "asked" in m.text and QUESTION in m.text and not m.is_reply)
    assert f"<@{desk.ben}>" in parent.text, "asked as the requester, with his words"

    def decided() -> Message | None:
        return next(
            (m for m in desk.emu.state.messages(desk.research) if m.ts == line.ts and "approved by" in m.text), None
        )

    approved = await desk.wait(decided)
    assert approved.text.startswith(f"<@{desk.ben}> wanted to ask {minds} Minds “{QUESTION}” — approved by <@")
    assert approved.blocks and not buttons(approved), "no buttons once decided"
    await desk.wait(
        lambda: any("answers_show" in action_ids(m.blocks) for m in desk.emu.state.replies(desk.research, parent.ts))
    )
    assert len(asked_parents(desk, since)) == 1 and await runs_at_minds(desk) == before + 1

    since = await desk.type(desk.ben, "activity")
    activity = await desk.private(desk.ben, since, "Minds spending in this channel, last 7 days")
    text = shown(activity)
    assert (
        f"Ask a question (`/minds ask`): ask {minds} Minds “{QUESTION}” · Minds responses: {minds} · started at Minds"
        in text
    )
    assert "decided by <@" in text
    assert f"*Totals:* 1 request sent to Minds, counting {minds} Minds responses" in text

    await desk.emu.click_button(user=desk.ben, action_id="spend_activity_csv", channel=desk.research, ts=activity.ts)
    upload = await desk.posted(since, lambda m: bool(m.files))
    assert "downloaded this channel's Minds spending of the last 7 days as CSV." in upload.text
    (file_id,) = upload.files
    rows = list(csv.reader(io.StringIO(desk.emu.state.files[file_id].content.decode())))
    assert rows[0] == [
        "when (UTC)",
        "user",
        "action",
        "about",
        "Minds responses",
        "kind",
        "outcome",
        "decided by",
        "Minds said",
        "user id",
        "decided by id",
    ]
    assert rows[1][1:7] == ["Ben Okafor", "ask", QUESTION, minds, "", "started"], "people named as Slack shows them"
    assert rows[1][7] in ("Ada Lovelace", "Chloé Martin") and rows[1][8], "who approved, and the run Minds started"
    assert rows[1][9] == desk.ben and rows[1][10] in (desk.ada, desk.chloe), "their Slack ids kept beside"


async def test_a_declined_request_is_told_to_its_requester_and_nothing_is_asked(desk: Desk) -> None:
    await set_policy(desk, desk.ada, "ask", "approve")
    before = await runs_at_minds(desk)
    since = await desk.type(desk.ben, f'ask "{LAUNCH}" {QUESTION}')
    line = await desk.posted(since, lambda m: "wants to" in m.text)
    await desk.emu.click_button(user=desk.ada, action_id="spend_hold_decline", channel=desk.research, ts=line.ts)
    told = await desk.private(desk.ben, since, "declined your request")
    assert told.text.startswith(f"<@{desk.ada}> declined your request to ask ")
    assert told.text.endswith("Nothing was sent to Minds.")
    assert not asked_parents(desk, since) and await runs_at_minds(desk) == before


async def test_refuse_mode_refuses_with_the_exact_message_and_copies_nothing(desk: Desk) -> None:
    await set_policy(desk, desk.ada, "duplicate", "refuse")
    names = await desk.study_names()
    since = await desk.type(desk.ben, f'duplicate "{LAUNCH}"')
    refused = await desk.private(desk.ben, since, "refuses")
    assert refused.text == (
        "This channel's spend policy refuses this: Duplicate a Study or an Audience (`/minds duplicate`). "
        "See `/minds policy`. Workspace admins and this channel's approvers (`/minds approvers list`) can change it."
    )
    assert await desk.study_names() == names, "no copy was made"
    since = await desk.type(desk.ben, "activity 500")
    usage = await desk.private(desk.ben, since, "Say `/minds activity`")
    assert "with a number of days from 1 to 90." in usage.text
    since = await desk.type(desk.ben, "activity 1")
    activity = await desk.private(desk.ben, since, "last 1 day")
    assert "refused by the channel's policy" in shown(activity) and "1 not sent" in shown(activity)


async def test_people_who_are_not_approvers_see_the_policy_read_only_and_cannot_change_it(desk: Desk) -> None:
    since = await desk.type(desk.ben, "policy")
    policy = await desk.private(desk.ben, since, "Spend policy in this channel")
    assert not buttons(policy), "no selects for Ben"
    assert "Workspace admins and this channel's approvers (`/minds approvers list`) can change it." in shown(policy)

    # Chloé approves here when she opens the policy, and no longer when she chooses: checked when the choice arrives.
    since = await desk.type(desk.ada, f"approvers add <@{desk.chloe}>")
    await desk.private(desk.ada, since, "can now approve")
    since = await desk.type(desk.chloe, "policy")
    policy = await desk.private(desk.chloe, since, "Spend policy in this channel")
    assert "spend_policy_set:ask" in action_ids(policy.blocks)
    since = await desk.type(desk.ada, f"approvers remove <@{desk.chloe}>")
    await desk.private(desk.ada, since, "no longer approve")
    await desk.emu.select_option(
        user=desk.chloe, action_id="spend_policy_set:ask", value="refuse", channel=desk.research, ts=policy.ts
    )
    await desk.private(desk.chloe, since, "Only workspace admins and this channel's approvers can change its spend")
    since = await desk.type(desk.ben, "policy")
    policy = await desk.private(desk.ben, since, "Spend policy in this channel")
    assert "Ask a question (`/minds ask`) — runs at once" in shown(policy)


async def test_by_default_ask_runs_at_once_and_share_on_waits_for_an_approver(desk: Desk) -> None:
    since = await desk.type(desk.ben, "policy")
    policy = shown(await desk.private(desk.ben, since, "Spend policy in this channel"))
    assert "Ask a question (`/minds ask`) — runs at once" in policy
    assert "Turn a Study's public link on (`/minds share … on`) — needs an approver" in policy

    since = await desk.type(desk.ben, f'ask "{LAUNCH}" {QUESTION}')
    await desk.posted(since, lambda m: "asked" in m.text and QUESTION in m.text and not m.is_reply)
    assert hold_line(desk, since) is None

    since = await desk.type(desk.ben, f'share "{LAUNCH}" on')
    line = await desk.posted(since, lambda m: "wants to" in m.text)
    assert line.text == f"<@{desk.ben}> wants to turn the public link of {LAUNCH} on — needs an approver"
    assert not [e for e in desk.privates(desk.ben, since) if "Turn on the public link" in shown(e)]
    await desk.emu.click_button(user=desk.ada, action_id="spend_hold_approve", channel=desk.research, ts=line.ts)
    prompt = await desk.private(desk.ben, since, "Turn on the public link")
    assert "share_on_confirmed" in action_ids(prompt.blocks), "the requester confirms, as before"

    since = await desk.type(desk.ben, "activity")
    text = shown(await desk.private(desk.ben, since, "Minds spending in this channel"))
    assert "Turn a Study's public link on (`/minds share … on`)" in text and "Minds responses: 0" in text


async def test_a_held_heatmap_starts_once_an_approver_approves_and_counts_its_premium_responses(desk: Desk) -> None:
    question = "What catches your eye first in this ad? https://cdn.example.com/ad.png"
    since = await desk.type(desk.ben, f'ask "{LAUNCH}" {question}')
    parent = await desk.posted(since, lambda m: "asked" in m.text and not m.is_reply)

    def result() -> Message | None:
        replies = desk.emu.state.replies(desk.research, parent.ts)
        return next((m for m in replies if "result_heatmap" in action_ids(m.blocks)), None)

    answered = await desk.wait(result)
    await set_policy(desk, desk.ada, "heatmap", "approve")
    since = desk.emu.mark()
    await desk.emu.click_button(user=desk.ben, action_id="result_heatmap", channel=desk.research, ts=answered.ts)
    prompt = await desk.private(desk.ben, since, "Start heatmap")
    count = shown(prompt).split("one response per Mind (")[1].split(" Minds)")[0]
    await desk.emu.click_button(user=desk.ben, action_id="heatmap_start", channel=desk.research, ts=prompt.ts)
    line = await desk.posted(since, lambda m: "wants to" in m.text)
    assert line.text == (
        f"<@{desk.ben}> wants to start a Premium heatmap of https://cdn.example.com/ad.png — needs an approver"
    )
    assert f"Minds responses: {count} (premium)" in shown(line)

    def analysis() -> Message | None:
        replies = desk.emu.state.replies(desk.research, parent.ts)
        return next((m for m in replies if "Heatmap of the image" in shown(m)), None)

    assert analysis() is None, "held: no heatmap yet"
    await desk.emu.click_button(user=desk.ada, action_id="spend_hold_approve", channel=desk.research, ts=line.ts)
    await desk.wait(analysis)
    since = await desk.type(desk.ben, "activity")
    text = shown(await desk.private(desk.ben, since, "Minds spending in this channel"))
    counted = f"Minds responses: {count} (premium) · started at Minds"
    assert f"Start a Premium heatmap: start a Premium heatmap of https://cdn.example.com/ad.png · {counted}" in text


async def test_ask_minds_about_a_message_is_held_too_and_answered_in_its_thread_once_approved(desk: Desk) -> None:
    await set_policy(desk, desk.ada, "ask", "approve")
    said = await desk.emu.post_message(
        user=desk.ada, channel=desk.research, text="Would people pay more for a shoe made from recycled plastic?"
    )
    since = desk.emu.mark()
    await desk.emu.message_shortcut(
        user=desk.ben, callback_id="minds_ask_about_message", channel=desk.research, ts=said.ts
    )
    modal = await desk.modal(desk.ben, "Ask Minds about this")
    options = await desk.emu.request_options(user=desk.ben, action_id="study_options", value="launch", view_id=modal.id)
    launch = next(o for o in options if o["text"]["text"] == LAUNCH)
    await desk.emu.submit_view(user=desk.ben, view_id=modal.id, inputs={"study_options": launch})
    line = await desk.posted(since, lambda m: "wants to" in m.text)
    assert "recycled plastic?” — needs an approver" in line.text
    assert not desk.emu.state.replies(desk.research, said.ts), "held: nothing asked in the thread yet"

    await desk.emu.click_button(user=desk.ada, action_id="spend_hold_approve", channel=desk.research, ts=line.ts)

    def answered() -> Message | None:
        replies = desk.emu.state.replies(desk.research, said.ts)
        return next((m for m in replies if "answers_show" in action_ids(m.blocks)), None)

    await desk.wait(answered)
    asked = [m for m in desk.emu.state.replies(desk.research, said.ts) if "asked" in m.text]
    assert len(asked) == 1 and f"<@{desk.ben}>" in asked[0].text, "asked once, as Ben, in the message's thread"


async def test_a_second_copy_under_an_approval_policy_waits_for_its_own_approval(desk: Desk) -> None:
    await set_policy(desk, desk.ada, "duplicate", "approve")
    before = await desk.study_names()

    async def approve(since: str) -> None:
        line = await desk.posted(since, lambda m: "wants to duplicate the Study Pricing pulse" in m.text)
        await desk.emu.click_button(user=desk.ada, action_id="spend_hold_approve", channel=desk.research, ts=line.ts)

    since = await desk.type(desk.ben, 'duplicate "Pricing pulse"')
    await approve(since)
    await desk.private(desk.ben, since, "Duplicated")
    assert (await desk.study_names()).count("Pricing pulse (copy)") == 1

    since = await desk.type(desk.ben, 'duplicate "Pricing pulse"')
    await approve(since)
    question = await desk.private(desk.ben, since, "Make a second copy")
    assert len(await desk.study_names()) == len(before) + 1, "asked first: nothing made"
    since = desk.emu.mark()
    await desk.emu.click_button(user=desk.ben, action_id="duplicate_again", channel=question.channel, ts=question.ts)
    await desk.private(desk.ben, since, "waits for an approver")
    assert len(await desk.study_names()) == len(before) + 1, "the second copy is held too"
    await approve(since)
    await desk.private(desk.ben, since, "Duplicated")
    assert len(await desk.study_names()) == len(before) + 2

    since = await desk.type(desk.ben, "activity")
    text = (await desk.private(desk.ben, since, "Minds spending in this channel")).text
    assert text.count("not sent (nothing went to Minds)") == 1 and "*Totals:* 2 requests sent to Minds" in text
