"""How a listener finds the bot's ``Services``: Bolt's request context carries them.

Owns: ``services_middleware`` (``app.py`` installs it first among the bot's middleware, so every listener's
``context`` holds ``services``) and ``services_of``, which module-level listeners call instead of closing over
``Services`` in ``register``. Must not touch: listener behaviour, or what the services are (``app.py`` composes them).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from slack_bolt.context.async_context import AsyncBoltContext

    from minds_bot.services import Services

SERVICES_KEY = "services"


def services_middleware(services: Services) -> Callable[..., Awaitable[Any]]:
    """Bolt middleware that puts ``services`` into each request's context."""

    async def with_services(context: AsyncBoltContext, next: Callable[[], Awaitable[Any]]) -> Any:  # noqa: A002
        context[SERVICES_KEY] = services
        return await next()

    return with_services


def services_of(context: AsyncBoltContext) -> Services:
    """The bot's services for this request (set by ``services_middleware``)."""
    services: Services = context[SERVICES_KEY]
    return services
