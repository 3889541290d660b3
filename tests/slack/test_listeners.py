"""The /minds commands through the real Bolt app with signed requests: browse, study card, modals, summary,
share, duplicate, audience from a brief. Minds is the fake HTTP API; Slack is the fake Web API."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from minds_bot.store import ChannelPolicy, PolicyMode, RunKind
from tests.fakes.bot import CHANNEL, TEAM, USER, BotHarness, blocks_of, bot_harness, buttons
from tests.fakes.minds_http import envelope, ok, page, raw
from tests.slack import samples

STUDY = samples.STUDY_ID


@pytest.fixture
async def bot() -> AsyncIterator[BotHarness]:
    async with bot_harness() as running:
        yield running


def detail(**kwargs: Any) -> Any:
    return ok(samples.study_detail(**kwargs))


async def test_commands_are_acknowledged_at_once(bot: BotHarness) -> None:
    bot.minds_api.on("GET", "/studies", page([], total=0, offset=0))
    assert (await bot.command("studies")).status == 200
    await bot.reply()


async def test_browse_pages_with_next_and_previous_and_counts_from_the_total(bot: BotHarness) -> None:
    first = [samples.study(i) for i in range(10)]
    second = [samples.study(i) for i in range(10, 20)]
    bot.minds_api.on(
        "GET", "/studies", page(first, total=25, offset=0, limit=10), page(second, total=25, offset=10, limit=10)
    )
    await bot.command("studies")
    answer = await bot.reply_containing("of 25")
    assert "Studies 1–10 of 25" in json.dumps(answer, ensure_ascii=False)
    nav = buttons(answer)
    assert "browse_prev" not in nav

    await bot.click("browse_next", nav["browse_next"]["value"], ephemeral=True)
    turned = await bot.reply_containing("of 25")
    assert turned["replace_original"] in (True, "true")
    assert "Studies 11–20 of 25" in json.dumps(turned, ensure_ascii=False)
    assert {"browse_prev", "browse_next"} <= set(buttons(turned))
    assert [s.params["offset"] for s in bot.minds_api.to("GET", "/studies")] == ["0", "10"]


async def test_audiences_list_shows_mind_counts(bot: BotHarness) -> None:
    bot.minds_api.on("GET", "/audiences", page([samples.audience(1, "Commuters", minds=14)], total=1, offset=0))
    await bot.command("audiences")
    assert "*Commuters* — 14 Minds" in json.dumps(await bot.reply_containing("Commuters"), ensure_ascii=False)


async def test_a_malformed_list_is_an_error_never_nothing_found(bot: BotHarness) -> None:
    bot.minds_api.on("GET", "/studies", raw({"data": [samples.study(1)]}))  # no pagination
    await bot.command("studies")
    answer = await bot.reply_containing("could not read")
    assert "no Studies" not in answer["text"]


async def test_no_match_explains_the_newest_1000_window(bot: BotHarness) -> None:
    full_pages = [page([samples.study(o + i) for i in range(100)], total=1500, offset=o) for o in range(0, 1000, 100)]
    bot.minds_api.on("GET", "/studies", *full_pages)
    await bot.command("studies zebra")
    answer = await bot.reply_containing("newest")
    assert "newest 1,000 Studies" in answer["text"] or "newest 1,000 Studies" in json.dumps(answer, ensure_ascii=False)


async def test_ambiguous_names_offer_buttons_that_rerun_with_the_exact_id(bot: BotHarness) -> None:
    a, b = samples.study(1, "Launch A"), samples.study(2, "Launch B")
    bot.minds_api.on("GET", "/studies", page([a, b], total=2, offset=0))
    await bot.command("study Launch")
    answer = await bot.reply_containing("Which one")
    choices = {v["value"] for k, v in buttons(answer).items() if k.startswith("minds_rerun")}
    assert choices == {f"study {a['id']}", f"study {b['id']}"}

    chosen = {**samples.study_detail("Launch B"), "id": b["id"]}
    bot.minds_api.on("GET", f"/studies/{b['id']}", ok(chosen))
    bot.minds_api.on("GET", f"/studies/{b['id']}/runs", raw({"data": [samples.agent_run("completed")]}))
    await bot.click(f"minds_rerun:{b['id']}", f"study {b['id']}", ephemeral=True)
    card = await bot.reply_containing("Questions asked")
    assert "Launch B" in json.dumps(card, ensure_ascii=False)


async def test_study_card_shows_the_study_and_its_four_buttons(bot: BotHarness) -> None:
    bot.minds_api.on("GET", f"/studies/{STUDY}", detail(questions=3, shared=True))
    bot.minds_api.on(
        "GET", f"/studies/{STUDY}/runs", raw({"data": [samples.agent_run("running"), samples.agent_run("failed")]})
    )
    await bot.command(f"study {STUDY}")
    card = await bot.reply_containing("Questions asked")
    text = json.dumps(card, ensure_ascii=False)
    assert "Parents — 12 Minds" in text and "*Questions asked:* 3" in text
    assert "running" in text and "failed" in text and "Public link: *on*" in text
    found = buttons(card)
    assert set(found) == {"study_plan", "study_ask", "study_summary", "study_export", "study_analytics", "study_delete"}
    assert found["study_plan"]["value"] == STUDY and found["study_export"]["value"] == STUDY
    assert bot.minds_api.to("GET", f"/studies/{STUDY}/runs")[0].params == {"limit": "5"}


async def test_study_summary_button_shows_the_summary(bot: BotHarness) -> None:
    bot.minds_api.on("GET", f"/studies/{STUDY}/runs", ok([]))  # no finished run to compare the summary with
    bot.minds_api.on("GET", f"/studies/{STUDY}", detail())
    bot.minds_api.on(
        "GET", f"/studies/{STUDY}/summary", ok({"summary": "Parents *love* it.", "revision": 2, "isGenerating": False})
    )
    await bot.click("study_summary", STUDY, ephemeral=True)
    assert "Summary of Launch positioning" in json.dumps(await bot.reply_containing("Summary of"), ensure_ascii=False)


@pytest.mark.parametrize("text", ["ask", "study", "summary"])
async def test_a_missing_study_opens_a_modal_with_an_external_select(bot: BotHarness, text: str) -> None:
    await bot.command(text)
    (opened,) = await bot.slack.wait_for("views.open")
    view = json.loads(opened["view"]) if isinstance(opened["view"], str) else opened["view"]
    selects = [b["element"] for b in view["blocks"] if b.get("element", {}).get("type") == "external_select"]
    assert len(selects) == 1 and selects[0]["action_id"] == "study_options"
    assert opened["trigger_id"].startswith("trigger.")
    assert bot.slack.responses.empty()  # no error message instead of the modal


async def test_study_options_come_from_minds_and_an_error_is_not_an_empty_list(bot: BotHarness) -> None:
    bot.minds_api.on(
        "GET", "/studies", page([samples.study(1, "Launch A"), samples.study(2, "Pricing")], total=2, offset=0)
    )
    answer = await bot.options("study_options", "launch")
    options = json.loads(answer.body)["options"]
    assert [o["text"]["text"] for o in options] == ["Launch A"]

    bot.minds_api.set("GET", "/studies", raw({"data": []}))  # malformed: no pagination
    broken = json.loads((await bot.options("study_options", "launch")).body)["options"]
    assert broken[0]["value"] == "__minds_error__" and "could not read" in broken[0]["text"]["text"]


async def test_the_ask_modal_refuses_several_questions_and_runs_one(bot: BotHarness) -> None:
    view = {"callback_id": "minds_pick_study", "private_metadata": json.dumps({"purpose": "ask"})}
    pick = {"study_options": {"type": "external_select", "selected_option": {"value": STUDY}}}

    def values(question: str) -> dict[str, Any]:
        return {"study": pick, "question": {"question_input": {"type": "plain_text_input", "value": question}}}

    refused = await bot.submit(view, values("Do you cook? How often?"))
    assert json.loads(refused.body)["response_action"] == "errors"
    assert "2 questions" in json.loads(refused.body)["errors"]["question"]

    bot.minds_api.on("GET", f"/studies/{STUDY}", detail())
    bot.minds_api.on("POST", f"/studies/{STUDY}/runs", ok({"runId": samples.RUN_ID, "status": "queued"}, status=202))
    accepted = await bot.submit(view, values("Do you cook at home?"))
    assert accepted.status == 200 and not accepted.body
    run = await bot.tracker.tracked.get()
    assert run.run_id == samples.RUN_ID and run.channel_id == "C0001"


async def test_summary_refresh_409_says_a_newer_summary_is_being_generated(bot: BotHarness) -> None:
    bot.minds_api.on("GET", f"/studies/{STUDY}", detail())
    bot.minds_api.on("POST", f"/studies/{STUDY}/summary", envelope(409, message="superseded"))
    await bot.command(f"summary {STUDY} refresh")
    answer = await bot.reply_containing("newer summary")
    assert "is being generated" in answer["text"]
    assert len(bot.minds_api.to("POST", f"/studies/{STUDY}/summary")) == 1


async def test_summary_refresh_passes_force_and_length_to_minds(bot: BotHarness) -> None:
    bot.minds_api.on("GET", f"/studies/{STUDY}/runs", ok([]))  # no finished run to compare the summary with
    bot.minds_api.on("GET", f"/studies/{STUDY}", detail())
    bot.minds_api.on("POST", f"/studies/{STUDY}/summary", ok({"summary": "Short text", "revision": 4}))
    await bot.command(f"summary {STUDY} refresh force short")
    await bot.reply_containing("Short text")
    await bot.command(f"summary {STUDY} refresh")
    await bot.reply_containing("Short text")
    forced, plain = bot.minds_api.to("POST", f"/studies/{STUDY}/summary")
    assert forced.json() == {"force": True, "length": "short"}
    assert plain.json() == {"force": False}  # Minds reuses a saved summary that still matches


async def test_summary_read_shows_is_generating(bot: BotHarness) -> None:
    bot.minds_api.on("GET", f"/studies/{STUDY}/runs", ok([]))  # no finished run to compare the summary with
    bot.minds_api.on("GET", f"/studies/{STUDY}", detail())
    bot.minds_api.on(
        "GET", f"/studies/{STUDY}/summary", ok({"summary": "Old text", "revision": 3, "isGenerating": True})
    )
    await bot.command(f"summary {STUDY}")
    assert "generating a newer summary" in json.dumps(await bot.reply_containing("Summary of"), ensure_ascii=False)


async def test_a_summary_whose_runs_cannot_be_read_may_predate_them_and_is_never_called_current(
    bot: BotHarness,
) -> None:
    bot.minds_api.on("GET", f"/studies/{STUDY}/runs", envelope(403, message="no access to runs"))
    bot.minds_api.on("GET", f"/studies/{STUDY}", detail())
    summary = {"summary": "Old text", "revision": 3, "generatedAt": "2026-11-30T09:00:00Z"}
    bot.minds_api.on("GET", f"/studies/{STUDY}/summary", ok(summary))
    await bot.command(f"summary {STUDY}")
    shown = json.dumps(await bot.reply_containing("Summary of"), ensure_ascii=False)
    assert "Old text" in shown and "; it may predate the latest run. Refresh to include every finished run." in shown
    assert "after the latest run finished" not in shown


async def share_on_at_once(bot: BotHarness) -> None:
    """This channel lets `share on` run at once (by default it needs an approver: tests/e2e/test_spend_consent.py),
    so these tests see the requester's own confirmation."""
    policy = ChannelPolicy(team_id=TEAM, channel_id=CHANNEL, action="share_on", mode=PolicyMode.NOW, set_by=USER)
    await bot.store.set_channel_policy(policy)


