"""``/minds ask <study> <question>``: one standalone question, answered in a channel thread.

Owns: the command (a missing Study or question opens the Ask modal), the ``ask_retry`` button (same saved
clientRequestId), the "Show answers" pages and their
"All answers as CSV" button (``flows/answers_csv.py``), and installing the direct-run handler for the run
tracker.
A Study name followed by the question is used only when quoted or matching exactly (``slack/resolve.py``): the
question sent is always the words typed after the name, and a did-you-mean button re-runs it unchanged.
The use case itself is ``flows/ask.py``; rendering is ``render/answers.py``.
Must not touch: Minds wire shapes or SQL.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from minds_bot.flows import ask as ask_flow
from minds_bot.flows.answers_csv import attach_answers_csv
from minds_bot.flows.invocation import Invocation
from minds_bot.i18n import N_, _
from minds_bot.minds import parse_output
from minds_bot.render.answer_pages import (
    ANSWERS_CSV_ACTION,
    ANSWERS_NEXT_ACTION,
    ANSWERS_PREV_ACTION,
    SHOW_ANSWERS_ACTION,
    render_answers_page,
)
from minds_bot.render.answers import ASK_RETRY_ACTION
from minds_bot.render.common import decode_value, plain_value, render_stale_button
from minds_bot.slack.fields import texts
from minds_bot.slack.grammar import Ask
from minds_bot.slack.listeners import Click, pressed, pressed_with_click
from minds_bot.slack.pick import open_pick_modal, preselect
from minds_bot.slack.reentry import is_ephemeral
from minds_bot.slack.resolve import resolve_study

MAX_CLIENT_REQUEST_ID = 200  # the Try again button carries the saved request id (a UUID)
ASK_USAGE = N_('Say `/minds ask "<study>" <question>`, e.g. `/minds ask "Launch positioning" Which name fits best?`')

if TYPE_CHECKING:
    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface


def _thread(body: dict[str, Any], state: dict[str, Any]) -> str | None:
    """The result's thread: carried by a page's buttons, else the clicked public result's own thread."""
    if isinstance(state.get("t"), str):
        return state["t"]
    message, container = body.get("message") or {}, body.get("container") or {}
    found = message.get("thread_ts") or container.get("thread_ts") or message.get("ts") or container.get("message_ts")
    return found if isinstance(found, str) else None


async def handle_ask(command: Ask, invocation: Invocation) -> None:
    if command.study is None:
        await open_pick_modal(invocation, "ask", question=command.question)
        return
    if command.question is None:
        view_id = await open_pick_modal(invocation, "ask")
        await preselect(invocation, view_id, "ask", study_text=command.study.text)
        return
    question = command.question
    study = await resolve_study(  # the button re-runs with the question exactly as typed
        invocation,
        command.study,
        rerun=lambda sid: f"ask {sid} {question}",
        confirm_fuzzy=True,
        exact_unquoted=_(ASK_USAGE),
    )
    if study is None:
        return
    outcome = await ask_flow.ask_with_consent(
        invocation,
        study=study,
        question=question,
    )
    if outcome.message is not None:
        await invocation.reply(outcome.message)


COMMANDS = {Ask: handle_ask}


async def retry(invocation: Invocation, action: dict[str, Any]) -> None:
    client_request_id = plain_value(action.get("value"), limit=MAX_CLIENT_REQUEST_ID)
    if not client_request_id:
        await invocation.reply(render_stale_button())
        return
    outcome = await ask_flow.retry(
        invocation.services,
        invocation.client,
        client_request_id=client_request_id,
        team_id=invocation.team_id,
        user_id=invocation.user_id,
    )
    if outcome.message is not None:
        await invocation.reply(outcome.message)


async def answers(invocation: Invocation, action: dict[str, Any], click: Click) -> None:
    state = decode_value(action.get("value"))
    study_id, message_id, page = state.get("s"), state.get("m"), state.get("p", 0)
    if not (isinstance(study_id, str) and isinstance(message_id, str) and isinstance(page, int)):
        await invocation.respond(text=_("That button is out of date; ask the question again."), replace_original=False)
        return
    minds = await invocation.minds()
    read = await minds.get_message_answers(study_id, message_id)
    output = parse_output(read.output_data)
    thread_ts = _thread(click.body, state)
    message = render_answers_page(output, study_id=study_id, message_id=message_id, page=page, thread_ts=thread_ts)
    # Pages replace the private page they came from; the public result in the thread is never replaced.
    await invocation.reply(message, replace=is_ephemeral(click.body))


async def answers_csv(invocation: Invocation, action: dict[str, Any]) -> None:
    state = decode_value(action.get("value"))
    ids = texts(state.get("s"), state.get("m"), state.get("t"))
    if ids is None:
        await invocation.respond(text=_("That button is out of date; ask the question again."), replace_original=False)
        return
    await attach_answers_csv(invocation, study_id=ids[0], message_id=ids[1], thread_ts=ids[2])


def register(surface: Surface, services: Services) -> None:
    surface.router.add(COMMANDS)

    surface.action(ASK_RETRY_ACTION)(pressed(retry))

    pattern = rf"^({SHOW_ANSWERS_ACTION}|{ANSWERS_PREV_ACTION}|{ANSWERS_NEXT_ACTION})$"

    surface.action(re.compile(pattern))(pressed_with_click(answers))
    surface.action(ANSWERS_CSV_ACTION)(pressed(answers_csv))
