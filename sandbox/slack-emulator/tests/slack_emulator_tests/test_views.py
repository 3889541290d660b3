"""Modals and App Home through the Web API: trigger ids, the modal stack, hashes, publishing."""

from __future__ import annotations

from typing import Any

import pytest
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from slack_emulator import Emulator

from .conftest import ADA, BEN, GENERAL, BotStandIn, FakeClock, section


def modal(title: str, *blocks: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": "modal", "title": {"type": "plain_text", "text": title}, "blocks": list(blocks), **extra}


async def trigger_for(emu: Emulator, bot: BotStandIn, user: str = ADA) -> str:
    await emu.send_slash_command(user=user, channel=GENERAL, text="plan")
    return (await bot.next()).fields["trigger_id"]


async def test_open_update_push_from_a_slash_command_trigger(
    client: AsyncWebClient, emu: Emulator, bot: BotStandIn
) -> None:
    opened = await client.views_open(trigger_id=await trigger_for(emu, bot), view=modal("Plan", section("one")))
    view = opened["view"]
    assert view["id"].startswith("V")
    assert [v.id for v in emu.state.modal_stack(ADA)] == [view["id"]]

    updated = await client.views_update(view_id=view["id"], hash=view["hash"], view=modal("Plan", section("two")))
    assert updated["view"]["blocks"][0]["text"]["text"] == "two"
    with pytest.raises(SlackApiError) as caught:
        await client.views_update(view_id=view["id"], hash=view["hash"], view=modal("Plan", section("three")))
    assert caught.value.response["error"] == "hash_conflict"

    pushed = await client.views_push(trigger_id=await trigger_for(emu, bot), view=modal("Details", section("x")))
    assert pushed["view"]["root_view_id"] == view["id"]
    assert pushed["view"]["previous_view_id"] == view["id"]
    assert [v.id for v in emu.state.modal_stack(ADA)] == [view["id"], pushed["view"]["id"]]


async def test_modal_opens_for_the_user_whose_action_made_the_trigger(
    client: AsyncWebClient, emu: Emulator, bot: BotStandIn
) -> None:
    await client.views_open(trigger_id=await trigger_for(emu, bot, user=BEN), view=modal("Plan", section("x")))
    assert len(emu.state.modal_stack(BEN)) == 1
    assert emu.state.modal_stack(ADA) == []


async def test_no_more_than_three_modals_stack(client: AsyncWebClient, emu: Emulator, bot: BotStandIn) -> None:
    await client.views_open(trigger_id=await trigger_for(emu, bot), view=modal("One", section("1")))
    for title in ("Two", "Three"):
        await client.views_push(trigger_id=await trigger_for(emu, bot), view=modal(title, section("x")))
    with pytest.raises(SlackApiError) as caught:
        await client.views_push(trigger_id=await trigger_for(emu, bot), view=modal("Four", section("4")))
    assert caught.value.response["error"] == "push_limit_reached"


async def test_unknown_used_and_expired_triggers_are_refused(
    client: AsyncWebClient, emu: Emulator, bot: BotStandIn, clock: FakeClock
) -> None:
    with pytest.raises(SlackApiError) as caught:
        await client.views_open(trigger_id="123.456.abc", view=modal("Plan", section("x")))
    assert caught.value.response["error"] == "invalid_trigger_id"

    used = await trigger_for(emu, bot)
    await client.views_open(trigger_id=used, view=modal("Plan", section("x")))
    with pytest.raises(SlackApiError) as caught:
        await client.views_open(trigger_id=used, view=modal("Plan", section("x")))
    assert caught.value.response["error"] == "invalid_trigger_id"

    stale = await trigger_for(emu, bot)
    clock.advance(3.5)
    with pytest.raises(SlackApiError) as caught:
        await client.views_open(trigger_id=stale, view=modal("Plan", section("x")))
    assert caught.value.response["error"] == "expired_trigger_id"


async def test_expired_triggers_are_refused_until_switched_back(
    client: AsyncWebClient, emu: Emulator, bot: BotStandIn
) -> None:
    """A test's knob: every click reaches the app too late for its dialog (issue 28, hardening 3)."""
    emu.expire_triggers()
    for view in (client.views_open, client.views_push):
        with pytest.raises(SlackApiError) as caught:
            await view(trigger_id=await trigger_for(emu, bot), view=modal("Plan", section("x")))
        assert caught.value.response["error"] == "expired_trigger_id"
    emu.expire_triggers(False)
    await client.views_open(trigger_id=await trigger_for(emu, bot), view=modal("Plan", section("x")))
    assert len(emu.state.modal_stack(ADA)) == 1


async def test_modal_needs_a_short_title_and_submit_for_inputs(
    client: AsyncWebClient, emu: Emulator, bot: BotStandIn
) -> None:
    text_input = {
        "type": "input",
        "label": {"type": "plain_text", "text": "Question"},
        "element": {"type": "plain_text_input", "action_id": "q"},
    }
    for view in (modal("A title well over twenty-four chars", section("x")), modal("Ask", text_input)):
        with pytest.raises(SlackApiError) as caught:
            await client.views_open(trigger_id=await trigger_for(emu, bot), view=view)
        assert caught.value.response["error"] == "invalid_arguments"
    assert emu.state.modal_stack(ADA) == []


async def test_publish_home_then_republish(client: AsyncWebClient, emu: Emulator) -> None:
    home = {"type": "home", "blocks": [section("Welcome")]}
    first = await client.views_publish(user_id=BEN, view=home)
    second = await client.views_publish(user_id=BEN, view={"type": "home", "blocks": [section("Again")]})
    assert first["view"]["id"] == second["view"]["id"]
    assert emu.state.home(BEN).payload["blocks"][0]["text"]["text"] == "Again"
    assert emu.state.home(ADA) is None
    with pytest.raises(SlackApiError) as caught:
        await client.views_publish(user_id=BEN, view=modal("Not home", section("x")))
    assert caught.value.response["error"] == "invalid_arguments"
