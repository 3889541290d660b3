"""``/minds summary <study> [refresh [force] [short|standard|detailed]]``: read a Study's summary, or ask Minds
to refresh it.

Owns: the command (no Study → the pick-a-Study modal), the refresh with Minds' ``force`` and ``length``
(``POST /studies/{id}/summary``, CATALOGUE §3.11: without ``force`` Minds reuses a saved summary that still
matches; a 409 means a newer summary is being generated: said plainly, nothing retried), and the summary's
Previous/Next pages (each page re-read from Minds).
Must not touch: Minds wire shapes or SQL.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import TYPE_CHECKING, Any

from minds_bot.flows.invocation import Invocation, with_progress
from minds_bot.i18n import _
from minds_bot.minds import MindsError, SummarySuperseded
from minds_bot.render.common import decode_value
from minds_bot.render.summary import (
    SUMMARY_NEXT_ACTION,
    SUMMARY_PREV_ACTION,
    latest_run_ended,
    render_summary,
    render_superseded,
)
from minds_bot.slack.grammar import Summary
from minds_bot.slack.listeners import pressed
from minds_bot.slack.pick import open_pick_modal
from minds_bot.slack.resolve import resolve_study, show_progress

if TYPE_CHECKING:
    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface


RUNS_READ = 20  # the newest runs Minds lists: the latest finished one is among them


async def handle_summary(command: Summary, invocation: Invocation) -> None:
    if command.study is None:
        await open_pick_modal(invocation, "summary")
        return
    suffix = " ".join(w for w in ("refresh" * command.refresh, "force" * command.force, command.length or "") if w)
    study = await resolve_study(invocation, command.study, rerun=lambda sid: f"summary {sid} {suffix}".strip())
    if study is None:
        return
    minds = await invocation.minds()
    work = (
        minds.refresh_summary(study.id, force=command.force, length=command.length)  # type: ignore[arg-type]
        if command.refresh
        else minds.get_summary(study.id)
    )
    try:
        summary = await with_progress(work, show=lambda: show_progress(invocation))
    except SummarySuperseded:
        await invocation.reply(render_superseded(study_name=study.name))
        return
    ended = await _latest_run_ended(minds, study.id)
    await invocation.reply(
        render_summary(study_id=study.id, study_name=study.name, summary=summary, latest_run_ended=ended)
    )


async def _latest_run_ended(minds: Any, study_id: str) -> datetime | None:
    """When the Study's newest finished run ended, as Minds lists it; None when Minds does not say or cannot
    be read (the summary then says it may predate the latest run — never that it is current)."""
    try:
        runs = await minds.list_study_runs(study_id, limit=RUNS_READ)
    except MindsError:
        return None
    return latest_run_ended(runs)


COMMANDS = {Summary: handle_summary}


async def turn_page(invocation: Invocation, action: dict[str, Any]) -> None:
    state = decode_value(action.get("value"))
    study_id, name, page = state.get("s"), state.get("n"), state.get("p")
    if not (isinstance(study_id, str) and isinstance(name, str) and isinstance(page, int)):
        await invocation.respond(
            text=_("That page button is out of date; run the command again."), replace_original=False
        )
        return
    minds = await invocation.minds()
    summary = await minds.get_summary(study_id)
    ended = await _latest_run_ended(minds, study_id)
    message = render_summary(study_id=study_id, study_name=name, summary=summary, page=page, latest_run_ended=ended)
    await invocation.reply(message, replace=True)


def register(surface: Surface, services: Services) -> None:
    surface.router.add(COMMANDS)
    surface.action(re.compile(rf"^({SUMMARY_PREV_ACTION}|{SUMMARY_NEXT_ACTION})$"))(pressed(turn_page))
