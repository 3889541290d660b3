"""End-to-end harness: the real ``MindsClient`` (real httpx transport) talking to the embedded Minds sandbox on
127.0.0.1, with one simulated clock for both sides.

Owns: ``Harness`` (sandbox + client + a log of every request the sandbox received) and the fixtures that build
it. The client's ``sleep`` advances the sandbox's ``ManualClock`` instead of waiting, so polling, backoff and
``Retry-After`` all move simulated time and never real time. Must not touch product code.
"""

from __future__ import annotations

import contextlib
import socket
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field

import httpx
import pytest
from aiohttp import web
from aiohttp.typedefs import Handler

from minds_bot.minds import MindsClient
from minds_sandbox import ManualClock, RunningSandbox, SandboxConfig, create_app


@dataclass(frozen=True)
class SeenRequest:
    """One request as the sandbox received it (headers kept only as the facts tests check)."""

    method: str
    path: str
    query: dict[str, str]
    has_authorization: bool
    idempotency_key: str | None
    plan_request_id: str | None
    status: int


@dataclass
class RequestLog:
    entries: list[SeenRequest] = field(default_factory=list)

    def matching(self, method: str, path: str) -> list[SeenRequest]:
        return [e for e in self.entries if e.method == method and e.path == path]

    def under(self, prefix: str) -> list[SeenRequest]:
        return [e for e in self.entries if e.path.startswith(prefix)]


def _recorder(log: RequestLog) -> Callable[[web.Request, Handler], object]:
    @web.middleware
    async def record(request: web.Request, handler: Handler) -> web.StreamResponse:
        response = await handler(request)
        log.entries.append(
            SeenRequest(
                method=request.method,
                path=request.path,
                query=dict(request.query),
                has_authorization="Authorization" in request.headers,
                idempotency_key=request.headers.get("Idempotency-Key"),
                plan_request_id=request.headers.get("x-minds-study-plan-request-id"),
                status=response.status,
            )
        )
        return response

    return record


@dataclass
class Harness:
    sandbox: RunningSandbox
    minds: MindsClient
    log: RequestLog
    control: httpx.AsyncClient  # the /_sandbox control surface (no Minds key)
    sleeps: list[float] = field(default_factory=list)
    on_sleep: list[Callable[[], None]] = field(default_factory=list)  # "the server recovers meanwhile"

    @property
    def step(self) -> float:
        """Seconds the sandbox needs for one run item, export or build stage."""
        return self.sandbox.runtime.engine.step

    def advance(self, seconds: float) -> None:
        self.sandbox.advance(seconds)

    async def set_faults(self, **knobs: object) -> None:
        response = await self.control.put("/_sandbox/faults", json=knobs)
        assert response.status_code == 200, response.text

    async def set_allowance(self, limit: int | None) -> None:
        response = await self.control.put("/_sandbox/allowance", json={"limit": limit, "resetUsage": True})
        assert response.status_code == 200, response.text

    def run_count(self) -> int:
        return len(self.sandbox.runtime.state.runs)


@contextlib.asynccontextmanager
async def _serve(config: SandboxConfig, log: RequestLog) -> AsyncIterator[RunningSandbox]:
    """Like ``running_sandbox``, plus a request recorder as the outermost middleware."""
    app = create_app(config, clock=ManualClock())
    app.middlewares.insert(0, _recorder(log))
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    try:
        await web.SockSite(runner, sock).start()
        yield RunningSandbox(origin=f"http://127.0.0.1:{sock.getsockname()[1]}", app=app)
    finally:
        await runner.cleanup()
        sock.close()


@contextlib.asynccontextmanager
async def harness(config: SandboxConfig | None = None) -> AsyncIterator[Harness]:
    log = RequestLog()
    async with _serve(config or SandboxConfig(), log) as sandbox:
        h: Harness | None = None

        async def sleep(seconds: float) -> None:
            assert h is not None
            h.sleeps.append(seconds)
            for hook in h.on_sleep:
                hook()
            sandbox.advance(seconds)

        minds = MindsClient.create(
            api_key=sandbox.demo_key,
            base_url=sandbox.base_url,
            timeout=10.0,
            clock=sandbox.runtime.clock.now,
            sleep=sleep,
        )
        async with minds, httpx.AsyncClient(base_url=sandbox.origin, timeout=10.0) as control:
            h = Harness(sandbox=sandbox, minds=minds, log=log, control=control)
            yield h


@pytest.fixture
def config() -> SandboxConfig:
    return SandboxConfig()


@pytest.fixture
async def h(config: SandboxConfig) -> AsyncIterator[Harness]:
    async with harness(config) as running:
        yield running
