"""Cold start and idle memory of minds-bot, against a bare slack-bolt app measured in the same run.

Three start times: to the first ``GET /healthz`` 200 (the bot takes requests), to the first signed ``/minds help``
acknowledged when it is sent the moment ``/healthz`` answered (for the bot, that includes waiting for its warm-up to
register the listeners), and, for the bot, to ``"warm": true`` (listeners registered, background work started).

Each round spawns ``python -m minds_bot run --http`` of this checkout (fresh SQLite file, the Minds sandbox
running beside it) and the baseline ``benchmarks/bare_bolt.py`` one after the other, in alternating order (so
neither always starts beside an idling other), times process start to the first ``GET /healthz`` 200, waits
IDLE_SECONDS and reads each process's resident memory from /proc. Also times ``import minds_bot.app`` alone in
a fresh interpreter. Ratios (minds-bot / bare) are what to compare across machines; the goals are ≤ 1.5× the
bare app to healthy and ≤ 80 MB idle. Bounded: ROUNDS rounds.

The bot's modules are byte-compiled first, as ``pip install`` does for an installed bot (the Dockerfile): with
``PYTHONDONTWRITEBYTECODE`` set (as in the Dockerfile and the development shell) a source checkout would
otherwise compile all of its ~180 modules at every start, which no installed bot does.

    .venv/bin/python benchmarks/startup.py            (writes benchmarks/results/startup.json)
"""

from __future__ import annotations

import asyncio
import compileall
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import httpx

from benchmarks._harness import (
    ROOT,
    START_TIMEOUT,
    Proc,
    SlackSink,
    rss_mb,
    signed,
    slack_sink,
    slash_command,
    start_bare,
    start_bot,
    start_sandbox,
    stop,
    write_result,
)

ROUNDS = 7
IDLE_SECONDS = 2.0  # let start-up work settle before reading memory


def import_seconds() -> float:
    """Wall time of ``import minds_bot.app`` in a fresh interpreter (minus the interpreter's own start)."""

    def timed(code: str) -> float:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)  # noqa: S603 - our own interpreter
        return time.perf_counter() - start

    return timed("import minds_bot.app") - timed("pass")


async def first_ack(proc: Proc, sink: SlackSink) -> float:
    """Seconds from spawn until the first signed ``/minds help``, sent the moment ``/healthz`` said 200, was
    acknowledged: what a Slack request that comes first waits (the bot's warm-up included, if it is still on)."""
    sent = time.monotonic()
    body = slash_command("help", response_url=sink.url.replace("/api/", "/respond/0"), n=0)
    async with httpx.AsyncClient(timeout=10.0) as http:
        reply = await http.post(proc.url + "/slack/events", content=body, headers=signed(body))
    if reply.status_code != 200:
        raise RuntimeError(f"{proc.name} answered the first command with {reply.status_code}")
    return proc.started_in + time.monotonic() - sent


async def until_warm(proc: Proc) -> float:
    """Seconds from spawn until the bot's ``/healthz`` says ``"warm": true`` (every listener registered, the
    background work started)."""
    began = time.monotonic()
    async with httpx.AsyncClient(timeout=1.0) as http:
        while time.monotonic() - began < START_TIMEOUT:
            if (await http.get(proc.url + "/healthz")).json().get("warm"):
                return proc.started_in + time.monotonic() - began
            await asyncio.sleep(0.005)  # polling another process: there is no event to await
    raise TimeoutError("the bot did not warm up")


async def start_both(
    *, sink: SlackSink, minds_url: str, db: Path, bot_first: bool
) -> tuple[Proc, Proc, dict[str, float]]:
    """(bot, bare, timings), started one after the other in the order asked; each gets its first command as soon
    as it is healthy."""
    timings: dict[str, float] = {}

    async def bot() -> Proc:
        started = await start_bot(sink=sink, minds_url=minds_url, db=db)
        timings["bot_first_ack_s"] = await first_ack(started, sink)
        timings["bot_warm_s"] = await until_warm(started)
        return started

    async def bare() -> Proc:
        started = await start_bare(sink=sink)
        timings["bare_first_ack_s"] = await first_ack(started, sink)
        return started

    if bot_first:
        first_bot = await bot()
        return first_bot, await bare(), timings
    first_bare = await bare()
    return await bot(), first_bare, timings


async def one_round(tmp: Path, n: int) -> dict[str, float]:
    async with slack_sink() as sink:
        sandbox = await start_sandbox()
        try:
            bot, bare, timings = await start_both(
                sink=sink, minds_url=sandbox.url, db=tmp / f"bot-{n}.sqlite3", bot_first=n % 2 == 0
            )
            await asyncio.sleep(IDLE_SECONDS)  # idle on purpose: memory after start-up work settled
            row = {
                "bot_start_s": bot.started_in,
                "bare_start_s": bare.started_in,
                "bot_rss_mb": rss_mb(bot.process.pid),
                "bare_rss_mb": rss_mb(bare.process.pid),
                **timings,
            }
            await stop(bot)
            await stop(bare)
        finally:
            await stop(sandbox)
    return row


async def main() -> None:
    compileall.compile_dir(ROOT / "minds_bot", quiet=1)
    rows = []
    with tempfile.TemporaryDirectory(prefix="minds-bench-") as tmp:
        for n in range(ROUNDS):
            rows.append(await one_round(Path(tmp), n))
    median = {key: statistics.median(r[key] for r in rows) for key in rows[0]}
    imports = statistics.median(import_seconds() for _ in range(3))
    summary = {
        "start_to_healthy_s": {"bot": round(median["bot_start_s"], 3), "bare": round(median["bare_start_s"], 3)},
        "start_ratio": round(median["bot_start_s"] / median["bare_start_s"], 2),
        "start_ratio_rounds": sorted(round(r["bot_start_s"] / r["bare_start_s"], 2) for r in rows),
        "start_to_first_command_acked_s": {
            "bot": round(median["bot_first_ack_s"], 3),
            "bare": round(median["bare_first_ack_s"], 3),
        },
        "first_command_ratio": round(median["bot_first_ack_s"] / median["bare_first_ack_s"], 2),
        "bot_start_to_warm_s": round(median["bot_warm_s"], 3),
        "idle_rss_mb": {"bot": round(median["bot_rss_mb"], 1), "bare": round(median["bare_rss_mb"], 1)},
        "rss_ratio": round(median["bot_rss_mb"] / median["bare_rss_mb"], 2),
        "import_minds_bot_app_s": round(imports, 3),
    }
    print(f"rounds={ROUNDS}, bot and bare alternately first (medians)")
    print(f"{'':>24} {'minds-bot':>10} {'bare bolt':>10} {'ratio':>6}")
    start, rss = summary["start_to_healthy_s"], summary["idle_rss_mb"]
    print(f"{'start to /healthz 200 s':>24} {start['bot']:>10} {start['bare']:>10} {summary['start_ratio']:>6}")
    ack = summary["start_to_first_command_acked_s"]
    print(f"{'start to 1st command ack s':>24} {ack['bot']:>10} {ack['bare']:>10} {summary['first_command_ratio']:>6}")
    print(f"{'start to warm s':>24} {summary['bot_start_to_warm_s']:>10}")
    print(f"{'idle RSS MB':>24} {rss['bot']:>10} {rss['bare']:>10} {summary['rss_ratio']:>6}")
    print(f"{'import minds_bot.app s':>24} {summary['import_minds_bot_app_s']:>10}")
    print(f"start ratio of each round: {summary['start_ratio_rounds']}")
    write_result("startup", {"rounds": ROUNDS, **summary})


if __name__ == "__main__":
    asyncio.run(main())
