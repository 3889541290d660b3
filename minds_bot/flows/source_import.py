"""Files shared in Slack as sources for a new Audience: downloaded from Slack, imported into Minds
(``POST /audiences/source-import``), then used by ``/minds audience new``'s flow.

Owns: which shared files qualify (``.txt``, ``.md``, ``.csv``, ``.json``; at most 20, 5 MB each, 12 MB in all —
Minds' limits, checked before anything is sent), downloading them with the bot token from Slack's own file
host only (``flows/slack_files.py``: size checked first, streamed up to the limit, no redirect off Slack),
refusing a file that is not UTF-8 text, asking the channel's spend policy before any of it (a refused build
downloads and sends nothing), the import (the client verifies count, order and SHA-256 checksums
before anything is called a success) and handing the returned files, unchanged, to the build.
Must not touch: Block Kit (``render/source_import.py``) or SQL.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from minds_bot.flows.audiences import held_command, start_audience
from minds_bot.flows.invocation import Invocation
from minds_bot.flows.slack_files import Refusal, SlackFileHosts, SlackFileRefused, download_slack_file
from minds_bot.flows.spend import SpendRequest, refused_early
from minds_bot.i18n import _
from minds_bot.render.source_import import render_sources_imported

SOURCE_EXTENSIONS = (".txt", ".md", ".csv", ".json")
MAX_FILES = 20
MAX_FILE_BYTES = 5 * 1024 * 1024
MAX_TOTAL_BYTES = 12 * 1024 * 1024


class SourceRefused(Exception):
    """A shared file cannot be used; ``str(exc)`` says which and why, in the person's words."""


@dataclass(frozen=True)
class SharedFile:
    id: str
    name: str
    url: str
    size: int | None = None


def message_files(message: Any) -> list[dict[str, Any]]:
    """The file objects on a Slack message payload; anything else there (a signed but odd payload's ``files``
    that is not a list of objects) is no file at all."""
    files = message.get("files") if isinstance(message, dict) else None
    return [item for item in files if isinstance(item, dict)] if isinstance(files, list) else []


def shared_files(message: dict[str, Any]) -> tuple[list[SharedFile], list[str]]:
    """(usable files, names of the others) on a Slack message, in the order shared."""
    usable: list[SharedFile] = []
    skipped: list[str] = []
    for item in message_files(message):
        name, url = (
            item.get("name") or item.get("title") or "",
            item.get("url_private_download") or item.get("url_private"),
        )
        if not isinstance(name, str):
            continue
        if name.lower().endswith(SOURCE_EXTENSIONS) and isinstance(url, str):
            size = item.get("size") if isinstance(item.get("size"), int) else None
            file_id = item.get("id")
            usable.append(SharedFile(id=file_id if isinstance(file_id, str) else "", name=name, url=url, size=size))
        elif name:
            skipped.append(name)
    return usable, skipped


def check_limits(files: Sequence[SharedFile]) -> None:
    if len(files) > MAX_FILES:
        raise SourceRefused(
            _(
                "Minds imports at most {limit} files at a time; this message has {count}.",
                limit=MAX_FILES,
                count=len(files),
            )
        )
    for item in files:
        if item.size is not None and item.size > MAX_FILE_BYTES:
            raise SourceRefused(_("{file} is larger than Minds' 5 MB limit per file.", file=item.name))


async def download_texts(
    files: Sequence[SharedFile], *, token: str | None, slack_api_url: str
) -> list[tuple[str, str]]:
    """Each file's UTF-8 text, in order, within Minds' size limits (``flows/slack_files.py`` downloads)."""
    texts: list[tuple[str, str]] = []
    total = 0
    hosts = SlackFileHosts.for_api_url(slack_api_url)
    for item in files:
        content = await _download(item, token=token, hosts=hosts)
        total += len(content)
        if total > MAX_TOTAL_BYTES:
            raise SourceRefused(_("The files together are larger than Minds' 12 MB import limit."))
        try:
            texts.append((item.name, content.decode("utf-8")))
        except UnicodeDecodeError:
            raise SourceRefused(_("{file} is not UTF-8 text, so Minds cannot import it.", file=item.name)) from None
    return texts


async def _download(item: SharedFile, *, token: str | None, hosts: SlackFileHosts) -> bytes:
    try:
        return await download_slack_file(
            item.url, token=token, hosts=hosts, max_bytes=MAX_FILE_BYTES, reported_size=item.size
        )
    except SlackFileRefused as exc:
        if exc.reason is Refusal.NOT_SLACK or exc.reason is Refusal.REDIRECT_OFF_HOST:
            raise SourceRefused(_("{file} is not stored in Slack, so it was not downloaded.", file=item.name)) from None
        if exc.reason is Refusal.TOO_LARGE:
            raise SourceRefused(_("{file} is larger than Minds' 5 MB limit per file.", file=item.name)) from None
        if exc.status is not None:
            raise SourceRefused(
                _("{file} could not be downloaded from Slack (HTTP {status}).", file=item.name, status=exc.status)
            ) from None
        raise SourceRefused(_("{file} could not be downloaded from Slack.", file=item.name)) from None


async def build_from_files(invocation: Invocation, *, brief: str, files: Sequence[SharedFile]) -> None:
    """Download, import (verified), say so, then build the Audience from the brief and those files. The channel's
    "audience_build" line is asked first: a refused build (or a person who must wait) downloads and sends nothing."""
    check_limits(files)
    early = SpendRequest(action="audience_build", subject=brief, command=held_command(brief=brief, files=()))
    if await refused_early(invocation, early):
        return
    slack_token = getattr(invocation.client, "token", None)
    texts = await download_texts(files, token=slack_token, slack_api_url=invocation.services.settings.slack_api_url)
    minds = await invocation.minds()
    imported = await minds.import_audience_sources(texts)
    await invocation.reply(render_sources_imported(imported))
    await start_audience(invocation, brief=brief, files=imported.files)
