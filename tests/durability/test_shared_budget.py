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

from minds_bot.minds import RateLimiter, budget_name
from minds_bot.minds.policy import caller
from minds_bot.services import FairShare
from minds_bot.store import PostgresStore, SecretBox, utc_now
from tests.durability.budget_load import run_load
from tests.pg_server import PgServer

LIMIT, WINDOW = 30, 5.0
COMMANDS = 20  # per replica, two requests each: 120 requests at once against 30 per window


async def test_three_replicas_and_two_workspaces_on_one_key_never_exceed_its_allowance(pg_server: PgServer) -> None:
    url = await pg_server.new_database()
    try:
        figures = await run_load(url, replicas=3, commands=COMMANDS, limit=LIMIT, window=WINDOW, done_wait=180.0)
    finally:
        await pg_server.drop_database(url)
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
