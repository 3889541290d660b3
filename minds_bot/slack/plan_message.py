"""Everything on a plan message: confirmation-question buttons and the "Answer…" dialog, "Answer all N
questions…" (one dialog when they do not fit in the message), "Review with <fallback method>", "Revise…",
**Approve & run** and "Discard" — each button's work (``slack/listeners.pressed_with_click`` makes it a Bolt
listener) and each dialog's Bolt listener, which finds ``Services`` in Bolt's context; ``slack/plan.py``
registers them.

Owns: tying the Answer, Answer-all and Revise dialogs to the person who opened them (their user id travels in the
dialog's ``private_metadata``, which only the bot writes; a submission by anyone else is refused in the dialog),
the one sequence every plan dialog's submission follows (``_dialog_refused`` says how it is acknowledged,
``_dialog_accepted`` makes the change once it closed), and answering the person
privately when something was refused. Every decision is in ``flows/planning.py`` and ``flows/research.py``;
permissions come from stored state there.
Must not touch: Minds wire shapes, SQL, Block Kit (``render/plan.py``), payload shapes (``slack/plan_payloads.py``).
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from minds_bot.flows.drafts import consume_launched
from minds_bot.flows.invocation import Invocation
from minds_bot.flows.planning import (
    Refused,
    answer_all,
    discard_plan,
    plan_to_answer,
    refusal_for_changes,
    request_fallback,
    revise_plan,
)
from minds_bot.flows.research import Started, approval_refusal, approve
from minds_bot.i18n import N_, _
from minds_bot.render.access import MODAL_NOT_YOURS
from minds_bot.render.common import decode_metadata
from minds_bot.render.drafts import has_saved_mark
from minds_bot.render.plan_dialogs import (
    answer_all_modal,
    answer_modal,
    answer_modal_refused,
    loading_modal,
    revise_modal,
)
from minds_bot.slack.context import services_of
from minds_bot.slack.listeners import Click
from minds_bot.slack.plan_payloads import (
    answers_over_limit,
    button_value,
    confirmation_text,
    field_value,
    fields_over_limit,
    first_block,
    modal_metadata,
    model_choice,
    opted_in,
    picks,
    revision_of,
    team_of,
    where,
)
from minds_bot.store import PlanPost

if TYPE_CHECKING:
    from slack_bolt.context.ack.async_ack import AsyncAck
    from slack_bolt.context.async_context import AsyncBoltContext
    from slack_bolt.context.respond.async_respond import AsyncRespond
    from slack_sdk.models.views import View
    from slack_sdk.web.async_client import AsyncWebClient

    from minds_bot.services import Services

OUT_OF_DATE = N_("This button is out of date; use the latest plan message.")
NOT_TRACKED = N_("This plan is no longer tracked by the bot.")

# A change to the plan a dialog asks for: ``flows/planning.revise_plan`` or ``answer_all`` with what the dialog
# said bound, called with the services and ``slack``, ``post``, ``user_id`` and ``revision``.
PlanChange = Callable[..., Awaitable[object]]


# --- the sequences every listener here shares ----------------------------------------------------------------


def _dialog_refused(
    body: dict[str, Any], view: dict[str, Any], *, not_yours_on: str, errors: dict[str, str]
) -> dict[str, Any]:
    """How a plan dialog's submission is acknowledged when it is refused (nothing when it is accepted): on
    ``not_yours_on`` unless it is the person it was opened for, else ``errors`` on their fields."""
    if decode_metadata(view.get("private_metadata")).get("u") != body["user"]["id"]:
        return {"response_action": "errors", "errors": {not_yours_on: _(MODAL_NOT_YOURS)}}
    return {"response_action": "errors", "errors": errors} if errors else {}


async def _dialog_accepted(
    body: dict[str, Any], view: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext, change: PlanChange
) -> None:
    """After an accepted plan dialog closed: ``change`` is made to the plan message the dialog belongs to; a
    refusal is said privately in the plan's channel (a dialog has no response URL)."""
    meta = decode_metadata(view.get("private_metadata"))
    user_id, channel_id = body["user"]["id"], meta.get("c", "")
    services = services_of(context)
    post = await services.store.get_plan_post(
        team_id=team_of(body), channel_id=channel_id, message_ts=meta.get("ts", "")
    )
    outcome = await change(services, slack=client, post=post, user_id=user_id, revision=revision_of(meta))
    if isinstance(outcome, Refused):
        await client.chat_postEphemeral(channel=channel_id, user=user_id, text=outcome.reason)


