"""``minds-bot demo`` as a newcomer runs it: the console shows a line a command and no HTTP call (``--verbose``
shows those), the ports can be pinned, the printed address opens #research, and ``@chloe`` in a command names
Chloé as Slack's escaped command text does."""

from __future__ import annotations

import io
import logging
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from minds_bot.demo import running_demo
from minds_bot.log import configure_logging
from tests.foundation.test_cli import help_text

ADA, CHLOE = "U01ADA0001", "U01CHL0003"
RESEARCH = "C01RES0002"


@pytest.fixture
def console() -> Iterator[io.StringIO]:
    stream = io.StringIO()
    yield stream
    root = logging.getLogger()
    root.handlers = [h for h in root.handlers if h.get_name() != "minds-bot"]
    configure_logging(level="WARNING", fmt="text", stream=io.StringIO())  # leave no filter showing DEBUG lines
    root.handlers = [h for h in root.handlers if h.get_name() != "minds-bot"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def list_studies(tmp_path: Path) -> None:
    """``/minds studies``: one command that makes the bot call Minds and Slack over HTTP."""
    async with running_demo(page_port=0, workdir=tmp_path) as demo:
        since = demo.emulator.mark()
        await demo.emulator.send_slash_command(user=ADA, channel=RESEARCH, text="studies")
        await demo.emulator.wait_for_ephemeral(ADA, lambda e: "Pricing pulse" in str(e.blocks), since=since)


async def test_the_console_shows_the_command_and_not_the_http_calls(tmp_path: Path, console: io.StringIO) -> None:
    configure_logging(level="INFO", fmt="text", stream=console)
    await list_studies(tmp_path)
    lines = console.getvalue().splitlines()
    assert [line for line in lines if 'msg="/minds studies"' in line and "level=info" in line], lines
    assert not [line for line in lines if "HTTP Request" in line], "an HTTP call was logged at INFO"


async def test_verbose_shows_each_http_call_as_debug_and_nothing_else_of_debug(
    tmp_path: Path, console: io.StringIO
) -> None:
    configure_logging(level="INFO", fmt="text", stream=console, http_calls=True)  # what --verbose sets
    await list_studies(tmp_path)
    lines = console.getvalue().splitlines()
    calls = [line for line in lines if "HTTP Request" in line and "/studies" in line]
    assert calls and all("level=debug" in line for line in calls), lines
    assert not [line for line in lines if "level=debug" in line and "HTTP Request" not in line]


async def test_pinned_ports_are_used_and_the_address_opens_research(tmp_path: Path) -> None:
    minds_port, bot_port = free_port(), free_port()
    async with running_demo(page_port=0, minds_port=minds_port, bot_port=bot_port, workdir=tmp_path) as demo:
        assert demo.minds_url.startswith(f"http://127.0.0.1:{minds_port}")
        assert demo.bot_url == f"http://127.0.0.1:{bot_port}"
        assert demo.page_url.endswith("/#channel=research")
        assert demo.emulator.config.start_channel == "research"
        assert "not from Minds" in (demo.emulator.config.notice or "")


async def test_approvers_add_at_chloe_names_chloe(tmp_path: Path) -> None:
    async with running_demo(page_port=0, workdir=tmp_path) as demo:
        since = demo.emulator.mark()
        await demo.emulator.send_slash_command(user=ADA, channel=RESEARCH, text="approvers add @chloe")
        answer = await demo.emulator.wait_for_ephemeral(ADA, since=since)
        assert f"<@{CHLOE}> can now approve" in answer.text


def test_demo_help_names_the_port_and_verbose_options() -> None:
    text = " ".join(help_text("demo").split())
    for option in ("--port", "--minds-port", "--bot-port", "--verbose", "every HTTP call"):
        assert option in text, option
