"""Typed errors of the sandbox Minds API and the one place that turns them into the Minds error envelope.

Owns: ``ApiError`` and ``envelope``. Must not touch state, routing or I/O.
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Any


class ApiError(Exception):
    """An error answered with the Minds envelope
    ``{statusCode, statusMessage, message, url, error, data?}``."""

    def __init__(
        self,
        status: int,
        message: str,
        *,
        code: str | None = None,
        data: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.data = dict(data or {})
        if code is not None:
            self.data["code"] = code
        self.headers = dict(headers or {})


def not_found(what: str) -> ApiError:
    return ApiError(404, f"{what} not found", code="NOT_FOUND")


def bad_request(message: str, *, code: str = "BAD_REQUEST") -> ApiError:
    return ApiError(400, message, code=code)


def conflict(message: str, *, code: str, data: dict[str, Any] | None = None) -> ApiError:
    return ApiError(409, message, code=code, data=data)


def envelope(*, status: int, message: str, url: str, data: dict[str, Any] | None = None) -> dict[str, Any]:
    """The flat Minds error body; ``data`` only when there is something to branch on."""
    body: dict[str, Any] = {
        "statusCode": status,
        "statusMessage": _phrase(status),
        "message": message,
        "url": url,
        "error": True,
    }
    if data:
        body["data"] = data
    return body


def _phrase(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Error"
