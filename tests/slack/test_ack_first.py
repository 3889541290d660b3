"""Slack waits 3 s for an ack and shows "dispatch_failed" or a spinning menu otherwise: every listener that Slack
waits on acks before anything else it awaits, on every path, so a Minds call that fails fast or hangs can never
leave a person without an answer (issue #15's reliability point). Event listeners take no ``ack``: Bolt acks
those itself. Options requests must answer *with* the options, so they go through ``ack_options``, which answers
within a deadline whatever Minds does.
"""

from __future__ import annotations

import ast
import asyncio
import inspect
import textwrap
from typing import Any

import pytest

from minds_bot.app import build_manifest_surface
from minds_bot.flows.invocation import Invocation
from minds_bot.minds import ServerError
from minds_bot.settings import Settings
from minds_bot.slack import options as options_module
from minds_bot.slack.context import ROUTER_KEY, SERVICES_KEY
from minds_bot.slack.listeners import ack_with_view_within, pressed
from minds_bot.slack.options import TOO_SLOW, ack_options

# ``ack_with_view_within`` acknowledges a dialog within its deadline whatever its work does (tested below)
ACKERS = {"ack", "ack_options", "ack_with_view_within"}


def _listeners() -> list[Any]:
    app = build_manifest_surface(Settings.model_construct()).app
    return [listener.ack_function for listener in app._async_listeners]  # Bolt keeps no public list


def _first_await(function: Any) -> str | None:
    """The name of the first call the listener awaits, in source order (nested functions are not its body)."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(function))).body[0]
    for node in _in_order(tree):
        if isinstance(node, ast.Await) and isinstance(node.value, ast.Call):
            called = node.value.func
            return called.id if isinstance(called, ast.Name) else getattr(called, "attr", None)
    return None


def _in_order(node: ast.AST) -> Any:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            continue
        yield child
        yield from _in_order(child)


def test_every_listener_slack_waits_on_acks_before_anything_else() -> None:
    listeners = [f for f in _listeners() if "ack" in inspect.signature(f).parameters]
    assert len(listeners) > 40  # commands, buttons, dialogs and options of every surface
    late = [f"{f.__module__}.{f.__qualname__}" for f in listeners if _first_await(f) not in ACKERS]
    assert late == []


async def test_a_pressed_button_acks_before_its_work_and_keeps_its_name() -> None:
    """Buttons are written as their work under ``listeners.pressed``: the source check above reads the factory's
    listener, so this checks the factory itself acks first and passes the clicker's Invocation and the action."""
    done: list[Any] = []

    async def ack() -> None:
        done.append("ack")

    async def open_the_door(invocation: Invocation, action: dict[str, Any]) -> None:
        """Opens the door."""
        done.append((invocation.team_id, invocation.channel_id, invocation.user_id, action["value"]))

    listener = pressed(open_the_door)
    body = {"user": {"id": "U1", "team_id": "T1"}, "channel": {"id": "C1"}}
    context = {SERVICES_KEY: object(), ROUTER_KEY: object()}
    await listener(ack=ack, body=body, action={"value": "v"}, client=None, respond=None, context=context)
    assert done == ["ack", ("T1", "C1", "U1", "v")]
    assert (listener.__name__, listener.__doc__) == ("open_the_door", "Opens the door.")
    assert list(inspect.signature(listener).parameters) == ["ack", "body", "action", "client", "respond", "context"]
    assert _first_await(listener) == "ack"


class _View:
    def __init__(self, name: str) -> None:
        self.name = name

    def to_dict(self) -> dict[str, str]:
        return {"name": self.name}


async def test_a_dialog_whose_work_hangs_is_acknowledged_with_the_waiting_view_within_its_deadline() -> None:
    acked: list[dict[str, Any]] = []

    async def ack(**answer: Any) -> None:
        acked.append(answer)

    hanging: asyncio.Future[Any] = asyncio.get_running_loop().create_future()  # Minds never answers
    pending = await ack_with_view_within(ack, hanging, waiting=_View("proposing"), seconds=0.01)
    assert acked == [{"response_action": "update", "view": {"name": "proposing"}}]
    assert pending is hanging  # shown later with views.update, never by the acknowledgement

    acked.clear()
    ready: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
    ready.set_result(_View("proposal"))
    assert await ack_with_view_within(ack, ready, waiting=_View("proposing"), seconds=1.0) is None
    assert acked == [{"response_action": "update", "view": {"name": "proposal"}}]


class Acks:
    def __init__(self) -> None:
        self.options: list[dict[str, Any]] | None = None

    async def __call__(self, *, options: list[dict[str, Any]]) -> None:
        self.options = options


async def test_options_are_answered_in_time_when_minds_hangs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(options_module, "OPTIONS_DEADLINE_SECONDS", 0.05)
    ack = Acks()
    await ack_options(ack, asyncio.Event().wait())  # never finishes
    assert ack.options is not None and ack.options[0]["text"]["text"] == TOO_SLOW


async def test_options_say_what_minds_said_when_it_fails() -> None:
    async def failing() -> list[dict[str, Any]]:
        raise ServerError("Minds is down for maintenance", status_code=503)

    ack = Acks()
    await ack_options(ack, failing())
    assert ack.options is not None and "maintenance" in ack.options[0]["text"]["text"]
