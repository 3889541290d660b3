"""Exports: start -> poll -> download, with the signed URL fetched without the Minds key."""

from __future__ import annotations

import asyncio
import hashlib
import os
from pathlib import Path

import httpx
import pytest

from minds_bot.minds import DownloadFailed, ExportFailed, ExportJob, MalformedResponse
from minds_bot.render.errors import minds_error_text
from tests.fakes.minds_http import FakeMindsAPI, fake_key, make_client, ok
from tests.minds.samples import STUDY_ID

STATUS = f"/studies/{STUDY_ID}/export-status"
DOWNLOAD = f"/studies/{STUDY_ID}/export-download"
SIGNED = "https://storage.test/exports/brief.pdf?X-Signature=abc123"
FILE = b"%PDF-1.7\n" + bytes(range(256)) * 300


def status(state: str, **extra) -> httpx.Response:
    return ok({"status": state, "progress": 50 if state == "processing" else 100, **extra})


class Storage:
    """The signed-URL host: records what reached it."""

    def __init__(self, body: bytes = FILE, code: int = 200) -> None:
        self.body, self.code = body, code
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        return httpx.Response(self.code, content=self.body, headers={"Content-Type": "application/pdf"})


def exporting_api() -> FakeMindsAPI:
    api = FakeMindsAPI()
    api.on(
        "POST",
        f"/studies/{STUDY_ID}/export",
        ok({"kind": "executive_brief", "format": "pdf", "jobId": "job-1", "status": "queued"}),
    )
    api.on(
        "GET",
        STATUS,
        status("queued"),
        status("processing"),
        status("completed", filename="Launch brief.pdf", mimeType="application/pdf"),
    )
    api.on("GET", DOWNLOAD, httpx.Response(302, headers={"Location": SIGNED}))
    return api


async def test_export_round_trip_never_sends_the_key_to_the_signed_url(tmp_path: Path):
    api, storage = exporting_api(), Storage()
    async with make_client(api, download=storage) as minds:
        job = await minds.start_export(STUDY_ID, kind="executive_brief", format="pdf")
        done = await minds.wait_export(STUDY_ID, job, wait_seconds=60)
        file = await minds.download_export(STUDY_ID, job, status=done, dest_dir=tmp_path)

    assert [s.params for s in api.to("GET", STATUS)][0] == {
        "jobId": "job-1",
        "kind": "executive_brief",
        "format": "pdf",
    }
    assert api.to("GET", DOWNLOAD)[0].params == {"jobId": "job-1"}
    [fetched] = storage.requests
    assert str(fetched.url) == SIGNED
    assert "authorization" not in fetched.headers
    assert fake_key() not in str(fetched.headers)
    assert all(s.headers["authorization"] == f"Bearer {fake_key()}" for s in api.sent)

    path = Path(file.path)
    assert path.parent == tmp_path and await asyncio.to_thread(path.read_bytes) == FILE
    assert (file.filename, file.mime_type, file.size) == ("Launch brief.pdf", "application/pdf", len(FILE))
    assert file.sha256 == hashlib.sha256(FILE).hexdigest()


async def test_failed_export_raises_with_code_and_text():
    api = FakeMindsAPI().on("GET", STATUS, status("failed", errorCode="EXPORT_FAILED", error="Renderer crashed"))
    job = ExportJob(kind="full_report", format="docx", job_id="job-2", status="queued")
    async with make_client(api) as minds:
        with pytest.raises(ExportFailed) as caught:
            await minds.wait_export(STUDY_ID, job)
    assert (caught.value.error_code, caught.value.error) == ("EXPORT_FAILED", "Renderer crashed")
    assert "Renderer crashed" in minds_error_text(caught.value)


async def test_unfinished_export_at_deadline_is_reported_not_restarted():
    api = FakeMindsAPI().on("GET", STATUS, status("processing"))
    job = ExportJob(kind="raw_data", format="csv", job_id="job-3", status="queued")
    async with make_client(api) as minds:
        last = await minds.wait_export(STUDY_ID, job, wait_seconds=20)
    assert last.status == "processing"
    assert not api.to("POST", f"/studies/{STUDY_ID}/export")
    assert api.clock.now <= 20


async def test_oversized_download_is_refused_and_removed(tmp_path: Path):
    api = exporting_api()
    job = ExportJob(kind="executive_brief", format="pdf", job_id="job-1", status="queued")
    async with make_client(api, download=Storage()) as minds:
        with pytest.raises(DownloadFailed) as caught:
            await minds.download_export(STUDY_ID, job, dest_dir=tmp_path, max_bytes=1024)
    assert caught.value.trouble == "too_large" and "larger" in minds_error_text(caught.value)
    assert await asyncio.to_thread(os.listdir, tmp_path) == []


async def test_expired_signed_url_is_a_download_error_without_the_url(tmp_path: Path):
    api = exporting_api()
    job = ExportJob(kind="executive_brief", format="pdf", job_id="job-1", status="queued")
    async with make_client(api, download=Storage(code=403)) as minds:
        with pytest.raises(DownloadFailed) as caught:
            await minds.download_export(STUDY_ID, job, dest_dir=tmp_path)
    assert caught.value.status_code == 403 and "X-Signature" not in str(caught.value)
    assert await asyncio.to_thread(os.listdir, tmp_path) == []


async def test_download_without_redirect_location_is_malformed(tmp_path: Path):
    api = FakeMindsAPI().on("GET", DOWNLOAD, httpx.Response(302))
    job = ExportJob(kind="executive_brief", format="pdf", job_id="job-1", status="queued")
    async with make_client(api) as minds:
        with pytest.raises(MalformedResponse):
            await minds.download_export(STUDY_ID, job, dest_dir=tmp_path)


async def test_filename_falls_back_and_is_made_safe(tmp_path: Path):
    api = exporting_api()
    job = ExportJob(kind="raw_data", format="csv", job_id="job-1", status="queued")
    async with make_client(api, download=Storage(b"a,b\n")) as minds:
        plain = await minds.download_export(STUDY_ID, job, dest_dir=tmp_path)
        done = (await minds.export_status(STUDY_ID, job)).model_copy(update={"filename": "../../etc/passwd"})
        hostile = await minds.download_export(STUDY_ID, job, status=done, dest_dir=tmp_path)
    assert plain.filename == f"{STUDY_ID}-raw_data.csv" and plain.mime_type == "application/pdf"
    assert hostile.filename == "passwd"
