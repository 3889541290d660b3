"""A real Bolt AsyncApp in HTTP mode against the emulator: the path the bot itself will take."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp import web
from slack_bolt.async_app import AsyncApp
from slack_sdk.web.async_client import AsyncWebClient

from slack_emulator import Emulator, EmulatorConfig, running_emulator

from .conftest import ADA, BEN, BOT_TOKEN, RESEARCH, SIGNING_SECRET, button, section

ASK_MODAL = {
    "type": "modal",
    "callback_id": "ask",
    "title": {"type": "plain_text", "text": "Ask the audience"},
    "submit": {"type": "plain_text", "text": "Ask"},
    "blocks": [
        {
            "type": "input",
            "block_id": "question",
            "label": {"type": "plain_text", "text": "Question"},
            "element": {"type": "plain_text_input", "action_id": "text"},
        }
    ],
}


def build_bolt_app(client: AsyncWebClient) -> AsyncApp:
    app = AsyncApp(signing_secret=SIGNING_SECRET, client=client)

    @app.command("/minds")
    async def minds(ack: Any, command: dict[str, Any], respond: Any, client: AsyncWebClient) -> None:
        await ack()
        if command["text"] == "ask":
            await client.views_open(trigger_id=command["trigger_id"], view=ASK_MODAL)
            return
        blocks = [section("Run the study?", accessory=button("Run", "run", "s1"))]
        await respond(text="Run the study?", blocks=blocks, response_type="in_channel")

    @app.action("run")
    async def run(ack: Any, body: dict[str, Any], respond: Any) -> None:
        await ack()
        await respond(replace_original=True, text=f"Started by <@{body['user']['id']}>")

    @app.view("ask")
    async def ask(ack: Any, view: dict[str, Any], body: dict[str, Any], client: AsyncWebClient) -> None:
        question = view["state"]["values"]["question"]["text"]["value"]
        if not question.endswith("?"):
            await ack(response_action="errors", errors={"question": "End with a question mark"})
            return
        await ack()
        await client.chat_postMessage(channel=RESEARCH, text=f"Asking: {question}")

    return app


@pytest.fixture
async def bolt_emulator() -> AsyncIterator[Emulator]:
    runner: web.AppRunner | None = None
    config = EmulatorConfig(port=0, signing_secret=SIGNING_SECRET, bot_token=BOT_TOKEN)
    async with running_emulator(config) as emulator:
        bolt = build_bolt_app(AsyncWebClient(token=BOT_TOKEN, base_url=emulator.api_url))
        runner = web.AppRunner(bolt.web_app(path="/slack/events"), access_log=None)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", 0).start()
        port = runner.addresses[0][1]
        emulator.connect_bot(f"http://127.0.0.1:{port}/slack/events")  # the bot's port is known only now
        try:
            yield emulator
        finally:
            await runner.cleanup()


async def test_command_button_and_response_url_through_bolt(bolt_emulator: Emulator) -> None:
    emu = bolt_emulator
    delivery = await emu.send_slash_command(user=BEN, channel=RESEARCH, text="run pricing")
    assert delivery.ok, delivery
    prompt = await emu.wait_for_message(RESEARCH, lambda m: m.text == "Run the study?")
    await emu.click_button(user=ADA, channel=RESEARCH, ts=prompt.ts, action_id="run")
    await emu.wait_for(lambda: emu.state.find_message(RESEARCH, prompt.ts).text == f"Started by <@{ADA}>")


async def test_modal_validation_then_submit_through_bolt(bolt_emulator: Emulator) -> None:
    emu = bolt_emulator
    await emu.send_slash_command(user=ADA, channel=RESEARCH, text="ask")
    modal = await emu.wait_for_modal(ADA)
    await emu.submit_view(user=ADA, inputs={"text": "Would you pay"})
    assert emu.state.modal_stack(ADA)[0].errors == {"question": "End with a question mark"}
    mark = emu.mark()
    await emu.submit_view(user=ADA, view_id=modal.id, inputs={"text": "Would you pay $5?"})
    assert emu.state.modal_stack(ADA) == []
    message = await emu.wait_for_message(RESEARCH, since=mark)
    assert message.text == "Asking: Would you pay $5?"
