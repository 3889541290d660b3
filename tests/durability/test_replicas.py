"""The proof that replicas never double work: three real bot processes (``minds-bot run --http``) on one PostgreSQL
database, behind a round-robin load balancer, with the Minds sandbox and the local Slack emulator.

It plans research, fires concurrent Approve clicks (two per plan, on different replicas), asks questions, lets
digests fire, kills one replica with SIGKILL while runs are in flight, and checks: every run gets exactly one
result message, every approval exactly one research run at Minds, every digest fire one post, and every run the
dead replica held is taken over once its lease runs out. The figures are printed and written to
benchmarks/results/replicas.json. Bounded throughout: every wait has a deadline; short leases (``LEASE``) and a
fast sandbox keep it well under two minutes on two cores.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import aiohttp
import asyncpg
from aiohttp import web

from minds_bot.store import Digest, PostgresStore, ScheduleKind, SecretBox
from minds_bot.store.base import TERMINAL_CLAIM_LEASES
from minds_sandbox import RunningSandbox, SandboxConfig, running_sandbox
from minds_sandbox.config import Faults
from slack_emulator import Emulator, EmulatorConfig, running_emulator
from slack_emulator.config import DemoUser, default_users
from slack_emulator.interactions import Delivery
from slack_emulator.state import Message
from tests.pg_server import PgServer

REPO = Path(__file__).resolve().parents[2]
RESULTS = REPO / "benchmarks" / "results" / "replicas.json"
RECORD_ENV = "MINDS_BOT_RECORD_FIGURES"
REPLICAS = 3
# Each plan is approved by two concurrent clicks on different replicas: 50 Approve clicks.
PLANS = int(os.environ.get("MINDS_BOT_TEST_REPLICA_PLANS", "25"))
ASKS = int(os.environ.get("MINDS_BOT_TEST_REPLICA_ASKS", "75"))  # with the plans' runs: 100 research runs
LEASE = 3.0  # seconds: how long a dead replica's runs wait before another replica takes them
STUDY = "Launch positioning"
START_WAIT = 60.0
# A bound on any one awaited step, never a timing. Above a minute: a replica that has spent its Minds minute looks
# at its runs again only when the minute has room (up to 61 s, plus jitter), and holds no lease meanwhile.
STEP_WAIT = 120.0
ALL_DONE_WAIT = 150.0
CONCURRENCY = 10  # commands in flight at once while setting up
# As many people as commands in flight: the load is many people asking once each, not three people with ten
# requests apiece (the bot would rightly tell those three to wait: at most 3 requests in progress per person).
PEOPLE = CONCURRENCY + 2
USER_ATTEMPTS = 3
SLOW_MINDS_MS = 1500  # Minds' answer time while a replica is killed: it dies mid-poll


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Replica:
    name: str
    port: int
    process: subprocess.Popen[bytes]
    log: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@dataclass
class Balancer:
    """A round-robin load balancer on 127.0.0.1 in front of the replicas; a replica that refuses connections is
    taken out of rotation (as a health-checking balancer would)."""

    replicas: list[Replica]
    served: Counter[str] = field(default_factory=Counter)
    _turn: itertools.count = field(default_factory=itertools.count)
    _session: aiohttp.ClientSession | None = None

    async def handle(self, request: web.Request) -> web.Response:
        assert self._session is not None
        body = await request.read()
        headers = {k: v for k, v in request.headers.items() if k.lower().startswith(("x-slack", "content-type"))}
        for _ in range(2 * len(self.replicas)):
            replica = self.replicas[next(self._turn) % len(self.replicas)]
            if replica.process.poll() is not None:
                continue
            try:
                async with self._session.post(f"{replica.url}/slack/events", data=body, headers=headers) as answer:
                    payload = await answer.read()
                    self.served[replica.name] += 1
                    return web.Response(status=answer.status, body=payload, content_type=answer.content_type)
            except aiohttp.ClientConnectionError:
                continue
        return web.Response(status=503, text="no replica answered")

    @asynccontextmanager
    async def running(self) -> AsyncIterator[str]:
        app = web.Application()
        app.router.add_post("/slack/events", self.handle)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30)) as session:
            self._session = session
            try:
                yield f"http://127.0.0.1:{runner.addresses[0][1]}/slack/events"
            finally:
                await runner.cleanup()


def _people() -> tuple[DemoUser, ...]:
    extra = PEOPLE - len(default_users())
    load = [
        DemoUser(id=f"U01LOAD{n:04}", name=f"load{n}", real_name=f"Load Tester {n}", locale="en-US", tz="UTC")
        for n in range(extra)
    ]
    return (*default_users(), *load)


def _bot_env(*, url: str, emu: Emulator, minds: RunningSandbox, secret_key: str) -> dict[str, str]:
    keep = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "MINDS_", "LOG_"))}
    return {
        **keep,
        "PYTHONPATH": str(REPO),
        "SLACK_BOT_TOKEN": emu.config.bot_token,
        "SLACK_SIGNING_SECRET": emu.config.signing_secret,
        "SLACK_API_URL": emu.api_url,
        "MINDS_API_URL": minds.base_url,
        "MINDS_API_KEY": minds.demo_key,
        "MINDS_BOT_SECRET_KEY": secret_key,
        "MINDS_BOT_DATABASE_URL": url,
        "MINDS_BOT_DATABASE_POOL_SIZE": "10",
        "MINDS_BOT_LEASE_SECONDS": str(LEASE),
        # The figure here is how replicas share 100 runs in one channel, not Slack's pace for one channel
        # (tests/slack/test_slack_rate_limits.py): that pace would make this a 100-second test.
        "MINDS_BOT_SLACK_POSTS_PER_SECOND": "1000",
        "MINDS_BOT_SLACK_UPDATES_PER_MINUTE": "100000",
        # Nor is it the one Minds budget the replicas share (tests/durability/test_shared_budget.py): at the default
        # 300 requests a minute the 100 runs' polls queue behind it for two minutes, and a question asked in the
        # middle may wait longer than a person would.
        "MINDS_BOT_MINDS_REQUESTS_PER_MINUTE": "100000",
        "LOG_LEVEL": "WARNING",
    }


def _start_replica(name: str, env: dict[str, str], logs: Path) -> Replica:
    port = _free_port()
    log = logs / f"{name}.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "minds_bot", "run", "--http", "--host", "127.0.0.1", "--port", str(port)],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            cwd=logs,
        )
    return Replica(name=name, port=port, process=process, log=log)


async def _wait_healthy(replica: Replica, session: aiohttp.ClientSession) -> None:
    """Poll /healthz: a separate process offers no event to await. Bounded by START_WAIT."""
    deadline = time.monotonic() + START_WAIT
    while time.monotonic() < deadline:
        if replica.process.poll() is not None:
            raise AssertionError(f"{replica.name} exited: {replica.log.read_text(errors='replace')[-2000:]}")
        try:
            async with session.get(f"{replica.url}/healthz") as answer:
                if answer.status == 200:
                    return
        except aiohttp.ClientConnectionError:
            pass
        await asyncio.sleep(0.2)
    raise AssertionError(f"{replica.name} was not healthy within {START_WAIT:.0f} s")


def _stop(replica: Replica) -> None:
    if replica.process.poll() is None:
        replica.process.send_signal(signal.SIGINT)
        try:
            replica.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            replica.process.kill()
            replica.process.wait(timeout=15)


async def _seed_digests(url: str, *, secret_key: str, team_id: str, channel: str) -> list[str]:
    """Digests made two days ago: a daily one whose latest fire the replicas catch up on at start (once between
    them), and a per-minute one that fires live while the test runs."""
    made = datetime.now(UTC) - timedelta(days=2)
    store = await PostgresStore.open(url, secrets=SecretBox(secret_key), clock=lambda: made)
    specs = {"dg-daily": (ScheduleKind.DAILY, "00:00"), "dg-minute": (ScheduleKind.CRON, "* * * * *")}
    try:
        for digest_id, (kind, spec) in specs.items():
            await store.save_digest(
                Digest(
                    digest_id=digest_id,
                    team_id=team_id,
                    channel_id=channel,
                    schedule_kind=kind,
                    spec=spec,
                    tz="UTC",
                    created_by="U01ADA0001",
                )
            )
    finally:
        await store.close()
    return list(specs)


def _actions(message: Message) -> list[str]:
    return [e.get("action_id", "") for b in message.blocks if b.get("type") == "actions" for e in b["elements"]]


def _blocks(message: Message) -> str:
    return json.dumps(message.blocks, ensure_ascii=False)


def research_results(emu: Emulator, channel: str, thread_ts: str) -> list[Message]:
    """A research run's result headline in its plan's thread (continuation pages excluded)."""
    return [
        m
        for m in emu.state.replies(channel, thread_ts)
        if f"({STUDY})" in _blocks(m) and not m.text.endswith("(continued)")
    ]


def ask_results(emu: Emulator, channel: str, thread_ts: str) -> list[Message]:
    """A question's result in its thread: its answers, or the words saying it ended without any."""
    ended = ("no answers to show", "gave no answer to read")
    return [
        m
        for m in emu.state.replies(channel, thread_ts)
        if '"*Results:*' in _blocks(m) or '"*Themes:*' in _blocks(m) or any(e in m.text for e in ended)
    ]


