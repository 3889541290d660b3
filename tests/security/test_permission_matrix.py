"""The permission matrix of issue 33: one table of ways in × actions × people, through the real app (signed
requests into the real Bolt app, the fake Slack Web API, the fake Minds API).

The people: Ada (in the private channel #secret-launch, ``G0SECRET``, and in #research), Ben (in #research only),
Cara (in both, an approver of #secret-launch), Dan (a workspace admin, in #research only) and Eve (a member of
another workspace). Every cell says which way in (a slash command, a button, a dialog, a workflow step, a DM, a
link, the App Home, a message shortcut …), which action, who, and whether the gate (``minds_bot/flows/access.py``)
lets it through. Each cell asserts the words the person reads; a refused cell also asserts that nothing reached
Minds (no request that writes) and nothing was posted, edited or unfurled in Slack. Every row of the issue is one or
more cells: the row's number heads its cells. A new way in adds its cells here, refused and allowed."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import pytest

from minds_bot.minds.policy import caller
from minds_bot.render.access import MODAL_NOT_YOURS, OTHER_WORKSPACE
from minds_bot.render.ask_audience import ask_audience_modal
from minds_bot.render.common import encode_value
from minds_bot.render.digest import ADD_DIGEST_VIEW
from minds_bot.render.modals import STUDY_BLOCK, STUDY_OPTIONS_ACTION, TEXT_ACTION, TEXT_BLOCK
from minds_bot.render.plan_dialogs import VIEW_PLAN_REQUEST
from minds_bot.render.run_notice import NOTIFY_ME_ACTION
from minds_bot.store import ChannelPolicy, ChatThread, Digest, PolicyMode, RunKind, ScheduleKind
from tests.fakes.bot import CHANNEL, TEAM, BotHarness, bot_harness, buttons
from tests.fakes.minds_http import ok, page, raw
from tests.fakes.outage import switchable
from tests.fakes.slack_requests import button_click, command_body
from tests.fakes.slack_web import BOT_USER
from tests.security import test_visibility_drafts as drafts
from tests.security import test_visibility_runs as runs_tests
from tests.slack import samples
from tests.slack.plan_samples import plan_data, study_data

ADA, BEN, CARA, DAN, EVE = "U0ADA", "U0BEN", "U0CARA", "U0DAN", "U0EVE"
SECRET, RESEARCH = "G0SECRET", CHANNEL
OTHER_TEAM = "T0002"
STUDY = samples.STUDY_ID
PREVIEW = f"/studies/{STUDY}/research-plans/preview"
RESEARCH_RUNS = f"/studies/{STUDY}/research-runs"
DIRECT_RUNS = f"/studies/{STUDY}/runs"
QUESTION = "Would you pay 20 euros more for a recycled sole?"

# What people read, word for word (mrkdwn as Slack receives it).
POLICY_REFUSES_ASK = (
    "This channel's spend policy refuses this: Ask a question (`/minds ask`). See `/minds policy`. "
    "Workspace admins and this channel's approvers (`/minds approvers list`) can change it."
)
NOT_SENT_FROM_SECRET = (
    f"You are not a member of <#{SECRET}>, so nothing is sent to Minds from there for you. Nothing was sent."
)
NOT_IN_PLANS_CHANNEL = (
    f"You are not a member of <#{SECRET}>, where this plan belongs, so you cannot use it. Join the channel first."
)
NOT_IN_DIGESTS_CHANNEL = (
    f"You are not a member of <#{SECRET}>, where this digest belongs, so you cannot use it. Join the channel first."
)
POLICY_REFUSES_DUPLICATE = (
    "This channel's spend policy refuses this: Duplicate a Study or an Audience (`/minds duplicate`). "
    "See `/minds policy`. Workspace admins and this channel's approvers (`/minds approvers list`) can change it."
)
POLICY_REFUSES_CHAT = (
    "This channel's spend policy refuses this: Chat with a Mind (`/minds chat`). See `/minds policy`. "
    "Workspace admins and this channel's approvers (`/minds approvers list`) can change it."
)
NOT_SPEND_APPROVER = (
    "Only this channel's approvers (`/minds approvers list`) or a workspace admin can approve or decline this request."
)
CONCEPT_NOT_MEMBER = (
    "That message is in a channel you are not in (or in a private channel Minds is not in), so its file cannot be "
    "used. Nothing was downloaded."
)
CONCEPT_ELSEWHERE = (
    "That message is in a private channel: its file is used only in a plan posted in that channel. Plan there "
    "instead; nothing was downloaded."
)
DRAFT_HIDDEN = "1 draft of a channel you are not in is not shown."
DRAFT_NOT_MEMBER = (
    f"You are not a member of <#{SECRET}>, where this draft belongs, so you cannot use it. Join the channel first."
)
DRAFT_REOPENED = f"Reopening “Project Phoenix: plan” in <#{SECRET}>, requested by <@{ADA}>"
SECRET_QUESTION = "Would you pay 300 EUR for Project Phoenix?"
RUNS_HIDDEN = "1 run in a channel you are not in is not shown."
RUN_NOT_MEMBER = (
    f"You are not a member of <#{SECRET}>, where this run belongs, so you cannot use it. Join the channel first."
)
RUN_ELSEWHERE = (
    f"<#{SECRET}> is a private channel: the bot shows and uses what belongs there (this run) only in that channel."
)
NOTIFY_NOT_MEMBER = (
    f"That belongs to <#{SECRET}>, a channel you are not in, so it is not shown to you. Join the channel to see it."
)
SHARE_USED = (
    "You have used your share of this workspace's Minds requests for the minute; try again in about 60 seconds."
)
STORE_DOWN = "minds-bot cannot reach its database right now; nothing was done; try again in a minute."
NOT_A_LINK = "Paste a Slack message's link (“Copy link” on the message): https://…slack.com/archives/…"
NO_SUCH_STEP = (
    "This version of the Minds app has no such workflow step. Remove the step from the workflow and add one of "
    "the app's current steps. Nothing was sent."
)
PNG = b"\x89PNG\r\n\x1a\n" + b"phoenix" * 300
HOME_DIALOG_NOT_MEMBER = (
    "You are not a member of that channel, so the plan cannot be posted there. Pick a channel you are in."
)
DIGEST_NOT_MEMBER = f"You are not a member of <#{SECRET}>, so you cannot send a digest there."
STEP_NOT_IN_SECRET = (
    f"You are not a member of {SECRET}, so the bot will not post there for you. Pick a channel you are in."
)
STEP_POLICY = (
    "This channel's spend policy refuses this: Ask a question (/minds ask). See /minds policy. "
    "Workspace admins and this channel's approvers (/minds approvers list) can change it."
)


@dataclass
class World:
    """The bot with its people and channels, and what the test noted before the cell acted."""

    bot: BotHarness
    writes_before: int = 0
    posts_before: int = 0

    def mark(self) -> None:
        self.writes_before, self.posts_before = len(self.writes()), len(self.posts())

    def writes(self) -> list[Any]:
        return [request for request in self.bot.minds_api.sent if request.method != "GET"]

    def posts(self) -> list[tuple[str, dict[str, Any]]]:
        changing = ("chat.postMessage", "chat.update", "chat.unfurl", "files.completeUploadExternal")
        return [(name, args) for name, args in self.bot.slack.calls if name in changing]

    def nothing_happened(self) -> bool:
        return len(self.writes()) == self.writes_before and len(self.posts()) == self.posts_before


@pytest.fixture
async def world() -> AsyncIterator[World]:
    async with bot_harness(user=BEN, unique_ts=True) as bot:
        slack = bot.slack
        slack.channel_members |= {SECRET: [ADA, CARA, BOT_USER], RESEARCH: [ADA, BEN, CARA, DAN, BOT_USER]}
        slack.users |= {
            person: {"id": person, "tz": "UTC", "is_admin": person == DAN} for person in (ADA, BEN, CARA, DAN)
        }
        await bot.store.add_approver(team_id=TEAM, channel_id=SECRET, user_id=CARA)
        api = bot.minds_api
        api.on("GET", "/studies", page([], total=0, offset=0))
        api.on("GET", f"/studies/{STUDY}/runs", raw({"data": []}))
        api.on("GET", f"/studies/{STUDY}", ok(study_data(STUDY)))
        api.on("POST", DIRECT_RUNS, ok({"runId": samples.RUN_ID, "status": "queued"}, status=202))
        api.on("POST", RESEARCH_RUNS, ok({"runId": "run-1", "status": "queued"}))
        yield World(bot)


def text_of(reply: dict[str, Any]) -> str:
    return str(reply.get("text", "")) + json.dumps(reply.get("blocks", []), ensure_ascii=False)


# --- the ways in: each does one thing as one person and returns what that person reads ----------------------------


async def ask_command(world: World, person: str, *, channel: str = RESEARCH) -> str:
    """``/minds ask`` as ``person`` in ``channel``: the private refusal, or the question's line in the channel."""
    bot = world.bot
    before = len(bot.slack.calls_to("chat.postMessage"))
    await bot.command(f"ask {STUDY} {QUESTION}", user=person, channel=channel)
    if person == ADA:
        posted = await bot.slack.wait_for("chat.postMessage", lambda c: c.get("channel") == channel, count=1)
        assert len(bot.slack.calls_to("chat.postMessage")) > before
        return str(posted[0]["text"])
    return text_of(await bot.reply())


