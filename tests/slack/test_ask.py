"""/minds ask end to end: one question becomes a durable direct run (clientRequestId saved first, reused on retry),
questionnaires are refused with the planning offer, and the run tracker — driven with a controlled clock — shows
progress and then exactly one result with a chart in the thread."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from tests.fakes.bot import BotHarness, blocks_of, bot_harness, buttons
from tests.fakes.minds_http import envelope, ok, raw
from tests.slack import samples

STUDY = samples.STUDY_ID
RUNS = f"/studies/{STUDY}/runs"
QUESTION = "Would you pay $5 a month for faster delivery?"


@pytest.fixture
async def bot() -> AsyncIterator[BotHarness]:
    async with bot_harness() as running:
        running.minds_api.on("GET", f"/studies/{STUDY}", ok(samples.study_detail()))
        yield running


def accepted(bot: BotHarness, *, status: int = 202) -> Any:
    def reply(request: httpx.Request) -> httpx.Response:
        bot.events.append(f"POST runs {json.loads(request.content)['clientRequestId']}")
        return ok({"runId": samples.RUN_ID, "status": "queued"}, status=status)

    return reply


def unavailable(bot: BotHarness) -> Any:
    def reply(request: httpx.Request) -> httpx.Response:
        bot.events.append(f"POST runs {json.loads(request.content)['clientRequestId']}")
        return envelope(503, message="down", headers={"Retry-After": "1"})

    return reply


async def asked(bot: BotHarness, text: str = QUESTION) -> Any:
    await bot.command(f"ask {STUDY} {text}")
    return await bot.tracker.tracked.get()


async def test_one_question_becomes_a_durable_run_saved_before_the_post(bot: BotHarness) -> None:
    bot.minds_api.on("POST", RUNS, accepted(bot))
    run = await asked(bot)
    (sent,) = bot.minds_api.to("POST", RUNS)
    body = sent.json()
    assert body["question"] == QUESTION and body["routeResearchBrief"] is True
    crid = body["clientRequestId"]
    assert bot.events == [f"saved ask {crid}", f"POST runs {crid}"]
    assert run.client_request_id == crid and run.run_id == samples.RUN_ID
    stored = await bot.store.get_direct_ask(crid)
    assert stored is not None and stored.run_id == samples.RUN_ID and stored.requester_id == "U0001"

    parent, asking = bot.slack.calls_to("chat.postMessage")[:2]
    assert parent["text"] == f"<@U0001> asked *Launch positioning*: “{QUESTION}”"
    assert asking["thread_ts"] == run.thread_ts and "Asking 20 Minds in 2 Audiences" in asking["text"]


async def test_an_uncertain_failure_offers_a_retry_that_reuses_the_client_request_id(bot: BotHarness) -> None:
    bot.minds_api.on("POST", RUNS, unavailable(bot))
    await bot.command(f"ask {STUDY} {QUESTION}")
    (update,) = await bot.slack.wait_for("chat.update")
    assert "temporarily unavailable" in update["text"]
    retry = buttons(update)["ask_retry"]
    crid = retry["value"]
    assert (await bot.store.get_direct_ask(crid)).run_id is None  # type: ignore[union-attr]

    await bot.click("ask_retry", crid, user="U0002", ephemeral=False)
    assert "Only <@U0001> can retry" in (await bot.reply())["text"]

    bot.minds_api.set("POST", RUNS, accepted(bot))
    await bot.click("ask_retry", crid, ephemeral=False)
    run = await bot.tracker.tracked.get()
    assert run.client_request_id == crid
    ids = {s.json()["clientRequestId"] for s in bot.minds_api.to("POST", RUNS)}
    assert ids == {crid}
    assert bot.events[0] == f"saved ask {crid}" and all(e.endswith(crid) for e in bot.events)
    assert len(bot.slack.calls_to("chat.postMessage")) == 3  # one parent; "asking…" before each attempt


async def test_several_questions_are_refused_with_the_planning_offer(bot: BotHarness) -> None:
    text = "1. Do you own a car?\n2. How often do you drive?"
    await bot.command(f"ask {STUDY} {text}")
    answer = await bot.reply_containing("Nothing was sent")
    plan = buttons(answer)["study_plan"]
    assert plan["value"] == f"{STUDY}\n{text}"
    assert bot.minds_api.to("POST", RUNS) == [] and bot.slack.calls_to("chat.postMessage") == []


async def test_planning_required_offers_the_planning_flow_in_the_thread(bot: BotHarness) -> None:
    bot.minds_api.on("POST", RUNS, ok({"status": "planning_required", "reason": "this is a brief"}))
    await bot.command(f"ask {STUDY} Help me understand how parents choose snacks")
    (update,) = await bot.slack.wait_for("chat.update")
    assert "research brief" in update["text"] and "No run was started" in update["text"]
    assert "study_plan" in buttons(update)
    assert bot.tracker.tracked.empty()


def launch_is_the_only_study(bot: BotHarness) -> None:
    launch = {**samples.study(1, "Launch positioning"), "id": STUDY}
    bot.minds_api.on(
        "GET",
        "/studies",
        raw({"data": [launch], "pagination": {"total": 1, "limit": 100, "offset": 0}}),
    )


async def test_a_loosely_matching_name_is_confirmed_before_asking(bot: BotHarness) -> None:
    launch_is_the_only_study(bot)
    await bot.command(f'ask "launch-positionin" {QUESTION}')
    answer = await bot.reply_containing("Did you mean")
    (choice,) = [b for k, b in buttons(answer).items() if k.startswith("minds_rerun")]
    assert choice["value"] == f"ask {STUDY} {QUESTION}"
    assert bot.minds_api.to("POST", RUNS) == []


async def test_an_accepted_did_you_mean_sends_the_question_exactly_as_typed(bot: BotHarness) -> None:
    """Row 11: the did-you-mean changes the Study, never the question (its words, spacing and punctuation)."""
    launch_is_the_only_study(bot)
    typed = "Which of these  names   fits best: “Stride”, 'Loop' or Pace?"
    bot.minds_api.on("POST", RUNS, accepted(bot))
    await bot.command(f"ask “Launch positionin” {typed}")
    answer = await bot.reply_containing("Did you mean")
    (action_id, choice), *_more = [(k, b) for k, b in buttons(answer).items() if k.startswith("minds_rerun")]
    await bot.click(action_id, choice["value"], ephemeral=True)
    await bot.tracker.tracked.get()
    (sent,) = bot.minds_api.to("POST", RUNS)
    assert sent.json()["question"] == typed


async def test_an_unquoted_name_that_is_not_exact_is_refused_and_nothing_is_sent(bot: BotHarness) -> None:
    """Row 11: "Launch" is no Study's exact name, so "positioning Which…" is never sent to Minds as a question; the
    reply says to quote the name, names the closest Study as text and offers no button."""
    launch_is_the_only_study(bot)
    await bot.command("ask Launch positioning Which of these names fits best?")
    answer = await bot.reply_containing("nothing was sent")
    assert answer["response_type"] == "ephemeral"
    assert answer["text"] == (
        "No Study is named exactly “Launch”, so nothing was sent. Put a Study name with spaces in quotes (or use "
        "its id), so the words after it are exactly what is sent. Closest: “Launch positioning”."
    )
    (usage,) = [e["text"] for b in answer["blocks"] if b["type"] == "context" for e in b["elements"]]
    example = '`/minds ask "Launch positioning" Which name fits best?`'
    assert usage == f'Say `/minds ask "&lt;study&gt;" &lt;question&gt;`, e.g. {example}'

    assert not [k for k in buttons(answer) if k.startswith("minds_rerun")]
    assert bot.minds_api.to("POST", RUNS) == []
    assert bot.tracker.tracked.empty()


async def test_an_unquoted_exact_name_is_asked(bot: BotHarness) -> None:
    pricing = {**samples.study(1, "Pricing"), "id": STUDY}
    bot.minds_api.on("GET", "/studies", raw({"data": [pricing], "pagination": {"total": 1, "limit": 100, "offset": 0}}))
    bot.minds_api.on("POST", RUNS, accepted(bot))
    await bot.command(f"ask pricing {QUESTION}")
    await bot.tracker.tracked.get()
    (sent,) = bot.minds_api.to("POST", RUNS)
    assert sent.json()["question"] == QUESTION


async def progress_then_result(bot: BotHarness, *, kind: str) -> tuple[Any, dict[str, Any]]:
    bot.minds_api.on("POST", RUNS, accepted(bot))
    run = await asked(bot)
    bot.minds_api.on(
        "GET",
        f"/runs/{samples.RUN_ID}",
        ok(samples.agent_run("running")),
        ok(samples.agent_run("completed", message_id=samples.MESSAGE_ID)),
    )
    bot.minds_api.on(
        "GET",
        f"/studies/{STUDY}/messages/{samples.MESSAGE_ID}/answers",
        raw({"messageId": samples.MESSAGE_ID, "outputData": samples.output_data(kind)}),
    )
    assert await bot.tracker.tick() == 1
    (progress,) = bot.slack.calls_to("chat.update")
    assert progress["ts"] == run.progress_ts and "answering" in progress["text"]
    assert await bot.tracker.tick() == 0  # not due yet: the clock has not moved
    bot.clock.advance(60)
    assert await bot.tracker.tick() == 1
    bot.clock.advance(60)
    assert await bot.tracker.tick() == 0  # posted once; never polled again
    results = [c for c in bot.slack.calls_to("chat.postMessage") if "Results" in c["text"] or "Themes" in c["text"]]
    assert len(results) == 1
    return run, results[0]


async def test_the_tracker_shows_progress_then_one_result_with_a_chart(bot: BotHarness) -> None:
    run, result = await progress_then_result(bot, kind="categorical")
    (upload,) = bot.slack.calls_to("files.completeUploadExternal")
    assert upload["channel_id"] == run.channel_id and upload["thread_ts"] == run.thread_ts
    (png,) = bot.slack.uploads.values()
    assert png.startswith(b"\x89PNG")
    assert result["thread_ts"] == run.thread_ts
    text = json.dumps(blocks_of(result), ensure_ascii=False)
    assert "(% of respondents · n=4): Yes 75% · No 25%" in text
    assert "answers_show" in buttons(result)


async def test_a_qualitative_question_gets_themes_and_no_chart(bot: BotHarness) -> None:
    _, result = await progress_then_result(bot, kind="qualitative")
    assert bot.slack.calls_to("files.getUploadURLExternal") == []
    assert "late arrivals" in json.dumps(blocks_of(result), ensure_ascii=False)


@pytest.mark.parametrize("status", ["failed", "cancelled"])
async def test_a_failed_or_cancelled_run_says_so_plainly(bot: BotHarness, status: str) -> None:
    bot.minds_api.on("POST", RUNS, accepted(bot))
    await asked(bot)
    bot.minds_api.on("GET", f"/runs/{samples.RUN_ID}", ok(samples.agent_run(status)))
    assert await bot.tracker.tick() == 1
    posted = bot.slack.calls_to("chat.postMessage")[-1]
    assert status in posted["text"] and "no answers" in posted["text"]
    assert bot.slack.calls_to("files.getUploadURLExternal") == []


async def test_show_answers_pages_individual_answers_privately(bot: BotHarness) -> None:
    _, result = await progress_then_result(bot, kind="categorical")
    await bot.click("answers_show", buttons(result)["answers_show"]["value"], ephemeral=False)
    page = await bot.reply_containing("Answers to")
    assert page["response_type"] == "ephemeral" and page["replace_original"] in (False, "false")
    text = json.dumps(blocks_of(page), ensure_ascii=False)
    assert "*P 0* · Parents — Yes" in text and "S 2 says Yes" in text


async def test_after_a_restart_an_unanswered_question_is_sent_again_with_its_own_id(bot: BotHarness) -> None:
    from minds_bot.flows.ask import resume_pending_asks
    from minds_bot.store import DEFAULT_CLAIM_LEASE, DirectAsk

    crid = "5a0c1d2e-0000-4000-8000-00000000beef"
    # Saved just before a crash: the POST never happened (or its answer was lost).
    await bot.store.begin_direct_ask(
        DirectAsk(
            client_request_id=crid,
            team_id="T0001",
            study_id=STUDY,
            channel_id="C0001",
            thread_ts="1733140000.000100",
            question=QUESTION,
            requester_id="U0001",
        )
    )
    bot.minds_api.on("POST", RUNS, accepted(bot))
    bot.clock.advance(DEFAULT_CLAIM_LEASE.total_seconds() + 1)  # the crashed asker's lease ran out
    assert await resume_pending_asks(bot.services) == 1
    run = await bot.tracker.tracked.get()
    (sent,) = bot.minds_api.to("POST", RUNS)
    assert sent.json()["clientRequestId"] == crid and run.client_request_id == crid
    (asking,) = bot.slack.calls_to("chat.postMessage")
    assert asking["thread_ts"] == "1733140000.000100" and "Asking" in asking["text"]
    assert await resume_pending_asks(bot.services) == 0  # answered now: nothing to resend


async def test_a_question_minds_refused_for_good_is_not_sent_again_after_a_restart(bot: BotHarness) -> None:
    from minds_bot.flows.ask import resume_pending_asks

    bot.minds_api.on("POST", RUNS, envelope(403, code="PLAN_LIMIT", data={"limitType": "responses", "limit": 10}))
    await bot.command(f"ask {STUDY} {QUESTION}")
    (update,) = await bot.slack.wait_for("chat.update")
    assert "upgrade is required" in update["text"] and "ask_retry" not in buttons(update)
    assert await resume_pending_asks(bot.services) == 0
    assert len(bot.minds_api.to("POST", RUNS)) == 1