@dataclass
class Load:
    emu: Emulator
    channel: str
    users: list[str]
    plans: list[str] = field(default_factory=list)  # plan message ts
    requesters: dict[str, str] = field(default_factory=dict)  # plan message ts → who asked for it
    asks: list[str] = field(default_factory=list)  # question thread ts
    retried: int = 0  # requests Slack gave up on (no answer within 3 s) that the user sent again
    asked_again: int = 0  # of those, questions: the bot may have asked the first one too (a second run, rightly)

    async def as_user(self, act: Callable[[], Awaitable[Delivery]]) -> int:
        """Do what a person does when Slack says an action failed: try again (a bounded number of times).
        Returns how many times it was sent again."""
        for attempt in range(USER_ATTEMPTS):
            if (await act()).ok:
                return attempt
            self.retried += 1
        raise AssertionError(f"Slack could not deliver an action in {USER_ATTEMPTS} attempts")

    def user(self, n: int) -> str:
        return self.users[n % len(self.users)]


async def _prepare_plan(load: Load, n: int, lock: asyncio.Lock) -> None:
    emu = load.emu
    async with lock:  # one command at a time, so the next new plan message is this one's
        since = emu.mark()
        text = f'plan "{STUDY}" Test tagline number {n} with Gen Z buyers: Run further and waste less, take {n}'
        await load.as_user(lambda: emu.send_slash_command(user=load.user(n), channel=load.channel, text=text))
        plan = await emu.wait_for_message(
            load.channel, lambda m: "Research plan" in m.text, since=since, timeout=STEP_WAIT
        )
    answer = next(a for a in _actions(plan) if a.startswith("plan_answer:"))
    await load.as_user(lambda: emu.click_button(user=load.user(n), action_id=answer, channel=load.channel, ts=plan.ts))

    def revised() -> bool:
        return any(m.ts == plan.ts and "revision 2" in m.text for m in emu.state.messages(load.channel))

    await emu.wait_for(revised, timeout=STEP_WAIT)
    load.plans.append(plan.ts)
    load.requesters[plan.ts] = load.user(n)


