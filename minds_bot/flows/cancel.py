"""Cancelling a run the bot follows (``POST /runs/{runId}/cancel``), from the Cancel button on its progress message.

Owns: who may cancel (asked of the gate, ``flows/access.py``: whoever started the run — the plan's requester or the
asker — the channel's approvers and workspace admins, while they are in the run's channel; decided from stored
records and Slack, never from the button), refusing a
click on a run that already ended (the store says its result is posted, or Minds says it is no longer live:
409), and after Minds accepts, remembering who cancelled (the run's outcome line names them), marking the
progress message and polling the run at once so the thread shows
``cancelled`` in Minds' words with what had finished (the run handlers' usual terminal post).
Research runs are cancelled through the same durable-run endpoint (they appear in the Study's durable run
list); when Minds answers 404 the bot says Minds does not offer it and the run goes on.
Must not touch: Block Kit (``render/cancel.py``), SQL.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from minds_bot.flows import access
from minds_bot.minds import Conflict, MindsError, NotFound
from minds_bot.render import Message
from minds_bot.render.cancel import (
    render_cancel_not_allowed,
    render_cancel_refused,
    render_cancel_requested,
    render_cancel_sent,
    render_run_already_over,
    render_run_not_live,
    render_run_unknown,
)
from minds_bot.store import RunKind, TrackedRun

if TYPE_CHECKING:
    from minds_bot.services import PacedWebClient, Services

CANCELLABLE = (RunKind.RESEARCH, RunKind.DIRECT)


async def cancel_run(services: Services, slack: PacedWebClient, *, team_id: str, run_id: str, user_id: str) -> Message:
    """Cancel ``run_id`` for ``user_id`` if they may; returns the private note for the person who clicked."""
    run = await services.store.get_tracked_run(team_id=team_id, run_id=run_id)
    if run is None or run.kind not in CANCELLABLE:
        return render_run_unknown()
    if run.terminal_posted:
        return render_run_already_over(None)
    requester = await _requester(services, run)
    decision = await access.check(
        services,
        slack,
        team_id=team_id,
        user_id=user_id,
        act=access.Act.DECIDE,
        thing=access.Thing(run.team_id, run.channel_id, requester, kind="run"),
    )
    if decision.code == "not_allowed":
        return render_cancel_refused(requester_id=requester)
    if decision.refused:
        return Message(text=decision.reason)
    minds = await services.minds.client_for(team_id)
    try:
        await minds.cancel_run(run_id)
    except Conflict:
        status = await _status(services, run)
        return render_run_already_over(status) if status else render_run_not_live()
    except NotFound:
        return render_cancel_not_allowed()
    await _show_requested(services, slack, run=run, user_id=user_id)
    return render_cancel_sent()


async def _requester(services: Services, run: TrackedRun) -> str | None:
    """Who started the run: the asker of a direct question, the requester of the plan behind a research run."""
    if run.kind is RunKind.DIRECT and run.client_request_id:
        ask = await services.store.get_direct_ask(run.client_request_id)
        return ask.requester_id if ask else None
    post = await services.store.get_plan_post(
        team_id=run.team_id, channel_id=run.channel_id, message_ts=run.thread_ts or ""
    )
    return post.requester_id if post else None


async def _status(services: Services, run: TrackedRun) -> str | None:
    """Minds' word for a run that is no longer live (None when it cannot be read right now)."""
    minds = await services.minds.client_for(run.team_id)
    try:
        if run.kind is RunKind.RESEARCH:
            return (await minds.get_research_run(run.study_id, run.run_id)).status
        return (await minds.get_run(run.run_id)).status
    except MindsError:  # the click changed nothing either way; the thread will show the outcome
        return None


async def _show_requested(services: Services, slack: PacedWebClient, *, run: TrackedRun, user_id: str) -> None:
    """Take the button off the progress message and look at the run now, so its result follows promptly."""
    await services.store.note_cancel_requested(team_id=run.team_id, run_id=run.run_id, user_id=user_id)
    if run.progress_ts:
        note = render_cancel_requested(user_id=user_id)
        await slack.edit_progress(channel=run.channel_id, ts=run.progress_ts, **note.as_kwargs())
    await services.store.update_run_poll(
        team_id=run.team_id,
        run_id=run.run_id,
        next_poll_at=services.clock(),
        attempts=0,
        last_state=run.last_state,
        progress_ts=run.progress_ts,
    )
