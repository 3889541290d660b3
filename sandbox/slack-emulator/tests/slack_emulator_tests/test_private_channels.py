"""Private channels with their own members: only they see one (on the page and to the Web API), the bot only
where it was invited; Slack's answers for one the app is not in are ``channel_not_found``."""

from __future__ import annotations

import base64
import json
import secrets
from typing import Any

import aiohttp
import pytest
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from slack_emulator import Emulator, SlackError

from .conftest import ADA, BEN, BOT_TOKEN, CHLOE, BotStandIn

LEADERSHIP, PEOPLE_TEAM = "C01LEA0004", "C01PEO0005"  # private: Ada and Ben with the bot; Ada alone, no bot


async def snapshot(emu: Emulator, user: str) -> dict[str, Any]:
    url = f"{emu.base_url}/_emulator/state"
    async with aiohttp.ClientSession() as session, session.get(url, params={"user": user}) as response:
        return await response.json()


async def test_only_its_members_see_a_private_channel_on_the_page(emu: Emulator) -> None:
    seen = {user: {c["name"]: c for c in (await snapshot(emu, user))["channels"]} for user in (ADA, BEN, CHLOE)}
    assert {"leadership", "people-team"} <= set(seen[ADA])
    assert "leadership" in seen[BEN] and "people-team" not in seen[BEN]
    assert not {"leadership", "people-team"} & set(seen[CHLOE])
    assert seen[ADA]["leadership"]["is_private"] is True and seen[ADA]["research"]["is_private"] is False
    assert seen[ADA]["people-team"]["bot_is_member"] is False


async def test_the_bot_sees_a_private_channel_only_where_it_was_invited(emu: Emulator) -> None:
    client = AsyncWebClient(token=BOT_TOKEN, base_url=emu.api_url)
    info = (await client.conversations_info(channel=LEADERSHIP))["channel"]
    assert info["is_private"] is True and info["is_member"] is True
    assert set((await client.conversations_members(channel=LEADERSHIP))["members"]) == {
        ADA,
        BEN,
        emu.config.bot_user_id,
    }
    await client.chat_postMessage(channel=LEADERSHIP, text="for the leads")
    for call in (
        client.conversations_info(channel=PEOPLE_TEAM),
        client.conversations_members(channel=PEOPLE_TEAM),
        client.chat_postMessage(channel=PEOPLE_TEAM, text="hello?"),
        client.conversations_join(channel=PEOPLE_TEAM),
    ):
        with pytest.raises(SlackApiError) as caught:
            await call
        assert caught.value.response["error"] == "channel_not_found"
    with pytest.raises(SlackApiError) as caught:
        await client.conversations_join(channel=LEADERSHIP)  # a private channel is joined only by invitation
    assert caught.value.response["error"] == "method_not_supported_for_channel_type"


async def test_users_conversations_lists_the_private_channels_the_bot_shares(emu: Emulator) -> None:
    client = AsyncWebClient(token=BOT_TOKEN, base_url=emu.api_url)
    public = await client.users_conversations(user=ADA)
    assert "leadership" not in {c["name"] for c in public["channels"]}
    both = await client.users_conversations(user=ADA, types="public_channel,private_channel", limit=200)
    names = {c["name"] for c in both["channels"]}
    assert "leadership" in names and "people-team" not in names  # the app cannot see where it is not
    chloe = await client.users_conversations(user=CHLOE, types="public_channel,private_channel", limit=200)
    assert "leadership" not in {c["name"] for c in chloe["channels"]}


async def test_a_message_in_a_private_channel_reaches_the_bot_as_a_group_message(
    emu: Emulator, bot: BotStandIn
) -> None:
    await emu.post_message(user=BEN, channel=LEADERSHIP, text="Pricing call at 3")
    event = json.loads((await bot.next()).raw)["event"]
    assert (event["channel"], event["channel_type"], event["text"]) == (LEADERSHIP, "group", "Pricing call at 3")
    await emu.post_message(user=ADA, channel=PEOPLE_TEAM, text="not for the app")
    assert bot.received.empty()


async def test_someone_outside_a_private_channel_cannot_post_or_run_a_command_there(emu: Emulator) -> None:
    with pytest.raises(SlackError) as caught:
        await emu.post_message(user=CHLOE, channel=LEADERSHIP, text="let me in")
    assert caught.value.error == "channel_not_found"
    with pytest.raises(SlackError):
        await emu.send_slash_command(user=CHLOE, channel=LEADERSHIP, text="help")
    assert emu.state.messages(LEADERSHIP) == []


async def ui(emu: Emulator, action: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    url = f"{emu.base_url}/_emulator/ui/{action}"
    async with aiohttp.ClientSession() as session, session.post(url, json=body) as response:
        return response.status, await response.json()


async def test_a_file_uploaded_from_the_page_is_shared_and_served_to_the_bot(emu: Emulator) -> None:
    pdf = b"%PDF-1.4\n" + b"x" * 2000
    body = {"user": BEN, "channel": LEADERSHIP, "name": "brief.pdf", "text": "The brief"}
    status, shared = await ui(emu, "upload", body | {"content_base64": base64.b64encode(pdf).decode()})
    assert status == 200
    [message] = emu.state.messages(LEADERSHIP)
    assert (message.text, message.files) == ("The brief", [shared["file"]])
    client = AsyncWebClient(token=BOT_TOKEN, base_url=emu.api_url)
    info = (await client.files_info(file=shared["file"]))["file"]
    assert (info["name"], info["mimetype"], info["size"]) == ("brief.pdf", "application/pdf", len(pdf))
    headers = {"Authorization": f"Bearer {BOT_TOKEN}"}
    async with aiohttp.ClientSession() as session, session.get(info["url_private"], headers=headers) as response:
        assert response.status == 200 and await response.read() == pdf
    async with aiohttp.ClientSession() as session, session.get(info["url_private"]) as response:
        assert "Sign in" in await response.text()  # without the token: Slack's sign-in page, not the file
    wrong = {"Authorization": f"Bearer xoxb-{secrets.token_hex(6)}"}  # a token the emulator never issued
    async with aiohttp.ClientSession() as session, session.get(info["url_private"], headers=wrong) as response:
        assert await response.read() != pdf
    status, refused = await ui(emu, "upload", body | {"user": CHLOE, "content_base64": "aGk="})
    assert status == 400 and refused["error"] == "channel_not_found"  # Chloé is not in #leadership
    status, _ = await ui(emu, "upload", body | {"content_base64": "not base64!"})
    assert status == 400
