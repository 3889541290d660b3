"""The emulator's Web API as the bot sees it: through slack_sdk's real AsyncWebClient."""

from __future__ import annotations

import secrets

import aiohttp
import pytest
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from slack_emulator import DemoChannel, Emulator, running_emulator

from .conftest import (
    ADA,
    BEN,
    BOT_TOKEN,
    BRAND,
    CHLOE,
    GENERAL,
    RESEARCH,
    BotStandIn,
    FakeClock,
    make_config,
    section,
)


async def test_auth_test_names_the_bot_and_team(client: AsyncWebClient, emu: Emulator) -> None:
    response = await client.auth_test()
    assert response["user_id"] == emu.config.bot_user_id
    assert response["bot_id"] == emu.config.bot_id
    assert response["team_id"] == emu.config.team_id
    assert response["url"] == f"{emu.workspace.links.base}/", "the workspace's address: its message links' origin"


@pytest.mark.parametrize(("token", "error"), [("xoxb-" + secrets.token_hex(6), "invalid_auth"), ("", "not_authed")])
async def test_bad_or_missing_token_is_refused(emu: Emulator, token: str, error: str) -> None:
    with pytest.raises(SlackApiError) as caught:
        await AsyncWebClient(token=token or None, base_url=emu.api_url).chat_postMessage(channel=GENERAL, text="x")
    assert caught.value.response["error"] == error


async def test_form_encoded_call_with_token_in_body_posts_blocks(emu: Emulator) -> None:
    form = {"token": BOT_TOKEN, "channel": "#research", "blocks": '[{"type":"divider"}]', "text": "fallback"}
    async with (
        aiohttp.ClientSession() as session,
        session.post(f"{emu.api_url}chat.postMessage", data=form) as r,
    ):
        body = await r.json()
    assert body["ok"] is True
    assert body["channel"] == RESEARCH
    assert emu.state.messages(RESEARCH)[0].blocks[0]["type"] == "divider"


async def test_post_then_update_changes_the_stored_message(client: AsyncWebClient, emu: Emulator) -> None:
    posted = await client.chat_postMessage(channel=GENERAL, text="draft", blocks=[section("*Plan*")])
    assert posted["ts"].startswith("1733140000.")
    await client.chat_update(channel=GENERAL, ts=posted["ts"], text="final")
    [message] = emu.state.messages(GENERAL)
    assert message.text == "final"
    assert message.blocks[0]["text"]["text"] == "*Plan*"  # chat.update without blocks keeps them
    assert message.edited_ts is not None
    await client.chat_update(channel=GENERAL, ts=posted["ts"], text="plain", blocks=[])
    assert emu.state.messages(GENERAL)[0].blocks == []


async def test_timestamps_increase_even_when_the_clock_stands_still(client: AsyncWebClient) -> None:
    first = await client.chat_postMessage(channel=GENERAL, text="a")
    second = await client.chat_postMessage(channel=GENERAL, text="b")
    assert float(second["ts"]) > float(first["ts"])


async def test_thread_replies_count_on_the_parent(client: AsyncWebClient, emu: Emulator) -> None:
    parent = await client.chat_postMessage(channel=GENERAL, text="parent")
    reply = await client.chat_postMessage(channel=GENERAL, text="one", thread_ts=parent["ts"])
    await client.chat_postMessage(channel=GENERAL, text="two", thread_ts=reply["ts"])  # a reply's ts -> thread
    [top] = emu.state.messages(GENERAL)
    assert top.reply_count == 2
    assert [m.text for m in emu.state.replies(GENERAL, parent["ts"])] == ["one", "two"]
    with pytest.raises(SlackApiError) as caught:
        await client.chat_postMessage(channel=GENERAL, text="x", thread_ts="1.000000")
    assert caught.value.response["error"] == "thread_not_found"


async def test_ephemeral_is_visible_only_to_its_user(client: AsyncWebClient, emu: Emulator) -> None:
    response = await client.chat_postEphemeral(channel=GENERAL, user=BEN, text="only Ben")
    assert response["message_ts"]
    assert [e.text for e in emu.state.ephemerals(BEN)] == ["only Ben"]
    assert emu.state.ephemerals(ADA) == []
    assert emu.state.messages(GENERAL) == []


