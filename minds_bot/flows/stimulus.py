"""A file shared in Slack as the stimulus of a question or a plan (issue 27, "Test what was shared in Slack").

Owns: which shared file qualifies (PNG, JPEG, GIF, WebP or PDF, at most ``MAX_STIMULUS_BYTES`` = 10 MB — Minds
documents no limit of its own for question attachments; its file fetches stop at 50 MB), reading it from Slack
by its id (``files.info``) and downloading it with the bot token (``flows/slack_files.py``), checking that the
bytes are what the type says, and handing Minds a URL it can fetch: Minds' question ``attachments`` take a ``url``
(public or short-lived signed) or a Minds storage ``path`` — never the bytes, and the REST API has no upload for
Study attachments — so the bot serves the file itself at an unguessable address under ``MINDS_BOT_PUBLIC_URL``
(``StimulusShelf``; ``app.py`` serves ``GET /stimuli/{token}``). Without a public address nothing is downloaded
and the person is told why.

When: a file is downloaded only after the request was allowed (callers ask the gate first: ``flows/ask.py``'s
consent, the plan dialog's link check in ``flows/stimulus_link.py``), and it stays on the shelf only while Minds
may still fetch it: its owner (the ask's ``clientRequestId``, the plan's preview key) ``release``s it when Minds
settled the POST (accepted, refused for good, the plan's first revision published or refused), and at the latest
after ``SHELF_TTL_SECONDS``. What a question saves carries the file's Slack id (``SLACK_FILE``, never sent to
Minds: ``for_minds``), so a Try again or a restart after the file left puts it back at the same address from Slack
(``restock``). Names are shortened with a visible "…" (``short_name``) before they go to Minds or into a dialog's
``private_metadata``; the bot keeps what it needs by id.
Must not touch: Block Kit (``render/stimulus.py`` words every refusal), SQL, who may use a file (the gate's).
"""

from __future__ import annotations

import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from slack_sdk.errors import SlackApiError

from minds_bot.flows.slack_files import Refusal, SlackFileHosts, SlackFileRefused, download_slack_file
from minds_bot.render.errors import slack_error
from minds_bot.render.stimulus import refusal_text

MAX_STIMULUS_BYTES = 10 * 1024 * 1024
# The most a file waits for Minds: Minds fetches a stimulus when it accepts the question or starts drafting the
# plan (seconds), and the file leaves as soon as that is settled; this bounds a POST that never settles.
SHELF_TTL_SECONDS = 600.0
SHELF_MAX_BYTES = 64 * 1024 * 1024  # the oldest files leave first when more are waiting than this
STIMULI_PATH = "/stimuli/"
MAX_STIMULUS_NAME = 200  # a file name as sent to Minds and kept in a dialog's metadata (Slack allows far longer)
MAX_EXTENSION = 10  # ".png", ".pdf": kept after the "…" of a shortened name
MAX_FILE_ID = 40  # Slack's file ids are "F" and a dozen letters and digits
SLACK_FILE = "slack_file"  # the saved attachment's Slack file id: the bot's, never sent to Minds
MINDS_KEYS = ("url", "path", "name", "type")  # what Minds' StudyAttachment takes
GONE_ERRORS = ("file_not_found", "file_deleted")
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
    GONE = "gone"  # the file was deleted from Slack (or the bot can no longer see it)
    NO_FILE = "no_file"
    NO_MESSAGE = "no_message"
    NOT_IN_CHANNEL = "not_in_channel"
    PLAN_ONLY = "plan_only"  # a message with several questions becomes a plan, which this dialog sends without it
    NOT_A_LINK = "not_a_link"  # the plan dialog's concept to test is not a Slack message's link
    OTHER_WORKSPACE = "other_workspace"  # … it is a message link of another Slack workspace
    NOT_MEMBER = "not_member"  # the person is not in the linked message's channel (the gate)
    PRIVATE_ELSEWHERE = "private_elsewhere"  # the message is in a private channel, the plan goes elsewhere (the gate)


class StimulusRefused(Exception):
    def __init__(self, problem: Problem, *, name: str = "") -> None:
        super().__init__(problem.value)
        self.problem = problem
        self.name = name


def short_name(name: str, limit: int = MAX_STIMULUS_NAME) -> str:
    """``name`` in at most ``limit`` characters: a visible "…" before its extension when it is longer."""
    if len(name) <= limit:
        return name
    dot = name.rfind(".")
    extension = name[dot:] if dot > 0 and len(name) - dot <= MAX_EXTENSION else ""
    return name[: limit - 1 - len(extension)].rstrip() + "…" + extension


