"""One way to write a button listener: the work a button does, and ``pressed``, which makes it Bolt's listener.

Owns: ``pressed`` (and ``pressed_with_click``, for work that reads the payload or re-enters a command through the
router: ``Click``), which return a Bolt action listener with Bolt's argument names and types: it acks first,
builds the clicker's ``Invocation`` (``reentry.invocation_from_body``, the ``Services`` from Bolt's context) and
awaits the work. The listener takes the work's name and docstring, so Bolt's logs (and ``errors.acked_first``)
name the button's work.
Must not touch: what any button does, Minds wire shapes or SQL.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from minds_bot.flows.invocation import Invocation
from minds_bot.slack.context import router_of, services_of
from minds_bot.slack.reentry import invocation_from_body

if TYPE_CHECKING:
    from slack_bolt.context.ack.async_ack import AsyncAck
    from slack_bolt.context.async_context import AsyncBoltContext
    from slack_bolt.context.respond.async_respond import AsyncRespond
    from slack_sdk.web.async_client import AsyncWebClient

    from minds_bot.slack.router import CommandRouter

Work = Callable[[Invocation, dict[str, Any]], Awaitable[None]]
"""What a button does once acknowledged: ``work(invocation, action)``."""
Listener = Callable[..., Awaitable[None]]


@dataclass(frozen=True)
class Click:
    """What a button's work may read beyond the ``Invocation`` and the action: the whole payload (the message
    clicked, its container) and the surface's ``/minds`` command router, to re-enter a command."""

    body: dict[str, Any]
    router: CommandRouter


WorkWithClick = Callable[[Invocation, dict[str, Any], Click], Awaitable[None]]
"""What a button does that reads the payload or re-enters a command: ``work(invocation, action, click)``."""


def pressed(work: Work) -> Listener:
    """Bolt's action listener for ``work``: ack, then ``work(invocation, action)``."""

    async def without_click(invocation: Invocation, action: dict[str, Any], click: Click) -> None:
        await work(invocation, action)

    return _named(pressed_with_click(without_click), after=work)


def pressed_with_click(work: WorkWithClick) -> Listener:
    """Bolt's action listener for ``work``: ack, then ``work(invocation, action, click)``."""

    async def listener(
        ack: AsyncAck,
        body: dict[str, Any],
        action: dict[str, Any],
        client: AsyncWebClient,
        respond: AsyncRespond,
        context: AsyncBoltContext,
    ) -> None:
        await ack()
        invocation = invocation_from_body(services_of(context), body, client=client, respond=respond)
        await work(invocation, action, Click(body=body, router=router_of(context)))

    return _named(listener, after=work)


def _named(listener: Listener, *, after: Callable[..., Any]) -> Listener:
    """``listener`` under ``after``'s names and docstring. Not ``functools.wraps``: its ``__wrapped__`` would make
    Bolt (and ``inspect``) read ``after``'s parameters and source instead of the listener's."""
    listener.__module__ = after.__module__
    listener.__name__, listener.__qualname__ = after.__name__, after.__qualname__
    listener.__doc__ = after.__doc__
    return listener
