"""Start-up: build the clients, the store and the Bolt ``AsyncApp``, plug the bot's roles in
(``minds_bot.composition.compose``: run handlers, run tracker, Home tabs, stimulus shelf, background work), then
call ``register`` for each surface.

Owns: which Slack mode the bot runs in (single workspace from environment tokens, or OAuth installs), the
Web API client's base URL, the order of the Bolt middleware (shape check, log context, one workspace per
install, once per delivery, paced client, language) and the error hook, the HTTP server (``POST /slack/events``
behind the gate of ``minds_bot.slack.gate``, OAuth routes, ``GET /healthz``, ``GET /metrics`` (Prometheus, or on a
port of its own with ``MINDS_BOT_METRICS_PORT``, the only HTTP a Socket Mode bot serves), ``GET /stimuli/{token}``
where Minds fetches a question's stimulus) and Socket Mode start-up, and the order of start-up and shut-down: the
bot is ready (``/healthz`` 200) once the store is migrated and the Bolt app with its middleware is built, and
``/healthz`` answers 503 again while the store cannot be reached (``minds_bot.store.health.StoreHealth``: a ping
bounded to a second, asked at most once a second); right
after it serves, it warms up (``Bot``): the listener modules load one per loop turn (the server keeps answering),
then the run tracker and the other background work start (``"warm": true``; a store that cannot be reached
then is waited for, the outage logged in two lines, never a start-up that gives up). A Slack request that comes during
the warm-up waits in Bolt's first middleware until every listener is registered. Socket Mode registers them
before it connects.
Must not touch: listener behaviour (``minds_bot.slack``), Minds wire shapes (``minds_bot.minds``) or SQL.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any
from urllib.parse import quote

from aiohttp import web
from slack_bolt.adapter.aiohttp import to_aiohttp_response
from slack_bolt.async_app import AsyncApp
from slack_bolt.request.async_request import AsyncBoltRequest

from minds_bot.composition import compose
from minds_bot.flows.stimulus import STIMULI_PATH
from minds_bot.metrics import exposition
from minds_bot.services import (
    Background,
    ChannelPacer,
    PacedWebClient,
    Periodic,
    Services,
    StimulusShelf,
    paced,
    slack_web_client,
)
from minds_bot.settings import Settings, SettingsError
from minds_bot.slack.context import services_middleware
from minds_bot.slack.gate import events_handler, quiet_bolt_verification_log
from minds_bot.slack.middleware import (
    ack_timing_middleware,
    language_middleware,
    log_context_middleware,
    once_per_delivery_middleware,
    shape_middleware,
)
from minds_bot.slack.refusals import RefusalLog
from minds_bot.slack.surface import EVENTS_PATH, INSTALL_PATH, OAUTH_REDIRECT_PATH, Surface
from minds_bot.slack.workspace import workspace_middleware
from minds_bot.store import Clock, SecretBox, Store, StoreUnavailableError, open_store, utc_now
from minds_bot.store.health import Outage, StoreHealth

log = logging.getLogger(__name__)

HEALTH_PATH = "/healthz"
STORE_UNREACHABLE = "the store (database) cannot be reached; Slack requests are answered without doing anything"
METRICS_PATH = "/metrics"
REFUSAL_FLUSH_SECONDS = 5  # how late a source's summary of refused requests may come after its minute
# Bolt names an unnamed app after its caller's file by walking the whole stack with source context (inspect.stack),
# which costs tens of milliseconds at start-up; naming it skips that walk.
APP_NAME = "minds-bot"
# Loop turns the warm-up leaves to requests before each listener module it imports: answering one (accept, read,
# handle, write) takes a few turns, and a turn without other work costs microseconds.
WARM_UP_YIELDS = 8
# A placeholder that lets the manifest generator build the real app without any credentials or network.
_MANIFEST_SIGNING_SECRET = "manifest-only-not-a-secret"  # noqa: S105


def _paced_client_middleware(pacer: ChannelPacer) -> Callable[..., Awaitable[Any]]:
    """Listeners post through a client that keeps each channel's pace (Bolt builds a plain one per request)."""

    async def paced_client(context: Any, next: Callable[[], Awaitable[Any]]) -> Any:  # noqa: A002 - Bolt's name
        client = context.get("client")
        if client is not None and not isinstance(client, PacedWebClient):
            context["client"] = paced(client, pacer)
        return await next()

    return paced_client


