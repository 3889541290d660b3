"""One standalone question as a durable direct run, followed in a channel thread until its result is posted once.

Owns: the ask use case — refuse text that is not one question (offer planning instead), save the ask with its
``clientRequestId`` and any stimulus attachment before ``POST /studies/{id}/runs`` (a retry reuses both, so Minds
never runs it twice; a stimulus that left the bot's shelf is read from Slack again first, and it leaves the shelf
once Minds settled the POST — ``flows/stimulus.py``), post the parent line and "asking N Minds…" in the thread,
hand the accepted run to the tracker — and ``ask_with_consent`` (the command's way in, through the gate and the
channel's spend policy; a stimulus is downloaded only after them), and
``DirectRunHandler``, which reads the run (``GET /runs/{id}``, then the answers) and shows progress, a chart, the
top lines and quotes (closed by "Compare with…" when it has numbers), or says plainly that the run failed or was
cancelled, then tells whoever waits on the run's end (its ``ended`` listeners, which ``minds_bot.composition``
installs: a workflow step) what it was.
Must not touch: Block Kit (``render/answers.py``), SQL, or the polling schedule (``flows/tracking.py``).
"""

from __future__ import annotations

import functools
import json
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from slack_sdk.web.async_client import AsyncWebClient

from minds_bot.flows import stimulus as stimulus_flow
from minds_bot.flows.drawing import draw
from minds_bot.flows.invocation import Invocation
from minds_bot.flows.keys import derived_key
from minds_bot.flows.outcome import react_to_request
from minds_bot.flows.questions import check_question
from minds_bot.flows.spend import SpendRequest, consent, settle, withdraw
from minds_bot.flows.stimulus import (
    MAX_STIMULUS_BYTES,
    Problem,
    SharedStimulus,
    StimulusRefused,
    attach_or_refusal,
)
from minds_bot.flows.tracking import Observation, say_in_thread
from minds_bot.i18n import _, in_channel, sentences, speak
from minds_bot.minds import (
    AgentRun,
    MalformedResponse,
    MindsError,
    MindsTransportError,
    NotFound,
    PanelMindsNotReady,
    PlanningRequired,
    RateLimited,
    ServerError,
    Study,
    StudyDetail,
    StudyOutput,
    parse_output,
)
from minds_bot.render import Message, escape, results, unescape
from minds_bot.render.answers import (
    distribution,
    render_already_asked,
    render_ask_failed,
    render_asking,
    render_finished,
    render_not_on_record,
    render_parent,
    render_plan_offer,
    render_planning_required,
    render_result,
    render_retry_refused,
    render_run_ended,
    render_run_progress,
    render_unreadable,
)
from minds_bot.render.cancel import with_cancel
from minds_bot.render.charts import chart_not_drawn, result_chart
from minds_bot.render.compare import with_compare
from minds_bot.render.errors import minds_error_text, user_message
from minds_bot.render.runs import lost_text
from minds_bot.render.stimulus import refusal_text
from minds_bot.services import PacedWebClient, Services
from minds_bot.services.background import Resume
from minds_bot.store import DirectAsk, RunKind, TrackedRun

log = logging.getLogger(__name__)

# Outcomes where Minds may or may not have accepted the run: a retry with the same clientRequestId is safe.
RESUME_WINDOW = timedelta(hours=1)  # older unanswered asks are left alone: nobody is waiting for them any more
UNCERTAIN = (MindsTransportError, ServerError, RateLimited, MalformedResponse, PanelMindsNotReady)


@dataclass(frozen=True)
class AskOutcome:
    """What the asker is told privately: ``message`` (None when the thread says it all); ``run_id`` when Minds
    accepted the question, ``failure`` (what the thread says) when Minds refused it or could not be reached."""

    message: Message | None = None
    run_id: str | None = None
    failure: Message | None = None


def mind_count(study: Study | StudyDetail, audience_ids: Sequence[str] | None = None) -> int:
    """The Minds a question asks: of every Audience of the Study, or of ``audience_ids`` only."""
    chosen = [a for a in study.audiences if audience_ids is None or a.id in audience_ids]
    return sum(a.mind_count if a.mind_count is not None else len(a.minds) for a in chosen)