@dataclass(frozen=True)
class SharedStimulus:
    """A file on a Slack message, as Slack described it (``url`` "" when only its id is known: ``ref``)."""

    id: str
    name: str
    url: str
    mimetype: str
    size: int | None = None

    @property
    def kind(self) -> str:
        return KINDS.get(self.mimetype, "")

    def ref(self) -> list[Any]:
        """What a dialog's metadata or a held request keeps: the id, a shortened name to show, the type and size.
        The download address is asked from Slack by the id when the file is needed (``files.info``)."""
        return [self.id, short_name(self.name), self.mimetype, self.size]

    @classmethod
    def from_ref(cls, value: Any) -> SharedStimulus | None:
        if not isinstance(value, list) or len(value) != 4 or not all(isinstance(v, str) for v in value[:3]):
            return None
        if not _file_id(value[0]) or value[2] not in KINDS:
            return None
        return cls(value[0], value[1], "", value[2], size=value[3] if isinstance(value[3], int) else None)


def _file_id(value: str) -> bool:
    return 1 < len(value) <= MAX_FILE_ID and value[0] == "F" and value.isascii() and value.isalnum()


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
    if not _file_id(shared.id):  # not a file Slack keeps: nothing to read back by its id
        return StimulusRefused(Problem.NOT_SLACK, name=shared.name)
    return None


@dataclass(frozen=True)
class _Shelved:
    until: float
    owner: str
    name: str
    mimetype: str
    content: bytes


