"""Command-line entry for the standalone emulator: ``minds-bot-slack-emulator`` or ``python -m slack_emulator``
(``minds-bot demo`` starts it in-process instead, with ``running_emulator``).

Owns argument parsing into an ``EmulatorConfig`` and serving until interrupted. Must not read secrets
from anywhere but its arguments and print none of them.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib

from slack_emulator.config import DEFAULT_PORT, EmulatorConfig
from slack_emulator.server import running_emulator

_DEFAULTS = EmulatorConfig()


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default=_DEFAULTS.host, help="address to bind (default: %(default)s)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help="port to bind (default: %(default)s)")
    parser.add_argument(
        "--bot-url",
        default=_DEFAULTS.bot_events_url,
        help="the bot's Slack request endpoint (default: %(default)s)",
    )
    parser.add_argument(
        "--signing-secret",
        default=_DEFAULTS.signing_secret,
        help="secret used to sign requests to the bot; must match the bot's SLACK_SIGNING_SECRET",
    )
    parser.add_argument(
        "--bot-token", default=_DEFAULTS.bot_token, help="the xoxb- token the bot presents to the Web API"
    )
    parser.add_argument("--team-name", default=_DEFAULTS.team_name, help="workspace name shown on the page")
    parser.add_argument(
        "--ack-timeout",
        type=float,
        default=_DEFAULTS.ack_timeout,
        help="seconds the bot has to acknowledge an interaction (Slack: 3)",
    )


def config_from_args(args: argparse.Namespace) -> EmulatorConfig:
    return EmulatorConfig(
        host=args.host,
        port=args.port,
        bot_events_url=args.bot_url,
        signing_secret=args.signing_secret,
        bot_token=args.bot_token,
        team_name=args.team_name,
        ack_timeout=args.ack_timeout,
    )


async def serve(config: EmulatorConfig, *, stop: asyncio.Event | None = None) -> None:
    """Serve until ``stop`` is set (forever when None)."""
    async with running_emulator(config) as emulator:
        print(f"Slack emulator: open {emulator.base_url}/ in a browser")
        print(f"Bot Web API base_url: {emulator.api_url}")
        print(f"Slack requests go to: {emulator.interactions.bot_events_url}")
        await (stop or asyncio.Event()).wait()


def run(args: argparse.Namespace) -> int:
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve(config_from_args(args)))
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(prog="minds-bot-slack-emulator", description=__doc__)
    add_arguments(parser)
    return run(parser.parse_args())