def sharing(*, public: bool, link: bool, url: str | None) -> Any:
    return ok({"isPublic": public, "isLinkSharingEnabled": link, "publicShareId": "abc", "sharedStudyUrl": url})


async def test_share_on_needs_the_requesters_confirmation_then_shows_the_link_unchanged(bot: BotHarness) -> None:
    url = "https://getminds.ai/share/abc?ref=Slack&x=1"
    bot.minds_api.on("GET", f"/studies/{STUDY}", detail())
    bot.minds_api.on("PUT", f"/studies/{STUDY}/sharing", sharing(public=False, link=True, url=url))
    await share_on_at_once(bot)
    await bot.command(f"share {STUDY} on")
    prompt = await bot.reply_containing("Turn on")
    button = buttons(prompt)["share_on_confirmed"]
    assert button["confirm"]["title"]["text"] == "Turn on public link?"
    assert "Parents" in button["confirm"]["text"]["text"]
    assert bot.minds_api.to("PUT", f"/studies/{STUDY}/sharing") == []

    await bot.click("share_on_confirmed", button["value"], user="U0002", ephemeral=True)
    assert "Only the person who asked" in (await bot.reply())["text"]
    assert bot.minds_api.to("PUT", f"/studies/{STUDY}/sharing") == []

    await bot.click("share_on_confirmed", button["value"], ephemeral=True)
    shown = await bot.reply_containing("public link")
    assert url.replace("&", "&amp;") in shown["text"]  # mrkdwn spells & as &amp;: Slack shows and links the URL as is
    assert bot.minds_api.to("PUT", f"/studies/{STUDY}/sharing")[0].json() == {"isLinkSharingEnabled": True}


