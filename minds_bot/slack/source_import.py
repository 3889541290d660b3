"""The message shortcut "Build an Audience from these files": files shared in a channel or thread become
sources for a new Audience (the ``/minds audience new`` flow, with the imported files).

Owns: the shortcut (which files on the message qualify; none → a private note), the brief modal and its
submission (the channel's spend policy first, then download, verified import and the build followed in a thread,
as the person's work, like a command). The use case is
``flows/source_import.py``; rendering ``render/source_import.py``.
Must not touch: Minds wire shapes or SQL.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from minds_bot.flows.invocation import Invocation
from minds_bot.flows.source_import import SharedFile, SourceRefused, build_from_files, shared_files
from minds_bot.flows.spend import their_work
from minds_bot.i18n import N_, _
from minds_bot.minds import MindsError
from minds_bot.render.common import decode_value, note
from minds_bot.render.errors import user_message
from minds_bot.render.source_import import (
    BRIEF_ACTION,
    BRIEF_BLOCK,
    FROM_FILES_SHORTCUT,
    FROM_FILES_VIEW,
    MAX_BRIEF,
    from_files_metadata,
    from_files_modal,
    render_no_source_files,
    render_source_refused,
)
from minds_bot.slack.context import services_of
from minds_bot.slack.fields import over_limit
from minds_bot.slack.listeners import invocation_from_body
from minds_bot.slack.reentry import ephemeral_to
from minds_bot.slack.surface import Shortcut

if TYPE_CHECKING:
    from slack_bolt.context.ack.async_ack import AsyncAck
    from slack_bolt.context.async_context import AsyncBoltContext
    from slack_bolt.context.respond.async_respond import AsyncRespond
    from slack_sdk.web.async_client import AsyncWebClient

    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface

# The shortcut's name and description go into the app manifest, which Slack shows in one language to everyone.
FROM_FILES = Shortcut(
    callback_id=FROM_FILES_SHORTCUT,
    name="Audience from files",  # verbatim
    description=(
        "Import the .txt, .md, .csv or .json files on this message into Minds and build an Audience"  # verbatim
    ),
    kind="message",
)
TOO_MANY = N_("Too many files to carry over to the dialog; share them in smaller groups.")


async def _submitted(services: Services, body: dict[str, Any], view: dict[str, Any], client: Any) -> None:
    meta = decode_value(view.get("private_metadata"))
    values = (view.get("state") or {}).get("values") or {}
    brief = (((values.get(BRIEF_BLOCK) or {}).get(BRIEF_ACTION) or {}).get("value") or "").strip()
    base = invocation_from_body(services, body, client=client, respond=None)
    channel_id = meta.get("c", "")
    respond = ephemeral_to(client, channel_id=channel_id, user_id=base.user_id)
    invocation = Invocation(
        services=services,
        client=client,
        respond=respond,
        team_id=base.team_id,
        channel_id=channel_id,
        user_id=base.user_id,
        trigger_id=body.get("trigger_id"),
    )
    files = [SharedFile(id=f[0], name=f[1], url=f[2]) for f in meta.get("f", []) if len(f) == 3]
    try:
        async with their_work(services, team_id=invocation.team_id, user_id=invocation.user_id):
            await build_from_files(invocation, brief=brief, files=files)
    except SourceRefused as exc:
        await invocation.reply(render_source_refused(str(exc)))
    except MindsError as exc:
        await invocation.reply(note(user_message(exc)))  # Minds' words, escaped


async def from_files(ack: AsyncAck, body: dict[str, Any], client: AsyncWebClient, respond: AsyncRespond) -> None:
    await ack()
    usable, skipped = shared_files(body.get("message") or {})
    if not usable:
        await respond(response_type="ephemeral", **render_no_source_files(skipped=skipped).as_kwargs())
        return
    channel_id = (body.get("channel") or {}).get("id", "")
    metadata = from_files_metadata(channel_id=channel_id, files=[(f.id, f.name, f.url) for f in usable])
    if metadata is None:
        await respond(response_type="ephemeral", text=_(TOO_MANY))
        return
    view = from_files_modal(metadata=metadata, names=[f.name for f in usable], skipped=skipped)
    await client.views_open(trigger_id=body.get("trigger_id"), view=view.to_dict())


async def submitted(
    ack: AsyncAck, body: dict[str, Any], view: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext
) -> None:
    if errors := over_limit(view, {BRIEF_BLOCK: (N_("An Audience brief"), MAX_BRIEF)}):
        await ack(response_action="errors", errors=errors)
        return
    await ack()
    await _submitted(services_of(context), body, view, client)


def register(surface: Surface, services: Services) -> None:
    surface.shortcut(FROM_FILES)(from_files)
    surface.view(FROM_FILES_VIEW)(submitted)
