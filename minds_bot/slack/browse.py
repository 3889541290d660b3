"""``/minds studies|audiences|minds [query]``: browse lists a page at a time.

Owns: the command handler and the Previous/Next buttons (their value holds kind, query and offset — paging state
that grants nothing; every page is read again from Minds with the clicking workspace's key).
Must not touch: Minds wire shapes or SQL; rendering lives in ``render/browse.py``, fetching in ``flows/browse.py``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from minds_bot.flows.browse import browse
from minds_bot.flows.invocation import Invocation, with_progress
from minds_bot.i18n import _
from minds_bot.render.browse import BROWSE_KINDS, BROWSE_NEXT_ACTION, BROWSE_PREV_ACTION, render_browse
from minds_bot.render.common import decode_value
from minds_bot.slack.grammar import MAX_QUERY, Browse
from minds_bot.slack.listeners import pressed
from minds_bot.slack.resolve import show_progress

if TYPE_CHECKING:
    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface


async def show_page(invocation: Invocation, *, kind: str, query: str | None, offset: int, replace: bool) -> None:
    minds = await invocation.minds()
    work = browse(minds, kind=kind, query=query, offset=offset)  # type: ignore[arg-type]
    page = await with_progress(work, show=lambda: show_progress(invocation)) if not replace else await work
    await invocation.reply(render_browse(page), replace=replace)


async def handle_browse(command: Browse, invocation: Invocation) -> None:
    await show_page(invocation, kind=command.kind, query=command.query, offset=0, replace=False)


COMMANDS = {Browse: handle_browse}


async def turn_page(invocation: Invocation, action: dict[str, Any]) -> None:
    state = decode_value(action.get("value"))
    kind = state.get("k")
    offset = state.get("o")
    if kind not in BROWSE_KINDS or not isinstance(offset, int):
        await invocation.respond(
            text=_("That page button is out of date; run the command again."), replace_original=False
        )
        return
    query = state.get("q") if isinstance(state.get("q"), str) else None
    if query is not None and len(query) > MAX_QUERY:
        await invocation.respond(
            text=_("That page button is out of date; run the command again."), replace_original=False
        )
        return
    await show_page(invocation, kind=kind, query=query, offset=offset, replace=True)


def register(surface: Surface, services: Services) -> None:
    surface.router.add(COMMANDS)
    surface.action(re.compile(rf"^({BROWSE_PREV_ACTION}|{BROWSE_NEXT_ACTION})$"))(pressed(turn_page))
