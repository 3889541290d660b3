"""Cold start and idle memory of minds-bot, against a bare slack-bolt app measured in the same run.

Each round spawns ``minds-bot run --http`` (fresh SQLite file, the Minds sandbox running beside it) and the
baseline ``benchmarks/bare_bolt.py``, times process start to the first ``GET /healthz`` 200, waits IDLE_SECONDS
and reads each process's resident memory from /proc. Also times ``import minds_bot.app`` alone in a fresh
interpreter. Ratios (minds-bot / bare) are what to compare across machines; the goals are ≤ 1.0 s to healthy
and ≤ 80 MB idle. Bounded: ROUNDS rounds.

    .venv/bin/python benchmarks/startup.py            (writes benchmarks/results/startup.json)
"""

from __future__ import annotations

import asyncio
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._harness import rss_mb, slack_sink, start_bare, start_bot, start_sandbox, stop, write_result  # noqa: E402

ROUNDS = 5
IDLE_SECONDS = 2.0  # let start-up work settle before reading memory


def import_seconds() -> float:
    """Wall time of ``import minds_bot.app`` in a fresh interpreter (minus the interpreter's own start)."""

    def timed(code: str) -> float:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)  # noqa: S603 - our own interpreter
        return time.perf_counter() - start

    return timed("import minds_bot.app") - timed("pass")


async def one_round(tmp: Path, n: int) -> dict[str, float]:
    async with slack_sink() as sink:
        sandbox = await start_sandbox()
        try:
            bot = await start_bot(sink=sink, minds_url=sandbox.url, db=tmp / f"bot-{n}.sqlite3")
            bare = await start_bare(sink=sink)
            await asyncio.sleep(IDLE_SECONDS)  # idle on purpose: memory after start-up work settled
            row = {
                "bot_start_s": bot.started_in,
                "bare_start_s": bare.started_in,
                "bot_rss_mb": rss_mb(bot.process.pid),
                "bare_rss_mb": rss_mb(bare.process.pid),
            }
            await stop(bot)
            await stop(bare)
        finally:
            await stop(sandbox)
    return row


async def main() -> None:
    rows = []
    with tempfile.TemporaryDirectory(prefix="minds-bench-") as tmp:
        for n in range(ROUNDS):
            rows.append(await one_round(Path(tmp), n))
    median = {key: statistics.median(r[key] for r in rows) for key in rows[0]}
    imports = statistics.median(import_seconds() for _ in range(3))
    summary = {
        "start_to_healthy_s": {"bot": round(median["bot_start_s"], 3), "bare": round(median["bare_start_s"], 3)},
        "start_ratio": round(median["bot_start_s"] / median["bare_start_s"], 2),
        "idle_rss_mb": {"bot": round(median["bot_rss_mb"], 1), "bare": round(median["bare_rss_mb"], 1)},
        "rss_ratio": round(median["bot_rss_mb"] / median["bare_rss_mb"], 2),
        "import_minds_bot_app_s": round(imports, 3),
    }
    print(f"rounds={ROUNDS} (medians)")
    print(f"{'':>24} {'minds-bot':>10} {'bare bolt':>10} {'ratio':>6}")
    start, rss = summary["start_to_healthy_s"], summary["idle_rss_mb"]
    print(f"{'start to /healthz 200 s':>24} {start['bot']:>10} {start['bare']:>10} {summary['start_ratio']:>6}")
    print(f"{'idle RSS MB':>24} {rss['bot']:>10} {rss['bare']:>10} {summary['rss_ratio']:>6}")
    print(f"{'import minds_bot.app s':>24} {summary['import_minds_bot_app_s']:>10}")
    write_result("startup", {"rounds": ROUNDS, **summary})


if __name__ == "__main__":
    asyncio.run(main())
