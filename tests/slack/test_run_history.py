"""Issue 34 row 10, through the real Bolt app: a Study's run history is read to the end (catalogue rule 16: newest
first, ``before = nextCursor`` while ``hasMore``), never one page deep. ``/minds runs`` shows ten a page and says
exactly which runs of how many ("Runs 11–20 of 25, newest first."), with **Older runs** while older ones remain;
the button's value is untrusted (a forged one is refused, and someone not in the channel is refused without a run
being read); at the read bound (ten pages) the page says Minds has more. English and German words."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from minds_bot.render.run_pages import RUNS_OLDER_ACTION
from tests.fakes.bot import CHANNEL, TEAM, BotHarness, blocks_of, bot_harness, buttons
from tests.fakes.minds_http import cursor_pages, envelope, ok, raw
from tests.fakes.slack_web import BOT_USER
from tests.slack import samples

ADA, BEN = "U0ADA", "U0BEN"
STUDY = samples.STUDY_ID
RUNS_PATH = f"/studies/{STUDY}/runs"
NOT_IN_CHANNEL = (
    f"That belongs to <#{CHANNEL}>, a channel you are not in, so it is not shown to you. Join the channel to see it."
)


def runs(count: int) -> list[dict[str, Any]]:
    """``count`` runs, newest first: run 1 asked "Question 1?" …"""
    return [
        {"runId": f"run-{n:04d}", "status": "completed", "question": f"Question {n}?", "messageId": f"m-{n}"}
        for n in range(1, count + 1)
    ]


def line(n: int) -> str:
    return f"{n}. date unknown · “Question {n}?” · n unknown · completed"


@pytest.fixture
async def bot() -> AsyncIterator[BotHarness]:
    async with bot_harness(unique_ts=True, user=ADA) as harness:
        harness.slack.channel_members[CHANNEL] = [ADA, BOT_USER]
        harness.minds_api.on("GET", f"/studies/{STUDY}", ok(samples.study_detail("Coffee habits")))
        yield harness


def said(message: dict[str, Any]) -> str:
    return message.get("text", "") + json.dumps(blocks_of(message), ensure_ascii=False)


def runs_read(bot: BotHarness) -> list[dict[str, str]]:
    return [s.params for s in bot.minds_api.to("GET", RUNS_PATH)]


async def older(bot: BotHarness, page: dict[str, Any], *, user: str = ADA) -> dict[str, Any]:
    button = buttons(page)[RUNS_OLDER_ACTION]
    await bot.click(RUNS_OLDER_ACTION, button["value"], user=user, ephemeral=True)
    return await bot.reply()


async def test_runs_pages_through_every_run_with_older_runs(bot: BotHarness) -> None:
    bot.minds_api.on("GET", RUNS_PATH, cursor_pages(runs(25), page_size=10))  # Minds answers ten a page
    await bot.command(f"runs {STUDY}")
    first = await bot.reply_containing("Recent runs")
    text = said(first)
    assert all(line(n) in text for n in range(1, 11)) and line(11) not in text
    assert "Runs 1–10 of 25, newest first." in text
    assert [p.get("before") for p in runs_read(bot)] == [None, "run-0010", "run-0020"]  # three pages, to the end
    assert all(p["limit"] == "100" for p in runs_read(bot))

    second = await older(bot, first)
    text = said(second)
    assert second["replace_original"] is True
    assert all(line(n) in text for n in range(11, 21)) and line(10) not in text and line(21) not in text
    assert "Runs 11–20 of 25, newest first." in text
    assert "`/minds compare Coffee habits 12 11`" in text  # the numbers /minds compare reads

    third = await older(bot, second)
    text = said(third)
    assert all(line(n) in text for n in range(21, 26)) and "Runs 21–25 of 25, newest first." in text
    assert RUNS_OLDER_ACTION not in buttons(third)  # nothing older


async def test_runs_pages_speak_german(bot: BotHarness) -> None:
    bot.slack.users[ADA] = {"id": ADA, "locale": "de-DE"}
    bot.minds_api.on("GET", RUNS_PATH, cursor_pages(runs(25), page_size=10))
    await bot.command(f"runs {STUDY}")
    first = await bot.reply_containing("Coffee habits")
    assert "Durchläufe 1–10 von 25, neueste zuerst." in said(first)
    assert buttons(first)[RUNS_OLDER_ACTION]["text"]["text"] == "Ältere Durchläufe"
    second = await older(bot, first)
    assert "Durchläufe 11–20 von 25, neueste zuerst." in said(second)


async def test_older_runs_is_refused_to_someone_not_in_the_channel(bot: BotHarness) -> None:
    bot.minds_api.on("GET", RUNS_PATH, cursor_pages(runs(25), page_size=10))
    await bot.command(f"runs {STUDY}")
    first = await bot.reply_containing("Recent runs")
    reads = len(runs_read(bot))
    await bot.click(RUNS_OLDER_ACTION, buttons(first)[RUNS_OLDER_ACTION]["value"], user=BEN, ephemeral=True)
    refusal = await bot.reply()
    assert refusal["text"] == NOT_IN_CHANNEL and refusal["replace_original"] is False
    assert len(runs_read(bot)) == reads, "nothing was read from Minds for them"


@pytest.mark.parametrize(
    "value",
    [
        "not json",
        json.dumps({"s": STUDY, "o": 5}),  # not a page boundary
        json.dumps({"s": STUDY, "o": 5000}),  # beyond what is read
        json.dumps({"s": STUDY, "o": "10"}),
        json.dumps({"s": "../studies", "o": 10}),
        json.dumps({"s": STUDY, "o": True}),
    ],
)
async def test_an_older_runs_value_the_bot_could_not_have_written_is_refused(bot: BotHarness, value: str) -> None:
    await bot.click(RUNS_OLDER_ACTION, value, ephemeral=True)
    assert (await bot.reply())["text"] == "That button is out of date; run the command again."
    assert runs_read(bot) == []


async def test_at_the_read_bound_the_page_says_minds_has_more(bot: BotHarness) -> None:
    bot.minds_api.on("GET", RUNS_PATH, cursor_pages(runs(105), page_size=10))  # eleven pages of ten
    await bot.command(f"runs {STUDY}")
    text = said(await bot.reply_containing("Recent runs"))
    assert len(runs_read(bot)) == 10, "at most ten pages are read"
    assert (
        "Runs 1–10 of the newest 100: Minds has more runs of this Study than the bot reads; open older ones in Minds."
    ) in text


async def test_a_continuation_minds_cannot_follow_is_an_error_not_a_shorter_list(bot: BotHarness) -> None:
    first_page = raw({"data": runs(10), "pagination": {"limit": 10, "hasMore": True, "nextCursor": None}})
    bot.minds_api.on("GET", RUNS_PATH, first_page)
    await bot.command(f"runs {STUDY}")
    answer = await bot.reply()
    assert "Question 1?" not in said(answer) and "Runs 1–10" not in said(answer)


async def test_a_study_of_another_workspace_is_not_listed(bot: BotHarness) -> None:
    other = "22222222-2222-4222-8222-222222222222"
    bot.minds_api.on("GET", f"/studies/{other}", envelope(404, message="Study not found"))
    await bot.click(RUNS_OLDER_ACTION, json.dumps({"s": other, "o": 10}), ephemeral=True)
    answer = await bot.reply()
    assert "Question" not in said(answer)
    assert bot.minds_api.to("GET", f"/studies/{other}/runs") == [] and TEAM


async def test_compare_names_a_run_by_a_number_from_an_older_page(bot: BotHarness) -> None:
    history = runs(25)
    history[22]["status"] = "running"  # run 23, on the third page of `/minds runs`
    bot.minds_api.on("GET", RUNS_PATH, cursor_pages(history, page_size=10))
    await bot.command(f"compare {STUDY} 23 1")
    assert (await bot.reply_containing("Run 23"))["text"] == "Run 23 is running; only finished runs can be compared."


async def test_the_study_card_says_it_shows_the_latest_runs_and_where_the_rest_are(bot: BotHarness) -> None:
    bot.minds_api.on("GET", RUNS_PATH, cursor_pages(runs(25), page_size=10))
    await bot.command(f"study {STUDY}")
    card = said(await bot.reply_containing("Questions asked"))
    assert f"*Recent runs:* the latest 5; `/minds runs {STUDY}` lists all of them, ten at a time." in card
    assert [p.get("limit") for p in runs_read(bot)] == ["5"], "one page of five"
    bot.slack.users[ADA] = {"id": ADA, "locale": "de-DE"}
    bot.services.languages.forget_person(team_id=TEAM, user_id=ADA)
    await bot.command(f"study {STUDY}")
    card = said(await bot.reply_containing("Gestellte Fragen"))
    assert f"*Letzte Durchläufe:* die neuesten 5; `/minds runs {STUDY}` listet alle auf, jeweils zehn." in card


async def test_the_study_card_with_every_run_shown_says_nothing_more(bot: BotHarness) -> None:
    bot.minds_api.on("GET", RUNS_PATH, cursor_pages(runs(3), page_size=10))
    await bot.command(f"study {STUDY}")
    card = said(await bot.reply_containing("Questions asked"))
    assert "*Recent runs:*\\n1." not in card and "the latest" not in card and "Question 3?" in card


async def test_older_runs_while_minds_is_down_says_so_and_keeps_the_page(bot: BotHarness) -> None:
    """Minds answers 503 when **Older runs** re-reads the history: the person is told privately, the page they
    have is not replaced, and pressing again once Minds answers shows the older runs."""
    bot.minds_api.on("GET", RUNS_PATH, cursor_pages(runs(25), page_size=10))
    await bot.command(f"runs {STUDY}")
    first = await bot.reply_containing("Recent runs")
    bot.minds_api.set("GET", RUNS_PATH, envelope(503, message="busy"))
    trouble = await older(bot, first)
    assert trouble["replace_original"] is False
    assert trouble["text"] == "Minds is temporarily unavailable; nothing was charged. Try again later."
    bot.minds_api.set("GET", RUNS_PATH, cursor_pages(runs(25), page_size=10))
    second = await older(bot, first)
    assert "Runs 11–20 of 25, newest first." in said(second) and second["replace_original"] is True
