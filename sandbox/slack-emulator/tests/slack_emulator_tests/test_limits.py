"""Slack's Block Kit limits and simulated rate limits, seen as slack_sdk errors."""

from __future__ import annotations

import secrets
from typing import Any

import aiohttp
import pytest
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from slack_emulator import Emulator, blockkit, running_emulator

from .conftest import BOT_TOKEN, GENERAL, BotStandIn, FakeClock, button, make_config, section


def actions(count: int) -> dict[str, Any]:
    return {"type": "actions", "elements": [button(f"b{i}", f"a{i}") for i in range(count)]}


def header(text: str) -> dict[str, Any]:
    return {"type": "header", "text": {"type": "plain_text", "text": text}}


TOO_BIG = [
    pytest.param([section("x")] * 51, "no more than 50 items allowed [json-pointer:/blocks]", id="51 blocks"),
    pytest.param([section("x" * 3001)], "/blocks/0/text/text", id="section text 3001"),
    pytest.param([header("h" * 151)], "/blocks/0/text/text", id="header 151"),
    pytest.param([actions(1) | {"elements": [button("b" * 76, "a")]}], "/elements/0/text/text", id="button 76"),
    pytest.param([actions(1) | {"elements": [button("b", "a" * 256)]}], "/elements/0/action_id", id="action_id"),
    pytest.param([actions(26)], "no more than 25 items allowed", id="26 elements"),
    pytest.param([{"type": "section"}], "must provide text or fields", id="section empty"),
    pytest.param([{"type": "header"}], "missing required field: text", id="header empty"),
    pytest.param([{"type": "image", "image_url": "http://x/y.png"}], "missing required field: alt_text", id="alt"),
    pytest.param([{"type": "carousel"}], "unsupported block type", id="unknown type"),
    pytest.param([section("a", block_id="b"), section("b", block_id="b")], "duplicate block_id", id="dup id"),
]


@pytest.mark.parametrize(("blocks", "expected"), TOO_BIG)
async def test_invalid_blocks_are_refused_with_slacks_error(
    client: AsyncWebClient, emu: Emulator, blocks: list[dict[str, Any]], expected: str
) -> None:
    with pytest.raises(SlackApiError) as caught:
        await client.chat_postMessage(channel=GENERAL, text="fallback", blocks=blocks)
    assert caught.value.response["error"] == "invalid_blocks"
    assert any(expected in e for e in caught.value.response["errors"])
    assert emu.state.messages(GENERAL) == []


async def test_limits_are_inclusive(client: AsyncWebClient) -> None:
    blocks = [section("x" * 3000), header("h" * 150), actions(25)] + [{"type": "divider"}] * 47
    response = await client.chat_postMessage(channel=GENERAL, text="fallback", blocks=blocks)
    assert len(response["message"]["blocks"]) == 50


async def test_text_over_40000_characters_is_too_long(client: AsyncWebClient) -> None:
    with pytest.raises(SlackApiError) as caught:
        await client.chat_postMessage(channel=GENERAL, text="x" * 40_001)
    assert caught.value.response["error"] == "msg_too_long"


async def test_message_without_text_or_blocks(client: AsyncWebClient) -> None:
    with pytest.raises(SlackApiError) as caught:
        await client.api_call("chat.postMessage", json={"channel": GENERAL})
    assert caught.value.response["error"] == "no_text"


async def test_invalid_blocks_also_refused_on_update_and_publish(client: AsyncWebClient) -> None:
    posted = await client.chat_postMessage(channel=GENERAL, text="ok")
    with pytest.raises(SlackApiError) as caught:
        await client.chat_update(channel=GENERAL, ts=posted["ts"], text="x", blocks=[header("h" * 151)])
    assert caught.value.response["error"] == "invalid_blocks"
    home = {"type": "home", "blocks": [section("x")] * 101}
    with pytest.raises(SlackApiError) as caught:
        await client.views_publish(user_id="U01ADA0001", view=home)
    assert caught.value.response["error"] == "invalid_blocks"
    await client.views_publish(user_id="U01ADA0001", view={"type": "home", "blocks": [section("x")] * 100})


def test_slack_fills_block_and_action_ids() -> None:
    filled = blockkit.fill_ids([actions(1) | {"elements": [{**button("b", "a"), "action_id": None}]}], lambda: "id1")
    assert filled[0]["block_id"] == "id1"
    assert filled[0]["elements"][0]["action_id"] == "id1"


