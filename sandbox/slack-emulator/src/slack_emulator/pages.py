"""The browser side of the emulator: the static page, its JSON state snapshot and the actions it posts.

Owns the page's HTTP contract (``/``, ``/static/*``, ``/_emulator/state``, ``/_emulator/ui/*``; "Run workflow
step" is ``/_emulator/ui/function``, run as the person at the keyboard, who fills the step's user_context inputs
as Slack would; each step's run shows its outputs or error in the snapshot). Every
user action goes through the same ``Emulator`` drive methods the tests use (so a typed ``@chloe`` becomes a
mention there). The snapshot names the channel the page opens in and the notice it shows on every screen.
Must not change Slack semantics.
"""

from __future__ import annotations

import base64
import binascii
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aiohttp import web

from slack_emulator.errors import EmulatorUsageError, SlackError
from slack_emulator.interactions import Delivery
from slack_emulator.state import Ephemeral, FunctionExecution, StepSpec, View

if TYPE_CHECKING:
    from slack_emulator.server import Emulator

Json = dict[str, Any]
STATIC_DIR = Path(__file__).parent / "static"
LONG_POLL_SECONDS = 20.0
MAX_WARNINGS_SHOWN = 10
MAX_STEP_RUNS_SHOWN = 20
MAX_UPLOAD_BYTES = 20 * 1024 * 1024


def add_routes(app: web.Application, emulator: Emulator) -> None:
    page = _Page(emulator)
    app.router.add_get("/", page.index)
    app.router.add_static("/static/", STATIC_DIR, show_index=False)
    app.router.add_get("/archives/{channel}/{fragment}", page.permalink)
    app.router.add_get("/_emulator/state", page.state)
    app.router.add_post("/_emulator/ui/{action}", page.ui_action)


