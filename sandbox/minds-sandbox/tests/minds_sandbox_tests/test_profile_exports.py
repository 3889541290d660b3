"""Audience and Mind profile exports: a job that completes one step later, served inline (md text, pdf
base64) and from the cache afterwards; an unknown job is ``idle``; the failure knob fails jobs; the Mind
export-status replies match the declared schema."""

from __future__ import annotations

import base64
import re

import httpx

from minds_sandbox import RunningSandbox
from minds_sandbox_tests.conftest import ContractLog
from minds_sandbox_tests.files import MARKDOWN_LEFT, read_docx, read_pdf
from minds_sandbox_tests.test_faults import put_faults


async def first(client: httpx.AsyncClient, kind: str) -> dict:
    return (await client.get(f"/{kind}", params={"limit": 1})).json()["data"][0]


async def test_a_mind_profile_is_a_job_then_inline_markdown_then_cached(
    client: httpx.AsyncClient, sandbox: RunningSandbox, contract_log: ContractLog
) -> None:
    mind = await first(client, "minds")
    started = (await client.post(f"/minds/{mind['id']}/export", json={"format": "md"})).json()["data"]
    assert started["status"] == "queued" and started["jobId"]
    status_path = f"/minds/{mind['id']}/export-status"
    params = {"jobId": started["jobId"], "format": "md"}
    assert (await client.get(status_path, params=params)).json()["data"]["status"] == "queued"
    sandbox.advance(sandbox.runtime.engine.step)
    done = (await client.get(status_path, params=params)).json()["data"]
    assert done["status"] == "completed" and done["content"].startswith(f"# {mind['name']}")
    assert done["filename"] == f"{mind['name']}.md" and done["mimeType"].startswith("text/markdown")
    cached = (await client.post(f"/minds/{mind['id']}/export", json={"format": "md"})).json()["data"]
    assert cached["status"] == "completed" and cached["jobId"] == started["jobId"]
    assert ("GET", "/api/v1/minds/{mindId}/export-status", 200) in contract_log.checked
    assert contract_log.violations == []


async def test_an_audience_brief_as_pdf(client: httpx.AsyncClient, sandbox: RunningSandbox) -> None:
    audience = await first(client, "audiences")
    started = (await client.post(f"/audiences/{audience['id']}/export", json={"format": "pdf"})).json()["data"]
    sandbox.advance(sandbox.runtime.engine.step)
    params = {"jobId": started["jobId"], "format": "pdf"}
    done = (await client.get(f"/audiences/{audience['id']}/export-status", params=params)).json()["data"]
    read = read_pdf(base64.b64decode(done["contentBase64"]))
    assert read.outline == [(1, audience["name"])] and re.search(r"^\d+ Minds$", read.text, re.MULTILINE)
    assert not MARKDOWN_LEFT.search(read.text) and "• " in read.text, "each member is a list item, names in bold"


async def test_a_mind_profile_as_docx(client: httpx.AsyncClient, sandbox: RunningSandbox) -> None:
    mind = await first(client, "minds")
    started = (await client.post(f"/minds/{mind['id']}/export", json={"format": "docx"})).json()["data"]
    sandbox.advance(sandbox.runtime.engine.step)
    params = {"jobId": started["jobId"], "format": "docx"}
    done = (await client.get(f"/minds/{mind['id']}/export-status", params=params)).json()["data"]
    assert done["filename"] == f"{mind['name']}.docx"
    read = read_docx(base64.b64decode(done["contentBase64"]))
    assert read.paragraphs[0] == ("Title", mind["name"])
    assert [style for style, _text in read.paragraphs[2:]] == ["List Bullet"] * (len(read.paragraphs) - 2)
    assert read.bold and not any("**" in text for _style, text in read.paragraphs)


async def test_unknown_jobs_are_idle_and_the_failure_knob_fails_jobs(
    client: httpx.AsyncClient, sandbox: RunningSandbox
) -> None:
    mind = await first(client, "minds")
    idle = await client.get(f"/minds/{mind['id']}/export-status", params={"jobId": "nope", "format": "md"})
    assert idle.json()["data"] == {"status": "idle"}
    await put_faults(sandbox, profile_export_failure=True)
    started = (await client.post(f"/minds/{mind['id']}/export", json={"format": "md", "force": True})).json()["data"]
    sandbox.advance(sandbox.runtime.engine.step)
    params = {"jobId": started["jobId"], "format": "md"}
    failed = (await client.get(f"/minds/{mind['id']}/export-status", params=params)).json()["data"]
    assert failed["status"] == "failed" and failed["error"]
    assert (await client.post(f"/minds/{mind['id']}/export", json={"format": "pptx"})).status_code == 400
