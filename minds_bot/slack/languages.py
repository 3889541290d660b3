"""A person's language follows their Slack locale: when Slack says their profile changed (``user_change``), the
language the bot remembered for them is forgotten, so the next message asks ``users.info`` again.

The language itself is chosen before every listener runs (``middleware.language_middleware``).
Must not touch: rendering, Minds, SQL.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from minds_bot.slack.context import services_of

if TYPE_CHECKING:
    from slack_bolt.context.async_context import AsyncBoltContext

    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface


async def user_changed(event: dict[str, Any], context: AsyncBoltContext) -> None:
    user = event.get("user")
    if isinstance(user, dict) and isinstance(user.get("id"), str):
        services_of(context).languages.forget_person(team_id=context.get("team_id") or "", user_id=user["id"])


def register(surface: Surface, services: Services) -> None:
    surface.event("user_change")(user_changed)
