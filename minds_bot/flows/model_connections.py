"""The team's model connections (``GET /model-connections``), only when the Minds server has them, and the
connection a plan's approver picks for its run.

Owns: ``read_connections`` — every page (a cursor that does not advance is an error), or ``None`` when Minds
answers 404 (model connections are not enabled on this server), so "disabled" is never shown as "none";
``plan_connections`` — what the plan message offers, kept ``CONNECTIONS_TTL`` per workspace (a failed read is
never cached, and is said on the plan rather than shown as "none"); and ``pin_connection`` — the approver's pick
checked against Minds' list read again at approval: only a verified connection is pinned, as (id, revision),
and nothing is picked by default. Only declared metadata and capability flags are read; credentials and probe
results never are.
Must not touch: Block Kit (``render/model_connections.py``, ``render/plan.py``) or SQL.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from minds_bot.i18n import _
from minds_bot.minds import MindsClient, MindsError, ModelConnection, NotFound
from minds_bot.render import escape
from minds_bot.render.errors import user_message
from minds_bot.render.plan_models import PLATFORM_MODELS, PlanConnections

if TYPE_CHECKING:
    from minds_bot.services import Services

CONNECTIONS_TTL = timedelta(minutes=5)


@dataclass(frozen=True)
class NotPinned:
    """The pick cannot be used; ``reason`` is mrkdwn for the approver (nothing ran)."""

    reason: str


@dataclass(frozen=True)
class _Cached:
    read_at: datetime
    connections: list[ModelConnection]


async def read_connections(minds: MindsClient) -> list[ModelConnection] | None:
    """The connections, verified first; None when this server has no model connections."""
    try:
        connections = await minds.model_connections()
    except NotFound:
        return None
    return sorted(connections, key=lambda c: not c.verified)


async def plan_connections(services: Services, team_id: str) -> PlanConnections:
    """What the plan message offers besides Minds' own models."""
    now = services.clock()
    cached = services.connection_lists.get(team_id)
    if isinstance(cached, _Cached) and now - cached.read_at < CONNECTIONS_TTL:
        return PlanConnections(cached.connections)
    try:
        connections = await read_connections(await services.minds.client_for(team_id))
    except MindsError as exc:
        return PlanConnections([], unreadable=user_message(exc))
    services.connection_lists[team_id] = _Cached(read_at=now, connections=connections or [])
    return PlanConnections(connections or [])


def cached_connections(services: Services, team_id: str) -> list[ModelConnection]:
    """The workspace's connections as last read for a plan message (any age; for naming, never for deciding)."""
    cached = services.connection_lists.get(team_id)
    return cached.connections if isinstance(cached, _Cached) else []


async def pin_connection(services: Services, team_id: str, picked: str | None) -> tuple[str, int] | NotPinned | None:
    """The (id, revision) to pin for the run, read from Minds now; None for Minds' own models."""
    if picked is None or picked == PLATFORM_MODELS:
        return None
    try:
        connections = await read_connections(await services.minds.client_for(team_id)) or []
        services.connection_lists[team_id] = _Cached(read_at=services.clock(), connections=connections)
    except MindsError as exc:
        return NotPinned(
            _(
                "Could not check the model connection with Minds: {reason} Nothing ran; approve again, or pick "
                "Minds' own models.",
                reason=escape(user_message(exc)),
            )
        )
    found = next((c for c in connections if c.id == picked), None)
    if found is None or not found.verified or not isinstance(found.revision, int):
        return NotPinned(
            _(
                "That model connection is no longer listed as verified in Minds, so nothing ran. "
                "Pick another or Minds' own models, then approve again."
            )
        )
    return found.id, found.revision