async def ask_refused_by_policy(world: World, person: str) -> str:
    policy = ChannelPolicy(team_id=TEAM, channel_id=RESEARCH, action="ask", mode=PolicyMode.REFUSE, set_by=CARA)
    await world.bot.store.set_channel_policy(policy)
    world.mark()
    return await ask_command(world, person)


async def ask_in_secret(world: World, person: str) -> str:
    world.mark()
    return await ask_command(world, person, channel=SECRET)


async def from_another_workspace(world: World, person: str) -> str:
    world.mark()
    body = command_body(
        text=f"ask {STUDY} {QUESTION}",
        team=OTHER_TEAM,
        channel=RESEARCH,
        user=person,
        response_url=world.bot.slack.response_url("eve"),
        trigger="eve.1",
    )
    assert (await world.bot.send(body)).status == 200
    return text_of(await world.bot.reply())


async def ask_in_someones_dm(world: World, person: str) -> str:
    """A command whose channel is Ada's DM with the bot (only Ada can type there)."""
    world.mark()
    return await ask_command(world, person, channel=f"D{ADA}")


async def secret_plan(world: World) -> tuple[str, list[dict[str, Any]]]:
    """Ada's plan in #secret-launch, open for approval: its message ts and blocks."""
    bot = world.bot
    bot.minds_api.set("POST", PREVIEW, ok(plan_data(confirmationQuestions=[])))
    await bot.command(f"plan {STUDY} Which launch message works best?", user=ADA, channel=SECRET)
    run = await bot.tracker.next_tracked(RunKind.PLAN)
    await bot.tick()
    updates = [c for c in bot.slack.calls_to("chat.update") if c["ts"] == run.thread_ts and "Research plan" in str(c)]
    blocks = updates[-1]["blocks"]
    return updates[-1]["ts"], json.loads(blocks) if isinstance(blocks, str) else blocks


def button(blocks: list[dict[str, Any]], text: str) -> dict[str, Any]:
    for block in blocks:
        for element in block.get("elements") or []:
            if element.get("type") == "button" and element["text"]["text"] == text:
                return element
    raise AssertionError(f"no button {text!r}")


async def approve_secret_plan(world: World, person: str) -> str:
    ts, blocks = await secret_plan(world)
    world.mark()
    approve = button(blocks, "Approve & run")
    bot = world.bot
    await bot.click(approve["action_id"], approve["value"], user=person, message_ts=ts, blocks=blocks, channel=SECRET)
    if person in (ADA, CARA):
        await bot.tracker.next_tracked(RunKind.RESEARCH)
        frozen = bot.slack.calls_to("chat.update")[-1]
        return json.dumps(frozen["blocks"], ensure_ascii=False)
    return await bot.refusal()


async def home_plan_into_secret(world: World, person: str) -> str:
    """The App Home's Plan research dialog, with #secret-launch picked as the channel."""
    world.mark()
    values = {
        "channel": {"value": {"type": "conversations_select", "selected_conversation": SECRET}},
        "study": {"value": {"type": "plain_text_input", "value": STUDY}},
        "request": {"value": {"type": "plain_text_input", "value": "Which tagline lands with Gen Z?"}},
    }
    world.bot.minds_api.set("POST", PREVIEW, ok(plan_data()))
    view = {"callback_id": VIEW_PLAN_REQUEST, "private_metadata": json.dumps({"u": person})}
    ack = await world.bot.submit(view, values, user=person)
    if ack.body:
        return str(json.loads(ack.body)["errors"]["channel"])
    (posted,) = await world.bot.slack.wait_for("chat.postMessage", lambda c: c.get("channel") == SECRET)
    return str(posted["text"])


async def digest_dialog_into_secret(world: World, person: str) -> str:
    world.mark()
    values = {
        "kind": {"value": {"selected_option": {"value": "daily"}}},
        "time": {"value": {"selected_time": "09:00"}},
        "tz": {"value": {"value": "UTC"}},
        "channel": {"value": {"selected_conversation": SECRET}},
    }
    await world.bot.submit({"callback_id": ADD_DIGEST_VIEW}, values, user=person)
    (note,) = await world.bot.slack.wait_for("chat.postMessage", lambda c: c.get("channel") == person)
    world.posts_before += 1  # the private note in the person's DM is what they read, not a post in a channel
    return str(note["text"])


async def secret_digest_now(world: World, person: str) -> str:
    digest = Digest(
        digest_id="dg-secret1",
        team_id=TEAM,
        channel_id=SECRET,
        schedule_kind=ScheduleKind.DAILY,
        spec="09:00",
        tz="UTC",
        created_by=ADA,
    )
    await world.bot.store.save_digest(digest)
    world.mark()
    await world.bot.command("digest now dg-secret1", user=person)
    if person == CARA:
        return text_of(await world.bot.reply_containing("Digest `dg-secret1`"))
    return text_of(await world.bot.reply())


def step(person: str, **inputs: Any) -> dict[str, Any]:
    return {
        "type": "function_executed",
        "function": {"id": "Fn1", "callback_id": "minds_ask_question", "app_id": "A1"},
        "inputs": {"study": STUDY, "question": QUESTION, "channel": RESEARCH}
        | inputs
        | {"run_by": {"id": person, "secret": "c2xhY2stbWFkZS1pdA"}},
        "function_execution_id": "Fx1",
        "workflow_execution_id": "Wx1",
        "event_ts": "1733150000.000001",
        "bot_access_token": "xwfp-step-token",
    }


async def step_outcome(world: World) -> str:
    failed = await world.bot.slack.wait_for("functions.completeError", lambda c: c["function_execution_id"] == "Fx1")
    return str(failed[0]["error"])


async def step_refused_by_policy(world: World, person: str) -> str:
    policy = ChannelPolicy(team_id=TEAM, channel_id=RESEARCH, action="ask", mode=PolicyMode.REFUSE, set_by=CARA)
    await world.bot.store.set_channel_policy(policy)
    world.mark()
    await world.bot.event(step(person))
    return await step_outcome(world)


async def step_into_secret(world: World, person: str) -> str:
    world.mark()
    await world.bot.event(step(person, channel=SECRET))
    if person == ADA:
        (parent,) = await world.bot.slack.wait_for("chat.postMessage", lambda c: c.get("channel") == SECRET)
        return str(parent["text"])
    return await step_outcome(world)


async def step_naming_someone_else(world: World, person: str) -> str:
    """Inputs that name Ada (an old "Asked by" mapped to her) never make her the asker."""
    world.mark()
    await world.bot.event(step(person, asked_by=ADA, requested_by=ADA))
    (parent,) = await world.bot.slack.wait_for("chat.postMessage", lambda c: c.get("channel") == RESEARCH)
    return str(parent["text"])


