"""Rows 4 and 12: permissions where data leaves, through the real Bolt app.

Row 4: a digest goes only to a channel the person *and* the bot are in (a private channel the person never
used is refused, whoever typed its id), and only its creator, an approver of its channel or a workspace admin
may post it now or remove it — decided from the stored digest, never from the request.
Row 12: answers to a plan's confirmation questions and revisions come from the requester or people who may
approve it, and an Answer or Revise dialog is accepted only from the person it was opened for."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from minds_bot.render.access import MODAL_NOT_YOURS
from minds_bot.render.digest import ADD_DIGEST_VIEW
from minds_bot.render.plan_dialogs import VIEW_ANSWER, VIEW_PLAN_REQUEST, VIEW_REVISE
from minds_bot.store import Digest, RunKind, ScheduleKind
from tests.fakes.bot import CHANNEL, TEAM, BotHarness, bot_harness
from tests.fakes.minds_http import ok, page
from tests.fakes.slack_web import BOT_USER
from tests.slack.plan_samples import plan_data, study_data
from tests.slack.test_plan_listeners import PREVIEW, REQUESTER, STUDY_ID, _button, open_plan

CREATOR, STRANGER, APPROVER = "U0CREATOR", "U0STRANGER", "U0APPROVER"
SECRET = "G0SECRET"  # a private channel: the creator and the bot are in it, the stranger is not
NOT_A_MEMBER = f"You are not a member of <#{SECRET}>"


def answer(reply: dict[str, Any]) -> str:
    return reply.get("text", "") + json.dumps(reply.get("blocks", []), ensure_ascii=False)


# --- row 4: digests ----------------------------------------------------------------------------------------


@pytest.fixture
async def desk() -> AsyncIterator[BotHarness]:
    async with bot_harness(user=STRANGER) as harness:
        harness.slack.channel_members[SECRET] = [CREATOR, BOT_USER]
        harness.slack.channel_members[CHANNEL] = [CREATOR, STRANGER, APPROVER, BOT_USER]
        harness.slack.users.update(
            {user: {"id": user, "tz": "UTC", "is_admin": False} for user in (CREATOR, STRANGER, APPROVER)}
        )
        harness.minds_api.on("GET", "/studies", page([], total=0, offset=0))
        yield harness


async def secret_digest(bot: BotHarness) -> Digest:
    return await bot.store.save_digest(
        Digest(
            digest_id="dg-secret1",
            team_id=TEAM,
            channel_id=SECRET,
            schedule_kind=ScheduleKind.DAILY,
            spec="09:00",
            tz="UTC",
            created_by=CREATOR,
        )
    )


def posts_to(bot: BotHarness, channel: str) -> list[dict[str, Any]]:
    return [call for call in bot.slack.calls_to("chat.postMessage") if call.get("channel") == channel]


async def test_a_digest_into_a_private_channel_the_person_is_not_in_is_refused(desk: BotHarness) -> None:
    await desk.command(f"digest add <#{SECRET}> daily 09:00 all")
    said = answer(await desk.reply())
    assert NOT_A_MEMBER in said and "The digest was not added" in said
    assert await desk.store.list_digests(team_id=TEAM) == []


async def test_a_digest_into_a_channel_without_the_bot_is_refused_with_how_to_invite_it(desk: BotHarness) -> None:
    desk.slack.channel_members["C0QUIET"] = [STRANGER]
    await desk.command("digest add <#C0QUIET> daily 09:00 all")
    said = answer(await desk.reply())
    assert "Minds is not in <#C0QUIET>" in said and "/invite @Minds" in said
    assert await desk.store.list_digests(team_id=TEAM) == []


async def test_membership_is_read_across_every_page_of_a_big_channel(desk: BotHarness) -> None:
    desk.slack.channel_members["C0BIG"] = [f"U{n:05d}" for n in range(450)] + [STRANGER, BOT_USER]
    await desk.command("digest add <#C0BIG> daily 09:00 all")
    said = answer(await desk.reply())
    assert "added" in said
    [digest] = await desk.store.list_digests(team_id=TEAM)
    assert digest.channel_id == "C0BIG" and digest.created_by == STRANGER
    assert len(desk.slack.calls_to("conversations.members")) == 3


async def test_the_add_a_digest_dialog_checks_the_channel_too(desk: BotHarness) -> None:
    values = {
        "kind": {"value": {"selected_option": {"value": "daily"}}},
        "time": {"value": {"selected_time": "09:00"}},
        "tz": {"value": {"value": "UTC"}},
        "channel": {"value": {"selected_conversation": SECRET}},
    }
    await desk.submit({"callback_id": ADD_DIGEST_VIEW}, values)
    (dm,) = await desk.slack.wait_for("chat.postMessage", lambda call: call.get("channel") == STRANGER)
    assert NOT_A_MEMBER in dm["text"]
    assert await desk.store.list_digests(team_id=TEAM) == []


# --- issue 28, hardening 7: the App Home's Plan research dialog posts only where the person and the bot are -----


def home_plan_dialog(channel: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The Plan research dialog as the App Home opens it (no channel of its own: one is picked), submitted."""
    values = {
        "channel": {"value": {"type": "conversations_select", "selected_conversation": channel}},
        "study": {"value": {"type": "plain_text_input", "value": STUDY_ID}},
        "request": {"value": {"type": "plain_text_input", "value": "Which tagline lands with Gen Z?"}},
    }
    return {"callback_id": VIEW_PLAN_REQUEST, "private_metadata": json.dumps({"u": STRANGER})}, values


