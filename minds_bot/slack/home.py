"""The App Home tab: published when someone opens it, refreshed when what it shows changes (``flows/home.py``).

Owns: the ``app_home_opened`` listener and the Home's *Refresh* button. Its *Plan research* buttons belong to the
plan surface (``slack/plan.py``: the plan dialog, with a channel to post the plan in, since the Home has none) and
*Add a digest* to the digest surface.
Must not touch: Minds wire shapes or SQL.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from minds_bot.render.home import HOME_REFRESH_ACTION

if TYPE_CHECKING:
    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface


def register(surface: Surface, services: Services) -> None:
    home = services.home  # plugged in by minds_bot.composition before any listener is registered

    @surface.event("app_home_opened")
    async def home_opened(event: dict[str, Any], client: Any, context: Any) -> None:
        if event.get("tab") != "home" or not isinstance(event.get("user"), str):
            return
        await home.publish(client, team_id=context.get("team_id") or "", user_id=event["user"])

    @surface.action(HOME_REFRESH_ACTION)
    async def refresh(ack: Any, body: dict[str, Any], client: Any, context: Any) -> None:
        await ack()
        await home.publish(client, team_id=context.get("team_id") or "", user_id=body["user"]["id"])