async def test_share_shows_no_link_when_minds_reports_the_study_private(bot: BotHarness) -> None:
    bot.minds_api.on("GET", f"/studies/{STUDY}", detail())
    bot.minds_api.on(
        "PUT", f"/studies/{STUDY}/sharing", sharing(public=False, link=False, url="https://getminds.ai/s/old")
    )
    await share_on_at_once(bot)
    await bot.command(f"share {STUDY} on")
    button = buttons(await bot.reply_containing("Turn on"))["share_on_confirmed"]
    await bot.click("share_on_confirmed", button["value"], ephemeral=True)
    answer = await bot.reply_containing("private")
    assert "https://" not in answer["text"]


async def test_share_off_acts_without_confirmation(bot: BotHarness) -> None:
    bot.minds_api.on("GET", f"/studies/{STUDY}", detail(shared=True))
    bot.minds_api.on("PUT", f"/studies/{STUDY}/sharing", sharing(public=False, link=False, url=None))
    await bot.command(f"share {STUDY} off")
    assert "is off" in (await bot.reply_containing("public link"))["text"]
    assert bot.minds_api.to("PUT", f"/studies/{STUDY}/sharing")[0].json() == {"isLinkSharingEnabled": False}


async def test_duplicate_409_explains_the_run_in_progress(bot: BotHarness) -> None:
    bot.minds_api.on("GET", f"/studies/{STUDY}", detail())
    bot.minds_api.on("POST", f"/studies/{STUDY}/duplicate", envelope(409, code="STUDY_RUN_IN_PROGRESS"))
    await bot.command(f"duplicate {STUDY}")
    assert "run in progress" in (await bot.reply_containing("run in progress"))["text"]


