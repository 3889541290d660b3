"""Every Slack request is acknowledged while the store cannot be reached, and the person is told once, in their
language, that nothing was done: a slash command in its acknowledgement (``/minds help``: the help, with a note that
the database cannot be reached, since help needs no store), a button through its response URL (on the App Home: a
Home that says it), a dialog on its first input, the App Home opened with a Home that says it, a Workflow step with
Slack's function error. Nothing reaches Minds, nothing is posted in a channel,
and each request is one WARNING line without a traceback. Through the real Bolt app and the HTTP gate
(tests/fakes/bot.py) with the store switched off (tests/fakes/outage.py); the real PostgreSQL stopped under a
running bot is tests/durability/test_store_outage.py's."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from typing import Any

import pytest
from slack_bolt.response import BoltResponse

from minds_bot.slack import middleware
from minds_bot.store import Store
from tests.fakes.bot import CHANNEL, TEAM, USER, BotHarness, bot_harness
from tests.fakes.outage import StoreSwitch, switchable

SENTENCE = "minds-bot cannot reach its database right now; nothing was done; try again in a minute."
SENTENCE_DE = (
    "minds-bot kann seine Datenbank gerade nicht erreichen; es wurde nichts getan; versuchen Sie es in einer Minute "
    "erneut."
)
OUTAGE_LINE = "the store cannot be reached: the request was acknowledged and nothing was done"
HELP_NOTE = (
    "minds-bot cannot reach its database right now: other commands do nothing until it answers; try again in a minute."
)
HELP_NOTE_DE = (
    "minds-bot kann seine Datenbank gerade nicht erreichen: andere Befehle bewirken nichts, bis sie wieder antwortet; "
    "versuchen Sie es in einer Minute erneut."
)


@pytest.fixture
async def bot() -> AsyncIterator[BotHarness]:
    async with bot_harness() as harness:
        yield harness


@pytest.fixture
def down(bot: BotHarness) -> StoreSwitch:
    switch = switchable(bot.store)
    switch.down = True
    return switch


def body_of(response: BoltResponse) -> dict[str, Any]:
    assert response.status == 200, response.body
    return json.loads(response.body) if response.body else {}


def nothing_done(bot: BotHarness) -> None:
    assert bot.minds_api.sent == [], "nothing reached Minds"
    assert bot.slack.calls_to("chat.postMessage") == [] and bot.slack.calls_to("chat.postEphemeral") == []


def outage_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    assert [r.getMessage() for r in caplog.records if r.exc_info] == [], "no traceback"
    return [r.fields["kind"] for r in caplog.records if r.getMessage() == OUTAGE_LINE]  # type: ignore[attr-defined]


def help_note(answer: dict[str, Any]) -> str:
    """The first block's words of a help answer, having checked the rest is the usual help."""
    assert answer["response_type"] == "ephemeral" and "/minds plan" in json.dumps(answer["blocks"])
    return str(answer["blocks"][0]["text"]["text"])


@pytest.mark.parametrize("text", ["ask Launch positioning: Do you like the logo?", "plan", "studies"])
async def test_a_slash_command_is_answered_in_its_acknowledgement_and_nothing_is_done(
    bot: BotHarness, down: StoreSwitch, text: str, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO):
        answer = body_of(await bot.command(text))
    assert answer == {"response_type": "ephemeral", "text": SENTENCE}
    assert bot.slack.responses.empty(), "told once: in the acknowledgement only"
    nothing_done(bot)
    assert outage_lines(caplog) == ["command"]


@pytest.mark.parametrize("text", ["help", "", "?", "help ask"])
async def test_help_needs_no_store_and_is_answered_with_a_note_that_the_database_cannot_be_reached(
    bot: BotHarness, down: StoreSwitch, text: str, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO):
        answer = body_of(await bot.command(text))
    assert help_note(answer) == HELP_NOTE
    assert bot.slack.responses.empty(), "told once: in the acknowledgement only"
    nothing_done(bot)
    assert outage_lines(caplog) == ["command"]


async def test_a_button_is_acknowledged_and_the_sentence_follows_through_its_response_url(
    bot: BotHarness, down: StoreSwitch
) -> None:
    assert body_of(await bot.click("plan_approve", json.dumps({"plan": "1.000"}))) == {}
    assert await bot.refusal() == SENTENCE
    await bot.services.followups.settled()
    nothing_done(bot)
    assert bot.slack.responses.empty()


async def test_a_dialog_keeps_what_was_typed_and_says_it_on_its_first_input(bot: BotHarness, down: StoreSwitch) -> None:
    view = {
        "callback_id": "minds_plan_modal",
        "blocks": [
            {"type": "section", "block_id": "intro", "text": {"type": "mrkdwn", "text": "Plan research"}},
            {"type": "input", "block_id": "request", "element": {"type": "plain_text_input", "action_id": "text"}},
            {"type": "input", "block_id": "where", "element": {"type": "conversations_select", "action_id": "w"}},
        ],
    }
    values = {"request": {"text": {"type": "plain_text_input", "value": "Test three taglines"}}}
    answer = body_of(await bot.submit(view, values))
    assert answer == {"response_action": "errors", "errors": {"request": SENTENCE}}
    nothing_done(bot)


