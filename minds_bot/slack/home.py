"""The App Home tab: published when someone opens it, refreshed when what it shows changes (``flows/home.py``).

Owns: the ``app_home_opened`` listener and the Home's *Refresh* button. Its *Plan research* buttons belong to the
plan surface (``slack/plan.py``: the plan dialog, with a channel to post the plan in, since the Home has none) and
*Add a digest* to the digest surface.
Must not touch: Minds wire shapes or SQL.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from minds_bot.render.home import HOME_REFRESH_ACTION
from minds_bot.slack.context import services_of

if TYPE_CHECKING:
    from slack_bolt.context.ack.async_ack import AsyncAck
    from slack_bolt.context.async_context import AsyncBoltContext
    from slack_sdk.web.async_client import AsyncWebClient

    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface


async def home_opened(event: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext) -> None:
    if event.get("tab") != "home" or not isinstance(event.get("user"), str):
        return
    home = services_of(context).home
    await home.publish(client, team_id=context.get("team_id") or "", user_id=event["user"])


async def refresh(ack: AsyncAck, body: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext) -> None:
    await ack()
    home = services_of(context).home
    await home.publish(client, team_id=context.get("team_id") or "", user_id=body["user"]["id"])


def register(surface: Surface, services: Services) -> None:
    surface.event("app_home_opened")(home_opened)
    surface.action(HOME_REFRESH_ACTION)(refresh)
