"""``/minds audience <name>`` (the Audience card) and ``/minds ask audience <name> <question>``.

Owns: both commands, the card's buttons — Ask (a one-question modal), Export (re-enters ``/minds export audience
<id> md``: the brief attached in a thread by ``flows/profiles.py``), Duplicate (confirmed in Slack, then re-enters
``/minds duplicate audience <id>``; the Idempotency-Key comes from the click, so a redelivered click makes no
second copy) and Recalibrate… (re-enters ``/minds recalibrate`` through the router, where ownership is
checked) — and the Ask modal's submission. The router is the one way in, so each button has one
implementation, shared with its typed command. Asking an Audience, typed or from the card's dialog, passes the
channel's "ask" policy line (``flows/ask_audience.py``: asked before the Audience is looked up, so a refused or
waiting person sends nothing to Minds); the dialog's ask runs as the person's work, like a command.
Reading is ``flows/audience_card.py``; asking ``flows/ask_audience.py``; rendering ``render/audience.py``.
Must not touch: Minds wire shapes or SQL.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from minds_bot.flows.ask_audience import ask_audience_by_id, ask_audience_with_consent, early_request
from minds_bot.flows.audience_card import read_audience_card
from minds_bot.flows.invocation import Invocation, with_progress
from minds_bot.flows.questions import check_question
from minds_bot.flows.spend import SpendRequest, refused_early, their_work
from minds_bot.i18n import N_, _
from minds_bot.minds import MindsError
from minds_bot.render.ask_audience import ASK_AUDIENCE_VIEW, QUESTION_ACTION, QUESTION_BLOCK, ask_audience_modal
from minds_bot.render.audience import (
    AUDIENCE_ASK_ACTION,
    AUDIENCE_DUPLICATE_ACTION,
    AUDIENCE_EXPORT_ACTION,
    AUDIENCE_RECALIBRATE_ACTION,
    render_audience_card,
)
from minds_bot.render.common import decode_value
from minds_bot.render.modals import MAX_QUESTION
from minds_bot.slack.context import services_of
from minds_bot.slack.errors import say_failure_privately
from minds_bot.slack.fields import over_limit
from minds_bot.slack.grammar import ASK_AUDIENCE_USAGE, AskAudience, ShowAudience
from minds_bot.slack.listeners import Click, invocation_from_body, pressed, pressed_with_click
from minds_bot.slack.reentry import ephemeral_to
from minds_bot.slack.resolve import resolve_audience, show_progress

if TYPE_CHECKING:
    from slack_bolt.context.ack.async_ack import AsyncAck
    from slack_bolt.context.async_context import AsyncBoltContext
    from slack_sdk.web.async_client import AsyncWebClient

    from minds_bot.services import Services
    from minds_bot.slack.router import Handler
    from minds_bot.slack.surface import Surface


async def handle_show_audience(command: ShowAudience, invocation: Invocation) -> None:
    audience = await resolve_audience(invocation, command.audience, rerun=lambda aid: f"audience {aid}")
    if audience is None:
        return
    minds = await invocation.minds()
    card = await with_progress(read_audience_card(minds, audience.id), show=lambda: show_progress(invocation))
    await invocation.reply(
        render_audience_card(
            audience=card.audience,
            formations=card.formations,
            progress=card.progress,
            formations_error=card.formations_error,
            progress_error=card.progress_error,
        )
    )


async def handle_ask_audience(command: AskAudience, invocation: Invocation) -> None:
    if command.audience is None or command.question is None:
        await invocation.say_text(_(ASK_AUDIENCE_USAGE))
        return
    question = command.question
    typed = f"ask audience {command.audience} {question}"  # what a refusal records (never re-run), verbatim
    if await refused_early(invocation, early_request(question=question, command=typed)):
        return  # the channel refuses asking (recorded), or the person waits: nothing was looked up
    audience = await resolve_audience(
        invocation,
        command.audience,
        rerun=lambda aid: f"ask audience {aid} {question}",  # verbatim
        confirm_fuzzy=True,
        exact_unquoted=None if command.quoted else _(ASK_AUDIENCE_USAGE),
    )
    if audience is None:
        return
    outcome = await ask_audience_with_consent(invocation, audience=audience, question=question, notify=invocation.reply)
    if outcome.message is not None:
        await invocation.reply(outcome.message)


COMMANDS: dict[type, Handler] = {ShowAudience: handle_show_audience, AskAudience: handle_ask_audience}


def _audience_of(action: dict[str, Any]) -> tuple[str, str] | None:
    state = decode_value(action.get("value"))
    audience_id, name = state.get("a"), state.get("n")
    return (audience_id, name) if isinstance(audience_id, str) and isinstance(name, str) else None


async def _submitted_question(services: Services, body: dict[str, Any], view: dict[str, Any], client: Any) -> None:
    meta = decode_value(view.get("private_metadata"))
    values = (view.get("state") or {}).get("values") or {}
    question = ((values.get(QUESTION_BLOCK) or {}).get(QUESTION_ACTION) or {}).get("value") or ""
    base = invocation_from_body(services, body, client=client, respond=None)
    channel_id = str(meta.get("c") or "")
    invocation = Invocation(  # a modal has no response URL: private notes go to the channel it was opened from
        services=services,
        client=client,
        respond=ephemeral_to(client, channel_id=channel_id, user_id=base.user_id),
        team_id=base.team_id,
        channel_id=channel_id,
        user_id=base.user_id,
        trigger_id=base.trigger_id,
    )
    try:
        async with their_work(services, team_id=invocation.team_id, user_id=invocation.user_id):
            outcome = await ask_audience_by_id(
                invocation, audience_id=str(meta.get("a") or ""), question=question.strip()
            )
    except MindsError as exc:
        await say_failure_privately(client, channel_id=channel_id, user_id=invocation.user_id, error=exc)
        return
    if outcome is not None and outcome.message is not None:
        await invocation.reply(outcome.message)


async def ask_button(invocation: Invocation, action: dict[str, Any]) -> None:
    chosen = _audience_of(action)
    if chosen is None:
        await invocation.respond(text=_("That button is out of date; show the Audience again."), replace_original=False)
        return
    view = ask_audience_modal(audience_id=chosen[0], audience_name=chosen[1], channel_id=invocation.channel_id)
    await invocation.client.views_open(trigger_id=invocation.trigger_id, view=view.to_dict())


async def ask_submitted(
    ack: AsyncAck, body: dict[str, Any], view: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext
) -> None:
    values = (view.get("state") or {}).get("values") or {}
    question = ((values.get(QUESTION_BLOCK) or {}).get(QUESTION_ACTION) or {}).get("value") or ""
    if errors := over_limit(view, {QUESTION_BLOCK: (N_("A question"), MAX_QUESTION)}):
        await ack(response_action="errors", errors=errors)
        return
    check = check_question(question)
    if not check.single:
        reason = _(
            "{reason} Asking an Audience takes one question; plan a set with `/minds plan`.", reason=check.reason
        )
        await ack(response_action="errors", errors={QUESTION_BLOCK: reason})
        return
    await ack()
    await _submitted_question(services_of(context), body, view, client)


async def _reenter(invocation: Invocation, action: dict[str, Any], click: Click, *, command: str) -> None:
    """Run ``command`` for the Audience on the card through the router, as if typed by whoever clicked."""
    chosen = _audience_of(action)
    if chosen is None:
        await invocation.respond(text=_("That button is out of date; show the Audience again."), replace_original=False)
        return
    await click.router.dispatch(command.format(audience_id=chosen[0]), invocation)


async def duplicate(invocation: Invocation, action: dict[str, Any], click: Click) -> None:
    chosen = _audience_of(action)
    if chosen is not None:  # a refusal is recorded with the Audience's name the card shows, not its id
        command = f"duplicate audience {chosen[0]}"  # verbatim
        early = SpendRequest(action="duplicate", subject=chosen[1], command=command, responses=0)
        if await refused_early(invocation, early):
            return
    await _reenter(invocation, action, click, command="duplicate audience {audience_id}")  # verbatim


async def export(invocation: Invocation, action: dict[str, Any], click: Click) -> None:
    await _reenter(invocation, action, click, command="export audience {audience_id} md")  # verbatim


async def recalibrate(invocation: Invocation, action: dict[str, Any], click: Click) -> None:
    chosen = _audience_of(action)
    await click.router.dispatch(f"recalibrate {chosen[0] if chosen else ''}", invocation)


def register(surface: Surface, services: Services) -> None:
    surface.router.add(COMMANDS)
    surface.action(AUDIENCE_ASK_ACTION)(pressed(ask_button))
    surface.view(ASK_AUDIENCE_VIEW)(ask_submitted)
    surface.action(AUDIENCE_DUPLICATE_ACTION)(pressed_with_click(duplicate))
    surface.action(AUDIENCE_EXPORT_ACTION)(pressed_with_click(export))
    surface.action(AUDIENCE_RECALIBRATE_ACTION)(pressed_with_click(recalibrate))
