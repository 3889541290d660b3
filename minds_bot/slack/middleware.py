"""Cross-cutting request handling, as tiny Bolt middleware that ends in ``await next()``.

Owns: the payload shape check for requests that did not come through the HTTP gate (Socket Mode: a bad shape is
acknowledged and dropped with one log line), request context for logs (team, channel, user, command or action)
with one INFO line a command or action (``/minds plan``, ``action approve_plan``; never the typed text), and
processing each Slack delivery once: events that Slack retries (``x-slack-retry-num``), repeated action
payloads, and a replayed slash command or view submission (the same signed body sent again within the replay
window) are recognised by a key recorded in the store, so the answer survives restarts; a store that does not
answer within ``STORE_ANSWER_SECONDS`` is a ``StoreUnavailableError`` like one that cannot be reached, and the error
hook acknowledges the request with what ``minds_bot.slack.outage`` says (Slack's three seconds are kept). Last, the
language a listener speaks (``language_middleware``): the person's, and the workspace's for what it posts to a
channel (``minds_bot.i18n``), known before the listener's task starts because Bolt copies this context into it.
In HTTP mode the gate (``gate.py``) and Bolt verify signatures before any of this runs, so forged requests never
reach the store.
First of all, ``ack_timing_middleware`` times each request until its ack (``minds_bot.metrics``).
Must not touch: listener behaviour.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from slack_bolt.response import BoltResponse

from minds_bot import i18n, metrics
from minds_bot.log import bind_log_context
from minds_bot.slack.gate import shape_problem
from minds_bot.store import Store, StoreUnavailableError

log = logging.getLogger(__name__)


def delivery_key(body: dict[str, Any], *, raw: str = "") -> str | None:
    """What makes a delivery the same delivery again, or None when Slack never repeats it.

    Slack never sends the same slash command or view submission twice (each carries a new trigger_id), so the
    same body again is a replay: ``raw`` is the signed body (HTTP), else the payload is hashed as JSON."""
    if body.get("type") == "event_callback" and body.get("event_id"):
        return f"event:{body['event_id']}"
    if "command" in body:
        return f"command:{_digest(raw or body)}"
    if body.get("type") == "view_submission":
        return f"view:{(body.get('view') or {}).get('id', '')}:{_digest(raw or body)}"
    if body.get("type") == "block_actions":
        actions = body.get("actions") or []
        user = (body.get("user") or {}).get("id", "")
        if actions and actions[0].get("action_ts"):
            first = actions[0]
            return f"action:{first.get('action_id', '')}:{user}:{first['action_ts']}"
    return None


def _digest(body: str | dict[str, Any]) -> str:
    if not isinstance(body, str):
        try:
            body = json.dumps(body, sort_keys=True, default=str)
        except (RecursionError, ValueError):
            body = ""  # nested beyond reason: such a payload is not deduplicated, only processed
    return hashlib.sha256(body.encode()).hexdigest()[:32]


# What a request is, as the ack histogram labels it (``minds_bot.metrics.ack_seconds``); anything else is "other".
ACK_KINDS = {
    "block_actions": "action",
    "block_suggestion": "options",
    "event_callback": "event",
    "message_action": "shortcut",
    "shortcut": "shortcut",
    "view_closed": "view",
    "view_submission": "view",
}


def ack_timing_middleware() -> Callable[..., Awaitable[Any]]:
    """First in the chain: how long until Slack has its acknowledgement. Bolt returns from the chain when the
    listener has called ``ack()`` (the work after it goes on in the listener's task), so the time the rest of
    the chain takes is the ack latency, by kind of request (``command``, ``action``, ``view`` …), no ids."""

    async def ack_timing(body: Any, next: Callable[[], Awaitable[Any]]) -> Any:  # noqa: A002 - Bolt's name
        kind = "command" if isinstance(body, dict) and body.get("command") else "other"
        if kind == "other" and isinstance(body, dict):
            kind = ACK_KINDS.get(str(body.get("type")), "other")
        with metrics.ack_seconds.time(kind):
            return await next()

    return ack_timing


def shape_middleware() -> Callable[..., Awaitable[Any]]:
    """Drop a payload whose shape the listeners cannot read (``gate.shape_problem``), before anything acts.

    HTTP requests were already checked by the gate; this covers Socket Mode, where Slack's envelope is
    acknowledged (status 200, empty) so Slack does not redeliver it."""

    async def check_shape(request: Any, body: Any, next: Callable[[], Awaitable[Any]]) -> Any:  # noqa: A002 - Bolt's name
        problem = shape_problem(body)
        if problem is None:
            return await next()
        log.warning("dropped a payload with an unreadable shape", extra={"fields": {"reason": problem}})
        return BoltResponse(status=200 if request.mode == "socket_mode" else 400, body="")

    return check_shape


def log_context_middleware() -> Callable[..., Awaitable[Any]]:
    async def log_context(body: dict[str, Any], next: Callable[[], Awaitable[Any]]) -> Any:  # noqa: A002 - Bolt's name
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
        heard = _what_was_asked(body)
        if heard:
            log.info(heard)  # one line a command or action; the HTTP calls it causes are logged only at DEBUG
        return await next()

    return log_context


def _what_was_asked(body: dict[str, Any]) -> str | None:
    """``/minds plan``, ``action approve_plan``, ``view_submission plan_modal``: what a person did, without the
    text they typed beyond the command's first word (that may be a confidential brief)."""
    if body.get("command"):
        word = str(body.get("text") or "").split(maxsplit=1)[:1]
        return " ".join([str(body["command"]), *word])[:80]
    kind = body.get("type")
    if kind == "block_actions":
        return f"action {(body.get('actions') or [{}])[0].get('action_id', '')}"[:80]
    if kind in ("view_submission", "view_closed", "shortcut", "message_action"):
        callback = (body.get("view") or {}).get("callback_id") or body.get("callback_id") or ""
        return f"{kind} {callback}".strip()[:80]  # a label for logs, verbatim
    return None


# How long the delivery check waits for the store: with the person's language looked up after it (at most
# ``services.USER_LOOKUP_SECONDS``), a request the store's outage stops is still acknowledged within Slack's 3 s.
STORE_ANSWER_SECONDS = 1.5


def once_per_delivery_middleware(store: Store) -> Callable[..., Awaitable[Any]]:
    async def once_per_delivery(request: Any, body: dict[str, Any], next: Callable[[], Awaitable[Any]]) -> Any:  # noqa: A002 - Bolt's name
        key = delivery_key(body, raw=request.raw_body)
        if key is not None and not await _first_time(store, key):
            log.info("repeated delivery answered without processing", extra={"fields": {"delivery": key}})
            return BoltResponse(status=200, body="")
        return await next()

    return once_per_delivery


async def _first_time(store: Store, key: str) -> bool:
    """Record the delivery; ``StoreUnavailableError`` when the store cannot say in time (the error hook answers)."""
    try:
        async with asyncio.timeout(STORE_ANSWER_SECONDS):
            return await store.mark_delivery(key)
    except TimeoutError:
        raise StoreUnavailableError(f"the store did not answer within {STORE_ANSWER_SECONDS} s") from None  # verbatim


def language_middleware(languages: Any) -> Callable[..., Awaitable[Any]]:
    """``languages``: ``services.Languages``. Cached for a person for ten minutes; a lookup that takes longer
    than ``USER_LOOKUP_SECONDS`` gives the workspace's language this once, so the ack is never held long."""

    async def language(context: Any, next: Callable[[], Awaitable[Any]]) -> Any:  # noqa: A002 - Bolt's name
        team, user, client = context.team_id or "", context.user_id, context.get("client")
        channel = await languages.of_workspace(team, client)  # the installer's locale until connect saves one
        person = await languages.of_person(client, team_id=team, user_id=user) if user and client else channel
        i18n.speak(person, channel=channel)
        return await next()

    return language
