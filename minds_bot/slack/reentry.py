"""Buttons that re-enter a ``/minds`` command: candidate pickers and Open buttons carry the command text.

Owns: building an ``Invocation`` from a button click or modal submission (who clicked, where, the response URL
and trigger id), and the ``minds_rerun`` action, which runs the command text in the button's value as the
person who clicked — exactly what they could type themselves, so the value grants nothing.
Must not touch: Minds wire shapes or SQL.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from minds_bot.flows.invocation import Invocation
from minds_bot.render.common import RERUN_ACTION, plain_value, render_stale_button
from minds_bot.slack.context import router_of, services_of

if TYPE_CHECKING:
    from slack_bolt.context.ack.async_ack import AsyncAck
    from slack_bolt.context.async_context import AsyncBoltContext
    from slack_bolt.context.respond.async_respond import AsyncRespond
    from slack_sdk.web.async_client import AsyncWebClient

    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface


def invocation_from_body(services: Services, body: dict[str, Any], *, client: Any, respond: Any) -> Invocation:
    """The Invocation for an interaction payload (block_actions or view_submission)."""
    user = body.get("user") or {}
    urls = body.get("response_urls") or [{}]
    channel = (body.get("channel") or {}).get("id") or urls[0].get("channel_id") or ""
    team = (body.get("team") or {}).get("id") or user.get("team_id") or ""
    return Invocation(
        services=services,
        client=client,
        respond=respond,
        team_id=team,
        channel_id=channel,
        user_id=user.get("id", ""),
        trigger_id=body.get("trigger_id"),
    )


def ephemeral_to(client: Any, *, channel_id: str, user_id: str) -> Any:
    """A respond() stand-in for modal submissions, which have no response URL: a private note in the channel."""

    async def respond(**message: Any) -> None:
        kwargs = {k: v for k, v in message.items() if k in ("text", "blocks")}
        await client.chat_postEphemeral(channel=channel_id, user=user_id, **kwargs)

    return respond


def is_ephemeral(body: dict[str, Any]) -> bool:
    return bool((body.get("container") or {}).get("is_ephemeral"))


async def rerun(
    ack: AsyncAck,
    body: dict[str, Any],
    action: dict[str, Any],
    client: AsyncWebClient,
    respond: AsyncRespond,
    context: AsyncBoltContext,
) -> None:
    await ack()
    invocation = invocation_from_body(services_of(context), body, client=client, respond=respond)
    text = plain_value(action.get("value"))
    if text is None:
        await invocation.reply(render_stale_button())
        return
    await router_of(context).dispatch(text or "help", invocation)


def register(surface: Surface, services: Services) -> None:
    surface.action(re.compile(rf"^{RERUN_ACTION}(:.*)?$"))(rerun)
