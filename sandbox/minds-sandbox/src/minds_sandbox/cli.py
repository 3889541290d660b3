"""``minds-bot sandbox`` (alone: ``minds-bot-sandbox`` or ``python -m minds_sandbox``): serve the Minds v1 API
until Ctrl-C.

Owns: the sandbox's command-line flags and turning them into a ``SandboxConfig``.
Must not contain server logic.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from minds_sandbox.config import Faults, SandboxConfig
from minds_sandbox.ids import demo_key

DEMO_PLAN_RECEIPTS = 1  # a demo shows the 202 preparation receipt the bot must handle


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="interface to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8787, help="port to bind (default 8787)")
    parser.add_argument(
        "--db",
        type=Path,
        default=None,
        metavar="FILE",
        help="SQLite file that keeps state across restarts (default: memory only)",
    )
    parser.add_argument("--seed", type=int, default=7, help="seed for demo data and synthetic answers")
    parser.add_argument(
        "--key",
        action="append",
        default=None,
        metavar="KEY",
        help="accept only this minds_ key (repeatable; default: any well-formed key)",
    )
    parser.add_argument(
        "--allowance",
        type=int,
        default=None,
        metavar="N",
        help="responses each key may use (default: unlimited)",
    )
    parser.add_argument(
        "--rate-limit",
        type=int,
        default=300,
        metavar="N",
        help="requests per minute per key; 0 disables the limit (default 300)",
    )
    parser.add_argument(
        "--rate-window",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="the rate limit's 'minute' and the window /_sandbox/traffic counts in (default 60)",
    )
    parser.add_argument("--speed", type=float, default=1.0, help="run speed multiplier (default 1.0)")
    parser.add_argument("--latency-ms", type=float, default=0.0, help="added latency per API request")
    parser.add_argument(
        "--error-rate",
        action="append",
        default=[],
        metavar="[GLOB=]RATE",
        help='fraction of requests answered 500, optionally for "METHOD /path" globs',
    )
    parser.add_argument("--throttle-rate", type=float, default=0.0, help="fraction of requests answered 429")
    parser.add_argument("--retry-after", type=int, default=2, help="Retry-After seconds on injected 429s")
    parser.add_argument(
        "--malformed-lists",
        choices=["missing_pagination", "data_not_list", "empty_page"],
        default=None,
        help="break list bodies in this way",
    )
    parser.add_argument(
        "--plan-receipts",
        type=int,
        default=DEMO_PLAN_RECEIPTS,
        help=f"202 receipts before a plan preview's 200 (default {DEMO_PLAN_RECEIPTS})",
    )
    parser.add_argument(
        "--drop-answer-rate",
        type=float,
        default=0.0,
        help="fraction of Mind answers that never arrive (runs end partial)",
    )
    parser.add_argument(
        "--no-model-connections",
        action="store_true",
        help="answer GET /model-connections with 404 (the server has no model connections)",
    )


def config_from_args(args: argparse.Namespace) -> SandboxConfig:
    faults = Faults(
        latency_ms=args.latency_ms,
        error_rates=_error_rates(args.error_rate),
        throttle_rate=args.throttle_rate,
        retry_after_seconds=args.retry_after,
        malformed_lists=args.malformed_lists,
        plan_receipts=args.plan_receipts,
        run_speed=args.speed,
        drop_answer_rate=args.drop_answer_rate,
        model_connections=not args.no_model_connections,
    )
    return SandboxConfig(
        host=args.host,
        port=args.port,
        db_path=args.db,
        seed=args.seed,
        allowed_keys=frozenset(args.key) if args.key else None,
        response_allowance=args.allowance,
        rate_limit_per_minute=args.rate_limit or None,
        rate_window_seconds=args.rate_window,
        faults=faults,
    )


def _error_rates(values: list[str]) -> dict[str, float]:
    rates = {}
    for value in values:
        pattern, _, rate = value.rpartition("=")
        rates[pattern or "*"] = float(rate)
    return rates


def run(args: argparse.Namespace) -> int:
    from aiohttp import web  # the server loads only when it is started, not for ``minds-bot --help``

    from minds_sandbox.app import V1, create_app

    try:
        config = config_from_args(args)
    except ValueError as exc:
        print(f"minds-bot sandbox: {exc}")
        return 2
    key = next(iter(sorted(config.allowed_keys))) if config.allowed_keys else demo_key(config.seed)

    def banner(_: str) -> None:
        base = f"http://{config.host}:{config.port}{V1}"
        print(f"Minds sandbox serving {base}")
        print(f"  MINDS_BASE_URL={base}")
        print(f"  MINDS_API_KEY={key}   (sandbox-only key)")
        print(f"  state: {config.db_path or 'memory'}; control: http://{config.host}:{config.port}/_sandbox/status")
        print("  Ctrl-C to stop")

    web.run_app(create_app(config), host=config.host, port=config.port, print=banner, access_log=None)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(prog="minds-bot-sandbox", description=__doc__)
    add_arguments(parser)
    return run(parser.parse_args())


if __name__ == "__main__":
    raise SystemExit(main())
