"""Files the bot relays (Study exports, heatmap archives) reach the thread whole, with the comment, when sent
piece by piece from disk; an upload Slack refuses announces nothing. (Memory: ``benchmarks/export_relay.py``.)"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from slack_sdk.errors import SlackRequestError
from slack_sdk.web.async_client import AsyncWebClient

from minds_bot.flows.uploads import CHUNK, upload_file
from tests.fakes.slack_web import fake_slack


async def test_a_file_arrives_whole_in_the_thread_with_its_comment(tmp_path: Path) -> None:
    data = os.urandom(CHUNK * 3 + 17)  # several pieces and a short last one
    path = tmp_path / "report.pdf"
    path.write_bytes(data)
    async with fake_slack() as slack:
        client = AsyncWebClient(token="xoxb-test", base_url=f"{slack.base_url}/api/")
        await upload_file(
            client,
            path=path,
            filename="report.pdf",
            title="Report",
            channel="C1",
            thread_ts="1.2",
            initial_comment="Here it is",
        )
        (asked,) = slack.calls_to("files.getUploadURLExternal")
        assert asked["filename"] == "report.pdf" and int(asked["length"]) == len(data)
        (uploaded,) = slack.uploads.values()
        assert uploaded == data
        (done,) = slack.calls_to("files.completeUploadExternal")
        assert (done["channel_id"], done["thread_ts"], done["initial_comment"]) == ("C1", "1.2", "Here it is")
    assert path.read_bytes() == data  # the caller deletes it, not the upload


async def test_a_refused_upload_raises_and_announces_nothing(tmp_path: Path) -> None:
    path = tmp_path / "report.pdf"
    path.write_bytes(b"x" * 10)
    async with fake_slack() as slack:
        slack.replies["files.getUploadURLExternal"] = {
            "ok": True,
            "file_id": "F1",
            "upload_url": f"{slack.base_url}/nowhere/F1",
        }
        client = AsyncWebClient(token="xoxb-test", base_url=f"{slack.base_url}/api/")
        with pytest.raises(SlackRequestError, match="HTTP 404"):
            await upload_file(client, path=path, filename="report.pdf", title="Report", channel="C1", thread_ts=None)
        assert slack.calls_to("files.completeUploadExternal") == []
