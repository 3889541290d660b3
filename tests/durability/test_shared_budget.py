"""The shared Minds budget (issue 28): replicas and workspaces on one Minds key keep together to the key's allowance.

Three replica processes on one PostgreSQL database, each serving two workspaces connected with the same key, fire
all their commands at once: far more than the allowance. The Minds sandbox counts what arrives for the key in a
sliding window: never more than the allowance, no 429, and every command done. Minds' 300 a minute is scaled to 30
per 5 seconds here (the bot's ``MINDS_BOT_MINDS_WINDOW_SECONDS`` and the sandbox's ``rate_window_seconds``, the same
window) so the suite stays quick; ``benchmarks/shared_budget.py`` runs the real minute. The per-person share is
also counted across replicas: what someone used through one replica is their share on another.
"""

from __future__ import annotations

import asyncio
import time

import asyncpg
import pytest

from minds_bot.minds import RateLimiter, budget_name
from minds_bot.minds.policy import caller
from minds_bot.services import FairShare, MindsDirectory
from minds_bot.settings import Settings
from minds_bot.store import MemoryStore, PostgresStore, SecretBox, WorkspaceSettings, utc_now
from minds_sandbox.ids import demo_key
from tests.durability.budget_load import SANDBOX_SEED, run_load
from tests.pg_server import PgServer

LIMIT, WINDOW = 30, 5.0
COMMANDS = 20  # per replica, two requests each: 120 requests at once against 30 per window


class _Stopped(Exception):
    """Raised by a test's sleep to end a wait it only wants to see."""


async def test_three_replicas_and_two_workspaces_on_one_key_never_exceed_its_allowance(pg_server: PgServer) -> None:
    url = await pg_server.new_database()
    try:
        figures = await run_load(url, replicas=3, commands=COMMANDS, limit=LIMIT, window=WINDOW, done_wait=180.0)
        conn = await asyncpg.connect(url)
        try:
            budgets = [row["budget"] for row in await conn.fetch("SELECT budget FROM minds_budgets")]
            callers = {row["caller"] for row in await conn.fetch("SELECT caller FROM minds_budget_sends")}
        finally:
            await conn.close()
    finally:
        await pg_server.drop_database(url)
    assert budgets == [budget_name(demo_key(SANDBOX_SEED))]  # one budget for both workspaces, named by a hash
    assert demo_key(SANDBOX_SEED) not in budgets[0]
    assert {c.split(":")[0] for c in callers} == {"T0BUDGETA1", "T0BUDGETB2"}  # each person's share, per workspace
    assert figures["lost commands"] == 0, figures["failures"]
    assert figures["commands"] == 3 * COMMANDS
    assert figures["requests at the sandbox"] == 2 * 3 * COMMANDS
    assert figures["most requests in any sliding window at the sandbox"] <= LIMIT, figures
    assert figures["429s from the sandbox"] == 0, figures


async def test_a_persons_share_of_the_key_is_counted_across_replicas(pg_server: PgServer) -> None:
    """Someone who used half the key's window through one replica is told to wait on another."""
    url = await pg_server.new_database()
    box = SecretBox(SecretBox.generate_key())
    first, second = await PostgresStore.open(url, secrets=box), await PostgresStore.open(url, secrets=box)
    try:
        budget = budget_name("minds_" + "a" * 48)
        one, two = (
            RateLimiter(requests_per_minute=10, clock=time.monotonic, sleep=asyncio.sleep, ledger=store, budget=budget)
            for store in (first, second)
        )
        caller.set(FairShare.caller_for(team_id="T0BUDGETA1", user_id="U0ADA"))
        for _ in range(one.caller_limit):
            await one.acquire()
        fair = FairShare(clock=utc_now)
        busy = await fair.busy(team_id="T0BUDGETA1", user_id="U0ADA", limiter=two)
        assert busy is not None and busy.reason == "share"
        assert await fair.busy(team_id="T0BUDGETB2", user_id="U0ADA", limiter=two) is None  # another person
        assert await two.delay() == 0.0  # the key itself has room left for everyone else
        assert await two.delay(keep_free=0.6) > 0  # but not beyond what follow-ups leave free
    finally:
        await first.close()
        await second.close()
        await pg_server.drop_database(url)


async def test_a_429_pauses_every_replica_on_the_key_for_its_retry_after(pg_server: PgServer) -> None:
    url = await pg_server.new_database()
    box = SecretBox(SecretBox.generate_key())
    first, second = await PostgresStore.open(url, secrets=box), await PostgresStore.open(url, secrets=box)
    waits: list[float] = []

    async def note(seconds: float) -> None:
        waits.append(seconds)
        raise _Stopped  # stop at the first wait: nothing really waits

    try:
        budget = budget_name("minds_" + "b" * 48)
        one = RateLimiter(clock=time.monotonic, sleep=asyncio.sleep, ledger=first, budget=budget)
        two = RateLimiter(clock=time.monotonic, sleep=note, ledger=second, budget=budget)
        await two.acquire()  # room: no wait
        await one.observe(status_code=429, headers={"retry-after": "20"})
        with pytest.raises(_Stopped):
            await two.acquire()
        assert len(waits) == 1 and 19 < waits[0] <= 20
    finally:
        await first.close()
        await second.close()
        await pg_server.drop_database(url)


async def test_two_workspaces_on_one_key_share_its_limiter_in_one_process() -> None:
    """Without a database (or on SQLite) one process counts the key once, whichever workspace sends."""
    store = MemoryStore(secrets=SecretBox(SecretBox.generate_key()))
    shared, own = "minds_" + "c" * 48, "minds_" + "d" * 48
    for team, key in (("T0BUDGETA1", shared), ("T0BUDGETB2", shared), ("T0BUDGETC3", own)):
        await store.save_workspace(
            WorkspaceSettings(team_id=team, minds_key=key, connected_by="U0ADMIN", connected_at=utc_now())
        )

    async def nobody() -> frozenset[str]:
        return frozenset()

    minds = MindsDirectory(Settings(), store, served_teams=nobody)
    try:
        a, b, c = [await minds.client_for(team) for team in ("T0BUDGETA1", "T0BUDGETB2", "T0BUDGETC3")]
        assert a.limiter is b.limiter
        assert c.limiter is not a.limiter
    finally:
        await minds.aclose()
