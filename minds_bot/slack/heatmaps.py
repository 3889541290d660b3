"""The result buttons **Heatmap** and **Export heatmap**, and the confirmed **Start heatmap**.

Owns: reading the buttons (which Study, message and asset; which thread the result sits in) and who may start:
the cost prompt is ephemeral and its click must come from the person who asked (starting spends allowance; the
start runs as that person's work, like a command: ``flows/spend.their_work``).
The use cases are ``flows/heatmaps.py``; rendering ``render/heatmaps.py``.
Must not touch: Minds wire shapes or SQL.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from minds_bot.flows.heatmaps import HeatmapTarget, export_heatmap, show_heatmap, start_heatmap
from minds_bot.flows.invocation import Invocation
from minds_bot.flows.spend import their_work
from minds_bot.i18n import N_, _
from minds_bot.render.common import decode_value
from minds_bot.render.heatmaps import (
    HEATMAP_ACTION,
    HEATMAP_EXPORT_ACTION,
    HEATMAP_START_ACTION,
    render_heatmap_not_requester,
)
from minds_bot.slack.fields import texts
from minds_bot.slack.listeners import Click, pressed_with_click
from minds_bot.slack.reentry import is_ephemeral

if TYPE_CHECKING:
    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface

OUT_OF_DATE = N_("That button is out of date; ask the question again.")


def _target(body: dict[str, Any], state: dict[str, Any], *, thread_ts: str | None = None) -> HeatmapTarget | None:
    study_id, message_id, asset_key = state.get("s"), state.get("m"), state.get("k")
    message = body.get("message") or {}
    container = body.get("container") or {}
    thread = (
        thread_ts
        or message.get("thread_ts")
        or container.get("thread_ts")
        or message.get("ts")
        or container.get("message_ts")
    )
    ids = texts(study_id, message_id, asset_key, thread)
    if ids is None:
        return None
    return HeatmapTarget(study_id=ids[0], message_id=ids[1], asset_key=ids[2], thread_ts=ids[3])


async def _on_target(
    invocation: Invocation, action: dict[str, Any], click: Click, *, then: Callable[..., Awaitable[None]]
) -> None:
    """The heatmap a button names (``then``: show it, or export it), or the out-of-date note."""
    target = _target(click.body, decode_value(action.get("value")))
    if target is None:
        await invocation.respond(text=_(OUT_OF_DATE), response_type="ephemeral", replace_original=False)
        return
    await then(invocation, target)


async def heatmap_button(invocation: Invocation, action: dict[str, Any], click: Click) -> None:
    await _on_target(invocation, action, click, then=show_heatmap)


async def start_button(invocation: Invocation, action: dict[str, Any], click: Click) -> None:
    state = decode_value(action.get("value"))
    target = _target(click.body, state, thread_ts=state.get("t"))
    if not is_ephemeral(click.body) or target is None or state.get("u") != invocation.user_id:
        await invocation.reply(render_heatmap_not_requester())
        return
    respondents = state.get("r")
    async with their_work(invocation.services, team_id=invocation.team_id, user_id=invocation.user_id):
        await start_heatmap(invocation, target, respondents=respondents if isinstance(respondents, int) else None)


async def export_button(invocation: Invocation, action: dict[str, Any], click: Click) -> None:
    await _on_target(invocation, action, click, then=export_heatmap)


def register(surface: Surface, services: Services) -> None:

    surface.action(HEATMAP_ACTION)(pressed_with_click(heatmap_button))
    surface.action(HEATMAP_START_ACTION)(pressed_with_click(start_button))
    surface.action(HEATMAP_EXPORT_ACTION)(pressed_with_click(export_button))
