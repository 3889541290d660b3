"""A scripted fake of the Minds v1 HTTP API over ``httpx.MockTransport``, plus a controllable clock.

Each route (method, path relative to ``/api/v1``) holds a queue of replies; the last reply repeats.
Every request is recorded so tests can assert what was sent. Unrouted requests fail the test loudly.
"""

from __future__ import annotations

import json
import random
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx

from minds_bot.minds import MindsClient, RateLimiter, RetryPolicy

BASE_URL = "https://minds.test/api/v1"
PREFIX = "/api/v1"


def fake_key() -> str:
    return "minds_" + "0" * 48


Reply = httpx.Response | Callable[[httpx.Request], httpx.Response]


def ok(data: Any, *, status: int = 200, headers: dict[str, str] | None = None) -> httpx.Response:
    return httpx.Response(status, json={"data": data}, headers=headers)


def raw(payload: Any, *, status: int = 200, headers: dict[str, str] | None = None) -> httpx.Response:
    return httpx.Response(status, json=payload, headers=headers)


def envelope(
    status: int,
    *,
    code: str | None = None,
    data: dict | None = None,
    message: str = "nope",
    headers: dict[str, str] | None = None,
) -> httpx.Response:
    body: dict[str, Any] = {
        "statusCode": status,
        "statusMessage": "Error",
        "message": message,
        "url": "/api/v1/x",
        "error": True,
    }
    if code is not None or data is not None:
        body["data"] = {**({"code": code} if code else {}), **(data or {})}
    return httpx.Response(status, json=body, headers=headers)


def page(items: list[Any], *, total: int, offset: int, limit: int = 100) -> httpx.Response:
    return raw({"data": items, "pagination": {"total": total, "limit": limit, "offset": offset}})


def cursor_pages(items: list[dict[str, Any]], *, page_size: int = 100) -> Callable[[httpx.Request], httpx.Response]:
    """A Study's runs as Minds pages them (newest first; ``before`` = the previous page's ``nextCursor``, the last
    run id on it): at most ``min(limit, page_size)`` per page. An unknown cursor is Minds' 400."""

    def reply(request: httpx.Request) -> httpx.Response:
        size = min(int(request.url.params.get("limit", "20")), page_size)
        ids = [str(item.get("runId") or item.get("id")) for item in items]
        before = request.url.params.get("before")
        if before is not None and before not in ids:
            return envelope(400, code="INVALID_CURSOR", message="Invalid cursor for this Study and filter")
        start = ids.index(before) + 1 if before is not None else 0
        chunk = items[start : start + size]
        more = start + size < len(items)
        pagination = {"limit": size, "hasMore": more, "nextCursor": ids[start + size - 1] if more else None}
        return raw({"data": chunk, "pagination": pagination})

    return reply


@dataclass
class Sent:
    method: str
    path: str
    params: dict[str, str]
    headers: httpx.Headers
    body: bytes
    at: float

    def json(self) -> Any:
        return json.loads(self.body) if self.body else None


@dataclass
class FakeClock:
    now: float = 0.0
    sleeps: list[float] = field(default_factory=list)

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


class FakeMindsAPI:
    def __init__(self, clock: FakeClock | None = None) -> None:
        self.clock = clock or FakeClock()
        self.sent: list[Sent] = []
        self._routes: dict[tuple[str, str], deque[Reply]] = {}

    def on(self, method: str, path: str, *replies: Reply) -> FakeMindsAPI:
        self._routes.setdefault((method, path), deque()).extend(replies)
        return self

    def set(self, method: str, path: str, *replies: Reply) -> FakeMindsAPI:
        """Replace a route's queued replies (the server's state moved on)."""
        self._routes[(method, path)] = deque(replies)
        return self

    def handler(self, request: httpx.Request) -> httpx.Response:
        assert request.url.host == "minds.test", f"API client sent a request to {request.url.host}"
        path = request.url.path.removeprefix(PREFIX)
        self.sent.append(
            Sent(
                request.method,
                path,
                dict(request.url.params),
                request.headers,
                request.content,
                self.clock.now,
            )
        )
        queue = self._routes.get((request.method, path))
        assert queue, f"unrouted request {request.method} {path}"
        reply = queue.popleft() if len(queue) > 1 else queue[0]
        return reply(request) if callable(reply) else reply

    def to(self, method: str, path: str) -> list[Sent]:
        return [s for s in self.sent if s.method == method and s.path == path]


def make_client(
    api: FakeMindsAPI,
    *,
    download: Callable[[httpx.Request], httpx.Response] | None = None,
    limiter: RateLimiter | None = None,
    retry: RetryPolicy | None = None,
) -> MindsClient:
    http = httpx.AsyncClient(base_url=BASE_URL, transport=httpx.MockTransport(api.handler))
    dl = httpx.AsyncClient(transport=httpx.MockTransport(download or _no_downloads), follow_redirects=True)
    return MindsClient(
        http,
        api_key=fake_key(),
        download_http=dl,
        limiter=limiter,
        retry=retry,
        clock=api.clock,
        sleep=api.clock.sleep,
        rng=random.Random(7),
    )


def _no_downloads(request: httpx.Request) -> httpx.Response:
    raise AssertionError(f"unexpected download of {request.url}")
