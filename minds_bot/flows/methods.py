"""Minds' research-method catalogue (``GET /research-methods``) as the bot knows it, per workspace.

Owns: ``method_catalogue`` — the catalogue by method id, read from Minds and kept for ``CATALOGUE_TTL`` per
workspace on the services' clock (tests move it), so every plan message and every Approve decides from what
Minds says a method can do (CATALOGUE §2 E.42–43), never from a guess. A malformed catalogue is Minds' error,
never an empty catalogue.
Must not touch: Block Kit, SQL.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from minds_bot.minds import ResearchMethod

if TYPE_CHECKING:
    from minds_bot.services import Services

CATALOGUE_TTL = timedelta(minutes=10)


@dataclass(frozen=True)
class CachedCatalogue:
    read_at: datetime
    methods: dict[str, ResearchMethod]


async def method_catalogue(services: Services, team_id: str) -> dict[str, ResearchMethod]:
    """The workspace's method catalogue by id; read again from Minds once ``CATALOGUE_TTL`` has passed."""
    now = services.clock()
    cached = services.method_catalogues.get(team_id)
    if cached is not None and now - cached.read_at < CATALOGUE_TTL:
        return cached.methods
    minds = await services.minds.client_for(team_id)
    methods = {method.id: method for method in await minds.research_methods()}
    services.method_catalogues[team_id] = CachedCatalogue(read_at=now, methods=methods)
    return methods
