"""Question attachments in the sandbox: the files a direct run's ``attachments`` name (OpenAPI StudyAttachment
``{url, path, name, type}``), fetched once when the run is accepted, as Minds does ("files or images to process
once and include as context for every Mind"), and recorded on the run (name, type, URL, size, SHA-256) so a test
can see exactly what arrived. A plan preview's ``attachments`` are fetched and kept with the draft the same way,
listed in the plan with ids, and assigned to its questions (``attachmentIds``). ``GET /_sandbox/attachments``
lists both.

Like Minds: a file is fetched from its ``url`` without credentials, redirects are not followed, at most
``MAX_ATTACHMENT_BYTES`` (Minds' 50 MB file-fetch limit) within ``FETCH_TIMEOUT`` seconds; a file that cannot be
read is a 422 and no run starts. A ``path`` names an upload in Minds' storage, which the sandbox has none of.
(Minds also refuses private-network URLs; the sandbox, which runs next to the bot on 127.0.0.1, does not.)
"""

from __future__ import annotations

import hashlib
from typing import Any

import aiohttp
from pydantic import BaseModel, ConfigDict

from minds_sandbox.errors import ApiError

MAX_ATTACHMENTS = 10
MAX_ATTACHMENT_BYTES = 50 * 1024 * 1024
FETCH_TIMEOUT = 30.0


class Attachment(BaseModel):
    model_config = ConfigDict(extra="allow")

    url: str | None = None
    path: str | None = None
    name: str | None = None
    type: str | None = None


def unreadable(message: str) -> ApiError:
    return ApiError(422, message, code="ATTACHMENT_UNREADABLE")


async def fetch_all(items: list[Attachment]) -> list[dict[str, Any]]:
    """Each attachment as received: ``{name, type, url, size, sha256}``; 422 for one that cannot be read."""
    if len(items) > MAX_ATTACHMENTS:
        raise ApiError(400, f"At most {MAX_ATTACHMENTS} attachments per question", code="BAD_REQUEST")
    received = []
    timeout = aiohttp.ClientTimeout(total=FETCH_TIMEOUT)
    async with aiohttp.ClientSession(timeout=timeout) as http:
        for item in items:
            if not item.url:
                raise unreadable("Attachment path does not name an upload in this workspace")
            if not item.url.startswith(("https://", "http://")):
                raise unreadable("Attachment URL is not a safe or fetchable public URL")
            content = await _fetch(http, item.url)
            received.append(
                {
                    "name": item.name or item.url.rsplit("/", 1)[-1],
                    "type": item.type or "",
                    "url": item.url,
                    "size": len(content),
                    "sha256": hashlib.sha256(content).hexdigest(),
                }
            )
    return received


async def _fetch(http: aiohttp.ClientSession, url: str) -> bytes:
    try:
        async with http.get(url, allow_redirects=False) as resp:
            if resp.status != 200:
                raise unreadable(f"Could not fetch file URL (HTTP {resp.status})")
            content = bytearray()
            async for piece in resp.content.iter_chunked(64 * 1024):
                content += piece
                if len(content) > MAX_ATTACHMENT_BYTES:
                    raise unreadable("File exceeds the 50MB attachment limit")
            return bytes(content)
    except (aiohttp.ClientError, TimeoutError):
        raise unreadable("Could not fetch file URL") from None


def plan_attachments(received: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Fetched files as a plan lists them: each with its id ("att-1", …) for questions' ``attachmentIds``."""
    return [{"id": f"att-{n}", **item} for n, item in enumerate(received, 1)]


def assign(content: dict[str, Any], *, suggest: bool) -> None:
    """The planner's stimulus assignment, deterministic: every question not yet assigned shows every file
    (``suggestQuestionStimuli`` false: none is assigned; an edit's explicit ``attachmentIds`` stay)."""
    ids = [a["id"] for a in content.get("attachments") or []]
    if not ids or not suggest:
        return
    for question in content.get("questions") or []:
        question.setdefault("attachmentIds", list(ids))
