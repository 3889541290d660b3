"""A file shared in Slack as the stimulus of a question (issue 27, "Test what was shared in Slack").

Owns: which shared file qualifies (PNG, JPEG, GIF, WebP or PDF, at most ``MAX_STIMULUS_BYTES`` = 10 MB — Minds
documents no limit of its own for question attachments; its file fetches stop at 50 MB), downloading it from
Slack's file host with the bot token (``flows/slack_files.py``), checking that the bytes are what the type
says, and handing Minds a URL it can fetch: Minds' question ``attachments`` take a ``url`` (public or
short-lived signed) or a Minds storage ``path`` — never the bytes, and the REST API has no upload for Study
attachments — so the bot serves the file itself for ``SHELF_TTL_SECONDS`` at an unguessable address under
``MINDS_BOT_PUBLIC_URL`` (``StimulusShelf``; ``app.py`` serves ``GET /stimuli/{token}``). Without a public
address nothing is downloaded and the person is told why. The plan dialog's concept to test is a message link
(``https://<team>.slack.com/archives/C…/p…``): the bot reads that message with its token (``conversations.replies``,
in a channel it is in) and takes its file.
Must not touch: Block Kit (``render/stimulus.py`` words every refusal), SQL.
"""

from __future__ import annotations

import re
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any
from urllib.parse import parse_qs, urlsplit

from slack_sdk.errors import SlackApiError

from minds_bot.flows.slack_files import Refusal, SlackFileHosts, SlackFileRefused, download_slack_file
from minds_bot.i18n import _
from minds_bot.render.stimulus import refusal_text

MAX_STIMULUS_BYTES = 10 * 1024 * 1024
SHELF_TTL_SECONDS = 3600.0  # long enough for Minds to fetch it and a Try again within the hour
SHELF_MAX_BYTES = 64 * 1024 * 1024  # the oldest files leave first when more are waiting than this
STIMULI_PATH = "/stimuli/"
KINDS = {
    "image/png": "image",
    "image/jpeg": "image",
    "image/gif": "image",
    "image/webp": "image",
    "application/pdf": "pdf",
}
_SIGNATURES: dict[str, tuple[bytes, ...]] = {
    "image/png": (b"\x89PNG\r\n\x1a\n",),
    "image/jpeg": (b"\xff\xd8\xff",),
    "image/gif": (b"GIF87a", b"GIF89a"),
    "application/pdf": (b"%PDF-",),
}


class Problem(StrEnum):
    WRONG_TYPE = "wrong_type"
    TOO_LARGE = "too_large"
    NOT_SLACK = "not_slack"
    NO_PUBLIC_URL = "no_public_url"
    NOT_THE_TYPE = "not_the_type"  # the bytes are not what the type says
    DOWNLOAD_FAILED = "download_failed"
    NO_FILE = "no_file"
    NO_MESSAGE = "no_message"
    NOT_IN_CHANNEL = "not_in_channel"
    PLAN_ONLY = "plan_only"  # a message with several questions becomes a plan, which this dialog sends without it


class StimulusRefused(Exception):
    def __init__(self, problem: Problem, *, name: str = "") -> None:
        super().__init__(problem.value)
        self.problem = problem
        self.name = name


@dataclass(frozen=True)
class SharedStimulus:
    """A file on a Slack message, as Slack described it."""

    id: str
    name: str
    url: str
    mimetype: str
    size: int | None = None

    @property
    def kind(self) -> str:
        return KINDS.get(self.mimetype, "")

    def as_list(self) -> list[Any]:
        return [self.id, self.name, self.url, self.mimetype, self.size]

    @classmethod
    def from_list(cls, value: Any) -> SharedStimulus | None:
        if not isinstance(value, list) or len(value) != 5 or not all(isinstance(v, str) for v in value[:4]):
            return None
        return cls(value[0], value[1], value[2], value[3], size=value[4] if isinstance(value[4], int) else None)


