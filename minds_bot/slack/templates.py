"""``/minds templates`` and the Use button.

Owns: the list, and Use — the plan dialog opens first (Slack's trigger expires after 3 s) with the template's
questions as the request and its language, then Minds makes the independent draft (``POST
/study-templates/{id}/use`` with the template's revision and a request id derived from this click, so a
redelivered click never makes a second draft). Submitting the dialog is the ordinary plan flow.
Must not touch: Minds wire shapes or SQL.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

from minds_bot.flows.invocation import Invocation, with_progress
from minds_bot.flows.keys import derived_key
from minds_bot.minds import MindsError
from minds_bot.render.errors import user_message
from minds_bot.render.plan import plan_request_modal
from minds_bot.render.templates import (
    USE_TEMPLATE_ACTION,
    render_template_gone,
    render_template_used,
    render_templates,
    template_request,
)
from minds_bot.slack.grammar import Templates
from minds_bot.slack.reentry import invocation_from_body
from minds_bot.slack.resolve import show_progress

if TYPE_CHECKING:
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
        await invocation.say_text(f"Minds did not make a draft from “{template.name}”: {user_message(exc)}")
        return
    await invocation.reply(render_template_used(template_name=template.name, draft_name=draft.name))


def register(surface: Surface, services: Services) -> None:
    surface.router.add(COMMANDS)

    @surface.action(re.compile(rf"^{USE_TEMPLATE_ACTION}:"))
    async def use(ack: Any, body: dict[str, Any], action: dict[str, Any], client: Any, respond: Any) -> None:
        await ack()
        invocation = invocation_from_body(services, body, client=client, respond=respond)
        await use_template(invocation, str(action.get("value") or ""))
