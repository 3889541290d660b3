"""The person's and the workspace's language: a person's locale is theirs (users.info with include_locale, and
Slack's user_change event when it changes); the workspace's is what Slack gives for its channels
(conversations.info with include_locale), changed on the page only by an admin."""

from __future__ import annotations

import json
from typing import Any

import aiohttp
from slack_sdk.web.async_client import AsyncWebClient

from slack_emulator import Emulator

from .conftest import ADA, BEN, BOT_TOKEN, RESEARCH, BotStandIn


async def ui(emu: Emulator, action: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    url = f"{emu.base_url}/_emulator/ui/{action}"
    async with aiohttp.ClientSession() as session, session.post(url, json=body) as response:
        return response.status, await response.json()


async def test_an_admin_switches_the_workspace_language_and_slack_says_so(emu: Emulator) -> None:
    client = AsyncWebClient(token=BOT_TOKEN, base_url=emu.api_url)
    assert (await client.conversations_info(channel=RESEARCH, include_locale=True))["channel"]["locale"] == "en-US"
    status, refused = await ui(emu, "team_locale", {"user": BEN, "locale": "de-DE"})
    assert status == 400 and "admin" in refused["error"]
    status, _ = await ui(emu, "team_locale", {"user": ADA, "locale": "de-DE"})
    assert status == 200
    assert (await client.conversations_info(channel=RESEARCH, include_locale=True))["channel"]["locale"] == "de-DE"
    # A person's own locale is theirs alone.
    assert (await client.users_info(user=BEN, include_locale=True))["user"]["locale"] == "en-US"


async def test_a_person_switches_their_language_and_the_bot_hears_user_change(emu: Emulator, bot: BotStandIn) -> None:
    status, _ = await ui(emu, "locale", {"user": BEN, "locale": "ko-KR"})
    assert status == 200
    event = json.loads((await bot.next()).raw)["event"]
    assert (event["type"], event["user"]["id"], event["user"]["locale"]) == ("user_change", BEN, "ko-KR")
    client = AsyncWebClient(token=BOT_TOKEN, base_url=emu.api_url)
    assert (await client.users_info(user=BEN, include_locale=True))["user"]["locale"] == "ko-KR"
