"""Shared parts of the benchmarks: processes on 127.0.0.1, a Slack Web API sink, signed requests, percentiles.

Every process a benchmark starts binds to 127.0.0.1 and is stopped when the benchmark ends; every load loop is
bounded in count and time by the caller. Nothing here is imported by the bot or the tests.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import hashlib
import hmac
import json
import os
import platform
import secrets
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import httpx
from aiohttp import web

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
BIN = Path(sys.executable).parent
# The bot of this checkout (``-m`` with the checkout as working directory), not whichever copy the ``minds-bot``
# script of the environment was installed from (an editable install points at one tree only).
MINDS_BOT = [sys.executable, "-m", "minds_bot"]
SIGNING_SECRET = "bench-" + secrets.token_hex(12)
BOT_TOKEN = "xoxb-bench-" + secrets.token_hex(8)
MINDS_KEY = "minds_" + "b" * 48
TEAM = "TBENCH"
START_TIMEOUT = 30.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def machine() -> dict[str, Any]:
    """What the figures were measured on, written beside them."""
    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "processor": platform.processor() or platform.machine(),
    }


def percentile(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


def peak_and_cpu(pid: int) -> tuple[float, float]:
    """(peak resident memory in MB, CPU seconds) of a live process so far, from /proc (Linux)."""
    status = Path(f"/proc/{pid}/status").read_text().splitlines()
    peak = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:")) / 1024
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return peak, (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def busiest_minute(times: Sequence[float]) -> int:
    """The most of ``times`` (seconds) that fall in any sliding 60-second window."""
    ordered, most, start = sorted(times), 0, 0
    for end, at in enumerate(ordered):
        while ordered[start] <= at - 60:
            start += 1
        most = max(most, end - start + 1)
    return most


def watch_minds(runtime: Any) -> tuple[dict[str, list[float]], list[int]]:
    """Record, in an in-process Minds sandbox, when each key sent a request and how many it was refused (429):
    returns (key fingerprint -> request times, [refused])."""
    times: dict[str, list[float]] = {}
    refused = [0]
    count = runtime.count_request

    def counted(key_fp: str) -> tuple[int, int, int] | None:
        answer = count(key_fp)
        times.setdefault(key_fp, []).append(time.time())
        if answer is not None and answer[1] < 0:
            refused[0] += 1
        return answer

    runtime.count_request = counted
    return times, refused


def study_with_run(runtime: Any, *, name: str, key_fp: str | None) -> tuple[str, str, int]:
    """In an in-process Minds sandbox: a copy of the seeded "Launch positioning" Study with a research run of its
    plan's questions just started (charged to ``key_fp``); returns (study id, run id, questions)."""
    state, engine = runtime.state, runtime.engine
    template = next(s for s in state.studies.values() if s["name"] == "Launch positioning")
    plan = next(p for p in state.plans.values() if p["studyId"] == template["id"])
    questions = plan["revisions"][0]["questions"]
    minds = [state.minds[m] for a in template["audienceIds"] for m in state.audiences[a]["mindIds"]]
    study = copy.deepcopy(template) | {"id": state.new_id("study"), "name": name, "summary": None}
    state.studies[study["id"]] = study
    run = engine.create_run(
        study=study,
        kind="research",
        questions=questions,
        minds=minds,
        key_fp=key_fp,
        extra={"draftPlanId": plan["id"], "revision": 1},
    )
    return study["id"], run["id"], len(questions)


