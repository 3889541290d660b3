"""The Cancel button on a run's progress message.

Owns: the ``run_cancel`` action — ack, then hand the run id and the clicking user to ``flows/cancel.py`` and
answer privately. The button's own confirm dialog is the confirmation; who may cancel and whether the run is
still live are decided by the flow from stored state and Minds, never from the button.
Must not touch: Minds wire shapes or SQL.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from minds_bot.flows.cancel import cancel_run
from minds_bot.render.cancel import CANCEL_RUN_ACTION
from minds_bot.slack.context import services_of
from minds_bot.slack.reentry import invocation_from_body

if TYPE_CHECKING:
    from slack_bolt.context.ack.async_ack import AsyncAck
    from slack_bolt.context.async_context import AsyncBoltContext
    from slack_bolt.context.respond.async_respond import AsyncRespond

    from minds_bot.services import PacedWebClient, Services
    from minds_bot.slack.surface import Surface


async def cancel(
    ack: AsyncAck,
    body: dict[str, Any],
    action: dict[str, Any],
    client: PacedWebClient,  # Bolt's client, paced by the bot's middleware
    respond: AsyncRespond,
    context: AsyncBoltContext,
) -> None:
    await ack()
    services = services_of(context)
    invocation = invocation_from_body(services, body, client=client, respond=respond)
    note = await cancel_run(
        services,
        client,
        team_id=invocation.team_id,
        run_id=str(action.get("value") or ""),
        user_id=invocation.user_id,
    )
    await invocation.reply(note)


def register(surface: Surface, services: Services) -> None:
    surface.action(CANCEL_RUN_ACTION)(cancel)
