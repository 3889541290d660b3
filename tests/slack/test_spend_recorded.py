"""Issue #33 row 7's "every spend goes through the gate and is recorded", through the real Bolt app (signed
requests, fake Slack Web API, fake Minds): under a refusing policy a heatmap, an Audience build (the command,
"Audience from files" and "Build another Audience"), a Study copy (the command and "Make a second copy") and
turning a public link on each say the policy's sentence, send nothing to Minds (no file is even downloaded) and
are listed by `/minds activity` as refused; an approved research run is listed with its Study's name, who asked and
who approved, started or not as Minds answered, and counted in the totals."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import pytest

from minds_bot.flows.keyed import KEY_WINDOW
from minds_bot.render.source_import import BRIEF_ACTION, BRIEF_BLOCK, FROM_FILES_VIEW, from_files_metadata
from minds_bot.store import ChannelPolicy, PolicyMode, RunKind
from tests.fakes.bot import CHANNEL, TEAM, BotHarness, blocks_of, bot_harness, buttons
from tests.fakes.minds_http import envelope, ok, raw
from tests.slack import samples
from tests.slack.plan_samples import plan_data, study_data

ADMIN, BEN = "UADMIN", "UBEN"
STUDY = samples.STUDY_ID
IMAGE = "https://cdn.example.com/ad.png"
BRIEF = "Urban cyclists in Berlin who commute daily"
REFUSED = (
    "This channel's spend policy refuses this: {action}. See `/minds policy`. "
    "Workspace admins and this channel's approvers (`/minds approvers list`) can change it."
)
NOT_SENT = "refused by the channel's policy"
LIMITS = {"perAudienceCap": 40, "modes": [{"mode": "balanced", "automaticSizingCeiling": 24}]}


@pytest.fixture
async def bot() -> AsyncIterator[BotHarness]:
    async with bot_harness(wait_for_listeners=True, unique_ts=True) as running:
        running.slack.users[ADMIN] = {"id": ADMIN, "is_admin": True, "real_name": "Ada Admin"}
        running.slack.acting.update({ADMIN, BEN})
        yield running


async def policy(bot: BotHarness, action: str, mode: PolicyMode) -> None:
    await bot.store.set_channel_policy(
        ChannelPolicy(team_id=TEAM, channel_id=CHANNEL, action=action, mode=mode, set_by=ADMIN)
    )


async def activity(bot: BotHarness) -> str:
    await bot.command("activity", user=ADMIN)
    return str((await bot.reply_containing("Minds spending in this channel"))["text"])


# ---- row 7: each spend under a refusing policy sends nothing and is recorded ----------------------------------


async def test_a_refused_heatmap_start_sends_nothing_and_is_recorded(bot: BotHarness) -> None:
    path = f"/studies/{STUDY}/heatmaps/{samples.MESSAGE_ID}"
    bot.minds_api.on("GET", path, ok({"status": "none", "assetKey": IMAGE, "kind": "image", "respondents": 12}))
    await policy(bot, "heatmap", PolicyMode.REFUSE)
    value = json.dumps({"s": STUDY, "m": samples.MESSAGE_ID, "k": IMAGE})
    await bot.click("result_heatmap", value, user=BEN, message_ts="1733140000.000300")
    prompt = await bot.reply_containing("Start heatmap")
    read = len(bot.minds_api.sent)
    await bot.click("heatmap_start", buttons(prompt)["heatmap_start"]["value"], user=BEN, ephemeral=True)
    assert await bot.refusal() == REFUSED.format(action="Start a Premium heatmap")
    assert len(bot.minds_api.sent) == read and bot.minds_api.to("POST", path) == []
    assert (
        f"<@{BEN}> · Start a Premium heatmap: start a Premium heatmap of {IMAGE} · Minds responses: 12 (premium) · "
        f"{NOT_SENT}"
    ) in await activity(bot)


async def test_a_refused_audience_build_sends_nothing_by_command_from_files_or_build_another(
    bot: BotHarness,
) -> None:
    build = "Build an Audience (`/minds audience new`)"
    await policy(bot, "audience_build", PolicyMode.REFUSE)
    await bot.command(f"audience new {BRIEF}", user=BEN)
    assert await bot.refusal() == REFUSED.format(action=build)

    bot.slack.shared["people.csv"] = b"name,age\nAna,31\n"
    metadata = from_files_metadata(channel_id=CHANNEL, files=[("F1", "people.csv", bot.slack.file_url("people.csv"))])
    view = {"callback_id": FROM_FILES_VIEW, "private_metadata": metadata}
    await bot.submit(view, {BRIEF_BLOCK: {BRIEF_ACTION: {"type": "plain_text_input", "value": BRIEF}}}, user=BEN)
    (told,) = [c for c in bot.slack.calls_to("chat.postEphemeral") if c["user"] == BEN]
    assert told["text"] == REFUSED.format(action=build)
    assert bot.slack.downloads == [], "the file was not even downloaded"
    assert bot.minds_api.sent == []

    await policy(bot, "audience_build", PolicyMode.NOW)
    bot.minds_api.on("GET", "/audiences/limits", ok(LIMITS))
    bot.minds_api.on("POST", "/audiences/from-brief", ok({"jobId": "job-1", "status": "queued"}, status=202))
    bot.minds_api.on("GET", "/audiences/from-brief/jobs/job-1", ok({"jobId": "job-1", "status": "queued"}))
    await bot.command(f"audience new {BRIEF}", user=BEN)
    await bot.tracker.next_tracked(RunKind.AUDIENCE)
    await bot.command(f"audience new {BRIEF}", user=BEN)
    question = await bot.reply_containing("Build another Audience")
    await policy(bot, "audience_build", PolicyMode.REFUSE)
    sent = len(bot.minds_api.sent)
    await bot.click("audience_again", buttons(question)["audience_again"]["value"], user=BEN, ephemeral=True)
    assert await bot.refusal() == REFUSED.format(action=build)
    assert len(bot.minds_api.sent) == sent and len(bot.minds_api.to("POST", "/audiences/from-brief")) == 1

    text = await activity(bot)
    refused = f"<@{BEN}> · {build}: build an Audience from “{BRIEF}” · Minds responses: not known · {NOT_SENT}"
    assert text.count(refused) == 3
    assert text.count("· started at Minds") == 0 and text.count("· sent to Minds") == 1, "the one build sent"


async def test_a_refused_study_copy_sends_nothing_by_command_or_second_copy(bot: BotHarness) -> None:
    duplicate = "Duplicate a Study or an Audience (`/minds duplicate`)"
    await policy(bot, "duplicate", PolicyMode.REFUSE)
    await bot.command('duplicate "Launch positioning"', user=BEN)
    assert await bot.refusal() == REFUSED.format(action=duplicate)
    assert bot.minds_api.sent == []

    await policy(bot, "duplicate", PolicyMode.NOW)
    bot.minds_api.on("GET", f"/studies/{STUDY}", ok(samples.study_detail()))
    copied = raw({"data": samples.study(7, "Launch positioning (copy)")}, status=201)
    bot.minds_api.on("POST", f"/studies/{STUDY}/duplicate", copied)
    await bot.command(f"duplicate {STUDY}", user=BEN)
    await bot.reply_containing("Duplicated")
    bot.clock.advance(KEY_WINDOW.total_seconds() - 60)
    await bot.command(f"duplicate {STUDY}", user=BEN)
    question = await bot.reply_containing("Make a second copy")
    await policy(bot, "duplicate", PolicyMode.REFUSE)
    sent = len(bot.minds_api.sent)
    await bot.click("duplicate_again", buttons(question)["duplicate_again"]["value"], user=BEN, ephemeral=True)
    assert await bot.refusal() == REFUSED.format(action=duplicate)
    assert len(bot.minds_api.sent) == sent and len(bot.minds_api.to("POST", f"/studies/{STUDY}/duplicate")) == 1

    text = await activity(bot)
    refused = f"{duplicate}: duplicate the Study Launch positioning · Minds responses: 0 · {NOT_SENT}"
    assert text.count(refused) == 2


async def test_a_refused_public_link_is_not_turned_on_and_is_recorded(bot: BotHarness) -> None:
    share = "Turn a Study's public link on (`/minds share … on`)"
    await policy(bot, "share_on", PolicyMode.REFUSE)
    await bot.command('share "Launch positioning" on', user=BEN)
    assert await bot.refusal() == REFUSED.format(action=share)
    assert bot.minds_api.sent == []
    assert (
        f"<@{BEN}> · {share}: turn the public link of Launch positioning on · Minds responses: 0 · {NOT_SENT}"
    ) in await activity(bot)


# ---- row 7: research runs are recorded when approved ------------------------------------------------------------

PLAN_STUDY = "11111111-1111-4111-8111-111111111111"
RUNS = f"/studies/{PLAN_STUDY}/research-runs"
RESEARCH = "Run approved research (a plan's *Approve & run*)"


async def approved_plan(bot: BotHarness) -> None:
    """Ben's plan for "Reusable cups", approved by the admin."""
    bot.minds_api.on("GET", f"/studies/{PLAN_STUDY}", ok(study_data()))
    bot.minds_api.on("POST", f"/studies/{PLAN_STUDY}/research-plans/preview", ok(plan_data(confirmationQuestions=[])))
    await bot.command(f"plan {PLAN_STUDY} Which launch message works best?", user=BEN)
    run = await bot.tracker.next_tracked(RunKind.PLAN)
    await bot.tick()
    update = next(c for c in bot.slack.calls_to("chat.update") if c["ts"] == run.thread_ts)
    approve = buttons(update)["plan_approve"]
    blocks = blocks_of(update)
    await bot.click("plan_approve", approve["value"], user=ADMIN, message_ts=update["ts"], blocks=blocks)