async def _ask(load: Load, n: int, lock: asyncio.Lock) -> None:
    emu, token = load.emu, f"q{n:03}x"
    async with lock:
        text = f'ask "{STUDY}" Would you buy shoe {token} at its price?'
        load.asked_again += await load.as_user(
            lambda: emu.send_slash_command(user=load.user(n), channel=load.channel, text=text)
        )
    parent = await emu.wait_for_message(load.channel, lambda m: token in m.text, timeout=STEP_WAIT)
    load.asks.append(parent.ts)


async def _bounded(jobs: list[Callable[[], Any]]) -> None:
    slots = asyncio.Semaphore(CONCURRENCY)

    async def one(job: Callable[[], Any]) -> None:
        async with slots:
            await job()

    await asyncio.gather(*(one(job) for job in jobs))


async def _leased_by(url: str, pid: int) -> dict[tuple[str, str], bool]:
    """The unfinished runs a replica holds a live lease on, each with whether it is posting a result (of a research
    run or a question: what this test counts; a report being attached meanwhile is not a result)."""
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch(
            "SELECT team_id, run_id, kind, terminal_claimed_at FROM tracked_runs "
            "WHERE terminal_posted = 0 AND lease_holder LIKE $1",
            f"%:{pid}:%",
        )
    finally:
        await conn.close()
    results = ("research", "direct")
    return {
        (row["team_id"], row["run_id"]): row["terminal_claimed_at"] is not None and row["kind"] in results
        for row in rows
    }


