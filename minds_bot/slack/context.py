"""How a listener finds the bot's ``Services`` and the ``/minds`` command router: Bolt's request context carries them.

Owns: ``services_middleware`` (``app.py`` installs it first among the bot's middleware, so every listener's
``context`` holds ``services``) and ``services_of``, which module-level listeners call instead of closing over
``Services`` in ``register``; ``router_middleware`` (``Surface`` attaches it to every listener it registers, so the
listener's ``context`` holds the surface's ``CommandRouter``) and ``router_of``, for the listeners that re-enter a
command. Must not touch: listener behaviour, or what the services are (``app.py`` composes them).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from slack_bolt.context.async_context import AsyncBoltContext

    from minds_bot.services import Services
    from minds_bot.slack.router import CommandRouter

SERVICES_KEY = "services"
ROUTER_KEY = "router"


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


def router_middleware(router: CommandRouter) -> Callable[..., Awaitable[Any]]:
    """Bolt listener middleware that puts the ``/minds`` command ``router`` into the request's context."""

    async def with_router(context: AsyncBoltContext, next: Callable[[], Awaitable[Any]]) -> Any:  # noqa: A002
        context[ROUTER_KEY] = router
        return await next()

    return with_router


def router_of(context: AsyncBoltContext) -> CommandRouter:
    """The ``/minds`` command router of the surface that registered this listener (``router_middleware``)."""
    router: CommandRouter = context[ROUTER_KEY]
    return router
