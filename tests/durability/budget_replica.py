"""One replica of the shared-budget proof (``test_shared_budget.py``, ``benchmarks/shared_budget.py``): a process of
its own, with its own PostgreSQL pool and the bot's own ``MindsDirectory``, ``FairShare`` and Minds client, serving
commands for two workspaces connected with the same Minds key.

Run as ``python -m tests.durability.budget_replica`` with the settings in the environment (as a replica reads them)
and ``BUDGET_TEAMS``, ``BUDGET_PEOPLE``, ``BUDGET_COMMANDS`` (``BUDGET_LEDGER=memory``: count in this process only,
the way it was before issue 28, for comparison). It opens the store, says ``ready`` on stdout, waits for
``go`` on stdin (so every replica starts its load at the same moment), runs its commands (each: who am I and the
research methods, on behalf of one person of one workspace; all at once) and prints one JSON line: how many commands
it ran, and every one that failed with its error. Nothing here is timed by sleeping.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time

from minds_bot.minds import MemoryLedger
from minds_bot.services import FairShare, MindsDirectory
from minds_bot.settings import Settings
from minds_bot.store import PostgresStore, SecretBox, utc_now


async def _empty() -> frozenset[str]:
    return frozenset()


async def main() -> None:
    settings = Settings.from_env()
    teams = os.environ["BUDGET_TEAMS"].split(",")
    people = int(os.environ["BUDGET_PEOPLE"])
    commands = int(os.environ["BUDGET_COMMANDS"])
    assert settings.minds_bot_database_url is not None
    store = await PostgresStore.open(
        settings.minds_bot_database_url.get_secret_value(),
        secrets=SecretBox(",".join(k.get_secret_value() for k in settings.minds_bot_secret_key)),
        pool_size=settings.minds_bot_database_pool_size,
    )
    minds = MindsDirectory(settings, store, served_teams=_empty)
    if os.environ.get("BUDGET_LEDGER") == "memory":  # the comparison: each replica counts only its own requests
        minds._ledger = MemoryLedger(time.monotonic)
    fair = FairShare(clock=utc_now)
    failed: list[str] = []

    async def command(n: int) -> None:
        team, user = teams[n % len(teams)], f"U{(n // len(teams)) % people:04}"
        try:
            async with fair.running(team_id=team, user_id=user):
                client = await minds.client_for(team)
                await client.me()
                await client.research_methods()
        except Exception as exc:  # noqa: BLE001 - a lost command is what this counts
            failed.append(f"{team}/{user}: {type(exc).__name__}: {exc}")

    try:
        print("ready", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        await asyncio.gather(*(command(n) for n in range(commands)))
    finally:
        await minds.aclose()
        await store.close()
    print(json.dumps({"commands": commands, "failed": failed}), flush=True)


if __name__ == "__main__":
    asyncio.run(main())
