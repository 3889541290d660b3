"""Export files are real Markdown, CSV, PDF and DOCX: the report's numbers are tables per Audience (the thread's
definition), drawn as real tables in the PDF and DOCX; formats the sandbox cannot produce fail clearly."""

from __future__ import annotations

import httpx
import pytest

from minds_sandbox import RunningSandbox, exports
from minds_sandbox_tests.files import MARKDOWN_LEFT, read_docx, read_pdf, table_with
from minds_sandbox_tests.helpers import LAUNCH_STUDY

GEN_Z, KOREAN = "Gen Z sneaker buyers in Germany (n=12)", "Korean skincare enthusiasts (n=16)"
# the seeded launch run is a concept test (issue 36): its categorical question asks how different the shoe is
CONSIDER = (
    "Q6 (run of 2025-12-02 09:10 UTC). How different do you find the recycled-material running shoe from what is "
    "available today?"
)
SHARES = [  # Minds' option order
    ["Very different", "17%", "0%"],
    ["Somewhat different", "75%", "38%"],
    ["Slightly different", "8%", "62%"],
    ["Not different", "0%", "0%"],
]


async def export(
    client: httpx.AsyncClient, sandbox: RunningSandbox, kind: str, fmt: str
) -> tuple[dict, httpx.Response | None]:
    job = (await client.post(f"/studies/{LAUNCH_STUDY}/export", json={"kind": kind, "format": fmt})).json()["data"]
    queued = (await client.get(f"/studies/{LAUNCH_STUDY}/export-status", params={"jobId": job["jobId"]})).json()
    assert queued["data"]["status"] == "queued"
    sandbox.advance(sandbox.runtime.engine.step)
    status = (await client.get(f"/studies/{LAUNCH_STUDY}/export-status", params={"jobId": job["jobId"]})).json()
    if status["data"]["status"] != "completed":
        return status["data"], None
    redirect = await client.get(f"/studies/{LAUNCH_STUDY}/export-download", params={"jobId": job["jobId"]})
    async with httpx.AsyncClient() as anonymous:
        return status["data"], await anonymous.get(redirect.headers["location"])


async def test_pdf_brief_is_a_pdf(client: httpx.AsyncClient, sandbox: RunningSandbox) -> None:
    status, file = await export(client, sandbox, "executive_brief", "pdf")
    assert status["mimeType"] == "application/pdf" and status["filename"].endswith(".pdf")
    assert file is not None and file.content.startswith(b"%PDF-") and b"%%EOF" in file.content[-32:]


async def test_markdown_report_lists_results(client: httpx.AsyncClient, sandbox: RunningSandbox) -> None:
    _, file = await export(client, sandbox, "full_report", "md")
    assert file is not None
    assert file.text.startswith("# Launch positioning") and f"### {CONSIDER}" in file.text
    assert f"| Option | {GEN_Z} | {KOREAN} |" in file.text, "one column of shares per Audience, with its n"
    assert (
        "| Very different | 17% | 0% |\n| Somewhat different | 75% | 38% |\n| Slightly different | 8% | 62% |\n"
        "| Not different | 0% | 0% |"
    ) in file.text, "Minds' option order"
    assert "| Mean | 3.7 | 2.8 |\n| Top-2-box (4–5) | 67% | 0% |" in file.text, (
        "the scale's statistics as the thread's"
    )
    assert "_% of respondents per Audience (n = respondents)._" in file.text
    assert "- Not my field: 16 of 28 answers" in file.text
    assert "attachment" in file.headers["content-disposition"]


async def test_the_pdf_report_draws_the_tables_headings_and_lists(
    client: httpx.AsyncClient, sandbox: RunningSandbox
) -> None:
    status, file = await export(client, sandbox, "full_report", "pdf")
    assert status["filename"] == "launch-positioning-full-report.pdf" and file is not None
    read = read_pdf(file.content)
    shares = table_with(read.tables, ["Option", GEN_Z, KOREAN])
    assert shares[1:] == SHARES
    scales = [t for t in read.tables if t and t[0] == ["Point", GEN_Z, KOREAN]]
    assert len(scales) == 4, "one table per scale question, none split across pages"
    for scale in scales:
        assert [row[0] for row in scale[1:]] == ["1", "2", "3", "4", "5", "Mean", "Top-2-box (4–5)"]
    assert (1, "Launch positioning") in read.outline and (2, "Results") in read.outline
    assert (3, CONSIDER) in read.outline
    assert "• Not my field: 16 of 28 answers" in read.text
    assert not MARKDOWN_LEFT.search(read.text), "no Markdown table, heading or bold syntax is printed"


