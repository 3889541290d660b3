"""Exports of an Audience brief or a Mind's persona profile, attached in a channel thread like Study exports.

Owns: saying in the channel what was asked (its thread gets the file), starting the export and following the
original job until Minds reports a complete file (never starting a second export to check), uploading the
inline file as Minds named it, and saying plainly when Minds failed, forgot the job, or did not finish in time.
The wait happens after Slack's acknowledgement and is bounded (``DEFAULT_EXPORT_WAIT``); it is not resumed
after a restart (asking again serves Minds' cached file).
Must not touch: Block Kit (``render/profiles.py``), SQL.
"""

from __future__ import annotations

import base64
import binascii
from typing import TYPE_CHECKING

from minds_bot.i18n import _, in_channel
from minds_bot.minds import MalformedResponse, MindsError, ProfileExport
from minds_bot.render import Message
from minds_bot.render.errors import user_message
from minds_bot.render.profiles import (
    FILE_TITLE,
    render_profile_attached,
    render_profile_failed,
    render_profile_not_attached,
    render_profile_requested,
    render_profile_truncated,
)

if TYPE_CHECKING:
    from slack_sdk.web.async_client import AsyncWebClient

    from minds_bot.minds.models import ProfileExportKind, ProfileFormat
    from minds_bot.services import Services


def file_bytes(export: ProfileExport) -> bytes:
    """The inline file: Markdown text, or the base64 bytes of a binary format."""
    if export.content is not None:
        return export.content.encode()
    try:
        return base64.b64decode(export.content_base64 or "", validate=True)
    except binascii.Error:
        raise MalformedResponse("the export's contentBase64 is not base64") from None  # verbatim


async def export_profile(
    services: Services,
    slack: AsyncWebClient,
    *,
    team_id: str,
    channel_id: str,
    user_id: str,
    kind: ProfileExportKind,
    item_id: str,
    item_name: str,
    format: ProfileFormat,  # noqa: A002 - the wire name
) -> Message:
    """Returns the private note for the person who asked."""
    with in_channel():  # the request and its thread are the channel's
        asked = render_profile_requested(kind=kind, name=item_name, format=format, user_id=user_id)
    thread_ts = str((await slack.chat_postMessage(channel=channel_id, **asked.as_kwargs()))["ts"])
    minds = await services.minds.client_for(team_id)
    try:
        started = await minds.start_profile_export(kind, item_id, format=format)
        export = await minds.wait_profile_export(kind, item_id, started, format=format)
        data = file_bytes(export)
    except MindsError as exc:
        with in_channel():
            failed = render_profile_failed(reason=user_message(exc))
        await slack.chat_postMessage(channel=channel_id, thread_ts=thread_ts, **failed.as_kwargs())
        return render_profile_not_attached()
    with in_channel():
        title = _(FILE_TITLE[kind], name=item_name)[:250]
        note = render_profile_truncated()
    await slack.files_upload_v2(
        channel=channel_id,
        thread_ts=thread_ts,
        file=data,
        filename=export.filename or f"export.{format}",
        title=title,
    )
    if export.truncated:
        await slack.chat_postMessage(channel=channel_id, thread_ts=thread_ts, **note.as_kwargs())
    return render_profile_attached(kind=kind, name=item_name)