def build_app(services: Services, *, process_before_response: bool = False) -> tuple[AsyncApp, Surface]:
    """The real Bolt app with every listener registered, and the recorded surface.

    ``process_before_response`` (tests only) makes a dispatch return after its listeners finish."""
    app = _bolt_app(services, process_before_response=process_before_response)
    compose(services)
    return app, register_listeners(app, services)


def register_listeners(app: AsyncApp, services: Services) -> Surface:
    """The error hook and every listener on ``app``: this imports the listener modules, and with them the flows,
    renderers and Minds models they use (the heavier half of the bot's code)."""
    from minds_bot.slack import register_all
    from minds_bot.slack.errors import error_hook
    from minds_bot.slack.outage import OutageAnswers

    slack_api_url = services.settings.slack_api_url
    hook = error_hook(
        slack_api_url=slack_api_url,
        outage=OutageAnswers(languages=services.languages, slack_api_url=slack_api_url),
    )
    app.error(hook)
    surface = Surface(app, on_error=hook)  # a failure after a listener's ack never undoes the ack
    register_all(surface, services)
    return surface


def _bolt_app(
    services: Services, *, process_before_response: bool, first: Callable[..., Awaitable[Any]] | None = None
) -> AsyncApp:
    """The Bolt app with its middleware (``first`` before the bot's own), and no listener yet."""
    settings = services.settings
    signing = settings.slack_signing_secret.get_secret_value() if settings.slack_signing_secret else None
    kwargs: dict[str, Any] = {
        "name": APP_NAME,
        "signing_secret": signing or "",
        "process_before_response": process_before_response,
    }
    if settings.oauth_enabled:
        kwargs["client"] = slack_web_client(None, base_url=settings.slack_api_url, pacer=services.slack.pacer)
        kwargs["oauth_settings"] = _oauth_settings(services)
    else:
        token = settings.slack_bot_token.get_secret_value() if settings.slack_bot_token else None
        kwargs["client"] = slack_web_client(token, base_url=settings.slack_api_url, pacer=services.slack.pacer)
    # Socket Mode requests are authenticated by the app-level token, not by signatures.
    kwargs["request_verification_enabled"] = not settings.slack_app_token or bool(signing)
    app = AsyncApp(**kwargs)
    quiet_bolt_verification_log()
    if first is not None:
        app.use(first)
    app.use(services_middleware(services))
    app.use(ack_timing_middleware())
    app.use(shape_middleware())
    app.use(log_context_middleware())
    app.use(workspace_middleware())
    app.use(once_per_delivery_middleware(services.store))
    app.use(_paced_client_middleware(services.slack.pacer))
    app.use(language_middleware(services.languages))
    return app


def build_manifest_surface(settings: Settings) -> Surface:
    """Register every listener on a credential-free app, only to read what the manifest must declare."""
    offline = settings.model_copy(
        update={"slack_client_id": None, "slack_client_secret": None, "slack_app_token": None}
    )
    from minds_bot.store import MemoryStore

    store = MemoryStore(secrets=SecretBox(SecretBox.generate_key()))
    app = AsyncApp(
        name=APP_NAME,
        signing_secret=_MANIFEST_SIGNING_SECRET,
        token="xoxb-manifest",  # noqa: S106 - never used: nothing is sent
    )
    surface = Surface(app)
    from minds_bot.slack import register_all

    services = Services.build(offline, store)
    compose(services)
    register_all(surface, services)
    return surface