async def _post(services: Services, body: dict[str, Any]) -> PlanPost | None:
    team, channel, ts = where(body)
    return await services.store.get_plan_post(team_id=team, channel_id=channel, message_ts=ts)


async def _say_refused(respond: AsyncRespond, refused: object) -> None:
    if isinstance(refused, Refused):
        await respond(text=refused.reason, response_type="ephemeral", replace_original=False)


async def _refused_to_open(services: Services, *, body: dict[str, Any], respond: AsyncRespond, client: Any) -> bool:
    """Refuse (privately) to open the Answer or Revise modal for someone who may not change the plan."""
    post = await _post(services, body)
    if post is None:
        await _say_refused(respond, Refused(_(NOT_TRACKED)))
        return True
    refused = await refusal_for_changes(services, client, post=post, user_id=body["user"]["id"])
    await _say_refused(respond, refused)
    return refused is not None


async def _open_dialog(invocation: Invocation, click: Click, dialog: Callable[..., View], **metadata: Any) -> None:
    """Open the Answer or Revise dialog (``dialog(metadata=…)``) on the plan message clicked, unless the person may
    not change the plan; its ``private_metadata`` names the message, then ``metadata`` (the revision …)."""
    body, client = click.body, invocation.client
    if await _refused_to_open(invocation.services, body=body, respond=invocation.respond, client=client):
        return
    _team_id, channel, ts = where(body)
    view = dialog(metadata=modal_metadata(body, channel=channel, ts=ts, **metadata))
    await client.views_open(trigger_id=body.get("trigger_id"), view=view.to_dict())


async def _pressed_change(invocation: Invocation, click: Click, change: PlanChange, *, revision: int) -> None:
    """A button on the plan message asks for ``change`` as the person who pressed it; a refusal is said privately."""
    services, body = invocation.services, click.body
    post = await _post(services, body)
    outcome = await change(services, slack=invocation.client, post=post, user_id=body["user"]["id"], revision=revision)
    await _say_refused(invocation.respond, outcome)


# --- confirmation questions ----------------------------------------------------------------------------------


async def answered(invocation: Invocation, action: dict[str, Any], click: Click) -> None:
    """One of a confirmation question's options pressed on the message."""
    value = button_value(action)
    answer, question = value.get("a"), value.get("q")
    if not isinstance(answer, str) or not isinstance(question, str):
        await _say_refused(invocation.respond, Refused(_(OUT_OF_DATE)))
        return
    change = functools.partial(revise_plan, answers={question: answer})
    await _pressed_change(invocation, click, change, revision=revision_of(value))


async def answer_opened(invocation: Invocation, action: dict[str, Any], click: Click) -> None:
    """ "Answer…": the dialog for one question, answered in words."""
    value = button_value(action)
    dialog = functools.partial(answer_modal, question=confirmation_text(click.body, action))
    await _open_dialog(invocation, click, dialog, r=revision_of(value), q=value.get("q"))


async def answer_submitted(
    ack: AsyncAck, body: dict[str, Any], view: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext
) -> None:
    refused = _dialog_refused(body, view, not_yours_on="answer", errors=fields_over_limit(view))
    await ack(**refused)
    if not refused:
        question = str(decode_metadata(view.get("private_metadata")).get("q"))
        answer = field_value(view, "answer") or ""
        await _dialog_accepted(body, view, client, context, functools.partial(revise_plan, answers={question: answer}))


