"""A tiny fake Slack Web API on 127.0.0.1 for listener tests: answers auth.test (its ``url``, the workspace's
address, is this fake's own origin), records every call,
and accepts ``response_url`` posts so tests can await what the bot said.

Opt-in extras (defaults keep the original behaviour): ``unique_ts`` gives every posted message its own ts,
``users`` answers users.info, views.open/update return a view id, the files_upload_v2 trio
(getUploadURLExternal, the upload URL, completeUploadExternal) keeps uploaded bytes in ``uploads``, and
``wait_for`` awaits a matching call, ``share_file`` shares a file (files.info describes it, ``downloads`` records
each download). ``channel_members`` answers conversations.members (paged by ``limit``)
and conversations.info's ``is_member`` (the bot is ``UBOT``); ``unreadable`` answers a method with a body that is
not JSON (an HTML error page); a channel not listed has ``DEFAULT_MEMBERS`` and
everyone the test acted as (``acting``: the harness adds each person it sends a request for, so an ordinary
channel holds whoever uses it); ``users.conversations`` lists the channels a person is in of ``channels`` (the
harness's channel) and those listed; a private channel (``G…``) without the bot is ``channel_not_found`` to it, as in
Slack (conversations.info says ``is_private`` for ``G…``). ``conversations.open`` names the person's DM with the
bot ``D<user id>``.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl

from aiohttp import web

FIXED_TS = "1733140000.000100"
BOT_USER = "UBOT"
DEFAULT_MEMBERS = ("U0001", BOT_USER)  # the harness's default user and the bot
WAIT_SECONDS = WAIT_TIMEOUT = 10.0

Call = tuple[str, dict[str, Any]]


@dataclass
class FakeSlack:
    base_url: str = ""
    calls: list[Call] = field(default_factory=list)
    responses: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)
    unique_ts: bool = False
    users: dict[str, dict[str, Any]] = field(default_factory=dict)
    uploads: dict[str, bytes] = field(default_factory=dict)
    # Files people shared (served at ``file_url(name)``), and the Authorization header each download carried.
    shared: dict[str, bytes] = field(default_factory=dict)
    downloads: list[str | None] = field(default_factory=list)
    # What files.info says of each shared file, by id (``share_file`` adds one; any other is file_not_found).
    files: dict[str, dict[str, Any]] = field(default_factory=dict)
    fail_auth: bool = False  # auth.test answers invalid_auth
    _changed: asyncio.Condition = field(default_factory=asyncio.Condition)
    _ts: itertools.count = field(default_factory=lambda: itertools.count(101))
    _files: itertools.count = field(default_factory=lambda: itertools.count(1))
    # Every Web API call as it arrives, so a test can await a call made after the ack.
    arrivals: asyncio.Queue[Call] = field(default_factory=asyncio.Queue)
    # Canned JSON per Web API method (e.g. "users.info"), answered instead of the generic reply.
    replies: dict[str, dict[str, Any]] = field(default_factory=dict)
    # Answers that are not Slack's JSON, per method: (HTTP status, content type, body), e.g. an HTML error page.
    unreadable: dict[str, tuple[int, str, str]] = field(default_factory=dict)
    # Web API methods answered with HTTP 429 (Retry-After: 0) this many more times before they succeed.
    throttled: dict[str, int] = field(default_factory=dict)
    throttled_answers: int = 0
    # Who is in which channel (conversations.members / conversations.info); see the module docstring.
    channel_members: dict[str, list[str]] = field(default_factory=dict)
    acting: set[str] = field(default_factory=set)  # who the test acted as: members of every channel not listed
    # Channels that exist besides those in ``channel_members`` (users.conversations lists the ones a person is in).
    channels: list[str] = field(default_factory=lambda: ["C0001"])

    def members_of(self, channel: str) -> list[str]:
        listed = self.channel_members.get(channel)
        if listed is not None:
            return listed
        return [*DEFAULT_MEMBERS, *sorted(self.acting - set(DEFAULT_MEMBERS))]

    async def next_call(self, method: str) -> dict[str, Any]:
        """Await the next call to ``method`` (other calls that arrive first are skipped), for at most 10 s."""
        async with asyncio.timeout(WAIT_TIMEOUT):
            while True:
                name, args = await self.arrivals.get()
                if name == method:
                    return args

    @property
    def api_url(self) -> str:
        return f"{self.base_url}/api/"

    def response_url(self, name: str = "1") -> str:
        return f"{self.base_url}/respond/{name}"

    def file_url(self, name: str) -> str:
        return f"{self.base_url}/files-pri/{name}"

    def share_file(self, file_id: str, name: str, content: bytes, *, mimetype: str = "image/png") -> dict[str, Any]:
        """A file someone shared: served at ``file_url(file_id)``, described by files.info; its JSON (for a
        message's ``files``)."""
        self.shared[file_id] = content
        url = self.file_url(file_id)
        described = {"id": file_id, "name": name, "mimetype": mimetype, "size": len(content)}
        self.files[file_id] = described | {"url_private": url, "url_private_download": url}
        return self.files[file_id]

    def calls_to(self, method: str) -> list[dict[str, Any]]:
        return [args for name, args in self.calls if name == method]

    async def wait_for(
        self,
        method: str,
        predicate: Callable[[dict[str, Any]], bool] = lambda _: True,
        *,
        count: int = 1,
        within: float = WAIT_TIMEOUT,
    ) -> list[dict[str, Any]]:
        """Wait until ``count`` calls to ``method`` match ``predicate``; returns the matching calls."""

        def matching() -> list[dict[str, Any]]:
            return [args for args in self.calls_to(method) if predicate(args)]

        async def until() -> list[dict[str, Any]]:
            async with self._changed:
                await self._changed.wait_for(lambda: len(matching()) >= count)
            return matching()

        return await asyncio.wait_for(until(), within)

    async def _record(self, method: str, args: dict[str, Any]) -> None:
        async with self._changed:
            self.calls.append((method, args))
            self._changed.notify_all()

    def _next_ts(self) -> str:
        return f"1733140000.{next(self._ts):06d}" if self.unique_ts else FIXED_TS


async def _body(request: web.Request) -> dict[str, Any]:
    if request.method == "GET":  # slack_sdk sends a few read methods (users.info) as GET with a query string
        return dict(request.query)
    raw = await request.text()
    query = dict(request.query)  # slack_sdk sends some methods' arguments (files.*) as a query string
    if request.content_type == "application/json":
        return {**query, **json.loads(raw or "{}")}
    return {**query, **dict(parse_qsl(raw))}


# What oauth.v2.access answers for a bot install into team T0001 by user U0001.
OAUTH_ACCESS = {
    "ok": True,
    "app_id": "A0001",
    "authed_user": {"id": "U0001"},
    "scope": "commands,chat:write",
    "token_type": "bot",
    "access_token": "xoxb-installed-bot-token",
    "bot_user_id": "UBOT",
    "team": {"id": "T0001", "name": "Acme"},
    "enterprise": None,
    "is_enterprise_install": False,
}


def _reply(fake: FakeSlack, method: str, args: dict[str, Any]) -> dict[str, Any]:
    if method == "oauth.v2.access":
        return OAUTH_ACCESS
    if method == "auth.test" and fake.fail_auth:
        return {"ok": False, "error": "invalid_auth"}
    if method == "auth.test":
        return {
            "ok": True,
            "url": f"{fake.base_url}/",  # the workspace's own address: its message links are on this origin
            "team": "Acme",
            "team_id": "T0001",
            "user": "minds",
            "user_id": "UBOT",
            "bot_id": "B1",
        }
    if method == "files.info":
        found = fake.files.get(str(args.get("file")))
        return {"ok": True, "file": found} if found is not None else {"ok": False, "error": "file_not_found"}
    if method == "users.info":
        user = fake.users.get(str(args.get("user")))
        return {"ok": True, "user": user} if user is not None else {"ok": False, "error": "user_not_found"}
    if method == "files.getUploadURLExternal":
        file_id = f"F{next(fake._files):04d}"
        return {"ok": True, "file_id": file_id, "upload_url": f"{fake.base_url}/upload/{file_id}"}
    if method == "files.completeUploadExternal":
        files = args.get("files")
        files = json.loads(files) if isinstance(files, str) else files or []
        return {"ok": True, "files": [{"id": f.get("id"), "title": f.get("title")} for f in files]}
    if method == "conversations.open":
        return {"ok": True, "channel": {"id": f"D{args.get('users')}"}}
    if method in ("conversations.members", "conversations.info"):
        return _conversation(fake, method, args)
    if method == "users.conversations":
        return _conversations_of(fake, str(args.get("user")))
    if method in ("views.open", "views.update", "views.push"):
        return {"ok": True, "view": {"id": "V0001"}}
    if method == "chat.update" and fake.unique_ts:
        return {"ok": True, "ts": args.get("ts", FIXED_TS), "channel": args.get("channel", "C0001")}
    return {"ok": True, "ts": fake._next_ts(), "channel": args.get("channel", "C0001")}


def _conversation(fake: FakeSlack, method: str, args: dict[str, Any]) -> dict[str, Any]:
    channel = str(args.get("channel"))
    members = fake.members_of(channel)
    if channel.startswith("G") and BOT_USER not in members:
        return {"ok": False, "error": "channel_not_found"}
    if method == "conversations.info":
        private = channel.startswith("G")
        return {"ok": True, "channel": {"id": channel, "is_member": BOT_USER in members, "is_private": private}}
    start, limit = int(args.get("cursor") or 0), int(args.get("limit") or 100)
    more = start + limit < len(members)
    return {
        "ok": True,
        "members": members[start : start + limit],
        "response_metadata": {"next_cursor": str(start + limit) if more else ""},
    }


def _conversations_of(fake: FakeSlack, user: str) -> dict[str, Any]:
    """The channels ``user`` is in, of ``channels`` and those listed in ``channel_members`` (one page)."""
    known = dict.fromkeys([*fake.channels, *fake.channel_members])
    found = [{"id": c, "is_private": c.startswith("G")} for c in known if user in fake.members_of(c)]
    return {"ok": True, "channels": found, "response_metadata": {"next_cursor": ""}}


@asynccontextmanager
async def fake_slack(*, unique_ts: bool = False) -> AsyncIterator[FakeSlack]:
    fake = FakeSlack(unique_ts=unique_ts)

    async def api(request: web.Request) -> web.Response:
        method = request.match_info["method"]
        if fake.throttled.get(method, 0) > 0:
            fake.throttled[method] -= 1
            fake.throttled_answers += 1
            return web.json_response({"ok": False, "error": "ratelimited"}, status=429, headers={"Retry-After": "0"})
        args = await _body(request)
        reply = fake.replies.get(method) or _reply(fake, method, args)
        await fake._record(method, args)
        fake.arrivals.put_nowait((method, args))
        if method in fake.unreadable:
            status, content_type, text = fake.unreadable[method]
            return web.Response(status=status, content_type=content_type, text=text)
        return web.json_response(reply)

    async def respond(request: web.Request) -> web.Response:
        await fake.responses.put(await _body(request))
        return web.Response(text="ok")

    async def upload(request: web.Request) -> web.Response:
        fake.uploads[request.match_info["file_id"]] = await request.read()
        return web.Response(text="OK")

    async def shared_file(request: web.Request) -> web.Response:
        fake.downloads.append(request.headers.get("Authorization"))
        content = fake.shared.get(request.match_info["name"])
        return web.Response(body=content) if content is not None else web.Response(status=404)

    app = web.Application(client_max_size=64 * 1024 * 1024)
    app.router.add_route("*", "/api/{method}", api)
    app.router.add_post("/respond/{name}", respond)
    app.router.add_post("/upload/{file_id}", upload)
    app.router.add_get("/files-pri/{name}", shared_file)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    fake.base_url = f"http://127.0.0.1:{runner.addresses[0][1]}"
    try:
        yield fake
    finally:
        await runner.cleanup()