def _oauth_settings(services: Services) -> Any:
    from slack_bolt.oauth.async_oauth_settings import AsyncOAuthSettings

    from minds_bot.slack.surface import BOT_SCOPES
    from minds_bot.store import StoreInstallationStore, StoreOAuthStateStore

    settings = services.settings
    store = services.store
    clock = services.clock
    return AsyncOAuthSettings(
        client_id=settings.slack_client_id,
        client_secret=settings.slack_client_secret.get_secret_value() if settings.slack_client_secret else None,
        scopes=sorted(BOT_SCOPES),
        install_path=INSTALL_PATH,
        redirect_uri_path=OAUTH_REDIRECT_PATH,
        installation_store=StoreInstallationStore(store),
        state_store=StoreOAuthStateStore(store, clock=clock),
    )


# --- HTTP mode ---------------------------------------------------------------------------------------------


def inline_disposition(name: str) -> str:
    """``Content-Disposition`` for a served file: an ASCII ``filename`` (anything else, quotes, backslashes and
    control characters as ``_``) and the exact name as RFC 6266's ``filename*`` — a header never breaks on a name."""
    plain = "".join(c if " " <= c <= "~" and c not in '"\\' else "_" for c in name)
    return f"inline; filename=\"{plain}\"; filename*=UTF-8''{quote(name, safe='')}"


def build_web_app(
    app: AsyncApp,
    *,
    ready: Callable[[], bool],
    signing_secret: str,
    warm: Callable[[], bool] = lambda: True,
    clock: Callable[[], float] = time.time,
    stimuli: Callable[[], StimulusShelf | None] = lambda: None,
    metrics: bool = True,
    store_reachable: Callable[[], Awaitable[bool]] | None = None,
) -> web.Application:
    """aiohttp routes for Slack's requests and the health check. ``POST /slack/events`` goes through the gate
    (``minds_bot.slack.gate``: signature, body and payload shape) before Bolt, which verifies once more.
    ``GET /healthz`` is 200 while the bot is ``ready`` and ``store_reachable()`` (when given) says the store answers,
    else 503 with a body that says which.
    ``GET /stimuli/{token}`` hands Minds a question's stimulus while it is on the shelf (``flows/stimulus.py``).
    ``GET /metrics`` is the Prometheus scrape unless ``metrics`` is off (served on a port of its own instead)."""

    async def stimulus(request: web.Request) -> web.Response:
        shelf = stimuli()
        found = shelf.get(request.match_info["token"]) if shelf is not None else None
        if found is None:
            return web.Response(status=404, text="No such file (a stimulus is kept only until Minds has fetched it).")
        name, mimetype, content = found
        headers = {
            "Content-Disposition": inline_disposition(name),
            "Cache-Control": "no-store",
            "X-Content-Type-Options": "nosniff",
        }
        return web.Response(body=content, content_type=mimetype, headers=headers)

    async def oauth(request: web.Request) -> web.Response:
        flow = app.oauth_flow
        if flow is None:
            return web.Response(status=404, text="This bot runs for one workspace; there is nothing to install.")
        # A GET carries no body to read: only the query string and headers matter.
        bolt_request = AsyncBoltRequest(body="", query=request.query_string, headers=dict(request.headers))
        if request.path == INSTALL_PATH:
            return await to_aiohttp_response(await flow.handle_installation(bolt_request))
        return await to_aiohttp_response(await flow.handle_callback(bolt_request))

    async def healthz(_: web.Request) -> web.Response:
        if not ready():
            return web.json_response({"status": "unavailable"}, status=503)  # not yet, no longer, or it failed
        if store_reachable is not None and not await store_reachable():
            return web.json_response({"status": "unavailable", "store": STORE_UNREACHABLE}, status=503)
        # Taking requests; "warm": the listeners registered and the background work started too.
        return web.json_response({"status": "ok", "warm": warm()})

    refusals = RefusalLog(clock=clock)
    web_app = web.Application(client_max_size=1024 * 1024)
    web_app.cleanup_ctx.append(_summing_up(refusals))
    web_app.router.add_post(
        EVENTS_PATH, events_handler(app, signing_secret=signing_secret, clock=clock, refusals=refusals)
    )
    web_app.router.add_get(INSTALL_PATH, oauth)
    web_app.router.add_get(OAUTH_REDIRECT_PATH, oauth)
    web_app.router.add_get(HEALTH_PATH, healthz)
    web_app.router.add_get(STIMULI_PATH + "{token}", stimulus)
    if metrics:
        web_app.router.add_get(METRICS_PATH, scrape)
    return web_app


