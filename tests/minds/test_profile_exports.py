"""Audience and Mind profile exports in the client: requests as the OpenAPI declares them, the original job
polled (never a new export), a completed reply without its file is malformed, failures and forgotten jobs are
``ExportFailed`` — never an empty file."""

from __future__ import annotations

import pytest

from minds_bot.minds import ExportFailed, MalformedResponse
from tests.fakes.minds_http import FakeMindsAPI, make_client, ok
from tests.minds.samples import uid
from tests.minds.test_request_schema import problems

MIND = uid(41)
AUDIENCE = uid(42)


def done(**extra: object) -> dict:
    return {"status": "completed", "filename": "Mia.md", "mimeType": "text/markdown", "content": "# Mia\n", **extra}


async def test_a_job_is_followed_to_its_inline_file() -> None:
    api = FakeMindsAPI()
    api.on("POST", f"/minds/{MIND}/export", ok({"status": "queued", "jobId": "j1"}))
    api.on("GET", f"/minds/{MIND}/export-status", ok({"status": "processing", "jobId": "j1"}), ok(done()))
    async with make_client(api) as minds:
        started = await minds.start_profile_export("minds", MIND, format="md")
        finished = await minds.wait_profile_export("minds", MIND, started, format="md")
    assert finished.content == "# Mia\n" and not finished.truncated
    assert len(api.to("POST", f"/minds/{MIND}/export")) == 1
    assert [s.params for s in api.to("GET", f"/minds/{MIND}/export-status")] == [{"jobId": "j1", "format": "md"}] * 2
    assert [p for sent in api.sent for p in problems(sent)] == []


async def test_an_audience_export_uses_the_audience_routes() -> None:
    api = FakeMindsAPI()
    api.on("POST", f"/audiences/{AUDIENCE}/export", ok(done(contentBase64="JVBERg==", content=None, filename="a.pdf")))
    async with make_client(api) as minds:
        cached = await minds.start_profile_export("audiences", AUDIENCE, format="pdf", force=True)
    assert cached.status == "completed" and cached.content_base64 == "JVBERg=="
    assert api.to("POST", f"/audiences/{AUDIENCE}/export")[0].json() == {"format": "pdf", "force": True}
    assert [p for sent in api.sent for p in problems(sent)] == []


@pytest.mark.parametrize(
    ("reply", "error"),
    [
        ({"status": "failed", "error": "renderer down"}, ExportFailed),
        ({"status": "idle"}, ExportFailed),
        ({"status": "completed", "filename": "x.md"}, MalformedResponse),
    ],
)
async def test_failures_forgotten_jobs_and_missing_files_are_errors(reply: dict, error: type) -> None:
    api = FakeMindsAPI()
    api.on("POST", f"/minds/{MIND}/export", ok({"status": "queued", "jobId": "j1"}))
    api.on("GET", f"/minds/{MIND}/export-status", ok(reply))
    async with make_client(api) as minds:
        started = await minds.start_profile_export("minds", MIND, format="md")
        with pytest.raises(error):
            await minds.wait_profile_export("minds", MIND, started, format="md")


async def test_a_truncated_inline_markdown_is_recognised() -> None:
    api = FakeMindsAPI()
    api.on("POST", f"/minds/{MIND}/export", ok(done(content="# Mia\n…\n_[truncated]_\n")))
    async with make_client(api) as minds:
        assert (await minds.start_profile_export("minds", MIND, format="md")).truncated
