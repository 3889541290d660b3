"""Minds as two Workflow Builder steps: "Ask Minds a question" and "Plan Minds research".

Owns:
- ``ask_step``: check the step's inputs, find the Study with the workspace's own Minds key, remember which step
  waits on the question (a keyed request saved *before* the question is sent, keyed by its clientRequestId, so
  the run's end finds it again after a restart), then ask through ``flows/ask.py`` — the same durable ask and
  thread as ``/minds ask``. The step stays open while the run is followed.
- ``finish_ask_step`` (installed with ``on_direct_end``): once the question's end is in its thread, complete the
  step — ``functions.completeSuccess`` with the thread's result summary, n (the answers counted) and the thread's
  link when Minds answered; ``functions.completeError`` with the thread's words and its link when the run failed,
  was cancelled, could not be read or was lost. Completed with the workspace's bot token (Slack needs no scope for
  it), because the step's own token is not kept.
- ``plan_step``: check the inputs, find the Study, remember the step under the plan's preview key (saved before
  the plan is started), start the plan in the channel through ``flows/planning.py`` (the same plan message,
  approvals and run as ``/minds plan``); ``finish_plan_step`` (installed with ``on_plan_ready``) completes it
  with the plan message's link once its first revision is published for approval, or with Minds' reason when
  the plan was refused.
A step never completes with a guess: every output is what the thread shows.
Must not touch: Block Kit, SQL, Slack request parsing (``slack/workflows.py``).
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from typing import Any

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from minds_bot.flows import ask as ask_flow
from minds_bot.flows import planning
from minds_bot.flows.ask import DirectResult
from minds_bot.flows.keys import derived_key
from minds_bot.flows.questions import check_question
from minds_bot.i18n import N_, _, in_channel
from minds_bot.minds import MindsError
from minds_bot.render.answers import render_run_ended, render_unreadable
from minds_bot.render.errors import user_message
from minds_bot.render.modals import MAX_PLAN_REQUEST, MAX_QUESTION
from minds_bot.render.workflows import (
    ask_not_sent,
    ask_refused,
    cannot_post,
    input_too_long,
    missing_input,
    not_one_question,
    plan_not_started,
    run_ended_without_answers,
    run_lost,
    step_summary,
)
from minds_bot.services import Services
from minds_bot.store import KeyedRequest, PlanPost, RunKind, TrackedRun

log = logging.getLogger(__name__)

ASK_STEP_PURPOSE = "workflow_ask_step"  # the keyed request that remembers which step waits on a question
PLAN_STEP_PURPOSE = "workflow_plan_step"  # … and which step waits on a plan's first revision
MAX_STUDY_INPUT = 200  # a Study's name or id; longer is not a Study
MAX_ID_INPUT = 40  # a Slack channel or user id (Workflow Builder fills these from its pickers)


@dataclass(frozen=True)
class StepInput:
    """One input the step reads: its key in ``inputs``, the title Workflow Builder shows, its length limit."""

    key: str
    title: str
    limit: int


@dataclass(frozen=True)
class StepEnd:
    """How a step ends now: ``outputs`` (completeSuccess), ``error`` (completeError), or neither (it waits)."""

    outputs: dict[str, Any] | None = None
    error: str | None = None

    @property
    def waiting(self) -> bool:
        return self.outputs is None and self.error is None


@dataclass(frozen=True)
class StepInputs:
    values: dict[str, str] = field(default_factory=dict)
    error: str | None = None


def read_inputs(inputs: Any, wanted: tuple[StepInput, ...]) -> StepInputs:
    """Each wanted input as trimmed text, or the first one that is missing or too long, in plain words."""
    given = inputs if isinstance(inputs, dict) else {}
    values: dict[str, str] = {}
    for spec in wanted:
        value = given.get(spec.key)
        text = value.strip() if isinstance(value, str) else ""
        if not text:
            return StepInputs(error=missing_input(_(spec.title)))
        if len(text) > spec.limit:
            return StepInputs(error=input_too_long(_(spec.title), limit=spec.limit))
        values[spec.key] = text
    return StepInputs(values=values)


# --- Ask Minds a question --------------------------------------------------------------------------------------

ASK_INPUTS = (
    StepInput("study", N_("Study"), MAX_STUDY_INPUT),
    StepInput("question", N_("Question"), MAX_QUESTION),
    StepInput("channel", N_("Channel"), MAX_ID_INPUT),
    StepInput("asked_by", N_("Asked by"), MAX_ID_INPUT),
)


async def ask_step(
    services: Services, slack: AsyncWebClient, *, team_id: str, execution_id: str, inputs: Any
) -> StepEnd:
    """Send the step's question to Minds in its channel's thread; ends now only when it cannot be asked."""
    read = read_inputs(inputs, ASK_INPUTS)
    if read.error is not None:
        return StepEnd(error=read.error)
    values = read.values
    check = check_question(values["question"])
    if not check.single:
        return StepEnd(error=not_one_question(check.reason))
    try:
        minds = await services.minds.client_for(team_id)
        study = await planning.resolve_study(minds, values["study"])
    except MindsError as exc:
        return StepEnd(error=ask_not_sent(user_message(exc)))
    client_request_id = derived_key(purpose=ASK_STEP_PURPOSE, team_id=team_id, trigger_id=execution_id)
    await _remember_step(
        services,
        team_id=team_id,
        purpose=ASK_STEP_PURPOSE,
        subject=client_request_id,
        execution_id=execution_id,
        requester_id=values["asked_by"],
        channel_id=values["channel"],
    )
    try:
        outcome = await ask_flow.ask(
            services,
            slack,
            study=study,
            question=values["question"],
            client_request_id=client_request_id,
            team_id=team_id,
            channel_id=values["channel"],
            user_id=values["asked_by"],
        )
    except MindsError as exc:
        return StepEnd(error=ask_not_sent(user_message(exc)))
    except SlackApiError as exc:  # the question's line could not be posted: nothing was sent to Minds
        return StepEnd(error=cannot_post(str(exc.response.get("error") or "")))
    if outcome.failure is not None:
        return StepEnd(error=ask_refused(outcome.failure))
    return StepEnd()  # asked (or already asked by an earlier delivery): the run's end completes the step


async def _remember_step(
    services: Services,
    *,
    team_id: str,
    purpose: str,
    subject: str,
    execution_id: str,
    requester_id: str,
    channel_id: str,
) -> None:
    """Saved before the work starts, so its end (even after a restart) finds the step that waits on it."""
    await services.store.save_keyed_request(
        KeyedRequest(
            team_id=team_id,
            key=f"{purpose}:{subject}",
            purpose=purpose,
            subject=subject,
            arguments=json.dumps({"function_execution_id": execution_id}),
            requester_id=requester_id,
            channel_id=channel_id,
        )
    )


async def _waiting_step(services: Services, *, team_id: str, purpose: str, subject: str) -> str | None:
    """The function execution id of the step waiting on ``subject``, if a workflow started it."""
    waiting = await services.store.get_keyed_request(team_id=team_id, key=f"{purpose}:{subject}")
    if waiting is None:
        return None
    execution_id = json.loads(waiting.arguments).get("function_execution_id")
    return execution_id if isinstance(execution_id, str) and execution_id else None


async def _complete(slack: AsyncWebClient, execution_id: str, end: StepEnd) -> None:
    if end.outputs is not None:
        await slack.functions_completeSuccess(function_execution_id=execution_id, outputs=end.outputs)
    else:
        await slack.functions_completeError(function_execution_id=execution_id, error=end.error or "")
    log.info("completed a workflow step", extra={"fields": {"execution": execution_id, "ok": end.outputs is not None}})


async def finish_ask_step(services: Services, run: TrackedRun, result: DirectResult | None) -> None:
    """The question's end is in its thread: complete the step that asked it, if one did."""
    if run.client_request_id is None:
        return
    execution_id = await _waiting_step(
        services, team_id=run.team_id, purpose=ASK_STEP_PURPOSE, subject=run.client_request_id
    )
    if execution_id is None:
        return  # asked with /minds ask, not by a workflow
    slack = await services.slack.client_for(run.team_id)
    await _complete(slack, execution_id, _ask_end(result, link=await _thread_link(slack, run)))


