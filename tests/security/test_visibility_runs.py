"""Issue 33 rows 4 and 5, through the real Bolt app: a run belongs to the channel whose thread the bot posted it
in (a run it never posted belongs to its Study). ``/minds runs`` and the Study card list only runs of channels the
person is in now and count the rest; ``/minds compare`` and "Compare with…" compare a run only for a member of its
channel, and a private channel's run only in that channel — refused privately, nothing posted; the App Home shows
only what belongs to the person's channels now; "Notify me" is for members of the plan's channel.

People: Ada is in #secret-launch (private) and #research; Ben is in #research only. The Study's runs, newest
first: 1 Ada's in #secret-launch, 2 Ben's in #research, 3 one the bot never posted, 4 an older #secret-launch run
whose tracked record was pruned (only its recorded end says where it was)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from minds_bot.flows.home import HomeTabs
from minds_bot.render.common import encode_value
from minds_bot.render.compare import COMPARE_ACTION, PICK_ACTION, PICK_BLOCK, VIEW_COMPARE
from minds_bot.render.home import HOME_REFRESH_ACTION
from minds_bot.render.run_notice import NOTIFY_ME_ACTION
from minds_bot.store import PlanPost, PlanState, RunKind, RunResult, TrackedRun
from tests.fakes.bot import CHANNEL, TEAM, BotHarness, blocks_of, bot_harness
from tests.fakes.minds_http import ok, raw
from tests.fakes.slack_web import BOT_USER
from tests.slack import samples

ADA, BEN = "U0ADA", "U0BEN"
SECRET = "G0SECRET"  # #secret-launch: private
STUDY = samples.STUDY_ID
R_SECRET, R_RESEARCH, R_STUDY, R_OLD = "run-secret", "run-research", "run-study", "run-old"
QUESTIONS = {
    R_SECRET: "Would you pay 300 EUR for Project Phoenix?",
    R_RESEARCH: "Do you drink coffee on the go?",
    R_STUDY: "How often do you buy coffee?",
    R_OLD: "Is Phoenix a good name?",
}
NOT_IN_SECRET = (
    f"You are not a member of <#{SECRET}>, where this run belongs, so you cannot use it. Join the channel first."
)
HIDDEN_TWO = "2 runs in channels you are not in are not shown."
PERMALINK = "https://acme.slack.com/archives/C0001/p1733140000000101"


def agent_run(run_id: str) -> dict[str, Any]:
    return {"runId": run_id, "status": "completed", "question": QUESTIONS[run_id], "messageId": f"m-{run_id}"}


@pytest.fixture
async def bot() -> AsyncIterator[BotHarness]:
    async with bot_harness(unique_ts=True, user=BEN) as harness:
        harness.slack.channel_members[SECRET] = [ADA, BOT_USER]
        harness.slack.channel_members[CHANNEL] = [ADA, BEN, BOT_USER]
        harness.slack.replies["chat.getPermalink"] = {"ok": True, "permalink": PERMALINK}
        api = harness.minds_api
        api.on("GET", f"/studies/{STUDY}", ok(samples.study_detail("Coffee habits")))
        runs = [agent_run(r) for r in (R_SECRET, R_RESEARCH, R_STUDY, R_OLD)]
        api.on("GET", f"/studies/{STUDY}/runs", raw({"data": runs}))
        for run in runs:
            answers = {"messageId": run["messageId"], "outputData": samples.output_data()}
            api.on("GET", f"/studies/{STUDY}/messages/{run['messageId']}/answers", raw(answers))
        await posted_in(harness, R_SECRET, SECRET)
        await posted_in(harness, R_RESEARCH, CHANNEL)
        await ended_in(harness, R_OLD, SECRET, requester=ADA)
        yield harness


async def posted_in(bot: BotHarness, run_id: str, channel: str) -> None:
    await bot.store.add_tracked_run(
        TrackedRun(
            team_id=TEAM,
            run_id=run_id,
            study_id=STUDY,
            kind=RunKind.DIRECT,
            channel_id=channel,
            thread_ts="1733140000.000101",
            next_poll_at=bot.clock(),
            terminal_posted=True,
        )
    )


async def ended_in(bot: BotHarness, run_id: str, channel: str, *, requester: str, study: str = "Phoenix") -> RunResult:
    return await bot.store.save_run_result(
        RunResult(
            team_id=TEAM,
            run_id=run_id,
            channel_id=channel,
            thread_ts="1733140000.000101",
            study_name=study,
            revision=1,
            requester_id=requester,
            status="completed",
            permalink=PERMALINK,
            ended_at=bot.clock(),
        )
    )


def said(message: dict[str, Any]) -> str:
    return message.get("text", "") + json.dumps(blocks_of(message), ensure_ascii=False)


def comparisons(bot: BotHarness) -> list[dict[str, Any]]:
    return [c for c in bot.slack.calls_to("chat.postMessage") if "compared" in said(c)]


def answers_read(bot: BotHarness) -> list[str]:
    return [s.path for s in bot.minds_api.sent if s.path.endswith("/answers")]


# --- /minds runs ---------------------------------------------------------------------------------------------------


async def test_runs_lists_only_runs_of_the_persons_channels_and_counts_the_rest(bot: BotHarness) -> None:
    await bot.command(f"runs {STUDY}")
    listing = said(await bot.reply_containing("Recent runs"))
    assert QUESTIONS[R_SECRET] not in listing and QUESTIONS[R_OLD] not in listing
    assert f"2. date unknown · “{QUESTIONS[R_RESEARCH]}” · n unknown · completed · <{PERMALINK}|thread>" in listing
    assert f"3. date unknown · “{QUESTIONS[R_STUDY]}” · n unknown · completed" in listing  # never posted: the Study's
    assert HIDDEN_TWO in listing
    assert "`/minds compare Coffee habits 3 2`" in listing  # the numbers of runs the person sees
    assert [c["channel"] for c in bot.slack.calls_to("chat.getPermalink")] == [CHANNEL]  # no link to a hidden thread

    await bot.command(f"runs {STUDY}", user=ADA)
    everything = said(await bot.reply_containing("Recent runs"))
    assert all(question in everything for question in QUESTIONS.values()) and "not shown" not in everything


async def test_the_study_card_names_only_runs_of_the_persons_channels(bot: BotHarness) -> None:
    await bot.command(f"study {STUDY}")
    card = said(await bot.reply_containing("Recent runs"))
    assert QUESTIONS[R_SECRET] not in card and QUESTIONS[R_OLD] not in card
    assert QUESTIONS[R_RESEARCH] in card and QUESTIONS[R_STUDY] in card
    assert HIDDEN_TWO in card
    assert [c["channel"] for c in bot.slack.calls_to("chat.getPermalink")] == [CHANNEL]


# --- /minds compare ------------------------------------------------------------------------------------------------


async def test_comparing_a_run_of_a_channel_one_is_not_in_is_refused_and_posts_nothing(bot: BotHarness) -> None:
    await bot.command(f"compare {STUDY} 1 2")
    assert (await bot.reply_containing("member"))["text"] == NOT_IN_SECRET
    await bot.command(f"compare {STUDY} 4")  # its tracked record is gone: its recorded end still says where it was
    assert (await bot.reply_containing("member"))["text"] == NOT_IN_SECRET
    assert comparisons(bot) == [] and answers_read(bot) == []


async def test_a_private_channels_run_is_compared_only_in_that_channel(bot: BotHarness) -> None:
    await bot.command(f"compare {STUDY} 1 2", user=ADA)  # in #research, though Ada is in #secret-launch too
    assert (await bot.reply_containing("private"))["text"] == (
        f"<#{SECRET}> is a private channel: the bot shows and uses what belongs there (this run) only in that "
        f"channel. Do this in <#{SECRET}>."
    )
    assert comparisons(bot) == [] and answers_read(bot) == []

    await bot.command(f"compare {STUDY} 1 2", user=ADA, channel=SECRET)
    (posted,) = await bot.slack.wait_for("chat.postMessage", lambda c: "compared" in said(c))
    assert posted["channel"] == SECRET and QUESTIONS[R_SECRET] in said(posted)


async def test_compare_by_default_takes_the_latest_runs_the_person_may_compare_here(bot: BotHarness) -> None:
    await bot.command(f"compare {STUDY}")
    (posted,) = await bot.slack.wait_for("chat.postMessage", lambda c: "compared" in said(c))
    assert posted["channel"] == CHANNEL
    assert QUESTIONS[R_RESEARCH] in said(posted) and QUESTIONS[R_STUDY] in said(posted)
    assert "Phoenix" not in said(posted)
    read = sorted(f"/studies/{STUDY}/messages/m-{r}/answers" for r in (R_RESEARCH, R_STUDY))
    assert sorted(answers_read(bot)) == read


async def test_an_unknown_run_lists_only_the_runs_the_person_may_see(bot: BotHarness) -> None:
    await bot.command(f"compare {STUDY} 9")
    answer = (await bot.reply_containing("has no run"))["text"]
    assert QUESTIONS[R_SECRET] not in answer and QUESTIONS[R_OLD] not in answer
    assert f"\n2. date unknown · “{QUESTIONS[R_RESEARCH]}” · completed\n3. " in answer
    assert answer.endswith(HIDDEN_TWO)


# --- "Compare with…" -------------------------------------------------------------------------------------------


async def test_compare_with_offers_only_runs_the_person_may_compare_and_refuses_a_crafted_pick(bot: BotHarness) -> None:
    await bot.click(COMPARE_ACTION, encode_value({"s": STUDY, "r": R_RESEARCH}), message_ts="1733140000.000101")
    (dialog,) = await bot.slack.wait_for("views.update")
    view = json.loads(dialog["view"]) if isinstance(dialog["view"], str) else dialog["view"]
    options = [o["value"] for o in view["blocks"][0]["element"]["options"]]
    assert options == [R_STUDY, "audiences"]  # not the #secret-launch runs

    metadata = json.dumps({"s": STUDY, "n": "Coffee habits", "r": R_RESEARCH, "c": CHANNEL, "t": "1733140000.000101"})
    picked = {PICK_BLOCK: {PICK_ACTION: {"selected_option": {"value": R_SECRET}}}}
    await bot.submit({"callback_id": VIEW_COMPARE, "private_metadata": metadata}, picked)
    (refused,) = await bot.slack.wait_for("chat.postEphemeral")
    assert (refused["channel"], refused["user"], refused["text"]) == (CHANNEL, BEN, NOT_IN_SECRET)
    assert comparisons(bot) == [] and answers_read(bot) == []


async def test_compare_with_on_a_run_of_a_private_channel_elsewhere_says_why_in_the_dialog(bot: BotHarness) -> None:
    await bot.click(COMPARE_ACTION, encode_value({"s": STUDY, "r": R_SECRET}), user=ADA)  # pressed in #research
    (dialog,) = await bot.slack.wait_for("views.update")
    assert f"<#{SECRET}> is a private channel" in json.dumps(dialog["view"], ensure_ascii=False)
    assert comparisons(bot) == []


# --- the App Home ----------------------------------------------------------------------------------------------


def _plan(ts: str, channel: str, requester: str, *, study: str, state: PlanState = PlanState.OPEN) -> PlanPost:
    return PlanPost(
        team_id=TEAM,
        channel_id=channel,
        message_ts=ts,
        study_id=f"id-{study}",
        study_name=study,
        draft_plan_id=f"draft-{ts}",
        revision=1,
        requester_id=requester,
        state=state,
        preview_idempotency_key=f"key-{ts}",
    )


async def _home(bot: BotHarness, user: str, *, refresh: bool = False) -> str:
    if refresh:
        await bot.click(HOME_REFRESH_ACTION, "1", user=user)
    else:
        await bot.event({"type": "app_home_opened", "user": user, "tab": "home"}, event_id=f"Ev-{user}")
    call = await bot.slack.next_call("views.publish")
    view = json.loads(call["view"]) if isinstance(call["view"], str) else call["view"]
    return json.dumps(view, ensure_ascii=False)


async def test_the_home_shows_only_what_belongs_to_channels_the_person_is_in_now(bot: BotHarness) -> None:
    await bot.store.add_approver(team_id=TEAM, channel_id=SECRET, user_id=BEN)  # a stale approver, not a member
    await bot.store.save_plan_post(_plan("5.5", SECRET, ADA, study="Phoenix launch"))
    await bot.store.save_plan_post(_plan("6.6", SECRET, BEN, study="Phoenix pricing", state=PlanState.DISCARDED))
    await bot.store.save_plan_post(_plan("7.7", CHANNEL, BEN, study="Coffee habits", state=PlanState.DISCARDED))
    await ended_in(bot, "run-ada", SECRET, requester=ADA, study="Phoenix launch")
    await ended_in(bot, "run-ben", CHANNEL, requester=BEN, study="Coffee habits")

    ada = await _home(bot, ADA)
    assert "Phoenix launch" in ada and f"<#{SECRET}>" in ada

    ben = await _home(bot, BEN)
    assert "Phoenix" not in ben and f"<#{SECRET}>" not in ben  # not the plan, the results, nor the Study
    assert f"*Coffee habits* in <#{CHANNEL}>, revision 1: :white_check_mark: Completed" in ben
    assert "No plans wait for you." in ben

    bot.slack.channel_members[CHANNEL] = [ADA, BOT_USER]  # Ben leaves #research
    home: HomeTabs = bot.services.home
    await home.settled()
    after = await _home(bot, BEN, refresh=True)
    assert "Coffee habits" not in after and "No research run has ended yet in those channels." in after


async def test_an_open_home_reads_the_persons_channels_again_after_a_minute(bot: BotHarness) -> None:
    home: HomeTabs = bot.services.home
    home._min_interval = 0
    now = [1000.0]
    home._clock = lambda: now[0]
    await bot.store.save_plan_post(_plan("7.7", CHANNEL, BEN, study="Coffee habits", state=PlanState.DISCARDED))
    ended = await ended_in(bot, "run-ben", CHANNEL, requester=BEN, study="Coffee habits")
    assert "Coffee habits" in await _home(bot, BEN)

    bot.slack.channel_members[CHANNEL] = [ADA, BOT_USER]  # Ben leaves #research
    bot.services.home_changed(ended)
    await home.settled()
    assert "Coffee habits" in json.dumps(bot.slack.calls_to("views.publish")[-1], ensure_ascii=False)  # reused
    now[0] += 61
    bot.services.home_changed(ended)
    await home.settled()
    assert "Coffee habits" not in json.dumps(bot.slack.calls_to("views.publish")[-1], ensure_ascii=False)


async def test_when_the_persons_channels_cannot_be_read_the_home_says_so_and_lists_nothing(bot: BotHarness) -> None:
    await bot.store.save_plan_post(_plan("7.7", CHANNEL, BEN, study="Coffee habits", state=PlanState.DISCARDED))
    await ended_in(bot, "run-ben", CHANNEL, requester=BEN, study="Coffee habits")
    bot.slack.replies["users.conversations"] = {"ok": False, "error": "internal_error"}
    shown = await _home(bot, BEN)
    assert "Coffee habits" not in shown
    unread = "Your channels could not be read just now, so this is not listed. Press *Refresh* to try again."
    assert shown.count(unread) == 5  # plans, live runs, Recent results, Studies, digests


# --- "Notify me" -----------------------------------------------------------------------------------------------


async def live_run_in(bot: BotHarness, channel: str) -> None:
    """A research run still followed in ``channel``'s thread ``5.5``, id ``run-live``."""
    run = TrackedRun(
        team_id=TEAM,
        run_id="run-live",
        study_id=STUDY,
        kind=RunKind.RESEARCH,
        channel_id=channel,
        thread_ts="5.5",
        next_poll_at=bot.clock(),
    )
    await bot.store.add_tracked_run(run)


async def test_notify_me_is_for_members_of_the_plans_channel(bot: BotHarness) -> None:
    await live_run_in(bot, SECRET)
    await bot.click(NOTIFY_ME_ACTION, "run-live", user=BEN, channel=SECRET, message_ts="5.5")
    assert await bot.refusal() == (
        f"That belongs to <#{SECRET}>, a channel you are not in, so it is not shown to you. Join the channel to see it."
    )
    assert await bot.store.run_watchers(team_id=TEAM, run_id="run-live") == []
    await bot.click(NOTIFY_ME_ACTION, "run-live", user=ADA, channel=SECRET, message_ts="5.5")
    assert "You will get a DM when this run ends." in await bot.refusal()
    assert await bot.store.run_watchers(team_id=TEAM, run_id="run-live") == [ADA]


async def test_a_plan_asked_for_in_the_persons_own_dm_with_the_bot_stays_on_their_home(bot: BotHarness) -> None:
    await bot.store.save_plan_post(_plan("8.8", f"D{BEN}", BEN, study="Private musings"))
    shown = await _home(bot, BEN)
    assert f"*Private musings* in <#D{BEN}>, revision 1" in shown
