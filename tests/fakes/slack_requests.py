"""What Slack sends the bot, built as Slack builds it: the v0 request signature (HMAC-SHA256 over
``v0:timestamp:body``) and the bodies of slash commands, interactions and Events API callbacks. The one place
tests build Slack requests; pure functions, it sends nothing."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from typing import Any
from urllib.parse import urlencode

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


def command_body(*, text: str, team: str, channel: str, user: str, response_url: str, trigger: str) -> str:
    """A ``/minds`` slash command, form-encoded."""
    fields = {
        "command": "/minds",
        "text": text,
        "team_id": team,
        "channel_id": channel,
        "user_id": user,
        "response_url": response_url,
        "trigger_id": trigger,
    }
    return urlencode(fields)


def interaction_body(payload: dict[str, Any]) -> str:
    """An interactive payload (block_actions, view_submission, block_suggestion), form-encoded."""
    return urlencode({"payload": json.dumps(payload)})


def event_body(event: dict[str, Any], *, team: str, event_id: str) -> str:
    """An Events API ``event_callback``, JSON-encoded."""
    return json.dumps(
        {"type": "event_callback", "team_id": team, "api_app_id": "A1", "event_id": event_id, "event": event}
    )


def button_click(
    *,
    team: str,
    channel: str,
    user: str,
    action_id: str,
    value: str | None,
    action_ts: str,
    message_ts: str,
    response_url: str,
    trigger: str,
    block_id: str = "b",
    blocks: list[dict[str, Any]] | None = None,
    ephemeral: bool | None = None,
    state: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A ``block_actions`` payload for a button on a message; with ``blocks`` it carries the message as Slack
    shows it, ``ephemeral`` sets the container's flag when given."""
    action: dict[str, Any] = {"type": "button", "action_id": action_id, "block_id": block_id}
    if value is not None:
        action["value"] = value
    action["action_ts"] = action_ts
    container: dict[str, Any] = {"type": "message", "message_ts": message_ts, "channel_id": channel}
    if ephemeral is not None:
        container["is_ephemeral"] = ephemeral
    payload: dict[str, Any] = {
        "type": "block_actions",
        "api_app_id": "A1",
        "team": {"id": team, "domain": "acme"},
        "user": {"id": user, "team_id": team},
        "channel": {"id": channel, "name": "research"},
        "container": container,
        "trigger_id": trigger,
        "response_url": response_url,
        "state": {"values": state or {}},
        "actions": [action],
    }
    if blocks is not None:
        payload["message"] = {"type": "message", "ts": message_ts, "blocks": blocks, "text": "plan"}
    return payload
