"""``/minds methods [query]``: the research methods Minds lists, with what each needs and whether it runs.

Owns: the command. Reading is ``flows/methods.py`` (the cached catalogue); rendering ``render/methods.py``.
A malformed catalogue is an error (the error hook says so), never "no methods".
Must not touch: Minds wire shapes or SQL.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from minds_bot.flows.invocation import Invocation, with_progress
from minds_bot.flows.methods import method_catalogue
from minds_bot.render.methods import render_methods
from minds_bot.slack.grammar import Methods
from minds_bot.slack.resolve import show_progress

if TYPE_CHECKING:
    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface


async def handle_methods(command: Methods, invocation: Invocation) -> None:
    catalogue = method_catalogue(invocation.services, invocation.team_id)
    methods = await with_progress(catalogue, show=lambda: show_progress(invocation))
    await invocation.reply(render_methods(list(methods.values()), query=command.query))


COMMANDS = {Methods: handle_methods}


def register(surface: Surface, services: Services) -> None:
    surface.router.add(COMMANDS)
