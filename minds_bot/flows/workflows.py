"""Minds as two Workflow Builder steps: "Ask Minds a question" and "Plan Minds research".

Both act as the person who ran the workflow (``run_by``: the step's ``slack#/types/user_context`` input, which
only Slack fills, from the workflow's trigger), never as anyone another input names; a step without one (a
scheduled workflow) ends with a sentence and nothing is sent. Before anything is posted or sent, the gate
(``flows/access.py``) must let that person have the bot post in the step's channel (they and the bot are in it
now), and their share of the Minds budget must allow one more request; the step's Minds calls are then made as
their work (``services.fair.running``).

Owns:
- ``ask_step``: check the person and the inputs, find the Study with the workspace's own Minds key, remember which
  step waits on the question (a keyed request saved *before* the question is sent, keyed by its clientRequestId,
  so the run's end finds it again after a restart), then ask through ``flows/ask.ask_with_consent`` — the path of
  ``/minds ask``: the channel's spend policy (runs now, held for an approver in the channel, or refused), the
  spend recorded for ``/minds activity``, the same durable ask and thread. The step stays open while the run is
  followed; refused or held, it ends now with the reason.
- ``finish_ask_step`` (installed by ``minds_bot.composition`` on the direct-question handler): once the
  question's end is in its thread, complete the step — ``functions.completeSuccess`` with the thread's result
  summary, n (the answers counted) and the thread's link when Minds answered; ``functions.completeError`` with
  the thread's words and its link when the run failed, was cancelled, could not be read or was lost. Completed
  with the workspace's bot token (Slack needs no scope for it), because the step's own token is not kept.
- ``plan_step``: the same checks, remember the step under the plan's preview key (saved before the plan is
  started), start the plan in the channel through ``flows/planning.py`` (the same plan message, approvals and run
  as ``/minds plan``, requested by the person who ran the workflow); ``finish_plan_step`` (installed by
  ``minds_bot.composition``) completes it with the plan message's link once its first revision is published for
  approval, or with Minds' reason when the plan was refused.
- ``complete_step``: the one way a step ends (success, or Slack's function error in plain words); a refused
  success ends it with an error instead, and Slack's refusal of the completion itself (an error, a reply that is
  not JSON, no connection) is logged in one line — a step is never left "running" by a failure here.
A step never completes with a guess: every output is what the thread shows.
Must not touch: Block Kit, SQL, Slack request parsing (``slack/workflows.py``), deciding who may act (the gate's).
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import aiohttp
from slack_sdk.errors import SlackApiError, SlackClientError
from slack_sdk.web.async_client import AsyncWebClient

from minds_bot.flows import access, planning
from minds_bot.flows import ask as ask_flow
from minds_bot.flows.ask import DirectResult
from minds_bot.flows.invocation import Invocation
from minds_bot.flows.keys import derived_key
from minds_bot.flows.questions import check_question
from minds_bot.flows.spend import spend_key
from minds_bot.i18n import N_, _, in_channel
from minds_bot.minds import MindsError, Study, StudyDetail
from minds_bot.render import access as gate_words
from minds_bot.render.answers import render_run_ended, render_unreadable
from minds_bot.render.errors import SLACK_UNREADABLE, user_message
from minds_bot.render.errors import slack_error as read_slack_error
from minds_bot.render.modals import MAX_PLAN_REQUEST, MAX_QUESTION
from minds_bot.render.workflows import (
    ask_not_sent,
    ask_refused,
    cannot_post,
    held_for_approver,
    input_too_long,
    missing_input,
    no_runner,
    not_one_question,
    outputs_refused,
    plain_words,
    plan_not_started,
    run_ended_without_answers,
    run_lost,
    step_summary,
)
from minds_bot.services import Services
from minds_bot.store import KeyedRequest, PlanPost, SpendOutcome, TrackedRun

log = logging.getLogger(__name__)

ASK_STEP_PURPOSE = "workflow_ask_step"  # the keyed request that remembers which step waits on a question
PLAN_STEP_PURPOSE = "workflow_plan_step"  # … and which step waits on a plan's first revision
MAX_STUDY_INPUT = 200  # a Study's name or id; longer is not a Study
MAX_ID_INPUT = 40  # a Slack channel id (Workflow Builder fills it from its picker)


@dataclass(frozen=True)
class StepInput:
    """One input the step reads: its key in ``inputs``, the title Workflow Builder shows, its length limit."""

    key: str
    title: str
    limit: int


@dataclass(frozen=True)
class StepEnd:
    """How a step ends now: ``outputs`` (completeSuccess), ``error`` (completeError: mrkdwn, handed to Slack as plain
    words, ``channels`` naming the channels it mentions), or neither (it waits)."""

    outputs: dict[str, Any] | None = None
    error: str | None = None
    channels: Mapping[str, str] = field(default_factory=dict)

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


# --- who runs the step ---------------------------------------------------------------------------------------

RUN_BY = "run_by"  # the step's user_context input (``slack/surface.RUN_BY_INPUT``)
SLACK_USER_ID = re.compile(r"[UW][A-Z0-9]{2,30}")


def run_by(inputs: Any) -> str | None:
    """The person who ran the workflow: the id in the step's user_context (``{"id": "U…", "secret": …}``, filled
    by Slack from the workflow's trigger); None when there is none (a scheduled workflow) or it is unreadable."""
    context = inputs.get(RUN_BY) if isinstance(inputs, dict) else None
    user = context.get("id") if isinstance(context, dict) else None
    return user if isinstance(user, str) and SLACK_USER_ID.fullmatch(user) else None


