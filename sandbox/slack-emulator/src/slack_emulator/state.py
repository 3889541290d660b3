"""The emulated workspace held in memory: channels, messages and threads, ephemerals, files, views, warnings,
and workflow steps (custom function executions) with the outputs or error the app completed them with.

Owns the data and the "something changed" signal that tests and the browser page wait on. Must not know
HTTP, Block Kit rules or the bot; callers validate first, then mutate here.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from slack_emulator.config import DemoChannel, DemoUser

Json = dict[str, Any]
MAX_WARNINGS = 50


@dataclass
class Channel:
    id: str
    name: str
    topic: str = ""
    bot_is_member: bool = True
    im_user: str | None = None  # set for a direct-message channel with that user
    created: int = 0
    private_members: tuple[str, ...] | None = None  # set for a private channel: the people in it

    @property
    def is_private(self) -> bool:
        """A private channel (not a DM): only its members see it."""
        return self.private_members is not None

    def visible_to(self, user: str) -> bool:
        """Whether ``user`` (a person) sees this channel: public ones, their own DM, private ones they are in."""
        if self.im_user is not None:
            return self.im_user == user
        return self.private_members is None or user in self.private_members


@dataclass
class Message:
    channel: str
    ts: str
    text: str
    blocks: list[Json]
    user: str
    bot_id: str | None = None
    thread_ts: str | None = None
    reply_users: list[str] = field(default_factory=list)
    reply_count: int = 0
    latest_reply: str | None = None
    files: list[str] = field(default_factory=list)
    reactions: dict[str, list[str]] = field(default_factory=dict)
    edited_ts: str | None = None
    deleted: bool = False
    broadcast: bool = False  # a thread reply also shown in the channel (reply_broadcast)
    unfurls: dict[str, list[Json]] = field(default_factory=dict)  # url -> the app's card blocks (chat.unfurl)

    @property
    def is_reply(self) -> bool:
        return self.thread_ts is not None and self.thread_ts != self.ts


@dataclass
class Ephemeral:
    """A message only ``user`` sees; lives until the page reloads in Slack, here until replaced or deleted."""

    channel: str
    ts: str
    user: str
    text: str
    blocks: list[Json]
    thread_ts: str | None = None


@dataclass
class StoredFile:
    id: str
    name: str
    length: int
    user: str
    created: int
    title: str = ""
    content: bytes | None = None
    channels: list[str] = field(default_factory=list)


@dataclass
class View:
    id: str
    user: str
    payload: Json  # what the app sent, with Slack's ids filled in
    hash: str
    root_view_id: str
    previous_view_id: str | None = None
    values: dict[str, dict[str, Json]] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)

    @property
    def type(self) -> str:
        return str(self.payload.get("type", "modal"))


@dataclass(frozen=True)
class Banner:
    """Something the user of real Slack would see as an error banner (e.g. operation_timeout)."""

    error: str
    detail: str
    user: str | None
    at: float


@dataclass(frozen=True)
class StepSpec:
    """A workflow step the app's manifest declares: its callback id, title, inputs and required outputs.
    ``user_context``: the inputs of Slack's ``slack#/types/user_context`` type, which nobody types — Slack fills
    them with the person who ran the workflow."""

    callback_id: str
    title: str
    inputs: tuple[str, ...] = ()
    outputs: tuple[str, ...] = ()
    user_context: tuple[str, ...] = ()


@dataclass
class FunctionExecution:
    """One run of an app's workflow step: ``running`` until the app calls ``functions.completeSuccess``
    (``completed``, with ``outputs``) or ``functions.completeError`` (``failed``, with ``error``)."""

    id: str
    callback_id: str
    inputs: Json
    token: str  # the step's own token (``bot_access_token``), valid while it runs
    started: float
    status: str = "running"
    outputs: Json | None = None
    error: str | None = None


class WorkspaceState:
    """All mutable emulator data. Every mutation ends in ``_changed()`` so waiters wake up."""

    def __init__(
        self,
        *,
        users: tuple[DemoUser, ...],
        channels: tuple[DemoChannel, ...],
        clock: Callable[[], float],
        team_locale: str = "en-US",
    ) -> None:
        self._clock = clock
        self.team_locale = team_locale
        self.users: dict[str, DemoUser] = {u.id: u for u in users}
        self.locales: dict[str, str] = {u.id: u.locale for u in users}
        self.channels: dict[str, Channel] = {
            c.id: Channel(
                c.id, c.name, c.topic, c.bot_is_member, created=int(clock()), private_members=c.private_members
            )
            for c in channels
        }
        self._messages: dict[str, list[Message]] = {c: [] for c in self.channels}
        self._ephemerals: list[Ephemeral] = []
        self.files: dict[str, StoredFile] = {}
        self.views: dict[str, View] = {}
        self.modal_stacks: dict[str, list[str]] = {}
        self.home_views: dict[str, str] = {}
        self.warnings: list[Banner] = []
        self.functions: dict[str, FunctionExecution] = {}
        self.version = 0
        self._event = asyncio.Event()

    # ---- change signal

    def touch(self) -> None:
        """Count as a change (wakes every waiter)."""
        self._changed()

    def _changed(self) -> None:
        # Wake every waiter by completing the current event and starting a fresh one for later waiters.
        self.version += 1
        self._event.set()
        self._event = asyncio.Event()

    async def wait_until(self, predicate: Callable[[], Any], *, timeout: float) -> Any:  # noqa: ASYNC109
        """Return predicate()'s first truthy value, re-checking after each change; TimeoutError otherwise."""
        async with asyncio.timeout(timeout):
            while True:
                event = self._event
                if result := predicate():
                    return result
                await event.wait()

    async def wait_for_version(self, since: int, *, timeout: float) -> None:  # noqa: ASYNC109
        """Return once the state moved past ``since`` or after ``timeout`` (long-poll for the page)."""
        try:
            await self.wait_until(lambda: self.version > since, timeout=timeout)
        except TimeoutError:
            return

    # ---- channels

    def resolve_channel(self, ref: str) -> Channel | None:
        """A channel by id, by name (``#general``/``general``), or a user id's direct-message channel."""
        if ref in self.channels:
            return self.channels[ref]
        name = ref.removeprefix("#")
        for channel in self.channels.values():
            if channel.name == name and channel.im_user is None:
                return channel
        return None

    def open_im(self, user_id: str, new_id: str) -> Channel:
        for channel in self.channels.values():
            if channel.im_user == user_id:
                return channel
        channel = Channel(new_id, user_id, im_user=user_id, created=int(self._clock()))
        self.channels[new_id] = channel
        self._messages[new_id] = []
        self._changed()
        return channel

    def join(self, channel_id: str) -> bool:
        """Make the bot a member; False when it already was."""
        channel = self.channels[channel_id]
        if channel.bot_is_member:
            return False
        channel.bot_is_member = True
        self._changed()
        return True

    # ---- messages

    def messages(self, channel: str, *, include_replies: bool = False) -> list[Message]:
        """Top-level messages of a channel (or all, replies included), oldest first."""
        found = [m for m in self._messages.get(channel, []) if not m.deleted]
        return found if include_replies else [m for m in found if not m.is_reply]

    def replies(self, channel: str, thread_ts: str) -> list[Message]:
        return [m for m in self.messages(channel, include_replies=True) if m.is_reply and m.thread_ts == thread_ts]

    def find_message(self, channel: str, ts: str) -> Message | None:
        return next((m for m in self._messages.get(channel, []) if m.ts == ts and not m.deleted), None)

    def add_message(self, message: Message) -> Message:
        self._messages[message.channel].append(message)
        if message.is_reply:
            parent = self.find_message(message.channel, message.thread_ts or "")
            if parent is not None:
                parent.thread_ts = parent.ts
                parent.reply_count += 1
                parent.latest_reply = message.ts
                if message.user not in parent.reply_users:
                    parent.reply_users.append(message.user)
        self._changed()
        return message

    def update_message(self, message: Message, *, text: str, blocks: list[Json], edited_ts: str) -> None:
        message.text, message.blocks, message.edited_ts = text, blocks, edited_ts
        self._changed()

    def unfurl(self, message: Message, unfurls: dict[str, list[Json]]) -> None:
        message.unfurls.update(unfurls)
        self._changed()

    def delete_message(self, message: Message) -> None:
        message.deleted = True
        if message.is_reply:
            parent = self.find_message(message.channel, message.thread_ts or "")
            if parent is not None:
                parent.reply_count -= 1
        self._changed()

    def add_reaction(self, message: Message, *, name: str, user: str) -> bool:
        """False when ``user`` already reacted with ``name``."""
        users = message.reactions.setdefault(name, [])
        if user in users:
            return False
        users.append(user)
        self._changed()
        return True

    # ---- ephemerals

    def ephemerals(self, user: str, channel: str | None = None) -> list[Ephemeral]:
        return [e for e in self._ephemerals if e.user == user and (channel is None or e.channel == channel)]

    def find_ephemeral(self, *, user: str, channel: str, ts: str) -> Ephemeral | None:
        return next((e for e in self.ephemerals(user, channel) if e.ts == ts), None)

    def add_ephemeral(self, ephemeral: Ephemeral) -> None:
        self._ephemerals.append(ephemeral)
        self._changed()

    def replace_ephemeral(self, ephemeral: Ephemeral, *, text: str, blocks: list[Json]) -> None:
        ephemeral.text, ephemeral.blocks = text, blocks
        self._changed()

    def delete_ephemeral(self, ephemeral: Ephemeral) -> None:
        self._ephemerals.remove(ephemeral)
        self._changed()

    # ---- files

    def add_file(self, stored: StoredFile) -> None:
        self.files[stored.id] = stored
        self._changed()

    def store_file_content(self, stored: StoredFile, content: bytes) -> None:
        stored.content = content
        self._changed()

    # ---- views

    def modal_stack(self, user: str) -> list[View]:
        return [self.views[v] for v in self.modal_stacks.get(user, [])]

    def push_modal(self, view: View) -> None:
        self.views[view.id] = view
        self.modal_stacks.setdefault(view.user, []).append(view.id)
        self._changed()

    def replace_view(self, view: View, *, payload: Json, hash_: str) -> None:
        view.payload, view.hash, view.errors = payload, hash_, {}
        view.values = {}
        self._changed()

    def set_view_errors(self, view: View, errors: dict[str, str]) -> None:
        view.errors = errors
        self._changed()

    def set_view_values(self, view: View, values: dict[str, dict[str, Json]]) -> None:
        view.values = values
        self._changed()

    def pop_modal(self, user: str) -> None:
        stack = self.modal_stacks.get(user, [])
        if stack:
            stack.pop()
            self._changed()

    def clear_modals(self, user: str) -> None:
        self.modal_stacks[user] = []
        self._changed()

    def publish_home(self, view: View) -> None:
        self.views[view.id] = view
        self.home_views[view.user] = view.id
        self._changed()

    def home(self, user: str) -> View | None:
        view_id = self.home_views.get(user)
        return self.views.get(view_id) if view_id else None

    # ---- users and warnings

    def set_locale(self, user: str, locale: str) -> None:
        self.locales[user] = locale
        self._changed()

    def set_team_locale(self, locale: str) -> None:
        """The workspace's language (an admin's setting in Slack)."""
        self.team_locale = locale
        self._changed()

    # ---- workflow steps

    def start_function(self, execution: FunctionExecution) -> None:
        self.functions[execution.id] = execution
        self._changed()

    def finish_function(self, execution: FunctionExecution, *, outputs: Json | None, error: str | None) -> None:
        execution.status = "failed" if error is not None else "completed"
        execution.outputs, execution.error = outputs, error
        self._changed()

    def warn(self, *, error: str, detail: str, user: str | None) -> None:
        self.warnings = [*self.warnings, Banner(error, detail, user, self._clock())][-MAX_WARNINGS:]
        self._changed()
