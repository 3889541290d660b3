"""Workflow steps in the emulator: a run sends the app a signed ``function_executed`` event with its inputs and
its own token; ``functions.completeSuccess``/``completeError`` end it once, with the declared outputs or an
error; the page offers "Run workflow step" and shows each run's outcome."""

from __future__ import annotations

import json
from typing import Any

import aiohttp
import pytest
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from slack_emulator import Emulator, StepSpec
from slack_emulator_tests.conftest import BEN, BOT_TOKEN, RESEARCH, BotStandIn

STEP = StepSpec(callback_id="ask", title="Ask", inputs=("question", "channel"), outputs=("summary", "n"))
# A step acting as whoever runs the workflow: Slack fills its user_context input, nobody types it.
AS_RUNNER = StepSpec(
    callback_id="ask_as_runner",
    title="Ask as the runner",
    inputs=("question", "run_by"),
    outputs=("summary",),
    user_context=("run_by",),
)


async def test_a_step_run_is_a_signed_function_executed_event_with_inputs_and_its_token(
    emu: Emulator, bot: BotStandIn
) -> None:
    emu.connect_bot(bot.url, steps=[STEP])
    execution, delivery = await emu.run_function(
        callback_id="ask", inputs={"question": "Why?", "channel": RESEARCH}, user=BEN
    )
    received = await bot.next()
    assert delivery.ok and received.signature_valid
    event = json.loads(received.raw)["event"]
    assert event["type"] == "function_executed" and event["function"]["callback_id"] == "ask"
    assert event["inputs"] == {"question": "Why?", "channel": RESEARCH}
    assert event["function_execution_id"] == execution.id
    assert event["bot_access_token"] == execution.token and execution.status == "running"


async def test_complete_success_records_the_outputs_once(emu: Emulator, bot: BotStandIn) -> None:
    emu.connect_bot(bot.url, steps=[STEP])
    execution, _ = await emu.run_function(callback_id="ask", inputs={}, user=BEN)
    step_client = AsyncWebClient(token=execution.token, base_url=emu.api_url)
    await step_client.functions_completeSuccess(function_execution_id=execution.id, outputs={"summary": "s", "n": 3})
    done = await emu.wait_for_function(execution.id)
    assert done.status == "completed" and done.outputs == {"summary": "s", "n": 3}

    bot_client = AsyncWebClient(token=BOT_TOKEN, base_url=emu.api_url)
    with pytest.raises(SlackApiError) as again:
        await bot_client.functions_completeError(function_execution_id=execution.id, error="late")
    assert again.value.response["error"] == "execution_not_in_running_state"
    with pytest.raises(SlackApiError) as expired:  # the step's token ends with the step
        await step_client.chat_postMessage(channel=RESEARCH, text="after the end")
    assert expired.value.response["error"] == "invalid_auth"


async def test_complete_error_and_the_refusals(emu: Emulator, bot: BotStandIn) -> None:
    emu.connect_bot(bot.url, steps=[STEP])
    client = AsyncWebClient(token=BOT_TOKEN, base_url=emu.api_url)
    execution, _ = await emu.run_function(callback_id="ask", inputs={}, user=BEN)
    with pytest.raises(SlackApiError) as missing:
        await client.functions_completeSuccess(function_execution_id=execution.id, outputs={"summary": "s"})
    assert missing.value.response["error"] == "parameter_validation_failed"  # "n" is declared
    with pytest.raises(SlackApiError) as unknown:
        await client.functions_completeError(function_execution_id="Fx0000", error="no")
    assert unknown.value.response["error"] == "function_execution_not_found"
    await client.functions_completeError(function_execution_id=execution.id, error="Minds was not asked")
    done = await emu.wait_for_function(execution.id)
    assert done.status == "failed" and done.error == "Minds was not asked" and done.outputs is None


async def _page(emu: Emulator, method: str, path: str, body: Any = None) -> tuple[int, dict[str, Any]]:
    async with aiohttp.ClientSession() as session, session.request(method, emu.base_url + path, json=body) as response:
        return response.status, await response.json()


async def test_the_page_runs_a_step_and_shows_its_outcome(emu: Emulator, bot: BotStandIn) -> None:
    emu.connect_bot(bot.url, steps=[STEP])
    status, answer = await _page(
        emu, "POST", "/_emulator/ui/function", {"user": BEN, "callback_id": "ask", "inputs": {"question": "Why?"}}
    )
    assert status == 200 and answer["ok"]
    client = AsyncWebClient(token=BOT_TOKEN, base_url=emu.api_url)
    await client.functions_completeSuccess(
        function_execution_id=answer["execution_id"], outputs={"summary": "s", "n": 1}
    )
    _, snap = await _page(emu, "GET", f"/_emulator/state?user={BEN}")
    assert snap["steps"] == [{"callback_id": "ask", "title": "Ask", "inputs": ["question", "channel"], "filled": []}]
    (run,) = snap["step_runs"]
    assert run["status"] == "completed" and run["outputs"] == {"summary": "s", "n": 1}
    status, refused = await _page(
        emu, "POST", "/_emulator/ui/function", {"user": BEN, "callback_id": "nope", "inputs": {}}
    )
    assert status == 400 and refused["error"] == "the app declares no such workflow step"


async def test_slack_fills_a_user_context_input_with_the_person_who_runs_the_workflow(
    emu: Emulator, bot: BotStandIn
) -> None:
    emu.connect_bot(bot.url, steps=[STEP, AS_RUNNER])
    typed = {"question": "Why?", "run_by": {"id": "U0SOMEONE", "secret": "made up"}}  # a builder cannot set it
    execution, delivery = await emu.run_function(callback_id="ask_as_runner", inputs=typed, user=BEN)
    received = await bot.next()
    event = json.loads(received.raw)["event"]
    assert delivery.ok and received.signature_valid
    assert event["inputs"]["question"] == "Why?"
    context = event["inputs"]["run_by"]
    assert context["id"] == BEN and isinstance(context["secret"], str) and context["secret"] != "made up"
    assert execution.inputs["run_by"] == context

    scheduled, _ = await emu.run_function(callback_id="ask_as_runner", inputs=typed, user=BEN, scheduled=True)
    event = json.loads((await bot.next()).raw)["event"]
    assert "run_by" not in event["inputs"] and "run_by" not in scheduled.inputs  # nobody ran it: nothing to fill

    _, snap = await _page(emu, "GET", f"/_emulator/state?user={BEN}")
    offered = {s["callback_id"]: s for s in snap["steps"]}["ask_as_runner"]
    assert offered["inputs"] == ["question"] and offered["filled"] == ["run_by"]  # the page types only the question
    run = {"user": BEN, "callback_id": "ask_as_runner", "inputs": {"question": "?"}}
    status, answer = await _page(emu, "POST", "/_emulator/ui/function", run)
    assert status == 200 and answer["ok"]
    assert emu.state.functions[answer["execution_id"]].inputs["run_by"]["id"] == BEN  # the person at the keyboard
