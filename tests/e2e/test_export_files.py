"""The files a person gets look like files: after a run, ``/minds export … pdf`` and ``… docx`` attach documents
whose results are real tables (no Markdown printed), with the same shares per Audience as the thread says —
the real bot, the Slack emulator and the sandbox."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from datetime import datetime
from pathlib import Path

import httpx
import pytest

from minds_bot.render.common import slack_date
from minds_sandbox_tests.files import MARKDOWN_LEFT, read_docx, read_pdf
from slack_emulator.state import Message
from tests.e2e.desk import Desk, open_desk, shown

LAUNCH = "Launch positioning"
# A questionnaire with a choice, an ordered list and a scale, so the report has every kind of table.
REQUEST = (
    f'plan "{LAUNCH}" Wave one\n1. Would you buy running shoes made from recycled material?\n'
    "2. How often do you buy new sneakers? (Never / Rarely / Sometimes / Often / Always)\n"
    "3. Rate the look of our recycled running shoe from 1 to 5"
)


@pytest.fixture
async def desk(tmp_path: Path) -> AsyncIterator[Desk]:
    async with open_desk(tmp_path) as opened:
        yield opened


async def ran(desk: Desk) -> Message:
    plan = await desk.answered_plan(desk.ben, REQUEST)
    await desk.emu.click_button(user=desk.ada, action_id="plan_approve", channel=desk.research, ts=plan.ts)
    await desk.wait(lambda: "Completed:" in thread(desk, plan) and "report" in thread(desk, plan))
    return plan


def thread(desk: Desk, plan: Message) -> str:
    return "\n".join(shown(m) for m in desk.emu.state.replies(desk.research, plan.ts))


def read_in_thread(desk: Desk, plan: Message) -> str:
    """The words of the thread's messages and their sections, as a person reads them."""
    replies = desk.emu.state.replies(desk.research, plan.ts)
    blocks = [str((b.get("text") or {}).get("text", "")) for m in replies for b in m.blocks]
    return "\n".join([m.text for m in replies] + blocks)


# "Gen Z sneaker buyers in Germany (% of respondents · several answers allowed · n=11): Quality 45% · Price 18%"
SHARES_LINE = re.compile(
    r"^(?P<name>[^\n(]+?) \(% of respondents(?: · several answers allowed)? · n=(?P<n>\d+)\): (?P<shares>.+)$",
    re.MULTILINE,
)
SCALE_LINE = re.compile(
    r"^(?P<name>[^\n(]+?) \(n=(?P<n>\d+)\): mean (?P<mean>[\d.]+) on \d+–\d+ · top-2-box (?P<top>\d+%)$", re.MULTILINE
)


QUESTION = re.compile(r"^\*Q\d+\. (?P<title>.+)\*$", re.MULTILINE)


def thread_results(text: str) -> tuple[list[str], list[dict[str, dict[str, str]]], list[dict[str, tuple[str, str]]]]:
    """What the thread says per question: its titles; per charted question "{Audience} (n={n})" -> option ->
    "45%"; per scale question "{Audience} (n={n})" -> (mean, top-2-box)."""
    titles, shares, scales = [], [], []
    for block in re.split(r"\n(?=\*Q\d+\. )", text):
        titles += [m["title"] for m in QUESTION.finditer(block)]
        said = {
            f"{m['name']} (n={m['n']})": dict(part.rsplit(" ", 1) for part in m["shares"].split(" · "))
            for m in SHARES_LINE.finditer(block)
        }
        shares += [said] if said else []
        stats = {f"{m['name']} (n={m['n']})": (m["mean"], m["top"]) for m in SCALE_LINE.finditer(block)}
        scales += [stats] if stats else []
    return titles, shares, scales


def as_columns(table: list[list[str]]) -> dict[str, dict[str, str]]:
    header, *rows = table
    return {column: {row[0]: row[i] for row in rows} for i, column in enumerate(header) if i}


async def exported(desk: Desk, fmt: str) -> bytes:
    since = await desk.type(desk.ben, f'export "{LAUNCH}" {fmt} report')
    parent = await desk.posted(since, lambda m: f"Export of {LAUNCH}" in m.text and not m.is_reply)
    reply = await desk.posted(since, lambda m: bool(m.files), thread_ts=parent.ts)
    (file_id,) = reply.files
    assert desk.emu.state.files[file_id].name == f"launch-positioning-full-report.{fmt}"
    content = desk.emu.file_content(file_id)
    assert content is not None
    return content


async def test_a_pdf_export_after_a_run_has_real_tables_with_the_threads_shares(desk: Desk) -> None:
    plan = await ran(desk)
    titles, shares, scales = thread_results(read_in_thread(desk, plan))
    assert titles and shares, "the run has results with shares in the thread"
    read = read_pdf(await exported(desk, "pdf"))
    drawn = [as_columns(t) for t in read.tables if t and t[0][0] == "Option"]
    for question in shares:
        assert question in drawn, f"no table in the PDF shows the thread's shares {question}; tables: {drawn}"
    drawn_stats = [
        {
            column: (rows["Mean"], next(v for k, v in rows.items() if k.startswith("Top-2-box")))
            for column, rows in t.items()
        }
        for t in (as_columns(t) for t in read.tables if t and t[0][0] == "Point")
    ]
    for stats in scales:
        assert stats in drawn_stats, f"no scale table in the PDF gives the thread's mean and top-2-box {stats}"
    outline = [title for _level, title in read.outline]
    for title in titles:
        assert any(heading.endswith(f". {title}") for heading in outline), f"no heading for {title}"
    assert not MARKDOWN_LEFT.search(read.text), "no '| Option |', '#' or '**' printed in the PDF"


