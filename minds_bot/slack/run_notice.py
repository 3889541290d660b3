"""Hearing when a research run ends: the approval line's "Notify me when it ends" button and the App Home's
"DMs when a run ends" switch.

Owns: the ``run_notify_me`` action (ack, then ``flows/run_notice.py`` decides from stored state whether the run
is one the bot follows in the channel the click came from, and asks the gate whether the person is in that
channel, and answers privately) and the Home's
``minds_home_run_dms`` action (turn the person's DMs on or off, then republish their Home). The DMs themselves
are sent by the research run handler when a run ends.
Must not touch: Minds wire shapes or SQL.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from minds_bot.flows.invocation import Invocation
from minds_bot.flows.run_notice import press_notify_me, set_run_dms
from minds_bot.render.run_notice import HOME_RUN_DMS_ACTION, NOTIFY_ME_ACTION
from minds_bot.slack.context import services_of
from minds_bot.slack.listeners import pressed

if TYPE_CHECKING:
    from slack_bolt.context.ack.async_ack import AsyncAck
    from slack_bolt.context.async_context import AsyncBoltContext
    from slack_sdk.web.async_client import AsyncWebClient

    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface


async def notify_me(invocation: Invocation, action: dict[str, Any]) -> None:
    note = await press_notify_me(
        invocation.services,
        invocation.client,
        team_id=invocation.team_id,
        channel_id=invocation.channel_id,
        run_id=str(action.get("value") or ""),
        user_id=invocation.user_id,
    )
    await invocation.reply(note)


async def run_dms(
    ack: AsyncAck, body: dict[str, Any], action: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext
) -> None:
    await ack()
    services = services_of(context)
    team_id = context.get("team_id") or ""
    user_id = body["user"]["id"]
    await set_run_dms(services, team_id=team_id, user_id=user_id, on=action.get("value") == "on")
    if services.home is not None:
        await services.home.publish(client, team_id=team_id, user_id=user_id)


def register(surface: Surface, services: Services) -> None:
    surface.action(NOTIFY_ME_ACTION)(pressed(notify_me))
    surface.action(HOME_RUN_DMS_ACTION)(run_dms)
