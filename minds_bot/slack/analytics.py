"""``/minds analytics <study>`` and the Analytics button on a Study card.

Owns: resolving the Study the person named and handing it to ``flows/analytics.py``; the card's button
re-enters the command with the Study's id.
Must not touch: Minds wire shapes or SQL.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from minds_bot.flows.analytics import post_analytics
from minds_bot.flows.invocation import Invocation, with_progress
from minds_bot.render.study import STUDY_ANALYTICS_ACTION
from minds_bot.slack.context import router_of, services_of
from minds_bot.slack.grammar import Analytics
from minds_bot.slack.reentry import invocation_from_body
from minds_bot.slack.resolve import resolve_study, show_progress

if TYPE_CHECKING:
    from slack_bolt.context.ack.async_ack import AsyncAck
    from slack_bolt.context.async_context import AsyncBoltContext
    from slack_bolt.context.respond.async_respond import AsyncRespond
    from slack_sdk.web.async_client import AsyncWebClient

    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface


async def handle_analytics(command: Analytics, invocation: Invocation) -> None:
    study = await resolve_study(invocation, command.study, rerun=lambda sid: f"analytics {sid}")
    if study is None:
        return
    work = post_analytics(
        invocation.services,
        invocation.client,
        team_id=invocation.team_id,
        channel_id=invocation.channel_id,
        study_id=study.id,
        study_name=study.name,
    )
    await invocation.reply(await with_progress(work, show=lambda: show_progress(invocation)))


COMMANDS = {Analytics: handle_analytics}


async def analytics_button(
    ack: AsyncAck,
    body: dict[str, Any],
    action: dict[str, Any],
    client: AsyncWebClient,
    respond: AsyncRespond,
    context: AsyncBoltContext,
) -> None:
    await ack()
    invocation = invocation_from_body(services_of(context), body, client=client, respond=respond)
    await router_of(context).dispatch(f"analytics {action.get('value') or ''}", invocation)


def register(surface: Surface, services: Services) -> None:
    surface.router.add(COMMANDS)
    surface.action(STUDY_ANALYTICS_ACTION)(analytics_button)
