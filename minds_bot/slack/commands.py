"""The ``/minds`` slash command: acknowledge at once, parse, and hand the typed command to its surface.

Owns: the ack, the dispatch table (command type → handler) and answers for usage mistakes. Each surface
module (browse, study, ask, plan, …) exports ``COMMANDS = {CommandType: handler}``; the parser is pure
(``grammar.py``) and rendering is pure (``render/``). Errors go to the one error hook (``errors.py``).
Must not touch: Minds wire shapes or SQL.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from minds_bot.slack.grammar import Help, Usage, parse_command
from minds_bot.slack.invocation import Invocation
from minds_bot.slack.render import Message
from minds_bot.slack.render.help import render_help
from minds_bot.slack.surface import MINDS_COMMAND

if TYPE_CHECKING:
    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface

Handler = Callable[[Any, Invocation], Awaitable[None]]


async def handle_help(command: Help, invocation: Invocation) -> None:
    await invocation.reply(render_help())


def handlers() -> dict[type, Handler]:
    """Every command type with its handler, gathered from the surface modules."""
    table: dict[type, Handler] = {Help: handle_help}
    for module in _surface_modules():
        table.update(module.COMMANDS)
    return table


def _surface_modules() -> list[Any]:
    from minds_bot.slack import (
        approvals,
        ask,
        audiences,
        browse,
        connect,
        digest,
        duplicate,
        exports,
        plan,
        runs,
        share,
        study,
        summary,
    )

    return [browse, study, ask, summary, share, duplicate, audiences, connect, plan, approvals, runs, exports, digest]


async def dispatch(text: str, invocation: Invocation) -> None:
    """Parse ``text`` and run its handler; also used when a button or modal re-enters a command."""
    parsed = parse_command(text)
    if isinstance(parsed, Usage):
        await invocation.reply(usage_message(parsed))
        return
    handler = handlers().get(type(parsed))
    if handler is None:
        word = text.split()[0]
        await invocation.reply(render_help(note=f"`/minds {word}` is not available in this version yet."))
        return
    await handler(parsed, invocation)


def usage_message(usage: Usage) -> Message:
    return Message(text=usage.message, blocks=render_help(note=usage.message).blocks[:1])


def register(surface: Surface, services: Services) -> None:
    @surface.command(MINDS_COMMAND)
    async def minds_command(ack: Any, command: dict[str, Any], respond: Any, client: Any) -> None:
        await ack()
        invocation = Invocation(
            services=services,
            client=client,
            respond=respond,
            team_id=command.get("team_id", ""),
            channel_id=command.get("channel_id", ""),
            user_id=command.get("user_id", ""),
            trigger_id=command.get("trigger_id"),
        )
        await dispatch(command.get("text") or "", invocation)
