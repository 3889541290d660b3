"""Structured logging with request context and secret redaction.

Owns: the log formatters (``key=value`` text or one JSON object a line), the request context that listeners set
(team, channel, user, command or action), and the redaction that masks anything that looks like a Minds key or a
Slack token, plus every configured secret, wherever it appears in a line (message, arguments, exception text), and which
third-party lines a console shows: an HTTP library's line a call is DEBUG (``HTTP_CALL_LOGGERS``).
Must not touch: settings loading or any I/O beyond the handler's stream.
"""

from __future__ import annotations

import contextvars
import json
import logging
import re
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import IO

MASK = "[redacted]"
# Token shapes that must never reach a log line, configured or not.
SECRET_PATTERNS = (
    re.compile(r"minds_[A-Za-z0-9]{8,}"),
    re.compile(r"xox[abposre]-[A-Za-z0-9-]{6,}"),
    re.compile(r"xapp-[A-Za-z0-9-]{6,}"),
)
CONTEXT_FIELDS = ("team", "channel", "user", "command", "action")
# Shorter configured values are not masked, or every "a" in a line would vanish on a misconfiguration.
MIN_EXACT_SECRET_LENGTH = 8

_context: contextvars.ContextVar[dict[str, str] | None] = contextvars.ContextVar("minds_bot_log_context", default=None)


@contextmanager
def log_context(**fields: str | None) -> Iterator[None]:
    """Attach request context (team, channel, user, command, action) to every line logged inside the block."""
    merged = {**(_context.get() or {}), **{k: v for k, v in fields.items() if v}}
    token = _context.set(merged)
    try:
        yield
    finally:
        _context.reset(token)


def bind_log_context(**fields: str | None) -> None:
    """Set request context for the rest of the current task (used by middleware that cannot wrap a block)."""
    _context.set({**(_context.get() or {}), **{k: v for k, v in fields.items() if v}})


class Redactor:
    """Masks token-shaped strings and the exact configured secrets."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        exact = sorted({s for s in secrets if len(s) >= MIN_EXACT_SECRET_LENGTH}, key=len, reverse=True)
        self._exact = re.compile("|".join(re.escape(s) for s in exact)) if exact else None

    def __call__(self, text: str) -> str:
        if self._exact is not None:
            text = self._exact.sub(MASK, text)
        for pattern in SECRET_PATTERNS:
            text = pattern.sub(MASK, text)
        return text


class _BaseFormatter(logging.Formatter):
    def __init__(self, redactor: Redactor) -> None:
        super().__init__()
        self.redact = redactor

    def _fields(self, record: logging.LogRecord) -> dict[str, str]:
        fields = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        fields.update(_context.get() or {})
        extra = getattr(record, "fields", None)
        if isinstance(extra, dict):
            fields.update({str(k): str(v) for k, v in extra.items()})
        if record.exc_info:
            fields["exc"] = self.formatException(record.exc_info)
        return fields


class TextFormatter(_BaseFormatter):
    """``ts=… level=info logger=… msg="…" team=T1 …`` — greppable and still readable."""

    def format(self, record: logging.LogRecord) -> str:
        parts = [f"{key}={_quote(value)}" for key, value in self._fields(record).items()]
        return self.redact(" ".join(parts))


class JsonFormatter(_BaseFormatter):
    """One JSON object a line, for log shippers."""

    def format(self, record: logging.LogRecord) -> str:
        fields = {key: self.redact(value) for key, value in self._fields(record).items()}
        return json.dumps(fields, ensure_ascii=False)


def _quote(value: str) -> str:
    if value and not any(c in value for c in ' "=\n\t'):
        return value
    return json.dumps(value, ensure_ascii=False)


HTTP_CALL_LOGGERS = ("httpx", "aiohttp.access")


class _DemoteToDebug(logging.Filter):
    """Logs an HTTP library's per-call INFO line as DEBUG, and drops it unless DEBUG lines are shown."""

    def __init__(self, *, show: bool) -> None:
        super().__init__()
        self.show = show

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno == logging.INFO:
            record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        return record.levelno > logging.DEBUG or self.show


def configure_logging(
    *,
    level: str,
    fmt: str,
    secrets: Iterable[str] = (),
    stream: IO[str] | None = None,
    http_calls: bool = False,
) -> None:
    """Install one redacting handler on the root logger (replacing any earlier one of ours).

    An HTTP library's line a call is shown (as DEBUG) at ``level`` DEBUG, or with ``http_calls`` at any level
    (the demo's ``--verbose``: the calls without every other library's DEBUG detail)."""
    redactor = Redactor(secrets)
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter(redactor) if fmt == "json" else TextFormatter(redactor))
    handler.set_name("minds-bot")
    root = logging.getLogger()
    for existing in list(root.handlers):
        if existing.get_name() == "minds-bot":
            root.removeHandler(existing)
    root.addHandler(handler)
    root.setLevel(level)
    # Third-party clients log request bodies at DEBUG; keep them a step quieter than our own code.
    for noisy in ("httpcore", "slack_sdk", "slack_bolt"):
        logging.getLogger(noisy).setLevel(max(logging.getLevelName(level), logging.INFO))
    # One line an HTTP call (httpx's "HTTP Request: …", aiohttp's access log) is DEBUG news: at INFO a console
    # shows a line a command and the warnings, not the dozens of calls each command makes.
    for chatty in HTTP_CALL_LOGGERS:
        chatty_logger = logging.getLogger(chatty)
        chatty_logger.setLevel(logging.INFO)
        for existing_filter in list(chatty_logger.filters):
            if isinstance(existing_filter, _DemoteToDebug):
                chatty_logger.removeFilter(existing_filter)
        chatty_logger.addFilter(_DemoteToDebug(show=http_calls or logging.getLevelName(level) <= logging.DEBUG))
    # APScheduler reports every job run at INFO; only its warnings (missed or failed jobs) are news.
    logging.getLogger("apscheduler").setLevel(max(logging.getLevelName(level), logging.WARNING))
