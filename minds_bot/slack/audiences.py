"""``/minds audience new <brief>``: an Audience built from a brief, followed in a thread, and its **Try again**
/ **Build another Audience** buttons.

Owns: the command and the buttons' listeners (their value names a saved request by its key; what they send runs
as the person's work, like a command: ``flows/spend.their_work``); the use case
(limits first, the keyed request, the job, the thread, the tracker's handler) lives in ``flows/audiences.py``.
Must not touch: Minds wire shapes or SQL.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from minds_bot.flows.audiences import audience_button, start_audience
from minds_bot.flows.invocation import Invocation
from minds_bot.flows.planning import Refused
from minds_bot.flows.spend import their_work
from minds_bot.i18n import _
from minds_bot.render.common import decode_value
from minds_bot.render.jobs import AUDIENCE_AGAIN, AUDIENCE_TRY_AGAIN
from minds_bot.slack.context import services_of
from minds_bot.slack.grammar import AudienceNew
from minds_bot.slack.reentry import invocation_from_body

if TYPE_CHECKING:
    from slack_bolt.context.ack.async_ack import AsyncAck
    from slack_bolt.context.async_context import AsyncBoltContext
    from slack_bolt.context.respond.async_respond import AsyncRespond
    from slack_sdk.web.async_client import AsyncWebClient

    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface


async def handle_audience_new(command: AudienceNew, invocation: Invocation) -> None:
    if command.brief is None:
        await invocation.say_text(_("Say `/minds audience new <brief>`, describing who the Audience should be."))
        return
    await start_audience(invocation, brief=command.brief)


COMMANDS = {AudienceNew: handle_audience_new}


def register(surface: Surface, services: Services) -> None:
    surface.router.add(COMMANDS)
    surface.action(AUDIENCE_TRY_AGAIN)(try_again)
    surface.action(AUDIENCE_AGAIN)(build_another)


async def _pressed(
    body: dict[str, Any],
    action: dict[str, Any],
    client: AsyncWebClient,
    respond: AsyncRespond,
    context: AsyncBoltContext,
    *,
    again: bool,
) -> None:
    """The listener for Try again (``again=False``: the saved brief, same key) or Build another Audience."""
    services = services_of(context)
    invocation = invocation_from_body(services, body, client=client, respond=respond)
    key = str(decode_value(action.get("value")).get("k") or "")
    async with their_work(services, team_id=invocation.team_id, user_id=invocation.user_id):
        outcome = await audience_button(invocation, key=key, again=again)
    if isinstance(outcome, Refused):
        await invocation.say_mrkdwn(outcome.reason)


async def try_again(
    ack: AsyncAck,
    body: dict[str, Any],
    action: dict[str, Any],
    client: AsyncWebClient,
    respond: AsyncRespond,
    context: AsyncBoltContext,
) -> None:
    """Try again: the saved brief, same key."""
    await ack()
    await _pressed(body, action, client, respond, context, again=False)


async def build_another(
    ack: AsyncAck,
    body: dict[str, Any],
    action: dict[str, Any],
    client: AsyncWebClient,
    respond: AsyncRespond,
    context: AsyncBoltContext,
) -> None:
    """Build another Audience: the saved brief, a new key."""
    await ack()
    await _pressed(body, action, client, respond, context, again=True)
