"""The one error type of the emulator: a Slack ``{"ok": false, "error": ...}`` answer waiting to be sent.

Owns nothing else; HTTP adapters turn it into a response, the Python drive API re-raises it.
"""

from __future__ import annotations

from typing import Any


class SlackError(Exception):
    """A Slack error code plus any extra fields Slack puts next to it (``errors``, ``response_metadata``)."""

    def __init__(self, error: str, *, status: int = 200, **extra: Any) -> None:
        super().__init__(error)
        self.error = error
        self.status = status
        self.extra = extra

    def body(self) -> dict[str, Any]:
        return {"ok": False, "error": self.error, **self.extra}


def invalid_blocks(errors: list[str]) -> SlackError:
    return SlackError("invalid_blocks", errors=errors, response_metadata={"messages": [f"[ERROR] {e}" for e in errors]})


def invalid_arguments(errors: list[str]) -> SlackError:
    return SlackError("invalid_arguments", response_metadata={"messages": [f"[ERROR] {e}" for e in errors]})


class EmulatorUsageError(Exception):
    """A test or the page asked for something a Slack user could not do (e.g. click a missing button)."""
