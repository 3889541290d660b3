"""``/minds study <study>``: the Study card, and its Ask and Summary buttons.

Owns: the command (no Study named → the pick-a-Study modal), reading the Study and its recent runs (only those
the bot never posted and those of channels the person is in now are named: ``flows/run_links.py``), and the
card's ``study_ask`` (opens the Ask modal with the Study chosen), ``study_summary`` and ``study_result`` (one
question's results, ``flows/study_results.py``) buttons. The card's
``study_plan`` and ``study_export`` buttons belong to the planning and export flows; nothing here handles them.
Must not touch: Minds wire shapes or SQL.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from minds_bot.flows.invocation import Invocation, with_progress
from minds_bot.flows.run_links import hidden_runs, run_channels, thread_links
from minds_bot.flows.study_results import question_results
from minds_bot.render.common import decode_value, plain_value, render_stale_button
from minds_bot.render.study import STUDY_ASK_ACTION, STUDY_RESULT_ACTION, STUDY_SUMMARY_ACTION, render_study_card
from minds_bot.slack.grammar import MAX_STUDY_REF, ShowStudy, StudyRef
from minds_bot.slack.listeners import Click, pressed, pressed_with_click
from minds_bot.slack.pick import open_pick_modal
from minds_bot.slack.resolve import resolve_study, show_progress, study_detail

if TYPE_CHECKING:
    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface

RECENT_RUNS_LIMIT = 5


async def show_card(invocation: Invocation, ref: StudyRef) -> None:
    study = await resolve_study(invocation, ref, rerun=lambda sid: f"study {sid}")
    if study is None:
        return
    minds = await invocation.minds()
    detail = await study_detail(invocation, study)
    latest = await with_progress(
        minds.study_runs_page(detail.id, limit=RECENT_RUNS_LIMIT), show=lambda: show_progress(invocation)
    )
    runs = latest.items
    channels = await run_channels(invocation.services, team_id=invocation.team_id, run_ids=[r.run_id for r in runs])
    hidden = await hidden_runs(invocation, channels)
    links = await thread_links(invocation, [run.run_id for run in runs if run.run_id not in hidden])
    hidden_messages = {run.message_id for run in runs if run.run_id in hidden and run.message_id}
    card = render_study_card(
        detail, runs, thread_links=links, hidden=hidden, more_runs=latest.has_more, hidden_messages=hidden_messages
    )
    await invocation.reply(card)


async def handle_study(command: ShowStudy, invocation: Invocation) -> None:
    if command.study is None:
        await open_pick_modal(invocation, "study")
        return
    await show_card(invocation, command.study)


COMMANDS = {ShowStudy: handle_study}


async def ask_button(invocation: Invocation, action: dict[str, Any]) -> None:
    state = decode_value(action.get("value"))
    study_id, name, listed = state.get("s"), state.get("n"), state.get("a")
    initial = (study_id, name) if isinstance(study_id, str) and isinstance(name, str) else None
    audiences = [(str(a[0]), str(a[1])) for a in listed if isinstance(a, list) and len(a) == 2] if listed else []
    await open_pick_modal(invocation, "ask", initial=initial, audiences=audiences if initial else None)


async def result_button(invocation: Invocation, action: dict[str, Any]) -> None:
    """One question's results, from the card's list (the gate is asked first: ``flows/study_results.py``)."""
    state = decode_value(action.get("value"))
    study_id, message_id = state.get("s"), state.get("m")
    if not (isinstance(study_id, str) and isinstance(message_id, str)):
        await invocation.reply(render_stale_button())
        return
    shown = await with_progress(
        question_results(invocation, study_id=study_id, message_id=message_id), show=lambda: show_progress(invocation)
    )
    await invocation.reply(shown)


async def summary_button(invocation: Invocation, action: dict[str, Any], click: Click) -> None:
    study_id = plain_value(action.get("value"), limit=MAX_STUDY_REF)
    if not study_id:
        await invocation.reply(render_stale_button())
        return
    await click.router.dispatch(f"summary {study_id}", invocation)


def register(surface: Surface, services: Services) -> None:
    surface.router.add(COMMANDS)
    surface.action(STUDY_ASK_ACTION)(pressed(ask_button))
    surface.action(STUDY_SUMMARY_ACTION)(pressed_with_click(summary_button))
    surface.action(STUDY_RESULT_ACTION)(pressed(result_button))
