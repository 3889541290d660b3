"""Signed requests to the bot (slash commands, block_actions, view_submission…) and the bot's answers."""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from slack_sdk.web.async_client import AsyncWebClient

from slack_emulator import Emulator, EmulatorUsageError, running_emulator

from .conftest import (
    ADA,
    BEN,
    GENERAL,
    BotStandIn,
    FakeClock,
    Received,
    button,
    json_reply,
    make_config,
    section,
)


async def post_json(url: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    async with aiohttp.ClientSession() as session, session.post(url, json=body) as response:
        return response.status, await response.json()


async def test_slash_command_is_signed_and_shaped_like_slack(emu: Emulator, bot: BotStandIn) -> None:
    delivery = await emu.send_slash_command(user=BEN, channel=GENERAL, text="plan pricing study")
    received = await bot.next()
    assert delivery.ok
    assert received.signature_valid
    assert received.content_type == "application/x-www-form-urlencoded"
    fields = received.fields
    assert (fields["command"], fields["text"], fields["user_id"], fields["user_name"]) == (
        "/minds",
        "plan pricing study",
        BEN,
        "ben",
    )
    assert (fields["channel_id"], fields["channel_name"], fields["team_id"]) == (
        GENERAL,
        "general",
        emu.config.team_id,
    )
    assert fields["response_url"].startswith(f"{emu.base_url}/_emulator/response/")
    assert fields["trigger_id"] and fields["api_app_id"] == emu.config.app_id and fields["token"]


async def test_wrong_signing_secret_shows_dispatch_failed(bot: BotStandIn, clock: FakeClock) -> None:
    config = make_config(bot, clock, signing_secret="not-the-bots-secret")
    async with running_emulator(config) as emulator:
        delivery = await emulator.send_slash_command(user=ADA, channel=GENERAL, text="help")
        assert not (await bot.next()).signature_valid
        assert (delivery.error, delivery.status) == ("dispatch_failed", 401)
        assert emulator.state.warnings[-1].error == "dispatch_failed"


async def test_command_ack_body_becomes_an_ephemeral_reply(emu: Emulator, bot: BotStandIn) -> None:
    bot.reply = json_reply({"text": "Working on it…"})
    await emu.send_slash_command(user=BEN, channel=GENERAL, text="run")
    assert [e.text for e in emu.state.ephemerals(BEN, GENERAL)] == ["Working on it…"]
    assert emu.state.ephemerals(ADA) == []


async def test_response_url_posts_replaces_and_deletes(emu: Emulator, bot: BotStandIn) -> None:
    await emu.send_slash_command(user=BEN, channel=GENERAL, text="plan")
    url = (await bot.next()).fields["response_url"]

    assert await post_json(url, {"text": "private"}) == (200, {"ok": True})
    assert [e.text for e in emu.state.ephemerals(BEN)] == ["private"]
    await post_json(url, {"text": "private, revised", "replace_original": True})
    assert [e.text for e in emu.state.ephemerals(BEN)] == ["private, revised"]
    await post_json(url, {"delete_original": True})
    assert emu.state.ephemerals(BEN) == []

    await post_json(url, {"text": "for everyone", "response_type": "in_channel", "blocks": [section("*hi*")]})
    [message] = emu.state.messages(GENERAL)
    assert (message.text, message.user) == ("for everyone", emu.config.bot_user_id)


async def test_response_url_refuses_bad_blocks_and_a_sixth_use(emu: Emulator, bot: BotStandIn) -> None:
    await emu.send_slash_command(user=BEN, channel=GENERAL, text="plan")
    url = (await bot.next()).fields["response_url"]
    status, body = await post_json(url, {"blocks": [{"type": "header"}]})
    assert (status, body["error"]) == (400, "invalid_blocks")
    for index in range(5):
        assert (await post_json(url, {"text": f"n{index}"}))[0] == 200
    status, body = await post_json(url, {"text": "one too many"})
    assert (status, body["error"]) == (404, "used_url")


async def test_button_click_sends_block_actions_and_response_url_replaces_message(
    client: AsyncWebClient, emu: Emulator, bot: BotStandIn
) -> None:
    blocks = [
        section("Approve?"),
        {"type": "actions", "block_id": "plan", "elements": [button("Approve", "approve", "p1")]},
    ]
    posted = await client.chat_postMessage(channel=GENERAL, text="Approve?", blocks=blocks)
    delivery = await emu.click_button(user=ADA, channel=GENERAL, ts=posted["ts"], action_id="approve")
    payload = (await bot.next()).payload
    assert delivery.ok
    assert payload["type"] == "block_actions"
    assert payload["container"] == {
        "type": "message",
        "message_ts": posted["ts"],
        "channel_id": GENERAL,
        "is_ephemeral": False,
    }
    assert payload["message"]["ts"] == posted["ts"]
    [action] = payload["actions"]
    assert (action["action_id"], action["block_id"], action["value"], action["type"]) == (
        "approve",
        "plan",
        "p1",
        "button",
    )
    assert payload["user"]["id"] == ADA and payload["channel"]["id"] == GENERAL and payload["trigger_id"]

    await post_json(payload["response_url"], {"replace_original": True, "text": "Approved by Ada"})
    [message] = emu.state.messages(GENERAL)
    assert (message.ts, message.text, message.blocks) == (posted["ts"], "Approved by Ada", [])


async def test_click_on_an_ephemeral_message(client: AsyncWebClient, emu: Emulator, bot: BotStandIn) -> None:
    posted = await client.chat_postEphemeral(
        channel=GENERAL, user=BEN, text="choose", blocks=[section("Pick", accessory=button("Go", "go"))]
    )
    await emu.click_button(user=BEN, channel=GENERAL, ts=posted["message_ts"], action_id="go")
    payload = (await bot.next()).payload
    assert payload["container"]["is_ephemeral"] is True
    assert "message" not in payload
    await post_json(payload["response_url"], {"replace_original": True, "text": "gone"})
    assert [e.text for e in emu.state.ephemerals(BEN)] == ["gone"]
    with pytest.raises(EmulatorUsageError):
        await emu.click_button(user=ADA, channel=GENERAL, ts=posted["message_ts"], action_id="go")


async def test_select_sends_the_chosen_option(client: AsyncWebClient, emu: Emulator, bot: BotStandIn) -> None:
    options = [{"text": {"type": "plain_text", "text": t}, "value": t.lower()} for t in ("Small", "Large")]
    select = {"type": "static_select", "action_id": "size", "options": options}
    posted = await client.chat_postMessage(channel=GENERAL, text="size", blocks=[section("Size", accessory=select)])
    await emu.select_option(user=ADA, channel=GENERAL, ts=posted["ts"], action_id="size", value="large")
    [action] = (await bot.next()).payload["actions"]
    assert action["selected_option"]["value"] == "large"
    with pytest.raises(EmulatorUsageError):
        await emu.select_option(user=ADA, channel=GENERAL, ts=posted["ts"], action_id="size", value="huge")


QUESTION = {
    "type": "input",
    "block_id": "question",
    "label": {"type": "plain_text", "text": "Question"},
    "element": {"type": "plain_text_input", "action_id": "text", "multiline": True},
}
AUDIENCE = {
    "type": "input",
    "block_id": "audience",
    "optional": True,
    "label": {"type": "plain_text", "text": "Audience"},
    "element": {
        "type": "static_select",
        "action_id": "pick",
        "options": [{"text": {"type": "plain_text", "text": "Gen Z"}, "value": "aud_1"}],
    },
}


def ask_modal(title: str = "Ask", **extra: Any) -> dict[str, Any]:
    return {
        "type": "modal",
        "callback_id": "ask",
        "title": {"type": "plain_text", "text": title},
        "submit": {"type": "plain_text", "text": "Ask"},
        "blocks": [QUESTION, AUDIENCE, {"type": "actions", "elements": [button("More", "more")]}],
        **extra,
    }


async def open_modal(client: AsyncWebClient, emu: Emulator, bot: BotStandIn, **extra: Any) -> str:
    await emu.send_slash_command(user=ADA, channel=GENERAL, text="ask")
    trigger = (await bot.next()).fields["trigger_id"]
    return (await client.views_open(trigger_id=trigger, view=ask_modal(**extra)))["view"]["id"]


async def test_view_submission_carries_state_values_and_empty_ack_closes(
    client: AsyncWebClient, emu: Emulator, bot: BotStandIn
) -> None:
    view_id = await open_modal(client, emu, bot)
    await emu.submit_view(user=ADA, inputs={"text": "Would you pay $5?", "audience/pick": "aud_1"})
    payload = (await bot.next()).payload
    assert payload["type"] == "view_submission"
    assert payload["view"]["id"] == view_id and payload["view"]["callback_id"] == "ask"
    values = payload["view"]["state"]["values"]
    assert values["question"]["text"] == {"type": "plain_text_input", "value": "Would you pay $5?"}
    assert values["audience"]["pick"]["selected_option"]["value"] == "aud_1"
    assert emu.state.modal_stack(ADA) == []


async def test_optional_inputs_left_empty_are_sent_empty(
    client: AsyncWebClient, emu: Emulator, bot: BotStandIn
) -> None:
    await open_modal(client, emu, bot)
    await emu.submit_view(user=ADA, inputs={"text": "Q"})
    values = (await bot.next()).payload["view"]["state"]["values"]
    assert values["audience"]["pick"] == {"type": "static_select", "selected_option": None}


async def test_required_input_must_be_filled_before_submit(
    client: AsyncWebClient, emu: Emulator, bot: BotStandIn
) -> None:
    await open_modal(client, emu, bot)
    with pytest.raises(EmulatorUsageError, match="question"):
        await emu.submit_view(user=ADA, inputs={})
    assert bot.received.empty()


async def test_response_action_errors_keeps_the_modal_with_messages(
    client: AsyncWebClient, emu: Emulator, bot: BotStandIn
) -> None:
    view_id = await open_modal(client, emu, bot)
    bot.reply = json_reply({"response_action": "errors", "errors": {"question": "Too short"}})
    await emu.submit_view(user=ADA, inputs={"text": "?"})
    [view] = emu.state.modal_stack(ADA)
    assert (view.id, view.errors) == (view_id, {"question": "Too short"})


@pytest.mark.parametrize(
    ("answer", "titles"),
    [
        ({"response_action": "update", "view": ask_modal("Updated")}, ["Updated"]),
        ({"response_action": "push", "view": ask_modal("Pushed")}, ["Ask", "Pushed"]),
        ({"response_action": "clear"}, []),
    ],
)
async def test_response_actions_update_push_clear(
    client: AsyncWebClient, emu: Emulator, bot: BotStandIn, answer: dict[str, Any], titles: list[str]
) -> None:
    await open_modal(client, emu, bot)
    bot.reply = json_reply(answer)
    await emu.submit_view(user=ADA, inputs={"text": "Q"})
    assert [v.payload["title"]["text"] for v in emu.state.modal_stack(ADA)] == titles


async def test_invalid_view_in_response_action_is_shown_as_a_warning(
    client: AsyncWebClient, emu: Emulator, bot: BotStandIn
) -> None:
    await open_modal(client, emu, bot)
    bot.reply = json_reply({"response_action": "update", "view": ask_modal("x" * 30)})
    await emu.submit_view(user=ADA, inputs={"text": "Q"})
    assert emu.state.modal_stack(ADA)[0].payload["title"]["text"] == "Ask"
    assert emu.state.warnings[-1].error == "invalid_arguments"


async def test_button_in_a_modal_sends_the_view(client: AsyncWebClient, emu: Emulator, bot: BotStandIn) -> None:
    view_id = await open_modal(client, emu, bot)
    await emu.click_button(user=ADA, view_id=view_id, action_id="more")
    payload = (await bot.next()).payload
    assert payload["container"] == {"type": "view", "view_id": view_id}
    assert payload["view"]["id"] == view_id
    assert "response_url" not in payload


async def test_close_notifies_only_when_asked(client: AsyncWebClient, emu: Emulator, bot: BotStandIn) -> None:
    await open_modal(client, emu, bot)
    assert await emu.close_view(user=ADA) is None
    assert emu.state.modal_stack(ADA) == []
    await open_modal(client, emu, bot, notify_on_close=True)
    await emu.close_view(user=ADA)
    assert (await bot.next()).payload["type"] == "view_closed"


async def test_external_select_asks_the_bot_for_options(client: AsyncWebClient, emu: Emulator, bot: BotStandIn) -> None:
    select = {"type": "external_select", "action_id": "audience", "min_query_length": 0}
    posted = await client.chat_postMessage(channel=GENERAL, text="x", blocks=[section("Audience", accessory=select)])
    option = {"text": {"type": "plain_text", "text": "Gen Z"}, "value": "aud_1"}
    bot.reply = json_reply({"options": [option]})
    options = await emu.request_options(user=ADA, action_id="audience", value="gen", channel=GENERAL, ts=posted["ts"])
    payload = (await bot.next()).payload
    assert (payload["type"], payload["value"], payload["action_id"]) == (
        "block_suggestion",
        "gen",
        "audience",
    )
    assert options == [option]


async def test_slow_bot_is_recorded_as_operation_timeout(bot: BotStandIn, clock: FakeClock) -> None:
    release = asyncio.Event()

    async def stall(received: Received) -> web.StreamResponse:
        await release.wait()
        return web.Response()

    bot.reply = stall
    async with running_emulator(make_config(bot, clock, ack_timeout=0.05)) as emulator:
        delivery = await emulator.send_slash_command(user=BEN, channel=GENERAL, text="slow")
        release.set()
        assert delivery.error == "operation_timeout"
        warning = emulator.state.warnings[-1]
        assert (warning.error, warning.user) == ("operation_timeout", BEN)


async def test_wait_for_message_wakes_on_the_next_post(client: AsyncWebClient, emu: Emulator) -> None:
    await client.chat_postMessage(channel=GENERAL, text="before")
    mark = emu.mark()
    waiter = asyncio.create_task(emu.wait_for_message(GENERAL, since=mark))
    await client.chat_postMessage(channel=GENERAL, text="after")
    assert (await waiter).text == "after"
    with pytest.raises(TimeoutError):
        await emu.wait_for_message(GENERAL, lambda m: m.text == "never", timeout=0.01)


async def test_response_url_expires_after_thirty_minutes(emu: Emulator, bot: BotStandIn, clock: FakeClock) -> None:
    await emu.send_slash_command(user=BEN, channel=GENERAL, text="plan")
    url = (await bot.next()).fields["response_url"]
    clock.advance(31 * 60)
    status, body = await post_json(url, {"text": "late"})
    assert (status, body["error"]) == (404, "expired_url")
    assert emu.state.ephemerals(BEN) == []
