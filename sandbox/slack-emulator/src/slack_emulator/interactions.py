"""What Slack sends the bot when a user acts: signed slash commands, block_actions, view_submission,
view_closed and block_suggestion, a workflow's step (``function_executed``), plus the response_url endpoint
the bot answers through.

Owns the outgoing HTTP to the bot's ``/slack/events`` (signed, 3-second acknowledgement window) and how
the bot's acknowledgement is honoured. Must not validate Block Kit itself (``Workspace`` does).
"""

from __future__ import annotations

import json
import urllib.parse
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from slack_emulator import payloads
from slack_emulator.errors import EmulatorUsageError, SlackError
from slack_emulator.state import Ephemeral, FunctionExecution, Message, View
from slack_emulator.workspace import Workspace, parse_content

Json = dict[str, Any]
RESPONSE_URL_MAX_USES = 5
RESPONSE_URL_TTL_SECONDS = 30 * 60
MAX_DELIVERIES_KEPT = 1000


@dataclass
class Delivery:
    """How the bot answered one request: status and body, or why there was no answer in time."""

    kind: str
    status: int | None = None
    body: Any = None
    error: str | None = None  # operation_timeout, dispatch_failed

    @property
    def ok(self) -> bool:
        return self.error is None


@dataclass
class ResponseTarget:
    """What a response_url is bound to: where to post and which message counts as the original."""

    channel: str
    user: str
    issued_at: float
    original: Message | Ephemeral | None = None
    thread_ts: str | None = None
    uses: int = 0
    posted: list[Message | Ephemeral] = field(default_factory=list)


