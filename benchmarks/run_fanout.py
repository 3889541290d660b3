"""One bot process following 1,000 live research runs: memory, CPU, Minds and Slack calls per run, Slack's 429s,
and how long after a run ends its result appears.

The world: the Minds sandbox (runs of four questions, one settled every ``STEP_SECONDS``, Minds' 300
requests/minute per key enforced) and the Slack emulator with Slack's own limits on (``slack_limits``: about one
post a second per channel, ``chat.update`` 50 a minute per workspace, 429 beyond), both in this process. The bot
runs as its own process (``python -m minds_bot run --http``, OAuth mode) on a SQLite file seeded before it
starts with ``WORKSPACES`` installs, each with its own Minds key and ``CHANNELS_PER_WORKSPACE`` channels, and
``RUNS`` tracked runs started in the sandbox a moment before: the bot finds them in its store, as after a
restart, and follows each to its result and report.

Figures: the bot's peak RSS (VmHWM) and CPU seconds; Minds requests per run and the most any key sent in one
sliding minute (goal: ≤ 300, no 429 from Minds); Slack calls per run by method, 429s from Slack (goal: 0), edits
of a run's progress message against its visible states + 1 (goal: never more); the delay from a run's end in
Minds to its result in the thread. Bounded: ``RUNS`` runs, ``TIME_LIMIT`` seconds.

    .venv/bin/python benchmarks/run_fanout.py      (writes benchmarks/results/run_fanout.json)
    .venv/bin/python benchmarks/run_fanout.py --runs 100 --workspaces 2     (a quick look)
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
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
from minds_bot.store import BotRecord, RunKind, SecretBox, TrackedRun, WorkspaceSettings, open_store
from minds_sandbox import SandboxConfig, running_sandbox
from minds_sandbox.ids import key_fingerprint
from slack_emulator import DemoChannel, EmulatorConfig, running_emulator
from slack_emulator.workspace import Content

ROOT = Path(__file__).resolve().parent.parent
RUNS = 1000
WORKSPACES = 10
CHANNELS_PER_WORKSPACE = 10
STEP_SECONDS = 6.0  # one question settled per step: a run lasts about five steps
TIME_LIMIT = 900.0
PROGRESS_MARKS = (":hourglass_flowing_sand:", ":arrows_counterclockwise:")


@dataclass
class Seen:
    """What reached the two servers, with the time it arrived."""

    slack: Counter[str] = field(default_factory=Counter)
    results: dict[str, float] = field(default_factory=dict)  # thread ts -> first result post
    progress_ts: dict[str, str] = field(default_factory=dict)  # thread ts -> its progress message
    edits: Counter[str] = field(default_factory=Counter)  # progress message ts -> chat.update calls
    reports: set[str] = field(default_factory=set)  # thread ts with the report attached


def _watch_slack(emu: Any, seen: Seen) -> None:
    methods = emu.web_api._methods  # the benchmark listens in on what the emulator serves

    def wrap(name: str, method: Any) -> Any:
        async def observed(args: dict[str, Any]) -> dict[str, Any]:
            body = await method(args)
            seen.slack[name] += 1
            thread = args.get("thread_ts")
            text = str(args.get("text") or "")
            if name == "chat.postMessage" and isinstance(thread, str):
                if text.startswith(PROGRESS_MARKS) and thread not in seen.progress_ts:
                    seen.progress_ts[thread] = body["ts"]
                elif not text.startswith(PROGRESS_MARKS) and thread not in seen.results:
                    seen.results[thread] = time.time()
            elif name == "chat.update":
                seen.edits[str(args.get("ts"))] += 1
            elif name == "files.completeUploadExternal" and "report" in str(args.get("initial_comment") or args):
                seen.reports.add(str(args.get("thread_ts")))
            return body

        return observed

    for name, method in list(methods.items()):
        methods[name] = wrap(name, method)


def _channels(workspaces: int) -> tuple[DemoChannel, ...]:
    return tuple(
        DemoChannel(id=f"CFAN{w:02d}{c:03d}", name=f"fanout-{w}-{c}")
        for w in range(workspaces)
        for c in range(CHANNELS_PER_WORKSPACE)
    )


def _start_runs(sandbox: Any, *, runs: int, keys: list[str]) -> tuple[list[tuple[int, str, str]], int]:
    """``runs`` Studies copied from the seeded one, each with a live research run; (workspace, study, run)."""
    started, questions = [], 0
    for n in range(runs):
        workspace = n % len(keys)
        fingerprint = key_fingerprint(keys[workspace])
        study_id, run_id, questions = study_with_run(sandbox.runtime, name=f"Fan-out {n}", key_fp=fingerprint)
        started.append((workspace, study_id, run_id))
    return started, questions


async def _seed_bot(
    path: Path, secret: str, *, keys: list[str], tokens: list[str], started: list[tuple[int, str, str]], emu: Any
) -> dict[str, str]:
    """Installs, Minds keys and tracked runs in the bot's store; returns run id -> its thread ts."""
    store = await open_store(str(path), secrets=SecretBox(secret))
    now = datetime.now(UTC)
    threads: dict[str, str] = {}
    try:
        for w, (key, token) in enumerate(zip(keys, tokens, strict=True)):
            team = f"TFAN{w:04d}"
            await store.save_bot(
                BotRecord(
                    team_id=team,
                    bot_token=token,
                    bot_id=emu.config.bot_id,
                    bot_user_id=emu.config.bot_user_id,
                    installed_at=now,
                )
            )
            await store.save_workspace(
                WorkspaceSettings(team_id=team, minds_key=key, connected_by="U01ADA0001", connected_at=now)
            )
        for n, (w, study_id, run_id) in enumerate(started):
            channel = emu.state.channels[f"CFAN{w:02d}{n // len(keys) % CHANNELS_PER_WORKSPACE:03d}"]
            root = emu.workspace.post_message(
                channel=channel,
                content=Content(text=f"Plan for Fan-out {n}", blocks=[]),
                user=emu.config.bot_user_id,
                thread_ts=None,
            )
            threads[run_id] = root.ts
            await store.add_tracked_run(
                TrackedRun(
                    team_id=f"TFAN{w:04d}",
                    run_id=run_id,
                    study_id=study_id,
                    kind=RunKind.RESEARCH,
                    channel_id=channel.id,
                    thread_ts=root.ts,
                    next_poll_at=now,
                )
            )
    finally:
        await store.close()
    return threads


