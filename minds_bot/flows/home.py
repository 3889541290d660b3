"""The App Home: gathered from the store, published when someone opens it and again when what it shows changes.

Owns: ``home_state`` (one person's Home from stored state — no Minds request, so opening the tab is cheap and
works while Minds is slow: plans they requested or may approve as a channel approver, the runs of their plans
with the progress the channel last saw, the runs that ended in their channels (Recent results, with their DM
switch: ``flows/run_notice.py``), their recent Studies, the digests of their channels) and ``HomeTabs``, which
remembers who has a Home open in this process and what it showed, and republishes a person's Home when one of
those things changes — at most once per ``min_interval`` seconds per person, changes in between merged into one
publish (``views.publish``).
Who sees what: every list shows only what belongs to the channels the person is in now, read with the gate's
``access.channels_of`` (``users.conversations``) — plans, live runs, Recent results, the Studies of their plans,
digests; when their channels cannot be read, those lists say so and show nothing rather than guess. Opening the
Home or pressing Refresh reads the channels again; a republish reuses the channels the last publish read if that
was less than ``CHANNELS_REUSED_SECONDS`` ago (Slack allows ``users.conversations`` about 50 times a minute), so
someone who leaves a channel stops seeing its runs at their next open or Refresh, and within a minute on an open
Home. A plan that opens for approval concerns the approvers of its channel: they are looked up once per change,
not once per open Home. A refresh the store cannot answer is dropped (the next open or change publishes it) and
logged once per outage, without a traceback (``minds_bot.store.health.Outage``).
Must not touch: listener registration or Slack payload parsing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from minds_bot import i18n
from minds_bot.flows import access
from minds_bot.flows.digests.schedule import ScheduleError, describe, schedule_of
from minds_bot.flows.run_notice import recent_results
from minds_bot.render.home import HomeDigest, HomePlan, HomeRun, HomeState, HomeStudy, render_home
from minds_bot.services import Background, Services
from minds_bot.store import Digest, PlanPost, PlanState, RunResult, StoreUnavailableError, TrackedRun
from minds_bot.store.health import Outage

log = logging.getLogger(__name__)

HOME_REFRESH_SECONDS = 10.0  # at most one republish per person this often
RECENT_PLANS = 30
OPEN_PLANS = 50
CHANNEL_PAGES = 5  # users.conversations pages read for "my channels" (200 channels a page)
CHANNELS_REUSED_SECONDS = 60.0  # a republish reuses the person's channels read this recently; older are read again
MAX_VIEWERS = 10_000  # people remembered as having a Home open; beyond, the oldest are forgotten

Viewer = tuple[str, str]  # (team_id, user_id)


@dataclass
class _Shown:
    """What a person's published Home listed, to know whose Home a change concerns."""

    runs: set[str] = field(default_factory=set)
    plans: set[tuple[str, str]] = field(default_factory=set)  # (channel, message ts)
    channels: set[str] = field(default_factory=set)  # channels whose digests it listed (or could list)
    member_of: frozenset[str] | None = None  # the person's channels as read for it (None: not read, or failed)
    read_at: float | None = None  # when those channels were read (HomeTabs' clock)
    result_channels: set[str] = field(default_factory=set)  # channels whose ended runs its Recent results cover