async def scrape(_: web.Request) -> web.Response:
    """``GET /metrics``: this process's metrics in Prometheus' text format (``minds_bot.metrics``)."""
    body, content_type = exposition()
    return web.Response(body=body, headers={"Content-Type": content_type, "Cache-Control": "no-store"})


@dataclass
class MetricsServer:
    """``GET /metrics`` on a port of its own (``MINDS_BOT_METRICS_PORT``): Socket Mode has no other HTTP server,
    and in HTTP mode it keeps the scrape off the port Slack reaches."""

    runner: web.AppRunner
    host: str
    port: int

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}{METRICS_PATH}"

    async def stop(self) -> None:
        await self.runner.cleanup()


async def start_metrics_server(settings: Settings) -> MetricsServer | None:
    """The metrics port's server when ``MINDS_BOT_METRICS_PORT`` is set (``0``: any free port, for tests)."""
    if settings.minds_bot_metrics_port is None:
        return None
    web_app = web.Application()
    web_app.router.add_get(METRICS_PATH, scrape)
    runner = web.AppRunner(web_app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host=settings.minds_bot_metrics_host, port=settings.minds_bot_metrics_port)
    try:
        await site.start()
    except OSError:
        await runner.cleanup()
        raise
    bound = runner.addresses[0][1] if runner.addresses else settings.minds_bot_metrics_port
    server = MetricsServer(runner=runner, host=settings.minds_bot_metrics_host, port=bound)
    log.info("serving metrics", extra={"fields": {"url": server.url}})
    return server


def _summing_up(refusals: RefusalLog) -> Callable[[web.Application], AsyncIterator[None]]:
    """While the server runs, each source's summary of refusals is logged when its minute is over, also when no
    further request comes; the last ones when it stops."""

    async def every_minute(_: web.Application) -> AsyncIterator[None]:
        async def flush() -> None:
            refusals.flush()

        flushing = Periodic(
            "refusal summaries",
            step=flush,
            every=REFUSAL_FLUSH_SECONDS,
            wait_first=True,
            failure="summing up refused requests failed",
            logger=log,
        )
        await flushing.start()
        yield
        await flushing.stop()
        refusals.flush_all()

    return every_minute


