"""Export files are real Markdown, CSV and PDF; formats the sandbox cannot produce fail clearly."""

from __future__ import annotations

import httpx
import pytest

from minds_bot.sandbox.minds_api import RunningSandbox
from tests.sandbox.helpers import LAUNCH_STUDY


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
    assert file.text.startswith("# Launch positioning") and "| Option | Count | Share |" in file.text
    assert "attachment" in file.headers["content-disposition"]


@pytest.mark.parametrize("fmt", ["docx", "pptx", "sav", "xls"])
async def test_unproducible_formats_fail_with_export_failed(
    client: httpx.AsyncClient, sandbox: RunningSandbox, fmt: str
) -> None:
    status, file = await export(client, sandbox, "full_report", fmt)
    assert file is None
    assert status["status"] == "failed" and status["errorCode"] == "EXPORT_FAILED" and fmt in status["error"]


async def test_unknown_format_is_400(client: httpx.AsyncClient) -> None:
    response = await client.post(f"/studies/{LAUNCH_STUDY}/export", json={"format": "gif"})
    assert response.status_code == 400
