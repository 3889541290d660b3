"""Downloading a file someone shared in Slack, safely: the one helper every flow that reads a shared file uses
(Audience from files, a question's stimulus).

Owns: which URLs get the bot token (``https`` on Slack's file host ``files.slack.com`` only — or, when the bot
talks to the Slack emulator of the demo and tests, that emulator's exact origin), the size check before any
byte is read (Slack's reported ``size``, then ``Content-Length``), a streamed read that stops at the limit, and
redirects: followed only to those same hosts, at most ``MAX_REDIRECTS`` times, and never with the token (a
redirect off Slack's hosts is refused without being requested). A URL that does not parse (a port past 65535, a
broken or IPv6 host, characters that change under Unicode normalisation) is one not on Slack's host: refused, never
requested, never an exception. Every refusal is a ``SlackFileRefused`` with a ``reason`` the caller words for
people.
Must not touch: Block Kit, the store, Minds, or the words people read (callers phrase ``reason``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING
from urllib.parse import urljoin, urlsplit

from minds_bot.lazy import LazyModule

if TYPE_CHECKING:
    import httpx
else:
    httpx = LazyModule("httpx")  # imported on first use: start-up does not need it

SLACK_FILE_HOSTS = frozenset({"files.slack.com"})
SLACK_API_HOSTS = frozenset({"slack.com", "www.slack.com"})
MAX_REDIRECTS = 3
DOWNLOAD_TIMEOUT = 30.0
REDIRECTS = frozenset({301, 302, 303, 307, 308})


class Refusal(StrEnum):
    NOT_SLACK = "not_slack"  # the URL is not on Slack's file host (or not https)
    TOO_LARGE = "too_large"  # larger than the caller's limit (reported, announced or read)
    REDIRECT_OFF_HOST = "redirect_off_host"  # Slack's answer pointed somewhere else: not followed
    HTTP_STATUS = "http_status"  # Slack answered, but not with the file
    UNREACHABLE = "unreachable"  # no answer from Slack


class SlackFileRefused(Exception):
    """The file was not (completely) downloaded; ``reason`` says why, ``status`` the HTTP status if any."""

    def __init__(self, reason: Refusal, *, status: int | None = None) -> None:
        super().__init__(f"{reason.value}" + (f" (HTTP {status})" if status is not None else ""))
        self.reason = reason
        self.status = status


@dataclass(frozen=True)
class SlackFileHosts:
    """Where shared files may be fetched from: Slack's file host over https, plus the emulator's origin when
    the bot's Slack API URL is not Slack's own (the demo and tests)."""

    emulator_origin: tuple[str, str, int | None] | None = None

    @classmethod
    def for_api_url(cls, slack_api_url: str) -> SlackFileHosts:
        origin = url_origin(slack_api_url)
        if origin is None:
            return cls()
        if origin[1] in SLACK_API_HOSTS or origin[1].endswith(".slack.com"):
            return cls()
        return cls(emulator_origin=origin)

    def allows(self, url: str) -> bool:
        origin = url_origin(url)
        if origin is None:
            return False
        scheme, host, port = origin
        if scheme == "https" and host in SLACK_FILE_HOSTS and port in (None, 443):
            return True
        return self.emulator_origin is not None and origin == self.emulator_origin


def url_origin(url: str) -> tuple[str, str, int | None] | None:
    """``(scheme, host, port)`` of an absolute URL, lower-cased; None for one that does not parse (a port out of
    range, ``https://[abc/``, a host Unicode normalisation would change), one with credentials, or one without a
    host. Python's ``urlsplit`` raises ``ValueError`` for those, and a bad URL from a payload must not."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    host = (parts.hostname or "").lower()
    if not host or parts.username or parts.password:
        return None
    return parts.scheme.lower(), host, port


async def download_slack_file(
    url: str,
    *,
    token: str | None,
    hosts: SlackFileHosts,
    max_bytes: int,
    reported_size: int | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
) -> bytes:
    """The file's bytes, at most ``max_bytes`` of them; ``SlackFileRefused`` otherwise. ``reported_size`` is the
    ``size`` Slack gave for the file: a file already known to be too large is never requested."""
    if not hosts.allows(url):
        raise SlackFileRefused(Refusal.NOT_SLACK)
    if reported_size is not None and reported_size > max_bytes:
        raise SlackFileRefused(Refusal.TOO_LARGE)
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with httpx.AsyncClient(timeout=DOWNLOAD_TIMEOUT, follow_redirects=False, transport=transport) as http:
        for _hop in range(MAX_REDIRECTS + 1):
            try:
                async with http.stream("GET", url, headers=headers) as resp:
                    if resp.status_code in REDIRECTS:
                        url = _joined(url, resp.headers.get("location", ""))
                        if not hosts.allows(url):
                            raise SlackFileRefused(Refusal.REDIRECT_OFF_HOST)
                        headers = {}  # the token never crosses a redirect, even to another Slack URL
                        continue
                    if resp.status_code != httpx.codes.OK:
                        raise SlackFileRefused(Refusal.HTTP_STATUS, status=resp.status_code)
                    return await _read_capped(resp, max_bytes=max_bytes)
            except (httpx.HTTPError, httpx.InvalidURL):
                raise SlackFileRefused(Refusal.UNREACHABLE) from None
    raise SlackFileRefused(Refusal.REDIRECT_OFF_HOST)  # more redirects than any Slack download makes


def _joined(url: str, location: str) -> str:
    """Where a redirect points, or "" (refused as off Slack's host) when its ``Location`` does not parse."""
    try:
        return urljoin(url, location)
    except ValueError:
        return ""


async def _read_capped(resp: httpx.Response, *, max_bytes: int) -> bytes:
    announced = resp.headers.get("content-length", "")
    if announced.isdigit() and int(announced) > max_bytes:
        raise SlackFileRefused(Refusal.TOO_LARGE)
    received = bytearray()
    async for piece in resp.aiter_bytes():
        received += piece
        if len(received) > max_bytes:  # stop reading: the rest is never downloaded
            raise SlackFileRefused(Refusal.TOO_LARGE)
    return bytes(received)
