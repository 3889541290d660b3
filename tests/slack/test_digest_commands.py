"""``/minds digest …`` and the "Add a digest" modal through the real Bolt app: signed requests in, answers out,
Minds and Slack faked. Bad schedules are refused with a precise message and nothing is saved."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import pytest

from minds_bot.store import Digest, ScheduleKind
from tests.fakes.bot import CHANNEL, TEAM, USER, BotHarness, bot_harness
from tests.fakes.minds_http import ok, page, raw

PRICING = "00000000-0000-4000-8000-000000000101"
NOW = datetime(2025, 3, 24, 7, 30, tzinfo=UTC)
ANSWER_TIMEOUT = 10.0


async def answered(bot: BotHarness, text: str, *, user: str = USER) -> dict[str, Any]:
    """Send ``/minds text`` and return the answer it posts to its response URL."""
    response = await bot.command(text, user=user)
    assert response.status == 200
    return await asyncio.wait_for(bot.slack.responses.get(), ANSWER_TIMEOUT)


def answer_text(answer: dict[str, Any]) -> str:
    return answer.get("text", "") + json.dumps(answer.get("blocks", []), ensure_ascii=False)


@pytest.fixture
async def bot() -> AsyncIterator[BotHarness]:
    async with bot_harness(start=NOW) as harness:
        harness.minds_api.set("GET", "/studies", page([_study(PRICING, "Pricing pulse")], total=1, offset=0))
        harness.slack.replies["users.info"] = {
            "ok": True,
            "user": {"id": USER, "tz": "America/New_York", "is_admin": False},
        }
        yield harness


def _study(study_id: str, name: str) -> dict[str, Any]:
    return {
        "id": study_id,
        "name": name,
        "createdAt": "2025-03-01T10:00:00Z",
        "updatedAt": "2025-03-01T10:00:00Z",
        "messageCount": 1,
        "audiences": [],
        "messages": [],
    }


async def saved(bot: BotHarness) -> list[Digest]:
    return await bot.store.list_digests(team_id=TEAM)


# --- add ---------------------------------------------------------------------------------------------------


async def test_add_a_daily_digest_for_a_named_study_in_an_explicit_timezone(bot: BotHarness) -> None:
    answer = await answered(bot, "digest add <#C0NEWS|news> daily 8:30 Europe/Berlin Pricing skip-quiet")
    [digest] = await saved(bot)
    assert (digest.channel_id, digest.schedule_kind, digest.spec, digest.tz) == (
        "C0NEWS",
        "daily",
        "08:30",
        "Europe/Berlin",
    )
    assert digest.study_ids == (PRICING,) and digest.skip_quiet and digest.created_by == USER
    text = answer_text(answer)
    assert f"Digest `{digest.digest_id}` added" in text
    assert "from Pricing pulse in <#C0NEWS>, every day at 08:30 (Europe/Berlin)" in text


async def test_without_a_timezone_the_creators_slack_timezone_is_used(bot: BotHarness) -> None:
    answer = await answered(bot, "digest add weekly mon 09:00")
    [digest] = await saved(bot)
    assert (digest.schedule_kind, digest.spec, digest.tz, digest.study_ids) == (
        ScheduleKind.WEEKLY,
        "mon 09:00",
        "America/New_York",
        (),
    )
    assert digest.channel_id == CHANNEL
    assert "every Monday at 09:00 (America/New_York)" in answer_text(answer)
    assert bot.slack.calls_to("users.info")[0]["user"] == USER


async def test_a_cron_digest_is_stored_as_typed(bot: BotHarness) -> None:
    await answered(bot, 'digest add cron "0 9 * * 1-5" UTC all')
    [digest] = await saved(bot)
    assert (digest.schedule_kind, digest.spec, digest.tz) == (ScheduleKind.CRON, "0 9 * * 1-5", "UTC")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("digest add daily 25:00", "“25:00” is not a time of day"),
        ("digest add weekly mondy 09:00", "“mondy” is not a day of the week"),
        ('digest add cron "0 25 * * 1"', "Cron field 2 (hour) “25” is invalid"),
        ('digest add cron "0 9 * * 9"', "Cron field 5 (day of week) “9” is invalid"),
        ("digest add daily 09:00 Europe/Berln", "“Europe/Berln” is not a timezone I know. Did you mean Europe/Berlin?"),
        ("digest add daily 09:00 UTC Nonexistent", "Nothing named “Nonexistent”"),
    ],
)
async def test_bad_schedules_and_unknown_studies_are_refused_precisely(
    bot: BotHarness, text: str, expected: str
) -> None:
    answer = await answered(bot, text)
    assert expected in answer_text(answer)
    assert await saved(bot) == []


# --- list, remove, now -------------------------------------------------------------------------------------


async def add(bot: BotHarness, text: str = "digest add daily 09:00 Europe/Berlin Pricing") -> Digest:
    before = {d.digest_id for d in await saved(bot)}
    await answered(bot, text)
    [new] = [d for d in await saved(bot) if d.digest_id not in before]
    return new


async def test_list_shows_each_digest_with_its_id_channel_and_schedule(bot: BotHarness) -> None:
    first = await add(bot)
    second = await add(bot, 'digest add <#C0NEWS> cron "0 9 * * 1" UTC')
    text = answer_text(await answered(bot, "digest list"))
    assert f"`{first.digest_id}` → <#{CHANNEL}> every day at 09:00 (Europe/Berlin), 1 Study" in text
    assert f"`{second.digest_id}` → <#C0NEWS> cron “0 9 * * 1” (UTC), all Studies" in text


async def test_list_without_digests_offers_to_add_one(bot: BotHarness) -> None:
    text = answer_text(await answered(bot, "digest list"))
    assert "No digests yet" in text and "digest_add_open" in text


async def test_the_creator_removes_a_digest_and_another_member_cannot(bot: BotHarness) -> None:
    digest = await add(bot)
    refused = answer_text(await answered(bot, f"digest remove {digest.digest_id}", user="U0OTHER"))
    assert "Only <@U0001>" in refused and len(await saved(bot)) == 1

    removed = answer_text(await answered(bot, f"digest remove {digest.digest_id}"))
    assert f"Digest `{digest.digest_id}` removed" in removed
    assert await saved(bot) == []


async def test_a_workspace_admin_may_remove_someone_elses_digest(bot: BotHarness) -> None:
    digest = await add(bot)
    bot.slack.replies["users.info"] = {"ok": True, "user": {"id": "U0ADMIN", "is_admin": True}}
    await answered(bot, f"digest remove {digest.digest_id}", user="U0ADMIN")
    assert await saved(bot) == []


async def test_a_digest_of_another_workspace_is_not_found(bot: BotHarness) -> None:
    await bot.store.save_digest(
        Digest(
            digest_id="dg-elsewhere",
            team_id="T0OTHER",
            channel_id="C9",
            schedule_kind=ScheduleKind.DAILY,
            spec="09:00",
            tz="UTC",
            created_by="U9",
        )
    )
    for text in ("digest remove dg-elsewhere", "digest now dg-elsewhere"):
        assert "No digest `dg-elsewhere` in this workspace" in answer_text(await answered(bot, text))
    assert await bot.store.get_digest("dg-elsewhere") is not None


async def test_digest_now_posts_to_the_channel_and_confirms(bot: BotHarness) -> None:
    digest = await add(bot)
    run_id = "0000abcd-0000-4000-8000-000000000001"
    bot.minds_api.set("GET", f"/studies/{PRICING}", ok(_study(PRICING, "Pricing pulse")))
    bot.minds_api.set("GET", f"/studies/{PRICING}/runs", raw({"data": [{"runId": run_id, "status": "failed"}]}))
    bot.minds_api.set("GET", f"/studies/{PRICING}/research-runs/{run_id}", ok({"runId": run_id, "status": "failed"}))
    bot.minds_api.set("GET", f"/studies/{PRICING}/summary", ok({"summary": None}))

    answer = answer_text(await answered(bot, f"digest now {digest.digest_id}"))
    assert f"Digest `{digest.digest_id}` posted to <#{CHANNEL}>" in answer
    [post] = bot.slack.calls_to("chat.postMessage")
    assert post["channel"] == CHANNEL
    assert "• Research run (question unknown) (started and finished): *failed*" in json.dumps(
        post["blocks"], ensure_ascii=False
    )
    assert "Posted now at <@U0001>'s request" in json.dumps(post["blocks"])


# --- App Home and modal ------------------------------------------------------------------------------------


async def test_the_app_home_offers_add_a_digest(bot: BotHarness) -> None:
    await bot.event({"type": "app_home_opened", "user": USER, "tab": "home"})
    publish = await bot.slack.next_call("views.publish")
    assert "digest_add_open" in json.dumps(publish["view"])


async def test_the_button_opens_the_modal_with_the_users_timezone(bot: BotHarness) -> None:
    await bot.interaction(
        {
            "type": "block_actions",
            "team": {"id": TEAM},
            "user": {"id": USER},
            "trigger_id": "9.9.9",
            "view": {"id": "VHOME", "type": "home"},  # the App Home's button: Slack sends its view
            "actions": [{"action_id": "digest_add_open", "value": "open", "action_ts": "1.1"}],
        }
    )
    opened = await bot.slack.next_call("views.open")
    view = opened["view"] if isinstance(opened["view"], dict) else json.loads(opened["view"])
    assert view["callback_id"] == "digest_add"
    tz_block = next(b for b in view["blocks"] if b["block_id"] == "tz")
    assert tz_block["element"]["initial_value"] == "America/New_York"


def submission(**values: dict[str, Any]) -> dict[str, Any]:
    state = {block: {"value": value} for block, value in values.items()}
    return {
        "type": "view_submission",
        "team": {"id": TEAM},
        "user": {"id": USER},
        "trigger_id": "1.2.3",
        "view": {"id": "V1", "type": "modal", "callback_id": "digest_add", "team_id": TEAM, "state": {"values": state}},
    }


async def test_a_submitted_modal_adds_the_digest_and_tells_the_creator(bot: BotHarness) -> None:
    response = await bot.interaction(
        submission(
            channel={"type": "conversations_select", "selected_conversation": "C0NEWS"},
            kind={"type": "static_select", "selected_option": {"value": "weekly"}},
            time={"type": "timepicker", "selected_time": "10:15"},
            weekday={"type": "static_select", "selected_option": {"value": "friday"}},
            tz={"type": "plain_text_input", "value": "Europe/Berlin"},
            studies={"type": "plain_text_input", "value": "Pricing\n"},
        )
    )
    assert response.status == 200 and not response.body
    dm = await bot.slack.next_call("chat.postMessage")
    [digest] = await saved(bot)
    assert (digest.channel_id, digest.spec, digest.tz, digest.study_ids) == (
        "C0NEWS",
        "fri 10:15",
        "Europe/Berlin",
        (PRICING,),
    )
    assert dm["channel"] == USER and f"Digest `{digest.digest_id}` added" in dm["text"]


async def test_a_modal_with_a_bad_timezone_shows_the_error_on_that_field(bot: BotHarness) -> None:
    response = await bot.interaction(
        submission(
            channel={"type": "conversations_select", "selected_conversation": "C0NEWS"},
            kind={"type": "static_select", "selected_option": {"value": "daily"}},
            time={"type": "timepicker", "selected_time": "10:15"},
            tz={"type": "plain_text_input", "value": "Berlin/Europe"},
        )
    )
    body = json.loads(response.body)
    assert body["response_action"] == "errors"
    assert "is not a timezone I know" in body["errors"]["tz"]
    assert await saved(bot) == []