async def ask(
    services: Services,
    slack: AsyncWebClient,
    *,
    study: Study | StudyDetail,  # listed or in full: only its id, name and Audiences are read
    question: str,
    client_request_id: str,
    team_id: str,
    channel_id: str,
    user_id: str,
    thread_ts: str | None = None,
    attachments: list[dict[str, str]] | None = None,
    audience_ids: list[str] | None = None,
) -> AskOutcome:
    """Ask ``question`` in ``study`` (of ``audience_ids`` only, when given) unless it is more than one question.
    The question and its answers go in the thread of ``thread_ts`` when given (a message someone asked about), else
    under a new message.
    ``attachments``: the question's stimulus for Minds (``flows/stimulus.py``), saved with the ask."""
    check = check_question(question)
    if not check.single:
        offer = render_plan_offer(study_id=study.id, study_name=study.name, text=question, reason=check.reason)
        return AskOutcome(offer)
    existing = await services.store.get_direct_ask(client_request_id)
    if existing is not None and existing.run_id is not None:
        return AskOutcome(render_already_asked())
    if existing is not None and existing.thread_ts is not None:
        thread_ts = existing.thread_ts  # Try again after a failure: the same thread
    else:
        with in_channel():  # the question's thread is the channel's
            parent = render_parent(user_id=user_id, study_name=study.name, question=question)
        posted = await slack.chat_postMessage(
            channel=channel_id, thread_ts=thread_ts, text=parent, unfurl_links=False, unfurl_media=False
        )
        thread_ts = thread_ts or posted["ts"]
    stored, _created = await services.store.begin_direct_ask(
        DirectAsk(
            client_request_id=client_request_id,
            team_id=team_id,
            study_id=study.id,
            channel_id=channel_id,
            thread_ts=thread_ts,
            question=question,
            requester_id=user_id,
            attachments=attachments or None,
            audience_ids=audience_ids or None,
        )
    )
    return await send(services, slack, ask=stored, study=study)


async def ask_with_consent(
    invocation: Invocation,
    *,
    study: Study | StudyDetail,  # listed or in full: only its id, name and Audiences are read
    question: str,
    thread_ts: str | None = None,
    client_request_id: str | None = None,
    attachments: list[dict[str, str]] | None = None,
    stimulus: SharedStimulus | None = None,
    audience_ids: list[str] | None = None,
) -> AskOutcome:
    """``/minds ask`` (or the Ask dialog with only some Audiences left in: ``audience_ids``; or "Ask Minds about this",
    answered in ``thread_ts``, with its ``stimulus``: a file shared in Slack) as a person asked it: one question
    passes the gate and the channel's spend policy first (it may run, be held for an approver, or be refused —
    ``flows/spend.py``), counting the Minds of the Audiences asked as the responses it asks for; what Minds answered
    the POST is recorded with the spend. The stimulus is downloaded only once the question may go now (a held one
    keeps the file's id and downloads it when approved; a refused one never); when it cannot be, nothing is asked
    and the asker is told why."""
    services = invocation.services
    if client_request_id is None:
        client_request_id = derived_key(purpose="ask", team_id=invocation.team_id, trigger_id=invocation.trigger_id)
    spend = None
    if check_question(question).single:  # more than one question is offered planning: nothing is sent
        command = held_command(
            study_id=study.id,
            question=question,
            thread_ts=thread_ts,
            attachments=attachments,
            stimulus=stimulus,
            audience_ids=audience_ids,
        )
        responses = mind_count(study, audience_ids) or None
        request = SpendRequest(action="ask", subject=question, command=command, responses=responses)
        spend = await consent(invocation, request)
        if spend is None:
            return AskOutcome()
        if stimulus is not None:
            fetched = await attach_or_refusal(services, invocation.client, stimulus, owner=client_request_id)
            if isinstance(fetched, str):
                await withdraw(services, spend)  # nothing went to Minds
                await invocation.say_text(
                    sentences(fetched, _("Your question was not sent: “{question}”", question=escape(question)))
                )
                return AskOutcome()
            attachments = [*(attachments or []), *fetched]
    outcome = await ask(
        services,
        invocation.client,
        study=study,
        question=question,
        client_request_id=client_request_id,
        team_id=invocation.team_id,
        channel_id=invocation.channel_id,
        user_id=invocation.user_id,
        thread_ts=thread_ts,
        attachments=attachments,
        audience_ids=audience_ids,
    )
    if spend is not None:
        stored = await services.store.get_direct_ask(client_request_id)
        started = None if stored is None else (True if stored.run_id else (False if stored.settled else None))
        await settle(services, spend, started=started, detail=stored.run_id if stored else None)
    return outcome


