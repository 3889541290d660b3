"""``/minds templates`` through the real Bolt app: the list as Minds stores it, and Use — the plan dialog opens
with the template's questions and language, and Minds makes one independent draft per click (a redelivered
click reuses the request id)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.fakes.bot import BotHarness, bot_harness, buttons
from tests.fakes.minds_http import ok, raw
from tests.slack.test_drafts import draft

TEMPLATE = "8b1b2c3d-0000-4000-8000-000000000001"


def template(**extra: Any) -> dict[str, Any]:
    return {
        "id": TEMPLATE,
        "name": "Concept <test>",
        "revision": 3,
        "isSharedWithTeam": True,
        "canManage": True,
        "canShareWithTeam": True,
        "createdAt": "2026-01-01T00:00:00Z",
        "updatedAt": "2026-01-01T00:00:00Z",
        "configuration": {
            "version": 1,
            "goal": "concept",
            "studyLocale": "de",
            "methodId": "survey",
            "questions": [
                {"text": "First reaction?", "response": {"type": "qualitative"}},
                {"text": "Would you buy it?", "response": {"type": "categorical", "categoricalOptions": ["Yes", "No"]}},
            ],
        },
        **extra,
    }


@pytest.fixture
async def bot() -> AsyncIterator[BotHarness]:
    async with bot_harness() as running:
        running.minds_api.on("GET", "/study-templates", raw({"data": [template()]}))
        yield running


async def test_templates_are_listed_with_use(bot: BotHarness) -> None:
    await bot.command("templates")
    listing = await bot.reply_containing("Study templates")
    shown = json.dumps(listing, ensure_ascii=False)
    assert "Concept &lt;test&gt;" in shown and "2 questions · method survey · de · shared with your team" in shown
    assert buttons(listing)[f"template_use:{TEMPLATE}"]["value"] == TEMPLATE


async def test_use_opens_the_plan_dialog_and_makes_one_draft(bot: BotHarness) -> None:
    bot.minds_api.on("GET", "/study-templates", raw({"data": [template()]}))
    bot.minds_api.on("POST", f"/study-templates/{TEMPLATE}/use", ok(draft({}), status=201))
    await bot.click(f"template_use:{TEMPLATE}", TEMPLATE, ephemeral=True)
    (opened,) = await bot.slack.wait_for("views.open")
    view = json.loads(opened["view"]) if isinstance(opened["view"], str) else opened["view"]
    request = next(b for b in view["blocks"] if b.get("block_id") == "request")["element"]["initial_value"]
    assert "1. First reaction? (qualitative)" in request and "2. Would you buy it? (categorical: Yes / No)" in request
    language = next(b for b in view["blocks"] if b.get("block_id") == "language")["element"]["initial_option"]
    assert language["value"] == "de"
    assert "pick the Study" in (await bot.reply_containing("Made the draft"))["text"]
    (used,) = bot.minds_api.to("POST", f"/study-templates/{TEMPLATE}/use")
    assert used.json()["expectedRevision"] == 3


async def test_a_template_gone_from_minds_is_said(bot: BotHarness) -> None:
    bot.minds_api.set("GET", "/study-templates", raw({"data": []}))
    await bot.click(f"template_use:{TEMPLATE}", TEMPLATE, ephemeral=True)
    assert "no longer available" in await bot.refusal()
    assert bot.slack.calls_to("views.open") == []


async def test_save_as_template_sends_the_plan_as_planned_with_the_chosen_goal() -> None:
    from tests.slack.plan_samples import plan_data, study_data
    from tests.slack.test_plan_listeners import PREVIEW, REQUESTER, STUDY_ID, _button, open_plan

    async with bot_harness(unique_ts=True, user=REQUESTER) as bot:
        bot.minds_api.on("GET", f"/studies/{STUDY_ID}", ok(study_data()))
        ts, blocks = await open_plan(bot, studyLocale="en")
        save = _button(blocks, "Save as template")
        await bot.click(save["action_id"], save["value"], message_ts=ts, blocks=blocks)
        (opened,) = await bot.slack.wait_for("views.open")
        view = json.loads(opened["view"]) if isinstance(opened["view"], str) else opened["view"]
        assert view["callback_id"] == "plan_save_template"

        bot.minds_api.set("POST", PREVIEW, ok(plan_data(studyLocale="en")))
        saved_body: dict[str, Any] = {}

        def saved(request: Any) -> Any:
            saved_body.update(json.loads(request.content))
            return ok(
                {**template(), "name": saved_body["name"], "configuration": saved_body["configuration"]}, status=201
            )

        bot.minds_api.on("POST", "/study-templates", saved)
        values = {
            "template_name": {"value": {"type": "plain_text_input", "value": "Coffee habits"}},
            "template_goal": {"value": {"type": "static_select", "selected_option": {"value": "concept"}}},
        }
        await bot.submit({**view, "id": "V0042"}, values)
        (said,) = await bot.slack.wait_for("chat.postEphemeral")
        assert "Saved the template “Coffee habits” with 3 questions" in said["text"]
        config = saved_body["configuration"]
        assert config["goal"] == "concept" and config["studyLocale"] == "en" and config["methodId"] == "maxdiff"
        assert config["questions"][0] == {
            "text": "Do you drink coffee on the go?",
            "response": {"type": "categorical", "categoricalOptions": ["Yes", "No"]},
        }
        assert bot.minds_api.to("POST", PREVIEW)[-1].json()["loadLatest"] is True


def test_a_plan_without_a_template_language_or_method_is_refused_not_guessed() -> None:
    from minds_bot.flows.templates import template_configuration
    from minds_bot.minds import ResearchPlan
    from tests.slack.plan_samples import plan_data

    assert "languages" in str(template_configuration(ResearchPlan.model_validate(plan_data()), goal="explore"))
    no_method = ResearchPlan.model_validate({**plan_data(studyLocale="de"), "methods": []})
    assert template_configuration(no_method, goal="explore") == "Minds named no research method for this plan."
