"""A file on disk into a Slack thread without holding it in memory.

Owns: ``upload_file`` — Slack's external upload in three steps (``files.getUploadURLExternal`` with the size,
the bytes streamed from disk to the upload URL in ``CHUNK``-sized pieces, ``files.completeUploadExternal`` with
the channel, thread and comment). slack_sdk's ``files_upload_v2`` reads the whole file into memory first; a
200 MB export would cost 200 MB of RSS, so files the bot relays from Minds (Study exports, heatmap archives) go
this way. A refused upload raises ``SlackRequestError``, as ``files_upload_v2`` does, and nothing is announced.
Must not touch: Block Kit, the store, Minds.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING

from slack_sdk.errors import SlackRequestError
from slack_sdk.web.async_client import AsyncWebClient

from minds_bot.lazy import LazyModule

if TYPE_CHECKING:
    import httpx
else:
    httpx = LazyModule("httpx")  # imported on first use: start-up does not need it

CHUNK = 256 * 1024
UPLOAD_TIMEOUT_SECONDS = 60.0  # per read/write of one piece, not for the whole file


async def _pieces(path: Path) -> AsyncIterator[bytes]:
    handle = await asyncio.to_thread(path.open, "rb")
    try:
        while piece := await asyncio.to_thread(handle.read, CHUNK):
            yield piece
    finally:
        await asyncio.to_thread(handle.close)


async def upload_file(
    slack: AsyncWebClient,
    *,
    path: Path,
    filename: str,
    title: str,
    channel: str,
    thread_ts: str | None,
    initial_comment: str | None = None,
) -> None:
    size = (await asyncio.to_thread(path.stat)).st_size
    target = await slack.files_getUploadURLExternal(filename=filename, length=size)
    file_id, url = target.get("file_id"), target.get("upload_url")
    # SlackRequestError's words are for developers (logs): nothing about the upload is announced to people.
    if not isinstance(file_id, str) or not isinstance(url, str):
        raise SlackRequestError("files.getUploadURLExternal gave no upload URL")  # verbatim
    headers = {"Content-Type": "application/octet-stream", "Content-Length": str(size)}
    async with httpx.AsyncClient(timeout=httpx.Timeout(UPLOAD_TIMEOUT_SECONDS)) as http:
        response = await http.post(url, content=_pieces(path), headers=headers)
    if response.status_code != httpx.codes.OK:
        raise SlackRequestError(f"Slack refused the upload of {filename} (HTTP {response.status_code})")  # verbatim
    await slack.files_completeUploadExternal(
        files=[{"id": file_id, "title": title}],
        channel_id=channel,
        thread_ts=thread_ts,
        initial_comment=initial_comment,
    )
