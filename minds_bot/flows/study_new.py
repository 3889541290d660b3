"""Creating a Study (``POST /studies``) from the new-Study dialog.

Owns: the Audience options for the dialog (newest first; a typed name matched among the newest few hundred, so
Slack gets its options within 3 s) and the create call. ``POST /studies`` has no idempotency key, so it is sent
once and never retried; Slack's redelivery of the same submission is dropped by the delivery middleware.
Must not touch: Block Kit (``render/study_new.py``), SQL.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from minds_bot.flows.browse import rank_by_name
from minds_bot.minds import StudyCreated
from minds_bot.render.study_new import MAX_OPTIONS, render_audience_options

if TYPE_CHECKING:
    from minds_bot.services import Services

OPTIONS_WINDOW = 300


async def audience_options(services: Services, *, team_id: str, query: str) -> list[dict[str, Any]]:
    minds = await services.minds.client_for(team_id)
    text = query.strip()
    if not text:
        return render_audience_options([a async for a in minds.iter_audiences(max_items=MAX_OPTIONS)])
    scanned = [a async for a in minds.iter_audiences(max_items=OPTIONS_WINDOW)]
    return render_audience_options(rank_by_name(text, scanned))


async def create_study(services: Services, *, team_id: str, name: str, audience_ids: Sequence[str]) -> StudyCreated:
    minds = await services.minds.client_for(team_id)
    return await minds.create_study(name=name, audience_ids=list(dict.fromkeys(audience_ids)))