@dataclass(frozen=True)
class StepRequest:
    """A step that may go on: the person it acts as, and its inputs as text."""

    person: str
    values: dict[str, str]


async def _admit(
    services: Services, slack: AsyncWebClient, *, team_id: str, inputs: Any, wanted: tuple[StepInput, ...]
) -> StepRequest | StepEnd:
    """The person who ran the workflow, the inputs, then the gate: they and the bot are in the channel now, and
    their share of the Minds budget allows one more request — or how the step ends instead."""
    person = run_by(inputs)
    if person is None:
        return StepEnd(error=no_runner())
    read = read_inputs(inputs, wanted)
    if read.error is not None:
        return StepEnd(error=read.error)
    channel = read.values["channel"]
    decision = await access.check(
        services, slack, team_id=team_id, user_id=person, act=access.Act.POST, channel_id=channel
    )
    if decision.refused:
        # A channel the person is not in is not named to them (it may be private); one they are in is.
        names = {} if decision.code == "not_member" else await _channel_names(slack, channel)
        return StepEnd(error=decision.reason, channels=names)
    busy = await access.budget_busy(services, team_id=team_id, user_id=person)
    if busy is not None:
        return StepEnd(error=gate_words.busy(reason=busy.reason, in_flight=busy.in_flight, seconds=busy.seconds))
    return StepRequest(person=person, values=read.values)


async def _channel_names(slack: AsyncWebClient, channel_id: str) -> dict[str, str]:
    """The channel's name for a step's error in plain words, when the bot may see it."""
    try:
        reply = await slack.conversations_info(channel=channel_id)
    except SlackApiError:
        return {}
    info = reply.get("channel")
    name = info.get("name") if isinstance(info, dict) else None
    return {channel_id: name} if isinstance(name, str) and name else {}


async def _study(services: Services, *, team_id: str, study: str) -> Study | StudyDetail:
    minds = await services.minds.client_for(team_id)
    return await planning.resolve_study(minds, study)


# --- Ask Minds a question --------------------------------------------------------------------------------------

ASK_INPUTS = (
    StepInput("study", N_("Study"), MAX_STUDY_INPUT),
    StepInput("question", N_("Question"), MAX_QUESTION),
    StepInput("channel", N_("Channel"), MAX_ID_INPUT),
)


async def ask_step(
    services: Services, slack: AsyncWebClient, *, team_id: str, execution_id: str, inputs: Any
) -> StepEnd:
    """Ask the step's question as the person who ran the workflow, as ``/minds ask`` does in its channel; ends now
    only when it cannot be asked (refused, held for an approver, not one question, no such Study)."""
    admitted = await _admit(services, slack, team_id=team_id, inputs=inputs, wanted=ASK_INPUTS)
    if isinstance(admitted, StepEnd):
        return admitted
    check = check_question(admitted.values["question"])
    if not check.single:
        return StepEnd(error=not_one_question(check.reason))
    async with services.fair.running(team_id=team_id, user_id=admitted.person):  # their Minds calls
        return await _ask(services, slack, team_id=team_id, execution_id=execution_id, step=admitted)


@dataclass
class _Said:
    """Stands in for a response URL (a step has none): what the spend path tells the person privately."""

    texts: list[str] = field(default_factory=list)

    async def __call__(self, **message: Any) -> None:
        text = message.get("text")
        if isinstance(text, str) and text:
            self.texts.append(text)


