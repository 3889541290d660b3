"""The App Home through the real Bolt app: what a person sees when they open it, and that it follows changes."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from minds_bot.flows.home import HomeTabs
from minds_bot.render.home import HOME_PLAN_ACTION, HOME_REFRESH_ACTION
from minds_bot.store import Digest, PlanPost, PlanState, RunKind, RunResult, ScheduleKind, TrackedRun
from tests.fakes.bot import CHANNEL, TEAM, USER, BotHarness, blocks_of, bot_harness

OTHER = "U0002"
HOME = {"type": "app_home_opened", "user": USER, "tab": "home"}


def _post(ts: str, *, study: str, state: PlanState, requester: str = USER, draft: str | None = None) -> PlanPost:
    return PlanPost(
        team_id=TEAM,
        channel_id=CHANNEL,
        message_ts=ts,
        study_id=f"id-{study}",
        study_name=study,
        draft_plan_id=draft or f"draft-{ts}",
        revision=2,
        requester_id=requester,
        state=state,
        preview_idempotency_key=f"key-{ts}",
    )


async def _running(bot: BotHarness, *, study: str, progress: str) -> TrackedRun:
    post = await bot.store.save_plan_post(_post("3.3", study=study, state=PlanState.RUNNING))
    assert post.draft_plan_id is not None
    await bot.store.claim_approval(
        team_id=TEAM, draft_plan_id=post.draft_plan_id, revision=2, approver_id=USER, idempotency_key="idem-3"
    )
    await bot.store.attach_run(team_id=TEAM, draft_plan_id=post.draft_plan_id, revision=2, run_id="run-3")
    run = TrackedRun(
        team_id=TEAM,
        run_id="run-3",
        study_id=post.study_id,
        kind=RunKind.RESEARCH,
        channel_id=CHANNEL,
        thread_ts="3.3",
        next_poll_at=bot.clock(),
        last_state=progress,
    )
    await bot.store.add_tracked_run(run)
    return run


def _text(view: dict[str, Any]) -> str:
    return json.dumps(blocks_of(view), ensure_ascii=False)


async def _published(bot: BotHarness) -> dict[str, Any]:
    call = await bot.slack.next_call("views.publish")
    view = call["view"]
    return json.loads(view) if isinstance(view, str) else view


async def test_the_home_lists_plans_to_approve_live_runs_studies_and_digests_of_my_channels() -> None:
    async with bot_harness() as bot:
        await bot.store.save_plan_post(_post("1.1", study="Oat milk launch", state=PlanState.OPEN))
        await bot.store.save_plan_post(_post("2.2", study="Someone else's plan", state=PlanState.OPEN, requester=OTHER))
        await _running(bot, study="Pricing <!channel> test", progress="Step 2 of 5: asking the Audience")
        mine = Digest(
            digest_id="dg1",
            team_id=TEAM,
            channel_id=CHANNEL,
            schedule_kind=ScheduleKind.WEEKLY,
            spec="mon 09:00",
            tz="Europe/Berlin",
            created_by=OTHER,
        )
        elsewhere = mine.model_copy(update={"digest_id": "dg2", "channel_id": "C0999"})
        await bot.store.save_digest(mine)
        await bot.store.save_digest(elsewhere)
        bot.slack.replies["users.conversations"] = {"ok": True, "channels": [{"id": CHANNEL}]}

        await bot.event(HOME)
        view = await _published(bot)

        text = _text(view)
        assert view["type"] == "home"
        assert "Oat milk launch" in text and "revision 2" in text
        assert "Someone else's plan" not in text  # not mine, and I approve nothing in that channel
        assert "Step 2 of 5: asking the Audience" in text
        shown = " ".join(b["text"]["text"] for b in blocks_of(view) if b["type"] == "section")
        assert "&lt;!channel&gt;" in shown and "<!channel>" not in shown  # a Study name is shown, never a mention
        assert "every Monday at 09:00" in text and "dg1" in text and "dg2" not in text  # only my channels'
        plan_buttons = [
            b["accessory"]["value"]
            for b in blocks_of(view)
            if b.get("accessory", {}).get("action_id") == HOME_PLAN_ACTION
        ]
        assert plan_buttons == ["id-Pricing <!channel> test", "id-Oat milk launch"]  # recent Studies, newest first


async def test_a_channel_approver_sees_the_plans_waiting_in_that_channel() -> None:
    async with bot_harness() as bot:
        await bot.store.save_plan_post(_post("2.2", study="Their plan", state=PlanState.OPEN, requester=OTHER))
        await bot.store.add_approver(team_id=TEAM, channel_id=CHANNEL, user_id=USER)
        await bot.event(HOME)
        assert "Their plan" in _text(await _published(bot))


async def test_a_plan_that_opens_reaches_the_open_homes_of_its_channels_approvers_only() -> None:
    async with bot_harness() as bot:
        home: HomeTabs = bot.services.home
        home._min_interval = 0
        bystander = "U0003"
        await bot.store.add_approver(team_id=TEAM, channel_id=CHANNEL, user_id=USER)
        for person in (USER, bystander):
            await bot.event({**HOME, "user": person}, event_id=f"Ev-{person}")
            await _published(bot)

        post = await bot.store.save_plan_post(_post("2.2", study="Their plan", state=PlanState.OPEN, requester=OTHER))
        bot.services.home_changed(post)
        await home.settled()

        republished = bot.slack.calls_to("views.publish")[2:]
        assert [c["user_id"] for c in republished] == [USER]  # the approver's Home, not the bystander's
        view = republished[0]["view"]
        assert "Their plan" in _text(json.loads(view) if isinstance(view, str) else view)


async def test_a_republish_reuses_the_persons_channels_and_refresh_reads_them_again() -> None:
    """Slack allows users.conversations about 50 times a minute: a run's progress must not spend it."""
    async with bot_harness() as bot:
        home: HomeTabs = bot.services.home
        home._min_interval = 0
        await bot.store.save_digest(
            Digest(
                digest_id="dg1",
                team_id=TEAM,
                channel_id=CHANNEL,
                schedule_kind=ScheduleKind.DAILY,
                spec="09:00",
                tz="UTC",
                created_by=OTHER,
            )
        )
        bot.slack.replies["users.conversations"] = {"ok": True, "channels": [{"id": CHANNEL}]}
        run = await _running(bot, study="Pricing", progress="Step 1 of 5")
        await bot.event(HOME)
        await _published(bot)
        for step in (2, 3):
            bot.services.home_changed(run.model_copy(update={"last_state": f"Step {step} of 5"}))
            await home.settled()
            assert "dg1" in _text(await _published(bot))  # the digest of my channel is still listed
        assert len(bot.slack.calls_to("users.conversations")) == 1

        await bot.click(HOME_REFRESH_ACTION, "1")
        await _published(bot)
        assert len(bot.slack.calls_to("users.conversations")) == 2