class _Page:
    def __init__(self, emulator: Emulator) -> None:
        self.emu = emulator
        self._actions = {
            "command": self._command,
            "message": self._message,
            "action": self._action,
            "submit": self._submit,
            "close": self._close,
            "options": self._options,
            "locale": self._locale,
            "team_locale": self._team_locale,
            "upload": self._upload,
            "shortcut": self._shortcut,
            "home": self._home,
            "function": self._function,
        }

    async def index(self, request: web.Request) -> web.FileResponse:
        return web.FileResponse(STATIC_DIR / "index.html")

    async def permalink(self, request: web.Request) -> web.Response:
        channel, fragment = request.match_info["channel"], request.match_info["fragment"].removeprefix("p")
        ts = f"{fragment[:-6]}.{fragment[-6:]}"
        raise web.HTTPFound(f"/#channel={channel}&ts={ts}")

    async def state(self, request: web.Request) -> web.Response:
        try:
            since = int(request.query.get("since", "-1"))
        except ValueError:
            since = -1
        await self.emu.state.wait_for_version(since, timeout=LONG_POLL_SECONDS)
        user = request.query.get("user") or self.emu.config.users[0].id
        return web.json_response(snapshot(self.emu, user=user))

    async def ui_action(self, request: web.Request) -> web.Response:
        handler = self._actions.get(request.match_info["action"])
        if handler is None:
            raise web.HTTPNotFound()
        body = await request.json()
        if not isinstance(body, dict) or body.get("user") not in self.emu.state.users:
            return web.json_response({"ok": False, "error": "unknown user"}, status=400)
        try:
            result = await handler(body)
        except (EmulatorUsageError, SlackError) as exc:
            error = exc.error if isinstance(exc, SlackError) else str(exc)
            return web.json_response({"ok": False, "error": error}, status=400)
        return web.json_response({"ok": True, **result})

    async def _command(self, body: Json) -> Json:
        command, _, text = str(body.get("text", "")).strip().partition(" ")
        delivery = await self.emu.send_slash_command(
            user=body["user"], channel=body["channel"], text=text.strip(), command=command
        )
        return {"delivery": _delivery_json(delivery)}

    async def _message(self, body: Json) -> Json:
        message = await self.emu.post_message(
            user=body["user"],
            channel=str(body.get("channel", "")),
            text=str(body.get("text", "")),
            thread_ts=body.get("thread_ts") or None,
        )
        return {"ts": message.ts}

    async def _shortcut(self, body: Json) -> Json:
        delivery = await self.emu.message_shortcut(
            user=body["user"],
            callback_id=str(body.get("callback_id")),
            channel=str(body.get("channel")),
            ts=str(body.get("ts")),
        )
        return {"delivery": _delivery_json(delivery)}

    async def _home(self, body: Json) -> Json:
        return {"delivery": _delivery_json(await self.emu.open_home(user=body["user"]))}

    async def _function(self, body: Json) -> Json:
        """Run workflow step: a workflow this user started reaches the app's step with the typed inputs."""
        callback_id, inputs = body.get("callback_id"), body.get("inputs")
        if not any(step.callback_id == callback_id for step in self.emu.steps):
            raise EmulatorUsageError("the app declares no such workflow step")
        if not isinstance(inputs, dict) or not all(isinstance(v, str) for v in inputs.values()):
            raise EmulatorUsageError("inputs must be an object of strings")
        execution, delivery = await self.emu.run_function(
            callback_id=str(callback_id), inputs=inputs, user=body["user"]
        )
        return {"execution_id": execution.id, "delivery": _delivery_json(delivery)}

    async def _action(self, body: Json) -> Json:
        delivery = await self.emu.interactions.block_action(
            user=body["user"],
            action_id=str(body.get("action_id")),
            block_id=body.get("block_id"),
            channel=body.get("channel"),
            ts=body.get("ts"),
            view_id=body.get("view_id"),
            selection=body.get("selection"),
            view_inputs=body.get("inputs") if body.get("view_id") else None,
        )
        return {"delivery": _delivery_json(delivery)}

    async def _submit(self, body: Json) -> Json:
        delivery = await self.emu.submit_view(
            user=body["user"], inputs=body.get("inputs") or {}, view_id=body.get("view_id")
        )
        return {"delivery": _delivery_json(delivery)}

    async def _close(self, body: Json) -> Json:
        delivery = await self.emu.close_view(user=body["user"], view_id=body.get("view_id"))
        return {"delivery": _delivery_json(delivery) if delivery else None}

    async def _options(self, body: Json) -> Json:
        options = await self.emu.interactions.request_options(
            user=body["user"],
            action_id=str(body.get("action_id")),
            value=str(body.get("value", "")),
            block_id=body.get("block_id"),
            view_id=body.get("view_id"),
            channel=body.get("channel"),
            ts=body.get("ts"),
        )
        return {"options": options}

    async def _upload(self, body: Json) -> Json:
        """📎 on the page: the person shares a file (its bytes base64-encoded) in the channel, with their text."""
        name, encoded = body.get("name"), body.get("content_base64")
        if not isinstance(name, str) or not name.strip() or not isinstance(encoded, str):
            raise EmulatorUsageError("an upload needs a file name and its content")
        try:
            content = base64.b64decode(encoded, validate=True)
        except binascii.Error as exc:
            raise EmulatorUsageError("the file's content is not base64") from exc
        if len(content) > MAX_UPLOAD_BYTES:
            raise EmulatorUsageError(f"the page uploads files up to {MAX_UPLOAD_BYTES // (1024 * 1024)} MB")
        message = self.emu.share_file(
            user=body["user"],
            channel=str(body.get("channel", "")),
            name=name.strip(),
            content=content,
            thread_ts=body.get("thread_ts") or None,
            text=str(body.get("text", "")),
        )
        return {"ts": message.ts, "file": message.files[0]}

    async def _team_locale(self, body: Json) -> Json:
        """The workspace's language, which only an admin may change (Slack tells the app nothing)."""
        locale = _checked_locale(body)
        if not self.emu.state.users[body["user"]].is_admin:
            raise EmulatorUsageError("only a workspace admin can change the workspace language")
        self.emu.state.set_team_locale(locale)
        return {}

    async def _locale(self, body: Json) -> Json:
        self.emu.state.set_locale(body["user"], _checked_locale(body))
        return {"delivery": _delivery_json(await self.emu.interactions.user_changed(body["user"]))}


