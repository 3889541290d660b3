"""Secrets never reach a log line: token shapes and configured secrets are masked wherever they appear."""

from __future__ import annotations

import io
import json
import logging

import pytest

from minds_bot.log import MASK, configure_logging, log_context

MINDS_KEY = "minds_" + "c0ffee" * 8
BOT_TOKEN = "xoxb-1111-2222-" + "a" * 24
USER_TOKEN = "xoxp-3333-4444-" + "b" * 24
APP_TOKEN = "xapp-1-A111-" + "c" * 24
SIGNING_SECRET = "8f14e45fceea167a5a36dedd4bea2543"


@pytest.fixture
def capture() -> io.StringIO:
    stream = io.StringIO()
    yield stream
    logging.getLogger().handlers = [h for h in logging.getLogger().handlers if h.get_name() != "minds-bot"]


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_secrets_are_masked_in_messages_arguments_fields_and_tracebacks(capture: io.StringIO, fmt: str) -> None:
    configure_logging(level="DEBUG", fmt=fmt, secrets=[SIGNING_SECRET], stream=capture)
    logger = logging.getLogger("minds_bot.test")
    logger.info("key %s token %s", MINDS_KEY, BOT_TOKEN)
    logger.warning("headers", extra={"fields": {"authorization": f"Bearer {USER_TOKEN}", "app": APP_TOKEN}})
    try:
        raise RuntimeError(f"signature mismatch for secret {SIGNING_SECRET}")
    except RuntimeError:
        logger.exception("request failed")
    output = capture.getvalue()
    for secret in (MINDS_KEY, BOT_TOKEN, USER_TOKEN, APP_TOKEN, SIGNING_SECRET):
        assert secret not in output
    assert output.count(MASK) >= 5
    assert "request failed" in output and "RuntimeError" in output


def test_json_lines_carry_request_context(capture: io.StringIO) -> None:
    configure_logging(level="INFO", fmt="json", stream=capture)
    with log_context(team="T1", channel="C2", user="U3", command="/minds"):
        logging.getLogger("minds_bot.test").info("planned")
    logging.getLogger("minds_bot.test").info("outside")
    first, second = (json.loads(line) for line in capture.getvalue().splitlines())
    assert (first["team"], first["channel"], first["user"], first["command"]) == ("T1", "C2", "U3", "/minds")
    assert first["msg"] == "planned" and first["level"] == "info"
    assert "team" not in second


def test_text_lines_are_key_value(capture: io.StringIO) -> None:
    configure_logging(level="INFO", fmt="text", stream=capture)
    with log_context(team="T9", action="approve_plan"):
        logging.getLogger("minds_bot.test").info("approved revision 3")
    line = capture.getvalue().strip()
    assert 'msg="approved revision 3"' in line
    assert "team=T9" in line and "action=approve_plan" in line
