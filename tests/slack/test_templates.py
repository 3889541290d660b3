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
