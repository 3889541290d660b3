"""A Study's analytics posted in the channel: the compact message, then the chart in its thread.

Owns: reading ``GET /studies/{id}/analytics`` (a malformed reply is an error, never "no analytics"), posting the
figures, and drawing the chart off the event loop only when Minds sent full distributions to draw.
Must not touch: Block Kit (``render/analytics.py``), SQL.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from minds_bot.flows.drawing import draw
from minds_bot.i18n import _, in_channel
from minds_bot.render import MAX_NAME_SHOWN, Message, escape
from minds_bot.render.analytics import analytics_chart, chart_panels, render_analytics
from minds_bot.render.charts import chart_not_drawn

if TYPE_CHECKING:
    from slack_sdk.web.async_client import AsyncWebClient

    from minds_bot.services import Services


async def post_analytics(
    services: Services, slack: AsyncWebClient, *, team_id: str, channel_id: str, study_id: str, study_name: str
) -> Message:
    """Post the Study's analytics in ``channel_id``; returns the private note for the person who asked."""
    minds = await services.minds.client_for(team_id)
    analytics = await minds.get_analytics(study_id)
    with in_channel():  # the analytics and the chart are posted for the channel
        panels = chart_panels(analytics)
        png = await draw(analytics_chart, panels=panels) if panels else None  # None: no font has these letters
        message = render_analytics(analytics, study_name=study_name, charted=png is not None)
        title = _("Analytics — {study}", study=study_name)[:250]
        alt = _("Answer distributions per question in {study}, as Minds reported them", study=study_name)[:1000]
        not_drawn = chart_not_drawn() if panels and png is None else None
    posted = await slack.chat_postMessage(channel=channel_id, **message.as_kwargs())
    if not_drawn:  # said instead of a chart of boxes
        await slack.chat_postMessage(channel=channel_id, thread_ts=posted["ts"], text=not_drawn)
    if png is not None:
        await slack.files_upload_v2(
            channel=channel_id,
            thread_ts=posted["ts"],
            file=png,
            filename="analytics.png",
            title=title,
            alt_txt=alt,
        )
    # The note is mrkdwn: the Study's name (Minds' text) is escaped, so it can never form a link or a mention.
    study = escape(study_name, limit=MAX_NAME_SHOWN)
    return Message(text=_("The analytics of {study} are posted in the channel.", study=study))
