"""Issue 34 row 10, the digest through the real Bolt app (``/minds digest now``): a Study's run history is read to
the end over several Minds pages, so a first digest says exactly how many runs it shows of how many ("its latest 5
of 25 runs") and a later one exactly how many more there are ("…and 9 more runs"); runs older than the newest one
the last digest saw are not news, however far back the history goes; past the read bound (ten pages) the counts
say "more than" and "at least". English and, with the workspace speaking German, German."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import pytest
from pydantic import SecretStr

from minds_bot.store import Digest, WorkspaceSettings
from tests.fakes.bot import CHANNEL, TEAM, USER, BotHarness, bot_harness
from tests.fakes.minds_http import cursor_pages, envelope, ok, page

PRICING = "00000000-0000-4000-8000-000000000101"
RUNS = f"/studies/{PRICING}/runs"
NOW = datetime(2025, 3, 24, 7, 30, tzinfo=UTC)


def study() -> dict[str, Any]:
    return {
        "id": PRICING,
        "name": "Pricing pulse",
        "createdAt": "2025-03-01T10:00:00Z",
        "updatedAt": "2025-03-01T10:00:00Z",
        "messageCount": 1,
        "audiences": [],
        "messages": [],
    }


def runs(first: int, last: int) -> list[dict[str, Any]]:
    """Runs numbered ``last`` (newest) down to ``first``: a direct question each (Minds has no research run)."""
    return [
        {"runId": f"run-{n:04d}", "status": "completed", "question": f"Is {n} EUR fair?"}
        for n in range(last, first - 1, -1)
    ]


@pytest.fixture
async def bot() -> AsyncIterator[BotHarness]:
    async with bot_harness(start=NOW) as harness:
        api = harness.minds_api
        api.set("GET", "/studies", page([study()], total=1, offset=0))
        api.set("GET", f"/studies/{PRICING}", ok(study()))
        api.set("GET", f"/studies/{PRICING}/summary", ok({"summary": None}))
        harness.slack.replies["users.info"] = {"ok": True, "user": {"id": USER, "tz": "UTC", "is_admin": False}}
        yield harness


def history(bot: BotHarness, items: list[dict[str, Any]]) -> None:
    """Minds answers ten runs a page; a run's research details are not found (it is a standalone question)."""
    bot.minds_api.set("GET", RUNS, cursor_pages(items, page_size=10))
    for run in items:
        path = f"/studies/{PRICING}/research-runs/{run['runId']}"
        bot.minds_api.set("GET", path, envelope(404, message="Research run not found"))


async def digest_now(bot: BotHarness, digest: Digest) -> str:
    posted = len(bot.slack.calls_to("chat.postMessage"))
    await bot.command(f"digest now {digest.digest_id}")
    await bot.reply_containing(digest.digest_id)
    calls = bot.slack.calls_to("chat.postMessage")
    assert len(calls) == posted + 1
    return json.dumps(calls[-1]["blocks"], ensure_ascii=False)


async def added(bot: BotHarness) -> Digest:
    await bot.command("digest add daily 09:00 UTC Pricing")
    await bot.reply_containing("Digest")
    [digest] = await bot.store.list_digests(team_id=TEAM)
    return digest


def pages_read(bot: BotHarness) -> int:
    return len(bot.minds_api.to("GET", RUNS))


async def test_a_digest_counts_runs_exactly_over_several_pages(bot: BotHarness) -> None:
    digest = await added(bot)
    history(bot, runs(1, 25))  # three pages of ten
    first = await digest_now(bot, digest)
    assert "*Pricing pulse* — first digest for this Study: its latest 5 of 25 runs" in first
    assert "Is 25 EUR fair?" in first and "Is 21 EUR fair?" in first and "Is 20 EUR fair?" not in first
    assert pages_read(bot) == 3

    history(bot, runs(1, 42))  # 17 new runs on top: five pages of ten
    later = await digest_now(bot, digest)
    assert "Is 42 EUR fair?" in later and "Is 35 EUR fair?" in later and "Is 34 EUR fair?" not in later
    assert '…and 9 more runs: `/minds runs \\"Pricing pulse\\"`' in later  # 17 new, 8 shown
    assert "Is 25 EUR fair?" not in later, "runs the last digest saw are not news"

    quiet = await digest_now(bot, digest)
    assert "No research news in Pricing pulse since the last digest." in quiet, "runs beyond page one are not new"


async def test_past_the_read_bound_the_digest_says_more_than(bot: BotHarness) -> None:
    digest = await added(bot)
    history(bot, runs(1, 105))  # eleven pages of ten: ten are read
    first = await digest_now(bot, digest)
    assert "*Pricing pulse* — first digest for this Study: its latest 5 of more than 100 runs" in first
    assert pages_read(bot) == 10


async def test_the_counts_in_german(bot: BotHarness) -> None:
    await bot.store.save_workspace(
        WorkspaceSettings(
            team_id=TEAM,
            minds_key=SecretStr("mk_" + "a" * 40),
            default_language="de",
            connected_by=USER,
            connected_at=datetime(2025, 1, 1, tzinfo=UTC),
        )
    )
    bot.services.languages.forget_workspace(TEAM)
    digest = await added(bot)
    history(bot, runs(1, 25))
    first = await digest_now(bot, digest)
    assert "*Pricing pulse* — erster Digest für diese Study: ihre neuesten 5 von 25 Durchläufen" in first
    history(bot, runs(1, 42))
    later = await digest_now(bot, digest)
    assert '…und 9 weitere Durchläufe: `/minds runs \\"Pricing pulse\\"`' in later
    assert CHANNEL
