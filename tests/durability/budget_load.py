"""The shared-budget proof's load: several replica processes (``budget_replica.py``) on one PostgreSQL database, two
workspaces connected with one Minds key, every replica firing all its commands at once at the Minds sandbox, which
counts what arrives per key in a sliding window (``/_sandbox/traffic``).

``run_load`` returns the figures: requests at the sandbox, the most in any sliding window, its 429s, commands and
lost commands. Used by ``test_shared_budget.py`` (a short window, so the suite stays quick) and by
``benchmarks/shared_budget.py`` (prints them, Minds' real 300 a minute by default). Every wait is bounded.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

from minds_bot.store import PostgresStore, SecretBox, WorkspaceSettings, utc_now
from minds_sandbox import SandboxConfig, running_sandbox

REPO = Path(__file__).resolve().parents[2]
TEAMS = ("T0BUDGETA1", "T0BUDGETB2")
PEOPLE = 4  # per workspace
SANDBOX_SEED = 7  # the sandbox's demo key follows from it
READY_WAIT = 60.0  # a bound on a replica's start, never a timing


async def run_load(
    url: str,
    *,
    replicas: int = 3,
    commands: int = 20,
    limit: int = 300,
    window: float = 60.0,
    shared: bool = True,
    done_wait: float = 600.0,
) -> dict[str, Any]:
    """``commands`` per replica (two Minds requests each), all at once; ``shared=False`` counts each replica's
    budget in its own memory (as before issue 28), to compare."""
    secret_key = SecretBox.generate_key()
    sandbox = SandboxConfig(
        seed=SANDBOX_SEED, rate_limit_per_minute=limit, rate_window_seconds=window, seconds_per_step=0.05
    )
    async with running_sandbox(sandbox) as minds:
        store = await PostgresStore.open(url, secrets=SecretBox(secret_key))
        try:
            for team in TEAMS:
                connected = WorkspaceSettings(
                    team_id=team, minds_key=minds.demo_key, connected_by="U0ADMIN", connected_at=utc_now()
                )
                await store.save_workspace(connected)
        finally:
            await store.close()
        env = {
            **{k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "MINDS_", "LOG_", "BUDGET_"))},
            "PYTHONPATH": str(REPO),
            "MINDS_API_URL": minds.base_url,
            "MINDS_BOT_SECRET_KEY": secret_key,
            "MINDS_BOT_DATABASE_URL": url,
            "MINDS_BOT_DATABASE_POOL_SIZE": "4",
            "MINDS_BOT_MINDS_REQUESTS_PER_MINUTE": str(limit),
            "MINDS_BOT_MINDS_WINDOW_SECONDS": str(window),
            "BUDGET_TEAMS": ",".join(TEAMS),
            "BUDGET_PEOPLE": str(PEOPLE),
            "BUDGET_COMMANDS": str(commands),
            "BUDGET_LEDGER": "database" if shared else "memory",
        }
        started = time.monotonic()
        with tempfile.TemporaryDirectory() as cwd:  # no stray .env is read
            procs = [
                await asyncio.create_subprocess_exec(
                    sys.executable,
                    "-m",
                    "tests.durability.budget_replica",
                    cwd=cwd,
                    env=env,
                    stdin=asyncio.subprocess.PIPE,
                    stdout=asyncio.subprocess.PIPE,
                )
                for _ in range(replicas)
            ]
            try:
                for proc in procs:
                    assert proc.stdout is not None
                    line = await asyncio.wait_for(proc.stdout.readline(), READY_WAIT)
                    assert line.strip() == b"ready", f"a replica did not start: {line!r}"
                load_started = time.monotonic()
                for proc in procs:
                    assert proc.stdin is not None
                    proc.stdin.write(b"go\n")
                    await proc.stdin.drain()
                reports = [json.loads(await asyncio.wait_for(_last_line(proc), done_wait)) for proc in procs]
                load_seconds = time.monotonic() - load_started
            finally:
                for proc in procs:
                    if proc.returncode is None:
                        proc.kill()
                    with contextlib.suppress(ProcessLookupError):
                        await proc.wait()
        async with aiohttp.ClientSession() as session, session.get(minds.origin + "/_sandbox/traffic") as answer:
            traffic = await answer.json()
    (counted,) = traffic["keys"].values()  # one Minds key
    failed = [f for report in reports for f in report["failed"]]
    return {
        "budget counted": "in PostgreSQL, shared" if shared else "in each replica's memory",
        "replicas": replicas,
        "workspaces on the key": len(TEAMS),
        "people per workspace": PEOPLE,
        "limit": limit,
        "window seconds": window,
        "commands": sum(report["commands"] for report in reports),
        "lost commands": len(failed),
        "requests at the sandbox": counted["total"],
        "most requests in any sliding window at the sandbox": counted["maxInWindow"],
        "429s from the sandbox": counted["throttled"],
        "seconds of load": round(load_seconds, 1),
        "seconds in all": round(time.monotonic() - started, 1),
        "failures": failed[:5],
    }


async def _last_line(proc: asyncio.subprocess.Process) -> bytes:
    assert proc.stdout is not None
    out = await proc.stdout.read()
    await proc.wait()
    lines = out.decode().strip().splitlines()
    if proc.returncode != 0 or not lines:
        raise AssertionError(f"a replica failed (exit {proc.returncode}): {out.decode()[-2000:]}")
    return lines[-1].encode()
