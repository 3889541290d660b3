"""How fast minds-bot acknowledges Slack, against a bare slack-bolt app that only acks, measured in the same run.

Three processes on 127.0.0.1: the embedded Minds sandbox, minds-bot (``minds-bot run --http``, SQLite) and the
baseline (``benchmarks/bare_bolt.py``: a bare ``AsyncApp`` on the same aiohttp adapter). Both apps answer the
same Slack sink. The load generator sends signed requests — slash commands ``help``, ``studies``, ``plan …`` and
block actions (Approve, a confirmation answer) — with 20 and then 100 in flight, alternating rounds between the
two apps, once with the sandbox answering at once and once answering in 5 s. The figure is the HTTP response
time, which is the ack Slack waits for (3 s limit); the ratio p99(minds-bot) / p99(bare) is what to compare
across machines. Bounded: ROUNDS x REQUESTS per level and kind, and each setting stops after MAX_SECONDS.

    .venv/bin/python benchmarks/ack_latency.py            (writes benchmarks/results/ack_latency.json)
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._harness import (
    block_action,
    percentile,
    signed,
    slack_sink,
    slash_command,
    start_bare,
    start_bot,
    start_sandbox,
    stop,
    write_result,
)

LEVELS = (20, 100)
ROUNDS = 3
REQUESTS = 100  # per round, level, kind and app
MAX_SECONDS = 240.0  # per Minds latency setting
MINDS_LATENCIES_MS = (0, 5000)
PLAN_VALUE = json.dumps({"r": 1})

KINDS: dict[str, Callable[[str, int], str]] = {
    "help": lambda url, n: slash_command("help", response_url=url, n=n),
    "studies": lambda url, n: slash_command("studies", response_url=url, n=n),
    "plan": lambda url, n: slash_command(
        'plan "Pricing pulse" How do runners feel about a 140 EUR shoe?', response_url=url, n=n
    ),
    "approve": lambda url, n: block_action("plan_approve", PLAN_VALUE, response_url=url, n=n),
    "answer": lambda url, n: block_action("plan_answer:0:0", PLAN_VALUE, response_url=url, n=n),
}


async def burst(http: httpx.AsyncClient, base: str, *, kind: str, level: int, response_url: str) -> list[float]:
    """REQUESTS requests of one kind with ``level`` in flight; the seconds each took to be answered."""
    gate = asyncio.Semaphore(level)
    times: list[float] = []
    statuses: list[int] = []

    async def one(n: int) -> None:
        body = KINDS[kind](response_url, n)
        headers = signed(body)
        async with gate:
            start = time.perf_counter()
            reply = await http.post(base + "/slack/events", content=body, headers=headers)
            times.append(time.perf_counter() - start)
            statuses.append(reply.status_code)

    await asyncio.gather(*(one(n) for n in range(REQUESTS)))
    bad = [s for s in statuses if s != 200]
    if bad:
        raise RuntimeError(f"{kind}: {len(bad)} answers were not 200 (e.g. {bad[0]})")
    return times


async def measure(latency_ms: int) -> dict[str, dict[str, dict[str, float]]]:
    """{level: {kind: {bare_p50, bare_p99, bot_p50, bot_p99, ratio_p99}}} for one Minds latency."""
    results: dict[str, dict[str, dict[str, float]]] = {}
    with tempfile.TemporaryDirectory(prefix="minds-bench-") as tmp:
        async with slack_sink() as sink:
            sandbox = await start_sandbox(latency_ms=latency_ms)
            bot = await start_bot(sink=sink, minds_url=sandbox.url, db=Path(tmp) / "bot.sqlite3")
            bare = await start_bare(sink=sink)
            response_url = sink.url.replace("/api/", "/respond/1")
            deadline = time.monotonic() + MAX_SECONDS
            try:
                limits = httpx.Limits(max_connections=max(LEVELS), max_keepalive_connections=max(LEVELS))
                async with httpx.AsyncClient(timeout=30.0, limits=limits) as http:
                    for level in LEVELS:
                        results[str(level)] = {}
                        for kind in KINDS:
                            samples: dict[str, list[float]] = {"bare": [], "bot": []}
                            for _ in range(ROUNDS):
                                if time.monotonic() > deadline:
                                    break
                                for name, proc in (("bare", bare), ("bot", bot)):
                                    samples[name] += await burst(
                                        http, proc.url, kind=kind, level=level, response_url=response_url
                                    )
                            results[str(level)][kind] = summarise(samples)
            finally:
                for proc in (bare, bot, sandbox):
                    await stop(proc)
    return results


def summarise(samples: dict[str, list[float]]) -> dict[str, float]:
    bare_p99, bot_p99 = percentile(samples["bare"], 0.99), percentile(samples["bot"], 0.99)
    return {
        "n": len(samples["bot"]),
        "bare_p50_ms": round(statistics.median(samples["bare"]) * 1e3, 1),
        "bare_p99_ms": round(bare_p99 * 1e3, 1),
        "bot_p50_ms": round(statistics.median(samples["bot"]) * 1e3, 1),
        "bot_p99_ms": round(bot_p99 * 1e3, 1),
        "ratio_p99": round(bot_p99 / bare_p99, 2),
    }


def print_table(minds_ms: int, results: dict[str, dict[str, dict[str, float]]]) -> None:
    print(f"\nMinds sandbox answering in {minds_ms} ms")
    heads = ("in flight", "request", "n", "bare p50", "bare p99", "bot p50", "bot p99", "p99 ratio")
    print(" ".join(f"{h:>9}" for h in heads))
    for level, kinds in results.items():
        for kind, row in kinds.items():
            cells = (level, kind, row["n"], row["bare_p50_ms"], row["bare_p99_ms"], row["bot_p50_ms"])
            print(" ".join(f"{c:>9}" for c in (*cells, row["bot_p99_ms"], row["ratio_p99"])))


async def main() -> None:
    everything = {}
    for minds_ms in MINDS_LATENCIES_MS:
        results = await measure(minds_ms)
        print_table(minds_ms, results)
        everything[f"minds_{minds_ms}ms"] = results
    path = write_result("ack_latency", {"rounds": ROUNDS, "requests_per_round": REQUESTS, "results": everything})
    print(f"\nwritten to {path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path}")


if __name__ == "__main__":
    asyncio.run(main())
