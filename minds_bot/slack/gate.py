"""The door in front of Bolt: nothing acts on a request until Slack's signature is checked and its body has a
shape the listeners can read.

Owns: ``verify`` (Slack's v0 request signature over the raw bytes, never raising on hostile headers),
``parse`` (the body as Bolt parses it, refusing what Bolt would choke on), ``shape_problem`` (what each kind of
payload must carry: who, where, which action or view), ``admit`` (all three, turning an HTTP request into a Bolt
request marked as verified, or into a refusal), ``is_slack_url`` (where an answer to a ``response_url`` may go)
and ``quiet_bolt_verification_log`` (Bolt logs a refused body whole at INFO; we log the reason and size only).
A refused request gets 401 (not verified) or 400 (verified but malformed) and reaches no listener, no store and
no network; it is logged without the body through ``refusals.RefusalLog``: a client's first refusal in a minute
is one WARNING line, the rest of that minute one summary line (count and reasons). Bolt's own verification
still runs as a second check.
Must not touch: listener behaviour, the store, the network.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web
from slack_bolt.adapter.aiohttp import to_aiohttp_response
from slack_bolt.async_app import AsyncApp
from slack_bolt.request.async_request import AsyncBoltRequest
from slack_bolt.request.internals import parse_body

from minds_bot.slack.refusals import RefusalLog

MAX_AGE_SECONDS = 5 * 60  # Slack's replay window: older signatures are refused
MAX_TIMESTAMP_DIGITS = 12  # a Unix time in seconds; longer strings are not timestamps
SIGNATURE_PREFIX = "v0="
SLACK_HOOKS_ORIGIN = "https://hooks.slack.com"
VERIFIED = "minds_bot_verified"  # set in a Bolt request's context by ``admit``
# Any view's metadata that looks like JSON ("{" or "[" first) must be a JSON object (see _json_metadata_views).
JSON_LOOKING = ("{", "[")
# Events that only make sense with the person who caused them.
EVENTS_WITH_USER = frozenset({"app_home_opened", "link_shared"})
_BOLT_VERIFICATION_LOGGER = "slack_bolt.RequestVerification"


@dataclass(frozen=True)
class Refusal:
    """Why a request was turned away: ``status`` 401 (not from Slack) or 400 (from Slack, unreadable)."""

    status: int
    reason: str


# --- verification ------------------------------------------------------------------------------------------


def verify(*, secret: str, headers: Mapping[str, str], body: bytes, now: float) -> str | None:
    """None when Slack signed ``body`` within the replay window, else the reason. Never raises."""
    timestamp = headers.get("x-slack-request-timestamp")
    signature = headers.get("x-slack-signature")
    if not secret:
        return "no signing secret configured"
    if not timestamp or not signature:
        return "missing signature headers"
    if not (timestamp.isascii() and timestamp.isdigit() and len(timestamp) <= MAX_TIMESTAMP_DIGITS):
        return "malformed timestamp"
    if abs(now - int(timestamp)) > MAX_AGE_SECONDS:
        return "stale timestamp"
    if not signature.isascii() or not signature.startswith(SIGNATURE_PREFIX):
        return "malformed signature"
    digest = hmac.new(secret.encode(), b"v0:" + timestamp.encode() + b":" + body, hashlib.sha256).hexdigest()
    if not hmac.compare_digest((SIGNATURE_PREFIX + digest).encode(), signature.encode()):
        return "wrong signature"
    return None


def decode(body: bytes, content_type: str) -> str | None:
    """The body as text, or None: Slack sends UTF-8 and nothing else."""
    charset = _charset(content_type)
    if charset not in (None, "utf-8", "utf8"):
        return None
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _charset(content_type: str) -> str | None:
    for part in content_type.split(";")[1:]:
        name, _, value = part.strip().partition("=")
        if name.strip().lower() == "charset":
            return value.strip().strip('"').lower()
    return None


def parse(text: str, content_type: str) -> Any:
    """The body exactly as Bolt will parse it; raises ``ValueError`` when Bolt could not."""
    try:
        return parse_body(text, content_type.split(";")[0] or None)
    except RecursionError as exc:  # absurdly nested JSON
        raise ValueError("nested too deeply") from exc


# --- shapes ------------------------------------------------------------------------------------------------


def shape_problem(body: Any) -> str | None:
    """What is wrong with a verified payload's shape for its kind, or None when listeners can read it."""
    if not isinstance(body, dict):
        return "payload is not an object"
    if "command" in body:
        return _first(
            _strings(body, "command", "team_id", "user_id", "channel_id", "trigger_id", "response_url"),
            _web_address(body.get("response_url")),
        )
    if "ssl_check" in body:
        return None
    kind = body.get("type")
    check = _SHAPES.get(kind) if isinstance(kind, str) else None
    if check is None:
        return "unknown payload type"
    return check(body)


