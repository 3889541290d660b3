"""Every report file carries the Study's method calculations (Markdown, PDF and DOCX; full report and executive
brief), with n and, when the answers could not support a method, why; the Summary says how many of the report's
questions Minds' summary covers and summarises each later one; a question's label is its number in its run with
the run's start, as the thread labels it."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import httpx
import pytest

from minds_sandbox import RunningSandbox
from minds_sandbox_tests.files import read_docx, read_pdf, table_with
from minds_sandbox_tests.helpers import LAUNCH_STUDY, PRICING_STUDY, confirm, finish_run, planned_revision
from minds_sandbox_tests.test_calculations import LADDER_REQUEST, NO_PRICE_REQUEST

NOT_COMPUTED = (
    "Not computed: None of the 10 respondents named a price in answer to the four price "
    "questions, so there is no price range."
)


async def run_and_export(
    client: httpx.AsyncClient, sandbox: RunningSandbox, study: str, request: str, kind: str, fmt: str
) -> tuple[dict, bytes]:
    revision = await planned_revision(client, study, request)
    run_id = (await confirm(client, study, revision)).json()["data"]["runId"]
    run = await finish_run(client, sandbox, study, run_id)
    job = (await client.post(f"/studies/{study}/export", json={"kind": kind, "format": fmt})).json()["data"]
    sandbox.advance(sandbox.runtime.engine.step)
    redirect = await client.get(f"/studies/{study}/export-download", params={"jobId": job["jobId"]})
    async with httpx.AsyncClient() as anonymous:
        return run, (await anonymous.get(redirect.headers["location"])).content


def _plain(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("kind", ["full_report", "executive_brief"])
@pytest.mark.parametrize("fmt", ["md", "pdf", "docx"])
async def test_every_report_format_says_why_van_westendorp_was_not_computed(
    client: httpx.AsyncClient, sandbox: RunningSandbox, kind: str, fmt: str
) -> None:
    unpriced = {"unpriced_categories": True}  # nobody can name a price of a category the sandbox does not know
    (await client.put(f"{sandbox.origin}/_sandbox/faults", json=unpriced)).raise_for_status()
    _run, content = await run_and_export(client, sandbox, PRICING_STUDY, NO_PRICE_REQUEST, kind, fmt)
    if fmt == "md":
        text = content.decode()
    elif fmt == "pdf":
        text = read_pdf(content).text
    else:
        text = "\n".join(t for _style, t in read_docx(content).paragraphs)
    text = _plain(text)
    assert "Method calculations" in text
    assert re.search(r"Van Westendorp price sensitivity \(run of \d{4}-\d\d-\d\d \d\d:\d\d UTC\)", text)
    assert "n=0 of 10 who answered · Audience: US IT procurement leads" in text
    assert NOT_COMPUTED in text
    assert "Acceptable price range" not in text


async def test_the_full_report_carries_gabor_grangers_tested_prices_as_a_table(
    client: httpx.AsyncClient, sandbox: RunningSandbox
) -> None:
    run, content = await run_and_export(client, sandbox, LAUNCH_STUDY, LADDER_REQUEST, "full_report", "md")
    result = run["calculations"][0]["result"]
    text = content.decode()
    rows = "\n".join(f"| {p['price']} EUR | {p['demandPct']}% |" for p in result["curve"])
    assert f"| Tested price | Would buy |\n| --- | --- |\n{rows}" in text
    assert (
        f"- Revenue-maximising tested price: {result['revenueMaximisingPrice']} EUR ({result['demandPct']}% would "
        "buy at that price)"
    ) in text
    assert (
        "- n=28 · Audiences: Gen Z sneaker buyers in Germany, Korean skincare enthusiasts · computed from the "
        "run's answers" in text
    )
    _run, pdf = await run_and_export(client, sandbox, LAUNCH_STUDY, LADDER_REQUEST, "full_report", "pdf")
    table = table_with(read_pdf(pdf).tables, ["Tested price", "Would buy"])
    assert table[1:] == [[f"{p['price']} EUR", f"{p['demandPct']}%"] for p in result["curve"]]


async def test_the_summary_says_what_it_covers_and_every_later_question_is_summarised_with_its_label(
    client: httpx.AsyncClient, sandbox: RunningSandbox
) -> None:
    run, content = await run_and_export(client, sandbox, LAUNCH_STUDY, LADDER_REQUEST, "executive_brief", "md")
    text = content.decode()
    asked = run["questionCount"]
    created = sandbox.runtime.state.runs[run["runId"]]["createdAt"]
    label = datetime.fromtimestamp(created, UTC).strftime("%Y-%m-%d %H:%M UTC")
    assert f"covers 8 of the {8 + asked} questions in this report._" in text
    assert f"_Answered after the summary was written; each of these {asked} questions in one line:_" in text
    titles = [a["outputData"]["title"] for a in run["artifacts"]]
    for number, title in enumerate(titles, start=1):
        assert f"- **Q{number} (run of {label}).** {title} — " in text  # summarised, with the thread's label
        assert f"### Q{number} (run of {label}). {title}" in text  # and the same label in Results


async def test_a_kind_the_bot_cannot_show_is_in_the_report_as_the_thread_says(
    client: httpx.AsyncClient, sandbox: RunningSandbox
) -> None:
    extra = {"methodId": "conjoint-hb", "status": "completed", "n": 12, "result": {"utilities": [{"a": 1}]}}
    (await client.put(f"{sandbox.origin}/_sandbox/faults", json={"extra_calculations": [extra]})).raise_for_status()
    _run, content = await run_and_export(client, sandbox, PRICING_STUDY, NO_PRICE_REQUEST, "full_report", "md")
    text = content.decode()
    assert re.search(r"### conjoint-hb \(run of \d{4}-\d\d-\d\d \d\d:\d\d UTC\)\n\n- n=12\n", text)
    assert '- Figures as sent: {"utilities": \\[{"a": 1}\\]}' in text  # Markdown-escaped brackets
