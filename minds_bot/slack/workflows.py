"""Workflow Builder steps (Slack custom functions): "Ask Minds a question" and "Plan Minds research".

Owns: the two steps' manifest declarations (``WorkflowStep``: inputs and outputs, read by ``flows/workflows.py``
under the same names) and their Bolt ``function`` listeners. Slack sends ``function_executed`` (signed and
checked for the workspace like every request; Bolt acknowledges it and hands the listener a client carrying
the step's own token); the listener runs one flow and completes the step now (``complete``/``fail``) or leaves
it open for the run's end or the plan's first revision (``flows/workflows.finish_ask_step``/``finish_plan_step``,
whose listeners are installed here too).
Must not touch: Minds wire shapes, Block Kit or SQL.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from minds_bot.flows import workflows as workflow_flow
from minds_bot.flows.ask import on_direct_end
from minds_bot.i18n import N_, _
from minds_bot.slack.surface import ASK_STEP, PLAN_STEP

if TYPE_CHECKING:
    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface

log = logging.getLogger(__name__)


def _team(body: dict[str, Any], context: Any) -> str:
    return context.team_id or body.get("team_id") or ""


async def _end(end: workflow_flow.StepEnd, *, complete: Any, fail: Any) -> None:
    if end.error is not None:
        await fail(end.error)
    elif end.outputs is not None:
        await complete(end.outputs)


def register(surface: Surface, services: Services) -> None:
    async def finish(run: Any, result: Any) -> None:
        await workflow_flow.finish_ask_step(services, run, result)

    async def plan_ready(run: Any, post: Any, refused: str | None) -> None:
        await workflow_flow.finish_plan_step(services, run, post, refused)

    on_direct_end(services, finish)
    workflow_flow.on_plan_ready(services, plan_ready)

    def step(run: Callable[..., Awaitable[Any]], failed: str) -> Callable[..., Awaitable[None]]:
        """A step's listener: ``run`` does the work; an error in the bot ends the step with ``failed``."""

        async def listener(
            body: dict[str, Any], context: Any, inputs: Any, client: Any, complete: Any, fail: Any
        ) -> None:
            try:
                end = await run(
                    services,
                    client,
                    team_id=_team(body, context),
                    execution_id=context.function_execution_id or "",
                    inputs=inputs,
                )
            except Exception:
                await fail(_(failed))
                raise
            await _end(end, complete=complete, fail=fail)

        return listener

    surface.function(ASK_STEP)(
        step(workflow_flow.ask_step, N_("The step could not ask Minds because of an error in the bot; it was logged."))
    )
    surface.function(PLAN_STEP)(
        step(
            workflow_flow.plan_step,
            N_("The step could not start the plan because of an error in the bot; it was logged."),
        )
    )