async def test_an_approved_research_run_is_listed_with_its_study_who_asked_and_who_approved(bot: BotHarness) -> None:
    bot.minds_api.on("POST", RUNS, ok({"runId": "run-1", "status": "queued"}))
    await approved_plan(bot)
    await bot.tracker.next_tracked(RunKind.RESEARCH)
    text = await activity(bot)
    assert (
        f"<@{BEN}> · {RESEARCH}: run the approved research plan of Reusable cups · Minds responses: not known · "
        f"started at Minds (decided by <@{ADMIN}>)"
    ) in text
    assert "*Totals:* 1 request sent to Minds, counting 0 Minds responses · 1 with a count not known" in text
    (spend,) = await bot.store.list_spends(team_id=TEAM, channel_id=CHANNEL, since=bot.clock() - KEY_WINDOW)
    assert spend.detail == "run-1", "what Minds answered: the run's id"


async def test_a_research_run_minds_refused_is_listed_as_not_started(bot: BotHarness) -> None:
    limit = {"limitType": "responses", "currentPlan": "free", "limit": 100, "current": 100}
    bot.minds_api.on("POST", RUNS, envelope(403, code="PLAN_LIMIT", data=limit))
    await approved_plan(bot)
    await bot.slack.wait_for("chat.postMessage", lambda c: "nothing started" in c.get("text", ""))
    text = await activity(bot)
    assert (
        f"{RESEARCH}: run the approved research plan of Reusable cups · Minds responses: not known · "
        f"not started (Minds refused or did not answer) (decided by <@{ADMIN}>)"
    ) in text
    assert "*Totals:* 0 requests sent to Minds, counting 0 Minds responses · 1 not sent" in text