def _first(*problems: str | None) -> str | None:
    return next((p for p in problems if p), None)


def _strings(body: Mapping[str, Any], *names: str) -> str | None:
    missing = [name for name in names if not (isinstance(body.get(name), str) and body[name])]
    return f"missing or not text: {', '.join(missing)}" if missing else None


def _web_address(url: Any) -> str | None:
    """A response URL the bot could answer: an absolute http(s) address (where it may go is ``is_slack_url``)."""
    if url is None:
        return None
    try:
        parts = urlsplit(url) if isinstance(url, str) else None
    except ValueError:
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or not parts.netloc:
        return "response_url is not a web address"
    return None


def _optional(body: Mapping[str, Any], kind: type, *names: str) -> str | None:
    wrong = [name for name in names if body.get(name) is not None and not isinstance(body[name], kind)]
    return f"wrong type: {', '.join(wrong)}" if wrong else None


def _user(body: Mapping[str, Any]) -> str | None:
    user = body.get("user")
    if not isinstance(user, dict) or _strings(user, "id"):
        return "user is not a Slack user"
    return _optional(user, str, "team_id")


def _team(body: Mapping[str, Any]) -> str | None:
    team = body.get("team")
    if team is not None and (not isinstance(team, dict) or _optional(team, str, "id", "enterprise_id")):
        return "team is not a Slack team"  # None is allowed: org-wide installs send no team
    return None


def _state(holder: Mapping[str, Any], *, required: bool = False) -> str | None:
    """``state.values``: block id → action id → the input's value object."""
    state = holder.get("state")
    if state is None and not required:
        return None
    values = state.get("values") if isinstance(state, dict) else None
    if not isinstance(values, dict):
        return "state is not a Slack view state"
    for block in values.values():
        if not isinstance(block, dict) or not all(isinstance(v, dict) for v in block.values()):
            return "state is not a Slack view state"
    return None


def _where(body: Mapping[str, Any]) -> str | None:
    problem = _first(
        _optional(body, dict, "container", "channel", "message", "view"),
        _optional(body, str, "response_url", "trigger_id", "api_app_id"),
        _web_address(body.get("response_url")),
    )
    if problem is not None:
        return problem
    return _first(
        _optional(body.get("channel") or {}, str, "id"),
        _optional(body.get("container") or {}, str, "channel_id", "message_ts", "view_id"),
        _optional(body.get("message") or {}, str, "ts", "thread_ts"),  # the thread a shortcut answers in
        _optional(body.get("message") or {}, list, "blocks"),
        _state(body),
    )


def _view(view: Any, *, submitted: bool) -> str | None:
    if not isinstance(view, dict):
        return "view is not a Slack view"
    problem = _first(
        _strings(view, "id", "type", *(["callback_id"] if submitted else [])),  # submissions route by it
        _optional(view, str, "private_metadata", "team_id", "hash", "callback_id"),
        _state(view, required=submitted),
    )
    if problem is None and _json_metadata(view):
        problem = _json_object(view.get("private_metadata") or "{}")
    return problem


def _json_metadata(view: Mapping[str, Any]) -> bool:
    """Whether the view's private_metadata must be a JSON object: a listed view's always, any view's that
    looks like JSON."""
    metadata = view.get("private_metadata")
    looks_like_json = isinstance(metadata, str) and metadata.lstrip().startswith(JSON_LOOKING)
    return view.get("callback_id") in _json_metadata_views() or looks_like_json


