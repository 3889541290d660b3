"""A Mind's card through the real Bolt app against scripted Minds replies: what the card says when Minds' lists and
reads are incomplete — a source listed without its processing state is asked for it, and a training read that
fails is said as such, never guessed."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import pytest

from tests.fakes.bot import BotHarness, bot_harness
from tests.fakes.minds_http import envelope, ok, raw
from tests.slack import samples

MIND = samples.uid(3001)
OLD, NEW = samples.uid(3101), samples.uid(3102)


@pytest.fixture
async def bot() -> AsyncIterator[BotHarness]:
    async with bot_harness() as harness:
        api = harness.minds_api
        api.on("GET", f"/minds/{MIND}", ok({"id": MIND, "name": "Nora Nights", "readyToChat": True}))
        items = [
            {"id": NEW, "description": "Survey 2026", "link": "https://example.com/new",
             "processing": {"status": "queued"}},
            {"id": OLD, "description": "Handbook", "filePath": "portfolio/u/1_handbook.pdf"},
        ]  # fmt: skip
        api.on("GET", f"/minds/{MIND}/knowledge", raw({"success": True, "data": {"items": items, "total": 2}}))
        status = {"processing": {"status": "completed"}, "readyForRetrieval": True}
        api.on("GET", f"/minds/{MIND}/knowledge/{OLD}/status", raw({"success": True, "data": status}))
        yield harness


async def test_a_source_listed_without_its_state_is_asked_for_it_and_the_card_says_ready(bot: BotHarness) -> None:
    bot.minds_api.on("GET", f"/minds/{MIND}/training", raw({"status": "completed", "readyToChat": True}))
    await bot.command(f"mind {MIND}")
    shown = json.dumps(await bot.reply_containing("Nora Nights"), ensure_ascii=False)
    assert "• Survey 2026 — https://example.com/new — queued" in shown
    assert "• Handbook — 1_handbook.pdf — ready" in shown
    asked = [r.path for r in bot.minds_api.sent if r.path.endswith("/status")]
    assert asked == [f"/minds/{MIND}/knowledge/{OLD}/status"], "only the source without a state is asked"


async def test_a_training_read_that_fails_is_said_and_retrain_stays_offered(bot: BotHarness) -> None:
    bot.minds_api.on("GET", f"/minds/{MIND}/training", envelope(500, message="boom"))
    await bot.command(f"mind {MIND}")
    shown = json.dumps(await bot.reply_containing("Nora Nights"), ensure_ascii=False)
    assert "Training status could not be read:" in shown
    assert "Training: done" not in shown and "mind_retrain" in shown
