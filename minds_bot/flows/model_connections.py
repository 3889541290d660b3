"""The team's model connections (``GET /model-connections``), only when the Minds server has them.

Owns: ``read_connections`` — every page (a cursor that does not advance is an error), or ``None`` when Minds
answers 404 (model connections are not enabled on this server), so "disabled" is never shown as "none".
Only declared metadata and capability flags are read; credentials and probe results never are.
Must not touch: Block Kit (``render/model_connections.py``) or SQL.
"""

from __future__ import annotations

from minds_bot.minds import MindsClient, ModelConnection, NotFound


async def read_connections(minds: MindsClient) -> list[ModelConnection] | None:
    """The connections, verified first; None when this server has no model connections."""
    try:
        connections = await minds.model_connections()
    except NotFound:
        return None
    return sorted(connections, key=lambda c: not c.verified)