async def link_in_secret(world: World, person: str) -> str:
    world.mark()
    link = f"https://getminds.ai/studies/{STUDY}"
    event = {
        "type": "link_shared",
        "channel": SECRET,
        "user": person,
        "message_ts": "1.1",
        "unfurl_id": "U1",
        "source": "conversations_history",
        "links": [{"domain": "getminds.ai", "url": link}],
    }
    await world.bot.event(event, event_id=f"EvLink{person}")
    await world.bot.slack.wait_for("conversations.members", lambda c: c.get("channel") == SECRET)
    if person == ADA:
        (unfurled,) = await world.bot.slack.wait_for("chat.unfurl")
        return json.dumps(unfurled, ensure_ascii=False)
    return ""


async def ask_audience_refused_by_policy(world: World, person: str) -> str:
    await refuse_in_research(world, "ask")
    await world.bot.command(f"ask audience Parents {QUESTION}", user=person)
    return await world.bot.refusal()


async def card_ask_refused_by_policy(world: World, person: str) -> str:
    """The Audience card's Ask dialog, submitted."""
    await refuse_in_research(world, "ask")
    view = ask_audience_modal(audience_id=samples.uid(2001), audience_name="Parents", channel_id=RESEARCH).to_dict()
    await world.bot.submit(view, {"question": {"value": {"type": "plain_text_input", "value": QUESTION}}}, user=person)
    (note,) = await world.bot.slack.wait_for("chat.postEphemeral", lambda c: c.get("user") == person)
    return str(note["text"])


async def duplicate_audience_refused_by_policy(world: World, person: str) -> str:
    await refuse_in_research(world, "duplicate")
    await world.bot.command("duplicate audience Parents", user=person)
    return await world.bot.refusal()


async def chat_refused_by_policy(world: World, person: str) -> str:
    await refuse_in_research(world, "chat")
    await world.bot.command(f"chat {samples.uid(3001)}", user=person)
    return await world.bot.refusal()


POLICY_REFUSES_BUILD = (
    "This channel's spend policy refuses this: Build an Audience (`/minds audience new`). See `/minds policy`. "
    "Workspace admins and this channel's approvers (`/minds approvers list`) can change it."
)
NOT_POSTED_IN_SECRET = (
    f"You are not a member of <#{SECRET}>, so the bot will not post there for you. Pick a channel you are in."
)
MINDS_ON_PAGE = json.dumps({"m": [[samples.uid(3001), "Ana"], [samples.uid(3002), "Ben"]]})


async def new_audience_dialog(world: World, person: str) -> str:
    """``/minds audience new`` in #research, whose policy refuses builds: the refusal, and no dialog."""
    await refuse_in_research(world, "audience_build")
    await world.bot.command("audience new", user=person)
    return await world.bot.refusal()


async def new_audience_dialog_allowed(world: World, person: str) -> str:
    world.mark()
    await world.bot.command("audience new", user=person)
    (opened,) = await world.bot.slack.wait_for("views.open")
    return json.dumps(opened["view"], ensure_ascii=False)


async def audience_from_minds_in_secret(world: World, person: str) -> str:
    """**New Audience from these Minds** on a /minds minds page in #secret-launch."""
    world.mark()
    await world.bot.click("audience_from_minds", MINDS_ON_PAGE, user=person, channel=SECRET)
    if person == ADA:
        (opened,) = await world.bot.slack.wait_for("views.open")
        return json.dumps(opened["view"], ensure_ascii=False)
    return await world.bot.refusal()


async def refuse_in_research(world: World, action: str) -> None:
    policy = ChannelPolicy(team_id=TEAM, channel_id=RESEARCH, action=action, mode=PolicyMode.REFUSE, set_by=CARA)
    await world.bot.store.set_channel_policy(policy)
    world.mark()


async def decide_held_ask(world: World, person: str) -> str:
    """Ada's question in #research, held by the channel's policy; ``person`` presses Approve on its line."""
    bot = world.bot
    policy = ChannelPolicy(team_id=TEAM, channel_id=RESEARCH, action="ask", mode=PolicyMode.APPROVE, set_by=CARA)
    await bot.store.set_channel_policy(policy)
    await bot.command(f"ask {STUDY} {QUESTION}", user=ADA)
    (line,) = await bot.slack.wait_for("chat.postMessage", lambda c: "needs an approver" in c.get("text", ""))
    await bot.reply()  # Ada is told privately that her question waits
    world.mark()
    await bot.click("spend_hold_approve", buttons(line)["spend_hold_approve"]["value"], user=person)
    if person == DAN:
        (decided,) = await bot.slack.wait_for("chat.update", lambda c: "approved by" in c.get("text", ""))
        return str(decided["text"])
    return await bot.refusal()


