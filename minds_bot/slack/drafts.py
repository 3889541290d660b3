"""Study drafts: ``/minds drafts``, Save as draft on an open plan, and Resume/Delete on the list.

Owns: reading which plan message or draft a click is about and handing it to ``flows/drafts.py``, which asks
the gate who may save, see, resume or delete it; answers are private. Which plan a Save click saves is read from
the stored plan message (by its channel and ts), never from the button; which channel and requester a draft has
is read from the draft in Minds, never from the button; Delete has Slack's confirm dialog and deletes only a
draft Minds still lists as active.
Must not touch: Minds wire shapes or SQL.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from minds_bot.flows.drafts import delete_draft, drafts_for, resume_draft, save_draft
from minds_bot.flows.invocation import Invocation, with_progress
from minds_bot.i18n import in_channel
from minds_bot.render.drafts import (
    DELETE_DRAFT_ACTION,
    RESUME_DRAFT_ACTION,
    SAVE_DRAFT_ACTION,
    has_saved_mark,
    render_drafts,
    saved_mark,
)
from minds_bot.slack.grammar import Drafts
from minds_bot.slack.listeners import Click, pressed, pressed_with_click
from minds_bot.slack.resolve import show_progress

if TYPE_CHECKING:
    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface


async def handle_drafts(command: Drafts, invocation: Invocation) -> None:
    minds = await invocation.minds()
    drafts = await with_progress(minds.list_study_drafts(), show=lambda: show_progress(invocation))
    seen = await drafts_for(
        invocation.services, invocation.client, team_id=invocation.team_id, user_id=invocation.user_id, drafts=drafts
    )
    listing = render_drafts(
        seen.shown,
        channels=seen.channels,
        in_other_channels=seen.in_other_channels,
        older_of_others=seen.older_of_others,
    )
    await invocation.reply(listing)


COMMANDS = {Drafts: handle_drafts}


async def save(invocation: Invocation, action: dict[str, Any], click: Click) -> None:
    services, client, body = invocation.services, invocation.client, click.body
    message_ts = str((body.get("container") or {}).get("message_ts") or (body.get("message") or {}).get("ts"))
    post = await services.store.get_plan_post(
        team_id=invocation.team_id, channel_id=invocation.channel_id, message_ts=message_ts
    )
    note = await save_draft(services, client, post=post, user_id=invocation.user_id)
    await invocation.reply(note.message)
    message = body.get("message") or {}
    blocks = message.get("blocks") or []
    if note.saved and post is not None and not has_saved_mark(blocks):
        with in_channel():  # a mark on the channel's plan message
            marked = [*blocks, saved_mark(user_id=invocation.user_id, revision=post.revision or 0)]
        await client.chat_update(
            channel=invocation.channel_id, ts=message_ts, text=message.get("text") or "", blocks=marked
        )


async def resume(invocation: Invocation, action: dict[str, Any]) -> None:
    note = await resume_draft(
        invocation.services,
        invocation.client,
        team_id=invocation.team_id,
        channel_id=invocation.channel_id,
        user_id=invocation.user_id,
        draft_id=str(action.get("value") or ""),
    )
    await invocation.reply(note)


async def delete(invocation: Invocation, action: dict[str, Any]) -> None:
    draft_id = str(action.get("value") or "").split(":")[0]
    note = await delete_draft(
        invocation.services,
        invocation.client,
        team_id=invocation.team_id,
        user_id=invocation.user_id,
        draft_id=draft_id,
    )
    await invocation.reply(note)


def register(surface: Surface, services: Services) -> None:
    surface.router.add(COMMANDS)
    surface.action(SAVE_DRAFT_ACTION)(pressed_with_click(save))
    surface.action(re.compile(rf"^{RESUME_DRAFT_ACTION}:"))(pressed(resume))
    surface.action(re.compile(rf"^{DELETE_DRAFT_ACTION}:"))(pressed(delete))