@dataclass
class Bot:
    """A bot over a migrated store, in two steps. ``ready`` (``/healthz`` 200): it takes Slack's requests. Then,
    in a task (``start_warming``, called once the bot serves): ``listening`` — the listener modules imported with
    the flows, renderers and Minds models they use, the roles composed (``minds_bot.composition``) and every
    listener registered — and then the background work starts in the composition's order (housekeeping, the run
    tracker, the Home tabs, resumes, the chat closer, digests). A Slack request that comes before
    the listeners are in waits for them in Bolt's first middleware (``listeners_registered``), so no request ever
    meets a missing listener. If this fails, ``ready`` turns False (``/healthz`` 503) and it is logged."""

    services: Services
    app: AsyncApp
    surface: Surface | None = None
    ready: bool = False
    health: StoreHealth | None = None  # whether the store answers (``/healthz``)
    warming: asyncio.Task[None] | None = field(default=None, repr=False)  # the listeners, then the background
    background_started: asyncio.Event = field(default_factory=asyncio.Event, repr=False)
    listening: asyncio.Event = field(default_factory=asyncio.Event, repr=False)  # every listener registered
    _started: list[Background] = field(default_factory=list, repr=False)

    async def store_reachable(self) -> bool:
        """Whether the store answers now (``/healthz``): asked at most once a second (``StoreHealth``)."""
        return self.health is None or await self.health.reachable()

    def start_warming(self) -> None:
        if self.warming is None:
            self.warming = asyncio.create_task(self._warm(), name="bot-warm-up")

    async def warm(self) -> None:
        """Return once every listener is registered and the background work runs (starting that now if nothing
        has); raises if that failed."""
        self.start_warming()
        assert self.warming is not None
        await asyncio.shield(self.warming)

    async def listeners_registered(self) -> Surface:
        """The surface once every listener is registered (starting that now if nothing has); raises if it failed."""
        self.start_warming()
        assert self.warming is not None
        if self.surface is not None and self.listening.is_set():
            return self.surface
        listening = asyncio.ensure_future(self.listening.wait())
        try:
            await asyncio.wait({listening, self.warming}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            listening.cancel()
        if self.surface is None or not self.listening.is_set():
            raise RuntimeError("the bot could not register its listeners") from self.warming.exception()
        return self.surface

    async def _warm(self) -> None:
        from minds_bot.slack import listener_modules

        try:
            modules = listener_modules()
            while True:
                for _turn in range(WARM_UP_YIELDS):  # before and between two modules the server answers what came
                    await asyncio.sleep(0)
                if next(modules, None) is None:
                    break
            compose(self.services)
            self.surface = register_listeners(self.app, self.services)
        except Exception:  # a task of its own: nobody else would see why the bot cannot answer
            self.ready = False
            log.exception("the bot could not register its listeners")
            raise
        self.listening.set()
        outage = Outage("background start")  # the loop's name in the log, verbatim
        for work in list(self.services.background):
            while True:
                try:
                    await work.start()
                except StoreUnavailableError as exc:  # the database is down at start-up: wait for it, then start
                    await outage.pause(exc)
                    continue
                except Exception:  # as above
                    self.ready = False
                    log.exception("background work could not start", extra={"fields": {"work": type(work).__name__}})
                    raise
                break
            outage.recovered()
            self._started.append(work)
        self.background_started.set()

    async def stop(self) -> None:
        self.ready = False
        if self.warming is not None:
            self.warming.cancel()  # a no-op once it is done
            with contextlib.suppress(asyncio.CancelledError, Exception):  # a failure was logged when it happened
                await self.warming
        for work in reversed(self._started):
            await work.stop()
        await self.services.minds.aclose()
        await self.services.store.close()


def secret_box(settings: Settings) -> SecretBox:
    if not settings.minds_bot_secret_key:
        raise SettingsError(["MINDS_BOT_SECRET_KEY: is required to encrypt stored secrets"])
    return SecretBox(",".join(k.get_secret_value() for k in settings.minds_bot_secret_key))


async def open_configured_store(settings: Settings, *, clock: Clock = utc_now) -> Store:
    """PostgreSQL when MINDS_BOT_DATABASE_URL is set, else the SQLite file; migrated. Raises StoreError (a
    message without the password) when it cannot be opened."""
    url = settings.minds_bot_database_url
    return await open_store(
        settings.minds_bot_db,
        secrets=secret_box(settings),
        clock=clock,
        claim_lease=timedelta(seconds=settings.minds_bot_lease_seconds),
        database_url=url.get_secret_value() if url is not None else None,
        pool_size=settings.minds_bot_database_pool_size,
    )


async def open_bot(settings: Settings, *, clock: Clock = utc_now) -> Bot:
    """Open the store (applying migrations) and build the Bolt app with its middleware: the bot is ``ready``.
    The caller starts warming it (``Bot.start_warming``) once it serves. ``clock`` is the one time source of the
    store, the run tracker and the schedulers (tests pass a controlled one)."""
    store = await open_configured_store(settings, clock=clock)
    services = Services.build(settings, store, clock=clock)

    async def listeners_first(next: Callable[[], Awaitable[Any]]) -> Any:  # noqa: A002 - Bolt's name
        await bot.listeners_registered()
        return await next()

    app = _bolt_app(services, process_before_response=False, first=listeners_first)
    bot = Bot(services=services, app=app, ready=True, health=StoreHealth(store))
    return bot


@dataclass
class HttpServer:
    """A bot serving Slack's HTTP requests; ``port`` is the bound port (useful with port 0)."""

    bot: Bot
    runner: web.AppRunner
    host: str
    port: int
    metrics: MetricsServer | None = None  # with MINDS_BOT_METRICS_PORT; else /metrics is on this server

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    async def stop(self) -> None:
        await self.runner.cleanup()
        if self.metrics is not None:
            await self.metrics.stop()
        await self.bot.stop()


async def start_http(settings: Settings, *, host: str, port: int, clock: Clock = utc_now) -> HttpServer:
    """Open the bot and start serving ``POST /slack/events``, ``GET /healthz`` and ``GET /metrics`` (on
    ``MINDS_BOT_METRICS_PORT`` instead when that is set)."""
    bot = await open_bot(settings, clock=clock)
    secret = settings.slack_signing_secret.get_secret_value() if settings.slack_signing_secret else ""
    separate = settings.minds_bot_metrics_port is not None
    web_app = build_web_app(
        bot.app,
        ready=lambda: bot.ready,
        warm=bot.background_started.is_set,
        signing_secret=secret,
        stimuli=lambda: bot.services.stimuli if bot.services.composed else None,
        metrics=not separate,
        store_reachable=bot.store_reachable,
    )
    runner = web.AppRunner(web_app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host=host, port=port)
    metrics_server = None
    try:
        await site.start()
        metrics_server = await start_metrics_server(settings)
    except OSError:
        await runner.cleanup()
        await bot.stop()
        raise
    bound = runner.addresses[0][1] if runner.addresses else port
    server = HttpServer(bot=bot, runner=runner, host=host, port=bound, metrics=metrics_server)
    bot.start_warming()
    log.info("serving Slack requests", extra={"fields": {"url": server.base_url + EVENTS_PATH}})
    return server


async def serve_http(settings: Settings, *, host: str, port: int) -> None:
    """Serve Slack's HTTP requests until cancelled."""
    server = await start_http(settings, host=host, port=port)
    try:
        await asyncio.Event().wait()
    finally:
        await server.stop()


async def serve_socket_mode(settings: Settings) -> None:
    """Connect to Slack over Socket Mode until cancelled."""
    from slack_bolt.adapter.socket_mode.async_handler import AsyncSocketModeHandler

    bot = await open_bot(settings)
    await bot.listeners_registered()  # the stimulus shelf is composed with them
    if settings.minds_bot_public_url:
        # Socket Mode serves no HTTP: Minds could not fetch a stimulus there, so people are told instead.
        log.warning("MINDS_BOT_PUBLIC_URL is ignored in Socket Mode: stimuli need the bot's HTTP server")
        bot.services.stimuli.base_url = None
    assert settings.slack_app_token is not None
    handler = AsyncSocketModeHandler(bot.app, settings.slack_app_token.get_secret_value())
    metrics_server = None
    try:
        metrics_server = await start_metrics_server(settings)
        await handler.connect_async()
        log.info("connected to Slack over Socket Mode")
        await asyncio.Event().wait()
    finally:
        await handler.close_async()
        if metrics_server is not None:
            await metrics_server.stop()
        await bot.stop()