def held_command(
    *,
    study_id: str,
    question: str,
    thread_ts: str | None,
    attachments: list[dict[str, str]] | None = None,
    stimulus: SharedStimulus | None = None,
    audience_ids: list[str] | None = None,
) -> str:
    """What an approver's click re-runs: the command as typed, or for a question about a message (answered in its
    thread) or with a stimulus the Study, question, thread, attachments and the stimulus's Slack id as JSON (the
    file itself is downloaded only once approved)."""
    if thread_ts is None and not attachments and stimulus is None and not audience_ids:
        return f"ask {study_id} {question}"
    saved: dict[str, Any] = {
        "study_id": study_id,
        "question": question,
        "thread_ts": thread_ts,
        "attachments": attachments or None,
    }
    saved |= {"audience_ids": list(audience_ids)} if audience_ids else {}
    return json.dumps(saved | ({"stimulus": stimulus.ref()} if stimulus is not None else {}))


@dataclass(frozen=True)
class HeldQuestion:
    study_id: str
    question: str
    thread_ts: str | None
    attachments: list[dict[str, str]] | None
    stimulus: SharedStimulus | None = None
    audience_ids: list[str] | None = None


def held_question(command: str) -> HeldQuestion | None:
    """The question a ``held_command`` JSON saved; None for a command text or anything else."""
    try:
        saved = json.loads(command)
        thread_ts, attachments = saved.get("thread_ts"), saved.get("attachments")
        return HeldQuestion(
            study_id=str(saved["study_id"]),
            question=str(saved["question"]),
            thread_ts=None if thread_ts is None else str(thread_ts),
            attachments=[{str(k): str(v) for k, v in a.items()} for a in attachments] if attachments else None,
            stimulus=SharedStimulus.from_ref(saved.get("stimulus")),
            audience_ids=[str(a) for a in saved["audience_ids"]] if saved.get("audience_ids") else None,
        )
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


async def retry(
    services: Services, slack: AsyncWebClient, *, client_request_id: str, team_id: str, user_id: str
) -> AskOutcome:
    """The Try again button: the same saved ask, the same clientRequestId. Only its asker may retry, and only
    from the workspace that asked (another workspace never reaches this one's Minds key or channels)."""
    stored = await services.store.get_direct_ask(client_request_id)
    if stored is None or stored.team_id != team_id:
        return AskOutcome(render_not_on_record())
    if stored.requester_id != user_id:
        return AskOutcome(render_retry_refused(stored.requester_id))
    if stored.run_id is not None:
        return AskOutcome(render_already_asked())
    minds = await services.minds.client_for(stored.team_id)
    study = await minds.get_study(stored.study_id)
    await send(services, slack, ask=stored, study=study)
    return AskOutcome()


