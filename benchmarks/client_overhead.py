"""What the typed Minds client costs over a bare HTTP call, against the embedded sandbox on 127.0.0.1.

Baseline: the same ``GET /studies`` with a plain ``httpx.AsyncClient`` and ``json.loads``. Measured: the
``MindsClient`` (auth header, rate limiter, retry wrapper, envelope checks, pydantic models). Both run in the same
process and the same run, interleaved in rounds, so the printed ratio is comparable across machines; absolute
times are printed only for context. Bounded: ROUNDS x CALLS requests, and it stops early after MAX_SECONDS.

    .venv/bin/python benchmarks/client_overhead.py
"""

from __future__ import annotations

import asyncio
import json
import statistics
import time

import httpx

from minds_bot.minds import MindsClient, RateLimiter
from minds_sandbox import SandboxConfig, running_sandbox

ROUNDS = 5
CALLS = 100
MAX_SECONDS = 60.0


async def bare(http: httpx.AsyncClient, key: str) -> None:
    reply = await http.get("/studies", params={"limit": 20}, headers={"Authorization": f"Bearer {key}"})
    json.loads(reply.content)


async def typed(client: MindsClient) -> None:
    async for _ in client.iter_studies(max_items=20):
        pass


async def timed(calls: int, step) -> float:
    start = time.perf_counter()
    for _ in range(calls):
        await step()
    return (time.perf_counter() - start) / calls


async def main() -> None:
    config = SandboxConfig(rate_limit_per_minute=None)
    async with running_sandbox(config) as sandbox:
        limiter = RateLimiter(requests_per_minute=1_000_000, clock=time.monotonic, sleep=asyncio.sleep)
        client = MindsClient.create(api_key=sandbox.demo_key, base_url=sandbox.base_url, limiter=limiter)
        async with httpx.AsyncClient(base_url=sandbox.base_url) as http, client:
            await bare(http, sandbox.demo_key)
            await typed(client)
            ratios, bare_times, typed_times = [], [], []
            deadline = time.monotonic() + MAX_SECONDS
            for _ in range(ROUNDS):
                if time.monotonic() > deadline:
                    break
                b = await timed(CALLS, lambda: bare(http, sandbox.demo_key))
                t = await timed(CALLS, lambda: typed(client))
                bare_times.append(b)
                typed_times.append(t)
                ratios.append(t / b)
    print(f"rounds={len(ratios)} calls_per_round={CALLS}")
    print(f"bare httpx GET /studies:   median {statistics.median(bare_times) * 1e3:.2f} ms")
    print(f"MindsClient.iter_studies:  median {statistics.median(typed_times) * 1e3:.2f} ms")
    print(f"ratio typed/bare: median {statistics.median(ratios):.2f} (min {min(ratios):.2f}, max {max(ratios):.2f})")


if __name__ == "__main__":
    asyncio.run(main())
