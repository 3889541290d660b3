"""``/minds audience new <brief>``: an Audience built from a brief, followed in a thread, and its **Try again**
/ **Build another Audience** buttons; ``/minds audience new`` alone opens the New Audience dialog
(``slack/audience_new.py``).

Owns: the command and the buttons' listeners (their value names a saved request by its key; what they send runs
as the person's work, like a command: ``flows/spend.their_work``); the use case
(limits first, the keyed request, the job, the thread, the tracker's handler) lives in ``flows/audiences.py``.
Must not touch: Minds wire shapes or SQL.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from minds_bot.flows.audiences import audience_button, start_audience
from minds_bot.flows.invocation import Invocation
from minds_bot.flows.planning import Refused
from minds_bot.flows.spend import their_work
from minds_bot.render.common import decode_value
from minds_bot.render.jobs import AUDIENCE_AGAIN, AUDIENCE_TRY_AGAIN
from minds_bot.slack.audience_new import open_new_audience
from minds_bot.slack.grammar import AudienceNew
from minds_bot.slack.listeners import pressed

if TYPE_CHECKING:
    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface


async def handle_audience_new(command: AudienceNew, invocation: Invocation) -> None:
    """With a brief: build at once (Minds sizes and names it). Without: the dialog that designs the sample."""
    if command.brief is None:
        await open_new_audience(invocation)
        return
    await start_audience(invocation, brief=command.brief)


COMMANDS = {AudienceNew: handle_audience_new}


def register(surface: Surface, services: Services) -> None:
    surface.router.add(COMMANDS)
    surface.action(AUDIENCE_TRY_AGAIN)(pressed(try_again))
    surface.action(AUDIENCE_AGAIN)(pressed(build_another))


async def _again(invocation: Invocation, action: dict[str, Any], *, again: bool) -> None:
    """Try again (``again=False``: the saved brief, same key) or Build another Audience."""
    key = str(decode_value(action.get("value")).get("k") or "")
    async with their_work(invocation.services, team_id=invocation.team_id, user_id=invocation.user_id):
        outcome = await audience_button(invocation, key=key, again=again)
    if isinstance(outcome, Refused):
        await invocation.say_mrkdwn(outcome.reason)


async def try_again(invocation: Invocation, action: dict[str, Any]) -> None:
    """Try again: the saved brief, same key."""
    await _again(invocation, action, again=False)


async def build_another(invocation: Invocation, action: dict[str, Any]) -> None:
    """Build another Audience: the saved brief, a new key."""
    await _again(invocation, action, again=True)
