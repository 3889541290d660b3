"""``/minds study new <name>``: the dialog, its Audience options, and its submission.

Owns: opening the dialog at once (trigger ids expire after 3 s), answering Slack's option requests, refusing
an empty name in the dialog, and after ``POST /studies`` re-entering ``/minds study <new id>`` so the person
gets the new Study's card where they chose to answer.
Must not touch: Minds wire shapes or SQL.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from minds_bot.flows.invocation import Invocation
from minds_bot.flows.study_new import audience_options, create_study
from minds_bot.i18n import N_, _
from minds_bot.render.study_new import (
    AUDIENCE_OPTIONS_ACTION,
    AUDIENCES_BLOCK,
    MAX_NAME,
    NAME_ACTION,
    NAME_BLOCK,
    STUDY_NEW_CALLBACK,
    render_study_new,
)
from minds_bot.slack.context import router_of, services_of
from minds_bot.slack.fields import over_limit
from minds_bot.slack.grammar import StudyNew
from minds_bot.slack.listeners import invocation_from_body
from minds_bot.slack.options import ack_options

if TYPE_CHECKING:
    from slack_bolt.context.ack.async_ack import AsyncAck
    from slack_bolt.context.async_context import AsyncBoltContext
    from slack_bolt.context.respond.async_respond import AsyncRespond
    from slack_sdk.web.async_client import AsyncWebClient

    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface


async def handle_study_new(command: StudyNew, invocation: Invocation) -> None:
    view = render_study_new(channel_id=invocation.channel_id, name=command.name)
    await invocation.client.views_open(trigger_id=invocation.trigger_id, view=view.to_dict())


COMMANDS = {StudyNew: handle_study_new}


def _submitted(view: dict[str, Any]) -> tuple[str, list[str]]:
    values = (view.get("state") or {}).get("values") or {}
    name = ((values.get(NAME_BLOCK) or {}).get(NAME_ACTION) or {}).get("value") or ""
    picked = ((values.get(AUDIENCES_BLOCK) or {}).get(AUDIENCE_OPTIONS_ACTION) or {}).get("selected_options") or []
    return name.strip(), [str(option.get("value")) for option in picked if option.get("value")]


async def search_audiences(ack: AsyncAck, body: dict[str, Any], context: AsyncBoltContext) -> None:
    team = (body.get("team") or {}).get("id") or (body.get("user") or {}).get("team_id", "")
    await ack_options(ack, audience_options(services_of(context), team_id=team, query=str(body.get("value") or "")))


async def submitted(
    ack: AsyncAck,
    body: dict[str, Any],
    view: dict[str, Any],
    client: AsyncWebClient,
    respond: AsyncRespond,
    context: AsyncBoltContext,
) -> None:
    services = services_of(context)
    name, audience_ids = _submitted(view)
    if not name:
        await ack(response_action="errors", errors={NAME_BLOCK: _("Give the Study a name.")})
        return
    if errors := over_limit(view, {NAME_BLOCK: (N_("A Study name"), MAX_NAME)}):
        await ack(response_action="errors", errors=errors)
        return
    if any(a.startswith("__") for a in audience_ids):
        await ack(response_action="errors", errors={AUDIENCES_BLOCK: _("Pick Audiences from the list.")})
        return
    await ack()
    invocation = invocation_from_body(services, body, client=client, respond=respond)
    created = await create_study(services, team_id=invocation.team_id, name=name, audience_ids=audience_ids)
    await router_of(context).dispatch(f"study {created.id}", invocation)


def register(surface: Surface, services: Services) -> None:
    surface.router.add(COMMANDS)
    surface.external_options(AUDIENCE_OPTIONS_ACTION)(search_audiences)
    surface.view(STUDY_NEW_CALLBACK)(submitted)
