"""The digest scheduler: APScheduler jobs that call ``DigestFlow.run_due`` when a digest is due. Thin.

Owns: one ``AsyncIOScheduler`` job per digest with a stable id (``digest:<id>``, ``replace_existing=True``),
rebuilt from the store at start and re-synced every minute (digests added or removed by another process),
and a periodic pass that posts any fire a job missed (downtime, a replaced job): ``run_due`` posts only the
latest missed fire, and the store's per-window claim keeps two processes from posting the same digest.
Each fire (a window come due) is counted by outcome in ``minds_bot.metrics``. A digest whose post failed waits
(growing back-off) before the periodic pass tries it again. While the store cannot be reached a pass or a fire
ends at once without a traceback (``minds_bot.store.health.Outage``: one WARNING line when the outage starts, one
INFO line with the count when it ends); the sweep, once a minute, is already slower than the back-off's cap, and
the first pass after the outage catches every missed fire up once (no digest is held back for the outage).
APScheduler is imported when the scheduler is first needed, off the event loop at ``start``: loading it reads
every installed package's metadata (tens of milliseconds), and the bot starts this scheduler only once it
serves Slack (``app.Bot``), so no first request waits for it.
Must not touch: what a digest says or how a window is claimed (``flow.py``), fire-time arithmetic
(``schedule.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from minds_bot import metrics
from minds_bot.flows.digests.flow import DigestFlow, Outcome
from minds_bot.flows.digests.schedule import Schedule, ScheduleError, schedule_of, trigger
from minds_bot.services import Background
from minds_bot.store import Digest, Store, StoreUnavailableError
from minds_bot.store.health import Outage

if TYPE_CHECKING:
    from apscheduler.schedulers.asyncio import AsyncIOScheduler

log = logging.getLogger(__name__)

JOB_PREFIX = "digest:"
SWEEP_JOB_ID = "digests:sweep"
SWEEP_SECONDS = 60
FIRST_RETRY = timedelta(minutes=5)
MAX_RETRY = timedelta(hours=6)
# A missed fire is run once however late (coalesced), and never two at a time for one digest.
JOB_DEFAULTS = {"coalesce": True, "max_instances": 1, "misfire_grace_time": None}


def job_id(digest_id: str) -> str:
    return JOB_PREFIX + digest_id


def _load_apscheduler() -> None:
    """Import what the scheduler uses (in a worker thread at start, so the event loop keeps serving)."""
    for name in ("apscheduler.schedulers.asyncio", "apscheduler.triggers.interval", "apscheduler.triggers.cron"):
        importlib.import_module(name)


class DigestScheduler(Background):
    """Keeps one job per stored digest. ``sync`` and ``catch_up`` are public so tests drive them directly."""

    def __init__(
        self,
        *,
        flow: DigestFlow,
        store: Store,
        clock: Callable[[], datetime],
        scheduler: AsyncIOScheduler | None = None,
    ) -> None:
        self._flow = flow
        self._store = store
        self._clock = clock
        self._scheduler = scheduler  # built on first use (``apscheduler``)
        self._scheduled: dict[str, Schedule] = {}
        self._backoff: dict[str, tuple[datetime, timedelta]] = {}
        self._running: set[asyncio.Task[object]] = set()  # passes and fires under way
        self._stopping = False
        self.outage = Outage("digest scheduler")  # the loop's name in the log, verbatim

    @property
    def apscheduler(self) -> AsyncIOScheduler:
        if self._scheduler is None:
            from apscheduler.schedulers.asyncio import AsyncIOScheduler

            self._scheduler = AsyncIOScheduler(timezone=UTC, job_defaults=JOB_DEFAULTS)
        return self._scheduler

    async def start(self) -> None:
        if self._scheduler is None:
            await asyncio.to_thread(_load_apscheduler)
        from apscheduler.triggers.interval import IntervalTrigger

        if not self.apscheduler.running:
            self.apscheduler.start()
        await self.sync()
        # The first pass runs at once, in the background, so a slow Minds never delays start-up.
        self.apscheduler.add_job(
            self._pass,
            IntervalTrigger(seconds=SWEEP_SECONDS, timezone=UTC),
            id=SWEEP_JOB_ID,
            replace_existing=True,
            next_run_time=datetime.now(UTC),
        )

    async def stop(self) -> None:
        """No new job starts; a pass or fire under way is cancelled and ended here, before the store closes, so
        a stop logs no error for it (a cancelled fire keeps its claim until the claim's lease runs out)."""
        self._stopping = True
        if self._scheduler is not None and self._scheduler.running:
            self._scheduler.shutdown(wait=False)
        for task in self._running:
            task.cancel()
        await asyncio.gather(*self._running, return_exceptions=True)

    @contextlib.asynccontextmanager
    async def _under_way(self) -> AsyncIterator[None]:
        task = asyncio.current_task()
        assert task is not None
        self._running.add(task)
        try:
            yield
        except asyncio.CancelledError:
            if not self._stopping:
                raise  # stopping: the next start's first pass does what this one left
        finally:
            self._running.discard(task)

    async def sync(self) -> None:
        """Make the jobs match the store: add new digests, re-add changed schedules, drop removed ones."""
        digests = {d.digest_id: d for d in await self._store.list_digests()}
        for digest in digests.values():
            self.schedule(digest)
        for digest_id in [d for d in self._scheduled if d not in digests]:
            self.unschedule(digest_id)

    def schedule(self, digest: Digest) -> None:
        """Add (or replace) the digest's job. An unchanged schedule keeps its job, so a fire is never lost to a
        replacement racing the fire time."""
        try:
            schedule = schedule_of(digest)
        except ScheduleError as exc:
            log.warning(
                "digest has an unusable schedule", extra={"fields": {"digest": digest.digest_id, "error": str(exc)}}
            )
            return
        if self._scheduled.get(digest.digest_id) == schedule:
            return
        self.apscheduler.add_job(
            self._fire,
            trigger(schedule),
            args=[digest.digest_id],
            id=job_id(digest.digest_id),
            replace_existing=True,
            **JOB_DEFAULTS,
        )
        self._scheduled[digest.digest_id] = schedule

    def unschedule(self, digest_id: str) -> None:
        self._scheduled.pop(digest_id, None)
        self._backoff.pop(digest_id, None)
        if self._scheduler is not None and self._scheduler.get_job(job_id(digest_id)) is not None:
            self._scheduler.remove_job(job_id(digest_id))

    async def catch_up(self) -> None:
        """Post every digest whose latest fire is not covered yet (once each), except those backing off."""
        now = self._clock()
        for digest in await self._store.list_digests():
            retry_at = self._backoff.get(digest.digest_id, (now, FIRST_RETRY))[0]
            if retry_at <= now:
                await self._fire_now(digest.digest_id)

    async def _pass(self) -> None:
        async with self._under_way():
            failed_before = self.outage.failures
            try:
                await self.sync()
                await self.catch_up()
            except StoreUnavailableError as exc:  # the next sweep tries again
                self.outage.failed(exc)
                return
            if self.outage.failures == failed_before:  # no fire of this pass met the outage either
                self.outage.recovered()

    async def _fire(self, digest_id: str) -> None:
        async with self._under_way():
            await self._fire_now(digest_id)

    async def _fire_now(self, digest_id: str) -> None:
        try:
            outcome = await self._flow.run_due(digest_id)
        except StoreUnavailableError as exc:  # not the digest's fault: the first pass after the outage posts it
            metrics.digest_fires.inc("failed")
            self.outage.failed(exc)
            return
        except Exception:  # background work: log, back off, let the next pass retry
            metrics.digest_fires.inc("failed")
            self._back_off(digest_id)
            log.exception("digest could not be posted; will retry", extra={"fields": {"digest": digest_id}})
            return
        self._backoff.pop(digest_id, None)
        if outcome is not Outcome.NOT_DUE:  # a pass that found nothing due is no fire
            metrics.digest_fires.inc(outcome.value)
        log.debug("digest pass", extra={"fields": {"digest": digest_id, "outcome": outcome.value}})

    def _back_off(self, digest_id: str) -> None:
        _, wait = self._backoff.get(digest_id, (self._clock(), FIRST_RETRY / 2))
        wait = min(MAX_RETRY, wait * 2)
        self._backoff[digest_id] = (self._clock() + wait, wait)