async def test_rate_limit_gives_429_with_retry_after_then_recovers(client: AsyncWebClient, emu: Emulator) -> None:
    emu.rate_limit("chat.postMessage", retry_after=7, count=1)
    with pytest.raises(SlackApiError) as caught:
        await client.chat_postMessage(channel=GENERAL, text="x")
    assert caught.value.response.status_code == 429
    assert caught.value.response["error"] == "ratelimited"
    assert caught.value.response.headers["Retry-After"] == "7"
    assert emu.state.messages(GENERAL) == []
    await client.chat_postMessage(channel=GENERAL, text="x")
    await client.chat_update(channel=GENERAL, ts=emu.state.messages(GENERAL)[0].ts, text="other methods unaffected")


async def test_rate_limit_through_the_control_endpoint(client: AsyncWebClient, emu: Emulator) -> None:
    async with aiohttp.ClientSession() as session:
        limit = {"method": "views.publish", "retry_after": 2, "count": None}
        async with session.post(f"{emu.base_url}/_emulator/ratelimit", json=limit) as response:
            assert response.status == 200
        for _ in range(2):
            with pytest.raises(SlackApiError) as caught:
                await client.views_publish(user_id="U01ADA0001", view={"type": "home", "blocks": []})
            assert caught.value.response.headers["Retry-After"] == "2"
        async with session.delete(f"{emu.base_url}/_emulator/ratelimit?method=views.publish") as response:
            assert response.status == 200
    await client.views_publish(user_id="U01ADA0001", view={"type": "home", "blocks": []})


async def test_rate_limit_from_config_stands(bot: BotStandIn, clock: FakeClock) -> None:
    config = make_config(bot, clock, ratelimited_methods={"reactions.add": 30})
    async with running_emulator(config) as emulator:
        web_client = AsyncWebClient(token=BOT_TOKEN, base_url=emulator.api_url)
        posted = await web_client.chat_postMessage(channel=GENERAL, text="x")
        for name in ("eyes", "tada"):
            with pytest.raises(SlackApiError) as caught:
                await web_client.reactions_add(channel=GENERAL, timestamp=posted["ts"], name=name)
            assert caught.value.response.headers["Retry-After"] == "30"


async def test_with_slack_limits_a_channel_takes_a_burst_then_one_post_a_second(
    bot: BotStandIn, clock: FakeClock
) -> None:
    async with running_emulator(make_config(bot, clock, slack_limits=True)) as emu:
        client = AsyncWebClient(token=BOT_TOKEN, base_url=emu.api_url)
        for n in range(10):
            await client.chat_postMessage(channel=GENERAL, text=f"post {n}")
        with pytest.raises(SlackApiError) as caught:
            await client.chat_postMessage(channel=GENERAL, text="one too many")
        assert caught.value.response.status_code == 429
        assert caught.value.response.headers["Retry-After"] == "1"
        clock.advance(1)
        await client.chat_postMessage(channel=GENERAL, text="a second later")
        assert len(emu.state.messages(GENERAL)) == 11
        assert emu.pace is not None and emu.pace.refused == {"chat.postMessage": 1}


async def test_with_slack_limits_updates_are_tier_3_per_workspace(bot: BotStandIn, clock: FakeClock) -> None:
    """Fifty chat.update calls a minute per workspace; another install of the app has its own fifty."""
    other = "xoxb-" + secrets.token_hex(6)  # another install: a fake token
    config = make_config(bot, clock, slack_limits=True, installs={other: "T02OTHER00"})
    async with running_emulator(config) as emu:
        client = AsyncWebClient(token=BOT_TOKEN, base_url=emu.api_url)
        second = AsyncWebClient(token=other, base_url=emu.api_url)
        posted = await client.chat_postMessage(channel=GENERAL, text="progress")
        for n in range(50):
            clock.advance(0.5)
            await client.chat_update(channel=GENERAL, ts=posted["ts"], text=f"{n} of 50")
        with pytest.raises(SlackApiError) as caught:
            await client.chat_update(channel=GENERAL, ts=posted["ts"], text="too soon")
        assert caught.value.response.status_code == 429
        assert int(caught.value.response.headers["Retry-After"]) == 36  # the first update leaves the minute then
        mine = await second.chat_postMessage(channel=GENERAL, text="another workspace's progress")
        await second.chat_update(channel=GENERAL, ts=mine["ts"], text="its own minute")
        assert (await second.auth_test())["ok"]
