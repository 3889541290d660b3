"""``/minds study new <name>`` through the real Bolt app: the dialog opens at once with the name filled in, its
Audience options come from Minds (an error is the one option, never an empty list), an empty name is refused
in the dialog, and a submission creates the Study once and shows its card."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.fakes.bot import BotHarness, bot_harness
from tests.fakes.minds_http import ok, page, raw
from tests.slack import samples

NEW_ID = samples.uid(1999)


@pytest.fixture
async def bot() -> AsyncIterator[BotHarness]:
    async with bot_harness() as running:
        yield running


def view_of(opened: dict[str, Any]) -> dict[str, Any]:
    return json.loads(opened["view"]) if isinstance(opened["view"], str) else opened["view"]


def submission(name: str, audience_ids: list[str]) -> dict[str, Any]:
    picked = [{"value": a, "text": {"type": "plain_text", "text": a}} for a in audience_ids]
    return {
        "study_new_name": {"study_new_name_input": {"type": "plain_text_input", "value": name}},
        "study_new_audiences": {"study_new_audiences": {"type": "multi_external_select", "selected_options": picked}},
        "where": {"where_select": {"type": "conversations_select", "selected_conversation": "C0001"}},
    }


async def test_the_dialog_opens_with_the_name_and_a_searchable_audience_select(bot: BotHarness) -> None:
    await bot.command("study new Autumn sneakers")
    (opened,) = await bot.slack.wait_for("views.open")
    view = view_of(opened)
    assert view["callback_id"] == "minds_study_new"
    name = next(b for b in view["blocks"] if b.get("block_id") == "study_new_name")
    assert name["element"]["initial_value"] == "Autumn sneakers" and name["element"]["max_length"] == 200
    select = next(b for b in view["blocks"] if b.get("block_id") == "study_new_audiences")["element"]
    assert select["type"] == "multi_external_select" and select["min_query_length"] == 0
    assert bot.minds_api.to("POST", "/studies") == []


async def test_audience_options_come_from_minds_and_an_error_is_not_an_empty_list(bot: BotHarness) -> None:
    audiences = [samples.audience(1, "Gen Z sneaker buyers", 12), samples.audience(2, "IT leads", 8)]
    bot.minds_api.on("GET", "/audiences", page(audiences, total=2, offset=0))
    answer = await bot.options("study_new_audiences", "sneaker", callback_id="minds_study_new")
    options = json.loads(answer.body)["options"]
    assert [o["text"]["text"] for o in options] == ["Gen Z sneaker buyers (12 Minds)"]

    bot.minds_api.set("GET", "/audiences", raw({"data": []}))  # malformed: no pagination
    broken = json.loads((await bot.options("study_new_audiences", "x", callback_id="minds_study_new")).body)
    assert broken["options"][0]["value"] == "__minds_error__"


async def test_an_empty_name_is_refused_in_the_dialog(bot: BotHarness) -> None:
    answer = await bot.submit({"callback_id": "minds_study_new"}, submission("   ", []))
    body = json.loads(answer.body)
    assert body["response_action"] == "errors" and "name" in body["errors"]["study_new_name"]
    assert bot.minds_api.to("POST", "/studies") == []


async def test_a_submission_creates_the_study_once_and_shows_its_card(bot: BotHarness) -> None:
    created = {**samples.study(999, "Autumn sneakers"), "id": NEW_ID, "audiences": [], "isPublic": False}
    created["isLinkSharingEnabled"] = False
    bot.minds_api.on("POST", "/studies", ok(created, status=201))
    detail = {**samples.study_detail("Autumn sneakers"), "id": NEW_ID}
    bot.minds_api.on("GET", f"/studies/{NEW_ID}", ok(detail))
    bot.minds_api.on("GET", f"/studies/{NEW_ID}/runs", raw({"data": []}))
    a1, a2 = samples.uid(2001), samples.uid(2002)
    await bot.submit({"callback_id": "minds_study_new"}, submission("Autumn sneakers", [a1, a2, a1]))
    card = await bot.reply_containing("Recent runs")
    assert "Autumn sneakers" in json.dumps(card, ensure_ascii=False)
    (sent,) = bot.minds_api.to("POST", "/studies")
    assert sent.json() == {"name": "Autumn sneakers", "audienceIds": [a1, a2]}