async def _ask(
    services: Services, slack: AsyncWebClient, *, team_id: str, execution_id: str, step: StepRequest
) -> StepEnd:
    channel, question = step.values["channel"], step.values["question"]
    try:
        study = await _study(services, team_id=team_id, study=step.values["study"])
    except MindsError as exc:
        return StepEnd(error=ask_not_sent(user_message(exc)))
    client_request_id = await _begin_step(
        services, team_id=team_id, execution_id=execution_id, step=step, purpose=ASK_STEP_PURPOSE
    )
    said = _Said()
    invocation = Invocation(
        services=services,
        client=slack,
        respond=said,
        team_id=team_id,
        channel_id=channel,
        user_id=step.person,
        trigger_id=execution_id,  # the spend is recorded once however often Slack delivers the step
    )
    try:
        outcome = await ask_flow.ask_with_consent(
            invocation, study=study, question=question, client_request_id=client_request_id
        )
    except MindsError as exc:
        return StepEnd(error=ask_not_sent(user_message(exc)))
    except SlackApiError as exc:  # the question's line could not be posted: nothing was sent to Minds
        return StepEnd(error=cannot_post(slack_error(exc)))
    if outcome.failure is not None:
        return StepEnd(error=ask_refused(outcome.failure))
    if outcome.run_id is not None or outcome.message is not None:
        return StepEnd()  # asked (or already asked by an earlier delivery): the run's end completes the step
    return await _not_asked(services, slack, team_id=team_id, execution_id=execution_id, channel=channel, said=said)


async def _not_asked(
    services: Services, slack: AsyncWebClient, *, team_id: str, execution_id: str, channel: str, said: _Said
) -> StepEnd:
    """The spend path sent nothing now: held for an approver in the channel, refused (what it told the person), or
    sent by an earlier delivery of this step (its run's end completes the step)."""
    spend_id = spend_key(action="ask", team_id=team_id, trigger_id=execution_id)
    spend = await services.store.get_spend(team_id=team_id, spend_id=spend_id)
    if spend is not None and spend.outcome is SpendOutcome.HELD:
        return StepEnd(error=held_for_approver(channel_id=channel), channels=await _channel_names(slack, channel))
    if spend is not None and spend.outcome in (SpendOutcome.SENT, SpendOutcome.STARTED, SpendOutcome.APPROVED):
        return StepEnd()
    return StepEnd(error=said.texts[-1] if said.texts else gate_words.policy_refused(action="ask"))


async def _begin_step(services: Services, *, team_id: str, execution_id: str, step: StepRequest, purpose: str) -> str:
    """The step's key (derived from its execution, so a retried step gets the same one), remembered first."""
    key = derived_key(purpose=purpose, team_id=team_id, trigger_id=execution_id)
    await _remember_step(
        services,
        team_id=team_id,
        purpose=purpose,
        subject=key,
        execution_id=execution_id,
        requester_id=step.person,
        channel_id=step.values["channel"],
    )
    return key


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


# --- ending a step ----------------------------------------------------------------------------------------------

# What a completion can fail with besides Slack's own refusal: no connection (a reply that is not JSON is Slack's
# refusal ``invalid_response`` already: ``services.PacedWebClient``).
COMPLETION_FAILURES = (SlackClientError, aiohttp.ClientError, TimeoutError)


def slack_error(exc: SlackApiError) -> str:
    """Slack's error code (``render.errors.slack_error``); ``invalid_response`` when there is none."""
    return read_slack_error(exc) or SLACK_UNREADABLE


async def complete_step(slack: AsyncWebClient, execution_id: str, end: StepEnd) -> None:
    """End the step: its outputs, or Slack's function error in plain words. Outputs Slack refuses end it with an
    error instead; a completion Slack refuses or cannot be reached for is logged in one line, never raised."""
    if not execution_id:
        log.warning("a workflow step without an execution id cannot be completed")
        return
    if end.outputs is not None:
        refused = await _completion(
            slack.functions_completeSuccess, execution_id, function_execution_id=execution_id, outputs=end.outputs
        )
        if refused is None:
            return
        end = StepEnd(error=outputs_refused(refused))
    error = plain_words(end.error or "", channels=end.channels)
    await _completion(slack.functions_completeError, execution_id, function_execution_id=execution_id, error=error)


