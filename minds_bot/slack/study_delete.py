"""``/minds study delete <study>`` and the Study card's Delete… button: a confirmation dialog naming the Study and
what goes with it, then the delete.

Owns: the command (the Study is looked up, a name only approximately matched is confirmed first), the card's
button (it re-enters the command with the Study's id) and the dialog's submission (acknowledged at once; the
outcome is said privately in the channel the dialog was opened from). Who may, and the delete itself, are
``flows/study_delete.py``'s.
Must not touch: Minds wire shapes or SQL.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from minds_bot.flows.invocation import with_progress
from minds_bot.flows.study_delete import confirmation, confirmed
from minds_bot.i18n import _
from minds_bot.minds import MindsError
from minds_bot.render.common import decode_value, plain_value, render_stale_button
from minds_bot.render.study_delete import STUDY_DELETE_ACTION, STUDY_DELETE_VIEW
from minds_bot.slack.context import services_of
from minds_bot.slack.errors import say_failure_privately
from minds_bot.slack.grammar import MAX_STUDY_REF, StudyDelete
from minds_bot.slack.listeners import Click, invocation_from_body, pressed_with_click
from minds_bot.slack.resolve import resolve_study, show_progress, study_detail

if TYPE_CHECKING:
    from slack_bolt.context.ack.async_ack import AsyncAck
    from slack_bolt.context.async_context import AsyncBoltContext
    from slack_sdk.web.async_client import AsyncWebClient

    from minds_bot.flows.invocation import Invocation
    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface


async def handle_delete(command: StudyDelete, invocation: Invocation) -> None:
    if command.study is None:
        await invocation.say_text(
            _("Say `/minds study delete <study>` to delete a Study (a dialog names what goes with it first).")
        )
        return
    found = await resolve_study(
        invocation, command.study, rerun=lambda sid: f"study delete {sid}", confirm_fuzzy=True  # verbatim
    )
    if found is None:
        return
    study = await with_progress(study_detail(invocation, found), show=lambda: show_progress(invocation))
    dialog = await confirmation(invocation, study)
    if isinstance(dialog, str):
        await invocation.say_mrkdwn(dialog)
        return
    await invocation.client.views_open(trigger_id=invocation.trigger_id, view=dialog.to_dict())


COMMANDS = {StudyDelete: handle_delete}


async def delete_button(invocation: Invocation, action: dict[str, Any], click: Click) -> None:
    study_id = plain_value(action.get("value"), limit=MAX_STUDY_REF)
    if not study_id:
        await invocation.reply(render_stale_button())
        return
    await click.router.dispatch(f"study delete {study_id}", invocation)  # verbatim


async def submitted(
    ack: AsyncAck, body: dict[str, Any], view: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext
) -> None:
    await ack()
    meta = decode_value(view.get("private_metadata"))
    channel_id = str(meta.get("c") or "")
    opened_from = invocation_from_body(services_of(context), body, client=client, respond=None)
    invocation = replace(opened_from, channel_id=channel_id)
    try:
        said = await confirmed(invocation, meta=meta)
    except MindsError as exc:  # a dialog has no response URL: say it privately in the channel
        await say_failure_privately(client, channel_id=channel_id, user_id=invocation.user_id, error=exc)
        return
    if isinstance(said, str):
        await client.chat_postEphemeral(channel=channel_id, user=invocation.user_id, text=said)
        return
    await client.chat_postEphemeral(channel=channel_id, user=invocation.user_id, **said.as_kwargs())


def register(surface: Surface, services: Services) -> None:
    surface.router.add(COMMANDS)
    surface.action(STUDY_DELETE_ACTION)(pressed_with_click(delete_button))
    surface.view(STUDY_DELETE_VIEW)(submitted)
