"""``/minds recalibrate <audience>`` (also the Audience card's Recalibrate… button): owner only, an instruction in a
modal, a confirmation that says which members may change, then progress in a channel thread.

Owns: the command, both modal submissions (an instruction, and the OpenAPI's options: one distribution to add and
consent to change members other Audiences share) and installing the tracker's handler. Ownership is checked on the
server when the command arrives and again when the confirmation is submitted (``flows/recalibrate.py``).
Must not touch: Minds wire shapes or SQL.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from minds_bot.flows.invocation import Invocation, with_progress
from minds_bot.flows.keys import derived_key
from minds_bot.flows.recalibrate import RecalibrationRequest, may_recalibrate, start_recalibration
from minds_bot.i18n import N_, _
from minds_bot.minds import AudienceDetail, MindsError
from minds_bot.render.common import decode_value
from minds_bot.render.recalibrate import (
    DISTRIBUTION_BLOCK,
    INSTRUCTION_ACTION,
    INSTRUCTION_BLOCK,
    MAX_DISTRIBUTION,
    MAX_INSTRUCTION,
    RECALIBRATE_CONFIRM_VIEW,
    RECALIBRATE_VIEW,
    SHARED_BLOCK,
    recalibrate_confirm_view,
    recalibrate_modal,
    render_recalibrate_refused,
)
from minds_bot.slack.context import services_of
from minds_bot.slack.errors import say_failure_privately
from minds_bot.slack.fields import over_limit
from minds_bot.slack.grammar import Recalibrate
from minds_bot.slack.listeners import invocation_from_body
from minds_bot.slack.resolve import resolve_audience, show_progress

if TYPE_CHECKING:
    from slack_bolt.context.ack.async_ack import AsyncAck
    from slack_bolt.context.async_context import AsyncBoltContext
    from slack_sdk.web.async_client import AsyncWebClient

    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface


async def handle_recalibrate(command: Recalibrate, invocation: Invocation) -> None:
    if command.audience is None:
        await invocation.say_text(_("Say `/minds recalibrate <audience>` to recalibrate an Audience you own."))
        return
    found = await resolve_audience(
        invocation, command.audience, rerun=lambda aid: f"recalibrate {aid}", confirm_fuzzy=True
    )
    if found is None:
        return
    minds = await invocation.minds()
    audience = (
        found
        if isinstance(found, AudienceDetail)
        else await with_progress(minds.get_audience(found.id), show=lambda: show_progress(invocation))
    )
    allowed = await may_recalibrate(
        invocation.services,
        invocation.client,
        team_id=invocation.team_id,
        user_id=invocation.user_id,
        audience=audience,
    )
    if not allowed:
        await invocation.reply(render_recalibrate_refused(audience_name=audience.name, owner=audience.is_owner))
        return
    view = recalibrate_modal(
        audience_id=audience.id,
        audience_name=audience.name,
        members=audience.mind_count,
        channel_id=invocation.channel_id,
    )
    await invocation.client.views_open(trigger_id=invocation.trigger_id, view=view.to_dict())


COMMANDS = {Recalibrate: handle_recalibrate}


def _instruction(view: dict[str, Any], block: str = INSTRUCTION_BLOCK) -> str | None:
    values = (view.get("state") or {}).get("values") or {}
    text = ((values.get(block) or {}).get(INSTRUCTION_ACTION) or {}).get("value")
    return text.strip() if isinstance(text, str) and text.strip() else None


def _allow_shared(view: dict[str, Any]) -> bool:
    values = (view.get("state") or {}).get("values") or {}
    return bool(((values.get(SHARED_BLOCK) or {}).get(INSTRUCTION_ACTION) or {}).get("selected_options"))


async def _confirmed(services: Services, body: dict[str, Any], view: dict[str, Any], client: Any) -> None:
    meta = decode_value(view.get("private_metadata"))
    invocation = invocation_from_body(services, body, client=client, respond=None)
    channel_id, user_id = meta.get("c", ""), invocation.user_id
    try:
        minds = await services.minds.client_for(invocation.team_id)
        audience = await minds.get_audience(meta.get("a", ""))
        allowed = await may_recalibrate(
            services, client, team_id=invocation.team_id, user_id=user_id, audience=audience
        )
        if not allowed:
            refused = render_recalibrate_refused(audience_name=audience.name, owner=audience.is_owner)
            await client.chat_postEphemeral(channel=channel_id, user=user_id, **refused.as_kwargs())
            return
        request = RecalibrationRequest(
            team_id=invocation.team_id,
            channel_id=channel_id,
            user_id=user_id,
            audience=audience,
            instruction=meta.get("i") or None,
            requested_distribution=meta.get("d") or None,
            allow_shared_minds=meta.get("s") is True,
            key=derived_key(purpose="recalibrate", team_id=invocation.team_id, trigger_id=body.get("trigger_id")),
        )
        await start_recalibration(services, client, request)
    except MindsError as exc:  # a modal has no response URL: say it privately in the channel
        await say_failure_privately(client, channel_id=channel_id, user_id=user_id, error=exc)


async def instruction_given(ack: AsyncAck, view: dict[str, Any]) -> None:
    limits = {
        INSTRUCTION_BLOCK: (N_("An instruction"), MAX_INSTRUCTION),
        DISTRIBUTION_BLOCK: (N_("A distribution"), MAX_DISTRIBUTION),
    }
    if errors := over_limit(view, limits):
        await ack(response_action="errors", errors=errors)
        return
    meta = decode_value(view.get("private_metadata"))
    instruction, distribution, shared = _instruction(view), _instruction(view, DISTRIBUTION_BLOCK), _allow_shared(view)
    metadata = json.dumps({**meta, "i": instruction, "d": distribution, "s": shared})
    confirm = recalibrate_confirm_view(
        metadata=metadata,
        audience_name=meta.get("n", ""),
        members=int(meta.get("m") or 0),
        instruction=instruction,
        distribution=distribution,
        allow_shared=shared,
    )
    await ack(response_action="update", view=confirm.to_dict())


async def confirmed(
    ack: AsyncAck, body: dict[str, Any], view: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext
) -> None:
    await ack()
    await _confirmed(services_of(context), body, view, client)


def register(surface: Surface, services: Services) -> None:
    surface.router.add(COMMANDS)

    surface.view(RECALIBRATE_VIEW)(instruction_given)
    surface.view(RECALIBRATE_CONFIRM_VIEW)(confirmed)