def _checked_locale(body: Json) -> str:
    locale = body.get("locale")
    if not isinstance(locale, str) or not locale:
        raise EmulatorUsageError("locale must be a non-empty string")
    return locale


def _delivery_json(delivery: Delivery) -> Json:
    return {"kind": delivery.kind, "status": delivery.status, "error": delivery.error}


def snapshot(emulator: Emulator, *, user: str) -> Json:
    """Everything the page shows to ``user``: their channels, messages, their ephemerals, modals, home."""
    state, ws, config = emulator.state, emulator.workspace, emulator.config
    channels = [c for c in state.channels.values() if c.visible_to(user)]  # private ones only to their members
    return {
        "version": state.version,
        "team": {"id": config.team_id, "name": config.team_name, "locale": state.team_locale},
        "bot": {"id": config.bot_user_id, "name": config.bot_name},
        "me": user,
        "users": [_user_json(emulator, u.id) for u in state.users.values()],
        "channels": [ws.channel_json(c) | {"bot_is_member": c.bot_is_member} for c in channels],
        "messages": {c.id: [ws.message_json(m) for m in state.messages(c.id, include_replies=True)] for c in channels},
        "ephemerals": [_ephemeral_json(e) for e in state.ephemerals(user)],
        "modals": [_view_json(emulator, v) for v in state.modal_stack(user)],
        "home": _view_json(emulator, home) if (home := state.home(user)) else None,
        "warnings": [
            {"error": w.error, "detail": w.detail, "at": w.at} for w in state.warnings if w.user in (None, user)
        ][-MAX_WARNINGS_SHOWN:],
        "rate_limits": emulator.limiter.snapshot(),
        "shortcuts": [{"callback_id": c, "name": n} for c, n in emulator.shortcuts],
        "steps": [_step_json(s) for s in emulator.steps],
        "step_runs": [_step_run_json(f) for f in reversed(state.functions.values())][:MAX_STEP_RUNS_SHOWN],
        "start_channel": _start_channel(emulator),
        "notice": config.notice,
    }


def _start_channel(emulator: Emulator) -> str | None:
    """The id of the channel the page opens in (``config.start_channel`` by name, else the first channel)."""
    channels = [c for c in emulator.state.channels.values() if c.im_user is None and not c.is_private]
    wanted = emulator.config.start_channel
    chosen = next((c for c in channels if c.name == wanted), channels[0] if channels else None)
    return chosen.id if chosen else None


def _user_json(emulator: Emulator, user_id: str) -> Json:
    user = emulator.state.users[user_id]
    return {
        "id": user.id,
        "name": user.name,
        "real_name": user.real_name,
        "locale": emulator.state.locales.get(user.id, user.locale),
        "tz": user.tz,
        "is_admin": user.is_admin,
    }


def _step_json(step: StepSpec) -> Json:
    """A step as the page offers it: the inputs a person types, and those Slack fills with whoever runs it."""
    typed = [name for name in step.inputs if name not in step.user_context]
    return {"callback_id": step.callback_id, "title": step.title, "inputs": typed, "filled": list(step.user_context)}


def _step_run_json(execution: FunctionExecution) -> Json:
    return {
        "id": execution.id,
        "callback_id": execution.callback_id,
        "inputs": execution.inputs,
        "status": execution.status,
        "outputs": execution.outputs,
        "error": execution.error,
    }


def _ephemeral_json(ephemeral: Ephemeral) -> Json:
    return {
        "channel": ephemeral.channel,
        "ts": ephemeral.ts,
        "text": ephemeral.text,
        "blocks": ephemeral.blocks,
        "thread_ts": ephemeral.thread_ts,
    }


def _view_json(emulator: Emulator, view: View) -> Json:
    return emulator.workspace.view_json(view) | {"errors": view.errors}
