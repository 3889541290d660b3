"""The Slack Web API surface of the emulator: ``/api/<method>`` with Slack's encodings, auth and 429s.

Owns request decoding (query string, form and JSON bodies, Bearer or ``token`` auth), the simulated rate
limits, and the mapping of each method to a ``Workspace`` call. Must not hold workspace data itself.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from slack_emulator.errors import SlackError, invalid_arguments
from slack_emulator.ids import ts_key
from slack_emulator.pace import SlackPace
from slack_emulator.state import Channel, StoredFile
from slack_emulator.workspace import Workspace, parse_content

Json = dict[str, Any]
Method = Callable[[Json], Awaitable[Json]]
MAX_CALLS_KEPT = 1000
MEMBERS_PAGE_DEFAULT = 100


@dataclass
class RateLimit:
    retry_after: int
    remaining: int | None  # None: every call is limited until cleared


class RateLimiter:
    """Simulated 429s per method: standing ones from config, counted ones from the control endpoint."""

    def __init__(self, standing: Mapping[str, int]) -> None:
        self._limits = {m: RateLimit(retry_after=s, remaining=None) for m, s in standing.items()}

    def set(self, method: str, *, retry_after: int, count: int | None) -> None:
        self._limits[method] = RateLimit(retry_after=retry_after, remaining=count)

    def clear(self, method: str | None = None) -> None:
        if method is None:
            self._limits.clear()
        else:
            self._limits.pop(method, None)

    def take(self, method: str) -> int | None:
        """Retry-After seconds when this call must be refused, else None."""
        limit = self._limits.get(method)
        if limit is None:
            return None
        if limit.remaining is not None:
            limit.remaining -= 1
            if limit.remaining <= 0:
                del self._limits[method]
        return limit.retry_after

    def snapshot(self) -> dict[str, Json]:
        return {m: {"retry_after": r.retry_after, "remaining": r.remaining} for m, r in self._limits.items()}


async def read_args(request: web.Request) -> Json:
    """All arguments of a Web API call: query string first, then the body (JSON or form) on top."""
    args: Json = dict(request.query)
    if request.method != "POST" or not request.can_read_body:
        return args
    if request.content_type == "application/json":
        try:
            body = await request.json()
        except json.JSONDecodeError as exc:
            raise SlackError("invalid_json") from exc
        if not isinstance(body, dict):
            raise SlackError("invalid_json")
        return args | body
    form = await request.post()
    return args | {k: v for k, v in form.items() if isinstance(v, str)}


def _token(request: web.Request, args: Json) -> str | None:
    header = request.headers.get("Authorization", "")
    if header.startswith("Bearer "):
        return header.removeprefix("Bearer ").strip()
    token = args.pop("token", None)
    return token if isinstance(token, str) else None


def _int_arg(args: Json, key: str, default: int) -> int:
    value = args.get(key)
    if value in (None, ""):
        return default
    try:
        number = int(value)
    except (TypeError, ValueError) as exc:
        raise SlackError("invalid_cursor" if key == "cursor" else "invalid_limit") from exc
    if number < 0 or (key == "limit" and number == 0):
        raise SlackError("invalid_cursor" if key == "cursor" else "invalid_limit")
    return number


def _flag(args: Json, key: str) -> bool:
    return str(args.get(key, "")).lower() in ("1", "true")


class WebApi:
    """Dispatches ``/api/<method>`` to one handler per Slack method."""

    def __init__(self, *, workspace: Workspace, limiter: RateLimiter, pace: SlackPace | None = None) -> None:
        self.ws = workspace
        self.limiter = limiter
        self.pace = pace
        # Recent authenticated calls, for tests; bounded so a long demo does not grow without end.
        self.calls: deque[tuple[str, Json]] = deque(maxlen=MAX_CALLS_KEPT)
        self._methods: dict[str, Method] = {
            "api.test": self._api_test,
            "auth.test": self._auth_test,
            "chat.postMessage": self._post_message,
            "chat.update": self._update,
            "chat.postEphemeral": self._post_ephemeral,
            "chat.delete": self._delete,
            "chat.unfurl": self._unfurl,
            "chat.getPermalink": self._permalink,
            "views.open": self._views_open,
            "views.update": self._views_update,
            "views.push": self._views_push,
            "views.publish": self._views_publish,
            "users.info": self._users_info,
            "conversations.info": self._conversations_info,
            "conversations.join": self._conversations_join,
            "conversations.open": self._conversations_open,
            "conversations.members": self._conversations_members,
            "conversations.replies": self._conversations_replies,
            "users.conversations": self._users_conversations,
            "reactions.add": self._reactions_add,
            "files.getUploadURLExternal": self._upload_url,
            "files.completeUploadExternal": self._complete_upload,
            "files.info": self._files_info,
            "functions.completeSuccess": self._function_success,
            "functions.completeError": self._function_error,
        }
        # Each workflow step's required outputs, as the app's manifest declares them (``Emulator.connect_bot``).
        self.function_outputs: dict[str, tuple[str, ...]] = {}

    async def handle(self, request: web.Request) -> web.Response:
        method_name = request.match_info["method"]
        method = self._methods.get(method_name)
        try:
            if method is None:
                raise SlackError("unknown_method", status=404)
            args = await read_args(request)
            team = self._authenticate(request, args)
            retry_after = self.limiter.take(method_name)
            if retry_after is None and self.pace is not None:
                channel = args.get("channel")
                retry_after = self.pace.take(
                    method_name, workspace=team, channel=channel if isinstance(channel, str) else None
                )
            if retry_after is not None:
                return web.json_response(
                    {"ok": False, "error": "ratelimited"},
                    status=429,
                    headers={"Retry-After": str(retry_after)},
                )
            self.calls.append((method_name, args))
            body = await method(args)
        except SlackError as exc:
            return web.json_response(exc.body(), status=exc.status)
        return web.json_response({"ok": True, **body})

    def _authenticate(self, request: web.Request, args: Json) -> str:
        """The team the call's bot token belongs to."""
        token = _token(request, args)
        if not token:
            raise SlackError("not_authed")
        if token == self.ws.config.bot_token:
            return self.ws.config.team_id
        team = self.ws.config.installs.get(token) or self.ws.function_token_team(token)
        if team is None:
            raise SlackError("invalid_auth")
        return team

    # ---- methods

    async def _function_success(self, args: Json) -> Json:
        execution = self.ws.state.functions.get(args.get("function_execution_id") or "")
        required = self.function_outputs.get(execution.callback_id, ()) if execution else ()
        self.ws.complete_function(
            execution_id=args.get("function_execution_id"), outputs=args.get("outputs"), required=required
        )
        return {}

    async def _function_error(self, args: Json) -> Json:
        self.ws.complete_function(execution_id=args.get("function_execution_id"), error=args.get("error") or "")
        return {}

    async def _api_test(self, args: Json) -> Json:
        return {"args": args}

    async def _auth_test(self, args: Json) -> Json:
        config = self.ws.config
        return {
            "url": f"{self.ws.links.base}/",
            "team": config.team_name,
            "user": config.bot_name,
            "team_id": config.team_id,
            "user_id": config.bot_user_id,
            "bot_id": config.bot_id,
            "is_enterprise_install": False,
        }

    def _channel(self, args: Json) -> Channel:
        """The channel ``args`` names, as the bot may see it: Slack answers channel_not_found for a private
        channel the app is not in."""
        channel = self.ws.channel(args.get("channel"))
        if channel.is_private and not channel.bot_is_member:
            raise SlackError("channel_not_found")
        return channel

    async def _post_message(self, args: Json) -> Json:
        channel = self._channel(args)
        content = parse_content(args)
        message = self.ws.post_message(
            channel=channel,
            content=content,
            user=self.ws.config.bot_user_id,
            thread_ts=args.get("thread_ts"),
            broadcast=args.get("reply_broadcast") in (True, "true", "1", 1),
        )
        return {"channel": channel.id, "ts": message.ts, "message": self.ws.message_json(message)}

    async def _update(self, args: Json) -> Json:
        channel = self._channel(args)
        message = self.ws.message(channel, args.get("ts"))
        if message.user != self.ws.config.bot_user_id:
            raise SlackError("cant_update_message")
        self.ws.update_message(message, args=args)
        body = self.ws.message_json(message)
        return {"channel": channel.id, "ts": message.ts, "text": message.text, "message": body}

    async def _unfurl(self, args: Json) -> Json:
        channel = self._channel(args)
        message = self.ws.message(channel, args.get("ts"))
        self.ws.unfurl(message, unfurls=args.get("unfurls"))
        return {}

    async def _post_ephemeral(self, args: Json) -> Json:
        channel = self._channel(args)
        user = self.ws.user(args.get("user"))
        content = parse_content(args)
        ephemeral = self.ws.post_ephemeral(
            channel=channel, user=user.id, content=content, thread_ts=args.get("thread_ts")
        )
        return {"message_ts": ephemeral.ts}

    async def _delete(self, args: Json) -> Json:
        channel = self._channel(args)
        message = self.ws.message(channel, args.get("ts"))
        if message.user != self.ws.config.bot_user_id:
            raise SlackError("cant_delete_message")
        self.ws.state.delete_message(message)
        return {"channel": channel.id, "ts": message.ts}

    async def _permalink(self, args: Json) -> Json:
        channel = self._channel(args)
        message = self.ws.message(channel, args.get("message_ts"))
        return {"channel": channel.id, "permalink": self.ws.permalink(message)}

    async def _views_open(self, args: Json) -> Json:
        view = self.ws.open_view(trigger_id=args.get("trigger_id"), raw_view=args.get("view"))
        return {"view": self.ws.view_json(view)}

    async def _views_push(self, args: Json) -> Json:
        view = self.ws.push_view(trigger_id=args.get("trigger_id"), raw_view=args.get("view"))
        return {"view": self.ws.view_json(view)}

    async def _views_update(self, args: Json) -> Json:
        return {"view": self.ws.view_json(self.ws.update_view(args=args))}

    async def _views_publish(self, args: Json) -> Json:
        view = self.ws.publish_home(user_id=args.get("user_id"), raw_view=args.get("view"), hash_=args.get("hash"))
        return {"view": self.ws.view_json(view)}

    async def _users_info(self, args: Json) -> Json:
        if args.get("user") == self.ws.config.bot_user_id:
            return {"user": self.ws.bot_user_json()}
        user = self.ws.user(args.get("user"))
        return {"user": self.ws.user_json(user, include_locale=_flag(args, "include_locale"))}

    async def _conversations_info(self, args: Json) -> Json:
        channel = self._channel(args)
        return {"channel": self.ws.channel_json(channel, include_locale=_flag(args, "include_locale"))}

    async def _conversations_members(self, args: Json) -> Json:
        members = self.ws.members(self._channel(args))
        start, limit = _int_arg(args, "cursor", 0), _int_arg(args, "limit", MEMBERS_PAGE_DEFAULT)
        more = start + limit < len(members)
        return {
            "members": members[start : start + limit],
            "response_metadata": {"next_cursor": str(start + limit) if more else ""},
        }

    async def _conversations_replies(self, args: Json) -> Json:
        """A message and its thread (``ts``: the thread's parent or any message in it), the parent first, then
        the replies between ``oldest`` and ``latest`` (``inclusive``), at most ``limit``. Like Slack, the bot
        reads only channels it is in."""
        channel = self._channel(args)
        if channel.im_user is None and not channel.bot_is_member:
            raise SlackError("not_in_channel")
        found = self.ws.message(channel, args.get("ts")) if args.get("ts") else None
        if found is None:
            raise SlackError("thread_not_found")
        parent = self.ws.message(channel, found.thread_ts) if found.thread_ts else found
        inclusive = _flag(args, "inclusive")
        oldest, latest = str(args.get("oldest") or "0"), str(args.get("latest") or "")

        def within(ts: str) -> bool:
            low = ts_key(ts) >= ts_key(oldest) if inclusive else ts_key(ts) > ts_key(oldest)
            if not latest:
                return low
            return low and (ts_key(ts) <= ts_key(latest) if inclusive else ts_key(ts) < ts_key(latest))

        thread = [parent, *[m for m in self.ws.state.replies(channel.id, parent.ts) if within(m.ts)]]
        limit = _int_arg(args, "limit", 1000)
        return {"messages": [self.ws.message_json(m) for m in thread[:limit]], "has_more": len(thread) > limit}

    async def _users_conversations(self, args: Json) -> Json:
        """The channels ``user`` is in (the token's bot user when none is named), paged; DMs only when asked."""
        user = args.get("user") or self.ws.config.bot_user_id
        types = str(args.get("types") or "public_channel").split(",")
        wanted = [
            c
            for c in self.ws.state.channels.values()
            if user in self.ws.members(c) and _kind(c) in types and not (c.is_private and not c.bot_is_member)
        ]
        start, limit = _int_arg(args, "cursor", 0), _int_arg(args, "limit", MEMBERS_PAGE_DEFAULT)
        more = start + limit < len(wanted)
        return {
            "channels": [self.ws.channel_json(c) for c in wanted[start : start + limit]],
            "response_metadata": {"next_cursor": str(start + limit) if more else ""},
        }

    async def _conversations_open(self, args: Json) -> Json:
        """The app's direct-message channel with one person (``users``: one user id; group DMs are not offered)."""
        users = [u for u in str(args.get("users") or "").split(",") if u]
        if len(users) != 1:
            raise SlackError("not_enough_users" if not users else "too_many_users")
        user = self.ws.user(users[0]).id
        channel = self.ws.state.open_im(user, self.ws.ids.prefixed("D"))
        return {"channel": {"id": channel.id}}

    async def _conversations_join(self, args: Json) -> Json:
        channel = self._channel(args)
        if channel.im_user is not None or channel.is_private:  # a private channel only by invitation
            raise SlackError("method_not_supported_for_channel_type")
        joined = self.ws.state.join(channel.id)
        body: Json = {"channel": self.ws.channel_json(channel)}
        if not joined:
            body["warning"] = "already_in_channel"
            body["response_metadata"] = {"warnings": ["already_in_channel"]}
        return body

    async def _reactions_add(self, args: Json) -> Json:
        channel = self._channel(args)
        message = self.ws.message(channel, args.get("timestamp"))
        name = args.get("name")
        if not isinstance(name, str) or not name.strip(":"):
            raise SlackError("invalid_name")
        if not self.ws.state.add_reaction(message, name=name.strip(":"), user=self.ws.config.bot_user_id):
            raise SlackError("already_reacted")
        return {}

    async def _upload_url(self, args: Json) -> Json:
        stored = self.ws.start_upload(filename=args.get("filename"), length=args.get("length"))
        return {"upload_url": f"{self.ws.links.base}/_emulator/upload/{stored.id}", "file_id": stored.id}

    async def _files_info(self, args: Json) -> Json:
        """A file by its id, as Slack describes it; like Slack, only a file the bot can see (one it uploaded, or
        one shared in a channel it is in) — any other is ``file_not_found``."""
        file_id = args.get("file")
        stored = self.ws.state.files.get(file_id) if isinstance(file_id, str) else None
        if stored is None or stored.content is None or not self._bot_sees(stored):
            raise SlackError("file_not_found")
        return {"file": self.ws.file_json(stored), "comments": [], "response_metadata": {"next_cursor": ""}}

    def _bot_sees(self, stored: StoredFile) -> bool:
        if stored.user == self.ws.config.bot_user_id:
            return True
        channels = [self.ws.state.resolve_channel(c) for c in stored.channels]
        return any(c is not None and (c.bot_is_member or c.im_user is not None) for c in channels)

    async def _complete_upload(self, args: Json) -> Json:
        if not args.get("files"):
            raise invalid_arguments(["missing required field: files"])
        stored = self.ws.complete_upload(args=args)
        return {"files": [self.ws.file_json(f) for f in stored]}


def _kind(channel: Channel) -> str:
    """The ``types`` word of users.conversations that lists ``channel``."""
    if channel.im_user is not None:
        return "im"
    return "private_channel" if channel.is_private else "public_channel"
