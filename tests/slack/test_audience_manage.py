"""The managing row's dialogs through the real Bolt app (signed requests, the fake Slack Web API, the fake Minds
API): bad input is said on the field and sends nothing; a stale button is said, not crashed on."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import pytest

from tests.fakes.bot import BotHarness, bot_harness

REVIEW = "formation_review_modal"


@pytest.fixture
async def bot() -> AsyncIterator[BotHarness]:
    async with bot_harness() as running:
        yield running


def typed(text: str) -> dict[str, dict[str, str]]:
    return {"value": {"type": "plain_text_input", "value": text}}


async def test_a_review_with_a_blank_rule_is_said_on_the_field_and_sends_nothing(bot: BotHarness) -> None:
    values = {
        "formation_intent": typed("Audience by age"),
        "subgroup_label_0": typed("Under 30"),
        "subgroup_definition_0": typed("   "),
        "subgroup_label_1": typed("30 and over"),
        "subgroup_definition_1": typed("Aged 30 or more"),
    }
    view = {"callback_id": REVIEW, "private_metadata": json.dumps({"a": "a1", "c": "C0001", "g": 2})}
    answer = await bot.submit(view, values)
    assert json.loads(answer.body) == {
        "response_action": "errors",
        "errors": {"formation_intent": "Fill in the split, and each subgroup's label and rule."},
    }
    assert bot.minds_api.sent == []


async def test_two_subgroups_with_one_label_are_said_on_the_field(bot: BotHarness) -> None:
    values = {
        "formation_intent": typed("Audience by age"),
        "subgroup_label_0": typed("Young"),
        "subgroup_definition_0": typed("Under 30"),
        "subgroup_label_1": typed("young"),
        "subgroup_definition_1": typed("Under 25"),
    }
    view = {"callback_id": REVIEW, "private_metadata": json.dumps({"a": "a1", "c": "C0001", "g": 2})}
    answer = await bot.submit(view, values)
    assert json.loads(answer.body)["errors"] == {"subgroup_label_1": "Each subgroup needs its own label."}
    assert bot.minds_api.sent == []


async def test_a_managing_button_whose_value_the_bot_did_not_write_is_said_to_be_out_of_date(bot: BotHarness) -> None:
    await bot.click("audience_delete", "not json")
    assert await bot.refusal() == "That button is out of date; show the Audience again."
    assert bot.minds_api.sent == []


async def test_the_option_that_says_minds_found_nothing_cannot_be_added(bot: BotHarness) -> None:
    error_option = {"text": {"type": "plain_text", "text": "Minds did not answer in time"}, "value": "__minds_error__"}
    values = {
        "members_add": {"members_add_search": {"type": "multi_external_select", "selected_options": [error_option]}}
    }
    view = {
        "callback_id": "audience_members_modal",
        "private_metadata": json.dumps({"a": "a1", "n": "P", "c": "C0001"}),
    }
    answer = await bot.submit(view, values)
    assert json.loads(answer.body)["errors"] == {"members_add": "Pick Minds from the list."}
    assert bot.minds_api.sent == []
