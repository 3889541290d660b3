"""Issue 28, "Hardening from a second attacker's probe", through the real bot. Over HTTP with the gatehouse (real
Bolt app behind the real aiohttp routes, signed requests, a fake Slack Web API, the scripted fake Minds): a
message shortcut whose ``files`` is not a list of objects (finding 4) and a shortcut whose ``thread_ts`` is not
text. Through the real Bolt app with the bot harness: the private note after ``/minds analytics`` (finding 6) and
the same pattern elsewhere — a dialog's failure said privately with Minds' words escaped.
Findings 3, 5, 7 and 8 are in ``tests/e2e/test_acked_failures.py``, ``test_bounded_input.py``,
``test_permissions.py`` and ``test_gate.py``."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from typing import Any

import pytest

from minds_bot.render.source_import import FROM_FILES_SHORTCUT
from tests.fakes.bot import BotHarness, bot_harness
from tests.fakes.minds_http import ok, raw
from tests.fakes.slack_requests import interaction_body
from tests.fakes.slack_web import WAIT_SECONDS
from tests.security.gatehouse import CHANNEL, TEAM, USER, Gatehouse, gatehouse, tracebacks
from tests.slack import samples


@pytest.fixture
async def bot(caplog: pytest.LogCaptureFixture) -> AsyncIterator[Gatehouse]:
    caplog.set_level(logging.INFO)
    async with gatehouse(process_before_response=False) as house:  # production's ack-first mode
        yield house


def message_shortcut(bot: Gatehouse, *, callback_id: str, message: dict[str, Any]) -> str:
    return interaction_body(
        {
            "type": "message_action",
            "callback_id": callback_id,
            "trigger_id": "1.2.3",
            "team": {"id": TEAM},
            "user": {"id": USER, "team_id": TEAM},
            "channel": {"id": CHANNEL},
            "message": {"ts": "1733140000.000500", "text": "", **message},
            "response_url": bot.slack.response_url("shortcut"),
        }
    )


# --- finding 4: a shortcut's ``files`` that is not a list of objects -------------------------------------------

ODD_FILES: dict[str, Any] = {
    "a string": "report.csv",
    "a number": 7,
    "an object": {"name": "report.csv", "url_private": "https://files.slack.com/x"},
    "a list of strings": ["report.csv", "notes.md"],
    "a list of numbers and nulls": [1, None, 2.5],
    "objects with odd fields": [{"name": 7, "url_private": ["x"], "id": {"a": 1}}, {"title": None}],
}


@pytest.mark.parametrize("files", ODD_FILES.values(), ids=ODD_FILES.keys())
async def test_audience_from_files_with_files_that_are_not_file_objects_says_so_privately(
    bot: Gatehouse, caplog: pytest.LogCaptureFixture, files: Any
) -> None:
    body = message_shortcut(bot, callback_id=FROM_FILES_SHORTCUT, message={"files": files})
    reply = await bot.send(body)
    assert reply.status_code == 200
    answer = await asyncio.wait_for(bot.slack.responses.get(), WAIT_SECONDS)
    assert answer["response_type"] == "ephemeral"
    assert answer["text"].startswith(
        "That message has no file Minds can import as a source (.txt, .md, .csv or .json)."
    )
    assert bot.slack.calls_to("views.open") == [] and bot.minds_api.sent == []
    assert tracebacks(caplog.records) == []


async def test_a_shortcut_on_a_message_whose_thread_is_not_a_timestamp_is_refused_at_the_gate(
    bot: Gatehouse,
) -> None:
    body = message_shortcut(bot, callback_id="minds_ask_about_message", message={"text": "Why?", "thread_ts": {"a": 1}})
    assert (await bot.send(body)).status_code == 400
    assert bot.slack.calls == [] and bot.store.calls == []


# --- finding 6: the private note after /minds analytics ----------------------------------------------------------

LINKED_NAME = "<https://evil.example/login|Open the results> <!channel>"


@pytest.fixture
async def harness() -> AsyncIterator[BotHarness]:
    async with bot_harness() as running:
        yield running


async def test_the_note_after_analytics_shows_the_study_name_as_text_not_a_link(harness: BotHarness) -> None:
    harness.minds_api.on("GET", f"/studies/{samples.STUDY_ID}", ok(samples.study_detail(LINKED_NAME)))
    harness.minds_api.on("GET", f"/studies/{samples.STUDY_ID}/analytics", ok({"questions": []}))
    await harness.command(f"analytics {samples.STUDY_ID}")
    note = (await harness.reply_containing("posted in the channel"))["text"]
    assert note == (
        "The analytics of &lt;https://evil.example/login|Open the results&gt; &lt;!channel&gt; are posted in the "
        "channel."
    )


# --- the same pattern elsewhere: a dialog's failure said privately with Minds' words escaped ------------------


async def test_a_failed_save_as_template_says_minds_words_escaped() -> None:
    from tests.slack.plan_samples import study_data
    from tests.slack.test_plan_listeners import REQUESTER, STUDY_ID, _button, open_plan

    async with bot_harness(unique_ts=True, user=REQUESTER) as bot:
        bot.minds_api.on("GET", f"/studies/{STUDY_ID}", ok(study_data()))
        ts, blocks = await open_plan(bot, studyLocale="en")
        save = _button(blocks, "Save as template")
        await bot.click(save["action_id"], save["value"], message_ts=ts, blocks=blocks)
        (opened,) = await bot.slack.wait_for("views.open")
        view = json.loads(opened["view"]) if isinstance(opened["view"], str) else opened["view"]
        refusal = {"message": LINKED_NAME + " is not a template name", "data": {"code": "VALIDATION_ERROR"}}
        bot.minds_api.on("POST", "/study-templates", raw(refusal, status=400))
        values = {
            "template_name": {"value": {"type": "plain_text_input", "value": "Coffee habits"}},
            "template_goal": {"value": {"type": "static_select", "selected_option": {"value": "concept"}}},
        }
        await bot.submit({**view, "id": "V0042"}, values)
        (said,) = await bot.slack.wait_for("chat.postEphemeral")
    assert said["text"] == (
        "Minds rejected the request: &lt;https://evil.example/login|Open the results&gt; &lt;!channel&gt; is not a "
        "template name"
    )


async def test_a_refused_source_import_says_minds_words_escaped(harness: BotHarness) -> None:
    from tests.slack.test_research_tools import SURVEY, file_message, run_shortcut

    harness.slack.shared["survey.csv"] = SURVEY
    refusal = {"message": LINKED_NAME + " cannot be imported", "data": {"code": "VALIDATION_ERROR"}}
    harness.minds_api.on("POST", "/audiences/source-import", raw(refusal, status=400))
    await run_shortcut(harness, file_message(harness, "survey.csv"))
    (opened,) = await harness.slack.wait_for("views.open")
    view = json.loads(opened["view"]) if isinstance(opened["view"], str) else opened["view"]
    await harness.submit(view, {"brief": {"value": {"type": "plain_text_input", "value": "Cafe owners"}}})
    [said] = await harness.slack.wait_for("chat.postEphemeral")
    assert said["text"] == (
        "Minds rejected the request: &lt;https://evil.example/login|Open the results&gt; &lt;!channel&gt; cannot be "
        "imported"
    )