async def home_state(
    services: Services, client: Any, *, team_id: str, user_id: str, member_of: frozenset[str] | None = None
) -> tuple[HomeState, _Shown]:
    """``member_of``: the person's channels when already known (else read with the gate's ``channels_of``).
    Every list shows only what belongs to those channels; when they cannot be read, none of it."""
    store = services.store
    shown = _Shown()
    if member_of is None:
        member_of = await access.channels_of(client, user_id=user_id, pages=CHANNEL_PAGES)
    shown.member_of = member_of
    requested = await store.recent_plan_posts(team_id=team_id, requester_id=user_id, limit=RECENT_PLANS)
    waiting = await _awaiting(services, team_id=team_id, user_id=user_id)
    channels: frozenset[str | None] = frozenset()
    if member_of is not None:  # and the person's own DM with the bot, where a plan may have been asked for
        dms = [p.channel_id for p in (*requested, *waiting) if p.channel_id.startswith(access.DM_PREFIX)]
        channels = member_of | await access.visible(services, client, team_id=team_id, user_id=user_id, channels=dms)

    def theirs(channel_id: str) -> bool:
        return channel_id in channels

    mine = [post for post in requested if theirs(post.channel_id)]
    awaiting = [post for post in waiting if theirs(post.channel_id)]
    live: list[HomeRun] = []
    for post in mine:
        run = await _live_run(services, post)
        if run is not None:
            live.append(HomeRun(study_name=post.study_name, channel_id=post.channel_id, progress=run.last_state))
            shown.runs.add(run.run_id)
    studies: dict[str, HomeStudy] = {}
    for post in mine:
        studies.setdefault(post.study_id, HomeStudy(study_id=post.study_id, name=post.study_name))
    shown.plans = {(p.channel_id, p.message_ts) for p in (*requested, *awaiting)}
    digests = [d for d in await store.list_digests(team_id=team_id) if theirs(d.channel_id)]
    shown.channels = {d.channel_id for d in digests}
    theirs_now = {channel for channel in channels if channel is not None}
    results, run_dms_on = await recent_results(services, team_id=team_id, user_id=user_id, member_of=theirs_now)
    shown.result_channels = {r.channel_id for r in results}
    state = HomeState(
        connected=await services.minds.is_connected(team_id),
        awaiting=[
            HomePlan(study_name=p.study_name, channel_id=p.channel_id, revision=p.revision, requester_id=p.requester_id)
            for p in awaiting
        ],
        live=live,
        studies=list(studies.values()),
        digests=[_home_digest(d) for d in digests],
        channels_read=member_of is not None,
        results=results,
        run_dms_on=run_dms_on,
    )
    return state, shown


async def _awaiting(services: Services, *, team_id: str, user_id: str) -> list[PlanPost]:
    """Open plans this person may approve: their own, and those in channels where they are an approver."""
    found: list[PlanPost] = []
    approvers: dict[str, list[str]] = {}
    for post in await services.store.recent_plan_posts(team_id=team_id, states=[PlanState.OPEN], limit=OPEN_PLANS):
        if post.channel_id not in approvers:
            approvers[post.channel_id] = await services.store.list_approvers(
                team_id=team_id, channel_id=post.channel_id
            )
        if post.requester_id == user_id or user_id in approvers[post.channel_id]:
            found.append(post)
    return found


async def _live_run(services: Services, post: PlanPost) -> TrackedRun | None:
    if post.state not in (PlanState.APPROVED, PlanState.RUNNING) or not post.draft_plan_id or post.revision is None:
        return None
    approval = await services.store.get_approval(
        team_id=post.team_id, draft_plan_id=post.draft_plan_id, revision=post.revision
    )
    if approval is None or approval.run_id is None:
        return None
    run = await services.store.get_tracked_run(team_id=post.team_id, run_id=approval.run_id)
    return run if run is not None and not run.terminal_posted else None


def _home_digest(digest: Digest) -> HomeDigest:
    try:
        schedule = describe(schedule_of(digest))
    except ScheduleError:
        schedule = digest.spec  # a hand-edited row: shown as stored (``/minds digest list`` says what is wrong)
    return HomeDigest(
        digest_id=digest.digest_id, channel_id=digest.channel_id, schedule=schedule, studies=len(digest.study_ids)
    )


