"""``/minds compare <study> [run] [run]`` and the "Compare with…" button on a run's result.

Owns: the command (no Study → how to say it; an unknown Study → the lookup's own answer), the button (acked at
once, a loading dialog opened within Slack's 3 s, then the Study's runs read and offered in a static select —
another finished run, or this run's Audiences), and the dialog's submission (the comparison is posted in the
result's thread). Choosing and reading runs, who may compare which run where (the gate, ``Where``), and posting
is ``flows/compare.py``: the dialog offers only the runs that may be compared in the result's channel, and a
submission is asked again.
Must not touch: Minds wire shapes, SQL, Block Kit (``render/compare.py``).
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from minds_bot.flows.compare import (
    ENDED,
    Where,
    choose_here,
    compare,
    ordered,
    other_runs,
    read_runs,
    this_run,
    unreadable_run,
)
from minds_bot.flows.invocation import Invocation
from minds_bot.minds import MindsError
from minds_bot.render.common import decode_metadata, decode_value, note
from minds_bot.render.compare import (
    AUDIENCES_CHOICE,
    COMPARE_ACTION,
    PICK_ACTION,
    PICK_BLOCK,
    VIEW_COMPARE,
    compare_modal,
    compare_usage,
    loading_modal,
    message_modal,
)
from minds_bot.render.errors import user_message
from minds_bot.slack.context import services_of
from minds_bot.slack.grammar import Compare
from minds_bot.slack.listeners import invocation_from_body
from minds_bot.slack.reentry import ephemeral_to
from minds_bot.slack.resolve import resolve_study

if TYPE_CHECKING:
    from slack_bolt.context.ack.async_ack import AsyncAck
    from slack_bolt.context.async_context import AsyncBoltContext
    from slack_sdk.models.views import View
    from slack_sdk.web.async_client import AsyncWebClient

    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface


async def handle_compare(command: Compare, invocation: Invocation) -> None:
    if command.study is None:
        await invocation.say_mrkdwn(compare_usage())
        return
    named = " ".join(command.runs)
    study = await resolve_study(invocation, command.study, rerun=lambda sid: f"compare {sid} {named}".strip())
    if study is None:
        return
    runs = await read_runs(await invocation.minds(), study_id=study.id, study_name=study.name)
    chosen = await choose_here(invocation, runs, command.runs)
    if isinstance(chosen, str):
        await invocation.say_mrkdwn(chosen)
        return
    await compare(invocation, study=runs, runs=chosen)


COMMANDS = {Compare: handle_compare}


def _thread_of(body: dict[str, Any]) -> tuple[str, str]:
    """The channel and thread of the message whose button was pressed."""
    message = body.get("message") or {}
    container = body.get("container") or {}
    channel = (body.get("channel") or {}).get("id") or container.get("channel_id") or ""
    thread = message.get("thread_ts") or container.get("thread_ts") or message.get("ts") or ""
    return channel, thread


def _picked(view: dict[str, Any]) -> str | None:
    chosen = (((view.get("state") or {}).get("values") or {}).get(PICK_BLOCK) or {}).get(PICK_ACTION) or {}
    option = chosen.get("selected_option") or {}
    value = option.get("value")
    return value if isinstance(value, str) else None


async def _dialog(invocation: Invocation, *, study_id: str, run_id: str, thread: str) -> View:
    """The "Compare with…" dialog for ``run_id``, compared in ``invocation.channel_id``: the other runs that may
    be compared there (the gate's words instead when this run may not be)."""
    try:
        minds = await invocation.minds()
        study = await minds.get_study(study_id)
        runs = await read_runs(minds, study_id=study_id, study_name=study.name)
    except MindsError as exc:
        return message_modal(user_message(exc))
    where = await Where.of(invocation, runs)
    refused = await where.refusal([this_run(runs, run_id)])
    if refused is not None:
        return message_modal(refused)
    allowed = await where.candidates(runs, statuses=ENDED)
    meta = {"s": study_id, "n": study.name[:200], "r": run_id, "c": invocation.channel_id, "t": thread}
    return compare_modal(metadata=json.dumps(meta), choices=other_runs(runs, run_id, allowed=allowed), audiences=True)


async def compare_opened(
    ack: AsyncAck, body: dict[str, Any], action: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext
) -> None:
    await ack()
    opened = await client.views_open(trigger_id=body.get("trigger_id"), view=loading_modal().to_dict())
    state = decode_value(action.get("value"))
    study_id, run_id = state.get("s"), state.get("r")
    invocation = invocation_from_body(services_of(context), body, client=client, respond=None)
    channel, thread = _thread_of(body)
    if not (isinstance(study_id, str) and isinstance(run_id, str)):
        view = message_modal(unreadable_run())
    else:
        view = await _dialog(replace(invocation, channel_id=channel), study_id=study_id, run_id=run_id, thread=thread)
    await client.views_update(view_id=opened["view"]["id"], view=view.to_dict())


async def compare_submitted(
    ack: AsyncAck, body: dict[str, Any], view: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext
) -> None:
    await ack()
    meta = decode_metadata(view.get("private_metadata"))
    user_id = (body.get("user") or {}).get("id", "")
    channel, thread = str(meta.get("c") or ""), meta.get("t")
    respond = ephemeral_to(client, channel_id=channel, user_id=user_id)
    # The dialog was opened from a result: its channel (kept in the dialog) is where the comparison goes.
    invocation = replace(
        invocation_from_body(services_of(context), body, client=client, respond=respond),
        channel_id=channel,
        user_id=user_id,
    )
    study_id, run_id, picked = meta.get("s"), meta.get("r"), _picked(view)
    if not (isinstance(study_id, str) and isinstance(run_id, str) and picked):
        await invocation.say_text(unreadable_run())
        return
    try:  # a dialog's submission has no response URL for the error hook: Minds' error is said here
        runs = await read_runs(await invocation.minds(), study_id=study_id, study_name=str(meta.get("n") or study_id))
    except MindsError as exc:
        await invocation.reply(note(user_message(exc)))
        return
    this = this_run(runs, run_id)
    other = None if picked == AUDIENCES_CHOICE else this_run(runs, picked)
    if this is None or (picked != AUDIENCES_CHOICE and other is None):
        await invocation.say_text(unreadable_run())
        return
    refused = await (await Where.of(invocation, runs)).refusal([this, other])
    if refused is not None:  # asked again: membership may have changed since the dialog opened
        await invocation.say_mrkdwn(refused)
        return
    chosen = [this] if other is None else ordered(this, other)
    await compare(invocation, study=runs, runs=chosen, thread_ts=thread if isinstance(thread, str) else None)


def register(surface: Surface, services: Services) -> None:
    surface.router.add(COMMANDS)
    surface.action(COMPARE_ACTION)(compare_opened)
    surface.view(VIEW_COMPARE)(compare_submitted)
