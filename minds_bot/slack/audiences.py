"""``/minds audience new <brief>``: an Audience built from a brief, followed in a thread.

Owns: the command and its listener registration; the use case (limits first, the job, the thread, the
tracker's handler) lives in ``flows/audiences.py``.
Must not touch: Minds wire shapes or SQL.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from minds_bot.flows.audiences import register_handler, start_audience
from minds_bot.flows.invocation import Invocation
from minds_bot.slack.grammar import AudienceNew

if TYPE_CHECKING:
    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface


async def handle_audience_new(command: AudienceNew, invocation: Invocation) -> None:
    if command.brief is None:
        await invocation.say_text("Say `/minds audience new <brief>`, describing who the Audience should be.")
        return
    await start_audience(invocation, brief=command.brief)


COMMANDS = {AudienceNew: handle_audience_new}


def register(surface: Surface, services: Services) -> None:
    surface.router.add(COMMANDS)
    register_handler(services)