async def _polling_replica(url: str, replicas: list[Replica]) -> Replica:
    """The first replica seen polling runs and not posting a result: the one to kill. Which replica claims the
    runs is a race (one may take them all), so the victim is whichever is mid-poll. A replica killed in the
    milliseconds between Slack accepting a result and the database recording it leaves that result to be posted
    again (docs/operating.md, Scaling out): that window is not what this test measures."""

    seen: list[dict[tuple[str, str], bool]] = []
    found: list[Replica] = []

    async def holding() -> bool:
        for replica in replicas:
            held = await _leased_by(url, replica.process.pid)
            seen.append(held)
            if held and not any(held.values()):
                found.append(replica)
                return True
        return False

    try:
        await _poll_until(holding, timeout=STEP_WAIT, every=0.05)
    except AssertionError:
        conn = await asyncpg.connect(url)
        try:
            rows = await conn.fetch(
                "SELECT kind, lease_holder, terminal_claimed_at IS NOT NULL AS posting, next_poll_at "
                "FROM tracked_runs WHERE terminal_posted = 0"
            )
        finally:
            await conn.close()
        sizes = [len(h) for h in seen]
        raise AssertionError(
            f"no replica held a lease only for polling; they held {min(sizes, default=0)}-"
            f"{max(sizes, default=0)} runs, posting in {sum(any(h.values()) for h in seen)} of {len(seen)} looks; "
            f"unfinished now: {[dict(r) for r in rows][:20]}"
        ) from None
    return found[0]


async def _takeover_times(url: str, runs: set[tuple[str, str]], *, dead_pid: int) -> dict[tuple[str, str], float]:
    """Seconds until each run the dead replica held is leased by another replica or has its result posted."""
    started, taken = time.monotonic(), {}

    async def all_taken() -> bool:
        conn = await asyncpg.connect(url)
        try:
            rows = await conn.fetch("SELECT team_id, run_id, lease_holder, terminal_posted FROM tracked_runs")
        finally:
            await conn.close()
        for row in rows:
            key = (row["team_id"], row["run_id"])
            moved = row["terminal_posted"] == 1 or f":{dead_pid}:" not in (row["lease_holder"] or "")
            if key in runs and moved and key not in taken:
                taken[key] = time.monotonic() - started
        return len(taken) == len(runs)

    await _poll_until(all_taken, timeout=ALL_DONE_WAIT, every=0.1)
    return taken


async def _unfinished(url: str) -> int:
    conn = await asyncpg.connect(url)
    try:
        return int(await conn.fetchval("SELECT count(*) FROM tracked_runs WHERE terminal_posted = 0"))
    finally:
        await conn.close()


async def _digest_windows(url: str) -> Counter[str]:
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch("SELECT digest_id FROM digest_runs WHERE completed_at IS NOT NULL")
    finally:
        await conn.close()
    return Counter(row["digest_id"] for row in rows)


