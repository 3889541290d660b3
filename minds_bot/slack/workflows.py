"""Workflow Builder steps (Slack custom functions): "Ask Minds a question" and "Plan Minds research".

Owns: the two steps' Bolt ``function`` listeners (their manifest declarations are ``slack/surface.py``'s, read by
``flows/workflows.py`` under the same names) and the listener for any other ``function_executed``. Slack sends
``function_executed`` (signed and checked for the workspace and its shape like every request; Bolt acknowledges it
and hands the listener a client carrying the step's own token); the listener speaks the language of the person
who ran the workflow, runs one flow and ends the step now (``flows/workflows.complete_step``) or leaves it open for
the run's end or the plan's first revision (``finish_ask_step``/``finish_plan_step``, whose listeners are
installed here too). Every way a step ends goes through ``complete_step``; an error in the bot ends it with "…
because of an error in the bot" and is logged, the store lost mid-step with ``user_message``'s words for it (a step
that arrives while the store is down never gets here: ``slack/outage.py`` ends it). A ``function_executed`` for a
step this bot does not offer, or without an execution id, is acknowledged (never 404), logged in one line and, when
it can be, ended with a sentence.
Must not touch: Minds wire shapes, Block Kit, SQL, deciding who may act (the gate's, through the flows).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from minds_bot.flows import workflows as workflow_flow
from minds_bot.i18n import N_, _, speak
from minds_bot.render.errors import user_message
from minds_bot.render.workflows import unknown_step
from minds_bot.slack.context import services_of
from minds_bot.slack.surface import ASK_STEP, PLAN_STEP
from minds_bot.store import StoreError

if TYPE_CHECKING:
    from slack_bolt.context.ack.async_ack import AsyncAck
    from slack_bolt.context.async_context import AsyncBoltContext
    from slack_sdk.web.async_client import AsyncWebClient

    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface

log = logging.getLogger(__name__)
MAX_LOGGED_ID = 80  # a callback id from the payload, as far as it is logged


def _team(body: dict[str, Any], context: AsyncBoltContext) -> str:
    return context.team_id or body.get("team_id") or ""


async def _speak_as_runner(services: Services, client: AsyncWebClient, *, team_id: str, inputs: Any) -> None:
    """The step's errors in the language of the person who ran the workflow (else the workspace's)."""
    person, languages = workflow_flow.run_by(inputs), services.languages
    workspace = await languages.of_workspace(team_id)
    language = await languages.of_person(client, team_id=team_id, user_id=person) if person else workspace
    speak(language, channel=workspace)


async def _step(
    run: Callable[..., Awaitable[Any]],
    failed: str,
    *,
    body: dict[str, Any],
    context: AsyncBoltContext,
    client: AsyncWebClient,
) -> None:
    """A step's listener: ``run`` does the work; an error in the bot ends the step with ``failed``."""
    # Read from the event: Bolt offers ``inputs`` only when the event has them (else it logs a warning).
    inputs = (body.get("event") or {}).get("inputs")
    team_id, execution_id = _team(body, context), context.function_execution_id or ""
    if not execution_id:  # a step that could never be completed is not started either
        log.warning("a workflow step without an execution id cannot be completed")
        return
    services = services_of(context)
    try:
        await _speak_as_runner(services, client, team_id=team_id, inputs=inputs)
        end = await run(services, client, team_id=team_id, execution_id=execution_id, inputs=inputs)
    except Exception as exc:
        words = user_message(exc) if isinstance(exc, StoreError) else _(failed)  # the database, not a bug
        await workflow_flow.complete_step(client, execution_id, workflow_flow.StepEnd(error=words))
        raise  # logged by the error hook (with its traceback unless it is the store's)
    if not end.waiting:
        await workflow_flow.complete_step(client, execution_id, end)


async def ask_step(body: dict[str, Any], context: AsyncBoltContext, client: AsyncWebClient) -> None:
    """The "Ask Minds a question" step (``ASK_STEP``)."""
    failed = N_("The step could not ask Minds because of an error in the bot; it was logged.")
    await _step(workflow_flow.ask_step, failed, body=body, context=context, client=client)


async def plan_step(body: dict[str, Any], context: AsyncBoltContext, client: AsyncWebClient) -> None:
    """The "Plan Minds research" step (``PLAN_STEP``)."""
    failed = N_("The step could not start the plan because of an error in the bot; it was logged.")
    await _step(workflow_flow.plan_step, failed, body=body, context=context, client=client)


async def other_step(ack: AsyncAck, body: dict[str, Any], context: AsyncBoltContext, client: AsyncWebClient) -> None:
    """A ``function_executed`` for a step the bot does not offer, or one without an execution id."""
    await ack()
    event = body.get("event") or {}
    function = event.get("function")
    callback_id = function.get("callback_id") if isinstance(function, dict) else None
    execution_id = context.function_execution_id or ""
    log.warning(
        "a workflow step the bot does not offer",
        extra={"fields": {"callback_id": str(callback_id)[:MAX_LOGGED_ID], "execution": execution_id or None}},
    )
    if execution_id:
        await workflow_flow.complete_step(client, execution_id, workflow_flow.StepEnd(error=unknown_step()))


def register(surface: Surface, services: Services) -> None:
    surface.function(ASK_STEP)(ask_step)
    surface.function(PLAN_STEP)(plan_step)
    # Registered after the steps: Bolt hands an event to the first listener that matches, so this one hears only a
    # step the bot does not offer (its manifest is older or newer) or one without an execution id.
    surface.event("function_executed")(other_step)
