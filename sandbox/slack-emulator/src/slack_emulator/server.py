"""Assembly of the Slack emulator: the aiohttp application, the in-process runner and the drive API.

Owns wiring (state, workspace, Web API, interactions, page) and the ``Emulator`` handle tests use.
Must not contain Slack semantics; those live in ``workspace``, ``webapi`` and ``interactions``.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import urlsplit

import aiohttp
from aiohttp import web

from slack_emulator import pages
from slack_emulator.config import EmulatorConfig
from slack_emulator.errors import SlackError
from slack_emulator.ids import IdFactory, ts_key
from slack_emulator.interactions import Delivery, Interactions
from slack_emulator.mentions import Named, encode
from slack_emulator.pace import SlackPace
from slack_emulator.state import (
    Ephemeral,
    FunctionExecution,
    Message,
    StepSpec,
    View,
    WorkspaceState,
)
from slack_emulator.webapi import RateLimiter, WebApi
from slack_emulator.workspace import Links, Workspace, links_in, parse_content

Json = dict[str, Any]
EMULATOR_KEY: web.AppKey[Emulator] = web.AppKey("slack_emulator")
DEFAULT_WAIT_SECONDS = 5.0
# What Slack answers for a file's url_private without the app's token: its sign-in page, not the file.
SIGN_IN_PAGE = (
    "<!DOCTYPE html><html><head><title>Sign in | Slack</title></head><body>Sign in to your workspace</body></html>"
)


class Emulator:
    """One emulated workspace: its aiohttp app, its state, and methods that act as a Slack user would."""

    def __init__(self, config: EmulatorConfig) -> None:
        self.config = config
        clock = config.clock or time.time
        self.links = Links(base=f"http://{config.host}:{config.port}")
        self.ids = IdFactory(clock=clock)
        self.state = WorkspaceState(
            users=config.users, channels=config.channels, clock=clock, team_locale=config.team_locale
        )
        self.workspace = Workspace(config=config, state=self.state, ids=self.ids, links=self.links, clock=clock)
        self.limiter = RateLimiter(config.ratelimited_methods)
        self.pace = SlackPace(clock) if config.slack_limits else None
        self.web_api = WebApi(workspace=self.workspace, limiter=self.limiter, pace=self.pace)
        self.interactions = Interactions(workspace=self.workspace, clock=clock)
        self.shortcuts: tuple[tuple[str, str], ...] = ()
        self.unfurl_domains: tuple[str, ...] = ()
        self.escaped_commands: frozenset[str] = frozenset()
        self.steps: tuple[StepSpec, ...] = ()
        self.app = self._build_app()

    @property
    def base_url(self) -> str:
        return self.links.base

    @property
    def api_url(self) -> str:
        return f"{self.links.base}/api/"

    # ---- application

    async def _release_long_polls(self, app: web.Application) -> None:
        """Answer the page's waiting long-polls now, so stopping does not wait out their 20 s."""
        self.state.touch()

    def _build_app(self) -> web.Application:
        app = web.Application(client_max_size=100 * 1024 * 1024)
        app[EMULATOR_KEY] = self
        app.cleanup_ctx.append(self._http_session)
        app.on_shutdown.append(self._release_long_polls)
        app.router.add_route("*", "/api/{method}", self.web_api.handle)
        app.router.add_post("/_emulator/upload/{file_id}", self._upload)
        app.router.add_get("/_emulator/files/{file_id}/{name}", self._download)
        app.router.add_post("/_emulator/response/{token}", self._response_url)
        app.router.add_post("/_emulator/ratelimit", self._set_rate_limit)
        app.router.add_delete("/_emulator/ratelimit", self._clear_rate_limit)
        pages.add_routes(app, self)
        return app

    async def _http_session(self, app: web.Application) -> AsyncIterator[None]:
        async with aiohttp.ClientSession() as session:
            self.interactions.session = session
            yield
            self.interactions.session = None

    async def _upload(self, request: web.Request) -> web.Response:
        stored = self.state.files.get(request.match_info["file_id"])
        if stored is None:
            return web.Response(status=404, text="file_not_found")
        if request.content_type.startswith("multipart/"):
            form = await request.post()
            part = next((v for v in form.values() if isinstance(v, web.FileField)), None)
            content = part.file.read() if part is not None else b""
        else:
            content = await request.read()
        self.state.store_file_content(stored, content)
        return web.Response(text=f"OK - {len(content)}", content_type="text/plain")

    async def _download(self, request: web.Request) -> web.Response:
        """A file's ``url_private``: as in Slack, an app reads it with its token (``Authorization: Bearer``); the
        page in the browser is the signed-in person. Without either, Slack's sign-in page, not the file."""
        if not self._may_download(request):
            return web.Response(text=SIGN_IN_PAGE, content_type="text/html")
        stored = self.state.files.get(request.match_info["file_id"])
        if stored is None or stored.content is None:
            return web.Response(status=404, text="file_not_found")
        mimetype = self.workspace.file_json(stored)["mimetype"]
        shown = "inline" if mimetype.startswith("image/") else "attachment"  # the page shows images in place
        disposition = f'{shown}; filename="{stored.name}"'
        return web.Response(body=stored.content, content_type=mimetype, headers={"Content-Disposition": disposition})

    def _may_download(self, request: web.Request) -> bool:
        scheme, _, token = request.headers.get("Authorization", "").partition(" ")
        if scheme.lower() == "bearer" and token:
            known = token == self.config.bot_token or token in self.config.installs
            return known or self.workspace.function_token_team(token) is not None
        # The page (its <img> and download links) or the address typed into the browser.
        return request.headers.get("Sec-Fetch-Site") in ("same-origin", "none")

    async def _response_url(self, request: web.Request) -> web.Response:
        try:
            body = await request.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            return web.json_response({"ok": False, "error": "invalid_payload"}, status=400)
        try:
            return web.json_response(self.interactions.respond(request.match_info["token"], body))
        except SlackError as exc:
            self.state.warn(error=exc.error, detail="response_url post refused", user=None)
            return web.json_response(exc.body(), status=exc.status if exc.status != 200 else 400)

    async def _set_rate_limit(self, request: web.Request) -> web.Response:
        body = await request.json()
        method, count = body.get("method"), body.get("count", 1)
        if not isinstance(method, str) or not (count is None or isinstance(count, int)):
            return web.json_response({"ok": False, "error": "invalid_arguments"}, status=400)
        self.rate_limit(method, retry_after=int(body.get("retry_after", 1)), count=count)
        return web.json_response({"ok": True, "limits": self.limiter.snapshot()})

    async def _clear_rate_limit(self, request: web.Request) -> web.Response:
        self.limiter.clear(request.query.get("method"))
        return web.json_response({"ok": True, "limits": self.limiter.snapshot()})

    def connect_bot(
        self,
        events_url: str,
        *,
        shortcuts: Sequence[tuple[str, str]] = (),
        unfurl_domains: Sequence[str] = (),
        escaped_commands: Sequence[str] = (),
        steps: Sequence[StepSpec] = (),
    ) -> None:
        """Send Slack's requests to ``events_url`` from now on (for bots whose port is known only later).
        ``shortcuts`` are the app's message shortcuts, (callback id, name), ``unfurl_domains`` its link
        domains and ``escaped_commands`` its slash commands with ``should_escape`` on, as its manifest declares
        them: the page offers the shortcuts in each message's ⋯ menu, a person's message with a link on one of
        the domains is announced to the app (``link_shared``), and an escaped command's ``@chloe`` arrives as
        ``<@U…|chloe>``. ``steps`` are its workflow steps: the page offers to run each, and
        ``functions.completeSuccess`` without one of a step's outputs is refused (``parameter_validation_failed``)."""
        self.interactions.bot_events_url = events_url
        self.steps = tuple(steps)
        self.web_api.function_outputs = {step.callback_id: step.outputs for step in self.steps}
        self.shortcuts = tuple(shortcuts)
        self.unfurl_domains = tuple(d.lower() for d in unfurl_domains)
        self.escaped_commands = frozenset(escaped_commands)

    def _encode_mentions(self, text: str, *, bar_names: bool) -> str:
        people = [Named(u.id, (u.name,)) for u in self.state.users.values()]
        people.append(Named(self.config.bot_user_id, (self.config.bot_name,)))
        channels = [Named(c.id, (c.name,)) for c in self.state.channels.values() if c.im_user is None]
        return encode(text, people=people, channels=channels, bar_names=bar_names)

    # ---- drive API: act as a user

    async def send_slash_command(self, *, user: str, channel: str, text: str, command: str = "/minds") -> Delivery:
        """Type ``command text`` as ``user``: with the command's escaping on, ``@chloe`` and ``#research`` reach
        the app as ``<@U…|chloe>`` and ``<#C…|research>``, as Slack sends them."""
        if command in self.escaped_commands:
            text = self._encode_mentions(text, bar_names=True)
        return await self.interactions.send_slash_command(user=user, channel=channel, text=text, command=command)

    async def post_message(self, *, user: str, channel: str, text: str, thread_ts: str | None = None) -> Message:
        """Type a message (or, with ``thread_ts``, a reply in the thread of any message) as ``user``; the bot
        hears it as Slack's ``message`` event when it is in the channel. ``@chloe`` becomes ``<@U…>`` and
        ``#research`` ``<#C…>``, as Slack's client sends them; unknown names stay as typed."""
        ws = self.workspace
        message = ws.post_message(
            channel=ws.channel(channel),
            content=parse_content({"text": self._encode_mentions(text, bar_names=False)}),
            user=user,
            thread_ts=thread_ts,
            check_membership=False,
        )
        await self.interactions.message_event(message)
        await self.interactions.link_shared(message, self._unfurlable(message.text))
        return message

    def _unfurlable(self, text: str) -> list[tuple[str, str]]:
        found = []
        for url in links_in(text):
            host = (urlsplit(url).hostname or "").lower()
            domain = next((d for d in self.unfurl_domains if host == d or host.endswith("." + d)), None)
            if domain is not None:
                found.append((domain, url))
        return found

    async def run_function(
        self, *, callback_id: str, inputs: Json, user: str, scheduled: bool = False
    ) -> tuple[FunctionExecution, Delivery]:
        """A workflow ``user`` started reaches the app's step ``callback_id`` with ``inputs``: the app hears
        ``function_executed``; the step runs until the app completes it (``wait_for_function``). The step's
        user_context inputs are Slack's to fill, as ``{"id": user, "secret": …}`` (whatever was typed for them is
        dropped); ``scheduled``: a workflow no person started, so Slack has nobody to fill them with."""
        spec = next((s for s in self.steps if s.callback_id == callback_id), None)
        filled = spec.user_context if spec is not None else ()
        given = {name: value for name, value in inputs.items() if name not in filled}
        if not scheduled:
            given |= {name: self.workspace.user_context(user) for name in filled}
        execution = self.workspace.start_function(callback_id=callback_id, inputs=given)
        return execution, await self.interactions.function_executed(execution, user=user)

    async def wait_for_function(
        self,
        execution_id: str,
        *,
        timeout: float = DEFAULT_WAIT_SECONDS,  # noqa: ASYNC109
    ) -> FunctionExecution:
        """The step once the app completed it (successfully or with an error)."""

        def done() -> FunctionExecution | None:
            execution = self.state.functions.get(execution_id)
            return execution if execution is not None and execution.status != "running" else None

        return await self.wait_for(done, timeout=timeout)

    async def open_home(self, *, user: str) -> Delivery:
        """``user`` opens the app's Home tab: the app hears ``app_home_opened``."""
        return await self.interactions.home_opened(user)

    async def message_shortcut(self, *, user: str, callback_id: str, channel: str, ts: str) -> Delivery:
        return await self.interactions.message_shortcut(user=user, callback_id=callback_id, channel=channel, ts=ts)

    def share_file(
        self, *, user: str, channel: str, name: str, content: bytes, thread_ts: str | None = None, text: str = ""
    ) -> Message:
        """``user`` shares a file in ``channel`` (in ``thread_ts``'s thread when given)."""
        return self.workspace.share_user_file(
            user=user,
            channel=self.workspace.channel(channel),
            name=name,
            content=content,
            thread_ts=thread_ts,
            text=text,
        )

    async def click_button(
        self,
        *,
        user: str,
        action_id: str,
        block_id: str | None = None,
        channel: str | None = None,
        ts: str | None = None,
        view_id: str | None = None,
    ) -> Delivery:
        """Click a button on a message (``channel`` + ``ts``) or in a view (``view_id``).

        A button's confirm dialog is the browser page's concern; here the user has already confirmed.
        """
        return await self.interactions.block_action(
            user=user, action_id=action_id, block_id=block_id, channel=channel, ts=ts, view_id=view_id
        )

    async def select_option(
        self,
        *,
        user: str,
        action_id: str,
        value: Any,
        block_id: str | None = None,
        channel: str | None = None,
        ts: str | None = None,
        view_id: str | None = None,
    ) -> Delivery:
        """Choose ``value`` in a select/overflow (an option value, user id, channel id, or a whole option)."""
        return await self.interactions.block_action(
            user=user,
            action_id=action_id,
            block_id=block_id,
            channel=channel,
            ts=ts,
            view_id=view_id,
            selection=value,
        )

    async def submit_view(
        self, *, user: str, inputs: dict[str, Any] | None = None, view_id: str | None = None
    ) -> Delivery:
        return await self.interactions.submit_view(user=user, inputs=inputs or {}, view_id=view_id)

    async def close_view(self, *, user: str, view_id: str | None = None) -> Delivery | None:
        return await self.interactions.close_view(user=user, view_id=view_id)

    async def request_options(self, *, user: str, action_id: str, value: str, **surface: Any) -> list[Json]:
        return await self.interactions.request_options(user=user, action_id=action_id, value=value, **surface)

    def rate_limit(self, method: str, *, retry_after: int = 1, count: int | None = 1) -> None:
        """Answer the next ``count`` calls of ``method`` (all, when None) with 429 and Retry-After."""
        self.limiter.set(method, retry_after=retry_after, count=count)

    def clear_rate_limits(self) -> None:
        self.limiter.clear()

    def expire_triggers(self, expired: bool = True) -> None:
        """While ``expired``, views.open and views.push answer ``expired_trigger_id`` (the person's click reached
        the app too late, or the app waited too long), as Slack does after a trigger's 3 seconds."""
        self.workspace.triggers_expired = expired

    # ---- inspection and waiting

    def mark(self) -> str:
        """A cursor: pass it as ``since`` to wait only for messages posted after this moment."""
        return self.ids.last_ts()

    def file_content(self, file_id: str) -> bytes | None:
        stored = self.state.files.get(file_id)
        return stored.content if stored else None

    async def wait_for(self, predicate: Callable[[], Any], *, timeout: float = DEFAULT_WAIT_SECONDS) -> Any:  # noqa: ASYNC109
        return await self.state.wait_until(predicate, timeout=timeout)

    async def wait_for_message(
        self,
        channel: str,
        predicate: Callable[[Message], bool] | None = None,
        *,
        thread_ts: str | None = None,
        since: str | None = None,
        timeout: float = DEFAULT_WAIT_SECONDS,  # noqa: ASYNC109 - a deadline, as the brief's API asks
    ) -> Message:
        """The first message in ``channel`` (in ``thread_ts``'s thread if given) posted after ``since``."""
        resolved = self.workspace.channel(channel).id

        def find() -> Message | None:
            found = self.state.messages(resolved, include_replies=True)
            if thread_ts is not None:
                found = [m for m in found if m.is_reply and m.thread_ts == thread_ts]
            return _first_after(found, since, predicate)

        return await self.wait_for(find, timeout=timeout)

    async def wait_for_ephemeral(
        self,
        user: str,
        predicate: Callable[[Ephemeral], bool] | None = None,
        *,
        since: str | None = None,
        timeout: float = DEFAULT_WAIT_SECONDS,  # noqa: ASYNC109 - a deadline, as the brief's API asks
    ) -> Ephemeral:
        return await self.wait_for(lambda: _first_after(self.state.ephemerals(user), since, predicate), timeout=timeout)

    async def wait_for_modal(
        self,
        user: str,
        predicate: Callable[[View], bool] | None = None,
        *,
        timeout: float = DEFAULT_WAIT_SECONDS,  # noqa: ASYNC109 - a deadline, as the brief's API asks
    ) -> View:
        """The user's top modal once it satisfies ``predicate`` (any open modal when None)."""

        def top() -> View | None:
            stack = self.state.modal_stack(user)
            return stack[-1] if stack and (predicate is None or predicate(stack[-1])) else None

        return await self.wait_for(top, timeout=timeout)


def _first_after(items: list[Any], since: str | None, predicate: Callable[[Any], bool] | None) -> Any:
    for item in items:
        if since is not None and ts_key(item.ts) <= ts_key(since):
            continue
        if predicate is None or predicate(item):
            return item
    return None


def create_app(config: EmulatorConfig) -> web.Application:
    """The emulator as an aiohttp application (``app[EMULATOR_KEY]`` is its ``Emulator``)."""
    return Emulator(config).app


@asynccontextmanager
async def running_emulator(config: EmulatorConfig) -> AsyncIterator[Emulator]:
    """Serve the emulator on ``config.host``/``config.port`` (0 picks a free port) inside the block."""
    emulator = Emulator(config)
    runner = web.AppRunner(emulator.app, access_log=None)
    await runner.setup()
    try:
        site = web.TCPSite(runner, config.host, config.port)
        await site.start()
        port = runner.addresses[0][1]
        emulator.links.base = f"http://{config.host}:{port}"
        yield emulator
    finally:
        await runner.cleanup()