class HomeTabs(Background):
    """Publishes people's Home tabs and keeps the open ones current (see the module docstring)."""

    def __init__(
        self,
        services: Services,
        *,
        min_interval: float = HOME_REFRESH_SECONDS,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self._services = services
        self._min_interval = min_interval
        self._clock = clock
        self._sleep = sleep
        self._shown: dict[Viewer, _Shown] = {}
        self._published_at: dict[Viewer, float] = {}
        self._pending: dict[Viewer, asyncio.Task[None]] = {}  # a publish waiting for its turn, per person
        self._tasks: set[asyncio.Task[None]] = set()  # every publish under way or waiting
        self.outage = Outage("home refresher")  # the loop's name in the log, verbatim

    async def publish(self, client: Any, *, team_id: str, user_id: str, fresh: bool = True) -> None:
        """Build and publish ``user_id``'s Home now, in their language; ``fresh=False`` (a republish after a
        change) reuses the person's channels as the last publish read them, if that was less than
        ``CHANNELS_REUSED_SECONDS`` ago."""
        viewer = (team_id, user_id)
        previous = None if fresh else self._shown.get(viewer)
        read_at = previous.read_at if previous is not None else None
        if previous is None or read_at is None or self._clock() - read_at >= CHANNELS_REUSED_SECONDS:
            previous, read_at = None, self._clock()
        language = await self._services.languages.of_person(client, team_id=team_id, user_id=user_id)
        with i18n.speaking(language):
            state, shown = await home_state(
                self._services,
                client,
                team_id=team_id,
                user_id=user_id,
                member_of=previous.member_of if previous is not None else None,
            )
            view = render_home(state)
        shown.read_at = read_at if shown.member_of is not None else None
        self._published_at[viewer] = self._clock()
        self._shown.pop(viewer, None)  # re-inserted last: the oldest viewers are forgotten first
        self._shown[viewer] = shown
        while len(self._shown) > MAX_VIEWERS:
            forgotten = next(iter(self._shown))
            del self._shown[forgotten]
            self._published_at.pop(forgotten, None)
        await client.views_publish(user_id=user_id, view=view.to_dict())

    def changed(self, record: Any) -> None:
        """A plan post, tracked run, run's end or digest changed: republish the Homes that show it (or should)."""
        team = getattr(record, "team_id", None)
        if not team:
            return
        for (viewer_team, user), shown in list(self._shown.items()):
            if viewer_team == team and _concerns(record, user, shown):
                self._schedule((team, user))
        if (isinstance(record, PlanPost) and record.state is PlanState.OPEN) or isinstance(record, RunResult):
            self._track(asyncio.create_task(self._approvers_see(record), name="home-approvers"))

    async def _approvers_see(self, post: PlanPost | RunResult) -> None:
        """A plan waiting for approval, or a run that ended, belongs on the Homes of its channel's approvers (one
        read per change)."""
        try:
            approvers = await self._services.store.list_approvers(team_id=post.team_id, channel_id=post.channel_id)
        except StoreUnavailableError as exc:  # their Homes show it on the next open or refresh
            self.outage.failed(exc)
            return
        except Exception:  # their Homes show it on the next open or refresh
            log.warning("could not read a channel's approvers for the Home", exc_info=True)
            return
        for user in approvers:
            if (post.team_id, user) in self._shown:
                self._schedule((post.team_id, user))

    def _track(self, task: asyncio.Task[None]) -> None:
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _schedule(self, viewer: Viewer) -> None:
        if viewer in self._pending:
            return  # a publish is already coming: it will show this change too
        wait = max(0.0, self._published_at.get(viewer, -1e9) + self._min_interval - self._clock())
        task = asyncio.create_task(self._republish(viewer, wait), name="home-refresh")
        self._pending[viewer] = task
        self._track(task)

    async def _republish(self, viewer: Viewer, wait: float) -> None:
        team_id, user_id = viewer
        try:
            if wait > 0:
                await self._sleep(wait)  # the pace, not a synchronisation: changes meanwhile join this publish
            del self._pending[viewer]  # a change from here on schedules the next publish
            client = await self._services.slack.client_for(team_id)
            await self.publish(client, team_id=team_id, user_id=user_id, fresh=False)
        except asyncio.CancelledError:
            raise
        except StoreUnavailableError as exc:  # refreshed on the next open or change
            self.outage.failed(exc)
        except Exception:  # a Home that could not be refreshed is refreshed on the next open
            log.warning("could not refresh a Home tab", exc_info=True, extra={"fields": {"team": team_id}})
        else:
            self.outage.recovered()
        finally:
            if self._pending.get(viewer) is asyncio.current_task():
                del self._pending[viewer]

    async def start(self) -> None:
        """Nothing runs until someone opens a Home."""

    async def settled(self) -> None:
        """Every republish already scheduled has happened (tests and graceful stops)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._pending.clear()


def _concerns(record: Any, user: str, shown: _Shown) -> bool:
    if isinstance(record, PlanPost):
        return record.requester_id == user or (record.channel_id, record.message_ts) in shown.plans
    if isinstance(record, TrackedRun):
        return record.run_id in shown.runs
    if isinstance(record, RunResult):  # Recent results cover the channels of the person's plans and results
        mine = shown.result_channels | {channel for channel, _ts in shown.plans}
        return user in (record.requester_id, record.approver_id) or record.channel_id in mine
    if isinstance(record, Digest):
        return record.created_by == user or record.channel_id in shown.channels
    return False