async def _poll_until(check: Callable[[], Any], *, timeout: float, every: float = 0.25) -> float:  # noqa: ASYNC109
    """Seconds until ``check()`` held; the store is another process's, so it is polled (bounded)."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if await check():
            return time.monotonic() - started
        await asyncio.sleep(every)
    raise AssertionError(f"not reached within {timeout:.0f} s")


async def test_three_replicas_share_the_work_and_survive_a_kill(pg_server: PgServer, tmp_path: Path) -> None:
    url = await pg_server.new_database()
    secret_key = SecretBox.generate_key()
    sandbox = SandboxConfig(rate_limit_per_minute=None, seconds_per_step=0.05, faults=Faults(run_speed=1.0))
    emu_config = EmulatorConfig(
        host="127.0.0.1",
        port=0,
        signing_secret=secrets.token_hex(16),
        bot_token="xoxb-replicas-" + secrets.token_hex(6),
        users=_people(),
    )
    started = time.monotonic()
    async with running_sandbox(sandbox) as minds, running_emulator(emu_config) as emu:
        research = next(c.id for c in emu.config.channels if c.name == "research")
        news = next(c.id for c in emu.config.channels if c.name == "brand")
        digests = await _seed_digests(url, secret_key=secret_key, team_id=emu.config.team_id, channel=news)
        env = _bot_env(url=url, emu=emu, minds=minds, secret_key=secret_key)
        replicas = [_start_replica(f"replica-{n}", env, tmp_path) for n in range(REPLICAS)]
        balancer = Balancer(replicas)
        try:
            async with aiohttp.ClientSession() as session:
                await asyncio.gather(*(_wait_healthy(r, session) for r in replicas))
            async with balancer.running() as events_url:
                emu.connect_bot(events_url)
                figures = await _drive(emu=emu, minds=minds, url=url, replicas=replicas, research=research)
                figures["digest posts"] = len([m for m in emu.state.messages(news) if m.user == emu.config.bot_user_id])
                windows = await _digest_windows(url)
        finally:
            for replica in replicas:
                _stop(replica)
            await pg_server.drop_database(url)
    figures["digest fires"] = sum(windows.values())
    figures["requests per replica"] = dict(sorted(balancer.served.items()))
    figures["seconds in all"] = round(time.monotonic() - started, 1)
    _record(figures)
    assert set(windows) >= set(digests[:1])  # the daily digest's missed fire was caught up, once
    assert figures["digest posts"] == figures["digest fires"]  # one post per fire, however many replicas
    assert figures["duplicate results"] == 0 and figures["runs without a result"] == 0
    # One run per question and per approved plan; a question Slack gave up on and the person typed again may
    # rightly have been asked twice (a new command, not a repeated delivery).
    again = figures["questions typed again after Slack gave up"]
    assert figures["research runs"] <= figures["research runs started at Minds"] <= figures["research runs"] + again
    assert figures["approvals with other than one run"] == 0


async def _drive(
    *, emu: Emulator, minds: RunningSandbox, url: str, replicas: list[Replica], research: str
) -> dict[str, Any]:
    load = Load(emu=emu, channel=research, users=[u.id for u in emu.config.users])
    lock = asyncio.Lock()
    t0, minds_t0 = time.monotonic(), minds.runtime.clock.now()
    await _bounded([lambda n=n: _prepare_plan(load, n, lock) for n in range(PLANS)])
    plans_ready = time.monotonic() - t0

    # 50 Approve clicks at once, each plan's two by people who may approve it (its requester and Ada, an admin),
    # sent one after the other so round-robin hands them to different replicas.
    admin = load.users[0]
    clicks = [(ts, who) for ts in load.plans for who in (load.requesters[ts], admin)]
    await asyncio.gather(
        *(
            load.as_user(
                lambda ts=ts, user=user: emu.click_button(  # type: ignore[misc]
                    user=user, action_id="plan_approve", channel=research, ts=ts
                )
            )
            for ts, user in clicks
        ),
        _bounded([lambda n=n: _ask(load, n, lock) for n in range(ASKS)]),
    )

    def done() -> int:
        plans = sum(bool(research_results(emu, research, ts)) for ts in load.plans)
        return plans + sum(bool(ask_results(emu, research, ts)) for ts in load.asks)

    total = len(load.plans) + len(load.asks)

    # Mid-way: every click and question has reached Minds (a request a replica acknowledged and then died with is
    # a person's to repeat, which is not under test here), and a third of the results are in.
    def waiting() -> list[str]:
        return [ts for ts in (*load.plans, *load.asks) if not emu.state.replies(research, ts)]

    try:
        await emu.wait_for(lambda: not waiting(), timeout=ALL_DONE_WAIT)
    except TimeoutError:
        raise AssertionError(f"never started: {waiting()}" + await _plan_states(url, load)) from None
    # Slow Minds down before a third of the results are in, so polls take a while and runs are still being
    # followed when the victim is killed in the middle of polling, holding leases (at full speed every run can be
    # finished before the test looks).
    minds.runtime.faults.latency_ms = SLOW_MINDS_MS
    await emu.wait_for(lambda: done() >= total // 3, timeout=ALL_DONE_WAIT)
    victim = await _polling_replica(url, replicas)
    killed_at = time.time()
    victim.process.send_signal(signal.SIGKILL)
    victim.process.wait(timeout=10)
    held = await _leased_by(url, victim.process.pid)  # exactly what it held when it died
    minds.runtime.faults.latency_ms = 0
    killed_at_done = done()
    taken = await _takeover_times(url, set(held), dead_pid=victim.process.pid)
    polling = [taken[key] for key, posting in held.items() if not posting]
    posting = [taken[key] for key, posting in held.items() if posting]
    try:
        await emu.wait_for(lambda: done() >= total, timeout=ALL_DONE_WAIT)
    except TimeoutError:
        raise AssertionError(_missing(load) + await _plan_states(url, load)) from None
    drained = await _poll_until(lambda: _no_unfinished(url), timeout=ALL_DONE_WAIT)

    results = [len(research_results(emu, research, ts)) for ts in load.plans]
    results += [len(ask_results(emu, research, ts)) for ts in load.asks]
    started = _runs_started(minds, plans=len(load.plans), since=minds_t0)
    doubled = [
        {"thread": ts, "posted": [m.ts for m in found(emu, research, ts)], "killed_at": round(killed_at, 3)}
        for threads, found in ((load.plans, research_results), (load.asks, ask_results))
        for ts in threads
        if len(found(emu, research, ts)) > 1
    ]
    return {
        "replicas": len(replicas),
        "research runs": total,
        "plans": len(load.plans),
        "questions": len(load.asks),
        "approve clicks": len(clicks),
        "actions Slack timed out and the user repeated": load.retried,
        "questions typed again after Slack gave up": load.asked_again,
        "runs with a result when one replica was killed": killed_at_done,
        "runs the killed replica was polling": len(polling),
        "seconds until another replica took them over (slowest)": round(max(polling, default=0.0), 2),
        "results the killed replica was posting": len(posting),
        "seconds until another replica took those over (slowest)": round(max(posting, default=0.0), 2),
        "lease seconds": LEASE,
        "terminal-post claim seconds": LEASE * TERMINAL_CLAIM_LEASES,
        "duplicate results": sum(max(0, n - 1) for n in results),
        "runs without a result": results.count(0),
        "seconds until every tracked run was finished after the kill": round(drained, 2),
        "seconds to prepare the plans": round(plans_ready, 1),
        **started,
        "duplicated": doubled,
    }


def _missing(load: Load) -> str:
    """Which threads lack their result, and what they show instead (for a failure message)."""
    emu, lines = load.emu, []
    for kind, threads, found in (("plan", load.plans, research_results), ("ask", load.asks, ask_results)):
        for ts in threads:
            if not found(emu, load.channel, ts):
                replies = [m.text[:80] for m in emu.state.replies(load.channel, ts)]
                lines.append(f"{kind} {ts}: {replies}")
    return "no result in:\n" + "\n".join(lines)


async def _plan_states(url: str, load: Load) -> str:
    """What the database says about plans without a result (for a failure message)."""
    conn = await asyncpg.connect(url)
    try:
        lines = []
        for ts in load.plans:
            if research_results(load.emu, load.channel, ts):
                continue
            post = await conn.fetchrow("SELECT * FROM plan_posts WHERE message_ts = $1", ts)
            approvals = await conn.fetch("SELECT * FROM approvals WHERE draft_plan_id = $1", post["draft_plan_id"])
            lines.append(f"\n{ts}: post {dict(post)} approvals {[dict(a) for a in approvals]}")
        return "".join(lines)
    finally:
        await conn.close()


async def _no_unfinished(url: str) -> bool:
    return await _unfinished(url) == 0


def _runs_started(minds: RunningSandbox, *, plans: int, since: float) -> dict[str, int]:
    """What Minds itself saw since ``since`` (the seeded demo runs are older): runs started per approved plan
    (its draft) and questions asked."""
    runs = [run for run in minds.runtime.state.runs.values() if run["createdAt"] >= since]
    per_plan = Counter(run["draftPlanId"] for run in runs if run["kind"] == "research")
    asked = sum(run["kind"] == "direct" for run in runs)
    return {
        "research runs started at Minds": sum(per_plan.values()) + asked,
        "approvals with other than one run": plans - sum(count == 1 for count in per_plan.values()),
    }


def _record(figures: dict[str, Any]) -> None:
    print("\nthree replicas on one PostgreSQL database:")  # noqa: T201 - the figures are the point
    for name, value in figures.items():
        print(f"  {name}: {value}")  # noqa: T201
    if os.environ.get(RECORD_ENV):  # the committed figures are rewritten on purpose, never by every test run
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        RESULTS.write_text(json.dumps({"measured_at": datetime.now(UTC).isoformat(), **figures}, indent=2) + "\n")
