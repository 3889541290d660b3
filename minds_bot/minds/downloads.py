"""Export downloads: a file fetched from a signed URL (streamed, capped, hashed, never with the Minds key) or
served by Minds itself, written to a temporary file.

Owns: ``Downloads``, the transport plus the two ways a file arrives; the cap and the file name made safe.
Must not touch: Slack, the store. The key is sent only to the Minds API host, never to a signed download URL.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import re
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from minds_bot.lazy import LazyModule
from minds_bot.minds.errors import DownloadFailed, MalformedResponse
from minds_bot.minds.models import DownloadedFile, HeatmapExportStatus
from minds_bot.minds.transport import Transport, user_agent

if TYPE_CHECKING:
    import httpx
else:
    httpx = LazyModule("httpx")  # imported on first use: start-up does not need it

MAX_EXPORT_BYTES = 200 * 1024 * 1024
DOWNLOAD_CHUNK = 64 * 1024
REDIRECTS = frozenset({301, 302, 303, 307, 308})


class Downloads(Transport):
    """The transport, plus fetching an export's file."""

    async def _download_artifact(
        self, path: str, *, status: HeatmapExportStatus, dest_dir: Path | None, fallback: str
    ) -> DownloadedFile:
        """An export artifact served by Minds itself (read with the key) or by a signed redirect (without it)."""
        resp, info = await self._call("GET", path)
        filename = status.filename or fallback
        if resp.status_code in REDIRECTS and resp.headers.get("location"):
            target = resp.request.url.join(resp.headers["location"])
            return await self._stream_to_file(
                target, filename=filename, mime_type=status.mime_type, dest_dir=dest_dir, max_bytes=MAX_EXPORT_BYTES
            )
        if resp.status_code != 200 or not resp.content:
            raise MalformedResponse(f"expected the export file, got HTTP {resp.status_code}", request=info)  # verbatim
        return await _save_bytes(resp, filename=filename, mime_type=status.mime_type, dest_dir=dest_dir)

    async def _stream_to_file(
        self, url: httpx.URL, *, filename: str, mime_type: str | None, dest_dir: Path | None, max_bytes: int
    ) -> DownloadedFile:
        # Deliberately no Authorization: the signed URL is its own credential and lives on another host.
        headers = {"User-Agent": user_agent()}
        try:
            async with self._download_http.stream("GET", url, headers=headers) as resp:
                if resp.status_code != 200:
                    raise DownloadFailed("refused", status_code=resp.status_code)
                path, size, digest = await _write_stream(resp, dest_dir=dest_dir, max_bytes=max_bytes)
                content_type = resp.headers.get("content-type", "application/octet-stream")
        except httpx.TimeoutException as exc:
            raise DownloadFailed("timeout") from exc
        except httpx.TransportError as exc:
            raise DownloadFailed("unreachable") from exc
        return DownloadedFile(
            path=str(path),
            filename=_safe_filename(filename),
            size=size,
            sha256=digest,
            mime_type=mime_type or content_type.split(";")[0].strip(),
        )


async def _write_stream(resp: httpx.Response, *, dest_dir: Path | None, max_bytes: int) -> tuple[Path, int, str]:
    fd, name = await asyncio.to_thread(tempfile.mkstemp, prefix="minds-export-", dir=dest_dir)
    path = Path(name)
    digest, size = hashlib.sha256(), 0
    handle = os.fdopen(fd, "wb")
    try:
        async for chunk in resp.aiter_bytes(DOWNLOAD_CHUNK):
            size += len(chunk)
            if size > max_bytes:
                raise DownloadFailed("too_large", limit_bytes=max_bytes)
            digest.update(chunk)
            await asyncio.to_thread(handle.write, chunk)
    except BaseException:
        await asyncio.to_thread(handle.close)
        await asyncio.to_thread(path.unlink, True)
        raise
    await asyncio.to_thread(handle.close)
    return path, size, digest.hexdigest()


def _safe_filename(name: str) -> str:
    base = name.replace("\\", "/").rsplit("/", 1)[-1]
    cleaned = re.sub(r"[^\w.\- ]+", "_", base).strip(" .")
    return cleaned or "export"


async def _save_bytes(
    resp: httpx.Response, *, filename: str, mime_type: str | None, dest_dir: Path | None
) -> DownloadedFile:
    content = resp.content
    if len(content) > MAX_EXPORT_BYTES:
        raise DownloadFailed("too_large", limit_bytes=MAX_EXPORT_BYTES)
    fd, name = await asyncio.to_thread(tempfile.mkstemp, prefix="minds-export-", dir=dest_dir)
    await asyncio.to_thread(_write_all, fd, content)
    content_type = resp.headers.get("content-type", "application/octet-stream")
    return DownloadedFile(
        path=name,
        filename=_safe_filename(filename),
        size=len(content),
        sha256=hashlib.sha256(content).hexdigest(),
        mime_type=mime_type or content_type.split(";")[0].strip(),
    )


def _write_all(fd: int, content: bytes) -> None:
    with os.fdopen(fd, "wb") as handle:
        handle.write(content)
