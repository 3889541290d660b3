"""Cross-cutting request handling, as tiny Bolt middleware that ends in ``await next()``.

Owns: request context for logs (team, channel, user, command or action) and processing each Slack delivery
once: events that Slack retries (``x-slack-retry-num``) and repeated action payloads are recognised by a key
(event id, or action + user + action timestamp) recorded in the store, so the answer survives restarts.
Bolt's own middleware verifies signatures before any of this runs, so forged requests never reach the store.
Must not touch: listener behaviour.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from slack_bolt.response import BoltResponse

from minds_bot.log import bind_log_context
from minds_bot.store import Store

log = logging.getLogger(__name__)


def delivery_key(body: dict[str, Any]) -> str | None:
    """What makes a delivery the same delivery again, or None when Slack never repeats it."""
    if body.get("type") == "event_callback" and body.get("event_id"):
        return f"event:{body['event_id']}"
    if body.get("type") == "block_actions":
        actions = body.get("actions") or []
        user = (body.get("user") or {}).get("id", "")
        if actions and actions[0].get("action_ts"):
            first = actions[0]
            return f"action:{first.get('action_id', '')}:{user}:{first['action_ts']}"
    return None


def log_context_middleware() -> Callable[..., Awaitable[Any]]:
    async def log_context(body: dict[str, Any], next: Callable[[], Awaitable[Any]]) -> Any:
        team = body.get("team_id") or (body.get("team") or {}).get("id")
        channel = body.get("channel_id") or (body.get("channel") or {}).get("id")
        user = body.get("user_id") or (body.get("user") or {}).get("id")
        event = body.get("event") or {}
        actions = body.get("actions") or [{}]
        bind_log_context(
            team=team,
            channel=channel or event.get("channel"),
            user=user or event.get("user"),
            command=body.get("command") or event.get("type"),
            action=actions[0].get("action_id") or (body.get("view") or {}).get("callback_id"),
        )
        return await next()

    return log_context


def once_per_delivery_middleware(store: Store) -> Callable[..., Awaitable[Any]]:
    async def once_per_delivery(body: dict[str, Any], next: Callable[[], Awaitable[Any]]) -> Any:
        key = delivery_key(body)
        if key is not None and not await store.mark_delivery(key):
            log.info("repeated delivery answered without processing", extra={"fields": {"delivery": key}})
            return BoltResponse(status=200, body="")
        return await next()

    return once_per_delivery
