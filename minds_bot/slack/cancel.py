"""The Cancel button on a run's progress message.

Owns: the ``run_cancel`` action — ack, then hand the run id and the clicking user to ``flows/cancel.py`` and
answer privately. The button's own confirm dialog is the confirmation; who may cancel and whether the run is
still live are decided by the flow from stored state and Minds, never from the button.
Must not touch: Minds wire shapes or SQL.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from minds_bot.flows.cancel import cancel_run
from minds_bot.flows.invocation import Invocation
from minds_bot.render.cancel import CANCEL_RUN_ACTION
from minds_bot.slack.listeners import pressed

if TYPE_CHECKING:
    from minds_bot.services import PacedWebClient, Services
    from minds_bot.slack.surface import Surface


async def cancel(invocation: Invocation, action: dict[str, Any]) -> None:
    note = await cancel_run(
        invocation.services,
        cast("PacedWebClient", invocation.client),  # Bolt's client, paced by the bot's middleware
        team_id=invocation.team_id,
        run_id=str(action.get("value") or ""),
        user_id=invocation.user_id,
    )
    await invocation.reply(note)


def register(surface: Surface, services: Services) -> None:
    surface.action(CANCEL_RUN_ACTION)(pressed(cancel))
