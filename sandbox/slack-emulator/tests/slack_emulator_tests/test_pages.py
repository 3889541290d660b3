"""The browser page's server side: static files, the per-user state snapshot, long-poll, UI actions."""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

import aiohttp
from slack_sdk.web.async_client import AsyncWebClient

from slack_emulator import Emulator, cli

from .conftest import ADA, BEN, CHLOE, GENERAL, BotStandIn, button, json_reply, section


async def get(url: str) -> tuple[int, str, str]:
    async with aiohttp.ClientSession() as session, session.get(url, allow_redirects=False) as response:
        return response.status, response.headers.get("Location", ""), await response.text()


async def ui(emu: Emulator, action: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    url = f"{emu.base_url}/_emulator/ui/{action}"
    async with aiohttp.ClientSession() as session, session.post(url, json=body) as response:
        return response.status, await response.json()


async def snapshot(emu: Emulator, user: str) -> dict[str, Any]:
    url = f"{emu.base_url}/_emulator/state"
    async with aiohttp.ClientSession() as session, session.get(url, params={"user": user}) as response:
        return await response.json()


async def test_page_and_its_scripts_are_served_locally(emu: Emulator) -> None:
    status, _, html = await get(f"{emu.base_url}/")
    assert status == 200
    assert '<script src="/static/app.js">' in html
    assert "http" not in html.replace("http-equiv", "")  # nothing fetched from the network
    for asset in ("app.js", "blockkit.js", "app.css"):
        status, _, body = await get(f"{emu.base_url}/static/{asset}")
        assert status == 200 and body


async def test_ephemerals_appear_only_in_their_users_snapshot(client: AsyncWebClient, emu: Emulator) -> None:
    await client.chat_postMessage(channel=GENERAL, text="for all")
    await client.chat_postEphemeral(channel=GENERAL, user=BEN, text="for Ben")
    ben, ada = await snapshot(emu, BEN), await snapshot(emu, ADA)
    assert [e["text"] for e in ben["ephemerals"]] == ["for Ben"]
    assert ada["ephemerals"] == []
    assert [m["text"] for m in ada["messages"][GENERAL]] == ["for all"]
    assert {u["id"]: u["is_admin"] for u in ada["users"]} == {ADA: True, BEN: False, CHLOE: False}


async def test_direct_messages_show_only_for_their_user(client: AsyncWebClient, emu: Emulator) -> None:
    dm = (await client.chat_postMessage(channel=BEN, text="psst"))["channel"]
    assert dm in {c["id"] for c in (await snapshot(emu, BEN))["channels"]}
    assert dm not in {c["id"] for c in (await snapshot(emu, ADA))["channels"]}


async def test_long_poll_returns_when_something_changes(client: AsyncWebClient, emu: Emulator) -> None:
    version = (await snapshot(emu, ADA))["version"]
    async with aiohttp.ClientSession() as session:
        params = {"user": ADA, "since": str(version)}
        poll = asyncio.create_task(session.get(f"{emu.base_url}/_emulator/state", params=params))
        await client.chat_postMessage(channel=GENERAL, text="news")
        async with await poll as response:
            body = await response.json()
    assert body["version"] > version
    assert [m["text"] for m in body["messages"][GENERAL]] == ["news"]


async def test_typed_command_goes_to_the_bot_and_reply_shows(emu: Emulator, bot: BotStandIn) -> None:
    bot.reply = json_reply({"text": "Here is the help"})
    status, body = await ui(emu, "command", {"user": CHLOE, "channel": GENERAL, "text": "/minds help"})
    received = await bot.next()
    assert status == 200 and body["delivery"]["error"] is None
    assert (received.fields["command"], received.fields["text"], received.fields["user_id"]) == (
        "/minds",
        "help",
        CHLOE,
    )
    assert [e["text"] for e in (await snapshot(emu, CHLOE))["ephemerals"]] == ["Here is the help"]


async def test_click_and_submit_from_the_page(client: AsyncWebClient, emu: Emulator, bot: BotStandIn) -> None:
    posted = await client.chat_postMessage(
        channel=GENERAL, text="x", blocks=[section("Go", accessory=button("Go", "go"))]
    )
    block_id = emu.state.messages(GENERAL)[0].blocks[0]["block_id"]
    body = {"user": ADA, "channel": GENERAL, "ts": posted["ts"], "block_id": block_id, "action_id": "go"}
    assert (await ui(emu, "action", body))[0] == 200
    payload = (await bot.next()).payload
    assert payload["actions"][0]["action_id"] == "go"

    status, refused = await ui(emu, "action", body | {"action_id": "missing"})
    assert status == 400 and "missing" in refused["error"]


async def test_locale_switch_changes_users_info(client: AsyncWebClient, emu: Emulator) -> None:
    await ui(emu, "locale", {"user": BEN, "locale": "de-DE"})
    assert (await client.users_info(user=BEN, include_locale=True))["user"]["locale"] == "de-DE"


async def test_permalink_opens_the_page_at_the_message(client: AsyncWebClient, emu: Emulator) -> None:
    posted = await client.chat_postMessage(channel=GENERAL, text="x")
    link = (await client.chat_getPermalink(channel=GENERAL, message_ts=posted["ts"]))["permalink"]
    status, location, _ = await get(link)
    assert (status, location) == (302, f"/#channel={GENERAL}&ts={posted['ts']}")


def test_cli_builds_the_config_from_arguments() -> None:
    parser = argparse.ArgumentParser()
    cli.add_arguments(parser)
    config = cli.config_from_args(
        parser.parse_args(["--port", "4000", "--bot-url", "http://127.0.0.1:5000/slack/events", "--ack-timeout", "1"])
    )
    assert (config.port, config.bot_events_url, config.ack_timeout) == (
        4000,
        "http://127.0.0.1:5000/slack/events",
        1.0,
    )
