"""Every command's --help reads well; unavailable commands say so plainly."""

from __future__ import annotations

import io
import sys
from contextlib import redirect_stderr, redirect_stdout

import pytest

from minds_bot.cli import EXIT_CONFIG, build_parser, main

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


@pytest.mark.parametrize("words", [["demo"], ["sandbox"], ["sandbox", "--port", "1"]])
def test_without_the_demo_packages_demo_and_sandbox_say_in_one_sentence_how_to_install_them(
    words: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "minds_sandbox", None)  # None in sys.modules: importing it fails, as when absent
    monkeypatch.setitem(sys.modules, "slack_emulator", None)
    monkeypatch.delitem(sys.modules, "minds_bot.demo", raising=False)
    err = io.StringIO()
    with redirect_stderr(err):
        assert main(words) == EXIT_CONFIG
    assert err.getvalue().count("\n") == 1 and err.getvalue().count(". ") == 0
    assert f"minds-bot {words[0]} needs the Minds sandbox and the Slack emulator (minds-bot[demo])" in err.getvalue()
    assert "pip install -e sandbox/minds-sandbox -e sandbox/slack-emulator -e '.[demo]'" in err.getvalue()


def test_an_unknown_option_is_still_a_usage_error() -> None:
    err = io.StringIO()
    with redirect_stderr(err), pytest.raises(SystemExit) as exited:
        main(["run", "--bogus"])
    assert exited.value.code == 2
    assert "unrecognized arguments: --bogus" in err.getvalue()