def rss_mb(pid: int) -> float:
    """Resident memory of a process, from /proc (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for {pid}")


def write_result(name: str, data: dict[str, Any]) -> Path:
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{name}.json"
    path.write_text(json.dumps({"machine": machine(), **data}, indent=2, sort_keys=True) + "\n")
    return path


# --- signed Slack requests ----------------------------------------------------------------------------------


def signed(body: str, *, content_type: str = "application/x-www-form-urlencoded") -> dict[str, str]:
    ts = str(int(time.time()))
    digest = hmac.new(SIGNING_SECRET.encode(), f"v0:{ts}:{body}".encode(), hashlib.sha256).hexdigest()
    return {"x-slack-request-timestamp": ts, "x-slack-signature": f"v0={digest}", "content-type": content_type}


def slash_command(text: str, *, response_url: str, n: int) -> str:
    return urlencode(
        {
            "command": "/minds",
            "text": text,
            "team_id": TEAM,
            "channel_id": "CBENCH",
            "user_id": f"U{n % 50:04d}",
            "response_url": response_url,
            "trigger_id": f"trig.{n}.{secrets.token_hex(4)}",
        }
    )


def block_action(action_id: str, value: str, *, response_url: str, n: int) -> str:
    payload = {
        "type": "block_actions",
        "team": {"id": TEAM},
        "user": {"id": f"U{n % 50:04d}", "team_id": TEAM},
        "channel": {"id": "CBENCH"},
        "container": {"type": "message", "message_ts": "1.000001", "channel_id": "CBENCH"},
        "message": {"ts": "1.000001", "text": "plan", "blocks": []},
        "trigger_id": f"trig.{n}.{secrets.token_hex(4)}",
        "response_url": response_url,
        "actions": [{"action_id": action_id, "block_id": "b", "value": value, "action_ts": f"{time.time():.6f}{n}"}],
    }
    return urlencode({"payload": json.dumps(payload)})


# --- the Slack Web API sink ---------------------------------------------------------------------------------


@dataclass
class SlackSink:
    """Answers every Web API call and response_url POST with ``ok``; counts them."""

    url: str
    calls: dict[str, int] = field(default_factory=dict)


@contextlib.asynccontextmanager
async def slack_sink() -> AsyncIterator[SlackSink]:
    port = free_port()
    sink = SlackSink(url=f"http://127.0.0.1:{port}/api/")

    async def answer(request: web.Request) -> web.Response:
        name = request.match_info.get("method", "response_url")
        sink.calls[name] = sink.calls.get(name, 0) + 1
        await request.read()
        reply: dict[str, Any] = {"ok": True}
        if name == "auth.test":
            reply |= {"team_id": TEAM, "user_id": "UBOT", "bot_id": "BBOT", "team": "Bench"}
        elif name == "users.info":
            reply |= {"user": {"id": "U0000", "tz": "UTC", "is_admin": False}}
        elif name in ("chat.postMessage", "chat.update", "chat.postEphemeral"):
            reply |= {"channel": "CBENCH", "ts": f"{time.time():.6f}"}
        return web.json_response(reply)

    app = web.Application()
    app.router.add_post("/api/{method}", answer)
    app.router.add_post("/respond/{n}", answer)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    try:
        yield sink
    finally:
        await runner.cleanup()


# --- processes ----------------------------------------------------------------------------------------------


@dataclass
class Proc:
    name: str
    process: asyncio.subprocess.Process
    url: str
    started_in: float  # seconds from spawn to the first 200 from its health URL


async def wait_healthy(url: str, process: asyncio.subprocess.Process, *, within: float = START_TIMEOUT) -> float:
    """Poll ``url`` until it answers 200; returns the monotonic time it first did."""
    deadline = time.monotonic() + within
    async with httpx.AsyncClient(timeout=1.0) as http:
        while time.monotonic() < deadline:
            if process.returncode is not None:
                raise RuntimeError(f"process exited with {process.returncode} before it was healthy")
            with contextlib.suppress(httpx.HTTPError):
                if (await http.get(url)).status_code == 200:
                    return time.monotonic()
            await asyncio.sleep(0.01)  # polling an external process: there is no event to await
    raise TimeoutError(f"{url} not healthy within {within} s")


async def spawn(name: str, argv: list[str], *, env: dict[str, str], health: str, log: Path | None = None) -> Proc:
    """Start a process and wait until ``health`` answers 200; its output goes to ``log`` (or nowhere)."""
    started = time.monotonic()
    out = log.open("wb") if log is not None else subprocess.DEVNULL
    try:
        process = await asyncio.create_subprocess_exec(
            *argv, env={**os.environ, **env}, stdout=out, stderr=subprocess.STDOUT, cwd=ROOT
        )
    finally:
        if log is not None:
            out.close()
    try:
        healthy_at = await wait_healthy(health, process)
    except BaseException:
        process.kill()
        await process.wait()
        raise
    return Proc(name=name, process=process, url=health.rsplit("/", 1)[0], started_in=healthy_at - started)


async def stop(proc: Proc) -> None:
    if proc.process.returncode is not None:
        return
    proc.process.terminate()
    try:
        await asyncio.wait_for(proc.process.wait(), 10)
    except TimeoutError:
        proc.process.kill()
        await proc.process.wait()


async def start_sandbox(*, latency_ms: int = 0) -> Proc:
    port = free_port()
    argv = [*MINDS_BOT, "sandbox", "--port", str(port), "--rate-limit", "0"]
    if latency_ms:
        argv += ["--latency-ms", str(latency_ms)]
    proc = await spawn("sandbox", argv, env={}, health=f"http://127.0.0.1:{port}/_sandbox/faults")
    proc.url = f"http://127.0.0.1:{port}/api/v1"
    return proc


def bot_env(*, sink: SlackSink, minds_url: str, db: Path) -> dict[str, str]:
    from cryptography.fernet import Fernet

    return {
        "SLACK_BOT_TOKEN": BOT_TOKEN,
        "SLACK_SIGNING_SECRET": SIGNING_SECRET,
        "SLACK_API_URL": sink.url,
        "MINDS_API_URL": minds_url,
        "MINDS_API_KEY": MINDS_KEY,
        "MINDS_BOT_DB": str(db),
        "MINDS_BOT_SECRET_KEY": Fernet.generate_key().decode(),
        "LOG_LEVEL": "WARNING",
    }


async def start_bot(*, sink: SlackSink, minds_url: str, db: Path) -> Proc:
    port = free_port()
    argv = [*MINDS_BOT, "run", "--http", "--port", str(port)]
    env = bot_env(sink=sink, minds_url=minds_url, db=db)
    return await spawn("minds-bot", argv, env=env, health=f"http://127.0.0.1:{port}/healthz")


async def start_bare(*, sink: SlackSink) -> Proc:
    """The baseline: a bare slack-bolt AsyncApp on the same aiohttp adapter that only acks."""
    port = free_port()
    argv = [sys.executable, str(ROOT / "benchmarks" / "bare_bolt.py"), str(port)]
    env = {"SLACK_BOT_TOKEN": BOT_TOKEN, "SLACK_SIGNING_SECRET": SIGNING_SECRET, "SLACK_API_URL": sink.url}
    return await spawn("bare-bolt", argv, env=env, health=f"http://127.0.0.1:{port}/healthz")
