"""Slack's semantics over the in-memory state: what each Web API call does and answers, minus HTTP.

Owns validation of message and view content, trigger ids, and the JSON shapes Slack returns for
messages, files and views. Shared by the Web API, the response_url endpoint and the drive API, so each
behaviour exists once. Must not do network I/O.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import mimetypes
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

from slack_emulator import blockkit
from slack_emulator.config import DemoUser, EmulatorConfig
from slack_emulator.errors import SlackError, invalid_arguments, invalid_blocks
from slack_emulator.ids import IdFactory, permalink_fragment
from slack_emulator.state import (
    Channel,
    Ephemeral,
    FunctionExecution,
    Message,
    StoredFile,
    View,
    WorkspaceState,
)

Json = dict[str, Any]
MAX_MODAL_STACK = 3


@dataclass
class Links:
    """Where the emulator is reachable; fixed once the server has bound its port."""

    base: str

    def file_url(self, stored: StoredFile) -> str:
        return f"{self.base}/_emulator/files/{stored.id}/{stored.name}"


@dataclass(frozen=True)
class Trigger:
    user: str
    issued_at: float


@dataclass(frozen=True)
class Content:
    text: str
    blocks: list[Json]


def parse_json_arg(value: Any, *, error: str) -> Any:
    """Form-encoded calls carry JSON as a string; JSON bodies carry the value itself."""
    if not isinstance(value, str):
        return value
    try:
        return json.loads(value)
    except json.JSONDecodeError as exc:
        raise SlackError(error) from exc


_LINK = re.compile(r"https?://[^\s<>|]+")


def links_in(text: str) -> list[str]:
    """The URLs in a message's text (bare, or Slack's ``<url>`` / ``<url|label>``), each once, in order."""
    return list(dict.fromkeys(_LINK.findall(text)))


def parse_content(args: Json, *, required: bool = True) -> Content:
    """Text and blocks of a message as Slack checks them: blocks valid, text not too long, not empty."""
    blocks = parse_json_arg(args.get("blocks"), error="invalid_blocks_format")
    if blocks is not None and not isinstance(blocks, list):
        raise SlackError("invalid_blocks_format")
    text = args.get("text") or ""
    if not isinstance(text, str):
        raise invalid_arguments(["must be a string [json-pointer:/text]"])
    if len(text) > blockkit.MAX_MESSAGE_TEXT:
        raise SlackError("msg_too_long")
    if blocks:
        errors = blockkit.validate_blocks(blocks, limit=blockkit.MAX_BLOCKS_PER_MESSAGE)
        if errors:
            raise invalid_blocks(errors)
    if required and not text and not blocks and not args.get("attachments"):
        raise SlackError("no_text")
    return Content(text=text, blocks=list(blocks or []))


class Workspace:
    """The emulated Slack workspace as the bot and the demo users see it."""

    def __init__(
        self,
        *,
        config: EmulatorConfig,
        state: WorkspaceState,
        ids: IdFactory,
        links: Links,
        clock: Callable[[], float],
    ) -> None:
        self.config = config
        self.state = state
        self.ids = ids
        self.links = links
        self._clock = clock
        self._triggers: dict[str, Trigger] = {}
        # Every trigger issued while this is set is already past its 3 seconds (``Emulator.expire_triggers``).
        self.triggers_expired = False

    # ---- lookups

    def channel(self, ref: Any) -> Channel:
        if not isinstance(ref, str) or not ref:
            raise SlackError("channel_not_found")
        channel = self.state.resolve_channel(ref)
        if channel is None and ref in self.state.users:
            channel = self.state.open_im(ref, self.ids.prefixed("D"))
        if channel is None:
            raise SlackError("channel_not_found")
        return channel

    def user(self, user_id: Any) -> DemoUser:
        user = self.state.users.get(user_id) if isinstance(user_id, str) else None
        if user is None:
            raise SlackError("user_not_found")
        return user

    def message(self, channel: Channel, ts: Any) -> Message:
        found = self.state.find_message(channel.id, ts) if isinstance(ts, str) else None
        if found is None:
            raise SlackError("message_not_found")
        return found

    # ---- messages

    def post_message(
        self,
        *,
        channel: Channel,
        content: Content,
        user: str,
        thread_ts: str | None,
        check_membership: bool = True,
        broadcast: bool = False,
    ) -> Message:
        bot_outside = user == self.config.bot_user_id and not channel.bot_is_member and channel.im_user is None
        if check_membership and bot_outside:
            # Slack does not tell an app that a private channel it is not in exists.
            raise SlackError("channel_not_found" if channel.is_private else "not_in_channel")
        if user != self.config.bot_user_id and user in self.state.users and not channel.visible_to(user):
            raise SlackError("channel_not_found")
        if thread_ts:
            parent = self.state.find_message(channel.id, thread_ts)
            if parent is None:
                raise SlackError("thread_not_found")
            thread_ts = parent.thread_ts or parent.ts  # a reply's ts points at its thread
        message = Message(
            channel=channel.id,
            ts=self.ids.ts(),
            text=content.text,
            blocks=blockkit.fill_ids(content.blocks, self.ids.block_id),
            user=user,
            bot_id=self.config.bot_id if user == self.config.bot_user_id else None,
            thread_ts=thread_ts,
            broadcast=bool(broadcast and thread_ts),
        )
        return self.state.add_message(message)

    def update_message(self, message: Message, *, args: Json) -> None:
        content = parse_content(args, required=False)
        # Slack keeps the previous blocks when chat.update omits them; an empty array removes them.
        blocks = message.blocks if args.get("blocks") is None else blockkit.fill_ids(content.blocks, self.ids.block_id)
        text = content.text if "text" in args else message.text
        self.state.update_message(message, text=text, blocks=blocks, edited_ts=self.ids.ts())

    def unfurl(self, message: Message, *, unfurls: Any) -> None:
        """``chat.unfurl``: each url of the message gets the app's card (blocks checked as Slack checks them)."""
        unfurls = parse_json_arg(unfurls, error="invalid_unfurls_format")
        if not isinstance(unfurls, dict) or not unfurls:
            raise SlackError("invalid_unfurls_format")
        cards: dict[str, list[Json]] = {}
        for url, card in unfurls.items():
            blocks = card.get("blocks") if isinstance(card, dict) else None
            if not isinstance(blocks, list) or not blocks:
                raise SlackError("invalid_unfurls_format")
            if errors := blockkit.validate_blocks(blocks, limit=blockkit.MAX_BLOCKS_PER_MESSAGE):
                raise invalid_blocks(errors)
            if url not in links_in(message.text):
                raise SlackError("cannot_unfurl_url")
            cards[url] = blockkit.fill_ids(blocks, self.ids.block_id)
        self.state.unfurl(message, cards)

    def post_ephemeral(self, *, channel: Channel, user: str, content: Content, thread_ts: str | None) -> Ephemeral:
        ephemeral = Ephemeral(
            channel=channel.id,
            ts=self.ids.ts(),
            user=user,
            text=content.text,
            blocks=blockkit.fill_ids(content.blocks, self.ids.block_id),
            thread_ts=thread_ts,
        )
        self.state.add_ephemeral(ephemeral)
        return ephemeral

    def replace_ephemeral(self, ephemeral: Ephemeral, *, content: Content) -> None:
        blocks = blockkit.fill_ids(content.blocks, self.ids.block_id)
        self.state.replace_ephemeral(ephemeral, text=content.text, blocks=blocks)

    def permalink(self, message: Message) -> str:
        link = f"{self.links.base}/archives/{message.channel}/{permalink_fragment(message.ts)}"
        if message.is_reply:
            link += f"?thread_ts={message.thread_ts}&cid={message.channel}"
        return link

    def message_json(self, message: Message) -> Json:
        body: Json = {"type": "message", "ts": message.ts, "user": message.user, "text": message.text}
        body["team"] = self.config.team_id
        if message.blocks:
            body["blocks"] = message.blocks
        if message.bot_id:
            body |= {"bot_id": message.bot_id, "app_id": self.config.app_id}
        if message.thread_ts:
            body["thread_ts"] = message.thread_ts
        if message.broadcast:
            body["subtype"] = "thread_broadcast"
        if message.reply_count:
            body |= {"reply_count": message.reply_count, "reply_users": message.reply_users}
            body["latest_reply"] = message.latest_reply
        if message.files:
            body["files"] = [self.file_json(self.state.files[f]) for f in message.files]
        if message.reactions:
            body["reactions"] = [{"name": n, "users": u, "count": len(u)} for n, u in message.reactions.items()]
        if message.edited_ts:
            body["edited"] = {"user": message.user, "ts": message.edited_ts}
        if message.unfurls:
            body["attachments"] = [
                {"app_unfurl_url": url, "from_url": url, "is_app_unfurl": True, "blocks": blocks}
                for url, blocks in message.unfurls.items()
            ]
        return body

    # ---- files

    def start_upload(self, *, filename: Any, length: Any) -> StoredFile:
        if not isinstance(filename, str) or not filename:
            raise invalid_arguments(["missing required field: filename"])
        try:
            size = int(length)
        except (TypeError, ValueError) as exc:
            raise invalid_arguments(["missing required field: length"]) from exc
        stored = StoredFile(
            id=self.ids.prefixed("F"),
            name=filename,
            length=size,
            user=self.config.bot_user_id,
            created=int(self._clock()),
        )
        self.state.add_file(stored)
        return stored

    def complete_upload(self, *, args: Json) -> list[StoredFile]:
        entries = parse_json_arg(args.get("files"), error="invalid_arguments")
        if not isinstance(entries, list) or not entries:
            raise invalid_arguments(["missing required field: files"])
        stored = [self._uploaded(entry) for entry in entries]
        channel_ref = args.get("channel_id") or (args.get("channels") or "").split(",")[0]
        if channel_ref:
            self._share(stored, channel=self.channel(channel_ref), args=args)
        return stored

    def _uploaded(self, entry: Any) -> StoredFile:
        file_id = entry.get("id") if isinstance(entry, dict) else None
        stored = self.state.files.get(file_id) if isinstance(file_id, str) else None
        if stored is None or stored.content is None:
            raise SlackError("file_not_found")
        stored.title = entry.get("title") or stored.name
        return stored

    def _share(self, stored: list[StoredFile], *, channel: Channel, args: Json) -> None:
        comment = args.get("initial_comment") or ""
        message = self.post_message(
            channel=channel,
            content=Content(text=comment, blocks=[]),
            user=self.config.bot_user_id,
            thread_ts=args.get("thread_ts") or None,
        )
        message.files = [f.id for f in stored]
        for f in stored:
            f.channels.append(channel.id)

    def share_user_file(
        self, *, user: str, channel: Channel, name: str, content: bytes, thread_ts: str | None, text: str = ""
    ) -> Message:
        """A person shares a file in a channel or thread (as Slack's uploader does): the file and its message."""
        stored = StoredFile(
            id=self.ids.prefixed("F"), name=name, length=len(content), user=user, created=int(self._clock())
        )
        self.state.add_file(stored)
        self.state.store_file_content(stored, content)
        message = self.post_message(
            channel=channel,
            content=Content(text=text, blocks=[]),
            user=user,
            thread_ts=thread_ts,
            check_membership=False,
        )
        message.files = [stored.id]
        stored.channels.append(channel.id)
        return message

    def file_json(self, stored: StoredFile) -> Json:
        mimetype = mimetypes.guess_type(stored.name)[0] or "application/octet-stream"
        url = self.links.file_url(stored)
        return {
            "id": stored.id,
            "created": stored.created,
            "timestamp": stored.created,
            "name": stored.name,
            "title": stored.title or stored.name,
            "mimetype": mimetype,
            "filetype": stored.name.rsplit(".", 1)[-1] if "." in stored.name else "binary",
            "user": stored.user,
            "size": len(stored.content) if stored.content is not None else stored.length,
            "url_private": url,
            "url_private_download": url,
            "permalink": url,
            "channels": list(stored.channels),
        }

    # ---- triggers and views

    def issue_trigger(self, user: str) -> str:
        now = self._clock()
        # Expired triggers can never be used again; forget them so a long demo does not accumulate them.
        self._triggers = {k: t for k, t in self._triggers.items() if now - t.issued_at <= self.config.trigger_ttl}
        trigger_id = self.ids.trigger_id()
        self._triggers[trigger_id] = Trigger(user=user, issued_at=now)
        return trigger_id

    def _use_trigger(self, trigger_id: Any) -> Trigger:
        trigger = self._triggers.get(trigger_id) if isinstance(trigger_id, str) else None
        if trigger is None:
            raise SlackError("invalid_trigger_id")
        if self.triggers_expired or self._clock() - trigger.issued_at > self.config.trigger_ttl:
            raise SlackError("expired_trigger_id")
        return trigger

    def _view_payload(self, raw: Any, *, expected: str) -> Json:
        payload = parse_json_arg(raw, error="invalid_arguments")
        argument_errors, block_errors = blockkit.validate_view(payload)
        if argument_errors:
            raise invalid_arguments(argument_errors)
        if block_errors:
            raise invalid_blocks(block_errors)
        if payload["type"] != expected:
            raise invalid_arguments([f"must be {expected} [json-pointer:/view/type]"])
        return {**payload, "blocks": blockkit.fill_ids(payload.get("blocks", []), self.ids.block_id)}

    def _new_view(self, *, user: str, payload: Json, root: str | None, previous: str | None) -> View:
        view_id = self.ids.prefixed("V")
        return View(
            id=view_id,
            user=user,
            payload=payload,
            hash=self._hash(),
            root_view_id=root or view_id,
            previous_view_id=previous,
        )

    def _hash(self) -> str:
        return f"{int(self._clock())}.{self.ids.token(8)}"

    def open_view(self, *, trigger_id: Any, raw_view: Any) -> View:
        trigger = self._use_trigger(trigger_id)
        payload = self._view_payload(raw_view, expected="modal")
        view = self._new_view(user=trigger.user, payload=payload, root=None, previous=None)
        self.state.clear_modals(trigger.user)
        self.state.push_modal(view)
        del self._triggers[trigger_id]
        return view

    def push_view(self, *, trigger_id: Any, raw_view: Any) -> View:
        trigger = self._use_trigger(trigger_id)
        stack = self.state.modal_stack(trigger.user)
        if len(stack) >= MAX_MODAL_STACK:
            raise SlackError("push_limit_reached")
        payload = self._view_payload(raw_view, expected="modal")
        root = stack[0].id if stack else None
        previous = stack[-1].id if stack else None
        view = self._new_view(user=trigger.user, payload=payload, root=root, previous=previous)
        self.state.push_modal(view)
        del self._triggers[trigger_id]
        return view

    def update_view(self, *, args: Json) -> View:
        view = self._find_view(view_id=args.get("view_id"), external_id=args.get("external_id"))
        if args.get("hash") and args["hash"] != view.hash:
            raise SlackError("hash_conflict")
        payload = self._view_payload(args.get("view"), expected=view.type)
        self.state.replace_view(view, payload=payload, hash_=self._hash())
        return view

    def _find_view(self, *, view_id: Any, external_id: Any) -> View:
        for view in self.state.views.values():
            if (view_id and view.id == view_id) or (external_id and view.payload.get("external_id") == external_id):
                return view
        raise SlackError("not_found")

    def publish_home(self, *, user_id: Any, raw_view: Any, hash_: Any) -> View:
        user = self.user(user_id)
        payload = self._view_payload(raw_view, expected="home")
        current = self.state.home(user.id)
        if current is not None:
            if hash_ and hash_ != current.hash:
                raise SlackError("hash_conflict")
            self.state.replace_view(current, payload=payload, hash_=self._hash())
            return current
        view = self._new_view(user=user.id, payload=payload, root=None, previous=None)
        self.state.publish_home(view)
        return view

    def view_json(self, view: View) -> Json:
        payload = view.payload
        return {
            "id": view.id,
            "team_id": self.config.team_id,
            "type": view.type,
            "blocks": payload.get("blocks", []),
            "private_metadata": payload.get("private_metadata", ""),
            "callback_id": payload.get("callback_id", ""),
            "external_id": payload.get("external_id", ""),
            "state": {"values": view.values},
            "hash": view.hash,
            "title": payload.get("title"),
            "submit": payload.get("submit"),
            "close": payload.get("close"),
            "clear_on_close": bool(payload.get("clear_on_close", False)),
            "notify_on_close": bool(payload.get("notify_on_close", False)),
            "root_view_id": view.root_view_id,
            "previous_view_id": view.previous_view_id,
            "app_id": self.config.app_id,
            "app_installed_team_id": self.config.team_id,
            "bot_id": self.config.bot_id,
        }

    # ---- users and channels

    def user_json(self, user: DemoUser, *, include_locale: bool) -> Json:
        offset = ZoneInfo(user.tz).utcoffset(_utc(self._clock()))
        body: Json = {
            "id": user.id,
            "team_id": self.config.team_id,
            "name": user.name,
            "deleted": False,
            "real_name": user.real_name,
            "tz": user.tz,
            "tz_label": user.tz,
            "tz_offset": int(offset.total_seconds()) if offset is not None else 0,
            "profile": {
                "real_name": user.real_name,
                "display_name": user.name,
                "real_name_normalized": user.real_name,
                "display_name_normalized": user.name,
                "email": f"{user.name}@{self.config.team_domain}.example",
                "team": self.config.team_id,
            },
            "is_admin": user.is_admin,
            "is_owner": user.is_owner,
            "is_primary_owner": user.is_owner,
            "is_restricted": False,
            "is_ultra_restricted": False,
            "is_bot": False,
            "is_app_user": False,
        }
        if include_locale:
            body["locale"] = self.state.locales.get(user.id, user.locale)
        return body

    def bot_user_json(self) -> Json:
        return {
            "id": self.config.bot_user_id,
            "team_id": self.config.team_id,
            "name": self.config.bot_name,
            "real_name": self.config.bot_name,
            "deleted": False,
            "is_bot": True,
            "is_admin": False,
            "is_owner": False,
            "profile": {"real_name": self.config.bot_name, "bot_id": self.config.bot_id},
        }

    def members(self, channel: Channel) -> list[str]:
        """Who is in a channel: every demo user in a public channel, its members in a private one, the person
        and the bot in a DM; the bot when it was invited (or joined)."""
        if channel.im_user is not None:
            people = [channel.im_user]
        elif channel.private_members is not None:
            people = [u for u in channel.private_members if u in self.state.users]
        else:
            people = list(self.state.users)
        bot_in = channel.bot_is_member or channel.im_user is not None
        return people + ([self.config.bot_user_id] if bot_in else [])

    def channel_json(self, channel: Channel, *, include_locale: bool = False) -> Json:
        body: Json = {
            "id": channel.id,
            "name": channel.name,
            "name_normalized": channel.name,
            "created": channel.created,
            "is_channel": channel.im_user is None,
            "is_im": channel.im_user is not None,
            "is_private": channel.im_user is not None or channel.is_private,
            "is_archived": False,
            "is_member": channel.bot_is_member or channel.im_user is not None,
            "topic": {"value": channel.topic},
            "purpose": {"value": channel.topic},
        }
        if channel.im_user is not None:
            body["user"] = channel.im_user
        if include_locale:
            body["locale"] = self.state.team_locale
        return body

    # ---- workflow steps

    def start_function(self, *, callback_id: str, inputs: Json) -> FunctionExecution:
        execution = FunctionExecution(
            id=self.ids.prefixed("Fx"),
            callback_id=callback_id,
            inputs=dict(inputs),
            token="xwfp-" + self.ids.token(24),
            started=self._clock(),
        )
        self.state.start_function(execution)
        return execution

    def user_context(self, user: str) -> Json:
        """Slack's ``slack#/types/user_context`` for ``user``: their id and a secret only Slack can make (here a
        keyed hash of the id), which a workflow's builder can neither type nor change."""
        secret = hmac.new(self.config.signing_secret.encode(), user.encode(), hashlib.sha256).hexdigest()[:32]
        return {"id": user, "secret": secret}

    def function_token_team(self, token: str) -> str | None:
        """A running step's own token authenticates as the workspace; a finished step's no longer does."""
        running = any(f.token == token and f.status == "running" for f in self.state.functions.values())
        return self.config.team_id if running else None

    def complete_function(
        self, *, execution_id: Any, outputs: Any = None, error: Any = None, required: tuple[str, ...] = ()
    ) -> None:
        """``functions.completeSuccess`` (``outputs``, each of ``required`` present) or ``completeError``."""
        execution = self.state.functions.get(execution_id) if isinstance(execution_id, str) else None
        if execution is None:
            raise SlackError("function_execution_not_found")
        if execution.status != "running":
            raise SlackError("execution_not_in_running_state")
        if error is not None:
            if not isinstance(error, str) or not error:
                raise invalid_arguments(["error must be a non-empty string"])
            self.state.finish_function(execution, outputs=None, error=error)
            return
        if isinstance(outputs, str):
            try:
                outputs = json.loads(outputs)
            except json.JSONDecodeError as exc:
                raise SlackError("invalid_arguments") from exc
        if not isinstance(outputs, dict) or any(outputs.get(name) in (None, "") for name in required):
            raise SlackError("parameter_validation_failed")
        self.state.finish_function(execution, outputs=outputs, error=None)


def _utc(timestamp: float) -> datetime:
    return datetime.fromtimestamp(timestamp, tz=UTC)
