"""Every command's --help reads well; unavailable commands say so plainly."""

from __future__ import annotations

import io
from contextlib import redirect_stderr, redirect_stdout

import pytest

from minds_bot.cli import build_parser, main

COMMANDS = ("run", "sandbox", "demo", "manifest", "check")


def help_text(*args: str) -> str:
    out = io.StringIO()
    with redirect_stdout(out), pytest.raises(SystemExit) as exited:
        build_parser().parse_args([*args, "--help"])
    assert exited.value.code == 0
    return out.getvalue()


def test_top_level_help_lists_every_command() -> None:
    text = help_text()
    for command in COMMANDS:
        assert command in text


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("run", ["--http", "--host", "--port", "Socket Mode", "/healthz"]),
        ("sandbox", ["--host", "--port", "--db"]),
        ("demo", ["sandbox", "emulator"]),
        ("manifest", ["--mode", "--url"]),
        ("check", ["auth.test", "/auth/me"]),
    ],
)
def test_subcommand_help_names_its_options(command: str, expected: list[str]) -> None:
    text = help_text(command)
    for fragment in expected:
        assert fragment in text


def test_unknown_command_is_a_usage_error() -> None:
    err = io.StringIO()
    with redirect_stderr(err), pytest.raises(SystemExit) as exited:
        main(["launch"])
    assert exited.value.code == 2
    assert "invalid choice" in err.getvalue()
