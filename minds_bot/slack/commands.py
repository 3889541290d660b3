"""The ``/minds`` slash command: acknowledge at once, then hand the text to the command router.

Owns: the ack and the ``Invocation`` built from the slash command payload. Parsing is pure (``grammar.py``),
the command table is ``router.py`` (each surface module adds its ``COMMANDS``), rendering is pure
(``minds_bot.render``). Errors go to the one error hook (``errors.py``).
Must not touch: Minds wire shapes or SQL.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from minds_bot.flows.invocation import Invocation
from minds_bot.slack.surface import MINDS_COMMAND

if TYPE_CHECKING:
    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface


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
        await surface.router.dispatch(command.get("text") or "", invocation)
