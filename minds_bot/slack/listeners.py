"""One way to write a button listener: the work a button does, and ``pressed``, which makes it Bolt's listener.

Owns: ``invocation_from_body`` (who clicked or submitted, where, the response URL and trigger id), and ``pressed``
(with ``pressed_with_click``, for work that reads the payload or re-enters a command through the router:
``Click``), which return a Bolt action listener with Bolt's argument names and types: it acks first, builds the
clicker's ``Invocation`` (with the ``Services`` from Bolt's context) and awaits the work. The listener takes the
work's name and docstring, so Bolt's logs (and ``errors.acked_first``) name the button's work.
Must not touch: what any button does, Minds wire shapes or SQL.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from minds_bot.flows.invocation import Invocation
from minds_bot.slack.context import router_of, services_of

if TYPE_CHECKING:
    from slack_bolt.context.ack.async_ack import AsyncAck
    from slack_bolt.context.async_context import AsyncBoltContext
    from slack_bolt.context.respond.async_respond import AsyncRespond
    from slack_sdk.web.async_client import AsyncWebClient

    from minds_bot.services import Services
    from minds_bot.slack.router import CommandRouter

# What a button does once acknowledged: ``work(invocation, action)``.
Work = Callable[[Invocation, dict[str, Any]], Awaitable[None]]
Listener = Callable[..., Awaitable[None]]


@dataclass(frozen=True)
class Click:
    """What a button's work may read beyond the ``Invocation`` and the action: the whole payload (the message
    clicked, its container) and the surface's ``/minds`` command router, to re-enter a command."""

    body: dict[str, Any]
    router: CommandRouter


# What a button does that reads the payload or re-enters a command: ``work(invocation, action, click)``.
WorkWithClick = Callable[[Invocation, dict[str, Any], Click], Awaitable[None]]


def invocation_from_body(services: Services, body: dict[str, Any], *, client: Any, respond: Any) -> Invocation:
    """The Invocation for an interaction payload (block_actions or view_submission)."""
    user = body.get("user") or {}
    urls = body.get("response_urls") or [{}]
    channel = (body.get("channel") or {}).get("id") or urls[0].get("channel_id") or ""
    team = (body.get("team") or {}).get("id") or user.get("team_id") or ""
    return Invocation(
        services=services,
        client=client,
        respond=respond,
        team_id=team,
        channel_id=channel,
        user_id=user.get("id", ""),
        trigger_id=body.get("trigger_id"),
    )


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


async def ack_with_view_within(
    ack: Any, work: asyncio.Future[Any], *, waiting: Any, seconds: float
) -> asyncio.Future[Any] | None:
    """Acknowledge a dialog submission within ``seconds`` (Slack waits 3 s): with the view ``work`` makes when it is
    ready by then, else with ``waiting`` and ``work`` is returned for the caller to show with ``views.update`` —
    never the other way round, so a late acknowledgement cannot overwrite what ``work`` shows. ``work`` failing
    closes the dialog (the acknowledgement) before the failure goes on to the error handler."""
    try:
        shown = await asyncio.wait_for(asyncio.shield(work), seconds)
    except TimeoutError:
        await ack(response_action="update", view=waiting.to_dict())
        return work
    except Exception:
        await ack()
        raise
    await ack(response_action="update", view=shown.to_dict())
    return None


def _named(listener: Listener, *, after: Callable[..., Any]) -> Listener:
    """``listener`` under ``after``'s names and docstring. Not ``functools.wraps``: its ``__wrapped__`` would make
    Bolt (and ``inspect``) read ``after``'s parameters and source instead of the listener's."""
    listener.__module__ = after.__module__
    listener.__name__, listener.__qualname__ = after.__name__, after.__qualname__
    listener.__doc__ = after.__doc__
    return listener
