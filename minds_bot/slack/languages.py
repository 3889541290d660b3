"""A person's language follows their Slack locale: when Slack says their profile changed (``user_change``), the
language the bot remembered for them is forgotten, so the next message asks ``users.info`` again.

The language itself is chosen before every listener runs (``middleware.language_middleware``).
Must not touch: rendering, Minds, SQL.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface


def register(surface: Surface, services: Services) -> None:
    @surface.event("user_change")
    async def user_changed(event: dict[str, Any], context: Any) -> None:
        user = event.get("user")
        if isinstance(user, dict) and isinstance(user.get("id"), str):
            services.languages.forget_person(team_id=context.get("team_id") or "", user_id=user["id"])