class Interactions:
    """Sends users' actions to the bot and applies what the bot answers."""

    def __init__(self, *, workspace: Workspace, clock: Callable[[], float]) -> None:
        self.ws = workspace
        self._clock = clock
        self.session: aiohttp.ClientSession | None = None
        self.bot_events_url = workspace.config.bot_events_url
        self.deliveries: deque[Delivery] = deque(maxlen=MAX_DELIVERIES_KEPT)
        self._response_targets: dict[str, ResponseTarget] = {}
        # What each user picked on each message's selects and checkboxes: Slack sends it with every click there.
        self._message_choices: dict[tuple[str, str, str], dict[tuple[str, str], Any]] = {}

    # ---- signed delivery

    async def _deliver(self, kind: str, *, body: bytes, content_type: str, user: str) -> Delivery:
        if self.session is None:
            raise RuntimeError("the emulator is not running (no HTTP session)")
        timestamp = str(int(self._clock()))
        headers = {
            "Content-Type": content_type,
            "X-Slack-Request-Timestamp": timestamp,
            "X-Slack-Signature": payloads.signature(
                secret=self.ws.config.signing_secret, timestamp=timestamp, body=body
            ),
        }
        delivery = await self._post(kind, body=body, headers=headers)
        self.deliveries.append(delivery)
        if delivery.error:
            detail = f"{kind} to {self.bot_events_url}: {delivery.error}"
            if delivery.status is not None:
                detail += f" (HTTP {delivery.status})"
            self.ws.state.warn(error=delivery.error, detail=detail, user=user)
        return delivery

    async def _post(self, kind: str, *, body: bytes, headers: dict[str, str]) -> Delivery:
        assert self.session is not None
        timeout = aiohttp.ClientTimeout(total=self.ws.config.ack_timeout)
        url = self.bot_events_url
        try:
            async with self.session.post(url, data=body, headers=headers, timeout=timeout) as response:
                status, text = response.status, await response.text()
                content_type = response.content_type
        except TimeoutError:
            return Delivery(kind, error="operation_timeout")
        except aiohttp.ClientError:
            return Delivery(kind, error="dispatch_failed")
        parsed: Any = text
        if content_type == "application/json" and text:
            try:
                parsed = json.loads(text)
            except json.JSONDecodeError:
                parsed = text
        return Delivery(kind, status=status, body=parsed, error=None if status == 200 else "dispatch_failed")

    async def _send_payload(self, payload: Json, *, user: str) -> Delivery:
        body = urllib.parse.urlencode({"payload": json.dumps(payload)}).encode()
        return await self._deliver(
            payload["type"], body=body, content_type="application/x-www-form-urlencoded", user=user
        )

    # ---- shared payload parts

    def _user_json(self, user_id: str) -> Json:
        user = self.ws.user(user_id)
        return {"id": user.id, "username": user.name, "name": user.name, "team_id": self.ws.config.team_id}

    def _envelope(self, kind: str, *, user: str) -> Json:
        config = self.ws.config
        return {
            "type": kind,
            "team": {"id": config.team_id, "domain": config.team_domain},
            "user": self._user_json(user),
            "api_app_id": config.app_id,
            "token": config.verification_token,
            "is_enterprise_install": False,
            "enterprise": None,
        }

    def _response_url(self, target: ResponseTarget) -> str:
        live = {k: t for k, t in self._response_targets.items() if not self._expired(t)}
        self._response_targets = live  # expired URLs answer invalid_url instead of expired_url; both refuse
        token = self.ws.ids.token(32)
        self._response_targets[token] = target
        return f"{self.ws.links.base}/_emulator/response/{token}"

    # ---- messages people type

    async def _event(self, event: Json, *, user: str) -> Delivery:
        """Deliver ``event`` in Slack's Events API envelope, as the app's bot user in this workspace."""
        config = self.ws.config
        body = {
            "token": config.verification_token,
            "team_id": config.team_id,
            "api_app_id": config.app_id,
            "event": event,
            "type": "event_callback",
            "event_id": "Ev" + self.ws.ids.token(10).upper(),
            "event_time": int(self._clock()),
            "authorizations": [{"team_id": config.team_id, "user_id": config.bot_user_id, "is_bot": True}],
        }
        return await self._deliver(
            "event_callback", body=json.dumps(body).encode(), content_type="application/json", user=user
        )

    async def link_shared(self, message: Message, links: list[tuple[str, str]]) -> Delivery | None:
        """Slack's ``link_shared`` event for links on the app's unfurl domains in a person's message:
        ``links`` is (domain, url) for each. None when Slack would not tell the app (no links, a bot's post)."""
        if not links or message.bot_id:
            return None
        event: Json = {
            "type": "link_shared",
            "channel": message.channel,
            "user": message.user,
            "message_ts": message.ts,
            "unfurl_id": "C" + self.ws.ids.token(12).upper(),
            "source": "conversations_history",
            "links": [{"domain": domain, "url": url} for domain, url in links],
            "event_ts": message.ts,
        }
        if message.thread_ts:
            event["thread_ts"] = message.thread_ts
        return await self._event(event, user=message.user)

    async def home_opened(self, user: str) -> Delivery:
        """Slack's ``app_home_opened`` event: ``user`` opened the app's Home tab (with the view it shows, if any)."""
        im = self.ws.state.open_im(user, self.ws.ids.prefixed("D"))
        event: Json = {
            "type": "app_home_opened",
            "user": user,
            "channel": im.id,
            "tab": "home",
            "event_ts": f"{self._clock():.6f}",
        }
        if (home := self.ws.state.home(user)) is not None:
            event["view"] = {"id": home.id, "type": "home"}
        return await self._event(event, user=user)

    async def user_changed(self, user: str) -> Delivery:
        """Slack's ``user_change`` event after ``user``'s profile (here: their locale) changed."""
        profile = self.ws.user_json(self.ws.user(user), include_locale=True)
        event: Json = {"type": "user_change", "user": profile, "event_ts": f"{self._clock():.6f}"}
        return await self._event(event, user=user)

    async def function_executed(self, execution: FunctionExecution, *, user: str) -> Delivery:
        """Slack's ``function_executed`` event: a workflow reached the app's step ``execution.callback_id`` with
        its inputs; ``bot_access_token`` is the step's own token, valid until the app completes it."""
        config = self.ws.config
        event: Json = {
            "type": "function_executed",
            "function": {
                "id": "Fn" + self.ws.ids.token(10).upper(),
                "callback_id": execution.callback_id,
                "app_id": config.app_id,
                "type": "app",
            },
            "inputs": execution.inputs,
            "function_execution_id": execution.id,
            "workflow_execution_id": "Wx" + self.ws.ids.token(10).upper(),
            "event_ts": f"{self._clock():.6f}",
            "bot_access_token": execution.token,
        }
        return await self._event(event, user=user)

    async def message_event(self, message: Message) -> Delivery | None:
        """Slack's ``message.channels`` event for a person's message in a channel the bot is in (a thread reply
        carries ``thread_ts``). None when Slack would not tell the bot: bot posts, DMs, channels without it."""
        channel = self.ws.channel(message.channel)
        if message.bot_id or not channel.bot_is_member or channel.im_user is not None:
            return None
        event: Json = {
            "type": "message",
            "channel": channel.id,
            "user": message.user,
            "text": message.text,
            "ts": message.ts,
            "event_ts": message.ts,
            "channel_type": "group" if channel.is_private else "channel",  # message.groups for a private one
        }
        if message.thread_ts:
            event["thread_ts"] = message.thread_ts
        return await self._event(event, user=message.user)

    # ---- slash commands

    async def send_slash_command(self, *, user: str, channel: str, text: str, command: str = "/minds") -> Delivery:
        """Type ``{command} {text}`` in ``channel`` as ``user``."""
        member = self.ws.user(user)
        where = self.ws.channel(channel)
        if not where.visible_to(member.id):
            raise SlackError("channel_not_found")  # a private channel this person is not in
        target = ResponseTarget(channel=where.id, user=member.id, issued_at=self._clock())
        fields = {
            "token": self.ws.config.verification_token,
            "team_id": self.ws.config.team_id,
            "team_domain": self.ws.config.team_domain,
            "channel_id": where.id,
            "channel_name": "directmessage" if where.im_user else where.name,
            "user_id": member.id,
            "user_name": member.name,
            "command": command,
            "text": text,
            "api_app_id": self.ws.config.app_id,
            "is_enterprise_install": "false",
            "response_url": self._response_url(target),
            "trigger_id": self.ws.issue_trigger(member.id),
        }
        body = urllib.parse.urlencode(fields).encode()
        delivery = await self._deliver(
            "slash_command", body=body, content_type="application/x-www-form-urlencoded", user=member.id
        )
        if delivery.ok and delivery.body:
            reply = delivery.body if isinstance(delivery.body, dict) else {"text": str(delivery.body)}
            self._respond_or_warn(target, reply)
        return delivery

    # ---- block actions

    async def block_action(
        self,
        *,
        user: str,
        action_id: str,
        block_id: str | None = None,
        channel: str | None = None,
        ts: str | None = None,
        view_id: str | None = None,
        selection: Any = None,
        view_inputs: Mapping[str, Any] | None = None,
    ) -> Delivery:
        """Click a button or choose an option on a message (channel+ts) or a modal/App Home (view_id)."""
        payload = self._envelope("block_actions", user=user) | {"trigger_id": self.ws.issue_trigger(user)}
        if view_id is not None:
            view = self._view_for(user, view_id)
            if view_inputs is not None:
                self.ws.state.set_view_values(view, payloads.view_state_values(_blocks(view), view_inputs))
            blocks = _blocks(view)
            payload |= {"container": {"type": "view", "view_id": view.id}, "view": self.ws.view_json(view)}
            payload["state"] = {"values": view.values}
        elif channel is not None and ts is not None:
            blocks = self._message_surface(payload, user=user, channel=channel, ts=ts)
        else:
            raise EmulatorUsageError("block_action needs channel and ts, or view_id")
        block, element = payloads.find_element(blocks, action_id=action_id, block_id=block_id)
        if view_id is None and channel is not None and ts is not None:
            where = payload["container"]["channel_id"]
            choices = self._message_choices.setdefault((user, where, ts), {})
            if element.get("type") != "button" and selection is not None:
                choices[(str(block.get("block_id")), str(element.get("action_id")))] = selection
            payload["state"] = {"values": payloads.message_state_values(blocks, choices)}
        payload["actions"] = [
            payloads.action(block=block, element=element, selection=selection, action_ts=self.ws.ids.ts())
        ]
        return await self._send_payload(payload, user=user)

    async def message_shortcut(self, *, user: str, callback_id: str, channel: str, ts: str) -> Delivery:
        """Run a message shortcut ("More actions" on a message): Slack sends the message and a response_url."""
        payload = self._envelope("message_action", user=user) | {
            "callback_id": callback_id,
            "trigger_id": self.ws.issue_trigger(user),
            "action_ts": self.ws.ids.ts(),
            "message_ts": ts,
        }
        self._message_surface(payload, user=user, channel=channel, ts=ts)
        payload.pop("container", None)
        payload.pop("state", None)
        return await self._send_payload(payload, user=user)

    def _message_surface(self, payload: Json, *, user: str, channel: str, ts: str) -> list[Json]:
        where = self.ws.channel(channel)
        original: Message | Ephemeral | None = self.ws.state.find_message(where.id, ts)
        if original is None:
            original = self.ws.state.find_ephemeral(user=user, channel=where.id, ts=ts)
        if original is None:
            raise EmulatorUsageError(f"no message {ts} in {channel} visible to {user}")
        is_ephemeral = isinstance(original, Ephemeral)
        payload["container"] = {
            "type": "message",
            "message_ts": ts,
            "channel_id": where.id,
            "is_ephemeral": is_ephemeral,
        }
        payload["channel"] = {"id": where.id, "name": where.name}
        if isinstance(original, Message):
            payload["message"] = self.ws.message_json(original)
        target = ResponseTarget(
            channel=where.id,
            user=user,
            issued_at=self._clock(),
            original=original,
            thread_ts=original.thread_ts,
        )
        payload["response_url"] = self._response_url(target)
        payload["state"] = {"values": {}}
        return original.blocks

    def _view_for(self, user: str, view_id: str | None) -> View:
        stack = self.ws.state.modal_stack(user)
        if view_id is None:
            if not stack:
                raise EmulatorUsageError(f"{user} has no modal open")
            return stack[-1]
        home = self.ws.state.home(user)
        for view in [*stack, *([home] if home else [])]:
            if view.id == view_id:
                return view
        raise EmulatorUsageError(f"view {view_id} is not open for {user}")

    # ---- modals

    async def submit_view(self, *, user: str, inputs: Mapping[str, Any], view_id: str | None = None) -> Delivery:
        """Press Submit on the user's top modal with ``inputs`` (keyed by action_id or block_id/action_id)."""
        view = self._view_for(user, view_id)
        values = payloads.view_state_values(_blocks(view), inputs)
        missing = payloads.missing_required(_blocks(view), values)
        if missing:
            raise EmulatorUsageError(f"required inputs are empty: {missing}")
        self.ws.state.set_view_values(view, values)
        payload = self._envelope("view_submission", user=user) | {
            "trigger_id": self.ws.issue_trigger(user),
            "view": self.ws.view_json(view),
            "response_urls": self._submission_response_urls(view, values, user=user),
        }
        delivery = await self._send_payload(payload, user=user)
        if delivery.ok:
            self._apply_submission_answer(view, delivery.body)
        return delivery

    def _submission_response_urls(self, view: View, values: Json, *, user: str) -> list[Json]:
        """One response URL per conversation chosen in a ``response_url_enabled`` input, as Slack sends."""
        urls = []
        for block, channel_ref in payloads.response_url_inputs(_blocks(view), values):
            channel = self.ws.channel(channel_ref).id
            target = ResponseTarget(channel=channel, user=user, issued_at=self._clock())
            urls.append(
                {
                    "block_id": block.get("block_id"),
                    "action_id": (block.get("element") or {}).get("action_id"),
                    "channel_id": channel,
                    "response_url": self._response_url(target),
                }
            )
        return urls

    def _apply_submission_answer(self, view: View, answer: Any) -> None:
        answer = answer if isinstance(answer, dict) else {}
        action = answer.get("response_action")
        try:
            if action == "errors":
                self.ws.state.set_view_errors(view, _string_map(answer.get("errors")))
            elif action == "update":
                self.ws.update_view(args={"view_id": view.id, "view": answer.get("view")})
            elif action == "push":
                self.ws.push_view(trigger_id=self.ws.issue_trigger(view.user), raw_view=answer.get("view"))
            elif action == "clear":
                self.ws.state.clear_modals(view.user)
            else:
                self.ws.state.pop_modal(view.user)
        except SlackError as exc:
            # Slack keeps the modal open and shows the user a generic error when the app's answer is invalid.
            self.ws.state.warn(error=exc.error, detail=f"response_action {action}: {exc.body()}", user=view.user)

    async def close_view(self, *, user: str, view_id: str | None = None) -> Delivery | None:
        """Press Close; the app hears about it (view_closed) only when the view asked for it."""
        view = self._view_for(user, view_id)
        clear = bool(view.payload.get("clear_on_close"))
        if clear:
            self.ws.state.clear_modals(user)
        else:
            self.ws.state.pop_modal(user)
        if not view.payload.get("notify_on_close"):
            return None
        payload = self._envelope("view_closed", user=user) | {
            "view": self.ws.view_json(view),
            "is_cleared": clear,
        }
        return await self._send_payload(payload, user=user)

    async def request_options(
        self,
        *,
        user: str,
        action_id: str,
        value: str,
        block_id: str | None = None,
        view_id: str | None = None,
        channel: str | None = None,
        ts: str | None = None,
    ) -> list[Json]:
        """Type ``value`` into an external select; returns the options the app offered (flattened)."""
        payload = self._envelope("block_suggestion", user=user)
        if view_id is not None:
            view = self._view_for(user, view_id)
            blocks = _blocks(view)
            payload |= {"container": {"type": "view", "view_id": view.id}, "view": self.ws.view_json(view)}
        elif channel is not None and ts is not None:
            blocks = self._message_surface(payload, user=user, channel=channel, ts=ts)
        else:
            raise EmulatorUsageError("request_options needs channel and ts, or view_id")
        block, _element = payloads.find_element(blocks, action_id=action_id, block_id=block_id)
        payload |= {"action_id": action_id, "block_id": block.get("block_id"), "value": value}
        delivery = await self._send_payload(payload, user=user)
        return self._options_from(delivery, user=user)

    def _options_from(self, delivery: Delivery, *, user: str) -> list[Json]:
        if not delivery.ok:
            return []
        body = delivery.body if isinstance(delivery.body, dict) else {}
        options = body.get("options")
        if options is None and isinstance(body.get("option_groups"), list):
            options = [o for g in body["option_groups"] if isinstance(g, dict) for o in g.get("options", [])]
        if not isinstance(options, list):
            self.ws.state.warn(error="invalid_options", detail=f"block_suggestion answer: {body!r}", user=user)
            return []
        return [o for o in options if isinstance(o, dict)]

    # ---- response_url

    def respond(self, token: str, body: Any) -> Json:
        """A POST to a response_url: post, replace or delete like Slack. Raises SlackError when refused."""
        target = self._response_targets.get(token)
        if target is None:
            raise SlackError("invalid_url", status=404)
        if self._expired(target):
            raise SlackError("expired_url", status=404)
        if target.uses >= RESPONSE_URL_MAX_USES:
            raise SlackError("used_url", status=404)
        if not isinstance(body, dict):
            raise SlackError("invalid_payload", status=400)
        self._apply_response(target, body)
        target.uses += 1  # only accepted posts count towards Slack's five
        return {"ok": True}

    def _expired(self, target: ResponseTarget) -> bool:
        return self._clock() - target.issued_at > RESPONSE_URL_TTL_SECONDS

    def _respond_or_warn(self, target: ResponseTarget, body: Json) -> None:
        try:
            self._apply_response(target, body)
        except SlackError as exc:
            self.ws.state.warn(error=exc.error, detail=f"reply to command: {exc.body()}", user=target.user)

    def _apply_response(self, target: ResponseTarget, body: Json) -> None:
        original = target.original or (target.posted[-1] if target.posted else None)
        if _truthy(body.get("delete_original")):
            if original is None:
                raise SlackError("message_not_found", status=404)
            self._delete(original)
            return
        content = parse_content(body)
        if _truthy(body.get("replace_original")) and original is not None:
            self._replace(original, body)
            return
        channel = self.ws.channel(target.channel)
        thread_ts = body.get("thread_ts") or target.thread_ts
        if body.get("response_type") == "in_channel":
            # Slack posts a response_url reply even where the bot is not a member.
            posted: Message | Ephemeral = self.ws.post_message(
                channel=channel,
                content=content,
                user=self.ws.config.bot_user_id,
                thread_ts=thread_ts,
                check_membership=False,
            )
        else:
            posted = self.ws.post_ephemeral(channel=channel, user=target.user, content=content, thread_ts=thread_ts)
        target.posted.append(posted)

    def _delete(self, original: Message | Ephemeral) -> None:
        if isinstance(original, Message):
            self.ws.state.delete_message(original)
        elif original in self.ws.state.ephemerals(original.user):
            self.ws.state.delete_ephemeral(original)

    def _replace(self, original: Message | Ephemeral, body: Json) -> None:
        if isinstance(original, Message):
            self.ws.update_message(original, args={"text": body.get("text", ""), "blocks": body.get("blocks", [])})
            return
        self.ws.replace_ephemeral(original, content=parse_content(body))


def _blocks(view: View) -> list[Json]:
    return list(view.payload.get("blocks", []))


def _string_map(value: Any) -> dict[str, str]:
    return {str(k): str(v) for k, v in value.items()} if isinstance(value, dict) else {}


def _truthy(value: Any) -> bool:
    return value is True or str(value).lower() == "true"
