"""``/minds templates``, Use, and Save as template on a plan message.

Owns: the list; Save as template (a dialog asks the name and goal; the submission's view id makes the save's
request id, so Slack redelivering it saves once); and Use — the plan dialog opens first (Slack's trigger
expires after 3 s) with the template's questions as the request and its language, then Minds makes the
independent draft (``POST /study-templates/{id}/use`` with the template's revision and a request id derived
from this click, so a redelivered click never makes a second draft). Submitting the dialog is the ordinary
plan flow.
Must not touch: Minds wire shapes or SQL.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

from minds_bot.flows.invocation import Invocation, with_progress
from minds_bot.flows.keys import derived_key
from minds_bot.flows.templates import save_template
from minds_bot.i18n import N_, _
from minds_bot.minds import MindsError
from minds_bot.render.common import decode_value
from minds_bot.render.errors import user_message
from minds_bot.render.plan_dialogs import plan_request_modal
from minds_bot.render.templates import (
    MAX_TEMPLATE_NAME,
    SAVE_TEMPLATE_ACTION,
    SAVE_TEMPLATE_CALLBACK,
    TEMPLATE_GOAL_BLOCK,
    TEMPLATE_NAME_BLOCK,
    USE_TEMPLATE_ACTION,
    render_save_template_modal,
    render_template_gone,
    render_template_used,
    render_templates,
    template_request,
)
from minds_bot.slack.context import services_of
from minds_bot.slack.errors import say_failure_privately
from minds_bot.slack.fields import over_limit
from minds_bot.slack.grammar import Templates
from minds_bot.slack.listeners import Click, pressed, pressed_with_click
from minds_bot.slack.resolve import show_progress

if TYPE_CHECKING:
    from slack_bolt.context.ack.async_ack import AsyncAck
    from slack_bolt.context.async_context import AsyncBoltContext
    from slack_sdk.web.async_client import AsyncWebClient

    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface


async def handle_templates(command: Templates, invocation: Invocation) -> None:
    minds = await invocation.minds()
    templates = await with_progress(minds.list_study_templates(), show=lambda: show_progress(invocation))
    await invocation.reply(render_templates(templates))


COMMANDS = {Templates: handle_templates}


async def use_template(invocation: Invocation, template_id: str) -> None:
    minds = await invocation.minds()
    template = next((t for t in await minds.list_study_templates() if t.id == template_id), None)
    if template is None:
        await invocation.reply(render_template_gone())
        return
    metadata = json.dumps({"c": invocation.channel_id, "s": None, "id": False})
    view = plan_request_modal(
        metadata=metadata,
        study_known=False,
        study_name=None,
        language=template.configuration.study_locale,
        request=template_request(template),
    )
    await invocation.client.views_open(trigger_id=invocation.trigger_id, view=view.to_dict())
    request_id = derived_key(purpose="template-use", team_id=invocation.team_id, trigger_id=invocation.trigger_id)
    try:
        draft = await minds.use_study_template(template.id, expected_revision=template.revision, request_id=request_id)
    except MindsError as exc:
        await invocation.say_text(
            _(
                "Minds did not make a draft from “{template}”: {reason}",
                template=template.name,
                reason=user_message(exc),
            )
        )
        return
    await invocation.reply(render_template_used(template_name=template.name, draft_name=draft.name))


async def use(invocation: Invocation, action: dict[str, Any]) -> None:
    await use_template(invocation, str(action.get("value") or ""))


async def save_opened(invocation: Invocation, action: dict[str, Any], click: Click) -> None:
    services, body = invocation.services, click.body
    message_ts = str((body.get("container") or {}).get("message_ts") or (body.get("message") or {}).get("ts"))
    post = await services.store.get_plan_post(
        team_id=invocation.team_id, channel_id=invocation.channel_id, message_ts=message_ts
    )
    if post is None or not post.draft_plan_id:
        await invocation.say_text(_("This plan is no longer tracked by the bot, so it cannot be saved as a template."))
        return
    view = render_save_template_modal(
        channel_id=invocation.channel_id, message_ts=message_ts, study_name=post.study_name
    )
    await invocation.client.views_open(trigger_id=invocation.trigger_id, view=view.to_dict())


async def save_submitted(
    ack: AsyncAck, body: dict[str, Any], view: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext
) -> None:
    services = services_of(context)
    name, goal = _field(view, TEMPLATE_NAME_BLOCK), _field(view, TEMPLATE_GOAL_BLOCK)
    if not name:
        await ack(response_action="errors", errors={TEMPLATE_NAME_BLOCK: _("Give the template a name.")})
        return
    if errors := over_limit(view, {TEMPLATE_NAME_BLOCK: (N_("A template name"), MAX_TEMPLATE_NAME)}):
        await ack(response_action="errors", errors=errors)
        return
    await ack()
    meta = decode_value(view.get("private_metadata"))
    team_id = (body.get("team") or {}).get("id") or (body.get("user") or {}).get("team_id") or ""
    user_id, channel_id = body["user"]["id"], str(meta.get("c") or "")
    post = await services.store.get_plan_post(team_id=team_id, channel_id=channel_id, message_ts=str(meta.get("t")))
    request_id = derived_key(purpose="template-save", team_id=team_id, trigger_id=str(view.get("id") or ""))
    try:
        note = await save_template(services, post=post, name=name, goal=goal or "explore", request_id=request_id)
    except MindsError as exc:  # a modal has no response URL: say it privately in the channel
        await say_failure_privately(client, channel_id=channel_id, user_id=user_id, error=exc)
        return
    await client.chat_postEphemeral(channel=channel_id, user=user_id, text=note.text)


def register(surface: Surface, services: Services) -> None:
    surface.router.add(COMMANDS)
    surface.action(re.compile(rf"^{USE_TEMPLATE_ACTION}:"))(pressed(use))
    surface.action(SAVE_TEMPLATE_ACTION)(pressed_with_click(save_opened))
    surface.view(SAVE_TEMPLATE_CALLBACK)(save_submitted)


def _field(view: dict[str, Any], block: str) -> str | None:
    element = (((view.get("state") or {}).get("values") or {}).get(block) or {}).get("value") or {}
    if element.get("type") == "static_select":
        return (element.get("selected_option") or {}).get("value")
    text = element.get("value")
    return text.strip() if isinstance(text, str) and text.strip() else None