async def test_delete_and_permalink(client: AsyncWebClient, emu: Emulator) -> None:
    parent = await client.chat_postMessage(channel=GENERAL, text="parent")
    reply = await client.chat_postMessage(channel=GENERAL, text="reply", thread_ts=parent["ts"])
    link = await client.chat_getPermalink(channel=GENERAL, message_ts=reply["ts"])
    assert link["permalink"].startswith(f"{emu.base_url}/archives/{GENERAL}/p")
    assert f"thread_ts={parent['ts']}" in link["permalink"]
    await client.chat_delete(channel=GENERAL, ts=parent["ts"])
    assert emu.state.messages(GENERAL) == []
    with pytest.raises(SlackApiError) as caught:
        await client.chat_getPermalink(channel=GENERAL, message_ts=parent["ts"])
    assert caught.value.response["error"] == "message_not_found"


async def test_bot_outside_a_channel_must_join_first(bot: BotStandIn, clock: FakeClock) -> None:
    config = make_config(bot, clock, channels=(DemoChannel(id=BRAND, name="brand", bot_is_member=False),))
    async with running_emulator(config) as emulator:
        web_client = AsyncWebClient(token=BOT_TOKEN, base_url=emulator.api_url)
        with pytest.raises(SlackApiError) as caught:
            await web_client.chat_postMessage(channel=BRAND, text="hello")
        assert caught.value.response["error"] == "not_in_channel"
        joined = await web_client.conversations_join(channel=BRAND)
        assert joined["channel"]["is_member"] is True
        assert "warning" not in joined
        again = await web_client.conversations_join(channel=BRAND)
        assert again["warning"] == "already_in_channel"
        await web_client.chat_postMessage(channel=BRAND, text="hello")
        assert [m.text for m in emulator.state.messages(BRAND)] == ["hello"]


async def test_users_conversations_lists_a_persons_channels_page_by_page(client: AsyncWebClient) -> None:
    first = await client.users_conversations(user=BEN, types="public_channel,private_channel", limit=1)
    assert len(first["channels"]) == 1 and first["response_metadata"]["next_cursor"]
    everything = await client.users_conversations(user=BEN, types="public_channel,private_channel", limit=200)
    names = {c["name"] for c in everything["channels"]}
    assert first["channels"][0]["name"] in names and "research" in names
    assert not any(c["is_im"] for c in everything["channels"])  # DMs only when asked for


async def test_users_info_gives_locale_timezone_and_admin_flag(client: AsyncWebClient) -> None:
    chloe = (await client.users_info(user=CHLOE, include_locale=True))["user"]
    assert (chloe["locale"], chloe["tz"], chloe["tz_offset"]) == ("fr-FR", "Europe/Paris", 3600)
    assert chloe["is_admin"] is False
    ada = (await client.users_info(user=ADA))["user"]
    assert ada["is_admin"] is True
    assert "locale" not in ada
    ben = (await client.users_info(user=BEN, include_locale=True))["user"]
    assert (ben["locale"], ben["tz_offset"]) == ("en-US", -5 * 3600)
    with pytest.raises(SlackApiError) as caught:
        await client.users_info(user="U0NOBODY00")
    assert caught.value.response["error"] == "user_not_found"


async def test_conversations_info_and_unknown_channel(client: AsyncWebClient) -> None:
    info = await client.conversations_info(channel=RESEARCH)
    assert info["channel"]["name"] == "research"
    with pytest.raises(SlackApiError) as caught:
        await client.conversations_info(channel="C0MISSING00")
    assert caught.value.response["error"] == "channel_not_found"


async def test_conversations_members_pages_the_people_and_the_bot(client: AsyncWebClient, emu: Emulator) -> None:
    seen: list[str] = []
    cursor = None
    pages = 0
    while True:
        reply = await client.conversations_members(channel=RESEARCH, limit=2, cursor=cursor)
        seen += reply["members"]
        pages += 1
        cursor = reply["response_metadata"]["next_cursor"] or None
        if cursor is None:
            break
    assert set(seen) == {ADA, BEN, CHLOE, emu.config.bot_user_id} and pages == 2
    with pytest.raises(SlackApiError) as caught:
        await client.conversations_members(channel="C0MISSING00")
    assert caught.value.response["error"] == "channel_not_found"


async def test_posting_to_a_user_opens_a_direct_message(client: AsyncWebClient, emu: Emulator) -> None:
    response = await client.chat_postMessage(channel=BEN, text="psst")
    assert response["channel"].startswith("D")
    assert emu.state.channels[response["channel"]].im_user == BEN


async def test_conversations_open_gives_the_same_direct_message_channel_each_time(
    client: AsyncWebClient, emu: Emulator
) -> None:
    opened = (await client.conversations_open(users=BEN))["channel"]["id"]
    assert emu.state.channels[opened].im_user == BEN
    assert (await client.conversations_open(users=BEN))["channel"]["id"] == opened
    await client.chat_postMessage(channel=opened, text="psst")
    assert [m.text for m in emu.state.messages(opened)] == ["psst"]
    with pytest.raises(SlackApiError) as caught:
        await client.conversations_open(users=f"{BEN},{ADA}")
    assert caught.value.response["error"] == "too_many_users"