async def answer_all_opened(invocation: Invocation, action: dict[str, Any], click: Click) -> None:
    """ "Answer all N questions…": a dialog opened at once (loading), then filled with the plan's questions."""
    services, client, body = invocation.services, invocation.client, click.body
    opened = await client.views_open(trigger_id=body.get("trigger_id"), view=loading_modal().to_dict())
    _team_id, channel, ts = where(body)
    revision = revision_of(button_value(action))
    post = await _post(services, body)
    plan = await plan_to_answer(services, slack=client, post=post, user_id=body["user"]["id"], revision=revision)
    if isinstance(plan, Refused):
        view = answer_modal_refused(plan.reason)
    else:
        view = answer_all_modal(metadata=modal_metadata(body, channel=channel, ts=ts, r=revision), plan=plan)
    await client.views_update(view_id=opened["view"]["id"], view=view.to_dict())


async def answer_all_submitted(
    ack: AsyncAck, body: dict[str, Any], view: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext
) -> None:
    refused = _dialog_refused(body, view, not_yours_on=first_block(view), errors=answers_over_limit(view))
    await ack(**refused)
    if not refused:
        await _dialog_accepted(body, view, client, context, functools.partial(answer_all, picks=picks(view)))


# --- the plan as a whole -------------------------------------------------------------------------------------


async def fallback_requested(invocation: Invocation, action: dict[str, Any], click: Click) -> None:
    """ "Review with <fallback method>"."""
    value = button_value(action)
    method_id = value.get("m")
    if not isinstance(method_id, str):
        await _say_refused(invocation.respond, Refused(_(OUT_OF_DATE)))
        return
    change = functools.partial(request_fallback, method_id=method_id)
    await _pressed_change(invocation, click, change, revision=revision_of(value))


async def revise_opened(invocation: Invocation, action: dict[str, Any], click: Click) -> None:
    revision = revision_of(button_value(action))
    await _open_dialog(invocation, click, functools.partial(revise_modal, revision=revision), r=revision)


async def revise_submitted(
    ack: AsyncAck, body: dict[str, Any], view: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext
) -> None:
    refinement = field_value(view, "refinement")
    errors = fields_over_limit(view) if refinement else {"refinement": _("Say what should change.")}
    refused = _dialog_refused(body, view, not_yours_on="refinement", errors=errors)
    await ack(**refused)
    if not refused:
        await _dialog_accepted(body, view, client, context, functools.partial(revise_plan, refinement=refinement))


async def acknowledged(ack: AsyncAck) -> None:
    """The opt-in box ticked or a model picked: its state travels with the Approve click, where it is checked."""
    await ack()


async def approved(invocation: Invocation, action: dict[str, Any], click: Click) -> None:
    """**Approve & run**."""
    services, body = invocation.services, click.body
    blocks = (body.get("message") or {}).get("blocks") or []
    post = await _post(services, body)
    outcome = await approve(
        services,
        slack=invocation.client,
        post=post,
        user_id=body["user"]["id"],
        revision=revision_of(button_value(action)),
        opt_in=opted_in(body),
        blocks=blocks,
        connection_id=model_choice(body),
    )
    if isinstance(outcome, Started) and post is not None and has_saved_mark(blocks):
        await consume_launched(services, post=post)  # a launched plan consumes its saved drafts
    await _say_refused(invocation.respond, outcome)


async def discarded(invocation: Invocation, action: dict[str, Any], click: Click) -> None:
    services, client, body = invocation.services, invocation.client, click.body
    post = await _post(services, body)
    user_id = body["user"]["id"]
    if post is None:
        outcome: Refused | None = Refused(_(NOT_TRACKED))
    elif (refused := await approval_refusal(services, client, post=post, user_id=user_id)) is not None:
        outcome = refused
    else:
        blocks = (body.get("message") or {}).get("blocks") or []
        outcome = await discard_plan(services, slack=client, post=post, user_id=user_id, blocks=blocks)
    await _say_refused(invocation.respond, outcome)
