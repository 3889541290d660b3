"""Idempotency keys derived from the Slack request that asked for the work. Pure.

Owns: ``derived_key`` — a UUID5 of the purpose, the workspace and Slack's per-invocation ``trigger_id`` (unique
per slash command, button click or modal submission), so a redelivered or retried request yields the same key
and Minds replays the first result instead of doing the work twice. Must not touch: I/O.
"""

from __future__ import annotations

import uuid

NAMESPACE = uuid.UUID("6f1d4b8e-3c1a-5e7b-9a53-0d2f7c9e4b10")


def derived_key(*, purpose: str, team_id: str, trigger_id: str | None) -> str:
    """Same purpose + team + trigger → same key. Without a trigger id (never for real Slack requests) the key
    is fresh, because then there is nothing that could be delivered twice."""
    if not trigger_id:
        return str(uuid.uuid4())
    return str(uuid.uuid5(NAMESPACE, f"{purpose}\n{team_id}\n{trigger_id}"))