async def test_a_dialog_without_an_input_is_replaced_by_one_that_says_it(bot: BotHarness, down: StoreSwitch) -> None:
    answer = body_of(await bot.submit({"callback_id": "minds_confirm", "blocks": []}, {}))
    assert answer["response_action"] == "update"
    assert SENTENCE in json.dumps(answer["view"]) and answer["view"]["title"]["text"] == "minds-bot"


async def test_the_app_home_opened_shows_a_home_that_says_it(bot: BotHarness, down: StoreSwitch) -> None:
    assert body_of(await bot.event({"type": "app_home_opened", "user": USER, "tab": "home"}, event_id="EvHome")) == {}
    (published,) = await bot.slack.wait_for("views.publish")
    assert published["user_id"] == USER and SENTENCE in json.dumps(published["view"])
    nothing_done(bot)


async def test_a_button_on_the_app_home_publishes_that_home(bot: BotHarness, down: StoreSwitch) -> None:
    payload = {
        "type": "block_actions",
        "user": {"id": USER, "team_id": TEAM},
        "container": {"type": "view", "view_id": "VHOME"},
        "view": {"id": "VHOME", "type": "home", "blocks": []},
        "trigger_id": "t.1",
        "actions": [{"type": "button", "action_id": "minds_home_refresh", "block_id": "b", "action_ts": "1.2"}],
    }
    assert body_of(await bot.interaction(payload)) == {}
    (published,) = await bot.slack.wait_for("views.publish")
    assert published["user_id"] == USER and SENTENCE in json.dumps(published["view"])


async def test_a_workflow_step_ends_with_the_sentence_as_its_error(bot: BotHarness, down: StoreSwitch) -> None:
    step = {
        "type": "function_executed",
        "function": {"id": "Fn1", "callback_id": "minds_ask_question", "app_id": "A1"},
        "inputs": {"study": "Launch", "question": "Why?", "channel": CHANNEL, "run_by": {"id": USER, "secret": "s"}},
        "function_execution_id": "Fx1",
        "workflow_execution_id": "Wx1",
        "event_ts": "1733150000.000001",
        "bot_access_token": "xwfp-step-token",
    }
    assert body_of(await bot.event(step, event_id="EvStep")) == {}
    (ended,) = await bot.slack.wait_for("functions.completeError")
    assert ended["function_execution_id"] == "Fx1" and ended["error"] == SENTENCE
    assert bot.slack.calls_to("functions.completeSuccess") == []
    nothing_done(bot)


async def test_other_events_and_options_are_acknowledged_and_show_nothing(bot: BotHarness, down: StoreSwitch) -> None:
    message = {"type": "message", "channel": CHANNEL, "user": USER, "text": "hello", "ts": "1.1"}
    assert body_of(await bot.event(message, event_id="EvMessage")) == {}
    assert body_of(await bot.options("study", "Launch")) in ({}, {"options": []})
    nothing_done(bot)
    assert bot.slack.calls_to("views.publish") == []


async def test_the_sentence_is_in_the_persons_language(bot: BotHarness, down: StoreSwitch) -> None:
    bot.slack.users[USER] = {"id": USER, "locale": "de-DE"}
    assert body_of(await bot.command("plan"))["text"] == SENTENCE_DE
    assert help_note(body_of(await bot.command("help"))) == HELP_NOTE_DE


async def test_a_store_that_does_not_answer_in_time_is_an_outage_and_the_ack_comes_in_time(
    bot: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(middleware, "STORE_ANSWER_SECONDS", 0.05)

    async def hangs(key: str) -> bool:
        await asyncio.Event().wait()
        return True

    monkeypatch.setattr(bot.store, "mark_delivery", hangs)
    assert body_of(await bot.command("studies"))["text"] == SENTENCE
    nothing_done(bot)


async def test_the_store_lost_after_the_delivery_check_is_answered_the_same(
    bot: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The language middleware reads the workspace's language from the store after the delivery check."""
    store: Store = bot.store
    switch = switchable(store)

    async def marked_then_down(key: str) -> bool:
        switch.down = True
        return True

    monkeypatch.setattr(store, "mark_delivery", marked_then_down)
    assert body_of(await bot.command("ask Launch: Why?"))["text"] == SENTENCE
    assert switch.total("get_workspace") >= 1
    nothing_done(bot)


async def test_once_the_store_answers_again_requests_are_served_as_before(bot: BotHarness, down: StoreSwitch) -> None:
    assert help_note(body_of(await bot.command("help"))) == HELP_NOTE
    down.down = False
    await bot.command("help")
    answer = await bot.reply()
    assert answer["response_type"] == "ephemeral" and "/minds plan" in json.dumps(answer["blocks"])
    assert HELP_NOTE not in json.dumps(answer)