class StimulusShelf:
    """Downloaded stimuli waiting for Minds to fetch them, each at ``{base_url}/stimuli/{token}`` until its owner
    ``release``s it or ``SHELF_TTL_SECONDS`` passed. In memory: the replica that downloaded a file serves it (route
    Minds' fetch to it)."""

    def __init__(self, base_url: str | None, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.base_url = base_url.rstrip("/") if base_url else None
        self._clock = clock
        self._files: OrderedDict[str, _Shelved] = OrderedDict()

    def put(self, *, name: str, mimetype: str, content: bytes, owner: str, token: str | None = None) -> str:
        """The file's address; ``token`` puts a file back where it was (a Try again after it left)."""
        if self.base_url is None:
            raise StimulusRefused(Problem.NO_PUBLIC_URL, name=name)
        self._forget_old()
        token = token or secrets.token_urlsafe(32)
        self._files[token] = _Shelved(self._clock() + SHELF_TTL_SECONDS, owner, name, mimetype, content)
        while sum(len(f.content) for f in self._files.values()) > SHELF_MAX_BYTES and len(self._files) > 1:
            self._files.popitem(last=False)
        return f"{self.base_url}{STIMULI_PATH}{token}"

    def get(self, token: str) -> tuple[str, str, bytes] | None:
        """(name, mimetype, bytes) while the file is on the shelf."""
        self._forget_old()
        found = self._files.get(token)
        return None if found is None else (found.name, found.mimetype, found.content)

    def token_of(self, url: str) -> str | None:
        """The token of one of this shelf's addresses (whether or not its file is still here)."""
        prefix = f"{self.base_url}{STIMULI_PATH}" if self.base_url else None
        if prefix is None or not url.startswith(prefix) or "/" in url[len(prefix) :]:
            return None
        return url[len(prefix) :] or None

    def __len__(self) -> int:
        """How many files wait for Minds now."""
        self._forget_old()
        return len(self._files)

    def release(self, owner: str) -> int:
        """Minds no longer needs ``owner``'s files: they leave now (their addresses answer 404). How many left."""
        gone = [token for token, shelved in self._files.items() if shelved.owner == owner]
        for token in gone:
            del self._files[token]
        return len(gone)

    def _forget_old(self) -> None:
        now = self._clock()
        for token in [t for t, f in self._files.items() if f.until <= now]:
            del self._files[token]


def looks_like(mimetype: str, content: bytes) -> bool:
    if mimetype == "image/webp":
        return content[:4] == b"RIFF" and content[8:12] == b"WEBP"
    return content.startswith(_SIGNATURES.get(mimetype, (b"\x00\x00never",)))


async def file_info(slack: Any, shared: SharedStimulus) -> SharedStimulus:
    """The file as Slack describes it now (``files.info`` by its id): its download address, name, type and size.
    ``StimulusRefused`` when it is gone or no longer qualifies."""
    try:
        reply = await slack.files_info(file=shared.id)
    except SlackApiError as exc:
        error = slack_error(exc)
        problem = Problem.GONE if error in GONE_ERRORS else Problem.DOWNLOAD_FAILED
        raise StimulusRefused(problem, name=shared.name) from None
    found = stimulus_on({"files": [reply.get("file")]})
    if found is None:
        raise StimulusRefused(Problem.GONE, name=shared.name)
    if isinstance(found, StimulusRefused):
        raise found
    return found


async def fetch(
    shelf: StimulusShelf,
    shared: SharedStimulus,
    *,
    token: str | None,
    slack_api_url: str,
    owner: str,
    at: str | None = None,
) -> dict[str, str]:
    """Download the file from Slack and put it where Minds can fetch it (``at``: the shelf token it had); the
    question attachment ``{url, name, type}`` to send, with its Slack id. ``StimulusRefused`` says why not."""
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
    name = short_name(shared.name)
    url = shelf.put(name=name, mimetype=shared.mimetype, content=content, owner=owner, token=at)
    return {"url": url, "name": name, "type": shared.mimetype, SLACK_FILE: shared.id}


async def attach(services: Any, slack: Any, shared: SharedStimulus, *, owner: str) -> list[dict[str, str]]:
    """``fetch`` with this bot's shelf, token and Slack (the file read by its id first when only that is known):
    the attachments to save with the request (``StimulusRefused`` if not). Call it only once the request may go."""
    if services.stimuli is None or services.stimuli.base_url is None:
        raise StimulusRefused(Problem.NO_PUBLIC_URL, name=shared.name)
    if (early := refusal(shared)) is not None:
        raise early
    current = shared if shared.url else await file_info(slack, shared)
    return [
        await fetch(
            services.stimuli,
            current,
            token=getattr(slack, "token", None),
            slack_api_url=services.settings.slack_api_url,
            owner=owner,
        )
    ]


async def attach_or_refusal(
    services: Any, slack: Any, shared: SharedStimulus, *, owner: str
) -> list[dict[str, str]] | str:
    """``attach``, or why the file cannot go in the person's words."""
    try:
        return await attach(services, slack, shared, owner=owner)
    except StimulusRefused as exc:
        return refusal_text(exc.problem.value, name=exc.name, limit=MAX_STIMULUS_BYTES)


def for_minds(attachments: Sequence[dict[str, str]] | None) -> list[dict[str, str]] | None:
    """The attachments as Minds takes them: the bot's own keys (the Slack file id) left out."""
    if not attachments:
        return None
    return [{k: v for k, v in a.items() if k in MINDS_KEYS} for a in attachments]


async def restock(services: Any, slack: Any, attachments: Sequence[dict[str, str]] | None, *, owner: str) -> None:
    """Before a saved question is sent (again): each of its files that left the shelf (the time bound passed, or
    the bot restarted) is read from Slack again by its id and put back at the same address, so the request Minds
    sees is the same. ``StimulusRefused`` when one cannot be."""
    shelf = services.stimuli
    for attachment in attachments or []:
        file_id = attachment.get(SLACK_FILE)
        token = shelf.token_of(attachment.get("url", "")) if shelf is not None else None
        if not file_id or token is None or shelf.get(token) is not None:
            continue
        known = SharedStimulus(file_id, attachment.get("name", ""), "", attachment.get("type", ""))
        current = await file_info(slack, known)
        await fetch(
            shelf,
            current,
            token=getattr(slack, "token", None),
            slack_api_url=services.settings.slack_api_url,
            owner=owner,
            at=token,
        )


def release(services: Any, owner: str) -> None:
    """Minds settled ``owner``'s request: its files leave the shelf (their addresses answer 404 from now on)."""
    if services.stimuli is not None:
        services.stimuli.release(owner)


def release_when_drafted(services: Any) -> Callable[[Any, Any, str | None], Awaitable[None]]:
    """A ``PlanPreparation.ended`` listener: a new plan's first revision arrived or was refused, so Minds has
    fetched (or will never fetch) its concept to test — its file leaves the shelf (owner: the preview key)."""

    async def drafted(run: Any, _post: Any, _refused: str | None) -> None:
        release(services, run.run_id)

    return drafted
