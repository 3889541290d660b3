"""The research tools through the real Bolt app (signed requests, every listener registered, the error hook):
methods, the Audience card, asking an Audience, invitations, recalibration and model connections. Minds is the
fake HTTP API; Slack is the fake Web API. Each test checks what the person sees and what reached Minds."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.fakes.bot import BotHarness, bot_harness
from tests.fakes.minds_http import ok, raw
from tests.slack import samples

STUDY = samples.STUDY_ID
METHODS = [
    {
        "id": "maxdiff",
        "name": "MaxDiff",
        "executable": True,
        "advanced": True,
        "complexity": "medium",
        "configurationSchema": {"required": ["items"]},
    },
    {
        "id": "conjoint",
        "name": "Conjoint <b>",
        "executable": False,
        "availability": "planned",
        "fallbackMethodId": "maxdiff",
    },
    {"id": "survey", "name": "Survey", "executable": True},
]


@pytest.fixture
async def bot() -> AsyncIterator[BotHarness]:
    async with bot_harness() as running:
        yield running


def shown(message: dict[str, Any]) -> str:
    return json.dumps(message, ensure_ascii=False)


# ---- methods


async def test_methods_lists_runnable_first_with_needs_and_fallbacks_escaped(bot: BotHarness) -> None:
    bot.minds_api.on("GET", "/research-methods", raw({"data": METHODS}))
    await bot.command("methods")
    answer = shown(await bot.reply_containing("Research methods in Minds"))
    assert "2 of 3 runnable" in answer
    assert answer.index("*MaxDiff*") < answer.index("*Survey*") < answer.index("Conjoint")
    assert "needs: items" in answer and "complexity: medium" in answer
    assert "not runnable (planned)" in answer and "alternative to review: MaxDiff" in answer
    assert "Conjoint &lt;b&gt;" in answer and "<b>" not in answer


async def test_methods_query_filters_and_says_when_nothing_matches(bot: BotHarness) -> None:
    bot.minds_api.on("GET", "/research-methods", raw({"data": METHODS}))
    await bot.command("methods maxdiff")
    answer = shown(await bot.reply_containing("Research methods"))
    assert "MaxDiff" in answer and "Survey" not in answer
    await bot.command("methods zebra")
    assert "No research method in Minds matches" in shown(await bot.reply_containing("zebra"))


async def test_a_malformed_catalogue_is_an_error_never_no_methods(bot: BotHarness) -> None:
    bot.minds_api.on("GET", "/research-methods", raw({"data": [{"id": "nps"}]}))  # no executable flag
    await bot.command("methods")
    answer = await bot.reply_containing("could not read")
    assert "no research methods" not in shown(answer).lower()


async def test_a_plan_request_naming_methods_gets_a_private_hint_from_the_catalogue(bot: BotHarness) -> None:
    bot.minds_api.on("GET", "/research-methods", raw({"data": METHODS}))
    bot.minds_api.on("GET", f"/studies/{STUDY}", ok(samples.study_detail()))
    bot.minds_api.on(
        "POST",
        f"/studies/{STUDY}/research-plans/preview",
        ok({"status": "pending", "accepted": True, "requestId": "plan-1"}, status=202),
    )
    await bot.command(f"plan {STUDY} Run a MaxDiff and a Conjoint and a Kano on our features")
    [hint] = await bot.slack.wait_for("chat.postEphemeral", lambda a: "Methods you asked for" in a.get("text", ""))
    text = shown(hint)
    assert "*MaxDiff*: Minds can run it" in text and "advanced method" in text
    assert "*Conjoint*: listed by Minds but not runnable (planned), so it will not run" in text
    assert "An alternative to review: MaxDiff" in text
    assert "*Kano*: not in Minds' method catalogue" in text