@pytest.mark.parametrize(
    ("channel", "words"),
    [
        (
            SECRET,
            "You are not a member of that channel, so the plan cannot be posted there. Pick a channel you are in.",
        ),
        ("C0QUIET", "Minds is not in that channel. Invite it with /invite @Minds in that channel, or pick a channel"),
    ],
    ids=["person-not-in-it", "bot-not-in-it"],
)
async def test_the_home_plan_dialog_refuses_a_channel_as_digest_add_does(
    desk: BotHarness, channel: str, words: str
) -> None:
    desk.slack.channel_members["C0QUIET"] = [STRANGER]
    ack = await desk.submit(*home_plan_dialog(channel))
    errors = json.loads(ack.body)["errors"]
    assert list(errors) == ["channel"] and errors["channel"].startswith(words)
    assert desk.minds_api.sent == [] and posts_to(desk, channel) == []
    assert desk.slack.calls_to("chat.postEphemeral") == []


async def test_the_home_plan_dialog_posts_in_a_channel_the_person_and_the_bot_are_in(desk: BotHarness) -> None:
    desk.minds_api.on("GET", f"/studies/{STUDY_ID}", ok(study_data()))
    desk.minds_api.on("POST", f"/studies/{STUDY_ID}/research-plans", ok(plan_data()))
    ack = await desk.submit(*home_plan_dialog(CHANNEL))
    assert not ack.body
    (posted,) = await desk.slack.wait_for("chat.postMessage", lambda call: call.get("channel") == CHANNEL)
    assert "Preparing the plan for Reusable cups" in answer(posted)


@pytest.mark.parametrize("verb", ["now", "remove"])
async def test_a_third_person_cannot_fire_or_remove_someone_elses_digest(desk: BotHarness, verb: str) -> None:
    desk.slack.channel_members[SECRET] = [CREATOR, STRANGER, BOT_USER]  # in the channel, but not its creator
    digest = await secret_digest(desk)
    await desk.command(f"digest {verb} {digest.digest_id}")
    said = answer(await desk.reply())
    assert f"Only <@{CREATOR}>, who added digest `dg-secret1`, this channel's approvers" in said
    assert "or a workspace admin" in said
    assert posts_to(desk, SECRET) == [] and desk.minds_api.sent == []
    assert await desk.store.get_digest(digest.digest_id) is not None


@pytest.mark.parametrize("verb", ["now", "remove"])
async def test_someone_outside_a_digests_private_channel_is_told_so_and_nothing_happens(
    desk: BotHarness, verb: str
) -> None:
    digest = await secret_digest(desk)
    await desk.command(f"digest {verb} {digest.digest_id}")
    said = answer(await desk.reply())
    assert f"You are not a member of <#{SECRET}>, where this digest belongs, so you cannot use it." in said
    assert posts_to(desk, SECRET) == [] and desk.minds_api.sent == []
    assert await desk.store.get_digest(digest.digest_id) is not None


async def test_the_creator_and_an_approver_of_its_channel_may_post_it_now(desk: BotHarness) -> None:
    desk.slack.channel_members[SECRET] = [CREATOR, APPROVER, BOT_USER]
    digest = await secret_digest(desk)
    await desk.command(f"digest now {digest.digest_id}", user=CREATOR)
    assert "posted to" in answer(await desk.reply_containing("Digest `dg-secret1`"))
    await desk.store.add_approver(team_id=TEAM, channel_id=SECRET, user_id=APPROVER)
    await desk.command(f"digest now {digest.digest_id}", user=APPROVER, trigger="approver.1")
    assert "posted to" in answer(await desk.reply_containing("Digest `dg-secret1`"))
    assert len(posts_to(desk, SECRET)) == 2


# --- row 12: plan answers, revisions and their dialogs ------------------------------------------------------


