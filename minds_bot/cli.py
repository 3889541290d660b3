"""The ``minds-bot`` command line: run, sandbox, demo, manifest, check. Thin: each command calls one module.

Owns: argument parsing, turning settings problems into one plain message with exit code 2, and exit codes.
``sandbox`` and ``demo`` start the Minds sandbox and the Slack emulator, distributions of their own (``sandbox/``,
the extra ``minds-bot[demo]``) imported only when one of those commands runs; without them, one sentence says how
to install them.
Must not touch: listener behaviour or wire shapes; no tracebacks for expected problems.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import sys
from collections.abc import Sequence

from minds_bot import __version__
from minds_bot.settings import Settings, SettingsError, SlackMode, load_settings

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_CONFIG = 2

DESCRIPTION = "minds-bot: Minds synthetic market research in Slack channels."
EPILOG = (
    "Configuration comes from environment variables (or a .env file in the working directory); "
    "see docs/operating.md for the full table. Run 'minds-bot COMMAND --help' for a command's options."
)
# The distributions `minds-bot demo` and `minds-bot sandbox` start (the extra minds-bot[demo]), by import name.
DEMO_PACKAGES = ("minds_sandbox", "slack_emulator")
NOT_INSTALLED = (
    "{command} needs the Minds sandbox and the Slack emulator (minds-bot[demo]): in the repository, scripts/run "
    "installs them, or run pip install -e sandbox/minds-sandbox -e sandbox/slack-emulator -e '.[demo]'."
)


def _add_run(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "run",
        help="run the bot against Slack (Socket Mode, or HTTP with --http)",
        description=(
            "Run the bot. Uses Socket Mode when SLACK_APP_TOKEN is set; with --http it serves Slack's requests "
            "(slash commands, interactivity, events, options) at POST /slack/events with signature "
            "verification, and GET /healthz."
        ),
    )
    p.add_argument("--http", action="store_true", help="serve Slack's HTTP requests instead of Socket Mode")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on in HTTP mode (default: %(default)s)")
    p.add_argument("--port", type=int, default=3000, help="port to listen on in HTTP mode (default: %(default)s)")
    p.set_defaults(handler=cmd_run)


def _add_sandbox(sub: argparse._SubParsersAction, *, with_options: bool = True) -> None:
    p = sub.add_parser(
        "sandbox",
        help="serve the embedded Minds v1 API locally (no Minds account needed)",
        description="Serve the embedded Minds v1 API sandbox with seeded demo Audiences and Studies.",
    )
    if not with_options:  # another command runs: the sandbox's options (and their imports) are not needed
        return
    try:
        from minds_sandbox import cli as sandbox_cli
    except ModuleNotFoundError as exc:
        if not _is_demo_package(exc):
            raise
        p.set_defaults(handler=lambda args: _not_installed("minds-bot sandbox"), not_installed=True)
        return
    sandbox_cli.add_arguments(p)
    p.set_defaults(handler=lambda args: sandbox_cli.run(args))


def _add_demo(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "demo",
        help="the whole product on this machine: Minds sandbox, Slack emulator and the bot",
        description=(
            "Start the embedded Minds sandbox, the local Slack emulator and the bot (HTTP mode, signatures "
            "verified, a fresh SQLite file, generated secrets) and print the URL to open. Ctrl-C stops all three; "
            "nothing is kept."
        ),
    )
    p.add_argument("--host", default="127.0.0.1", help="address for the page and servers (default: %(default)s)")
    p.add_argument("--port", type=int, default=3300, help="port of the local Slack page (default: %(default)s)")
    p.add_argument(
        "--minds-port",
        type=int,
        default=0,
        help="port of the embedded Minds sandbox API (default: 0, any free port; the console prints it)",
    )
    p.add_argument(
        "--bot-port",
        type=int,
        default=0,
        help="port the bot serves /slack/events on (default: 0, any free port; the console prints it)",
    )
    p.add_argument(
        "--verbose",
        action="store_true",
        help="also log every HTTP call between the parts (as DEBUG lines); by default the console shows one line "
        "a command or action, and warnings",
    )
    p.set_defaults(handler=cmd_demo)


def _add_manifest(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "manifest",
        help="print the Slack app manifest (YAML) generated from the registered listeners",
        description=(
            "Print the Slack app manifest, generated from the same definitions the code registers. Paste it "
            "into https://api.slack.com/apps → Create New App → From an app manifest."
        ),
    )
    p.add_argument("--mode", choices=("socket", "http"), default="socket", help="delivery mode (default: socket)")
    p.add_argument("--url", help="public https base URL of the bot, required for --mode http")
    p.set_defaults(handler=cmd_manifest)


def _add_check(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "check",
        help="validate settings and test the Minds key and the Slack token",
        description=(
            "Validate the settings, call Minds GET /auth/me and Slack auth.test, and say exactly what is wrong. "
            "Never prints a secret."
        ),
    )
    p.set_defaults(handler=cmd_check)


def build_parser(*, sandbox_options: bool = True) -> argparse.ArgumentParser:
    """The whole command line; ``sandbox_options=False`` leaves out the ``sandbox`` command's options, which
    import the sandbox's configuration (``main`` does that unless the command line names the sandbox)."""
    parser = argparse.ArgumentParser(prog="minds-bot", description=DESCRIPTION, epilog=EPILOG)
    parser.add_argument("--version", action="version", version=f"minds-bot {__version__}")
    sub = parser.add_subparsers(title="commands", metavar="COMMAND", required=True)
    for add in (_add_run, _add_demo, _add_manifest, _add_check):
        add(sub)
        if add is _add_run:
            _add_sandbox(sub, with_options=sandbox_options)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(sandbox_options="sandbox" in words)
    args, unknown = parser.parse_known_args(words)
    if unknown and not getattr(args, "not_installed", False):  # options of a sandbox that is not installed: the hint
        parser.parse_args(words)  # argparse's own message naming what it does not know, exit code 2
    try:
        return int(args.handler(args))
    except SettingsError as exc:
        print(exc.render(), file=sys.stderr)
        return EXIT_CONFIG
    except KeyboardInterrupt:
        return EXIT_OK


