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
from minds_bot.slack.grammar import Analytics
from minds_bot.slack.listeners import Click, pressed_with_click
from minds_bot.slack.resolve import resolve_study, show_progress

if TYPE_CHECKING:
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


async def analytics_button(invocation: Invocation, action: dict[str, Any], click: Click) -> None:
    await click.router.dispatch(f"analytics {action.get('value') or ''}", invocation)


def register(surface: Surface, services: Services) -> None:
    surface.router.add(COMMANDS)
    surface.action(STUDY_ANALYTICS_ACTION)(pressed_with_click(analytics_button))
