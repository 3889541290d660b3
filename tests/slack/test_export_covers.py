"""Issue 34, rows 6 and 11 (and ``/minds plan``, which reads a Study name and free text as ``ask`` does),
through the real Bolt app over fake Minds and Slack, and the exact words of the reply that says what an export
covers (in English and German).

Row 6: ``force`` is a word the export grammar knows and is sent to Minds as ``force: true``; the attached file's
comment says when Minds generated it and whether it covers the Study's latest run (``render.exports.export_covers``;
end to end with the sandbox's cache in tests/e2e/test_export_files.py). Row 11: a word the grammar does not know
is refused with the command's usage, and an unquoted name that is no Study's exact name is never matched loosely —
nothing reaches Minds."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest

from minds_bot.i18n import speaking
from minds_bot.minds import AgentRun
from minds_bot.render.common import slack_date
from minds_bot.render.exports import export_covers
from minds_bot.store import RunKind
from tests.fakes.bot import BotHarness, bot_harness, buttons
from tests.fakes.minds_http import ok, raw
from tests.slack import samples

STUDY = samples.STUDY_ID
EXPORT = f"/studies/{STUDY}/export"
QUEUED = {"kind": "full_report", "format": "pdf", "jobId": "job-1", "status": "queued"}
GENERATED = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
FORCE = f"/minds export {STUDY} pdf report force"
USAGE = (
    'Say `/minds export "<study>" [pdf|md|docx|pptx|csv|xls|sav] [brief|report|raw] [short|standard|detailed] '
    "[original] [force]` (a Study name with spaces in quotes, or its id; `force` makes a new file)."
)


@pytest.fixture
async def bot() -> AsyncIterator[BotHarness]:
    async with bot_harness() as harness:
        launch = {**samples.study(1, "Launch positioning"), "id": STUDY}
        page = {"data": [launch], "pagination": {"total": 1, "limit": 100, "offset": 0}}
        harness.minds_api.on("GET", "/studies", raw(page))
        harness.minds_api.on("GET", f"/studies/{STUDY}", ok(samples.study_detail()))
        yield harness


# ---- row 11: the grammar and the lookup


async def test_export_pdf_force_sends_force_for_a_pdf_of_the_quoted_study(bot: BotHarness) -> None:
    bot.minds_api.on("POST", EXPORT, ok(QUEUED))
    await bot.command('export "Launch positioning" pdf force')
    await bot.tracker.next_tracked(RunKind.EXPORT)
    (sent,) = bot.minds_api.to("POST", EXPORT)
    assert json.loads(sent.body) == {"kind": "full_report", "format": "pdf", "force": True}


async def test_export_again_after_force_forces_again(bot: BotHarness) -> None:
    bot.minds_api.on("POST", EXPORT, ok(QUEUED), ok({**QUEUED, "jobId": "job-2"}))
    bot.minds_api.on("GET", f"/studies/{STUDY}/export-status", ok({"status": "processing", "progress": 10}))
    await bot.command('export "Launch positioning" pdf force')
    await bot.tracker.next_tracked(RunKind.EXPORT)
    await bot.command('export "Launch positioning" pdf force')
    again = buttons(await bot.reply_containing("Start another export?"))["export_again"]
    await bot.click("export_again", again["value"], ephemeral=True)
    await bot.tracker.next_tracked(RunKind.EXPORT)
    assert [json.loads(s.body) for s in bot.minds_api.to("POST", EXPORT)] == [
        {"kind": "full_report", "format": "pdf", "force": True}
    ] * 2


@pytest.mark.parametrize(
    ("typed", "word"),
    [
        ("export Launch positioning pdf please", "please"),
        ('export "Launch positioning" pdf forcefully', "forcefully"),
    ],
)
async def test_a_word_the_grammar_does_not_know_is_refused_with_the_usage(
    bot: BotHarness, typed: str, word: str
) -> None:
    await bot.command(typed)
    said = await bot.refusal()
    assert said == f"I don't know `{word}` in `/minds export`. {USAGE}".replace("<", "&lt;").replace(">", "&gt;")
    assert bot.minds_api.sent == [], "nothing reached Minds"


async def test_an_unquoted_name_with_extra_words_is_refused_and_nothing_is_sent(bot: BotHarness) -> None:
    """Before: "Launch positioning now" matched "Launch positioning" loosely and a Markdown report was attached."""
    await bot.command("export Launch positioning now")
    answer = await bot.reply_containing("nothing was sent")
    assert answer["response_type"] == "ephemeral"
    assert answer["text"] == (
        "No Study is named exactly “Launch positioning now”, so nothing was sent. Put a Study name with spaces in "
        "quotes (or use its id), so the words after it are exactly what is sent. Closest: “Launch positioning”."
    )
    (usage,) = [e["text"] for b in answer["blocks"] if b["type"] == "context" for e in b["elements"]]
    assert usage == USAGE.replace("<", "&lt;").replace(">", "&gt;")
    assert not [k for k in buttons(answer) if k.startswith("minds_rerun")]
    assert [(s.method, s.path) for s in bot.minds_api.sent] == [("GET", "/studies")], "only the lookup"
    assert bot.tracker.tracked.empty()


async def test_an_unquoted_plan_request_is_not_cut_from_a_longer_name(bot: BotHarness) -> None:
    """The same rule for ``/minds plan``: "Launch" is no Study's exact name, so "positioning Test three…" never
    becomes the request Minds plans."""
    await bot.command("plan Launch positioning Test three taglines with Gen Z")
    answer = await bot.reply_containing("nothing was sent")
    assert answer["text"].startswith("No Study is named exactly “Launch”, so nothing was sent.")
    (usage,) = [e["text"] for b in answer["blocks"] if b["type"] == "context" for e in b["elements"]]
    example = '`/minds plan "Launch positioning" Test three taglines with Gen Z`'
    assert usage == f'Say `/minds plan "&lt;study&gt;" &lt;request&gt;`, e.g. {example}'
    assert [(s.method, s.path) for s in bot.minds_api.sent] == [("GET", "/studies")], "only the lookup"
    assert bot.slack.calls_to("chat.postMessage") == []


async def test_an_unquoted_exact_name_is_exported(bot: BotHarness) -> None:
    bot.minds_api.on("POST", EXPORT, ok(QUEUED))
    await bot.command("export launch positioning pdf")
    await bot.tracker.next_tracked(RunKind.EXPORT)
    assert json.loads(bot.minds_api.to("POST", EXPORT)[0].body) == {"kind": "full_report", "format": "pdf"}


# ---- row 6: the words that say what the file covers


def run(ended: datetime | None, *, status: str = "completed", n: int = 1) -> AgentRun:
    return AgentRun.model_validate(
        {"runId": samples.uid(900 + n), "status": status, "completedAt": ended.isoformat() if ended else None}
    )


def covers(runs: list[AgentRun] | None, generated: datetime | None = GENERATED) -> str:
    return export_covers(generated_at=generated, runs=runs, force_command=FORCE)


def test_a_file_older_than_the_latest_runs_says_how_many_it_leaves_out() -> None:
    later = [run(GENERATED + timedelta(hours=h), n=h) for h in (1, 2, 3, 4)]
    earlier = run(GENERATED - timedelta(days=1), n=9)
    latest = slack_date(GENERATED + timedelta(hours=4))
    assert covers([*reversed(later), earlier]) == (
        f":warning: Generated {slack_date(GENERATED)}, before the latest run ended ({latest}): 4 runs ended after "
        f"this file was generated and are not in it. `{FORCE}` makes a new one."
    )
    with speaking("de"):
        assert covers([*reversed(later), earlier]) == (
            f":warning: Erstellt {slack_date(GENERATED)}, vor dem Ende des letzten Durchlaufs ({latest}): 4 "
            f"Durchläufe endeten danach und sind nicht in dieser Datei. `{FORCE}` erstellt eine neue."
        )


def test_a_file_generated_after_the_latest_run_covers_every_run() -> None:
    ended = GENERATED - timedelta(minutes=5)
    expected = (
        f"Generated {slack_date(GENERATED)}, after the latest run ended ({slack_date(ended)}): it covers every run."
    )
    assert covers([run(ended), run(ended - timedelta(days=2), n=2)]) == expected
    with speaking("de"):
        assert covers([run(ended)]) == (
            f"Erstellt {slack_date(GENERATED)}, nach dem Ende des letzten Durchlaufs ({slack_date(ended)}): "
            "Die Datei enthält jeden Durchlauf."
        )


def test_what_minds_did_not_say_is_not_claimed() -> None:
    assert covers([run(GENERATED)], generated=None) == (
        "Minds did not say when this file was generated, so whether it covers the latest run is not known. "
        f"`{FORCE}` makes a new one."
    )
    assert covers(None) == (
        f"Generated {slack_date(GENERATED)}. Whether it covers the latest run is not known: Minds did not list the "
        f"Study's runs. `{FORCE}` makes a new one."
    )
    assert covers([run(None)]) == (
        f"Generated {slack_date(GENERATED)}. Minds did not say when every run ended, so whether this file covers "
        f"the latest run is not known. `{FORCE}` makes a new one."
    )
    assert covers([run(None, status="running")]) == (
        f"Generated {slack_date(GENERATED)}, after every finished run; 1 run still in progress is not in it."
    )
    assert covers([]) == f"Generated {slack_date(GENERATED)}; the Study has no runs yet."
    with speaking("de"):
        assert covers([run(GENERATED)], generated=None) == (
            "Minds hat nicht gesagt, wann diese Datei erstellt wurde; ob sie den letzten Durchlauf enthält, ist "
            f"daher nicht bekannt. `{FORCE}` erstellt eine neue."
        )
