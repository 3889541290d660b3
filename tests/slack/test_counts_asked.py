"""Issue 34 row 9, through the real Bolt app: counts are what Minds counts. The Study card says how many questions
were asked as Minds counts them (a research run's one message lists all its questions, so counting messages would
say 2 where 15 were asked), and says so when Minds gives no count; an approved research run, once it ended, counts
the responses Minds received in ``/minds activity`` and its totals — in English and in German."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from minds_bot.store import RunKind
from tests.fakes.bot import TEAM, BotHarness, bot_harness
from tests.fakes.minds_http import ok
from tests.slack import samples
from tests.slack.test_spend_recorded import ADMIN, BEN, PLAN_STUDY, RESEARCH, activity, approved_plan

STUDY = samples.STUDY_ID
LISTING = "\n".join(f"{i}. Question {i} about the price?" for i in range(1, 14))


def pricing_pulse(*, counted: int | None) -> dict[str, Any]:
    """Two asks: one standalone question and one research run of 13 questions (one message lists them all)."""
    detail = samples.study_detail("Pricing pulse", questions=1)
    detail["messages"].append(
        {"id": "m-run", "role": "user", "content": LISTING, "metadata": {"runId": "run-9"}, "createdAt": samples.TS}
    )
    if counted is None:
        del detail["questionCount"]
    else:
        detail["questionCount"] = counted
    return detail


@pytest.fixture
async def bot() -> AsyncIterator[BotHarness]:
    async with bot_harness(wait_for_listeners=True, unique_ts=True) as running:
        running.slack.users[ADMIN] = {"id": ADMIN, "is_admin": True, "real_name": "Ada Admin"}
        running.slack.acting.update({ADMIN, BEN})
        running.minds_api.on("GET", f"/studies/{STUDY}/runs", ok([]))
        yield running


async def card(bot: BotHarness) -> str:
    await bot.command(f"study {STUDY}")
    reply = await bot.reply_containing("Pricing pulse")
    return json.dumps(reply, ensure_ascii=False)


async def test_the_study_card_says_the_questions_minds_counted_not_its_messages(bot: BotHarness) -> None:
    bot.minds_api.on("GET", f"/studies/{STUDY}", ok(pricing_pulse(counted=15)))
    text = await card(bot)
    assert "*Questions asked:* 15 — latest:" in text and "*Questions asked:* 2" not in text
    bot.slack.users[bot.user] = {"id": bot.user, "locale": "de-DE"}
    text = await card(bot)
    assert "*Gestellte Fragen:* 15 – die neuesten:" in text


async def test_the_study_card_says_when_minds_gave_no_count(bot: BotHarness) -> None:
    bot.minds_api.on("GET", f"/studies/{STUDY}", ok(pricing_pulse(counted=None)))
    text = await card(bot)
    assert "*Questions asked:* Minds gave no count — latest:" in text
    bot.slack.users[bot.user] = {"id": bot.user, "locale": "de-DE"}
    text = await card(bot)
    assert "*Gestellte Fragen:* Minds hat keine Anzahl genannt – die neuesten:" in text


def ended_run(received: list[int]) -> dict[str, Any]:
    artifacts = [
        {
            "index": i,
            "questionId": f"q{i + 1}",
            "messageId": f"msg-{i}",
            "kind": "response",
            "outputData": {
                "title": f"Question {i + 1}",
                "type": "categorical",
                "distribution": {"Yes": n},
                "responseCoverage": {"expected": 8, "received": n},
            },
        }
        for i, n in enumerate(received)
    ]
    total = len(received)
    return {
        "runId": "run-1",
        "status": "completed",
        "progress": {"total": total, "settled": total, "failed": 0, "partial": 0, "skipped": 0, "pct": 100},
        "completedQuestions": total,
        "artifacts": artifacts,
        "answerConsistency": {"status": "checked", "checkedMinds": 8, "flaggedMinds": 0, "flagCount": 0},
    }


async def test_an_ended_research_run_counts_the_responses_minds_received_in_activity(bot: BotHarness) -> None:
    bot.minds_api.on("POST", f"/studies/{PLAN_STUDY}/research-runs", ok({"runId": "run-1", "status": "queued"}))
    bot.minds_api.on("GET", f"/studies/{PLAN_STUDY}/research-runs/run-1", ok(ended_run([8, 7, 8])))
    bot.minds_api.on("POST", f"/studies/{PLAN_STUDY}/export", ok({"jobId": "job-1", "status": "queued"}))
    bot.minds_api.on("GET", f"/studies/{PLAN_STUDY}/export-status", ok({"status": "failed", "error": "not here"}))
    await approved_plan(bot)
    await bot.tracker.next_tracked(RunKind.RESEARCH)
    before = await activity(bot)
    assert "*Totals:* 1 request sent to Minds, counting 0 Minds responses · 1 with a count not known" in before
    await bot.tick()
    await bot.slack.wait_for("chat.postMessage", lambda c: "Question 3" in json.dumps(c, ensure_ascii=False))
    text = await activity(bot)
    assert f"{RESEARCH}: run the approved research plan of Reusable cups · Minds responses: 23 · " in text
    assert "*Totals:* 1 request sent to Minds, counting 23 Minds responses" in text
    assert "count not known" not in text
    bot.slack.users[ADMIN] = {"id": ADMIN, "is_admin": True, "real_name": "Ada Admin", "locale": "de-DE"}
    bot.services.languages.forget_person(team_id=TEAM, user_id=ADMIN)
    await bot.command("activity", user=ADMIN)
    german = str((await bot.reply_containing("Minds-Antworten"))["text"])
    assert "1 Anfrage an Minds gesendet, mit 23 Minds-Antworten" in german and "Minds-Antworten: 23" in german