def stimulus_on(message: dict[str, Any]) -> SharedStimulus | StimulusRefused | None:
    """The first file on a Slack message as a stimulus, why it cannot be one, or None without files."""
    files = message.get("files")
    for item in files if isinstance(files, list) else []:  # a payload's files that are not a list are no files
        if not isinstance(item, dict):
            continue
        name = item.get("name") or item.get("title") or ""
        url = item.get("url_private_download") or item.get("url_private") or ""
        shared = SharedStimulus(
            id=str(item.get("id", "")),
            name=name if isinstance(name, str) else "",
            url=url if isinstance(url, str) else "",
            mimetype=str(item.get("mimetype") or "").lower(),
            size=item.get("size") if isinstance(item.get("size"), int) else None,
        )
        return refusal(shared) or shared
    return None


def refusal(shared: SharedStimulus) -> StimulusRefused | None:
    """What is wrong with the file before anything is downloaded, or None."""
    if not shared.kind:
        return StimulusRefused(Problem.WRONG_TYPE, name=shared.name)
    if shared.size is not None and shared.size > MAX_STIMULUS_BYTES:
        return StimulusRefused(Problem.TOO_LARGE, name=shared.name)
    return None


class StimulusShelf:
    """Downloaded stimuli waiting for Minds to fetch them: each at ``{base_url}/stimuli/{token}`` for
    ``SHELF_TTL_SECONDS``. In memory: the replica that downloaded a file serves it (route Minds' fetch to it)."""

    def __init__(self, base_url: str | None, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.base_url = base_url.rstrip("/") if base_url else None
        self._clock = clock
        self._files: OrderedDict[str, tuple[float, str, str, bytes]] = OrderedDict()

    def put(self, *, name: str, mimetype: str, content: bytes) -> str:
        if self.base_url is None:
            raise StimulusRefused(Problem.NO_PUBLIC_URL, name=name)
        self._forget_old()
        token = secrets.token_urlsafe(32)
        self._files[token] = (self._clock() + SHELF_TTL_SECONDS, name, mimetype, content)
        while sum(len(f[3]) for f in self._files.values()) > SHELF_MAX_BYTES and len(self._files) > 1:
            self._files.popitem(last=False)
        return f"{self.base_url}{STIMULI_PATH}{token}"

    def get(self, token: str) -> tuple[str, str, bytes] | None:
        """(name, mimetype, bytes) while the file is on the shelf."""
        self._forget_old()
        found = self._files.get(token)
        return None if found is None else found[1:]

    def _forget_old(self) -> None:
        now = self._clock()
        for token in [t for t, f in self._files.items() if f[0] <= now]:
            del self._files[token]


# --- a message link as the concept to test (the plan dialog) ------------------------------------------------

_ARCHIVES = re.compile(r"^/archives/([CGD][A-Z0-9]{2,})/p(\d{10})(\d{6})/?$")


@dataclass(frozen=True)
class MessageLink:
    channel_id: str
    ts: str
    thread_ts: str | None = None


def parse_message_link(link: str, *, slack_api_url: str) -> MessageLink | None:
    """``https://<team>.slack.com/archives/C…/p…`` (``?thread_ts=`` for a reply) as channel and ts; also the
    emulator's own links when the bot talks to it. None for anything else."""
    parts = urlsplit(link.strip().strip("<>"))
    host = (parts.hostname or "").lower()
    slack = parts.scheme == "https" and (host == "slack.com" or host.endswith(".slack.com"))
    emulator = SlackFileHosts.for_api_url(slack_api_url).emulator_origin
    if not slack and (emulator is None or (parts.scheme, host, parts.port) != emulator):
        return None
    found = _ARCHIVES.match(parts.path)
    if found is None:
        return None
    threads = parse_qs(parts.query).get("thread_ts", [])
    thread = threads[0] if threads else None
    thread_ts = thread if thread and re.fullmatch(r"\d{10}\.\d{6}", thread) else None
    return MessageLink(channel_id=found.group(1), ts=f"{found.group(2)}.{found.group(3)}", thread_ts=thread_ts)


async def stimulus_at(slack: Any, link: MessageLink) -> SharedStimulus:
    """The file on the linked message, read with the bot's token (``conversations.replies``: a channel the
    bot is in). ``StimulusRefused`` when the bot cannot read it, it has no file or the file cannot be one."""
    try:
        reply = await slack.conversations_replies(
            channel=link.channel_id,
            ts=link.thread_ts or link.ts,
            oldest=link.ts,
            latest=link.ts,
            inclusive=True,
            limit=2,
        )
    except SlackApiError as exc:
        error = exc.response.get("error") if exc.response is not None else None
        raise StimulusRefused(Problem.NOT_IN_CHANNEL if error == "not_in_channel" else Problem.NO_MESSAGE) from None
    message = next((m for m in reply.get("messages") or [] if m.get("ts") == link.ts), None)
    if message is None:
        raise StimulusRefused(Problem.NO_MESSAGE)
    found = stimulus_on(message)
    if found is None:
        raise StimulusRefused(Problem.NO_FILE)
    if isinstance(found, StimulusRefused):
        raise found
    return found


def looks_like(mimetype: str, content: bytes) -> bool:
    if mimetype == "image/webp":
        return content[:4] == b"RIFF" and content[8:12] == b"WEBP"
    return content.startswith(_SIGNATURES.get(mimetype, (b"\x00\x00never",)))


async def fetch(
    shelf: StimulusShelf, shared: SharedStimulus, *, token: str | None, slack_api_url: str
) -> dict[str, str]:
    """Download the file from Slack and put it where Minds can fetch it; the question attachment
    ``{url, name, type}`` to send. ``StimulusRefused`` says why not."""
    if (early := refusal(shared)) is not None:
        raise early
    if shelf.base_url is None:
        raise StimulusRefused(Problem.NO_PUBLIC_URL, name=shared.name)
    try:
        content = await download_slack_file(
            shared.url,
            token=token,
            hosts=SlackFileHosts.for_api_url(slack_api_url),
            max_bytes=MAX_STIMULUS_BYTES,
            reported_size=shared.size,
        )
    except SlackFileRefused as exc:
        problem = {
            Refusal.NOT_SLACK: Problem.NOT_SLACK,
            Refusal.REDIRECT_OFF_HOST: Problem.NOT_SLACK,
            Refusal.TOO_LARGE: Problem.TOO_LARGE,
        }.get(exc.reason, Problem.DOWNLOAD_FAILED)
        raise StimulusRefused(problem, name=shared.name) from None
    if not looks_like(shared.mimetype, content):
        raise StimulusRefused(Problem.NOT_THE_TYPE, name=shared.name)
    url = shelf.put(name=shared.name, mimetype=shared.mimetype, content=content)
    return {"url": url, "name": shared.name, "type": shared.mimetype}


async def attach(services: Any, slack: Any, shared: SharedStimulus) -> list[dict[str, str]]:
    """``fetch`` with this bot's shelf, token and Slack: the attachments to send (``StimulusRefused`` if not)."""
    return [
        await fetch(
            services.stimuli,
            shared,
            token=getattr(slack, "token", None),
            slack_api_url=services.settings.slack_api_url,
        )
    ]


async def linked_stimulus(services: Any, slack: Any, text: str | None) -> SharedStimulus | str | None:
    """The plan dialog's concept to test: the file on the linked message, what is wrong with it in the person's
    words (said beside the link while the dialog stays open), or None when no link was given."""
    if not text:
        return None
    link = parse_message_link(text, slack_api_url=services.settings.slack_api_url)
    if link is None:
        return _("Paste a Slack message's link (“Copy link” on the message): https://…slack.com/archives/…")
    try:
        shared = await stimulus_at(slack, link)
    except StimulusRefused as exc:
        return refusal_text(exc.problem.value, name=exc.name, limit=MAX_STIMULUS_BYTES)
    if services.stimuli is None or services.stimuli.base_url is None:
        return refusal_text(Problem.NO_PUBLIC_URL.value, name=shared.name, limit=MAX_STIMULUS_BYTES)
    return shared