async def test_a_docx_export_has_heading_styles_and_tables(desk: Desk) -> None:
    read = read_docx(await exported(desk, "docx"))
    assert ("Title", LAUNCH) in read.paragraphs and ("Heading 1", "Results") in read.paragraphs
    assert any(t[0][0] == "Option" and len(t) > 1 for t in read.tables), "results as tables"
    assert any(style == "List Bullet" for style, _text in read.paragraphs), "themes as a list"
    assert not MARKDOWN_LEFT.search("\n".join(text for _style, text in read.paragraphs))


# ---- what an export covers (issue 34, row 6)


def at(moment: str) -> str:
    """A Minds time as the reply shows it: a Slack date each reader sees in their own timezone."""
    return slack_date(datetime.fromisoformat(moment))


async def exported_with_comment(desk: Desk, command: str) -> tuple[bytes, str]:
    """``/minds export …``: the attached file and the words that came with it."""
    since = await desk.type(desk.ben, command)
    parent = await desk.posted(since, lambda m: f"Export of {LAUNCH}" in m.text and not m.is_reply)
    reply = await desk.posted(since, lambda m: bool(m.files), thread_ts=parent.ts)
    (file_id,) = reply.files
    content = desk.emu.file_content(file_id)
    assert content is not None
    return content, reply.text


async def latest_pdf_status(desk: Desk, study: str) -> dict[str, str]:
    status = await desk.minds_api("GET", f"/studies/{study}/export-status?kind=full_report&format=pdf")
    assert status["status"] == "completed"
    return status


async def a_run_in_minds(desk: Desk, study: str) -> dict[str, str]:
    """A standalone question asked in Minds itself (not through the bot) ten minutes after the first export,
    finished: the sandbox's clock is moved on, which brings every run up to it."""
    async with httpx.AsyncClient(base_url=desk.demo.minds_url.split("/api/")[0], timeout=30) as http:
        (await http.post("/_sandbox/advance", json={"seconds": 600})).raise_for_status()  # ten minutes later
        question = {"question": "Which colour fits the shoe best?"}
        receipt = await desk.minds_api("POST", f"/studies/{study}/runs", question)
        (await http.post("/_sandbox/advance", json={"seconds": 3600})).raise_for_status()
    run = await desk.minds_api("GET", f"/runs/{receipt['runId']}")
    assert run["status"] == "completed"
    (latest,) = await desk.minds_api("GET", f"/studies/{study}/runs?limit=1")
    assert latest["runId"] == receipt["runId"], "the newest run Minds lists"
    return latest


async def test_an_export_older_than_the_latest_run_says_so_and_force_makes_a_new_one(desk: Desk) -> None:
    """Row 6: Minds serves its cached file unless asked to ``force``; the reply says when the file was generated
    and whether it covers the latest run, from Minds' own times."""
    study = next(s["id"] for s in await desk.minds_api("GET", "/studies?limit=100") if s["name"] == LAUNCH)
    first, _said = await exported_with_comment(desk, f'export "{LAUNCH}" pdf')
    generated = (await latest_pdf_status(desk, study))["generatedAt"]

    latest = await a_run_in_minds(desk, study)
    assert latest["completedAt"] > generated

    cached, said = await exported_with_comment(desk, f'export "{LAUNCH}" pdf')
    assert cached == first, "Minds served its cached file"
    assert said == (
        ":paperclip: The full report (pdf) is attached: launch-positioning-full-report.pdf\n"
        f":warning: Generated {at(generated)}, before the latest run ended ({at(latest['completedAt'])}): 1 run "
        "ended after this file was generated and is not in it. "
        f"`/minds export {study} pdf report force` makes a new one."
    )

    fresh, said = await exported_with_comment(desk, f'export "{LAUNCH}" pdf force')
    regenerated = (await latest_pdf_status(desk, study))["generatedAt"]
    assert fresh.startswith(b"%PDF") and fresh != first, "a new PDF, not the cached one and not Markdown"
    assert regenerated > latest["completedAt"]
    assert said == (
        ":paperclip: The full report (pdf) is attached: launch-positioning-full-report.pdf\n"
        f"Generated {at(regenerated)}, after the latest run ended ({at(latest['completedAt'])}): it covers every run."
    )


async def test_every_option_asked_is_named_and_honoured_and_original_on_a_pdf_is_said_not_to_apply(desk: Desk) -> None:
    """Issue 37, item 6: the request line names the length, ``force`` and ``original`` asked; Minds' file has the
    length asked; ``original`` on a file that is not a CSV is said, and nothing is exported."""
    since = await desk.type(desk.ben, f'export "{LAUNCH}" md short force')
    parent = await desk.posted(since, lambda m: f"Export of {LAUNCH}" in m.text and not m.is_reply)
    assert "Asked for: length short, a new file, not Minds' cached one (force)." in parent.text
    reply = await desk.posted(since, lambda m: bool(m.files), thread_ts=parent.ts)
    (file_id,) = reply.files
    assert b"_Length: short._" in (desk.emu.file_content(file_id) or b"")

    since = await desk.type(desk.ben, f'export "{LAUNCH}" pdf original')
    said = await desk.private(desk.ben, since, "`original` keeps a CSV file exactly as Minds made it")
    assert "a pdf file is always attached unchanged, so `original` does not apply to it. Nothing was exported." in (
        said.text
    )
    assert [m for m in desk.channel_since(since) if "Export of" in m.text] == [], "nothing was exported"
