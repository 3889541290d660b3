"""Buttons that re-enter a ``/minds`` command: candidate pickers and Open buttons carry the command text.

Owns: the ``minds_rerun`` action, which runs the command text in the button's value as the person who clicked —
exactly what they could type themselves, so the value grants nothing — and the small readings of a click's
payload other listeners share (``ephemeral_to`` for a modal's private notes, ``is_ephemeral``).
Must not touch: Minds wire shapes or SQL.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from minds_bot.flows.invocation import Invocation
from minds_bot.render.common import RERUN_ACTION, plain_value, render_stale_button
from minds_bot.slack.listeners import Click, pressed_with_click

if TYPE_CHECKING:
    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface


def ephemeral_to(client: Any, *, channel_id: str, user_id: str) -> Any:
    """A respond() stand-in for modal submissions, which have no response URL: a private note in the channel."""

    async def respond(**message: Any) -> None:
        kwargs = {k: v for k, v in message.items() if k in ("text", "blocks")}
        await client.chat_postEphemeral(channel=channel_id, user=user_id, **kwargs)

    return respond


def is_ephemeral(body: dict[str, Any]) -> bool:
    return bool((body.get("container") or {}).get("is_ephemeral"))


async def rerun(invocation: Invocation, action: dict[str, Any], click: Click) -> None:
    text = plain_value(action.get("value"))
    if text is None:
        await invocation.reply(render_stale_button())
        return
    await click.router.dispatch(text or "help", invocation)


def register(surface: Surface, services: Services) -> None:
    surface.action(re.compile(rf"^{RERUN_ACTION}(:.*)?$"))(pressed_with_click(rerun))