async def test_the_docx_report_has_heading_styles_lists_and_tables(
    client: httpx.AsyncClient, sandbox: RunningSandbox
) -> None:
    status, file = await export(client, sandbox, "full_report", "docx")
    assert status["filename"] == "launch-positioning-full-report.docx" and file is not None
    assert status["mimeType"] == "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
    read = read_docx(file.content)
    assert ("Title", "Launch positioning") in read.paragraphs and ("Heading 2", CONSIDER) in read.paragraphs
    assert ("List Bullet", "Not my field: 16 of 28 answers") in read.paragraphs
    shares = table_with(read.tables, ["Option", GEN_Z, KOREAN])
    assert shares[1:] == SHARES
    assert not MARKDOWN_LEFT.search("\n".join(text for _style, text in read.paragraphs))


async def test_the_brief_as_docx_has_no_tables_but_every_headline(
    client: httpx.AsyncClient, sandbox: RunningSandbox
) -> None:
    _, file = await export(client, sandbox, "executive_brief", "docx")
    assert file is not None
    read = read_docx(file.content)
    assert read.tables == [] and ("Heading 2", CONSIDER) in read.paragraphs
    assert ("Normal", "Most chose Somewhat different (53.6%, n=28).") in read.paragraphs


@pytest.mark.parametrize("fmt", ["pptx", "sav", "xls"])
async def test_unproducible_formats_fail_with_export_failed(
    client: httpx.AsyncClient, sandbox: RunningSandbox, fmt: str
) -> None:
    status, file = await export(client, sandbox, "full_report", fmt)
    assert file is None
    assert status["status"] == "failed" and status["errorCode"] == "EXPORT_FAILED" and fmt in status["error"]


async def test_unknown_format_is_400(client: httpx.AsyncClient) -> None:
    response = await client.post(f"/studies/{LAUNCH_STUDY}/export", json={"format": "gif"})
    assert response.status_code == 400


def _result(title: str, kind: str, audiences: dict[str, list[str]], **classification: object) -> dict:
    output = {
        "title": title,
        "type": kind,
        "classification": {"type": kind, **classification},
        "audiences": [
            {"audience": name, "answers": [{"value": v} for v in values]} for name, values in audiences.items()
        ],
        "responseCount": sum(len(v) for v in audiences.values()),
    }
    return {"role": "assistant", "metadata": {"outputData": output}}


def test_report_tables_follow_the_threads_definition_for_several_answers_and_recommendation() -> None:
    study = {
        "name": "Shelf | test",
        "messages": [
            _result(
                "Which *claims* matter?",
                "multiselect",
                {"Gen Z": ["Price; Quality", "Quality", ""], "Parents": ["Price"]},
                options=["Quality", "Price", "Design"],
            ),
            _result(
                "How likely are you to recommend it?",
                "scale",
                {"Gen Z": ["10", "9", "3", "7"]},
                scaleRange=[0, 10],
            ),
        ],
    }
    markdown = exports.render_export(study=study, answers=[], kind="full_report", fmt="md").content.decode()
    assert markdown.startswith("# Shelf \\| test\n")
    assert "### Q1. Which \\*claims\\* matter?" in markdown
    assert (
        "| Option | Gen Z (n=2) | Parents (n=1) |\n|---|---|---|\n"
        "| Quality | 100% | 0% |\n| Price | 50% | 100% |\n| Design | 0% | 0% |"
    ) in markdown, "n counts respondents (an empty answer is none); every listed option, in Minds' order"
    assert "several answers allowed, so shares may add up to more than 100%" in markdown
    assert "| Top-2-box (9–10) | 50% |\n| NPS | +25 |" in markdown
    read = read_pdf(exports.render_export(study=study, answers=[], kind="full_report", fmt="pdf").content)
    assert table_with(read.tables, ["Option", "Gen Z (n=2)", "Parents (n=1)"])[1] == ["Quality", "100%", "0%"]
    assert (1, "Shelf | test") in read.outline and (3, "Q1. Which *claims* matter?") in read.outline
