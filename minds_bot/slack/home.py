"""The App Home tab: what the bot does and whether this workspace is connected to Minds.

Must not touch: Minds wire shapes or SQL.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from minds_bot.render.help import render_home

if TYPE_CHECKING:
    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface


def register(surface: Surface, services: Services) -> None:
    @surface.event("app_home_opened")
    async def home_opened(event: dict[str, Any], client: Any, context: Any) -> None:
        if event.get("tab") != "home":
            return
        connected = await services.minds.is_connected(context.get("team_id") or "")
        await client.views_publish(user_id=event["user"], view=render_home(connected=connected).to_dict())
