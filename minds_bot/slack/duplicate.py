"""``/minds duplicate <study> [as <name>]``: a private copy of a Study (named, or Minds' ``<name> (copy)``), and
its **Try again** / **Make a second copy** buttons.

Owns: the command (the channel's "duplicate" line is asked before the Study is even looked up, so a refused copy
sends nothing to Minds) and the two buttons' listeners (their value names a saved request by its key; the flow
checks it belongs to the person pressing; the copy runs as the person's work, like a command). The use case —
keys, retries, the "second copy?" question — is in ``flows/duplicates.py``.
Must not touch: Minds wire shapes or SQL.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from minds_bot.flows.duplicates import button_pressed, duplicate_study
from minds_bot.flows.invocation import Invocation
from minds_bot.flows.planning import Refused
from minds_bot.flows.spend import SpendRequest, refused_early, their_work
from minds_bot.i18n import _
from minds_bot.render.common import decode_value
from minds_bot.render.jobs import DUPLICATE_AGAIN, DUPLICATE_TRY_AGAIN
from minds_bot.slack.grammar import Duplicate
from minds_bot.slack.listeners import pressed
from minds_bot.slack.resolve import resolve_study, show_progress

if TYPE_CHECKING:
    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface


async def handle_duplicate(command: Duplicate, invocation: Invocation) -> None:
    if command.study is None:
        await invocation.say_text(_("Say `/minds duplicate <study>` to make a private copy of a Study."))
        return
    typed = command.study.text
    early = SpendRequest(action="duplicate", subject=typed, command=f"duplicate {typed}", responses=0)  # verbatim
    if await refused_early(invocation, early):
        return  # the channel refuses copies (recorded), or the person waits: nothing was looked up
    study = await resolve_study(invocation, command.study, rerun=lambda sid: f"duplicate {sid}", confirm_fuzzy=True)
    if study is None:
        return
    await duplicate_study(
        invocation,
        study_id=study.id,
        study_name=study.name,
        copy_name=command.name,
        show=lambda: show_progress(invocation),
    )


COMMANDS = {Duplicate: handle_duplicate}


def register(surface: Surface, services: Services) -> None:
    surface.router.add(COMMANDS)

    surface.action(DUPLICATE_TRY_AGAIN)(pressed(try_again))
    surface.action(DUPLICATE_AGAIN)(pressed(copy_again))


async def _again(invocation: Invocation, action: dict[str, Any], *, again: bool) -> None:
    """Try again (``again=False``: the saved request, same key) or Make a second copy."""
    key = str(decode_value(action.get("value")).get("k") or "")
    async with their_work(invocation.services, team_id=invocation.team_id, user_id=invocation.user_id):
        outcome = await button_pressed(invocation, key=key, again=again, show=lambda: show_progress(invocation))
    if isinstance(outcome, Refused):
        await invocation.say_mrkdwn(outcome.reason)


async def try_again(invocation: Invocation, action: dict[str, Any]) -> None:
    """Try again: the saved request, same key."""
    await _again(invocation, action, again=False)


async def copy_again(invocation: Invocation, action: dict[str, Any]) -> None:
    """Make a second copy: the saved request, a new key."""
    await _again(invocation, action, again=True)
