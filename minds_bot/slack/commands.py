"""The ``/minds`` slash command: acknowledge at once, then hand the text to the command router.

Owns: the ack and the ``Invocation`` built from the slash command payload. Parsing is pure (``grammar.py``),
the command table is ``router.py`` (each surface module adds its ``COMMANDS``), rendering is pure
(``minds_bot.render``). Errors go to the one error hook (``errors.py``).
Must not touch: Minds wire shapes or SQL.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from minds_bot.flows.invocation import Invocation
from minds_bot.slack.context import router_of, services_of
from minds_bot.slack.surface import MINDS_COMMAND

if TYPE_CHECKING:
    from slack_bolt.context.ack.async_ack import AsyncAck
    from slack_bolt.context.async_context import AsyncBoltContext
    from slack_bolt.context.respond.async_respond import AsyncRespond
    from slack_sdk.web.async_client import AsyncWebClient

    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface


async def minds_command(
    ack: AsyncAck, command: dict[str, Any], respond: AsyncRespond, client: AsyncWebClient, context: AsyncBoltContext
) -> None:
    await ack()
    invocation = Invocation(
        services=services_of(context),
        client=client,
        respond=respond,
        team_id=command.get("team_id", ""),
        channel_id=command.get("channel_id", ""),
        user_id=command.get("user_id", ""),
        trigger_id=command.get("trigger_id"),
    )
    await router_of(context).dispatch(command.get("text") or "", invocation)


def register(surface: Surface, services: Services) -> None:
    surface.command(MINDS_COMMAND)(minds_command)
