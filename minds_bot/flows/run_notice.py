"""Hearing when a research run ends: one DM per person per run end, the "Notify me" button, the Home's switch.

Owns:
- ``notify_run_end``: after a research run's result is in its thread (called by the research run handler, once
  the tracker holds the run's terminal claim), record how it ended with its thread's link (``chat.getPermalink``;
  the App Home's *Recent results*), then DM the plan's requester and everyone who pressed "Notify me" —
  unless they turned these DMs off in the App Home, or are no longer in the run's channel (asked from Slack
  again, through the gate's ``access.may_hear``) — in each person's own language (their Slack locale, else
  the workspace's), with the outcome in the closing line's words (``render/outcome.py``). Each DM is claimed in
  the store per (run, person) before it is posted (``conversations.open`` + ``chat.postMessage``; to the
  person's id when ``conversations.open`` is refused), so replicas and restarts that look at the same end never
  send it twice; a DM Slack refuses is released and logged, and
  never undoes the result. A replica that dies after the result is posted and before the DMs are sent loses
  those DMs (at most once, never twice): the run is not followed again once its result is posted.
- ``press_notify_me``: who may ask to hear about a run — a member of the channel its plan message is in (the
  gate's SEE: someone browsing a public channel they are not in is refused with the gate's words); the run must
  be one the bot follows in that channel and not ended yet. A DM tells nothing the thread does not already say
  to everyone in that channel; the requester hears anyway and is told so.
- ``set_run_dms``: the App Home's "DMs when a run ends" switch (per person, per workspace; on by default).
Direct questions (``/minds ask``) are not covered: their asker sees the answer arrive in the thread they started.
Must not touch: Block Kit (``render/run_notice.py``), SQL, the tracker's timing.
"""

from __future__ import annotations

import logging
from collections.abc import Collection
from typing import TYPE_CHECKING

from slack_sdk.errors import SlackApiError

from minds_bot import i18n
from minds_bot.flows import access
from minds_bot.render import Message
from minds_bot.render.run_notice import (
    RECENT_RESULTS,
    EndedRun,
    render_notify_added,
    render_notify_already,
    render_notify_ended,
    render_notify_requester,
    render_notify_unknown,
    render_run_ended_dm,
)
from minds_bot.store import PlanPost, RunKind, RunResult, TrackedRun

if TYPE_CHECKING:
    from slack_sdk.web.async_client import AsyncWebClient

    from minds_bot.services import Services

log = logging.getLogger(__name__)
RESULTS_READ = 50  # ended runs read for Recent results, of which those of the person's channels are listed


def ended_run(result: RunResult) -> EndedRun:
    return EndedRun(
        study_name=result.study_name,
        channel_id=result.channel_id,
        status=result.status,
        revision=result.revision,
        cancelled_by=result.cancelled_by,
        permalink=result.permalink,
    )


async def notify_run_end(services: Services, slack: AsyncWebClient, run: TrackedRun, *, status: str) -> None:
    """Record the run's end and DM the people who want to hear of it (see the module docstring). Never raises
    for Slack's refusals: the result in the thread stands whatever happens here."""
    try:
        result = await _record(services, slack, run, status=status)
        requester = result.requester_id
        watchers = await services.store.run_watchers(team_id=run.team_id, run_id=run.run_id)
        recipients = list(dict.fromkeys([*([requester] if requester else []), *watchers]))
        thing = access.run_thing(run.team_id, run.channel_id)
        for user_id in recipients:
            if not await access.may_hear(services, slack, team_id=run.team_id, user_id=user_id, thing=thing):
                log.info("no run-end DM: the person is no longer in its channel", extra={"fields": {"run": run.run_id}})
                continue
            await _dm(services, slack, result, user_id=user_id, requested=user_id == requester)
        services.home_changed(result)  # the Homes whose Recent results list it
    except Exception:  # the result is posted; a lost DM must not make the tracker post it again
        log.exception("could not tell people a run ended", extra={"fields": {"run": run.run_id}})


async def _record(services: Services, slack: AsyncWebClient, run: TrackedRun, *, status: str) -> RunResult:
    post = await services.store.get_plan_post(
        team_id=run.team_id, channel_id=run.channel_id, message_ts=run.thread_ts or ""
    )
    approver = await _approver(services, post)
    return await services.store.save_run_result(
        RunResult(
            team_id=run.team_id,
            run_id=run.run_id,
            channel_id=run.channel_id,
            thread_ts=run.thread_ts,
            study_name=post.study_name if post else run.study_id,
            revision=post.revision if post else None,
            requester_id=post.requester_id if post else None,
            approver_id=approver,
            status=status,
            cancelled_by=run.cancelled_by,
            permalink=await _permalink(slack, run),
            ended_at=services.clock(),
        )
    )