async def test_an_open_home_follows_a_run_and_refresh_rebuilds_it() -> None:
    async with bot_harness() as bot:
        home: HomeTabs = bot.services.home
        home._min_interval = 0  # this test is about what changes, the pace has its own test
        run = await _running(bot, study="Pricing", progress="Step 1 of 5")
        await bot.event(HOME)
        assert "Step 1 of 5" in _text(await _published(bot))

        bot.services.home_changed(run.model_copy(update={"last_state": "Step 4 of 5"}))
        await bot.store.update_run_poll(
            team_id=TEAM,
            run_id="run-3",
            next_poll_at=bot.clock(),
            attempts=0,
            last_state="Step 4 of 5",
            progress_ts=None,
        )
        await home.settled()
        assert "Step 4 of 5" in _text(await _published(bot))

        bot.services.home_changed(run.model_copy(update={"run_id": "run-of-someone-else"}))
        await home.settled()
        await bot.click(HOME_REFRESH_ACTION, "1")
        second = await _published(bot)  # the click's publish is the next one: the unrelated change made none
        assert "Step 4 of 5" in _text(second)


async def test_changes_close_together_are_published_once_at_the_pace() -> None:
    async with bot_harness() as bot:
        slept: list[float] = []
        asleep, released = asyncio.Event(), asyncio.Event()

        async def sleep(seconds: float) -> None:
            slept.append(seconds)
            asleep.set()
            await released.wait()

        now = [100.0]
        home = HomeTabs(bot.services, min_interval=10.0, clock=lambda: now[0], sleep=sleep)
        bot.services.home = home
        run = await _running(bot, study="Pricing", progress="Step 1 of 5")
        client = await bot.services.slack.client_for(TEAM)
        await home.publish(client, team_id=TEAM, user_id=USER)
        await _published(bot)
        now[0] += 3
        for step in range(2, 5):
            home.changed(run.model_copy(update={"last_state": f"Step {step} of 5"}))
        await asleep.wait()
        assert slept == [7.0]  # one publish waits for the rest of the interval; the other changes join it
        assert len(bot.slack.calls_to("views.publish")) == 1
        released.set()
        await home.settled()
        await _published(bot)
        assert len(bot.slack.calls_to("views.publish")) == 2