def concept_dialog(channel: str, concept: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The plan dialog opened in ``channel``, with a message link as its concept to test."""
    view = {"callback_id": VIEW_PLAN_REQUEST, "private_metadata": json.dumps({"c": channel, "s": STUDY, "id": True})}
    values = {
        "request": {"value": {"type": "plain_text_input", "value": "Does the launch visual make people curious?"}},
        "stimulus": {"value": {"type": "plain_text_input", "value": concept}},
    }
    return view, values


async def concept_from_secret(world: World, person: str, *, plan_in: str) -> str:
    """A plan dialog whose concept is a message with a file in #secret-launch; what the field or channel says."""
    bot = world.bot
    shared = bot.slack.share_file("F0PHOENIX", "project-phoenix-confidential.png", PNG)
    message = {"type": "message", "ts": "1733140000.000100", "user": ADA, "files": [shared], "text": "key visual"}
    bot.slack.replies["conversations.replies"] = {"ok": True, "messages": [message], "has_more": False}
    bot.minds_api.set("POST", PREVIEW, ok(plan_data()))
    bot.services.stimuli.base_url = "https://minds-bot.example.com"  # where Minds would fetch an allowed file
    world.mark()
    link = f"{bot.slack.base_url}/archives/{SECRET}/p1733140000000100"
    ack = await bot.submit(*concept_dialog(plan_in, link), user=person)
    if ack.body:
        assert not bot.slack.downloads, "a refused link downloads nothing"
        return str(json.loads(ack.body)["errors"]["stimulus"])
    (posted,) = await bot.slack.wait_for("chat.postMessage", lambda c: c.get("channel") == plan_in)
    return str(posted["text"])


async def concept_from_secret_in_research(world: World, person: str) -> str:
    return await concept_from_secret(world, person, plan_in=RESEARCH)


async def concept_from_secret_in_secret(world: World, person: str) -> str:
    return await concept_from_secret(world, person, plan_in=SECRET)


# --- row 3: drafts ------------------------------------------------------------------------------------------------

SECRET_DRAFT = drafts.a_draft(drafts.DRAFT_ID, drafts.state(channel=SECRET, requester=ADA), "Project Phoenix: plan")


async def list_drafts(world: World, person: str) -> str:
    world.bot.minds_api.set("GET", "/study-drafts", raw({"data": [SECRET_DRAFT]}))
    world.mark()
    await world.bot.command("drafts", user=person)
    return text_of(await world.bot.reply())


async def resume_secret_draft(world: World, person: str) -> str:
    bot = world.bot
    bot.minds_api.set("GET", "/study-drafts", raw({"data": [SECRET_DRAFT]}))
    bot.minds_api.set("POST", drafts.PREVIEW, ok(plan_data(confirmationQuestions=[])))
    world.mark()
    await bot.click(f"draft_resume:{drafts.DRAFT_ID}", drafts.DRAFT_ID, ephemeral=True, user=person)
    if person == CARA:
        return text_of(await bot.reply_containing("Reopening"))
    return await bot.refusal()


async def delete_secret_draft(world: World, person: str) -> str:
    bot = world.bot
    bot.minds_api.set("GET", "/study-drafts", raw({"data": [SECRET_DRAFT]}))
    bot.minds_api.set("DELETE", f"/study-drafts/{drafts.DRAFT_ID}", raw(None, status=204))
    world.mark()
    await bot.click(f"draft_delete:{drafts.DRAFT_ID}", f"{drafts.DRAFT_ID}:1", ephemeral=True, user=person)
    if person == ADA:
        return text_of(await bot.reply())
    return await bot.refusal()


# --- rows 4 and 5: runs, compare, the App Home, Notify me ---------------------------------------------------------


async def with_a_secret_run(world: World) -> None:
    """A Study with a question Ada asked in #secret-launch and one asked in #research, both answered."""
    api = world.bot.minds_api
    runs = [runs_tests.agent_run(r) for r in (runs_tests.R_SECRET, runs_tests.R_RESEARCH)]
    api.set("GET", f"/studies/{STUDY}/runs", raw({"data": runs}))
    api.set("GET", f"/studies/{STUDY}", ok(samples.study_detail("Coffee habits")))
    for run in runs:
        answers = {"messageId": run["messageId"], "outputData": samples.output_data()}
        api.set("GET", f"/studies/{STUDY}/messages/{run['messageId']}/answers", raw(answers))
    await runs_tests.posted_in(world.bot, runs_tests.R_SECRET, SECRET)
    await runs_tests.posted_in(world.bot, runs_tests.R_RESEARCH, RESEARCH)
    world.mark()


async def list_runs(world: World, person: str) -> str:
    await with_a_secret_run(world)
    await world.bot.command(f"runs {STUDY}", user=person)
    return text_of(await world.bot.reply_containing("Recent runs"))


async def compare_secret_run(world: World, person: str, *, where: str) -> str:
    await with_a_secret_run(world)
    await world.bot.command(f"compare {STUDY} 1 2", user=person, channel=where)
    if person == ADA and where == SECRET:
        (posted,) = await world.bot.slack.wait_for("chat.postMessage", lambda c: "compared" in text_of(c))
        return text_of(posted)
    return text_of(await world.bot.reply())


async def compare_secret_run_in_research(world: World, person: str) -> str:
    return await compare_secret_run(world, person, where=RESEARCH)


async def compare_secret_run_in_secret(world: World, person: str) -> str:
    return await compare_secret_run(world, person, where=SECRET)


async def home_with_a_secret_result(world: World, person: str) -> str:
    await runs_tests.ended_in(world.bot, "run-ada", SECRET, requester=ADA, study="Phoenix launch")
    world.mark()
    await world.bot.event({"type": "app_home_opened", "user": person, "tab": "home"}, event_id=f"Ev-{person}")
    call = await world.bot.slack.next_call("views.publish")
    return json.dumps(call["view"], ensure_ascii=False)


async def notify_me_in_secret(world: World, person: str) -> str:
    bot = world.bot
    await runs_tests.live_run_in(bot, SECRET)
    world.mark()
    await bot.click(NOTIFY_ME_ACTION, "run-live", user=person, channel=SECRET, message_ts="5.5")
    said = await bot.refusal()
    watching = await bot.store.run_watchers(team_id=TEAM, run_id="run-live")
    assert (person in watching) == (person == ADA)
    return said


# --- row 8: the person's share of the Minds budget, whatever the way in --------------------------------------------


async def share_used(world: World, person: str) -> None:
    """``person`` has made their whole share of this minute's Minds calls already."""
    limiter = (await world.bot.services.minds.client_for(TEAM)).limiter
    assert limiter is not None
    mine = caller.set(f"{TEAM}:{person}")
    try:
        for _ in range(limiter.caller_limit):
            await limiter.acquire()
    finally:
        caller.reset(mine)
    world.mark()


async def ask_beyond_share(world: World, person: str) -> str:
    await share_used(world, BEN)
    return await ask_command(world, person)


async def step_beyond_share(world: World, person: str) -> str:
    await share_used(world, BEN)
    await world.bot.event(step(person))
    if person == ADA:
        (parent,) = await world.bot.slack.wait_for("chat.postMessage", lambda c: c.get("channel") == RESEARCH)
        return str(parent["text"])
    return await step_outcome(world)


# --- row 9: the store unreachable: every way in is answered, nothing is done -----------------------------------------


async def store_down(world: World) -> None:
    switchable(world.bot.store).down = True
    world.mark()


async def command_store_down(world: World, person: str) -> str:
    await store_down(world)
    answer = await world.bot.command(f"ask {STUDY} {QUESTION}", user=person)
    return str(json.loads(answer.body)["text"])


async def button_store_down(world: World, person: str) -> str:
    await store_down(world)
    await world.bot.click("plan_approve", json.dumps({"plan": "1.000"}), user=person)
    return await world.bot.refusal()


async def dialog_store_down(world: World, person: str) -> str:
    await store_down(world)
    ack = await world.bot.submit(*concept_dialog(RESEARCH, "shoe.png"), user=person)
    return ack.body  # the dialog, left open, says it (on its first input, or replaced by one that says it)


async def step_store_down(world: World, person: str) -> str:
    await store_down(world)
    await world.bot.event(step(person))
    return await step_outcome(world)


# --- rows 10 to 12: bad input is said, never a 500; a refused request downloads nothing ------------------------------


async def concept_not_a_url(world: World, person: str) -> str:
    world.mark()
    typed = "https://[abc/archives/C0001/p1733140000000100"
    ack = await world.bot.submit(*concept_dialog(RESEARCH, typed), user=person)
    assert ack.status == 200, "a field error, never a 500"
    return str(json.loads(ack.body)["errors"]["stimulus"])


async def unknown_step(world: World, person: str) -> str:
    world.mark()
    event = step(person)
    event["function"]["callback_id"] = "minds_retired_step"
    assert (await world.bot.event(event)).status == 200, "acknowledged, never Bolt's 404"
    return await step_outcome(world)


async def ask_about_a_file(world: World, person: str) -> str:
    """The "Ask Minds about this" shortcut on a message with a file in #research, its dialog submitted. Ben's cell
    has asking refused in #research: his ask downloads nothing; Ada's is asked with the file."""
    bot = world.bot
    if person == BEN:
        await refuse_in_research(world, "ask")
    bot.services.stimuli.base_url = "https://minds-bot.example.com"
    shared = bot.slack.share_file("F0SHOE", "shoe.png", PNG)
    message = {"type": "message", "ts": "1733140000.000500", "user": ADA, "text": QUESTION, "files": [shared]}
    world.mark()
    await bot.interaction(
        {
            "type": "message_action",
            "callback_id": "minds_ask_about_message",
            "trigger_id": f"shortcut.{person}",
            "user": {"id": bot.acts(person), "team_id": TEAM},
            "channel": {"id": RESEARCH},
            "message": message,
            "response_url": bot.slack.response_url("shortcut"),
        }
    )
    (opened,) = await bot.slack.wait_for("views.open")
    view = json.loads(opened["view"]) if isinstance(opened["view"], str) else opened["view"]
    picked = {"type": "external_select", "selected_option": {"value": STUDY}}
    typed = {"type": "plain_text_input", "value": QUESTION}
    values = {STUDY_BLOCK: {STUDY_OPTIONS_ACTION: picked}, TEXT_BLOCK: {TEXT_ACTION: typed}}
    assert (await bot.submit(view, values, user=person)).status == 200
    if person == ADA:
        (parent,) = await bot.slack.wait_for("chat.postMessage", lambda c: c.get("channel") == RESEARCH)
        assert bot.slack.downloads, "allowed: the file went to Minds"
        return str(parent["text"])
    (refused,) = await bot.slack.wait_for("chat.postEphemeral", lambda c: c.get("user") == person)
    assert bot.slack.downloads == [], "refused: nothing downloaded"
    return str(refused["text"])


# --- issue 37: a Mind's card and the Minds created from Slack -------------------------------------------------------

MIND = samples.uid(3001)
ONLY_MANAGERS = "Only a workspace admin or the person who installed Minds can do that."
MIND_VALUE = json.dumps({"m": MIND, "n": "Nora Nights"})


def with_a_mind(world: World) -> None:
    api = world.bot.minds_api
    detail = {"id": MIND, "name": "Nora Nights", "description": "A night nurse", "readyToChat": True}
    api.on("GET", f"/minds/{MIND}", ok(detail | {"knowledgeItemCount": 1}))
    api.on("GET", f"/minds/{MIND}/training", raw({"status": "completed", "readyToChat": True}))
    api.on("GET", f"/minds/{MIND}/knowledge", raw({"success": True, "data": {"items": [], "total": 0}}))
    api.on("DELETE", f"/minds/{MIND}", raw(None, status=204))
    world.mark()


async def opened_view(world: World) -> str:
    (opened,) = await world.bot.slack.wait_for("views.open")
    return json.dumps(opened["view"], ensure_ascii=False) if not isinstance(opened["view"], str) else opened["view"]


async def new_mind(world: World, person: str) -> str:
    """``/minds mind new``: the create dialog opens only for someone who acts for the workspace's Minds account."""
    world.mark()
    await world.bot.command("mind new", user=person)
    if person == DAN:
        return await opened_view(world)
    return await world.bot.refusal()


async def mind_card_in_secret(world: World, person: str) -> str:
    with_a_mind(world)
    await world.bot.command(f"mind {MIND}", user=person, channel=SECRET)
    if person == ADA:
        return text_of(await world.bot.reply_containing("Nora Nights"))
    return await world.bot.refusal()


async def delete_mind_button(world: World, person: str) -> str:
    """The card's Delete: the confirmation naming the Mind opens only for an admin or the installer."""
    with_a_mind(world)
    await world.bot.click("mind_delete", MIND_VALUE, user=person, ephemeral=True)
    if person == DAN:
        return await opened_view(world)
    return await world.bot.refusal()


async def delete_mind_confirmed(world: World, person: str) -> str:
    """The confirmation submitted: the gate is asked again from the submitter, on the server."""
    with_a_mind(world)
    metadata = json.dumps({"m": MIND, "n": "Nora Nights", "c": RESEARCH})
    await world.bot.submit({"callback_id": "mind_delete_confirm", "private_metadata": metadata}, {}, user=person)
    (note,) = await world.bot.slack.wait_for("chat.postEphemeral", lambda c: c.get("user") == person)
    deletes = [r for r in world.bot.minds_api.sent if r.method == "DELETE"]
    assert len(deletes) == (1 if person == DAN else 0)
    if person == DAN:
        world.writes_before += 1  # the delete the admin confirmed is what this cell allows
    return str(note["text"])


async def mind_menu(world: World, person: str, verb: str) -> None:
    """The card's ⋯ menu, ``verb`` chosen (an overflow's selection, not a button's value)."""
    payload = button_click(
        team=TEAM,
        channel=RESEARCH,
        user=world.bot.acts(person),
        action_id="mind_more",
        value=None,
        action_ts="1733150000.000001",
        message_ts="1.000",
        response_url=world.bot.slack.response_url("menu"),
        trigger="menu.1",
        block_id="b",
        blocks=None,
        ephemeral=True,
        state=None,
    )
    payload["actions"][0] = {
        "type": "overflow",
        "action_id": "mind_more",
        "block_id": "b",
        "selected_option": {"text": {"type": "plain_text", "text": verb}, "value": f"{verb}:{MIND}"},
        "action_ts": "1733150000.000001",
    }
    await world.bot.interaction(payload)


async def mind_portrait_menu(world: World, person: str) -> str:
    """Regenerate portrait…: the dialog opens only for someone who acts for the workspace's Minds account."""
    with_a_mind(world)
    await mind_menu(world, person, "portrait")
    if person == DAN:
        return await opened_view(world)
    return await world.bot.refusal()


async def mind_patterns_menu(world: World, person: str) -> str:
    """Patterns: a read, for anyone who may see the card in the channel."""
    with_a_mind(world)
    world.bot.minds_api.on("GET", f"/minds/{MIND}/patterns", raw({"data": []}))
    await mind_menu(world, person, "patterns")
    return text_of(await world.bot.reply_containing("Nora Nights"))


async def mind_portrait_confirmed(world: World, person: str) -> str:
    """The portrait dialog submitted: the gate is asked again from the submitter; Minds is asked only if allowed."""
    with_a_mind(world)
    image = {"mindId": MIND, "name": "Nora Nights", "enqueued": True}
    world.bot.minds_api.on("POST", f"/minds/{MIND}/regenerate-image", raw({"success": True, "data": image}))
    metadata = json.dumps({"m": MIND, "n": "Nora Nights", "c": RESEARCH})
    await world.bot.submit({"callback_id": "mind_portrait_modal", "private_metadata": metadata}, {}, user=person)
    (note,) = await world.bot.slack.wait_for("chat.postEphemeral", lambda c: c.get("user") == person)
    asked = [r for r in world.bot.minds_api.sent if r.method == "POST"]
    assert len(asked) == (1 if person == DAN else 0)
    if person == DAN:
        world.writes_before += 1  # the portrait the admin asked for is what this cell allows
    return str(note["text"])


OTHER_MIND = samples.uid(3002)
SEVERAL = json.dumps({"m": [[MIND, "Nora Nights"], [OTHER_MIND, "Nora Days"]]})


async def delete_several_button(world: World, person: str) -> str:
    """**Delete several…** on a /minds minds page: the pick opens only for someone who acts for the account."""
    world.mark()
    await world.bot.click("minds_delete_many", SEVERAL, user=person, ephemeral=True)
    if person == DAN:
        return await opened_view(world)
    return await world.bot.refusal()


async def delete_several_confirmed(world: World, person: str) -> str:
    """The confirmation naming each Mind, submitted: the gate is asked again from the submitter, on the server."""
    results = [{"mindId": MIND, "deleted": True}, {"mindId": OTHER_MIND, "deleted": True}]
    world.bot.minds_api.on("DELETE", "/minds", raw({"success": True, "data": {"results": results}}))
    world.mark()
    metadata = json.dumps({"c": RESEARCH, "m": [[MIND, "Nora Nights"], [OTHER_MIND, "Nora Days"]]})
    await world.bot.submit({"callback_id": "minds_delete_confirm", "private_metadata": metadata}, {}, user=person)
    (note,) = await world.bot.slack.wait_for("chat.postEphemeral", lambda c: c.get("user") == person)
    deletes = [r for r in world.bot.minds_api.sent if r.method == "DELETE"]
    assert len(deletes) == (1 if person == DAN else 0)
    if person == DAN:
        world.writes_before += 1  # the deletes the admin confirmed are what this cell allows
    return str(note["text"])


# --- managing an Audience from its card: seeing for the channel's members, changing for its deciders -------------

AUDIENCE = samples.uid(2001)
NOT_AUDIENCE_DECIDER = (
    "Only this channel's approvers (`/minds approvers list`) or a workspace admin can do that with this Audience."
)


def serve_audience(world: World) -> str:
    """Parents (12 Minds, owned by the account) and its delete; returns the card's button value."""
    detail = {**samples.audience(1, "Parents", 12), "isPublic": False, "isLinkSharingEnabled": False}
    world.bot.minds_api.set("GET", f"/audiences/{AUDIENCE}", ok(detail))
    world.bot.minds_api.set("DELETE", f"/audiences/{AUDIENCE}", raw(None, status=204))
    world.bot.minds_api.set("GET", f"/audiences/{AUDIENCE}/formations", raw({"data": []}))
    return json.dumps({"a": AUDIENCE, "n": "Parents"})


async def delete_audience_button(world: World, person: str) -> str:
    """The card's Delete: the dialog that names the Audience and its members, or the gate's refusal."""
    value = serve_audience(world)
    world.mark()
    await world.bot.click("audience_delete", value, user=person, ephemeral=True)
    if person == DAN:
        opened = await world.bot.slack.next_call("views.open")
        view = json.loads(opened["view"]) if isinstance(opened["view"], str) else opened["view"]
        return json.dumps(view, ensure_ascii=False)
    return await world.bot.refusal()


async def delete_audience_dialog(world: World, person: str) -> str:
    """The delete dialog submitted (a stale or forwarded dialog for a refused person): the gate asks again."""
    serve_audience(world)
    world.mark()
    view = {
        "callback_id": "audience_delete_confirm",
        "private_metadata": json.dumps({"a": AUDIENCE, "c": RESEARCH, "m": 12}),
    }
    await world.bot.submit(view, {}, user=person)
    (note,) = await world.bot.slack.wait_for("chat.postEphemeral", lambda c: c.get("user") == person)
    return str(note["text"])


async def formations_button(world: World, person: str, *, channel: str = RESEARCH) -> str:
    value = serve_audience(world)
    world.mark()
    await world.bot.click("audience_formations", value, user=person, ephemeral=True, channel=channel)
    if person == BEN and channel == RESEARCH:
        return text_of(await world.bot.reply())
    return await world.bot.refusal()


# --- issue 37: deleting a Study — a workspace admin (or who installed Minds), confirmed in a dialog -------------------

ONLY_ADMINS = "Only a workspace admin or the person who installed Minds can do that."


async def delete_study(world: World, person: str) -> str:
    """``/minds study delete`` as ``person``: the refusal, or the dialog submitted and what it then says."""
    bot = world.bot
    bot.minds_api.on("DELETE", f"/studies/{STUDY}", raw(None, status=204))
    world.mark()
    await bot.command(f"study delete {STUDY}", user=person)
    if person != DAN:
        return text_of(await bot.reply())
    (opened,) = await bot.slack.wait_for("views.open")
    view = json.loads(opened["view"]) if isinstance(opened["view"], str) else opened["view"]
    assert [r.method for r in world.writes()][world.writes_before :] == [], "nothing is deleted before the dialog"
    await bot.submit(view, {}, user=person)
    (said,) = await bot.slack.wait_for("chat.postEphemeral", lambda c: c.get("user") == person)
    assert [f"{r.method} {r.path}" for r in world.writes()][world.writes_before :] == [f"DELETE /studies/{STUDY}"]
    return json.dumps(view, ensure_ascii=False) + str(said["text"])


async def delete_dialog_submitted_by_someone_else(world: World, person: str) -> str:
    """The Study delete dialog Dan opened, its submission arriving as ``person``: refused, nothing deleted."""
    bot = world.bot
    bot.minds_api.on("DELETE", f"/studies/{STUDY}", raw(None, status=204))
    await bot.command(f"study delete {STUDY}", user=DAN)
    (opened,) = await bot.slack.wait_for("views.open")
    view = json.loads(opened["view"]) if isinstance(opened["view"], str) else opened["view"]
    world.mark()
    await bot.submit(view, {}, user=person)
    (said,) = await bot.slack.wait_for("chat.postEphemeral", lambda c: c.get("user") == person)
    return str(said["text"])


# --- issue 37: a Study template read by anyone, changed or deleted by an admin, in dialogs ---------------------------

TEMPLATE_ID = "8b1b2c3d-0000-4000-8000-000000000001"


def template_data(revision: int = 3, name: str = "Concept test") -> dict[str, Any]:
    return {
        "id": TEMPLATE_ID,
        "name": name,
        "revision": revision,
        "isSharedWithTeam": False,
        "canManage": True,
        "canShareWithTeam": False,
        "createdAt": "2026-01-01T00:00:00Z",
        "updatedAt": "2026-01-01T00:00:00Z",
        "configuration": {
            "version": 1,
            "goal": "concept",
            "studyLocale": "en",
            "methodId": "survey",
            "questions": [{"text": "First reaction?", "response": {"type": "qualitative"}}],
        },
    }


async def opened_dialog(world: World, action_id: str, person: str) -> dict[str, Any]:
    """Press a list's button as ``person``: the dialog as it reads once Minds answered."""
    await world.bot.click(action_id, TEMPLATE_ID, user=person, ephemeral=True)
    (updated,) = await world.bot.slack.wait_for("views.update")
    view = updated["view"]
    return json.loads(view) if isinstance(view, str) else view


async def edit_template(world: World, person: str) -> str:
    """Open a template from ``/minds templates``: Ben reads it with who may change it; Dan's dialog is a form, and
    submitting it saves the new name with the revision he saw."""
    api = world.bot.minds_api
    api.on("GET", f"/study-templates/{TEMPLATE_ID}", ok(template_data()))
    api.on("PATCH", f"/study-templates/{TEMPLATE_ID}", ok(template_data(revision=4, name="Concept test v2")))
    world.mark()
    view = await opened_dialog(world, f"template_open:{TEMPLATE_ID}", person)
    if person != DAN:
        assert "submit" not in view and "First reaction?" in json.dumps(view)
        return json.dumps(view, ensure_ascii=False)
    values = {"name": {"value": {"type": "plain_text_input", "value": "Concept test v2"}}}
    values |= {"question_1": {"value": {"type": "plain_text_input", "value": "First reaction?"}}}
    await world.bot.submit(view, values, user=person)
    (said,) = await world.bot.slack.wait_for("chat.postEphemeral", lambda c: c.get("user") == person)
    (patched,) = api.to("PATCH", f"/study-templates/{TEMPLATE_ID}")
    assert patched.json() == {"expectedRevision": 3, "name": "Concept test v2"}, "only what changed, at revision 3"
    return str(said["text"])


async def delete_template(world: World, person: str) -> str:
    """Delete… on a template: Ben is told who may; Dan confirms in a dialog naming it, then Minds deletes it."""
    api = world.bot.minds_api
    api.on("GET", f"/study-templates/{TEMPLATE_ID}", ok(template_data()))
    api.on("DELETE", f"/study-templates/{TEMPLATE_ID}", raw({"success": True}))
    world.mark()
    view = await opened_dialog(world, f"template_delete:{TEMPLATE_ID}", person)
    if person != DAN:
        assert "submit" not in view
        return json.dumps(view, ensure_ascii=False)
    assert "Delete the template *Concept test*?" in json.dumps(view)
    await world.bot.submit(view, {}, user=person)
    (said,) = await world.bot.slack.wait_for("chat.postEphemeral", lambda c: c.get("user") == person)
    assert [f"{r.method} {r.path}" for r in world.writes()] == [f"DELETE /study-templates/{TEMPLATE_ID}"]
    return str(said["text"])


# --- issue 37: one question's results from the Study card: only where its run belongs ------------------------------

SECRET_RESULT_HIDDEN = (
    f"That belongs to <#{SECRET}>, a channel you are not in, so it is not shown to you. Join the channel to see it."
)


async def secret_question_results(world: World, person: str) -> str:
    """The Study card's Results on a question Ada asked in #secret-launch, pressed in #research."""
    await with_a_secret_run(world)
    value = encode_value({"s": STUDY, "m": f"m-{runs_tests.R_SECRET}"})
    await world.bot.click("study_result", value, user=person, ephemeral=True)
    return text_of(await world.bot.reply())


# --- issue 37: the Ask dialog with only some of the Study's Audiences: the same gate and policy -----------------------


async def ask_some_audiences(world: World, person: str) -> str:
    """The card's Ask dialog with only "Commuters" left in. Ben's cell has asking refused in #research."""
    bot = world.bot
    if person == BEN:
        await refuse_in_research(world, "ask")
    world.mark()
    metadata = json.dumps({"purpose": "ask", "s": STUDY, "a": ["a1", "a2"]})
    values = {
        STUDY_BLOCK: {STUDY_OPTIONS_ACTION: {"type": "external_select", "selected_option": {"value": STUDY}}},
        "question": {"question_input": {"type": "plain_text_input", "value": QUESTION}},
        "audiences": {"audiences_select": {"type": "multi_static_select", "selected_options": [{"value": "a1"}]}},
    }
    await bot.submit({"callback_id": "minds_pick_study", "private_metadata": metadata}, values, user=person)
    if person == ADA:
        await bot.tracker.next_tracked(RunKind.DIRECT)  # tracked once Minds accepted the question
        posted = await bot.slack.wait_for("chat.postMessage", lambda c: c.get("channel") == RESEARCH)
        parent = next(c for c in posted if not c.get("thread_ts"))
        (sent,) = bot.minds_api.to("POST", DIRECT_RUNS)
        assert sent.json()["audienceIds"] == ["a1"], "only the Audience left in"
        return str(parent["text"])
    return text_of(await bot.reply())


# --- issue 37: deleting a chat — its starter, the channel's approvers or an admin, in its channel ------------------

CHAT_TS = "1733140000.000900"
CHAT_ID = "c4a1b2c3-0000-4000-8000-000000000009"
NOT_YOUR_CHAT = (
    f"Only <@{ADA}>, this channel's approvers (`/minds approvers list`) or a workspace admin can do that with this "
    "chat."
)


async def delete_adas_chat(world: World, person: str) -> str:
    """Delete chat on the head of Ada's chat thread in #research, pressed by ``person``."""
    bot = world.bot
    thread = ChatThread(
        team_id=TEAM,
        channel_id=RESEARCH,
        thread_ts=CHAT_TS,
        chat_id=CHAT_ID,
        mind_id="m1,m2",
        mind_name="Lena and Tom",
        started_by=ADA,
        last_activity_at=bot.clock(),
    )
    await bot.store.save_chat_thread(thread)
    bot.minds_api.on("DELETE", f"/chats/{CHAT_ID}", raw(None, status=204))
    world.mark()
    await bot.click("chat_delete", None, user=person, message_ts=CHAT_TS)
    if person == DAN:
        (said,) = await bot.slack.wait_for("chat.postMessage", lambda c: c.get("thread_ts") == CHAT_TS)
        assert [f"{r.method} {r.path}" for r in world.writes()] == [f"DELETE /chats/{CHAT_ID}"]
        return str(said["text"])
    return await bot.refusal()


# --- the matrix -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Cell:
    way: str
    action: str
    person: str
    allowed: bool
    sees: str  # what the person reads (contained in it), "" when nothing is shown to anyone
    does: Callable[[World, str], Awaitable[str]]
    hidden: str = ""  # what must not be in what the person reads

    @property
    def id(self) -> str:
        who = {ADA: "ada-member", BEN: "ben-outsider", CARA: "cara-approver", DAN: "dan-admin", EVE: "eve-other"}
        return f"{self.way}:{self.action}:{who[self.person]}"


MATRIX = [
    # row 1: asking refused by the channel's policy — the slash command and the workflow step alike
    Cell("command", "ask, policy refused", BEN, False, POLICY_REFUSES_ASK, ask_refused_by_policy),
    Cell("workflow step", "ask, policy refused", BEN, False, STEP_POLICY, step_refused_by_policy),
    # asking in a private channel: only its members
    Cell("command", "ask in a private channel", BEN, False, NOT_SENT_FROM_SECRET, ask_in_secret),
    Cell("command", "ask in a private channel", ADA, True, f"<@{ADA}> asked", ask_in_secret),
    Cell("DM", "ask in someone else's DM", BEN, False, "You are not a member of <#DU0ADA>", ask_in_someones_dm),
    Cell("DM", "ask in one's own DM", ADA, True, f"<@{ADA}> asked", ask_in_someones_dm),
    # one workspace, one key
    Cell("command", "ask from another workspace", EVE, False, OTHER_WORKSPACE, from_another_workspace),
    # row 6: workflow steps act as the person who runs the workflow
    Cell("workflow step", "ask into a private channel", BEN, False, STEP_NOT_IN_SECRET, step_into_secret),
    Cell("workflow step", "ask into a private channel", ADA, True, f"<@{ADA}> asked", step_into_secret),
    Cell("workflow step", "inputs naming someone else", BEN, True, f"<@{BEN}> asked", step_naming_someone_else),
    # who may approve: the requester, the channel's approvers, an admin — in the channel
    Cell("button", "approve a private channel's plan", BEN, False, NOT_IN_PLANS_CHANNEL, approve_secret_plan),
    Cell("button", "approve a private channel's plan", DAN, False, NOT_IN_PLANS_CHANNEL, approve_secret_plan),
    Cell("button", "approve a private channel's plan", CARA, True, f"Approved by <@{CARA}>", approve_secret_plan),
    Cell("button", "approve a private channel's plan", ADA, True, f"Approved by <@{ADA}>", approve_secret_plan),
    # posting where a person picked: they and the bot must be in it
    Cell("dialog", "App Home plan into a private channel", BEN, False, HOME_DIALOG_NOT_MEMBER, home_plan_into_secret),
    Cell("dialog", "App Home plan into a private channel", ADA, True, "Preparing the plan", home_plan_into_secret),
    Cell("dialog", "digest into a private channel", BEN, False, DIGEST_NOT_MEMBER, digest_dialog_into_secret),
    Cell("command", "post a private channel's digest", BEN, False, NOT_IN_DIGESTS_CHANNEL, secret_digest_now),
    Cell("command", "post a private channel's digest", CARA, True, "posted to", secret_digest_now),
    # row 2: a message link as the concept to test — a member of its channel, a private channel's file only there
    Cell("dialog", "concept from a private channel", BEN, False, CONCEPT_NOT_MEMBER, concept_from_secret_in_research),
    Cell(
        "dialog",
        "concept from a private channel elsewhere",
        ADA,
        False,
        CONCEPT_ELSEWHERE,
        concept_from_secret_in_research,
    ),
    Cell(
        "dialog", "concept from a private channel there", ADA, True, "Preparing the plan", concept_from_secret_in_secret
    ),
    # row 7: every spend follows its line of the channel's policy, whatever the way in
    Cell("command", "ask an Audience, policy refused", BEN, False, POLICY_REFUSES_ASK, ask_audience_refused_by_policy),
    Cell("dialog", "Audience card's Ask, policy refused", BEN, False, POLICY_REFUSES_ASK, card_ask_refused_by_policy),
    Cell(
        "command",
        "duplicate an Audience, policy refused",
        BEN,
        False,
        POLICY_REFUSES_DUPLICATE,
        duplicate_audience_refused_by_policy,
    ),
    Cell("command", "chat, policy refused", BEN, False, POLICY_REFUSES_CHAT, chat_refused_by_policy),
    # designing an Audience's sample: the dialog only where building is allowed; Minds' Audience only in one's channel
    Cell("dialog", "New Audience, policy refused", BEN, False, POLICY_REFUSES_BUILD, new_audience_dialog),
    Cell("dialog", "New Audience", ADA, True, "Who should the Audience be?", new_audience_dialog_allowed),
    Cell(
        "button",
        "Audience from Minds in a private channel",
        BEN,
        False,
        NOT_POSTED_IN_SECRET,
        audience_from_minds_in_secret,
    ),
    Cell(
        "button",
        "Audience from Minds in a private channel",
        ADA,
        True,
        "Type to search your Minds",
        audience_from_minds_in_secret,
    ),
    # issue 37: deleting an Audience is for the gate's deciders, asked on the button and again on the dialog
    Cell("button", "delete an Audience", BEN, False, NOT_AUDIENCE_DECIDER, delete_audience_button),
    Cell(
        "button",
        "delete an Audience",
        DAN,
        True,
        "Delete the Audience *Parents* and its 12 Minds?",
        delete_audience_button,
    ),
    Cell("dialog", "delete an Audience", BEN, False, NOT_AUDIENCE_DECIDER, delete_audience_dialog),
    Cell(
        "dialog", "delete an Audience", DAN, True, "Deleted the Audience *Parents* (12 Minds).", delete_audience_dialog
    ),
    Cell("button", "an Audience's Formations", BEN, True, "*Parents*: 0 Formations.", formations_button),
    # a held spend: only the channel's approvers and admins decide it
    Cell("button", "approve a held question", BEN, False, NOT_SPEND_APPROVER, decide_held_ask),
    Cell("button", "approve a held question", DAN, True, f"approved by <@{DAN}>", decide_held_ask),
    # row 3: drafts belong to their plan's channel
    Cell("command", "list a private channel's draft", BEN, False, DRAFT_HIDDEN, list_drafts, hidden="Phoenix"),
    Cell("command", "list a private channel's draft", ADA, True, "*Project Phoenix: plan*", list_drafts),
    Cell("button", "resume a private channel's draft", BEN, False, DRAFT_NOT_MEMBER, resume_secret_draft),
    Cell("button", "resume a private channel's draft", CARA, True, DRAFT_REOPENED, resume_secret_draft),
    Cell("button", "delete a private channel's draft", BEN, False, DRAFT_NOT_MEMBER, delete_secret_draft),
    Cell("button", "delete a private channel's draft", ADA, True, "Deleted the draft", delete_secret_draft),
    # rows 4 and 5: runs, compare, the App Home and Notify me show only the person's channels
    Cell("command", "list a private channel's run", BEN, False, RUNS_HIDDEN, list_runs, hidden=SECRET_QUESTION),
    Cell("command", "list a private channel's run", ADA, True, SECRET_QUESTION, list_runs),
    Cell("command", "compare a private channel's run", BEN, False, RUN_NOT_MEMBER, compare_secret_run_in_research),
    Cell("command", "compare a private run elsewhere", ADA, False, RUN_ELSEWHERE, compare_secret_run_in_research),
    Cell("command", "compare a private channel's run there", ADA, True, SECRET_QUESTION, compare_secret_run_in_secret),
    Cell("Home", "a private channel's result", BEN, False, "", home_with_a_secret_result, hidden="Phoenix launch"),
    Cell("Home", "a private channel's result", ADA, True, "Phoenix launch", home_with_a_secret_result),
    Cell("button", "Notify me on a private channel's run", BEN, False, NOTIFY_NOT_MEMBER, notify_me_in_secret),
    Cell("button", "Notify me on a private channel's run", ADA, True, "You will get a DM", notify_me_in_secret),
    # row 8: the person's share of the Minds budget counts on every way in; someone else's share is their own
    Cell("command", "ask beyond one's share", BEN, False, SHARE_USED, ask_beyond_share),
    Cell("workflow step", "ask beyond one's share", BEN, False, SHARE_USED, step_beyond_share),
    Cell("workflow step", "ask after someone else used theirs", ADA, True, f"<@{ADA}> asked", step_beyond_share),
    # row 9: the store unreachable: every way in is answered with the sentence and nothing is done
    Cell("command", "anything, store down", BEN, False, STORE_DOWN, command_store_down),
    Cell("button", "anything, store down", ADA, False, STORE_DOWN, button_store_down),
    Cell("dialog", "anything, store down", ADA, False, STORE_DOWN, dialog_store_down),
    Cell("workflow step", "anything, store down", ADA, False, STORE_DOWN, step_store_down),
    # rows 10 to 12: bad input is said, never a 500; a refused request downloads nothing
    Cell("dialog", "a concept that is no URL", BEN, False, NOT_A_LINK, concept_not_a_url),
    Cell("workflow step", "a step the app no longer has", BEN, False, NO_SUCH_STEP, unknown_step),
    Cell("shortcut", "ask about a file, policy refused", BEN, False, POLICY_REFUSES_ASK, ask_about_a_file),
    Cell("shortcut", "ask about a file", ADA, True, f"<@{ADA}> asked", ask_about_a_file),
    # issue 37: deleting a Study — an admin, in a dialog they opened themselves
    Cell("command", "delete a Study", BEN, False, ONLY_ADMINS, delete_study),
    Cell("dialog", "delete a Study", DAN, True, "Deleted the Study *", delete_study),
    Cell(
        "dialog",
        "delete a Study, someone else's dialog",
        BEN,
        False,
        MODAL_NOT_YOURS,
        delete_dialog_submitted_by_someone_else,
    ),
    # issue 37: a template is the workspace's: anyone reads it; an admin changes or deletes it
    Cell("button", "change a template", BEN, False, ONLY_ADMINS, edit_template),
    Cell("dialog", "change a template", DAN, True, "Saved the template *Concept test v2* (revision 4).", edit_template),
    Cell("button", "delete a template", BEN, False, ONLY_ADMINS, delete_template),
    Cell("dialog", "delete a template", DAN, True, "Deleted the template *Concept test*.", delete_template),
    Cell("button", "a private channel's question results", BEN, False, SECRET_RESULT_HIDDEN, secret_question_results),
    Cell("button", "a private channel's question results", ADA, True, "*Results:*", secret_question_results),
    Cell("dialog", "ask some Audiences, policy refused", BEN, False, POLICY_REFUSES_ASK, ask_some_audiences),
    Cell("dialog", "ask some Audiences", ADA, True, f"<@{ADA}> asked", ask_some_audiences),
    Cell("button", "delete someone's chat", BEN, False, NOT_YOUR_CHAT, delete_adas_chat),
    Cell(
        "button", "delete someone's chat", DAN, True, f"<@{DAN}> deleted this chat with Lena and Tom", delete_adas_chat
    ),
    # a link: a card only for someone in the channel
    Cell("link", "unfurl in a private channel", BEN, False, "", link_in_secret),
    Cell("link", "unfurl in a private channel", ADA, True, "Minds Study", link_in_secret),
    # issue 37: Minds are the workspace's: seen by members where they are, created, changed and deleted only by
    # someone who acts for its Minds account (an admin or the installer), asked again when a dialog is submitted
    Cell("command", "create a Mind", BEN, False, ONLY_MANAGERS, new_mind),
    Cell("command", "create a Mind", DAN, True, "New Mind", new_mind),
    Cell("command", "a Mind's card in a private channel", BEN, False, NOTIFY_NOT_MEMBER, mind_card_in_secret),
    Cell("command", "a Mind's card in a private channel", ADA, True, "Training: done", mind_card_in_secret),
    Cell("button", "delete a Mind", BEN, False, ONLY_MANAGERS, delete_mind_button),
    Cell("button", "delete a Mind", DAN, True, "Delete the Mind *Nora Nights*?", delete_mind_button),
    Cell("dialog", "delete a Mind, confirmed", BEN, False, ONLY_MANAGERS, delete_mind_confirmed),
    Cell("dialog", "delete a Mind, confirmed", DAN, True, "Deleted the Mind *Nora Nights*", delete_mind_confirmed),
    Cell("menu", "a Mind's new portrait", BEN, False, ONLY_MANAGERS, mind_portrait_menu),
    Cell("menu", "a Mind's new portrait", DAN, True, "has no portrait yet", mind_portrait_menu),
    Cell("dialog", "a Mind's new portrait, submitted", BEN, False, ONLY_MANAGERS, mind_portrait_confirmed),
    Cell("dialog", "a Mind's new portrait, submitted", DAN, True, "queued a new portrait", mind_portrait_confirmed),
    Cell("button", "delete several Minds", BEN, False, ONLY_MANAGERS, delete_several_button),
    Cell("button", "delete several Minds", DAN, True, "Choose the Minds to delete", delete_several_button),
    Cell("dialog", "delete several Minds, confirmed", BEN, False, ONLY_MANAGERS, delete_several_confirmed),
    Cell("dialog", "delete several Minds, confirmed", DAN, True, "Deleted 2 Minds in Minds", delete_several_confirmed),
    Cell("menu", "a Mind's patterns", ADA, True, "Minds has no patterns for *Nora Nights* yet", mind_patterns_menu),
]


@pytest.mark.parametrize("cell", MATRIX, ids=[cell.id for cell in MATRIX])
async def test_the_permission_matrix(world: World, cell: Cell) -> None:
    seen = await cell.does(world, cell.person)
    assert cell.sees in seen
    assert not cell.hidden or cell.hidden not in seen
    if cell.allowed:
        assert "You are not a member" not in seen and OTHER_WORKSPACE not in seen
    else:
        assert world.nothing_happened(), "a refusal reached neither Minds nor a channel"


def test_every_way_in_has_a_refused_and_an_allowed_cell() -> None:
    for way in {cell.way for cell in MATRIX}:
        outcomes = {cell.allowed for cell in MATRIX if cell.way == way}
        assert outcomes == {True, False}, f"{way} has only {'allowed' if True in outcomes else 'refused'} cells"
