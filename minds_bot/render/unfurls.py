"""The compact cards that Minds links unfurl into: a Study (its Audiences and its latest run's state) or an
Audience (its Mind count). Names from Minds are escaped and bounded; nothing here links anywhere.
Must not touch: I/O.
"""

from __future__ import annotations

from typing import Any

from minds_bot.minds import AgentRun, AudienceDetail, StudyDetail
from minds_bot.render import MAX_NAME_SHOWN, MAX_WORD_SHOWN, escape
from minds_bot.render.common import context, listing, section

MAX_AUDIENCES_SHOWN = 5


def render_study_unfurl(study: StudyDetail, *, latest: AgentRun | None) -> list[dict[str, Any]]:
    audiences = [f"{a.name} ({a.mind_count} Minds)" if a.mind_count is not None else a.name for a in study.audiences]
    run = f"latest run: *{escape(latest.status, limit=MAX_WORD_SHOWN)}*" if latest else "no runs yet"
    facts = f"Audiences: {listing(audiences, most=MAX_AUDIENCES_SHOWN)}" if audiences else "No Audiences"
    blocks = [
        section(f":bar_chart: *{escape(study.name, limit=MAX_NAME_SHOWN)}* · Minds Study"),
        context(f"{facts} · {run}"),
    ]
    return [b.to_dict() for b in blocks]


def render_audience_unfurl(audience: AudienceDetail) -> list[dict[str, Any]]:
    blocks = [
        section(f":busts_in_silhouette: *{escape(audience.name, limit=MAX_NAME_SHOWN)}* · Minds Audience"),
        context(f"{audience.mind_count} Minds"),
    ]
    return [b.to_dict() for b in blocks]
