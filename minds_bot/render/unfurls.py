"""The compact cards that Minds links unfurl into: a Study (its Audiences and its latest run's state) or an
Audience (its Mind count). Names from Minds are escaped and bounded; nothing here links anywhere.
Must not touch: I/O.
"""

from __future__ import annotations

from typing import Any

from minds_bot.i18n import _, _n, separated
from minds_bot.minds import AgentRun, AudienceDetail, StudyDetail
from minds_bot.render import MAX_NAME_SHOWN, escape
from minds_bot.render.common import context, listing, section
from minds_bot.render.states import state_word

MAX_AUDIENCES_SHOWN = 5


def render_study_unfurl(study: StudyDetail, *, latest: AgentRun | None) -> list[dict[str, Any]]:
    audiences = [
        _n("{name} ({count} Mind)", "{name} ({count} Minds)", a.mind_count, name=a.name)
        if a.mind_count is not None
        else a.name
        for a in study.audiences
    ]
    run = _("latest run: *{state}*", state=state_word(latest.status)) if latest else _("no runs yet")
    if audiences:
        facts = _("Audiences: {audiences}", audiences=listing(audiences, most=MAX_AUDIENCES_SHOWN))
    else:
        facts = _("No Audiences")
    blocks = [
        section(_(":bar_chart: *{study}* · Minds Study", study=escape(study.name, limit=MAX_NAME_SHOWN))),
        context(separated([facts, run])),
    ]
    return [b.to_dict() for b in blocks]


def render_audience_unfurl(audience: AudienceDetail) -> list[dict[str, Any]]:
    name = escape(audience.name, limit=MAX_NAME_SHOWN)
    blocks = [
        section(_(":busts_in_silhouette: *{audience}* · Minds Audience", audience=name)),
        context(_n("{count} Mind", "{count} Minds", audience.mind_count)),
    ]
    return [b.to_dict() for b in blocks]
