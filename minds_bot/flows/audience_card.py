"""Reading everything an Audience card shows: the Audience (``GET /audiences/{id}``: members, coverage,
background research, calibration, sharing), its Formations and its build progress.

Owns: ``read_audience_card`` — the three reads run together; the Audience itself must be readable (its error
goes to the error hook), while a Formations or progress read that fails is kept as the reason, so the card
says "could not be read" instead of showing an empty or partial breakdown as complete.
Must not touch: Block Kit (``render/audience.py``) or SQL.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import TypeVar

from minds_bot.minds import AudienceDetail, AudienceProgress, Formation, MindsClient, MindsError
from minds_bot.render.errors import user_message

T = TypeVar("T")


@dataclass(frozen=True)
class AudienceCard:
    audience: AudienceDetail
    formations: list[Formation] | None
    progress: AudienceProgress | None
    formations_error: str | None = None
    progress_error: str | None = None


async def read_audience_card(minds: MindsClient, audience_id: str) -> AudienceCard:
    detail, formations, progress = await asyncio.gather(
        minds.get_audience(audience_id),
        _kept(minds.list_formations(audience_id)),
        _kept(minds.audience_progress(audience_id)),
    )
    return AudienceCard(
        audience=detail,
        formations=formations if isinstance(formations, list) else None,
        progress=progress if isinstance(progress, AudienceProgress) else None,
        formations_error=formations if isinstance(formations, str) else None,
        progress_error=progress if isinstance(progress, str) else None,
    )


async def _kept(work: Awaitable[T]) -> T | str:
    """The awaited value, or the reason it failed in the person's words."""
    try:
        return await work
    except MindsError as exc:
        return user_message(exc)
