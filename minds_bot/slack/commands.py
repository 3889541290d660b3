"""The ``/minds`` slash command: acknowledge at once, then answer in the channel or privately.

Owns: the listener for ``/minds``. Parsing and rendering are pure functions elsewhere.
Must not touch: Minds wire shapes or SQL.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from minds_bot.slack.render.help import render_help
from minds_bot.slack.surface import MINDS_COMMAND

if TYPE_CHECKING:
    from minds_bot.app import Services
    from minds_bot.slack.surface import Surface


def register(surface: Surface, services: Services) -> None:
    @surface.command(MINDS_COMMAND)
    async def minds_command(ack: Any, command: dict[str, Any], respond: Any) -> None:
        await ack()
        text = (command.get("text") or "").strip()
        word = text.split(maxsplit=1)[0].lower() if text else "help"
        message = render_help()
        if word != "help":
            message = render_help(note=f"`/minds {word}` is not available in this version yet.")
        await respond(response_type="ephemeral", **message.as_kwargs())
