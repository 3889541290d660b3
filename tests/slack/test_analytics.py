"""A Study's analytics through the real Bolt app (the Analytics button and ``/minds analytics``), and the pure
renderer: Minds' figures exactly as sent, a figure Minds did not send left out (never zero), a malformed reply
an error, and a chart only of distributions Minds reported in full."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from minds_bot.minds import StudyAnalytics
from minds_bot.render.analytics import chart_panels, render_analytics
from tests.fakes.bot import CHANNEL, BotHarness, blocks_of, bot_harness
from tests.fakes.minds_http import ok, raw
from tests.slack import samples

STUDY = samples.STUDY_ID
ANALYTICS = f"/studies/{STUDY}/analytics"


def document(**overrides: Any) -> dict[str, Any]:
    return {
        "studyId": STUDY,
        "questionCount": 3,
        "responseCount": 60,
        "questions": [
            {
                "messageId": "m1",
                "title": "Would you buy <it>?",
                "type": "categorical",
                "responseCount": 20,
                "distribution": [{"option": "Yes", "count": 15, "pct": 75.0}, {"option": "No", "count": 5, "pct": 25}],
            },
            {"messageId": "m2", "title": "How likely?", "type": "scale", "responseCount": 20, "mean": 3.45},
            {
                "messageId": "m3",
                "title": "Why?",
                "type": "qualitative",
                "themes": [{"theme": "price", "count": 7}, {"theme": "comfort"}],
            },
        ],
        **overrides,
    }


def text_of(message: Any) -> str:
    return json.dumps([b.to_dict() for b in message.blocks], ensure_ascii=False)


def test_figures_are_shown_as_sent_and_absent_ones_are_left_out() -> None:
    analytics = StudyAnalytics.model_validate(document())
    shown = text_of(render_analytics(analytics, study_name="Launch", charted=True))
    assert "3 questions analysed · 60 responses" in shown
    assert "Would you buy &lt;it&gt;?" in shown and "most chosen Yes (75%)" in shown
    assert "mean 3.45" in shown and "median" not in shown and "std dev" not in shown
    assert "themes: price (7), comfort" in shown and "n=" not in shown.split("Why?")[1].split("*")[0]
    assert " 0" not in shown.replace("60 responses", "")


def test_totals_minds_did_not_send_are_absent() -> None:
    analytics = StudyAnalytics.model_validate({"questions": []})
    shown = text_of(render_analytics(analytics, study_name="Launch", charted=False))
    assert "questions analysed" not in shown and "responses" not in shown
    assert "no answered questions" in shown and "chart" not in shown


def test_only_full_distributions_are_charted() -> None:
    partial = document()
    partial["questions"][0]["distribution"][1].pop("pct")
    partial["questions"][0]["distribution"][1].pop("count")
    assert chart_panels(StudyAnalytics.model_validate(partial)) == []
    (panel,) = chart_panels(StudyAnalytics.model_validate(document()))
    assert panel.values == [75.0, 25.0] and panel.unit == "share (%)"


@pytest.fixture
async def bot() -> AsyncIterator[BotHarness]:
    async with bot_harness() as running:
        running.minds_api.on("GET", f"/studies/{STUDY}", ok(samples.study_detail()))
        yield running


async def test_the_analytics_button_posts_the_figures_and_the_chart_in_its_thread(bot: BotHarness) -> None:
    bot.minds_api.on("GET", ANALYTICS, ok(document()))
    await bot.click("study_analytics", STUDY, ephemeral=True)
    assert "posted in the channel" in (await bot.reply_containing("posted"))["text"]
    (posted,) = bot.slack.calls_to("chat.postMessage")
    assert posted["channel"] == CHANNEL
    assert "Analytics — Launch positioning" in json.dumps(blocks_of(posted), ensure_ascii=False)
    (upload,) = bot.slack.calls_to("files.completeUploadExternal")
    assert upload["thread_ts"] == "1733140000.000100"
    (png,) = bot.slack.uploads.values()
    assert png.startswith(b"\x89PNG")


async def test_a_malformed_reply_is_an_error_not_empty_analytics(bot: BotHarness) -> None:
    bot.minds_api.on("GET", ANALYTICS, raw({"data": {"studyId": STUDY}}))
    await bot.command(f"analytics {STUDY}")
    answer = await bot.reply()
    assert "no answered questions" not in json.dumps(answer)
    assert bot.slack.calls_to("chat.postMessage") == []
    assert answer["response_type"] == "ephemeral" and "Minds" in answer["text"]
