"""The per-workspace limiter keeps a busy workspace under its Minds allowance, on a controlled clock."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from minds_bot.minds import RateLimited, RateLimiter
from tests.fakes.minds_http import FakeClock, FakeMindsAPI, make_client
from tests.minds.samples import uid

ME = httpx.Response(200, json={"id": uid(9)})


def max_in_any_window(times: list[float], window: float = 60.0) -> int:
    """Largest number of requests sent within any half-open window of ``window`` seconds."""
    best, start = 0, 0
    for end, t in enumerate(times):
        while times[start] <= t - window:
            start += 1
        best = max(best, end - start + 1)
    return best


async def test_busy_workspace_stays_under_allowance():
    api = FakeMindsAPI().on("GET", "/auth/me", ME)
    limiter = RateLimiter(requests_per_minute=300, clock=api.clock, sleep=api.clock.sleep)
    async with make_client(api, limiter=limiter) as minds:
        for _ in range(700):
            await minds.me()
    times = [s.at for s in api.sent]
    assert len(times) == 700
    assert max_in_any_window(times) == 300
    assert times[-1] >= 120.0  # 700 requests need at least two full windows of waiting


async def test_limiter_is_shared_by_clients_of_one_workspace():
    clock = FakeClock()
    api = FakeMindsAPI(clock).on("GET", "/auth/me", ME)
    limiter = RateLimiter(requests_per_minute=50, clock=clock, sleep=clock.sleep)
    async with make_client(api, limiter=limiter) as a, make_client(api, limiter=limiter) as b:
        await asyncio.gather(*(c.me() for _ in range(60) for c in (a, b)))
    assert max_in_any_window([s.at for s in api.sent]) == 50


async def test_spent_allowance_header_pauses_until_retry_after():
    api = FakeMindsAPI()
    api.on(
        "GET",
        "/auth/me",
        httpx.Response(200, json={"id": uid(9)}, headers={"RateLimit-Remaining": "0", "Retry-After": "12"}),
        ME,
    )
    async with make_client(api) as minds:
        await minds.me()
        await minds.me()
    assert api.sent[1].at - api.sent[0].at == 12.0


async def test_429_blocks_other_calls_of_the_workspace():
    api = FakeMindsAPI()
    api.on("POST", "/studies", httpx.Response(429, headers={"Retry-After": "9"}))
    api.on("GET", "/auth/me", ME)
    async with make_client(api) as minds:
        with pytest.raises(RateLimited):
            await minds.create_study(name="Launch")  # a POST without key: not retried, but it taught the limiter
        await minds.me()
    assert api.sent[1].at == 9.0


async def test_remaining_allowance_does_not_slow_requests():
    api = FakeMindsAPI().on(
        "GET", "/auth/me", httpx.Response(200, json={"id": uid(9)}, headers={"RateLimit-Remaining": "250"})
    )
    async with make_client(api) as minds:
        for _ in range(10):
            await minds.me()
    assert api.clock.sleeps == []
