"""A Study draft or template opened, edited and deleted from ``/minds drafts`` and ``/minds templates``: the Open
and Delete… buttons and the dialogs' submissions.

Owns: opening a dialog at once (Slack's trigger expires in 3 s) and filling it once Minds answered; reading a
submission's fields; saying the outcome privately in the channel the dialog was opened from (a dialog has no
response URL). Who may, and every Minds call, are ``flows/draft_edit.py``'s.
Must not touch: Minds wire shapes or SQL.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from minds_bot.flows import draft_edit
from minds_bot.minds import MindsError
from minds_bot.render import Message, escape
from minds_bot.render.common import decode_value
from minds_bot.render.draft_dialogs import (
    DRAFT_EDIT_VIEW,
    GOAL_BLOCK,
    MODE_BLOCK,
    NAME_BLOCK,
    QUESTION_BLOCK,
    SHARED_BLOCK,
    STEP_BLOCK,
    TEMPLATE_DELETE_VIEW,
    TEMPLATE_EDIT_VIEW,
    VALUE,
    note_modal,
    reading_modal,
)
from minds_bot.render.drafts import DRAFT_OPEN_ACTION
from minds_bot.render.errors import user_message
from minds_bot.render.templates import TEMPLATE_DELETE_ACTION, TEMPLATE_OPEN_ACTION
from minds_bot.slack.context import services_of
from minds_bot.slack.errors import say_failure_privately
from minds_bot.slack.listeners import invocation_from_body

if TYPE_CHECKING:
    from slack_bolt.context.ack.async_ack import AsyncAck
    from slack_bolt.context.async_context import AsyncBoltContext
    from slack_sdk.web.async_client import AsyncWebClient

    from minds_bot.flows.invocation import Invocation
    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface


def _opener(kind: str, opens: Any) -> Any:
    """A button's listener that opens the reading dialog at once, then shows what ``opens`` returns for the id
    after the button's ``prefix:`` (a dialog, or a note: gone, refused, Minds' error)."""

    async def listener(
        ack: AsyncAck, body: dict[str, Any], action: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext
    ) -> None:
        await ack()
        opened = await client.views_open(trigger_id=body.get("trigger_id"), view=reading_modal(kind).to_dict())
        invocation = invocation_from_body(services_of(context), body, client=client, respond=None)
        thing_id = str(action.get("action_id") or "").partition(":")[2]
        try:
            shown = await opens(invocation, thing_id)
        except MindsError as exc:
            shown = escape(user_message(exc))
        if isinstance(shown, Message):
            shown = shown.text
        view = note_modal(kind, shown) if isinstance(shown, str) else shown
        await client.views_update(view_id=opened["view"]["id"], view=view.to_dict())

    return listener


def _value(values: dict[str, Any], block: str) -> Any:
    return (values.get(block) or {}).get(VALUE) or {}


def _text(values: dict[str, Any], block: str) -> str:
    return str(_value(values, block).get("value") or "").strip()


def _submitter(work: Any) -> Any:
    """A dialog's submission listener: acknowledged at once, then ``work(invocation, meta, values)``, whose
    outcome is said privately in the channel the dialog was opened from."""

    async def listener(
        ack: AsyncAck, body: dict[str, Any], view: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext
    ) -> None:
        await ack()
        meta = decode_value(view.get("private_metadata"))
        channel_id = str(meta.get("c") or "")
        submitted = invocation_from_body(services_of(context), body, client=client, respond=None)
        invocation = replace(submitted, channel_id=channel_id)
        values = (view.get("state") or {}).get("values") or {}
        try:
            said = await work(invocation, meta, values)
        except MindsError as exc:
            await say_failure_privately(client, channel_id=channel_id, user_id=invocation.user_id, error=exc)
            return
        kwargs = {"text": said} if isinstance(said, str) else said.as_kwargs()
        await client.chat_postEphemeral(channel=channel_id, user=invocation.user_id, **kwargs)

    return listener


async def _save_template(invocation: Invocation, meta: dict[str, Any], values: dict[str, Any]) -> Message | str:
    numbers = sorted(int(b.split("_")[1]) for b in values if re.fullmatch(r"question_\d+", b))
    texts = [_text(values, QUESTION_BLOCK.format(number=n)) for n in numbers]
    shared = None
    if SHARED_BLOCK in values:
        shared = bool(_value(values, SHARED_BLOCK).get("selected_options"))
    goal = (_value(values, GOAL_BLOCK).get("selected_option") or {}).get("value")
    name = _text(values, NAME_BLOCK)
    return await draft_edit.save_template(invocation, meta=meta, name=name, goal=goal, shared=shared, texts=texts)


async def _delete_template(invocation: Invocation, meta: dict[str, Any], values: dict[str, Any]) -> Message | str:
    return await draft_edit.delete_template(invocation, meta=meta)


async def _save_draft(invocation: Invocation, meta: dict[str, Any], values: dict[str, Any]) -> Message | str:
    mode = (_value(values, MODE_BLOCK).get("selected_option") or {}).get("value")
    name, step = _text(values, NAME_BLOCK), _text(values, STEP_BLOCK)
    return await draft_edit.save_draft_fields(invocation, meta=meta, name=name, mode=mode, step=step)


def register(surface: Surface, services: Services) -> None:
    surface.action(re.compile(rf"^{TEMPLATE_OPEN_ACTION}:"))(_opener("template", draft_edit.open_template))
    surface.action(re.compile(rf"^{TEMPLATE_DELETE_ACTION}:"))(_opener("template", draft_edit.open_template_delete))
    surface.action(re.compile(rf"^{DRAFT_OPEN_ACTION}:"))(_opener("draft", draft_edit.open_draft))
    surface.view(TEMPLATE_EDIT_VIEW)(_submitter(_save_template))
    surface.view(TEMPLATE_DELETE_VIEW)(_submitter(_delete_template))
    surface.view(DRAFT_EDIT_VIEW)(_submitter(_save_draft))
