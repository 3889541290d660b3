"""``/minds models``: the team's model connections, verified ones first, only when the Minds server has them.

Owns: the command. Reading is ``flows/model_connections.py``; rendering ``render/model_connections.py``.
Must not touch: Minds wire shapes or SQL.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from minds_bot.flows.invocation import Invocation, with_progress
from minds_bot.flows.model_connections import read_connections
from minds_bot.render.model_connections import render_model_connections
from minds_bot.slack.grammar import Models
from minds_bot.slack.resolve import show_progress

if TYPE_CHECKING:
    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface


async def handle_models(command: Models, invocation: Invocation) -> None:
    minds = await invocation.minds()
    connections = await with_progress(read_connections(minds), show=lambda: show_progress(invocation))
    await invocation.reply(render_model_connections(connections))


COMMANDS = {Models: handle_models}


def register(surface: Surface, services: Services) -> None:
    surface.router.add(COMMANDS)
