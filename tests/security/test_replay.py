"""Issue #17 row 7 through the real bot over HTTP: the same signed slash command or view submission sent again
within the replay window is answered once; the replay is acknowledged and does nothing anyone could see."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from urllib.parse import urlencode

import pytest

from minds_bot.render.digest import ADD_DIGEST_VIEW
from tests.fakes.bot import SIGNING_SECRET
from tests.fakes.minds_http import FakeMindsAPI, fake_key, page
from tests.fakes.slack_requests import command_body, signed_headers
from tests.security.gatehouse import CHANNEL, TEAM, USER, Gatehouse, gatehouse


@pytest.fixture
async def bot() -> AsyncIterator[Gatehouse]:
    minds = FakeMindsAPI().on("GET", "/studies", page([], total=0, offset=0))
    # Each HTTP answer waits for the listeners, so whatever a delivery caused has happened when it returns.
    async with gatehouse(minds_key=fake_key(), minds_api=minds) as house:
        yield house


def answers(bot: Gatehouse) -> list[dict[str, object]]:
    return [bot.slack.responses.get_nowait() for _ in range(bot.slack.responses.qsize())]


async def test_a_replayed_slash_command_is_answered_once(bot: Gatehouse) -> None:
    body = command_body(
        text="studies", team=TEAM, channel=CHANNEL, user=USER, response_url=bot.slack.response_url(), trigger="7.1"
    )
    headers = signed_headers(body, secret=SIGNING_SECRET)
    first = await bot.post(body, headers)
    assert first.status_code == 200 and answers(bot)
    replay = await bot.post(body, headers)  # the very same signed request, seconds later
    assert replay.status_code == 200 and replay.content == b""
    assert answers(bot) == [] and len(bot.minds_api.to("GET", "/studies")) == 1


async def test_the_next_command_from_slack_is_not_mistaken_for_a_replay(bot: Gatehouse) -> None:
    for trigger in ("7.1", "7.2"):  # Slack gives every command its own trigger_id
        body = command_body(
            text="studies",
            team=TEAM,
            channel=CHANNEL,
            user=USER,
            response_url=bot.slack.response_url(),
            trigger=trigger,
        )
        assert (await bot.send(body)).status_code == 200
    assert len(bot.minds_api.to("GET", "/studies")) == 2


def digest_submission() -> str:
    values = {
        "channel": {"value": {"type": "conversations_select", "selected_conversation": "C0NEWS"}},
        "kind": {"value": {"type": "static_select", "selected_option": {"value": "daily"}}},
        "time": {"value": {"type": "timepicker", "selected_time": "09:00"}},
        "tz": {"value": {"type": "plain_text_input", "value": "UTC"}},
    }
    payload = {
        "type": "view_submission",
        "team": {"id": TEAM},
        "user": {"id": USER, "team_id": TEAM},
        "api_app_id": "A1",
        "trigger_id": "7.3",
        "view": {"id": "V7", "type": "modal", "callback_id": ADD_DIGEST_VIEW, "state": {"values": values}},
    }
    return urlencode({"payload": json.dumps(payload)})


async def test_a_replayed_view_submission_adds_one_digest(bot: Gatehouse) -> None:
    body = digest_submission()
    headers = signed_headers(body, secret=SIGNING_SECRET)
    assert (await bot.post(body, headers)).status_code == 200
    assert len(await bot.store.list_digests(team_id=TEAM)) == 1
    told = len(bot.slack.calls_to("chat.postMessage"))
    replay = await bot.post(body, headers)
    assert replay.status_code == 200 and replay.content == b""
    assert len(await bot.store.list_digests(team_id=TEAM)) == 1
    assert len(bot.slack.calls_to("chat.postMessage")) == told  # no second "Digest added"
