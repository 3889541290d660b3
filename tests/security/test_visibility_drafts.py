"""Issue 33 row 3, through the real Bolt app: a Study draft belongs to the channel its plan was in. Only who may
decide on a plan saves it as a draft; ``/minds drafts`` lists only drafts of channels the person is in now and
counts the others without naming them; Resume and Delete are for the draft's requester, its channel's approvers
and admins while in that channel, and Resume reopens the plan in the draft's own channel, requested by its
requester. Older drafts (no channel recorded) are their saver's; drafts made in Minds are deleted only by an
admin. Every refusal is the gate's words, sends nothing to Minds but the read of the list and posts nothing.

People: Ada asked for the plans and is in #secret-launch (private) and #research; Ben is in #research only;
Cleo approves in #secret-launch; Dana is a workspace admin in both."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from minds_bot.store import RunKind
from tests.fakes.bot import CHANNEL, TEAM, BotHarness, bot_harness, buttons
from tests.fakes.minds_http import ok, raw
from tests.fakes.slack_web import BOT_USER
from tests.slack.plan_samples import plan_data, study_data
from tests.slack.test_drafts import DRAFT_ID, draft
from tests.slack.test_plan_listeners import PREVIEW, STUDY_ID, _button, open_plan

ADA, BEN, CLEO, DANA = "U0ADA", "U0BEN", "U0CLEO", "U0DANA"
SECRET = "G0SECRET"  # #secret-launch: private
QUIET = "C0QUIET"  # a channel Ada is not in
OLDER_ID = "7a1b2c3d-0000-4000-8000-000000000003"
MINDS_ID = "7a1b2c3d-0000-4000-8000-000000000004"
RESEARCH_ID = "7a1b2c3d-0000-4000-8000-000000000005"
ELSEWHERE_ID = "7a1b2c3d-0000-4000-8000-000000000006"
OLDER_REFUSED = f"Only <@{ADA}> or a workspace admin can do that with this draft. Nothing was changed."
NOT_IN_SECRET = (
    f"You are not a member of <#{SECRET}>, where this draft belongs, so you cannot use it. Join the channel first."
)


def state(*, channel: str | None = SECRET, requester: str = ADA, team: str = TEAM, **extra: Any) -> dict[str, Any]:
    """What the bot saves in a draft of ``channel``'s plan (None: a draft saved before drafts recorded their
    channel, saved by ``requester``)."""
    base = {"source": "minds-bot", "studyId": STUDY_ID, "studyName": "Phoenix", "draftPlanId": "plan-9"}
    if channel is None:
        return {**base, "savedBy": requester, **extra}
    return {**base, "teamId": team, "channelId": channel, "requesterId": requester, "savedBy": requester, **extra}


def a_draft(draft_id: str, draft_state: dict[str, Any], name: str) -> dict[str, Any]:
    return {**draft(draft_state), "id": draft_id, "name": name}


SECRET_DRAFT = a_draft(DRAFT_ID, state(), "Project Phoenix: plan revision 1")
OLDER_DRAFT = a_draft(OLDER_ID, state(channel=None), "Older Phoenix: plan revision 2")
MINDS_DRAFT = a_draft(MINDS_ID, {}, "Made in Minds")
RESEARCH_DRAFT = a_draft(RESEARCH_ID, state(channel=CHANNEL, requester=BEN), "Cups: plan revision 1")
OTHER_TEAM_DRAFT = a_draft(ELSEWHERE_ID, state(team="T9999"), "Another workspace's plan")


@pytest.fixture
async def bot() -> AsyncIterator[BotHarness]:
    async with bot_harness(unique_ts=True, user=ADA) as harness:
        harness.slack.channel_members[SECRET] = [ADA, CLEO, DANA, BOT_USER]
        harness.slack.channel_members[CHANNEL] = [ADA, BEN, DANA, BOT_USER]
        harness.slack.channel_members[QUIET] = [BEN, BOT_USER]
        harness.slack.users.update({u: {"id": u, "tz": "UTC", "is_admin": u == DANA} for u in (ADA, BEN, CLEO, DANA)})
        await harness.store.add_approver(team_id=TEAM, channel_id=SECRET, user_id=CLEO)
        harness.minds_api.on("GET", f"/studies/{STUDY_ID}", ok(study_data()))
        harness.minds_api.on(
            "GET",
            "/study-drafts",
            raw({"data": [SECRET_DRAFT, OLDER_DRAFT, MINDS_DRAFT, RESEARCH_DRAFT, OTHER_TEAM_DRAFT]}),
        )
        yield harness


def said(reply: dict[str, Any]) -> str:
    return reply.get("text", "") + json.dumps(reply.get("blocks", []), ensure_ascii=False)


def changes(bot: BotHarness) -> list[str]:
    """Every Minds request that is not a read."""
    return [f"{r.method} {r.path}" for r in bot.minds_api.sent if r.method != "GET"]


def posts(bot: BotHarness) -> list[dict[str, Any]]:
    return bot.slack.calls_to("chat.postMessage") + bot.slack.calls_to("chat.update")


# --- Save as draft -----------------------------------------------------------------------------------------------


async def test_only_who_may_decide_on_a_plan_saves_it_as_a_draft(bot: BotHarness) -> None:
    ts, blocks = await open_plan(bot)  # Ada's plan in #research
    save = _button(blocks, "Save as draft")
    updates = len(bot.slack.calls_to("chat.update"))
    await bot.click(save["action_id"], save["value"], message_ts=ts, blocks=blocks, user=BEN)
    assert await bot.refusal() == (
        f"Only <@{ADA}>, this channel's approvers (`/minds approvers list`) or a workspace admin can do that with "
        "this plan."
    )
    assert bot.minds_api.to("POST", "/study-drafts") == []
    assert len(bot.slack.calls_to("chat.update")) == updates  # the plan message is not marked

    bot.minds_api.on("POST", "/study-drafts", ok(draft(state(channel=CHANNEL)), status=201))
    await bot.click(save["action_id"], save["value"], message_ts=ts, blocks=blocks, user=DANA)  # an admin may
    assert "Saved as draft" in (await bot.reply_containing("Saved as draft"))["text"]
    (sent,) = bot.minds_api.to("POST", "/study-drafts")
    kept = sent.json()["payload"]["state"]
    assert (kept["teamId"], kept["channelId"], kept["requesterId"], kept["savedBy"]) == (TEAM, CHANNEL, ADA, DANA)


# --- /minds drafts -------------------------------------------------------------------------------------------------


async def test_the_list_shows_only_drafts_of_channels_the_person_is_in_and_counts_the_others(bot: BotHarness) -> None:
    await bot.command("drafts", user=BEN)
    listing = await bot.reply_containing("Study drafts")
    shown = said(listing)
    assert "Phoenix" not in shown and "Another workspace" not in shown  # neither named nor linked
    assert "*Made in Minds* · revision 1" in shown and "*Cups: plan revision 1* · revision 1" in shown
    assert listing["blocks"][-1]["elements"][0]["text"] == (
        "1 draft of a channel you are not in is not shown. 1 draft someone else saved before drafts recorded their "
        "channel is not shown."
    )
    found = buttons(listing)
    assert set(found) == {
        f"draft_resume:{RESEARCH_ID}",
        f"draft_open:{RESEARCH_ID}",
        f"draft_delete:{RESEARCH_ID}",
        f"draft_open:{MINDS_ID}",
        f"draft_delete:{MINDS_ID}",  # made in Minds: listed as before, with Open and Delete only
    }

    await bot.command("drafts", user=ADA)
    mine = await bot.reply_containing("Study drafts")
    assert "*Project Phoenix: plan revision 1* · revision 1 · saved" in said(mine) and f"in <#{SECRET}>" in said(mine)
    assert {f"draft_resume:{DRAFT_ID}", f"draft_resume:{OLDER_ID}"} <= set(buttons(mine))
    assert "not shown" not in said(mine)
    assert changes(bot) == []


async def test_someone_who_leaves_the_channel_no_longer_sees_its_drafts(bot: BotHarness) -> None:
    bot.slack.channel_members[SECRET] = [CLEO, DANA, BOT_USER]  # Ada left #secret-launch
    await bot.command("drafts", user=ADA)
    assert "1 draft of a channel you are not in is not shown." in said(await bot.reply_containing("Study drafts"))


# --- Resume ------------------------------------------------------------------------------------------------------


async def test_resume_by_someone_outside_the_drafts_channel_is_refused_and_nothing_happens(bot: BotHarness) -> None:
    await bot.click(f"draft_resume:{DRAFT_ID}", DRAFT_ID, ephemeral=True, user=BEN)
    assert await bot.refusal() == NOT_IN_SECRET
    assert changes(bot) == [] and posts(bot) == []
    assert await bot.store.recent_plan_posts(team_id=TEAM, requester_id=BEN, limit=5) == []


async def test_resume_by_a_member_who_is_not_its_requester_or_an_approver_is_refused(bot: BotHarness) -> None:
    bot.slack.channel_members[SECRET] = [ADA, BEN, BOT_USER]
    await bot.click(f"draft_resume:{DRAFT_ID}", DRAFT_ID, ephemeral=True, user=BEN)
    assert await bot.refusal() == (
        f"Only <@{ADA}>, this channel's approvers (`/minds approvers list`) or a workspace admin can do that with "
        "this draft."
    )
    assert changes(bot) == [] and posts(bot) == []


@pytest.mark.parametrize("who", [ADA, CLEO], ids=["requester", "approver"])
async def test_resume_reopens_the_plan_in_its_own_channel_requested_by_its_requester(bot: BotHarness, who: str) -> None:
    bot.minds_api.set("POST", PREVIEW, ok(plan_data(confirmationQuestions=[])))
    await bot.click(f"draft_resume:{DRAFT_ID}", DRAFT_ID, ephemeral=True, user=who)  # pressed in #research
    assert (await bot.reply_containing("Reopening"))["text"] == (
        f"Reopening “Project Phoenix: plan revision 1” in <#{SECRET}>, requested by <@{ADA}>: the latest revision "
        "of its plan appears there."
    )
    (posted,) = bot.slack.calls_to("chat.postMessage")
    assert posted["channel"] == SECRET  # never where Resume was pressed
    assert f"Resumed from a Study draft by <@{who}>." in said(posted)
    run = await bot.tracker.next_tracked(RunKind.PLAN)
    await bot.tick()
    (post,) = await bot.store.recent_plan_posts(team_id=TEAM, requester_id=ADA, limit=5)
    assert (post.channel_id, run.channel_id) == (SECRET, SECRET)
    (shown,) = [c for c in bot.slack.calls_to("chat.update") if c["channel"] == SECRET and "Revision 1" in said(c)]
    assert f"requested by <@{ADA}>" in said(shown)
    assert all(c["channel"] == SECRET for c in posts(bot))


async def test_an_older_draft_is_its_savers_and_reopens_where_resume_was_pressed(bot: BotHarness) -> None:
    await bot.click(f"draft_resume:{OLDER_ID}", OLDER_ID, ephemeral=True, user=BEN)
    assert await bot.refusal() == OLDER_REFUSED
    await bot.click(f"draft_resume:{OLDER_ID}", OLDER_ID, ephemeral=True, user=ADA, channel=QUIET)
    assert await bot.refusal() == (
        f"You are not a member of <#{QUIET}>, so the bot will not post there for you. Pick a channel you are in."
    )
    assert changes(bot) == [] and posts(bot) == []

    bot.minds_api.set("POST", PREVIEW, ok(plan_data(confirmationQuestions=[])))
    await bot.click(f"draft_resume:{OLDER_ID}", OLDER_ID, ephemeral=True, user=ADA)
    assert (await bot.reply_containing("Reopening"))["text"].startswith(
        f"Reopening “Older Phoenix: plan revision 2” in <#{CHANNEL}>, requested by <@{ADA}>"
    )
    assert [c["channel"] for c in bot.slack.calls_to("chat.postMessage")] == [CHANNEL]


async def test_a_draft_of_another_workspace_is_not_resumed(bot: BotHarness) -> None:
    await bot.click(f"draft_resume:{ELSEWHERE_ID}", ELSEWHERE_ID, ephemeral=True, user=ADA)
    assert await bot.refusal() == "That belongs to another workspace, so the bot does not show it or act on it here."
    assert changes(bot) == [] and posts(bot) == []


# --- Delete ------------------------------------------------------------------------------------------------------


async def test_delete_is_for_the_requester_the_channels_approvers_and_admins_in_its_channel(bot: BotHarness) -> None:
    await bot.click(f"draft_delete:{DRAFT_ID}", f"{DRAFT_ID}:1", ephemeral=True, user=BEN)
    assert await bot.refusal() == NOT_IN_SECRET
    assert changes(bot) == []
    bot.minds_api.on("DELETE", f"/study-drafts/{DRAFT_ID}", raw(None, status=204))
    await bot.click(f"draft_delete:{DRAFT_ID}", f"{DRAFT_ID}:1", ephemeral=True, user=CLEO)
    assert (await bot.reply())["text"] == "Deleted the draft “Project Phoenix: plan revision 1”."
    assert changes(bot) == [f"DELETE /study-drafts/{DRAFT_ID}"]


async def test_a_draft_made_in_minds_is_deleted_only_by_an_admin(bot: BotHarness) -> None:
    await bot.click(f"draft_delete:{MINDS_ID}", f"{MINDS_ID}:1", ephemeral=True, user=BEN)
    assert await bot.refusal() == "Only a workspace admin can do that with this draft. Nothing was changed."
    await bot.click(f"draft_delete:{OLDER_ID}", f"{OLDER_ID}:1", ephemeral=True, user=CLEO)
    assert await bot.refusal() == OLDER_REFUSED
    assert changes(bot) == []
    bot.minds_api.on("DELETE", f"/study-drafts/{MINDS_ID}", raw(None, status=204))
    await bot.click(f"draft_delete:{MINDS_ID}", f"{MINDS_ID}:1", ephemeral=True, user=DANA)
    assert (await bot.reply())["text"] == "Deleted the draft “Made in Minds”."
    assert changes(bot) == [f"DELETE /study-drafts/{MINDS_ID}"]