async def bench(*, runs: int, workspaces: int) -> dict[str, Any]:
    seen = Seen()
    keys = ["minds_" + secrets.token_hex(24) for _ in range(workspaces)]
    tokens = ["xoxb-fanout-" + secrets.token_hex(8) for _ in range(workspaces)]
    signing = secrets.token_hex(16)
    emulator = EmulatorConfig(
        port=0,
        signing_secret=signing,
        channels=_channels(workspaces),
        slack_limits=True,
        installs={t: f"TFAN{w:04d}" for w, t in enumerate(tokens)},
    )
    sandbox_config = SandboxConfig(seconds_per_step=STEP_SECONDS, rate_limit_per_minute=300)
    with tempfile.TemporaryDirectory() as tmp:
        async with running_sandbox(sandbox_config) as sandbox, running_emulator(emulator) as emu:
            minds_times, minds_refused = watch_minds(sandbox.runtime)
            _watch_slack(emu, seen)
            started, questions = _start_runs(sandbox, runs=runs, keys=keys)
            secret = SecretBox.generate_key()
            db = Path(tmp) / "bot.sqlite3"
            threads = await _seed_bot(db, secret, keys=keys, tokens=tokens, started=started, emu=emu)
            port = free_port()
            log = Path(tmp) / "bot.log"
            env = {
                "SLACK_CLIENT_ID": "1.2",
                "SLACK_CLIENT_SECRET": secrets.token_hex(16),
                "SLACK_SIGNING_SECRET": signing,
                "SLACK_API_URL": emu.api_url,
                "MINDS_API_URL": sandbox.base_url,
                "MINDS_BOT_DB": str(db),
                "MINDS_BOT_SECRET_KEY": secret,
                "LOG_LEVEL": "WARNING",
            }
            began = time.time()
            argv = [str(BIN / "minds-bot"), "run", "--http", "--host", "127.0.0.1", "--port", str(port)]
            bot = await spawn("minds-bot", argv, env=env, health=f"http://127.0.0.1:{port}/healthz", log=log)
            try:
                emu.connect_bot(f"http://127.0.0.1:{port}/slack/events")
                deadline = time.monotonic() + TIME_LIMIT
                while time.monotonic() < deadline and len(seen.reports) < runs:
                    await asyncio.sleep(1.0)  # a benchmark's sampling period, not a synchronisation
                    sandbox.runtime.engine.tick()
                peak_mb, cpu_s = peak_and_cpu(bot.process.pid)
            finally:
                await stop(bot)
            elapsed = time.time() - began
            errors = [line for line in log.read_text(errors="replace").splitlines() if "ERROR" in line]
            ended = {r["id"]: r["completedAt"] for r in sandbox.runtime.state.runs.values() if r.get("completedAt")}
    delays = [seen.results[threads[run]] - ended[run] for _, _, run in started if threads[run] in seen.results]
    most_edits = max((seen.edits[ts] for ts in seen.progress_ts.values()), default=0)
    minds_requests = sum(len(times) for times in minds_times.values())
    return {
        "runs": runs,
        "workspaces": workspaces,
        "channels": workspaces * CHANNELS_PER_WORKSPACE,
        "questions_per_run": questions,
        "seconds": round(elapsed, 1),
        "results_posted": len(seen.results),
        "reports_attached": len(seen.reports),
        "peak_rss_mb": round(peak_mb, 1),
        "cpu_seconds": round(cpu_s, 1),
        "minds_requests_per_run": round(minds_requests / runs, 2),
        "minds_busiest_minute_per_key": max((busiest_minute(t) for t in minds_times.values()), default=0),
        "minds_429s": minds_refused[0],
        "slack_calls_per_run": round(sum(seen.slack.values()) / runs, 2),
        "slack_calls_by_method": dict(sorted(seen.slack.items())),
        "slack_429s": dict(emu.pace.refused) if emu.pace else {},
        "progress_edits_most": most_edits,
        "visible_states_plus_one": questions + 3,  # queued, 0…Q-1 settled, terminal; + 1
        "result_delay_s": {
            "p50": round(percentile(delays, 0.5), 1) if delays else None,
            "p95": round(percentile(delays, 0.95), 1) if delays else None,
            "max": round(max(delays), 1) if delays else None,
        },
        "bot_errors_logged": len(errors),
        "first_errors": errors[:3],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=RUNS)
    parser.add_argument("--workspaces", type=int, default=WORKSPACES)
    args = parser.parse_args()
    figures = asyncio.run(bench(runs=args.runs, workspaces=args.workspaces))
    for name, value in figures.items():
        print(f"{name:32} {value}")
    if args.runs == RUNS and args.workspaces == WORKSPACES:
        path = write_result("run_fanout", {"figures": figures})
        print(f"written to {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