async def test_an_open_home_lists_a_plan_as_soon_as_it_waits_for_approval() -> None:
    """The plan flow tells the Home: a plan of mine that opens for approval is published without a click."""
    from tests.fakes.minds_http import ok
    from tests.slack.plan_samples import plan_data, study_data

    study = "11111111-1111-4111-8111-111111111111"
    async with bot_harness(unique_ts=True) as bot:
        home: HomeTabs = bot.services.home
        home._min_interval = 0
        bot.minds_api.on("GET", f"/studies/{study}", ok(study_data()))
        bot.minds_api.set("POST", f"/studies/{study}/research-plans/preview", ok(plan_data()))
        await bot.event(HOME)
        assert "No plans wait for you." in _text(await _published(bot))

        await bot.command(f"plan {study} Which launch message works best?")
        await bot.tracker.next_tracked(RunKind.PLAN)
        await bot.tick()
        await home.settled()
        views = [
            _text(json.loads(c["view"]) if isinstance(c["view"], str) else c["view"])
            for c in bot.slack.calls_to("views.publish")
        ]
        assert "revision 1" in views[-1] and "No plans wait for you." not in views[-1]


def test_long_lists_continue_in_the_next_section_and_the_rest_is_counted() -> None:
    from minds_bot.render.home import HomeRun, HomeState, render_home

    runs = [HomeRun(study_name=f"Study {i} " + "x" * 190, channel_id=CHANNEL, progress="p" * 290) for i in range(10)]
    view = render_home(HomeState(connected=True, live=runs)).to_dict()  # validates Slack's limits
    text = json.dumps(view, ensure_ascii=False)
    assert all(f"Study {i} " in text for i in range(8)) and "Study 8 " not in text
    assert "…and 2 more" in text


async def test_a_run_that_ends_reaches_the_recent_results_of_its_channels_approvers_only() -> None:
    """An approver of the channel whose Home listed nothing from it yet sees the run's end; a bystander's Home is
    not published again."""
    async with bot_harness() as bot:
        home: HomeTabs = bot.services.home
        home._min_interval = 0
        bystander = "U0003"
        await bot.store.add_approver(team_id=TEAM, channel_id=CHANNEL, user_id=USER)
        for person in (USER, bystander):
            await bot.event({**HOME, "user": person}, event_id=f"Ev-{person}")
            assert "No research run has ended yet in those channels." in _text(await _published(bot))

        ended = await bot.store.save_run_result(
            RunResult(
                team_id=TEAM,
                run_id="run-9",
                channel_id=CHANNEL,
                study_name="Their study",
                requester_id=OTHER,
                approver_id=OTHER,
                status="partial",
                ended_at=bot.clock(),
            )
        )
        bot.services.home_changed(ended)
        await home.settled()

        republished = bot.slack.calls_to("views.publish")[2:]
        assert [c["user_id"] for c in republished] == [USER]
        view = republished[0]["view"]
        text = _text(json.loads(view) if isinstance(view, str) else view)
        assert f"*Their study* in <#{CHANNEL}>: :warning: Partial — not complete" in text
