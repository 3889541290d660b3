"""Slack's request signing (v0 HMAC-SHA256 over ``v0:timestamp:body``), the one helper every test that sends a
signed Slack request uses. Owns header building only; it sends nothing."""

from __future__ import annotations

import hashlib
import hmac
import time

FORM = "application/x-www-form-urlencoded"
JSON = "application/json"


def signed_headers(
    body: str,
    *,
    secret: str,
    content_type: str = FORM,
    timestamp: int | None = None,
    retry: int | None = None,
) -> dict[str, str]:
    """Headers Slack would send with ``body``; ``timestamp`` defaults to now, ``retry`` adds Slack's retry
    headers (as on a redelivered event)."""
    ts = str(int(time.time()) if timestamp is None else timestamp)
    digest = hmac.new(secret.encode(), f"v0:{ts}:{body}".encode(), hashlib.sha256).hexdigest()
    headers = {"x-slack-request-timestamp": ts, "x-slack-signature": f"v0={digest}", "content-type": content_type}
    if retry is not None:
        headers["x-slack-retry-num"] = str(retry)
        headers["x-slack-retry-reason"] = "http_timeout"
    return headers
