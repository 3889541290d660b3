"""An approved run followed through the real tracker with a controlled clock: progress edited only on change,
one terminal result with charts, the consistency note when it arrives later, and the report attached."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from minds_bot.flows.tracking import MAX_NOT_FOUND_READS
from minds_bot.store import ExportState, RunKind
from tests.fakes.bot import CHANNEL, TEAM, BotHarness, bot_harness
from tests.fakes.minds_http import envelope, ok
from tests.fakes.slack_web import FakeSlack
from tests.slack.plan_samples import run_data, study_data
from tests.slack.test_plan_listeners import PREVIEW, REQUESTER, RUNS, STUDY_ID, _button, open_plan

RUN = f"{RUNS}/run-1"
EXPORT = f"/studies/{STUDY_ID}/export"
REPORT = b"# Reusable cups\n\nThe full report.\n"


def running(settled: int) -> httpx.Response:
    return ok(
        {"runId": "run-1", "status": "running", "progress": {"total": 3, "settled": settled, "pct": settled * 33}}
    )


def download(request: httpx.Request) -> httpx.Response:
    assert "authorization" not in request.headers  # the signed URL never gets the Minds key
    return httpx.Response(200, content=REPORT, headers={"content-type": "text/markdown"})


@pytest.fixture
async def bot() -> AsyncIterator[BotHarness]:
    async with bot_harness(unique_ts=True, user=REQUESTER, download=download) as harness:
        harness.minds_api.on("GET", f"/studies/{STUDY_ID}", ok(study_data()))
        yield harness


async def approved(bot: BotHarness) -> str:
    ts, blocks = await open_plan(bot, confirmationQuestions=[])
    bot.minds_api.on("POST", RUNS, ok({"runId": "run-1", "status": "queued"}))
    approve = _button(blocks, "Approve & run")
    await bot.click(message_ts=ts, blocks=blocks, action_id=approve["action_id"], value=approve["value"])
    await bot.tracker.next_tracked(RunKind.RESEARCH)
    return ts


def thread_texts(slack: FakeSlack, ts: str) -> list[str]:
    return [c.get("text", "") for c in slack.calls_to("chat.postMessage") if c.get("thread_ts") == ts]


NOTHING_CACHED = {"status": "idle", "progress": 0}


def _export_routes(bot: BotHarness, *statuses: dict[str, Any], cached: dict[str, Any] | None = None) -> None:
    """``cached``: what Minds reports for the Study's cached report, read before a run's report is asked for
    (None: a person's export, which reads nothing first)."""
    bot.minds_api.on("POST", EXPORT, ok({"kind": "full_report", "format": "md", "jobId": "job-1", "status": "queued"}))
    first = [ok(cached)] if cached is not None else []
    bot.minds_api.on("GET", f"/studies/{STUDY_ID}/export-status", *first, *[ok(s) for s in statuses])
    bot.minds_api.on(
        "GET",
        f"/studies/{STUDY_ID}/export-download",
        httpx.Response(302, headers={"location": "https://files.test/signed/report.md"}),
    )


async def test_progress_is_edited_on_change_only_and_the_result_and_report_arrive_once(bot: BotHarness) -> None:
    ts = await approved(bot)
    completed = run_data("completed")
    bot.minds_api.on(
        "GET",
        RUN,
        ok({"runId": "run-1", "status": "queued", "progress": {"total": 3, "settled": 0}}),
        running(1),
        running(1),
        running(2),
        running(2),
        ok(completed),
    )
    _export_routes(
        bot,
        {"status": "processing", "progress": 40},
        {"status": "completed", "progress": 100, "filename": "cups-report.md", "mimeType": "text/markdown"},
        cached=NOTHING_CACHED,
    )
    downloaded: list[Path] = []
    client = await bot.services.minds.client_for(TEAM)  # the workspace's cached client the tracker uses
    original = client.download_export

    async def capture(*args: Any, **kwargs: Any) -> Any:
        file = await original(*args, **kwargs)
        downloaded.append(Path(file.path))
        return file

    client.download_export = capture  # type: ignore[method-assign]

    await bot.tick(6)
    progress_posts = [t for t in thread_texts(bot.slack, ts) if "Queued" in t]
    progress_edits = [c["text"] for c in bot.slack.calls_to("chat.update") if "questions settled" in c.get("text", "")]
    assert len(progress_posts) == 1
    assert progress_edits == [
        ":arrows_counterclockwise: Running: 1 of 3 questions settled.",
        ":arrows_counterclockwise: Running: 2 of 3 questions settled.",
        ":white_check_mark: Completed: 3 of 3 questions settled.",
    ]
    results = [t for t in thread_texts(bot.slack, ts) if t.startswith(":white_check_mark: Completed")]
    assert len(results) == 1
    charts = [
        c
        for c in bot.slack.calls_to("files.completeUploadExternal")
        if "% of respondents per option" in c.get("initial_comment", "")
    ]
    assert len(charts) == 1 and charts[0]["thread_ts"] == ts
    assert len(bot.minds_api.to("POST", EXPORT)) == 1
    assert json.loads(bot.minds_api.to("POST", EXPORT)[0].body) == {"kind": "full_report", "format": "md"}

    bot.minds_api.set(
        "GET",
        RUN,
        ok(
            {
                **completed,
                "answerConsistency": {"status": "checked", "checkedMinds": 5, "flaggedMinds": 1, "flagCount": 1},
            }
        ),
    )
    await bot.tick(4)
    uploads = bot.slack.calls_to("files.completeUploadExternal")
    report = [c for c in uploads if "% of respondents per option" not in str(c)]
    assert len(report) == 1 and report[0]["thread_ts"] == ts
    said = bot.slack.calls_to("chat.postMessage") + bot.slack.calls_to("chat.update")
    announced = [c.get("text", "") for c in said if c.get("thread_ts") in (ts, None)]
    announced += [c.get("initial_comment") or "" for c in report]
    assert [t for t in announced if "cups-report.md" in t or "attached" in t] == [
        ":paperclip: The full report (md) is attached: cups-report.md\n"
        "Study report, all runs. Minds did not say when it was generated."  # the fake gives no generatedAt
    ], "one announcement in the thread, saying what it covers, then the file"
    assert REPORT in bot.slack.uploads.values()
    assert downloaded and not downloaded[0].exists()  # the temporary file is gone
    record = await bot.store.get_export(team_id=TEAM, job_id="job-1")
    assert record is not None and record.state == ExportState.DELIVERED and record.file_name == "cups-report.md"
    consistency = [t for t in thread_texts(bot.slack, ts) if "Answer consistency" in t]
    assert len(consistency) == 1 and "not proof of error" in consistency[0]
    assert await bot.store.unfinished_runs() == []
    posts_before = len(bot.slack.calls_to("chat.postMessage"))
    await bot.tick(5)
    assert len(bot.slack.calls_to("chat.postMessage")) == posts_before  # nothing is posted twice


async def test_plan_limited_mid_run_keeps_results_and_still_attaches_the_report(bot: BotHarness) -> None:
    ts = await approved(bot)
    bot.minds_api.on("GET", RUN, ok(run_data("plan_limited", completedQuestions=1)))
    _export_routes(bot, {"status": "completed", "filename": "cups-report.md"}, cached=NOTHING_CACHED)
    await bot.tick(3)
    (result,) = [t for t in thread_texts(bot.slack, ts) if "plan limit" in t]
    assert "1 of 3 questions completed" in result and "upgrade is needed" in result
    assert "Completed:" not in result
    assert [r.kind for r in await bot.store.unfinished_runs()] == []  # no consistency wait for plan_limited


@pytest.mark.parametrize(
    ("generated_at", "body"),
    [
        ("2026-01-01T23:59:00Z", {"kind": "full_report", "format": "md", "force": True}),  # before the run ended
        (None, {"kind": "full_report", "format": "md", "force": True}),  # its age unknown
        ("2026-01-02T00:01:00Z", {"kind": "full_report", "format": "md"}),  # already includes the run
    ],
)
async def test_the_report_after_a_run_is_forced_when_the_cached_one_may_predate_it(
    bot: BotHarness, generated_at: str | None, body: dict[str, Any]
) -> None:
    ts = await approved(bot)
    bot.minds_api.on("GET", RUN, ok(run_data("completed", completedAt="2026-01-02T00:00:00Z")))
    cached = {"status": "completed", "progress": 100, "filename": "old.md", "generatedAt": generated_at}
    done = {"status": "completed", "filename": "cups-report.md", "generatedAt": "2026-01-02T00:02:00Z"}
    _export_routes(bot, done, cached=cached)
    await bot.tick(3)
    await bot.services.followups.settled()
    assert [json.loads(sent.body) for sent in bot.minds_api.to("POST", EXPORT)] == [body]
    assert ts


async def test_a_failed_export_is_said_plainly(bot: BotHarness) -> None:
    bot.minds_api.on("POST", EXPORT, ok({"kind": "full_report", "format": "pdf", "jobId": "job-9", "status": "queued"}))
    bot.minds_api.on(
        "GET",
        f"/studies/{STUDY_ID}/export-status",
        ok({"status": "failed", "errorCode": "EXPORT_FAILED", "error": "renderer crashed"}),
    )
    await bot.command(f"export {STUDY_ID} pdf report")
    await bot.tracker.next_tracked(RunKind.EXPORT)
    (announced,) = bot.slack.calls_to("chat.postMessage")
    assert announced["text"].startswith(
        ":page_facing_up: Export of Reusable cups: full report (pdf) requested by <@UREQ>"
    )
    await bot.tick()
    (failed,) = [c for c in bot.slack.calls_to("chat.update") if "failed" in c.get("text", "")]
    assert (
        failed["text"]
        == ":x: The full report (pdf) export failed (EXPORT_FAILED): renderer crashed. Nothing was attached."
    )
    record = await bot.store.get_export(team_id=TEAM, job_id="job-9")
    assert record is not None and record.state == ExportState.FAILED
    assert len(bot.minds_api.to("POST", EXPORT)) == 1  # a failed export is reported, never re-submitted


async def test_an_export_minds_no_longer_finds_stops_being_followed_with_a_note_in_the_thread(bot: BotHarness) -> None:
    bot.minds_api.on("POST", EXPORT, ok({"kind": "full_report", "format": "pdf", "jobId": "job-7", "status": "queued"}))
    bot.minds_api.on("GET", f"/studies/{STUDY_ID}/export-status", envelope(404, message="Export job not found"))
    await bot.command(f"export {STUDY_ID} pdf report")
    await bot.tracker.next_tracked(RunKind.EXPORT)
    await bot.tick(MAX_NOT_FOUND_READS + 3)
    (lost,) = [c for c in bot.slack.calls_to("chat.update") if "no longer finds" in c.get("text", "")]
    assert lost["text"].startswith(":grey_question: Minds no longer finds this full_report export (pdf)")
    assert "stopped following it" in lost["text"]
    assert len(bot.minds_api.to("GET", f"/studies/{STUDY_ID}/export-status")) == MAX_NOT_FOUND_READS
    assert len(bot.minds_api.to("POST", EXPORT)) == 1
    record = await bot.store.get_export(team_id=TEAM, job_id="job-7")
    assert record is not None and record.state == ExportState.FAILED
    assert await bot.store.unfinished_runs() == []


async def test_a_research_run_minds_no_longer_finds_is_said_once_in_the_thread(bot: BotHarness) -> None:
    ts = await approved(bot)
    bot.minds_api.on("GET", f"{RUNS}/run-1", envelope(404, message="Research run not found"))
    await bot.tick(MAX_NOT_FOUND_READS + 3)
    lost = [t for t in thread_texts(bot.slack, ts) if "no longer finds this research run" in t]
    assert len(lost) == 1
    assert len(bot.minds_api.to("GET", f"{RUNS}/run-1")) == MAX_NOT_FOUND_READS
    assert len(bot.minds_api.to("POST", RUNS)) == 1, "a lost run is never started again"


async def test_the_study_card_export_button_attaches_the_file_in_a_thread(bot: BotHarness) -> None:
    _export_routes(bot, {"status": "completed", "filename": "cups-report.md"})
    await bot.click(message_ts="1733140000.000001", blocks=[], action_id="study_export", value=STUDY_ID)
    run = await bot.tracker.next_tracked(RunKind.EXPORT)
    await bot.tick()
    (complete,) = bot.slack.calls_to("files.completeUploadExternal")
    assert complete["thread_ts"] == run.thread_ts and complete["channel_id"] == CHANNEL
    assert REPORT in bot.slack.uploads.values()


async def test_runs_lists_recent_runs_with_their_states(bot: BotHarness) -> None:
    bot.minds_api.on(
        "GET",
        f"/studies/{STUDY_ID}/runs",
        ok([{"runId": "r2", "status": "running"}, {"runId": "r1", "status": "failed"}]),
    )
    await bot.command(f"runs {STUDY_ID}")
    answer = await bot.slack.responses.get()
    shown = json.dumps(answer["blocks"], ensure_ascii=False)
    assert "1. date unknown · first question unknown · n unknown · running" in shown  # what Minds did not say
    assert "r2" not in shown.replace("Recent runs", "")  # never an id


async def test_a_plan_preview_refusal_is_said_and_not_retried(bot: BotHarness) -> None:
    bot.minds_api.on("POST", PREVIEW, envelope(400, message="request text is empty"))
    await bot.command(f"plan {STUDY_ID} ?")
    run = await bot.tracker.next_tracked(RunKind.PLAN)
    await bot.tick(3)
    (failed,) = [c for c in bot.slack.calls_to("chat.update") if c["ts"] == run.thread_ts]
    assert (
        "Minds could not prepare the plan for Reusable cups: Minds rejected the request: request text is empty"
        in failed["text"]
    )
    assert len(bot.minds_api.to("POST", PREVIEW)) == 1


async def test_a_research_run_is_cancelled_from_its_progress_message_with_what_had_finished(bot: BotHarness) -> None:
    ts = await approved(bot)
    bot.minds_api.on("GET", RUN, running(1), ok(run_data("cancelled", progress={"total": 3, "settled": 1})))
    await bot.tick()
    progress = bot.slack.calls_to("chat.postMessage")[-1]
    assert progress["thread_ts"] == ts and "run_cancel" in json.dumps(progress.get("blocks"))

    bot.minds_api.on("POST", "/runs/run-1/cancel", ok({"runId": "run-1", "status": "cancelled"}))
    await bot.click("run_cancel", "run-1", user="USOMEONE", ephemeral=False)
    assert "Only <@UREQ>" in await bot.refusal()
    await bot.click("run_cancel", "run-1", ephemeral=False)  # the requester
    assert "accepted" in (await bot.reply())["text"]
    await bot.tracker.tick()
    (result,) = [t for t in thread_texts(bot.slack, ts) if "Cancelled" in t]
    assert result.startswith(":heavy_multiplication_x: Cancelled: 1 of 3 questions had settled")


async def test_the_plan_message_closes_once_with_the_outcome_even_when_slack_refuses_the_reaction(
    bot: BotHarness,
) -> None:
    ts = await approved(bot)
    post = await bot.store.get_plan_post(team_id=TEAM, channel_id=CHANNEL, message_ts=ts)
    assert post is not None and post.frozen_blocks, "the plan's blocks are kept: a restarted bot can close it"
    bot.slack.replies["reactions.add"] = {"ok": False, "error": "already_reacted"}
    bot.minds_api.on("GET", RUN, ok(run_data("completed")))
    _export_routes(bot, {"status": "completed", "filename": "cups-report.md"}, cached=NOTHING_CACHED)
    await bot.tick(4)
    closed = [c["text"] for c in bot.slack.calls_to("chat.update") if c.get("ts") == ts and "Approved by" in c["text"]]
    assert (
        closed[-1] == f":white_check_mark: Completed — results in the thread. Approved by <@{REQUESTER}> (revision 1)."
    )
    assert sum("Completed —" in t for t in closed) == 1, "one edit for the change, not one per poll"
    (reaction,) = bot.slack.calls_to("reactions.add")
    assert reaction["timestamp"] == ts and reaction["name"] == "white_check_mark"
    assert [t for t in thread_texts(bot.slack, ts) if t.startswith(":white_check_mark: Completed:")]
    unfinished = await bot.store.unfinished_runs()
    assert all(r.kind != RunKind.RESEARCH for r in unfinished), "the result stands: the run is not posted again"
