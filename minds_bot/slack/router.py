"""The ``/minds`` command table: typed command → handler, filled while the surfaces register.

Owns: ``CommandRouter`` — ``add`` (each command module adds its ``COMMANDS`` in its ``register``) and
``dispatch`` (parse the text with the pure grammar, answer usage mistakes, ask ``Services.fair`` whether the
person may start one more command — if not, say how long to wait — and run the handler as that person's work),
and ``commands`` (every command type with a handler: a test holds ``/minds help`` to one line for each).
The slash command and every button or modal that re-enters a command go through the one router on the
``Surface`` (a listener finds it in Bolt's context: ``context.router_of``), so no command module imports another
to reach it.
Must not touch: Minds wire shapes or SQL.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from minds_bot.flows.invocation import Invocation
from minds_bot.i18n import _, _n
from minds_bot.minds import MindsError, RateLimiter
from minds_bot.render.help import render_help, render_usage
from minds_bot.services import Busy
from minds_bot.slack.grammar import Help, Usage, parse_command, quote

Handler = Callable[[Any, Invocation], Awaitable[None]]


async def handle_help(command: Help, invocation: Invocation) -> None:
    await invocation.reply(render_help())


def busy_text(busy: Busy) -> str:
    if busy.reason == "in_flight":
        return _n(
            "You have {in_flight} requests in progress; try again in about {count} seconds.",
            "You have {in_flight} requests in progress; try again in about {count} seconds.",
            busy.seconds,
            in_flight=busy.in_flight,
        )
    return _n(
        "You have used your share of this workspace's Minds requests for the minute; "
        "try again in about {count} seconds.",
        "You have used your share of this workspace's Minds requests for the minute; "
        "try again in about {count} seconds.",
        busy.seconds,
    )


async def _limiter(invocation: Invocation) -> RateLimiter | None:
    try:
        return (await invocation.minds()).limiter
    except MindsError:  # not connected: the handler tells the person how to connect
        return None


class CommandRouter:
    """Which handler runs each parsed ``/minds`` command."""

    def __init__(self) -> None:
        self._handlers: dict[type, Handler] = {Help: handle_help}

    @property
    def commands(self) -> tuple[type, ...]:
        """Every command type with a handler (the help groups each one: ``render/help.py``)."""
        return tuple(self._handlers)

    def add(self, handlers: Mapping[Any, Handler]) -> None:
        # Keys are command types; ``Mapping`` is invariant in its key, so a module's ``{Plan: handle_plan}`` (a
        # ``dict[type[Plan], …]``) would not match ``Mapping[type, …]``.
        clash = set(handlers) & set(self._handlers)
        if clash:
            raise ValueError(f"commands registered twice: {sorted(t.__name__ for t in clash)}")
        self._handlers.update(handlers)

    async def dispatch(self, text: str, invocation: Invocation) -> None:
        """Parse ``text`` and run its handler; also used when a button or modal re-enters a command."""
        parsed = parse_command(text)
        if isinstance(parsed, Usage):
            await invocation.reply(render_usage(parsed.message))
            return
        handler = self._handlers.get(type(parsed))
        if handler is None:
            word = quote(text.split()[0])
            note = _("`/minds {command}` is not available in this version yet.", command=word)
            await invocation.reply(render_help(note=note))
            return
        if isinstance(parsed, Help):
            await handler(parsed, invocation)
            return
        await self._fairly(handler, parsed, invocation)

    async def _fairly(self, handler: Handler, parsed: Any, invocation: Invocation) -> None:
        """Run the handler as one of the person's bounded in-flight commands, or tell them when to retry."""
        fair, who = invocation.services.fair, {"team_id": invocation.team_id, "user_id": invocation.user_id}
        busy = await fair.busy(**who, limiter=await _limiter(invocation))
        if busy is not None:
            await invocation.say_text(busy_text(busy))
            return
        async with fair.running(**who):
            await handler(parsed, invocation)