async def _completion(method: Callable[..., Awaitable[Any]], execution_id: str, **arguments: Any) -> str | None:
    """None once Slack took the completion; else why not (also logged)."""
    try:
        await method(**arguments)
    except SlackApiError as exc:
        why = slack_error(exc)
    except COMPLETION_FAILURES as exc:
        why = type(exc).__name__
    else:
        ok = "outputs" in arguments
        log.info("completed a workflow step", extra={"fields": {"execution": execution_id, "ok": ok}})
        return None
    log.warning("Slack did not take a workflow step's end", extra={"fields": {"execution": execution_id, "why": why}})
    return why


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
    link = await _permalink(slack, channel=run.channel_id, ts=run.thread_ts)
    await complete_step(slack, execution_id, _ask_end(result, link=link))


def _ask_end(result: DirectResult | None, *, link: str | None) -> StepEnd:
    with in_channel():  # the workflow posts it where the thread is
        if result is None:
            return StepEnd(error=run_lost(link=link))
        if result.output is None:
            ended = render_unreadable(result.unreadable) if result.unreadable else render_run_ended(result.run.status)
            return StepEnd(error=run_ended_without_answers(ended, link=link))
        outputs = {"summary": step_summary(result.output), "n": result.output.answer_count, "thread_link": link or ""}
        return StepEnd(outputs=outputs)


async def _permalink(slack: AsyncWebClient, *, channel: str, ts: str | None) -> str | None:
    """A message's link; None when Slack would not give one (the step still ends, without it)."""
    if not ts:
        return None
    try:
        reply = await slack.chat_getPermalink(channel=channel, message_ts=ts)
    except SlackApiError as exc:
        log.warning("no link for a workflow step's message", extra={"fields": {"why": slack_error(exc)}})
        return None
    link = reply.get("permalink")
    return link if isinstance(link, str) and link else None


# --- Plan Minds research ---------------------------------------------------------------------------------------

PLAN_INPUTS = (
    StepInput("study", N_("Study"), MAX_STUDY_INPUT),
    StepInput("request", N_("Request"), MAX_PLAN_REQUEST),
    StepInput("channel", N_("Channel"), MAX_ID_INPUT),
)


async def plan_step(
    services: Services, slack: AsyncWebClient, *, team_id: str, execution_id: str, inputs: Any
) -> StepEnd:
    """Start the plan in the step's channel as ``/minds plan`` does, requested by the person who ran the workflow;
    the plan's first revision ends the step."""
    admitted = await _admit(services, slack, team_id=team_id, inputs=inputs, wanted=PLAN_INPUTS)
    if isinstance(admitted, StepEnd):
        return admitted
    async with services.fair.running(team_id=team_id, user_id=admitted.person):  # their Minds calls
        return await _plan(services, slack, team_id=team_id, execution_id=execution_id, step=admitted)


async def _plan(
    services: Services, slack: AsyncWebClient, *, team_id: str, execution_id: str, step: StepRequest
) -> StepEnd:
    channel = step.values["channel"]
    try:
        study = await _study(services, team_id=team_id, study=step.values["study"])
    except MindsError as exc:
        return StepEnd(error=plan_not_started(user_message(exc)))
    preview_key = await _begin_step(
        services, team_id=team_id, execution_id=execution_id, step=step, purpose=PLAN_STEP_PURPOSE
    )
    try:
        await planning.start_plan(
            services,
            slack=slack,
            team_id=team_id,
            channel_id=channel,
            user_id=step.person,
            study=study,
            request=step.values["request"],
            language=None,  # the Study's own language: no person's locale is known here
            preview_key=preview_key,
        )
    except SlackApiError as exc:  # "Preparing the plan…" could not be posted: nothing was started
        return StepEnd(error=cannot_post(slack_error(exc)))
    return StepEnd()  # preparing: its first revision (or Minds' refusal) completes the step


async def finish_plan_step(services: Services, run: TrackedRun, post: PlanPost, refused: str | None) -> None:
    """A new plan's first revision is in its message (or Minds refused it): complete the step that started it."""
    execution_id = await _waiting_step(services, team_id=run.team_id, purpose=PLAN_STEP_PURPOSE, subject=run.run_id)
    if execution_id is None:
        return  # planned with /minds plan, not by a workflow
    slack = await services.slack.client_for(run.team_id)
    if refused is not None:
        await complete_step(slack, execution_id, StepEnd(error=plan_not_started(refused)))
        return
    link = await _permalink(slack, channel=post.channel_id, ts=post.message_ts)
    await complete_step(slack, execution_id, StepEnd(outputs={"plan_link": link or ""}))
