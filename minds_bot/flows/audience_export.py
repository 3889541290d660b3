"""An Audience's brief exported into Slack (the Audience card's Export button): the request in the channel,
progress in its thread, then the file attached there.

Owns: starting ``POST /audiences/{id}/export`` (Minds may answer with a cached, finished artifact), polling its
status for a bounded time (an unfinished export is said so — press Export again later, never ``force``),
downloading it to a temporary file, attaching it with ``files_upload_v2`` and deleting the temporary file.
A failed export is said plainly with Minds' reason.
Must not touch: Block Kit (``render/audience.py``) or SQL.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from slack_sdk.web.async_client import AsyncWebClient

from minds_bot.minds import MindsError
from minds_bot.render.audience import (
    render_audience_export_failed,
    render_audience_export_request,
    render_audience_export_unfinished,
    render_exporting,
)
from minds_bot.render.errors import user_message
from minds_bot.services import Services

ATTACHED = "The brief is attached below."


async def export_audience(
    services: Services,
    slack: AsyncWebClient,
    *,
    team_id: str,
    channel_id: str,
    user_id: str,
    audience_id: str,
    audience_name: str,
) -> None:
    parent = render_audience_export_request(user_id=user_id, audience_name=audience_name)
    thread_ts = (await slack.chat_postMessage(channel=channel_id, **parent.as_kwargs()))["ts"]
    progress = await slack.chat_postMessage(channel=channel_id, thread_ts=thread_ts, **render_exporting().as_kwargs())
    minds = await services.minds.client_for(team_id)
    try:
        status = await minds.start_audience_export(audience_id)
        if status.status != "completed":
            status = await minds.wait_audience_export(audience_id)
        if status.status != "completed":
            unfinished = render_audience_export_unfinished(audience_name=audience_name)
            await slack.chat_update(channel=channel_id, ts=progress["ts"], **unfinished.as_kwargs())
            return
        downloaded = await minds.download_audience_export(audience_id, status=status)
    except MindsError as exc:
        failed = render_audience_export_failed(user_message(exc))
        await slack.chat_update(channel=channel_id, ts=progress["ts"], **failed.as_kwargs())
        return
    path = Path(downloaded.path)
    try:
        data = await asyncio.to_thread(path.read_bytes)
        await slack.files_upload_v2(
            file=data, filename=downloaded.filename, title=downloaded.filename, channel=channel_id, thread_ts=thread_ts
        )
    finally:
        await asyncio.to_thread(path.unlink, missing_ok=True)
    await slack.chat_update(channel=channel_id, ts=progress["ts"], text=ATTACHED, blocks=[])
