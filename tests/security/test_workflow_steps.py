"""Workflow steps meet the same gate as every request: a ``function_executed`` event is signed, and one from
another workspace never reaches this workspace's Minds key or channels; the Study is looked up with the key of
the workspace the step runs in, so another key's Study is "not found", never run."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest

from tests.fakes.bot import BotHarness, bot_harness
from tests.fakes.minds_http import page
from tests.fakes.slack_requests import event_body

OTHER_TEAM = "T0002"
OTHER_KEYS_STUDY = "00000000-0000-4000-8000-0000000000ff"


def step_event(execution: str = "Fx1", **inputs: str) -> dict[str, object]:
    return {
        "type": "function_executed",
        "function": {"id": "Fn1", "callback_id": "minds_ask_question", "app_id": "A1"},
        "inputs": inputs,
        "function_execution_id": execution,
        "workflow_execution_id": "Wx1",
        "event_ts": "1733150000.000001",
        "bot_access_token": "xwfp-step-token",
    }


INPUTS = {"study": "Launch", "question": "Do you like it?", "channel": "C0001", "asked_by": "U0001"}


@pytest.fixture
async def bot() -> AsyncIterator[BotHarness]:
    async with bot_harness() as harness:
        harness.minds_api.on("GET", "/studies", page([], total=0, offset=0))
        yield harness


async def test_a_step_from_another_workspace_reaches_no_minds_and_no_channel(bot: BotHarness) -> None:
    body = event_body(step_event(**INPUTS), team=OTHER_TEAM, event_id="EvOther")
    assert (await bot.send(body, content_type="application/json")).status == 200
    # A step of this workspace sent after it (one without a question) is answered: the first one was not.
    await bot.event(step_event("Fx2", **(INPUTS | {"question": ""})), event_id="EvOwn")
    (answered,) = await bot.slack.wait_for("functions.completeError")
    assert answered["function_execution_id"] == "Fx2"
    assert bot.minds_api.sent == []
    assert bot.slack.calls_to("chat.postMessage") == []
    assert bot.slack.calls_to("functions.completeSuccess") == []


async def test_another_keys_study_is_not_found_and_nothing_is_asked(bot: BotHarness) -> None:
    bot.minds_api.on("GET", f"/studies/{OTHER_KEYS_STUDY}", lambda request: _not_found())
    await bot.event(step_event(**(INPUTS | {"study": OTHER_KEYS_STUDY})), event_id="EvStudy")
    (failed,) = await bot.slack.wait_for("functions.completeError")
    assert failed["function_execution_id"] == "Fx1"
    assert failed["error"].startswith("Minds was not asked: ")
    assert bot.slack.calls_to("chat.postMessage") == []
    assert not [r for r in bot.minds_api.sent if r.method == "POST"]
    assert bot.slack.calls_to("functions.completeSuccess") == []


def _not_found() -> httpx.Response:
    return httpx.Response(404, json={"error": {"code": "NOT_FOUND", "message": "Study not found"}})