async def _approver(services: Services, post: PlanPost | None) -> str | None:
    if post is None or post.draft_plan_id is None or post.revision is None:
        return None
    approval = await services.store.get_approval(
        team_id=post.team_id, draft_plan_id=post.draft_plan_id, revision=post.revision
    )
    return approval.approver_id if approval else None


async def _permalink(slack: AsyncWebClient, run: TrackedRun) -> str | None:
    if not run.thread_ts:
        return None
    try:
        reply = await slack.chat_getPermalink(channel=run.channel_id, message_ts=run.thread_ts)
    except SlackApiError as exc:  # a deleted plan message: the DM names the channel without a link
        log.info("no permalink for a run's thread", extra={"fields": {"run": run.run_id, "error": str(exc)}})
        return None
    link = reply.get("permalink")
    return link if isinstance(link, str) else None


async def _dm(services: Services, slack: AsyncWebClient, result: RunResult, *, user_id: str, requested: bool) -> None:
    store = services.store
    if not await store.run_dms_on(team_id=result.team_id, user_id=user_id):
        return
    if not await store.claim_run_notice(team_id=result.team_id, run_id=result.run_id, user_id=user_id):
        return  # another replica, or an earlier look at this end, sent it
    try:
        language = await services.languages.of_person(slack, team_id=result.team_id, user_id=user_id)
        with i18n.speaking(language):
            message = render_run_ended_dm(ended_run(result), requested=requested)
        await slack.chat_postMessage(channel=await _dm_channel(slack, user_id), **message.as_kwargs())
    except BaseException as exc:
        await store.release_run_notice(team_id=result.team_id, run_id=result.run_id, user_id=user_id)
        if not isinstance(exc, SlackApiError):
            raise
        log.warning("a run-end DM was refused", extra={"fields": {"run": result.run_id, "error": str(exc)}})


async def _dm_channel(slack: AsyncWebClient, user_id: str) -> str:
    """The app's DM channel with the person; without ``im:write`` (an install from before it was asked for) the
    person's id, which ``chat.postMessage`` delivers to the app's Messages tab with ``chat:write`` alone."""
    try:
        opened = (await slack.conversations_open(users=user_id)).get("channel")
    except SlackApiError as exc:
        log.info("conversations.open refused; posting to the person", extra={"fields": {"error": str(exc)}})
        return user_id
    channel = opened.get("id") if isinstance(opened, dict) else None
    return channel if isinstance(channel, str) and channel else user_id


async def press_notify_me(
    services: Services, slack: AsyncWebClient, *, team_id: str, channel_id: str, run_id: str, user_id: str
) -> Message:
    """``user_id`` pressed "Notify me" on a plan message in ``channel_id``; returns their private answer."""
    store = services.store
    run = await store.get_tracked_run(team_id=team_id, run_id=run_id) if run_id else None
    if run is None or run.kind is not RunKind.RESEARCH or run.channel_id != channel_id:
        return render_notify_unknown()
    seen = await access.check(
        services,
        slack,
        team_id=team_id,
        user_id=user_id,
        act=access.Act.SEE,
        channel_id=channel_id,
        thing=access.run_thing(run.team_id, run.channel_id),
    )
    if seen.refused:
        return Message(text=seen.reason)
    if run.terminal_posted:
        return render_notify_ended()
    dms_on = await store.run_dms_on(team_id=team_id, user_id=user_id)
    post = await store.get_plan_post(team_id=team_id, channel_id=channel_id, message_ts=run.thread_ts or "")
    if post is not None and post.requester_id == user_id:
        return render_notify_requester(dms_on=dms_on)
    if await store.watch_run(team_id=team_id, run_id=run_id, user_id=user_id):
        return render_notify_added(dms_on=dms_on)
    return render_notify_already(dms_on=dms_on)


async def set_run_dms(services: Services, *, team_id: str, user_id: str, on: bool) -> None:
    await services.store.set_run_dms(team_id=team_id, user_id=user_id, on=on)


async def recent_results(
    services: Services, *, team_id: str, user_id: str, member_of: Collection[str]
) -> tuple[list[EndedRun], bool]:
    """The App Home's Recent results — of those channels (``member_of``: the person's channels now, read with the
    gate's ``access.channels_of``) — and whether the person's DMs about run ends are on."""
    found = await services.store.recent_run_results(team_id=team_id, user_id=user_id, limit=RESULTS_READ)
    theirs = [ended_run(r) for r in found if r.channel_id in member_of][:RECENT_RESULTS]
    return theirs, await services.store.run_dms_on(team_id=team_id, user_id=user_id)