async def test_reactions_add_once_per_name(client: AsyncWebClient, emu: Emulator) -> None:
    posted = await client.chat_postMessage(channel=GENERAL, text="done")
    await client.reactions_add(channel=GENERAL, timestamp=posted["ts"], name="white_check_mark")
    assert emu.state.messages(GENERAL)[0].reactions == {"white_check_mark": [emu.config.bot_user_id]}
    with pytest.raises(SlackApiError) as caught:
        await client.reactions_add(channel=GENERAL, timestamp=posted["ts"], name="white_check_mark")
    assert caught.value.response["error"] == "already_reacted"


async def test_file_upload_shares_into_thread_and_downloads(client: AsyncWebClient, emu: Emulator) -> None:
    parent = await client.chat_postMessage(channel=RESEARCH, text="results")
    content = b"persona,answer\nP1,yes\n"
    response = await client.files_upload_v2(
        channel=RESEARCH,
        thread_ts=parent["ts"],
        filename="results.csv",
        content=content,
        title="Study results",
        initial_comment="Here are the results",
    )
    shared = response["file"]
    assert shared["title"] == "Study results"
    [reply] = emu.state.replies(RESEARCH, parent["ts"])
    assert reply.text == "Here are the results"
    assert reply.files == [shared["id"]]
    bearer = {"Authorization": f"Bearer {BOT_TOKEN}"}  # as the app reads a file: with its token
    async with (
        aiohttp.ClientSession() as session,
        session.get(shared["url_private_download"], headers=bearer) as download,
    ):
        assert download.status == 200
        assert await download.read() == content


async def test_complete_upload_of_a_file_never_uploaded_fails(client: AsyncWebClient) -> None:
    started = await client.files_getUploadURLExternal(filename="a.txt", length=3)
    with pytest.raises(SlackApiError) as caught:
        await client.files_completeUploadExternal(files=[{"id": started["file_id"]}], channel_id=GENERAL)
    assert caught.value.response["error"] == "file_not_found"


async def test_unknown_method(client: AsyncWebClient) -> None:
    with pytest.raises(SlackApiError) as caught:
        await client.api_call("chat.teleport")
    assert caught.value.response["error"] == "unknown_method"


async def test_conversations_replies_reads_a_message_and_its_thread_where_the_bot_is(
    client: AsyncWebClient, emu: Emulator
) -> None:
    top = await emu.post_message(user=ADA, channel=RESEARCH, text="the concept")
    reply = await emu.post_message(user=BEN, channel=RESEARCH, text="a reply", thread_ts=top.ts)
    whole = await client.conversations_replies(channel=RESEARCH, ts=top.ts)
    assert [m["text"] for m in whole["messages"]] == ["the concept", "a reply"]
    one = await client.conversations_replies(
        channel=RESEARCH, ts=top.ts, oldest=reply.ts, latest=reply.ts, inclusive=True
    )
    assert [m["ts"] for m in one["messages"]] == [top.ts, reply.ts]  # the parent first, as Slack does
    emu.state.resolve_channel(BRAND).bot_is_member = False
    elsewhere = await emu.post_message(user=ADA, channel=BRAND, text="secret")
    with pytest.raises(SlackApiError) as caught:
        await client.conversations_replies(channel=BRAND, ts=elsewhere.ts)
    assert caught.value.response["error"] == "not_in_channel"


async def test_files_info_describes_a_file_the_bot_can_see_by_its_id(client: AsyncWebClient, emu: Emulator) -> None:
    shared = emu.share_file(user=ADA, channel=RESEARCH, name="shoe.png", content=b"\x89PNG\r\n\x1a\npng")
    (file_id,) = shared.files
    described = (await client.files_info(file=file_id))["file"]
    assert (described["id"], described["name"], described["mimetype"]) == (file_id, "shoe.png", "image/png")
    bearer = {"Authorization": f"Bearer {BOT_TOKEN}"}
    async with (
        aiohttp.ClientSession() as session,
        session.get(described["url_private_download"], headers=bearer) as download,
    ):
        assert await download.read() == b"\x89PNG\r\n\x1a\npng"
    emu.state.resolve_channel(BRAND).bot_is_member = False
    elsewhere = emu.share_file(user=ADA, channel=BRAND, name="ad.png", content=b"png")
    for unseen in (elsewhere.files[0], "F0NOTHING"):
        with pytest.raises(SlackApiError) as caught:
            await client.files_info(file=unseen)
        assert caught.value.response["error"] == "file_not_found"
