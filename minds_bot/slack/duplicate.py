"""``/minds duplicate <study>``: a private copy of a Study.

Owns: the command. The Idempotency-Key is derived from the invocation (team + Slack trigger id), so a repeat of
the same delivery gets the same copy back (Minds answers 200 ``replayed``) rather than a second copy. A Study
with a live run is refused by Minds (409 ``STUDY_RUN_IN_PROGRESS``); the error hook says so.
Must not touch: Minds wire shapes or SQL.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from minds_bot.flows.invocation import Invocation, with_progress
from minds_bot.flows.keys import derived_key
from minds_bot.render.jobs import render_duplicate
from minds_bot.slack.grammar import Duplicate
from minds_bot.slack.resolve import resolve_study, show_progress

if TYPE_CHECKING:
    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface


async def handle_duplicate(command: Duplicate, invocation: Invocation) -> None:
    if command.study is None:
        await invocation.say_text("Say `/minds duplicate <study>` to make a private copy of a Study.")
        return
    study = await resolve_study(invocation, command.study, rerun=lambda sid: f"duplicate {sid}", confirm_fuzzy=True)
    if study is None:
        return
    minds = await invocation.minds()
    key = derived_key(purpose="duplicate", team_id=invocation.team_id, trigger_id=invocation.trigger_id)
    copy = await with_progress(
        minds.duplicate_study(study.id, idempotency_key=key), show=lambda: show_progress(invocation)
    )
    await invocation.reply(render_duplicate(copy, source_name=study.name))


COMMANDS = {Duplicate: handle_duplicate}


def register(surface: Surface, services: Services) -> None:
    surface.router.add(COMMANDS)
