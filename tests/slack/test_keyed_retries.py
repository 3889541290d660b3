"""A person's retry keeps the key (CATALOGUE §2 H.72–73), through the real Bolt app over fake Minds and Slack:
a duplicate or an Audience build whose request failed on the network offers **Try again**, which sends the same
request with the same Idempotency-Key; the same command typed again within the key's window asks "second
copy?" and sends nothing; the button is the asker's alone and grants nothing they could not type."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import httpx
import pytest

from minds_bot.flows.keyed import KEY_WINDOW
from minds_bot.store import RunKind
from tests.fakes.bot import BotHarness, bot_harness, buttons
from tests.fakes.minds_http import ok, raw
from tests.slack import samples

STUDY = samples.STUDY_ID
DUPLICATE = f"/studies/{STUDY}/duplicate"
LIMITS = {"perAudienceCap": 40, "modes": [{"mode": "balanced", "automaticSizingCeiling": 24}]}


def network_down(request: httpx.Request) -> httpx.Response:
    raise httpx.ConnectError("connection refused", request=request)


def copied(request: httpx.Request) -> httpx.Response:
    return raw({"data": samples.study(7, "Launch positioning (copy)")}, status=201)


@pytest.fixture
async def bot() -> AsyncIterator[BotHarness]:
    async with bot_harness() as harness:
        harness.minds_api.on("GET", f"/studies/{STUDY}", ok(samples.study_detail()))
        yield harness


async def test_a_duplicate_that_failed_on_the_network_is_tried_again_with_the_same_key(bot: BotHarness) -> None:
    bot.minds_api.on("POST", DUPLICATE, network_down)
    await bot.command(f"duplicate {STUDY}")
    offer = await bot.reply_containing("Try again")
    assert "may or may not have been made" in offer["text"]
    failed = bot.minds_api.to("POST", DUPLICATE)
    assert failed and len({s.headers["idempotency-key"] for s in failed}) == 1  # the client's own retries too

    bot.minds_api.set("POST", DUPLICATE, copied)
    retry = buttons(offer)["duplicate_try_again"]
    assert set(json.loads(retry["value"])) == {"k"}, "the button names the saved request, nothing else"
    await bot.click("duplicate_try_again", retry["value"], ephemeral=True)
    answer = await bot.reply_containing("Duplicated")
    assert "Launch positioning (copy)" in answer["text"]
    sent = bot.minds_api.to("POST", DUPLICATE)[len(failed) :]
    assert len(sent) == 1, "Try again sends exactly one request"
    assert sent[0].headers["idempotency-key"] == failed[0].headers["idempotency-key"]
    assert sent[0].body == failed[0].body


async def test_the_same_duplicate_typed_again_asks_for_a_second_copy_instead_of_making_one(bot: BotHarness) -> None:
    bot.minds_api.on("POST", DUPLICATE, copied)
    await bot.command(f"duplicate {STUDY}")
    await bot.reply_containing("Duplicated")
    bot.clock.advance(KEY_WINDOW.total_seconds() - 60)
    await bot.command(f"duplicate {STUDY}")
    question = await bot.reply_containing("Make a second copy")
    assert "already asked for a copy of Launch positioning" in question["text"]
    assert len(bot.minds_api.to("POST", DUPLICATE)) == 1, "typing the command again sent nothing"
    again = buttons(question)["duplicate_again"]
    assert again.get("confirm"), "a second copy is confirmed before it is made"
    await bot.click("duplicate_again", again["value"], ephemeral=True)
    await bot.reply_containing("Duplicated")
    first, second = bot.minds_api.to("POST", DUPLICATE)
    assert first.headers["idempotency-key"] != second.headers["idempotency-key"]


async def test_after_the_key_window_the_command_makes_a_copy_again(bot: BotHarness) -> None:
    bot.minds_api.on("POST", DUPLICATE, copied)
    await bot.command(f"duplicate {STUDY}")
    await bot.reply_containing("Duplicated")
    bot.clock.advance(KEY_WINDOW.total_seconds() + 1)
    await bot.command(f"duplicate {STUDY}")
    await bot.reply_containing("Duplicated")
    assert len(bot.minds_api.to("POST", DUPLICATE)) == 2


async def test_try_again_is_only_for_the_person_who_asked(bot: BotHarness) -> None:
    bot.minds_api.on("POST", DUPLICATE, network_down)
    await bot.command(f"duplicate {STUDY}")
    offer = await bot.reply_containing("Try again")
    sent = len(bot.minds_api.to("POST", DUPLICATE))
    value = buttons(offer)["duplicate_try_again"]["value"]
    await bot.click("duplicate_try_again", value, user="UOTHER", ephemeral=True)
    assert "Only <@U0001>, who asked, can use this button" in (await bot.reply())["text"]
    await bot.click("duplicate_try_again", json.dumps({"k": "made-up"}), ephemeral=True)
    assert "no longer knows this request" in (await bot.reply())["text"]
    assert len(bot.minds_api.to("POST", DUPLICATE)) == sent


async def test_an_audience_build_that_timed_out_is_tried_again_with_the_same_brief_and_key(bot: BotHarness) -> None:
    def timed_out(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("no answer", request=request)

    bot.minds_api.on("GET", "/audiences/limits", ok(LIMITS))
    bot.minds_api.on("POST", "/audiences/from-brief", timed_out)
    await bot.command("audience new Urban cyclists in Berlin who commute daily")
    offer = await bot.reply_containing("Try again")
    failed = bot.minds_api.to("POST", "/audiences/from-brief")
    bot.minds_api.set("POST", "/audiences/from-brief", ok({"jobId": "job-1", "status": "queued"}, status=202))
    bot.minds_api.on("GET", "/audiences/from-brief/jobs/job-1", ok({"jobId": "job-1", "status": "queued"}))
    await bot.click("audience_try_again", buttons(offer)["audience_try_again"]["value"], ephemeral=True)
    await bot.tracker.next_tracked(RunKind.AUDIENCE)
    (sent,) = bot.minds_api.to("POST", "/audiences/from-brief")[len(failed) :]
    assert sent.headers["idempotency-key"] == failed[0].headers["idempotency-key"]
    assert sent.json() == failed[0].json() == {"text": "Urban cyclists in Berlin who commute daily"}

    await bot.command("audience new  urban cyclists in berlin who commute daily ")
    question = await bot.reply_containing("Build another Audience")
    assert "already asked for an Audience from this brief" in question["text"]
    assert len(bot.minds_api.to("POST", "/audiences/from-brief")) == len(failed) + 1


EXPORT = f"/studies/{STUDY}/export"
QUEUED = {"kind": "full_report", "format": "pdf", "jobId": "job-1", "status": "queued"}


async def test_the_same_export_typed_while_it_is_prepared_asks_before_starting_another(bot: BotHarness) -> None:
    bot.minds_api.on("POST", EXPORT, ok(QUEUED), ok({**QUEUED, "jobId": "job-2"}))
    bot.minds_api.on("GET", f"/studies/{STUDY}/export-status", ok({"status": "processing", "progress": 10}))
    await bot.command(f"export {STUDY} pdf report")
    await bot.tracker.next_tracked(RunKind.EXPORT)
    await bot.command(f"export {STUDY} pdf report")
    question = await bot.reply_containing("Start another export?")
    assert "still being prepared" in question["text"] and "<@U0001>" in question["text"]
    assert len(bot.minds_api.to("POST", EXPORT)) == 1
    again = buttons(question)["export_again"]
    assert json.loads(again["value"]) == {"s": STUDY, "k": "full_report", "f": "pdf", "l": None, "o": False}
    await bot.click("export_again", again["value"], ephemeral=True)
    await bot.tracker.next_tracked(RunKind.EXPORT)
    assert len(bot.minds_api.to("POST", EXPORT)) == 2


async def test_an_export_request_minds_did_not_answer_offers_try_again(bot: BotHarness) -> None:
    bot.minds_api.on("POST", EXPORT, network_down)
    await bot.command(f"export {STUDY} pdf report")
    offer = await bot.reply_containing("Try again")
    assert "may or may not have started" in offer["text"] and "no request key for exports" in offer["text"]
    assert not [c for c in bot.slack.calls_to("chat.postMessage") if "Export of" in c.get("text", "")]
    bot.minds_api.set("POST", EXPORT, ok(QUEUED))
    await bot.click("export_try_again", buttons(offer)["export_try_again"]["value"], ephemeral=True)
    await bot.tracker.next_tracked(RunKind.EXPORT)
    assert json.loads(bot.minds_api.to("POST", EXPORT)[-1].body) == {"kind": "full_report", "format": "pdf"}