# --- commands --------------------------------------------------------------------------------------------


def _configure_logging(settings: Settings) -> None:
    from minds_bot.log import configure_logging

    configure_logging(level=settings.log_level, fmt=settings.log_format.value, secrets=settings.secrets())


def cmd_run(args: argparse.Namespace) -> int:
    settings = load_settings()
    http = args.http or settings.slack_mode is SlackMode.HTTP
    if not settings.has_slack_credentials:
        print(
            "No Slack credentials are set, so there is no Slack workspace to serve.\n"
            "  - To try everything locally without accounts: minds-bot demo\n"
            "  - To connect to Slack: set SLACK_BOT_TOKEN with SLACK_APP_TOKEN (Socket Mode) or "
            "SLACK_SIGNING_SECRET (HTTP mode); see docs/operating.md.",
            file=sys.stderr,
        )
        return EXIT_CONFIG
    problems = settings.problems_for_run(http=http)
    if problems:
        raise SettingsError(problems)
    _configure_logging(settings)
    # Importing the bot creates objects that live as long as the process; collecting garbage among them while
    # importing finds next to nothing and costs a few per cent of start-up, and so would the first full collection
    # after it: they are moved out of the collector's sight (frozen) before it is switched back on.
    gc.disable()
    try:
        from minds_bot import app
        from minds_bot.store import StoreError
    finally:
        gc.freeze()
        gc.enable()

    try:
        if http:
            return _run_forever(app.serve_http(settings, host=args.host, port=args.port))
        return _run_forever(app.serve_socket_mode(settings))
    except StoreError as exc:  # unreachable database, wrong password, newer schema: the message has no secret
        print(f"minds-bot cannot start: the database cannot be used. {exc}", file=sys.stderr)
        return EXIT_CONFIG


def _run_forever(coro: object) -> int:
    try:
        asyncio.run(coro)  # type: ignore[arg-type]
    except KeyboardInterrupt:
        print("stopped", file=sys.stderr)
    return EXIT_OK


def _is_demo_package(exc: ModuleNotFoundError) -> bool:
    return (exc.name or "").partition(".")[0] in DEMO_PACKAGES


def _not_installed(command: str) -> int:
    print(NOT_INSTALLED.format(command=command), file=sys.stderr)
    return EXIT_CONFIG


def cmd_demo(args: argparse.Namespace) -> int:
    try:
        from minds_bot.demo import serve_demo
    except ModuleNotFoundError as exc:
        if not _is_demo_package(exc):
            raise
        return _not_installed("minds-bot demo")
    from minds_bot.log import configure_logging

    configure_logging(level="INFO", fmt="text", http_calls=args.verbose)
    try:
        return _run_forever(
            serve_demo(host=args.host, page_port=args.port, minds_port=args.minds_port, bot_port=args.bot_port)
        )
    except OSError as exc:
        pinned = [
            f"{p} ({flag})"
            for p, flag in ((args.port, "--port"), (args.minds_port, "--minds-port"), (args.bot_port, "--bot-port"))
            if p
        ]
        hint = (
            f" Is one of the ports {', '.join(pinned)} in use? Choose another with the option named." if pinned else ""
        )
        print(f"minds-bot demo cannot start: {exc.strerror or exc}.{hint}", file=sys.stderr)
        return EXIT_FAILED


def cmd_manifest(args: argparse.Namespace) -> int:
    from minds_bot.app import build_manifest_surface
    from minds_bot.slack.manifest import ManifestError, build_manifest, render_manifest

    try:
        manifest = build_manifest(build_manifest_surface(Settings.model_construct()), mode=args.mode, url=args.url)
    except ManifestError as exc:
        print(f"minds-bot manifest: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    sys.stdout.write(render_manifest(manifest))
    return EXIT_OK


def cmd_check(args: argparse.Namespace) -> int:
    from minds_bot.checks import run_checks

    settings = load_settings()
    results = asyncio.run(run_checks(settings))
    for result in results:
        print(result.line())
    return EXIT_OK if all(r.ok for r in results) else EXIT_FAILED


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