async def test_duplicate_reuses_the_key_for_the_same_delivery_and_shows_the_copy(bot: BotHarness) -> None:
    copy = {**samples.study(7, "Launch positioning (copy)")}
    bot.minds_api.on("GET", f"/studies/{STUDY}", detail())
    bot.minds_api.on(
        "POST",
        f"/studies/{STUDY}/duplicate",
        raw({"data": copy, "workspaceUrl": "https://getminds.ai/w/7?a=1"}, status=201),
    )
    await bot.command(f"duplicate {STUDY}", trigger="same.trigger")
    answer = await bot.reply_containing("Duplicated")
    assert "Launch positioning (copy)" in answer["text"]
    assert "https://getminds.ai/w/7?a=1" in json.dumps(blocks_of(answer))
    await bot.command(f"duplicate {STUDY}", trigger="same.trigger")
    await bot.reply_containing("Duplicated")
    await bot.command(f"duplicate {STUDY}", trigger="other.trigger")  # typed again: asked, not sent
    question = await bot.reply_containing("Make a second copy")
    assert len(bot.minds_api.to("POST", f"/studies/{STUDY}/duplicate")) == 2
    again = buttons(question)["duplicate_again"]
    await bot.click("duplicate_again", again["value"], ephemeral=True)
    await bot.reply_containing("Duplicated")
    keys = [s.headers["idempotency-key"] for s in bot.minds_api.to("POST", f"/studies/{STUDY}/duplicate")]
    assert keys[0] == keys[1] != keys[2]