@pytest.fixture
async def bot() -> AsyncIterator[BotHarness]:
    async with bot_harness(unique_ts=True, user=REQUESTER) as harness:
        harness.minds_api.on("GET", f"/studies/{STUDY_ID}", ok(study_data()))
        harness.slack.users[STRANGER] = {"id": STRANGER, "is_admin": False, "is_owner": False}
        yield harness


async def test_someone_who_may_not_approve_cannot_answer_a_confirmation_question(bot: BotHarness) -> None:
    ts, blocks = await open_plan(bot)
    yes = _button(blocks, "Yes")
    previews = len(bot.minds_api.to("POST", PREVIEW))
    await bot.click(message_ts=ts, blocks=blocks, action_id=yes["action_id"], value=yes["value"], user=STRANGER)
    refusal = await bot.refusal()
    assert "Only the person who asked for this plan (<@UREQ>)" in refusal and "answer its questions" in refusal
    assert len(bot.minds_api.to("POST", PREVIEW)) == previews


@pytest.mark.parametrize("button", ["Revise…", "Answer…"])
async def test_someone_who_may_not_approve_gets_no_answer_or_revise_dialog(bot: BotHarness, button: str) -> None:
    ts, blocks = await open_plan(bot)
    pressed = _button(blocks, button)
    await bot.click(message_ts=ts, blocks=blocks, action_id=pressed["action_id"], value=pressed["value"], user=STRANGER)
    assert "Only the person who asked for this plan (<@UREQ>)" in await bot.refusal()
    assert bot.slack.calls_to("views.open") == []


async def opened_revise_modal(bot: BotHarness) -> tuple[str, dict[str, Any]]:
    """The requester presses Revise…; the plan message's ts and the modal Slack was asked to open."""
    ts, blocks = await open_plan(bot)
    revise = _button(blocks, "Revise…")
    await bot.click(message_ts=ts, blocks=blocks, action_id=revise["action_id"], value=revise["value"])
    opened = await bot.slack.next_call("views.open")
    view = opened["view"]
    return ts, json.loads(view) if isinstance(view, str) else view


async def test_a_revise_dialog_is_accepted_only_from_the_person_it_was_opened_for(bot: BotHarness) -> None:
    _, view = await opened_revise_modal(bot)
    assert view["callback_id"] == VIEW_REVISE
    values = {"refinement": {"value": {"type": "plain_text_input", "value": "Ask about price too"}}}
    previews = len(bot.minds_api.to("POST", PREVIEW))

    taken_over = await bot.submit(view, values, user=STRANGER)
    assert json.loads(taken_over.body) == {"response_action": "errors", "errors": {"refinement": MODAL_NOT_YOURS}}
    assert len(bot.minds_api.to("POST", PREVIEW)) == previews

    bot.minds_api.set("POST", PREVIEW, ok(plan_data(revision=2)))
    mine = await bot.submit(view, values)
    assert mine.status == 200 and mine.body == ""
    await bot.tracker.next_tracked(RunKind.PLAN)
    await bot.tick()
    sent = json.loads(bot.minds_api.to("POST", PREVIEW)[-1].body)
    assert sent["refinement"] == "Ask about price too"


async def test_an_answer_dialog_is_accepted_only_from_the_person_it_was_opened_for(bot: BotHarness) -> None:
    ts, blocks = await open_plan(bot)
    answer_button = _button(blocks, "Answer…")
    await bot.click(message_ts=ts, blocks=blocks, action_id=answer_button["action_id"], value=answer_button["value"])
    opened = await bot.slack.next_call("views.open")
    view = json.loads(opened["view"]) if isinstance(opened["view"], str) else opened["view"]
    assert view["callback_id"] == VIEW_ANSWER
    values = {"answer": {"value": {"type": "plain_text_input", "value": "On weekdays"}}}
    previews = len(bot.minds_api.to("POST", PREVIEW))
    taken_over = await bot.submit(view, values, user=STRANGER)
    assert json.loads(taken_over.body) == {"response_action": "errors", "errors": {"answer": MODAL_NOT_YOURS}}
    assert len(bot.minds_api.to("POST", PREVIEW)) == previews


async def test_a_channel_approver_may_answer(bot: BotHarness) -> None:
    ts, blocks = await open_plan(bot)
    await bot.store.add_approver(team_id=TEAM, channel_id=CHANNEL, user_id=STRANGER)
    bot.minds_api.set("POST", PREVIEW, ok(plan_data(revision=2)))
    yes = _button(blocks, "Yes")
    await bot.click(message_ts=ts, blocks=blocks, action_id=yes["action_id"], value=yes["value"], user=STRANGER)
    await bot.tracker.next_tracked(RunKind.PLAN)
    await bot.tick()
    assert json.loads(bot.minds_api.to("POST", PREVIEW)[-1].body)["answers"] == {"cq1": "Yes"}
