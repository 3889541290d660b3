"""The shared Minds budget (issue 28) measured: three replica processes on one PostgreSQL database, two workspaces
connected with one Minds key, every replica firing its commands at once; the Minds sandbox counts what arrives for
the key. Prints the figures: requests at the sandbox, the most in any sliding window (goal: ≤ the limit), 429s
from the sandbox, commands and lost commands (goal: 0). ``--compare`` also runs the same load with each replica
counting only its own requests (as before issue 28), to show what sharing prevents.

PostgreSQL: the server ``MINDS_BOT_TEST_DATABASE_URL`` names, or one started for the run (as the tests do, from
Debian's ``postgresql`` package; scripts/_postgres.sh). Bounded: ``--commands`` per replica, every wait has a bound.

    .venv/bin/python benchmarks/shared_budget.py         (Minds' 300 a minute; writes results/shared_budget.json)
    .venv/bin/python benchmarks/shared_budget.py --limit 30 --window 5 --compare       (the test's scale, quick)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._harness import write_result
from tests.durability.budget_load import run_load
from tests.pg_server import start_server


async def measure(args: argparse.Namespace) -> dict[str, Any]:
    server = start_server()
    try:
        figures: dict[str, Any] = {}
        modes = (True, False) if args.compare else (True,)
        for shared in modes:
            url = await server.new_database()
            try:
                result = await run_load(
                    url,
                    replicas=args.replicas,
                    commands=args.commands,
                    limit=args.limit,
                    window=args.window,
                    shared=shared,
                )
            finally:
                await server.drop_database(url)
            figures["shared" if shared else "per replica (before)"] = result
        return figures
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replicas", type=int, default=3)
    parser.add_argument("--commands", type=int, default=150, help="per replica, two Minds requests each")
    parser.add_argument("--limit", type=int, default=300, help="requests per window (Minds: 300)")
    parser.add_argument("--window", type=float, default=60.0, help="seconds (Minds: 60)")
    parser.add_argument("--compare", action="store_true", help="also run with a budget per replica")
    args = parser.parse_args()
    figures = asyncio.run(measure(args))
    print(json.dumps(figures, indent=2))
    if args.limit == 300 and args.window == 60.0:
        print(f"written to {write_result('shared_budget', figures)}")


if __name__ == "__main__":
    main()