def _ask_end(result: DirectResult | None, *, link: str | None) -> StepEnd:
    with in_channel():  # the workflow posts it where the thread is
        if result is None:
            return StepEnd(error=run_lost(link=link))
        if result.output is None:
            ended = render_unreadable(result.unreadable) if result.unreadable else render_run_ended(result.run.status)
            return StepEnd(error=run_ended_without_answers(ended, link=link))
        outputs = {"summary": step_summary(result.output), "n": result.output.answer_count, "thread_link": link or ""}
        return StepEnd(outputs=outputs)


async def _thread_link(slack: AsyncWebClient, run: TrackedRun) -> str | None:
    if not run.thread_ts:
        return None
    reply = await slack.chat_getPermalink(channel=run.channel_id, message_ts=run.thread_ts)
    link = reply.get("permalink")
    return link if isinstance(link, str) else None


# --- Plan Minds research ---------------------------------------------------------------------------------------

PLAN_INPUTS = (
    StepInput("study", N_("Study"), MAX_STUDY_INPUT),
    StepInput("request", N_("Request"), MAX_PLAN_REQUEST),
    StepInput("channel", N_("Channel"), MAX_ID_INPUT),
    StepInput("requested_by", N_("Requested by"), MAX_ID_INPUT),
)


async def plan_step(
    services: Services, slack: AsyncWebClient, *, team_id: str, execution_id: str, inputs: Any
) -> StepEnd:
    """Start the plan in the step's channel, as ``/minds plan`` does; the plan's first revision ends the step."""
    read = read_inputs(inputs, PLAN_INPUTS)
    if read.error is not None:
        return StepEnd(error=read.error)
    values = read.values
    try:
        minds = await services.minds.client_for(team_id)
        study = await planning.resolve_study(minds, values["study"])
    except MindsError as exc:
        return StepEnd(error=plan_not_started(user_message(exc)))
    preview_key = derived_key(purpose=PLAN_STEP_PURPOSE, team_id=team_id, trigger_id=execution_id)
    await _remember_step(
        services,
        team_id=team_id,
        purpose=PLAN_STEP_PURPOSE,
        subject=preview_key,
        execution_id=execution_id,
        requester_id=values["requested_by"],
        channel_id=values["channel"],
    )
    try:
        await planning.start_plan(
            services,
            slack=slack,
            team_id=team_id,
            channel_id=values["channel"],
            user_id=values["requested_by"],
            study=study,
            request=values["request"],
            language=None,  # the Study's own language: no person's locale is known here
            preview_key=preview_key,
        )
    except SlackApiError as exc:  # "Preparing the plan…" could not be posted: nothing was started
        return StepEnd(error=cannot_post(str(exc.response.get("error") or "")))
    return StepEnd()  # preparing: its first revision (or Minds' refusal) completes the step


async def finish_plan_step(services: Services, run: TrackedRun, post: PlanPost, refused: str | None) -> None:
    """A new plan's first revision is in its message (or Minds refused it): complete the step that started it."""
    execution_id = await _waiting_step(services, team_id=run.team_id, purpose=PLAN_STEP_PURPOSE, subject=run.run_id)
    if execution_id is None:
        return  # planned with /minds plan, not by a workflow
    slack = await services.slack.client_for(run.team_id)
    if refused is not None:
        await _complete(slack, execution_id, StepEnd(error=plan_not_started(refused)))
        return
    reply = await slack.chat_getPermalink(channel=post.channel_id, message_ts=post.message_ts)
    await _complete(slack, execution_id, StepEnd(outputs={"plan_link": str(reply.get("permalink") or "")}))


def on_plan_ready(services: Services, listener: Any) -> None:
    """Call ``listener`` when a new plan's first revision is published or refused (the handler must be registered)."""
    services.run_handlers[RunKind.PLAN].ended.append(listener)