async def send(services: Services, slack: AsyncWebClient, *, ask: DirectAsk, study: Study | StudyDetail) -> AskOutcome:
    """POST the saved ask and follow it. Failures are reported in the thread, where the question was posted
    (and returned as ``failure``)."""
    with in_channel():  # said in the question's thread
        asked = len(ask.audience_ids) if ask.audience_ids else len(study.audiences)
        asking = render_asking(minds=mind_count(study, ask.audience_ids), audiences=asked)
    posted = await slack.chat_postMessage(channel=ask.channel_id, thread_ts=ask.thread_ts, **asking.as_kwargs())
    progress_ts = posted["ts"]
    minds = await services.minds.client_for(ask.team_id)
    try:  # a stimulus that left the bot's shelf (a Try again later, a restart) is read from Slack again first
        await stimulus_flow.restock(services, slack, ask.attachments, owner=ask.client_request_id)
    except StimulusRefused as exc:
        said = unescape(refusal_text(exc.problem.value, name=exc.name, limit=MAX_STIMULUS_BYTES))  # escaped once
        transient = exc.problem is Problem.DOWNLOAD_FAILED
        return await _failed(services, slack, ask=ask, progress_ts=progress_ts, said=said, transient=transient)
    try:
        outcome = await minds.start_direct_run(
            ask.study_id,
            question=ask.question,
            client_request_id=ask.client_request_id,
            attachments=stimulus_flow.for_minds(ask.attachments),
            audience_ids=ask.audience_ids,
        )
    except MindsError as exc:
        transient = isinstance(exc, UNCERTAIN)
        return await _failed(
            services, slack, ask=ask, progress_ts=progress_ts, said=user_message(exc), transient=transient
        )
    stimulus_flow.release(services, ask.client_request_id)  # Minds fetched its file (or never will): it leaves
    if isinstance(outcome, PlanningRequired):
        await services.store.settle_direct_ask(ask.client_request_id)
        with in_channel():
            offer = render_planning_required(
                study_id=study.id, study_name=study.name, question=ask.question, reason=outcome.reason
            )
        await slack.chat_update(channel=ask.channel_id, ts=progress_ts, **offer.as_kwargs())
        return AskOutcome(failure=offer)
    await services.store.attach_direct_run(client_request_id=ask.client_request_id, run_id=outcome.run_id)
    await services.tracker.track(
        TrackedRun(
            team_id=ask.team_id,
            run_id=outcome.run_id,
            study_id=ask.study_id,
            kind=RunKind.DIRECT,
            client_request_id=ask.client_request_id,
            channel_id=ask.channel_id,
            thread_ts=ask.thread_ts,
            progress_ts=progress_ts,
            next_poll_at=services.clock(),
        )
    )
    return AskOutcome(run_id=outcome.run_id)


async def _failed(
    services: Services, slack: AsyncWebClient, *, ask: DirectAsk, progress_ts: str, said: str, transient: bool
) -> AskOutcome:
    """The ask was not accepted: said in its thread. ``transient`` (no definitive answer) waits for the asker's Try
    again; otherwise it is settled for good — never re-sent, not even after a restart — and its file leaves."""
    if transient:  # not for another replica either: the asker decides
        await services.store.release_direct_ask(ask.client_request_id)
    else:
        await services.store.settle_direct_ask(ask.client_request_id)
        stimulus_flow.release(services, ask.client_request_id)
    with in_channel():
        failed = render_ask_failed(said, client_request_id=ask.client_request_id if transient else None)
    await slack.chat_update(channel=ask.channel_id, ts=progress_ts, **failed.as_kwargs())
    return AskOutcome(failure=failed)


async def resume_pending_asks(services: Services, *, abandoned_only: bool = False) -> int:
    """After a restart: re-send every recent ask that never got a definitive answer from Minds, with its own
    clientRequestId (Minds runs it at most once), so a question typed just before a crash is not lost.
    ``abandoned_only``: only asks whose sender died (its lease ran out), not those waiting for Try again."""
    cutoff = services.clock() - RESUME_WINDOW
    resumed = 0
    # Leased to this replica: of several replicas exactly one re-sends each, and an ask its asker's replica is
    # sending right now (a live lease) is left alone.
    for ask in await services.store.claim_pending_direct_asks(holder=services.replica, abandoned_only=abandoned_only):
        if ask.created_at is None or ask.created_at < cutoff:
            await services.store.release_direct_ask(ask.client_request_id)  # nobody waits for it any more
            continue
        speak(await services.languages.of_workspace(ask.team_id))  # nobody is asking now: the workspace's
        slack = await services.slack.client_for(ask.team_id)
        minds = await services.minds.client_for(ask.team_id)
        await send(services, slack, ask=ask, study=await minds.get_study(ask.study_id))
        resumed += 1
    return resumed


def ask_resume(services: Services) -> Resume:
    """Runs ``resume_pending_asks`` off the start-up path: at start-up for every interrupted ask, then once a
    lease for the asks another replica was sending when it died (the asker can still press Try again)."""
    return Resume(
        "ask resume",  # the loop's name in the log, verbatim
        resume=functools.partial(resume_pending_asks, services),
        every=services.settings.minds_bot_lease_seconds,
        failure="resuming pending questions failed",  # for logs, verbatim
        resumed="re-sent questions a restart interrupted",  # for logs, verbatim
        logger=log,
    )


# --- following the run -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DirectResult:
    run: AgentRun
    output: StudyOutput | None = None
    unreadable: str | None = None  # why the answers could not be read (terminal: nothing assumed)


