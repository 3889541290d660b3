"""500 digests of one workspace due in the same minute: how long until each is posted, that each is posted
once, Slack's pace, and what it costs Minds.

The world: the Minds sandbox with ``STUDIES`` Studies that have runs (Minds' 300 requests/minute per key
enforced) and the Slack emulator with Slack's own limits on (429 beyond about one post a second per channel
after a short burst), both in this process. The bot runs as its own process (``python -m minds_bot run
--http``) on a SQLite file seeded with ``DIGESTS`` digests that follow every Study, two per channel, all due at
the same minute. Every digest of the wave reads the same Studies: without shared reads that is about fifty
Minds requests per digest (25,000 for the wave, 80 minutes of one key's allowance); the bot shares them
(``flows/digests/shared.py``).

Figures: seconds from the fire time to the last digest posted (goal: all within 60 s), digests per channel
(goal: exactly ``PER_CHANNEL`` each, so none twice and none missing), Slack's 429s (goal: 0), Minds requests
for the wave and the most one key sent in a sliding minute (≤ 300), the bot's peak RSS and CPU seconds.
Bounded: ``DIGESTS`` digests, one wave, ``TIME_LIMIT`` seconds after the fire.

    .venv/bin/python benchmarks/digest_fanout.py      (writes benchmarks/results/digest_fanout.json)
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import sys
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._harness import (
    BIN,
    busiest_minute,
    free_port,
    peak_and_cpu,
    percentile,
    spawn,
    stop,
    study_with_run,
    watch_minds,
    write_result,
)
from minds_bot.store import Digest, ScheduleKind, SecretBox, open_store
from minds_sandbox import SandboxConfig, running_sandbox
from slack_emulator import DemoChannel, EmulatorConfig, running_emulator

ROOT = Path(__file__).resolve().parent.parent
DIGESTS = 500
PER_CHANNEL = 2
STUDIES = 20  # more than a digest of every Study reads (15), so the wave reads the most recently updated
LEAD_SECONDS = 40  # the fire is the first whole minute at least this far after seeding (the bot starts first)
TIME_LIMIT = 180.0
HEADER = "Research digest"


def _studies(sandbox: Any) -> None:
    """``STUDIES`` Studies copied from the seeded one, each with a research run of its own (ending quickly)."""
    for n in range(STUDIES):
        study_with_run(sandbox.runtime, name=f"Digest study {n}", key_fp=None)


async def _seed(path: Path, secret: str, *, team: str, channels: list[str], fire: datetime) -> None:
    store = await open_store(str(path), secrets=SecretBox(secret))
    try:
        for n in range(DIGESTS):
            await store.save_digest(
                Digest(
                    digest_id=f"dg-{n:04d}",
                    team_id=team,
                    channel_id=channels[n // PER_CHANNEL],
                    schedule_kind=ScheduleKind.DAILY,
                    spec=fire.strftime("%H:%M"),
                    tz="UTC",
                    created_by="U01ADA0001",
                )
            )
    finally:
        await store.close()


def _watch_posts(emu: Any, posts: list[tuple[float, str]]) -> None:
    methods = emu.web_api._methods  # the benchmark listens in on what the emulator serves
    post = methods["chat.postMessage"]

    async def observed(args: dict[str, Any]) -> dict[str, Any]:
        body = await post(args)
        if HEADER in str(args.get("blocks")):
            posts.append((time.time(), str(args.get("channel"))))
        return body

    methods["chat.postMessage"] = observed


async def bench() -> dict[str, Any]:
    channels = [f"CDIG{n:04d}" for n in range(DIGESTS // PER_CHANNEL)]
    emulator = EmulatorConfig(
        port=0,
        signing_secret=secrets.token_hex(16),
        bot_token="xoxb-digests-" + secrets.token_hex(8),
        channels=tuple(DemoChannel(id=c, name=c.lower()) for c in channels),
        slack_limits=True,
    )
    posts: list[tuple[float, str]] = []
    with tempfile.TemporaryDirectory() as tmp:
        async with running_sandbox(SandboxConfig(seconds_per_step=1.0)) as sandbox, running_emulator(emulator) as emu:
            minds_times, minds_refused = watch_minds(sandbox.runtime)
            _watch_posts(emu, posts)
            _studies(sandbox)
            now = datetime.now(UTC)
            fire = (now + timedelta(seconds=LEAD_SECONDS + 60)).replace(second=0, microsecond=0)
            secret = SecretBox.generate_key()
            db = Path(tmp) / "bot.sqlite3"
            await _seed(db, secret, team=emulator.team_id, channels=channels, fire=fire)
            port = free_port()
            env = {
                "SLACK_BOT_TOKEN": emulator.bot_token,
                "SLACK_SIGNING_SECRET": emulator.signing_secret,
                "SLACK_API_URL": emu.api_url,
                "MINDS_API_URL": sandbox.base_url,
                "MINDS_API_KEY": sandbox.demo_key,
                "MINDS_BOT_DB": str(db),
                "MINDS_BOT_SECRET_KEY": secret,
                "LOG_LEVEL": "WARNING",
            }
            log = Path(tmp) / "bot.log"
            argv = [str(BIN / "minds-bot"), "run", "--http", "--host", "127.0.0.1", "--port", str(port)]
            bot = await spawn("minds-bot", argv, env=env, health=f"http://127.0.0.1:{port}/healthz", log=log)
            try:
                before = sum(len(t) for t in minds_times.values())
                wave_start = fire.timestamp()
                deadline = wave_start + TIME_LIMIT
                while time.time() < deadline and len(posts) < DIGESTS:
                    await asyncio.sleep(0.5)  # a benchmark's sampling period, not a synchronisation
                    sandbox.runtime.engine.tick()
                peak_mb, cpu_s = peak_and_cpu(bot.process.pid)
            finally:
                await stop(bot)
            errors = [line for line in log.read_text(errors="replace").splitlines() if "ERROR" in line]
    per_channel = Counter(channel for _, channel in posts)
    delays = [at - wave_start for at, _ in posts]
    wave_requests = [t for times in minds_times.values() for t in times if t >= wave_start - 1]
    return {
        "digests": DIGESTS,
        "channels": len(channels),
        "studies_followed": "every Study (the 15 most recently updated are read)",
        "posted": len(posts),
        "posts_per_channel": dict(sorted(Counter(per_channel.values()).items())),
        "seconds_to_last_post": round(max(delays), 1) if delays else None,
        "seconds_to_post_p50": round(percentile(delays, 0.5), 1) if delays else None,
        "slack_429s": dict(emu.pace.refused) if emu.pace else {},
        "minds_requests_wave": len(wave_requests),
        "minds_requests_before_wave": before,
        "minds_busiest_minute_per_key": max((busiest_minute(t) for t in minds_times.values()), default=0),
        "minds_429s": minds_refused[0],
        "peak_rss_mb": round(peak_mb, 1),
        "cpu_seconds": round(cpu_s, 1),
        "bot_errors_logged": len(errors),
        "first_errors": errors[:3],
    }


def main() -> None:
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args()
    figures = asyncio.run(bench())
    for name, value in figures.items():
        print(f"{name:32} {value}")
    path = write_result("digest_fanout", {"figures": figures})
    print(f"written to {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
