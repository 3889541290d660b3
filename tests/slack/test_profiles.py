"""``/minds export audience|mind`` and ``/minds duplicate audience`` through the real Bolt app: the request said
in the channel, the original export job followed to a complete file attached in its thread, failures said
plainly with nothing attached, and an Audience copied once per Slack request."""

from __future__ import annotations

import base64
from collections.abc import AsyncIterator

import pytest

from tests.fakes.bot import CHANNEL, BotHarness, bot_harness
from tests.fakes.minds_http import envelope, ok, page
from tests.slack import samples

MIND = samples.uid(3001)
AUDIENCE = samples.uid(2001)


def mind_detail() -> dict:
    return {
        "id": MIND,
        "name": "Mia Novak",
        "description": "student",
        "type": "user",
        "tags": [],
        "isPublic": False,
        "isLinkSharingEnabled": False,
        "knowledgeItemCount": 0,
        "readyToChat": True,
        "createdAt": "2026-01-01T00:00:00Z",
        "updatedAt": "2026-01-01T00:00:00Z",
    }


def audience_detail(name: str = "Gen Z buyers", audience_id: str = AUDIENCE) -> dict:
    return {**samples.audience(1, name, 12), "id": audience_id, "isPublic": False, "isLinkSharingEnabled": False}


@pytest.fixture
async def bot() -> AsyncIterator[BotHarness]:
    async with bot_harness(unique_ts=True) as running:
        running.minds_api.on("GET", f"/minds/{MIND}", ok(mind_detail()))
        running.minds_api.on("GET", f"/audiences/{AUDIENCE}", ok(audience_detail()))
        yield running


async def test_a_mind_profile_is_followed_and_attached_in_the_thread(bot: BotHarness) -> None:
    bot.minds_api.on("POST", f"/minds/{MIND}/export", ok({"status": "queued", "jobId": "j1"}))
    done = {"status": "completed", "filename": "Mia Novak.md", "mimeType": "text/markdown", "content": "# Mia\n"}
    bot.minds_api.on("GET", f"/minds/{MIND}/export-status", ok({"status": "processing", "jobId": "j1"}), ok(done))
    await bot.command(f"export mind {MIND}")
    assert "attached in the thread" in (await bot.reply_containing("attached"))["text"]
    (asked,) = bot.slack.calls_to("chat.postMessage")
    assert asked["channel"] == CHANNEL and "persona profile of *Mia Novak* (md)" in asked["text"]
    (upload,) = bot.slack.calls_to("files.completeUploadExternal")
    assert upload["channel_id"] == CHANNEL and upload["thread_ts"]  # the thread of the "asked for" message
    assert list(bot.slack.uploads.values()) == [b"# Mia\n"]
    assert len(bot.minds_api.to("POST", f"/minds/{MIND}/export")) == 1


async def test_an_audience_pdf_is_decoded_and_attached(bot: BotHarness) -> None:
    pdf = b"%PDF-1.4 brief"
    reply = {
        "status": "completed",
        "filename": "Gen Z buyers.pdf",
        "mimeType": "application/pdf",
        "contentBase64": base64.b64encode(pdf).decode(),
    }
    bot.minds_api.on("POST", f"/audiences/{AUDIENCE}/export", ok(reply))
    await bot.command(f"export audience {AUDIENCE} pdf")
    await bot.reply_containing("Audience brief of Gen Z buyers is attached")
    assert list(bot.slack.uploads.values()) == [pdf]
    assert bot.minds_api.to("POST", f"/audiences/{AUDIENCE}/export")[0].json() == {"format": "pdf"}


async def test_a_failed_export_is_said_in_the_thread_and_nothing_is_attached(bot: BotHarness) -> None:
    bot.minds_api.on("POST", f"/minds/{MIND}/export", ok({"status": "queued", "jobId": "j1"}))
    bot.minds_api.on("GET", f"/minds/{MIND}/export-status", ok({"status": "failed", "error": "renderer down"}))
    await bot.command(f"export mind {MIND}")
    await bot.reply_containing("did not finish")
    failed = bot.slack.calls_to("chat.postMessage")[-1]
    assert "thread_ts" in failed and "renderer down" in failed["text"] and "Nothing was attached" in failed["text"]
    assert bot.slack.calls_to("files.completeUploadExternal") == []


async def test_a_plan_limit_on_exports_is_said_plainly(bot: BotHarness) -> None:
    limit = envelope(403, code="PLAN_LIMIT", data={"limitType": "exports", "currentPlan": "free", "limit": 0})
    bot.minds_api.on("POST", f"/minds/{MIND}/export", limit)
    await bot.command(f"export mind {MIND}")
    await bot.reply_containing("did not finish")
    assert "upgrade" in bot.slack.calls_to("chat.postMessage")[-1]["text"].lower()


async def test_an_audience_is_duplicated_once_per_request(bot: BotHarness) -> None:
    copy = audience_detail("Gen Z buyers (copy)", samples.uid(2099))
    bot.minds_api.on("GET", "/audiences", page([samples.audience(1, "Gen Z buyers", 12)], total=1, offset=0))
    bot.minds_api.on("POST", f"/audiences/{AUDIENCE}/duplicate", ok(copy, status=201))
    await bot.command("duplicate audience Gen Z buyers")
    answer = await bot.reply_containing("Duplicated")
    assert "*Gen Z buyers (copy)* with 12 Minds" in answer["text"]
    assert "Mind allowance" in str(answer["blocks"])
    (sent,) = bot.minds_api.to("POST", f"/audiences/{AUDIENCE}/duplicate")
    assert sent.headers["Idempotency-Key"]