DirectEnd = Callable[[TrackedRun, DirectResult | None], Awaitable[None]]


class DirectRunHandler:
    """``RunHandler`` for ``RunKind.DIRECT``: reads with GETs only; what the thread shows for each state.
    ``ended`` are told once the thread shows the end (``None``: Minds no longer finds the run)."""

    def __init__(self, services: Services) -> None:
        self._services = services
        self.ended: list[DirectEnd] = []

    async def _tell_ended(self, run: TrackedRun, result: DirectResult | None) -> None:
        for listener in self.ended:
            try:
                await listener(run, result)
            except Exception:  # the result is in the thread; posting it again would not help
                log.exception("telling a run's end failed", extra={"fields": {"run": run.run_id}})

    async def observe(self, run: TrackedRun) -> Observation:
        minds = await self._services.minds.client_for(run.team_id)
        agent = await minds.get_run(run.run_id)
        if agent.status != "completed" or agent.message_id is None:
            return Observation(visible=agent.status, terminal=agent.is_terminal, detail=DirectResult(agent))
        try:
            answers = await minds.get_message_answers(run.study_id, agent.message_id)
            output = parse_output(answers.output_data)
        except (MalformedResponse, NotFound) as exc:
            # Final: polling again would not make an unreadable answer readable.
            return Observation(
                visible="completed", terminal=True, detail=DirectResult(agent, unreadable=minds_error_text(exc))
            )
        return Observation(visible="completed", terminal=True, detail=DirectResult(agent, output))

    async def show_progress(self, run: TrackedRun, observation: Observation) -> str | None:
        slack = await self._services.slack.client_for(run.team_id)
        message = with_cancel(render_run_progress(observation.visible), run.run_id)
        if run.progress_ts:
            await slack.edit_progress(channel=run.channel_id, ts=run.progress_ts, **message.as_kwargs())
            return run.progress_ts
        posted = await slack.chat_postMessage(channel=run.channel_id, thread_ts=run.thread_ts, **message.as_kwargs())
        return posted["ts"]

    async def post_terminal(self, run: TrackedRun, observation: Observation) -> None:
        slack = await self._services.slack.client_for(run.team_id)
        result: DirectResult = observation.detail
        if result.output is None:
            ended = render_unreadable(result.unreadable) if result.unreadable else render_run_ended(result.run.status)
            await self._post(slack, run, ended)
            await react_to_request(slack, run, status=result.run.status)
            await self._tell_ended(run, result)
            return
        shares = distribution(result.output)
        charted = await self._upload_chart(slack, run, shares) if shares is not None else False
        message_id = result.run.message_id or ""
        message = render_result(result.output, study_id=run.study_id, message_id=message_id, charted=charted)
        if shares is not None:  # a result with numbers can be compared with another run's ("Compare with…")
            message = with_compare(message, study_id=run.study_id, run_id=run.run_id)
        await self._post(slack, run, message)
        await react_to_request(slack, run, status=result.run.status)
        await self._tell_ended(run, result)

    async def post_lost(self, run: TrackedRun, reads: int) -> None:
        slack = await self._services.slack.client_for(run.team_id)
        await say_in_thread(slack, run, lost_text("question", reads=reads))
        await self._tell_ended(run, None)

    async def _post(self, slack: PacedWebClient, run: TrackedRun, message: Message) -> None:
        await slack.chat_postMessage(channel=run.channel_id, thread_ts=run.thread_ts, **message.as_kwargs())
        if run.progress_ts:
            done = render_finished()
            await slack.edit_progress(channel=run.channel_id, ts=run.progress_ts, text=done.text, blocks=[])

    async def _upload_chart(self, slack: AsyncWebClient, run: TrackedRun, shares: results.QuestionResult) -> bool:
        """The chart of ``shares`` in the thread; False (and the thread says why) when no font here can draw it."""
        png = await draw(result_chart, result=shares, title=shares.title)
        if png is None:
            await slack.chat_postMessage(channel=run.channel_id, thread_ts=run.thread_ts, text=chart_not_drawn())
            return False
        await slack.files_upload_v2(
            channel=run.channel_id,
            thread_ts=run.thread_ts,
            file=png,
            filename="answers.png",
            title=shares.title[:250],
            alt_txt=_("% of respondents per option for: {question}", question=shares.title)[:1000],
        )
        return True