@functools.cache
def _json_metadata_views() -> frozenset[str]:
    """Views whose private_metadata the bot always writes as a JSON object (the listeners read it back with
    json.loads); any other view's that looks like JSON must be one too, so a new dialog is covered without being
    listed here. The dialogs' modules load with the first dialog checked, not with the gate at start-up."""
    from minds_bot.render.modals import PICK_STUDY_CALLBACK
    from minds_bot.render.plan_dialogs import VIEW_ANSWER, VIEW_ANSWER_ALL, VIEW_PLAN_REQUEST, VIEW_REVISE

    return frozenset({VIEW_PLAN_REQUEST, VIEW_ANSWER, VIEW_ANSWER_ALL, VIEW_REVISE, PICK_STUDY_CALLBACK})


def _json_object(text: str) -> str | None:
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return "private_metadata is not JSON"
    return None if isinstance(value, dict) else "private_metadata is not a JSON object"


def _actions(body: Mapping[str, Any]) -> str | None:
    actions = body.get("actions")
    if not isinstance(actions, list) or not actions:
        return "actions is not a list of actions"
    for action in actions:
        if not isinstance(action, dict) or _strings(action, "action_id"):
            return "an action has no action_id"
        if _optional(action, str, "block_id", "value", "action_ts", "type"):
            return "an action field has the wrong type"
    return None


def _block_actions(body: dict[str, Any]) -> str | None:
    view = body.get("view")
    return _first(
        _user(body),
        _team(body),
        # A click on a message (anything outside a modal or the App Home) always comes with its response_url.
        _strings(body, "trigger_id") if view is not None else _strings(body, "trigger_id", "response_url"),
        _actions(body),
        _where(body),
        _view(view, submitted=False) if view is not None else None,
    )


def _view_submission(body: dict[str, Any]) -> str | None:
    urls = body.get("response_urls")
    bad_urls = urls is not None and not (
        isinstance(urls, list)
        and all(
            isinstance(u, dict) and not _optional(u, str, "response_url") and not _web_address(u.get("response_url"))
            for u in urls
        )
    )
    return _first(
        _user(body),
        _team(body),
        _strings(body, "trigger_id"),
        _view(body.get("view"), submitted=True),
        "response_urls is not a list of response URLs" if bad_urls else None,
    )


def _view_closed(body: dict[str, Any]) -> str | None:
    return _first(_user(body), _team(body), _view(body.get("view"), submitted=False))


def _block_suggestion(body: dict[str, Any]) -> str | None:
    view = body.get("view")
    return _first(
        _user(body),
        _team(body),
        _strings(body, "action_id"),
        _optional(body, str, "value", "block_id"),
        _view(view, submitted=False) if view is not None else None,
    )


def _shortcut(body: dict[str, Any]) -> str | None:
    return _first(_user(body), _team(body), _strings(body, "callback_id", "trigger_id"), _where(body))


def _event_callback(body: dict[str, Any]) -> str | None:
    event = body.get("event")
    if not isinstance(event, dict) or _strings(event, "type"):
        return "event is not a Slack event"
    problem = _first(
        _strings(body, "team_id", "event_id"),
        _optional(body, list, "authorizations"),
    )
    if problem is None and event["type"] in EVENTS_WITH_USER:
        problem = _strings(event, "user")
    if problem is None and event["type"] == "function_executed":
        problem = _function_executed(event)
    if problem is None and any(not isinstance(a, dict) for a in body.get("authorizations") or []):
        problem = "authorizations is not a list of objects"
    return problem


def _function_executed(event: Mapping[str, Any]) -> str | None:
    """A workflow step: Bolt routes it by ``function.callback_id`` and builds its client from
    ``bot_access_token``; anything else in it (its inputs, a missing execution id) the step's listeners answer."""
    return _first(
        _optional(event, dict, "function"),
        _optional(event, str, "function_execution_id", "bot_access_token"),
    )


def _url_verification(body: dict[str, Any]) -> str | None:
    return _strings(body, "challenge")


def _nothing(body: dict[str, Any]) -> str | None:
    return None


_SHAPES = {
    "block_actions": _block_actions,
    "view_submission": _view_submission,
    "view_closed": _view_closed,
    "block_suggestion": _block_suggestion,
    "shortcut": _shortcut,
    "message_action": _shortcut,
    "event_callback": _event_callback,
    "url_verification": _url_verification,
    "app_rate_limited": _nothing,
}


# --- the door ----------------------------------------------------------------------------------------------


