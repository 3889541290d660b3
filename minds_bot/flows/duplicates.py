"""A private copy of a Study (``POST /studies/{id}/duplicate``) or of an Audience
(``POST /audiences/{id}/duplicate``), asked for from Slack, each through the channel's "duplicate" policy line.

Owns: the keyed request behind ``/minds duplicate``: saved with its Idempotency-Key before it is sent (derived
from the Slack request, so Slack's redelivery gets the same copy back); **Try again** after a timeout or a
network failure re-sends it with that same key (CATALOGUE §2 H.73: a retry cannot make a second copy); the same
command for the same Study within ``KEY_WINDOW`` asks "make a second copy?" and sends nothing until the
button is pressed. A Study with a live run is refused by Minds (409 ``STUDY_RUN_IN_PROGRESS``); the error hook
says so. ``duplicate_audience``: the Audience copy's Idempotency-Key is derived from the Slack request, so a
redelivery gets the same copy back (so a copy made stays "sent" in the record; a copy Minds refused is recorded as
not started).
Must not touch: Block Kit, SQL.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from minds_bot.flows.invocation import with_progress
from minds_bot.flows.keyed import UNCERTAIN, Repeat, arguments_of, begin, saved_for
from minds_bot.flows.keys import derived_key
from minds_bot.flows.planning import Refused
from minds_bot.flows.spend import SpendRequest, again_command, consent, settle, withdraw
from minds_bot.minds import MindsError
from minds_bot.render.errors import user_message
from minds_bot.render.jobs import (
    DUPLICATE_AGAIN,
    DUPLICATE_TRY_AGAIN,
    render_duplicate,
    render_make_another,
    render_try_again,
)
from minds_bot.render.profiles import render_audience_duplicate
from minds_bot.render.spend import AUDIENCE_COPY_COMMAND
from minds_bot.store import KeyedRequest

if TYPE_CHECKING:
    from minds_bot.flows.invocation import Invocation

DUPLICATE_STUDY = "duplicate_study"


async def duplicate_study(
    invocation: Invocation,
    *,
    study_id: str,
    study_name: str,
    show: Callable[[], Awaitable[Any]],
    copy_name: str | None = None,
) -> None:
    """``/minds duplicate <study> [as <name>]``, through the channel's spend policy (a copy counts no Minds
    responses): ask first when this Study was duplicated (under the same name) within the key's window. The
    copy's name is saved with the request, so Try again and Make a second copy name it the same."""
    command = f'duplicate {study_id} as "{copy_name}"' if copy_name else f"duplicate {study_id}"  # verbatim
    request = SpendRequest(action="duplicate", subject=study_name, command=command, responses=0)
    spend = await consent(invocation, request)
    if spend is None:
        return
    arguments = {"studyId": study_id, "studyName": study_name} | ({"name": copy_name} if copy_name else {})
    subject = f"{study_id}\n{copy_name}" if copy_name else study_id  # another name is another copy, not a repeat
    begun = await begin(invocation, purpose=DUPLICATE_STUDY, subject=subject, arguments=arguments, again=False)
    if isinstance(begun, Repeat):
        await withdraw(invocation.services, spend)
        await invocation.reply(
            render_make_another(
                kind="study_copy",
                study=study_name,
                requester_id=begun.earlier.requester_id,
                asked_at=begun.earlier.created_at,
                action_id=DUPLICATE_AGAIN,
                key=begun.earlier.key,
            )
        )
        return
    await _send(invocation, begun, show=show)


async def button_pressed(
    invocation: Invocation, *, key: str, again: bool, show: Callable[[], Awaitable[Any]]
) -> Refused | None:
    """**Try again** (the saved request, same key) or **Make a second copy** (a new request, a new key)."""
    saved = await saved_for(invocation, key=key, purpose=DUPLICATE_STUDY)
    if isinstance(saved, Refused):
        return saved
    if again:
        arguments = arguments_of(saved)
        request = SpendRequest(
            action="duplicate", subject=str(arguments["studyName"]), command=again_command(key), responses=0
        )
        if await consent(invocation, request) is None:  # a second copy passes the channel's policy too
            return None
        fresh = await begin(invocation, purpose=DUPLICATE_STUDY, subject=saved.subject, arguments=arguments, again=True)
        assert isinstance(fresh, KeyedRequest)
        saved = fresh
    await _send(invocation, saved, show=show)
    return None


async def _send(invocation: Invocation, request: KeyedRequest, *, show: Callable[[], Awaitable[Any]]) -> None:
    arguments = arguments_of(request)
    minds = await invocation.minds()
    try:
        sent = minds.duplicate_study(arguments["studyId"], idempotency_key=request.key, name=arguments.get("name"))
        copy = await with_progress(sent, show=show)
    except UNCERTAIN as exc:
        await invocation.reply(
            render_try_again(
                kind="study_copy",
                study=arguments["studyName"],
                reason=user_message(exc),
                action_id=DUPLICATE_TRY_AGAIN,
                key=request.key,
            )
        )
        return
    await invocation.reply(render_duplicate(copy, source_name=arguments["studyName"]))


async def duplicate_audience(
    invocation: Invocation,
    *,
    audience_id: str,
    audience_name: str,
    show: Callable[[], Awaitable[Any]],
    copy_name: str | None = None,
) -> None:
    """``/minds duplicate audience <name>`` (and the Audience card's Duplicate… dialog, which names the copy:
    ``copy_name``; Minds' default is "<name> (copy)"), through the channel's "duplicate" line (a copy counts no
    Minds responses; each member becomes a new Mind of the plan's allowance). A copy held for an approver is made
    later from the saved command, under Minds' default name."""
    command = AUDIENCE_COPY_COMMAND.format(audience_id=audience_id)
    request = SpendRequest(action="duplicate", subject=audience_name, command=command, responses=0)
    spend = await consent(invocation, request)
    if spend is None:
        return
    minds = await invocation.minds()
    key = derived_key(purpose="duplicate-audience", team_id=invocation.team_id, trigger_id=invocation.trigger_id)
    try:
        copy = await with_progress(
            minds.duplicate_audience(audience_id, idempotency_key=key, name=copy_name), show=show
        )
    except MindsError as exc:
        if not isinstance(exc, UNCERTAIN):  # refused for good; no answer: Minds may have made it, it stays "sent"
            await settle(invocation.services, spend, started=False, detail=type(exc).__name__)
        raise
    # Made (or replayed): the spend stays "sent", so Slack's redelivery of this request shows the same copy again.
    await invocation.reply(render_audience_duplicate(copy, source_name=audience_name))