LIMITS = {
    "perAudienceCap": 40,
    "modes": [{"mode": "balanced", "automaticSizingCeiling": 24, "explicitCountCeiling": 40}],
}


async def test_audience_from_a_brief_is_followed_in_a_thread_until_it_is_ready(bot: BotHarness) -> None:
    job = {"jobId": "job-1", "status": "queued", "progress": 0}
    done = {
        **job,
        "status": "completed",
        "progress": 100,
        "result": {"id": samples.uid(9), "name": "Berlin cyclists", "mindCount": 24, "minds": []},
    }
    bot.minds_api.on("GET", "/audiences/limits", ok(LIMITS))
    bot.minds_api.on("POST", "/audiences/from-brief", ok(job, status=202))
    bot.minds_api.on(
        "GET", "/audiences/from-brief/jobs/job-1", ok({**job, "status": "processing", "progress": 40}), ok(done)
    )
    await bot.command("audience new Urban cyclists in Berlin who commute daily")
    followed = await bot.tracker.next_tracked(RunKind.AUDIENCE)
    request, progress = bot.slack.calls_to("chat.postMessage")[:2]
    assert "Urban cyclists in Berlin who commute daily" in json.dumps(blocks_of(request))
    assert progress["thread_ts"] == followed.thread_ts
    assert "queued" in progress["text"] and "up to 40 Minds" in json.dumps(blocks_of(progress))
    await bot.tick(3)
    edits = [c["text"] for c in bot.slack.calls_to("chat.update")]
    assert "processing (40%)" in edits[0]
    assert "Berlin cyclists" in edits[-1] and "24 Minds" in edits[-1]
    sent = bot.minds_api.to("POST", "/audiences/from-brief")
    assert len(sent) == 1 and sent[0].json()["text"] == "Urban cyclists in Berlin who commute daily"
    assert sent[0].headers["idempotency-key"]


async def test_a_failed_audience_job_gives_minds_reason_in_its_thread(bot: BotHarness) -> None:
    job = {"jobId": "job-2", "status": "queued"}
    bot.minds_api.on("GET", "/audiences/limits", ok(LIMITS))
    bot.minds_api.on("POST", "/audiences/from-brief", ok(job, status=202))
    bot.minds_api.on(
        "GET", "/audiences/from-brief/jobs/job-2", ok({**job, "status": "failed", "error": "brief too vague"})
    )
    await bot.command("audience new people")
    await bot.tracker.next_tracked(RunKind.AUDIENCE)
    await bot.tick(2)
    (failed,) = [c["text"] for c in bot.slack.calls_to("chat.update")]
    assert "could not build the Audience" in failed and "brief too vague" in failed


async def test_a_locked_workspace_is_told_before_anything_is_built(bot: BotHarness) -> None:
    bot.minds_api.on("GET", "/audiences/limits", ok({**LIMITS, "perAudienceCap": 0}))
    await bot.command("audience new Urban cyclists in Berlin")
    answer = await bot.reply_containing("cannot create Audiences")
    assert "Nothing was created" in answer["text"]
    assert bot.minds_api.to("POST", "/audiences/from-brief") == []