def admit(
    *,
    secret: str,
    body: bytes,
    headers: Mapping[str, str],
    query: str = "",
    now: float,
    refusals: RefusalLog | None = None,
    source: str | None = None,
) -> AsyncBoltRequest | Refusal:
    """A Bolt request marked verified, or why not: logged with the reason and the body's size only, through
    ``refusals`` (per ``source`` and minute) when given, else as one line."""
    lowered: dict[str, str | Sequence[str]] = {key.lower(): value for key, value in headers.items()}
    checked = _refusal(secret=secret, body=body, headers=lowered, now=now)
    outcome = _bolt_request(checked, query=query, headers=lowered) if isinstance(checked, str) else checked
    if isinstance(outcome, Refusal):
        if refusals is None:
            refusals = RefusalLog(clock=lambda: now)  # alone: every refusal is its source's first
        refusals.refused(source=source, status=outcome.status, reason=outcome.reason, size=len(body))
    return outcome


def _refusal(*, secret: str, body: bytes, headers: Mapping[str, Any], now: float) -> Refusal | str:
    """The refusal, or the body's text when the request may go on."""
    reason = verify(secret=secret, headers=headers, body=body, now=now)
    if reason is not None:
        return Refusal(401, reason)
    content_type = headers.get("content-type", "")
    text = decode(body, content_type)
    if text is None:
        return Refusal(400, "body is not UTF-8")
    try:
        problem = shape_problem(parse(text, content_type))
    except ValueError:
        return Refusal(400, "body is not JSON or a form")
    return Refusal(400, problem) if problem else text


def _bolt_request(text: str, *, query: str, headers: dict[str, str | Sequence[str]]) -> AsyncBoltRequest | Refusal:
    try:
        return AsyncBoltRequest(body=text, query=query, headers=headers, context={VERIFIED: True})
    except (AttributeError, IndexError, KeyError, TypeError, ValueError) as exc:
        # Bolt reads ids from many optional places; a verified body it cannot read is refused, not a 500.
        return Refusal(400, f"Bolt cannot read it ({type(exc).__name__})")


def events_handler(
    app: AsyncApp, *, signing_secret: str, clock: Callable[[], float], refusals: RefusalLog | None = None
) -> Callable[[web.Request], Awaitable[web.Response]]:
    """The aiohttp handler for ``POST /slack/events``: ``admit`` first, then Bolt; a refusal has no body and is
    logged through ``refusals`` (a source's first refusal in a minute, then one summary line)."""
    refusals = refusals or RefusalLog(clock=clock)

    async def slack_events(request: web.Request) -> web.Response:
        refusals.flush()
        try:
            body = await request.read()
        except web.HTTPRequestEntityTooLarge:
            size = request.content_length or 0
            refusals.refused(source=request.remote, status=413, reason="body too large", size=size)
            return web.Response(status=413)
        admitted = admit(
            secret=signing_secret,
            body=body,
            headers=request.headers,
            query=request.query_string,
            now=clock(),
            refusals=refusals,
            source=request.remote,
        )
        if isinstance(admitted, Refusal):
            return web.Response(status=admitted.status)
        return await to_aiohttp_response(await app.async_dispatch(admitted))

    return slack_events


def is_verified(request: Any) -> bool:
    """Whether a Bolt request passed ``admit`` (HTTP) or came over Socket Mode (authenticated by the app token)."""
    return getattr(request, "mode", None) == "socket_mode" or bool((request.context or {}).get(VERIFIED))


def is_slack_url(url: Any, *, slack_api_url: str) -> bool:
    """Whether ``url`` is Slack's (``https://hooks.slack.com/``) or the configured Slack's (tests, the demo)."""
    if not isinstance(url, str):
        return False
    return _origin(url) in {SLACK_HOOKS_ORIGIN, _origin(slack_api_url)}


def _origin(url: str) -> str:
    try:
        parts = urlsplit(url)
        return f"{parts.scheme}://{parts.netloc}".lower() if parts.scheme and parts.netloc else ""
    except ValueError:
        return ""


def quiet_bolt_verification_log() -> None:
    """Bolt logs a request that fails its signature check with the whole body at INFO: drop that line."""
    logger = logging.getLogger(_BOLT_VERIFICATION_LOGGER)
    if _drop_everything not in logger.filters:
        logger.addFilter(_drop_everything)


def _drop_everything(record: logging.LogRecord) -> bool:
    return False
