"""The workspace's Minds key, once pasted into `/minds connect`, is nowhere in plain text: not in the SQLite
file or its WAL/SHM companions, not in the logs at DEBUG, not in anything the bot sent to Slack."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from slack_bolt.response import BoltResponse

from minds_bot.log import configure_logging
from minds_bot.render.connect import CONNECT_CALLBACK, KEY_ACTION, KEY_BLOCK
from minds_bot.store import SecretBox
from minds_sandbox import SandboxConfig, running_sandbox
from tests.durability.inprocess import Process, close_process, drain, open_process
from tests.fakes.bot import Clock
from tests.fakes.slack_web import fake_slack

TEAM, CHANNEL, ADMIN = "T0001", "C0001", "UADMIN"
GOOD_KEY = "minds_" + "0a1b2c3d" * 6
REJECTED_KEY = "minds_" + "9e8f7a6b" * 6
QUIET = ("aiohttp.access", "httpx", "httpcore", "slack_sdk", "slack_bolt")


@pytest.fixture
def logs() -> Iterator[io.StringIO]:
    """The bot's configured log handler at DEBUG, writing to a buffer; logging restored afterwards."""
    root = logging.getLogger()
    before = (root.level, list(root.handlers), {name: logging.getLogger(name).level for name in QUIET})
    buffer = io.StringIO()
    configure_logging(level="DEBUG", fmt="text", stream=buffer)
    try:
        yield buffer
    finally:
        level, handlers, quiet = before
        for handler in list(root.handlers):
            if handler not in handlers:
                root.removeHandler(handler)
        root.setLevel(level)
        for name, quiet_level in quiet.items():
            logging.getLogger(name).setLevel(quiet_level)


def forms_of(key: str) -> list[bytes]:
    """The key and its secret part, as text and as they would sit in a UTF-16 or JSON-escaped blob."""
    body = key.removeprefix("minds_")
    return [form.encode(encoding) for form in (key, body) for encoding in ("utf-8", "utf-16-le")]


def submit_key(key: str) -> dict[str, Any]:
    values = {KEY_BLOCK: {KEY_ACTION: {"type": "plain_text_input", "value": key}}}
    view = {"id": "V1", "type": "modal", "callback_id": CONNECT_CALLBACK, "private_metadata": CHANNEL}
    return {
        "type": "view_submission",
        "api_app_id": "A1",
        "team": {"id": TEAM},
        "user": {"id": ADMIN, "team_id": TEAM},
        "trigger_id": "1.2.3",
        "view": {**view, "state": {"values": values}},
    }


async def test_the_minds_key_is_never_stored_logged_or_sent_in_plain_text(tmp_path: Path, logs: io.StringIO) -> None:
    path = tmp_path / "bot.sqlite3"
    replies: list[BoltResponse] = []
    config = SandboxConfig(allowed_keys=frozenset({GOOD_KEY}))
    async with running_sandbox(config) as minds, fake_slack() as slack:
        slack.users[ADMIN] = {"id": ADMIN, "is_admin": True}
        process: Process = await open_process(
            path, slack=slack, secret_key=SecretBox.generate_key(), clock=Clock(), minds_api_url=minds.base_url
        )
        try:
            replies.append(await process.command("connect", slack=slack, team=TEAM, channel=CHANNEL, user=ADMIN))
            assert slack.calls_to("views.open"), "the connect modal opened"

            replies.append(await process.interaction(submit_key(REJECTED_KEY)))
            assert "did not accept this key" in replies[-1].body
            assert await process.store.get_workspace(TEAM) is None

            replies.append(await process.interaction(submit_key(GOOD_KEY)))
            workspace = await process.store.get_workspace(TEAM)
            assert workspace is not None and workspace.minds_key.get_secret_value() == GOOD_KEY
            (connected,) = slack.calls_to("chat.postEphemeral")
            assert "connected" in connected["text"].lower()

            for text in ("studies", "help", "plan"):
                replies.append(
                    await process.command(text, slack=slack, team=TEAM, channel=CHANNEL, user=ADMIN, trigger=text)
                )
            answers = drain(slack)
            assert any("Launch positioning" in json.dumps(a) for a in answers), "the stored key lists Studies"

            on_disk = {p.name: p.read_bytes() for p in tmp_path.iterdir()}  # the live file, WAL and SHM
            assert {"bot.sqlite3", "bot.sqlite3-wal"} <= on_disk.keys()
        finally:
            await close_process(process)
        on_disk |= {f"{p.name} (closed)": p.read_bytes() for p in tmp_path.iterdir()}

    logged = logs.getvalue()
    assert "workspace connected to Minds" in logged and "level=debug" in logged  # the handler saw DEBUG lines
    sent_to_slack = json.dumps([slack.calls, answers, [r.body for r in replies]], ensure_ascii=False)
    for key in (GOOD_KEY, REJECTED_KEY):
        for form in forms_of(key):
            assert form not in logged.encode(), "a key in the logs"
            assert form not in sent_to_slack.encode(), "a key in a Slack payload"
            for name, content in on_disk.items():
                assert form not in content, f"a key in plain text in {name}"
