"""The run tracker: one loop that follows every Minds run the bot started until its result is posted once.

Owns: claiming due runs from the store with a lease (several replicas share the work; each due run is polled
by exactly one of them), renewing the leases of the runs it is polling, polling them with bounded concurrency,
the adaptive interval (about 2 s growing to 30 s with jitter; Minds' ``Retry-After`` honoured), updating Slack
only when the visible state changes, and the exactly-once terminal post (claimed atomically in the store before
posting, released when posting fails). After a restart, or when a replica dies, every unfinished run is due
again once its lease runs out: the store is the memory.

Each state change (followed, what people see changed, result posted, lost) is one INFO line and one count in
``minds_bot.metrics`` (with the runs followed now, by kind).

It never submits anything: a poll that fails or times out is retried later, never answered with a new run
(CATALOGUE §2 G.57). While the store cannot be reached (``StoreUnavailableError``) the claiming loop and the lease
renewal back off (``minds_bot.store.health.Outage``: one WARNING line when the outage starts, one INFO line with
the count when it ends, no traceback); a poll the outage interrupted is left to its lease, which runs out, so the
run is due again once the store answers; a result already in Slack is recorded as posted before anything else
(``record_posted`` waits the outage out), so it is never posted twice.

A run Minds answers 404 for on ``MAX_NOT_FOUND_READS`` reads in a row is given up as gone: its handler says so in
the thread once and the run is no longer followed (never an endless loop). What a run looks like in Slack belongs
to the ``RunHandler`` for its kind, listed in one table (``minds_bot.composition.run_handlers``: research runs in
``flows/research.py``, direct questions in ``flows/ask.py`` …); this module only decides *when*. Its loops are
``services.background.Periodic``.
Must not touch: Minds wire shapes or Block Kit.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import random
from collections.abc import Awaitable, Callable, Mapping
from datetime import datetime, timedelta
from typing import Any

from minds_bot import i18n, metrics
from minds_bot.minds import MindsError, NotFound, RateLimited, ServiceUnavailable
from minds_bot.services.background import Periodic
from minds_bot.services.roles import Observation, RunHandler
from minds_bot.store import RunKind, Store, StoreUnavailableError, TrackedRun, new_holder_id
from minds_bot.store.health import Outage

log = logging.getLogger(__name__)

FIRST_INTERVAL_SECONDS = 2.0
MAX_INTERVAL_SECONDS = 30.0
GROWTH = 1.5
JITTER = 0.2  # ±20 %
MAX_RETRY_AFTER_SECONDS = 300.0
DEFAULT_CONCURRENCY = 4  # Minds reads at once
MAX_IN_FLIGHT = 64  # runs being read or posted at once by one tracker (posting may wait for Slack's pace)
BATCH_SIZE = 20
IDLE_WAIT_SECONDS = 1.0
# Runs someone is waiting on the result of; the others (reports, consistency notes, builds …) leave
# FOLLOW_UP_KEEP_FREE of a workspace's Minds minute to them, so a burst of follow-ups never delays a result.
WAITED_ON = frozenset({RunKind.RESEARCH, RunKind.DIRECT, RunKind.PLAN})
FOLLOW_UP_KEEP_FREE = 0.2
MAX_NOT_FOUND_READS = 5  # 404s in a row before a run is given up as gone
NOT_FOUND_STATE = "minds-404:"  # last_state while 404s are counted (the count follows the colon)


async def say_in_thread(slack: Any, run: TrackedRun, text: str) -> None:
    """Replace the run's progress line with ``text``, or post it in the run's thread when there is none."""
    if run.progress_ts:
        await slack.edit_progress(channel=run.channel_id, ts=run.progress_ts, text=text, blocks=[])
    else:
        await slack.chat_postMessage(channel=run.channel_id, thread_ts=run.thread_ts, text=text)


async def progress_line(slack: Any, run: TrackedRun, **content: Any) -> str:
    """Show ``content`` in the run's progress line, or post it in the run's thread when there is none; its ts."""
    if run.progress_ts:
        await slack.edit_progress(channel=run.channel_id, ts=run.progress_ts, **content)
        return run.progress_ts
    posted = await slack.chat_postMessage(channel=run.channel_id, thread_ts=run.thread_ts, **content)
    return str(posted["ts"])


def next_interval(attempts: int, *, rng: random.Random) -> float:
    """Seconds until the next poll after ``attempts`` polls without a visible change."""
    base = min(MAX_INTERVAL_SECONDS, FIRST_INTERVAL_SECONDS * GROWTH**attempts)
    return base * (1 + rng.uniform(-JITTER, JITTER))


class RunTracker:
    """Polls due runs from the store. ``tick()`` is one pass (tests drive it); ``start()`` loops it."""

    def __init__(
        self,
        *,
        store: Store,
        handlers: Mapping[RunKind, RunHandler],
        clock: Callable[[], datetime],
        rng: random.Random | None = None,
        concurrency: int = DEFAULT_CONCURRENCY,
        holder: str | None = None,
        renew_every: float | None = None,
        read_delay: Callable[..., Awaitable[float]] | None = None,
        max_in_flight: int = MAX_IN_FLIGHT,
        language: Callable[[str], Awaitable[str]] | None = None,
        on_change: Callable[[TrackedRun], None] | None = None,
    ) -> None:
        """``holder`` names this replica in the leases it takes; ``renew_every`` (seconds, well under the store's
        lease) renews the leases of runs being polled while ``start()``-ed; None leaves renewal to ``renew()``.
        ``read_delay(team_id, keep_free=…)`` says how long until that workspace's Minds key has room for one more
        request: a run of a workspace at its limit is looked at again then, instead of holding a read slot other
        workspaces' runs are waiting for (runs outside ``WAITED_ON`` leave ``FOLLOW_UP_KEEP_FREE`` of the minute
        to the others). ``language(team_id)`` is what a workspace's run messages speak (each run is followed in a
        task of its own, so the language holds for its posts, charts and report); ``on_change(run)`` is told when
        what people see of a run changed (its progress, its end) — the App Home follows it."""
        self._language = language
        self._on_change = on_change
        self._store = store
        self._handlers = handlers
        self._clock = clock
        self._rng = rng or random.Random()  # jitter, not security
        self._concurrency = concurrency
        self._slots = asyncio.Semaphore(concurrency)
        self._wake = asyncio.Event()
        self._holder = holder or new_holder_id()
        self._renew_every = renew_every
        self._in_flight: set[tuple[str, str]] = set()
        self._read_delay = read_delay
        self._max_in_flight = max_in_flight
        self._polls: set[asyncio.Task[None]] = set()
        self._claiming = Periodic(
            "run tracker",  # the loop's name in the log, verbatim
            step=self._claim_due,
            every=IDLE_WAIT_SECONDS,
            rest=self._idle,
            failure="claiming due runs failed; will try again",  # for logs, verbatim
            logger=log,
        )
        self._renewing = Periodic(
            "run lease renewal",  # the loop's name in the log, verbatim
            step=self.renew,
            every=renew_every or 0.0,
            wait_first=True,  # a period, not a synchronisation: leases last several periods
            at_least_a_period=True,  # the leases run out meanwhile: the runs are due again later
            # A missed renewal costs at most a duplicate poll, never a post.
            failure="renewing run leases failed",  # for logs, verbatim
            logger=log,
        )

    @property
    def outage(self) -> Outage:
        """The claiming loop's view of an outage of the store (shared with the polls it spawns)."""
        return self._claiming.outage

    @outage.setter
    def outage(self, outage: Outage) -> None:
        self._claiming.outage = outage

    @property
    def renewal_outage(self) -> Outage:
        return self._renewing.outage

    @renewal_outage.setter
    def renewal_outage(self, outage: Outage) -> None:
        self._renewing.outage = outage

    async def track(self, run: TrackedRun) -> None:
        """Remember a newly started run (before anything is shown) and poll it soon."""
        await self._store.add_tracked_run(run)
        _changed(run, "started")
        self._wake.set()

    async def start(self) -> None:
        await self._claiming.start()
        if self._renew_every:
            await self._renewing.start()

    async def stop(self) -> None:
        """Stop claiming first, then stop the runs in flight (their leases lapse; another replica resumes them)."""
        await asyncio.gather(self._claiming.stop(), self._renewing.stop())
        polls = list(self._polls)
        for task in polls:
            task.cancel()
        await asyncio.gather(*polls, return_exceptions=True)
        self._polls.clear()

    async def renew(self) -> int:
        """Extend the leases of the runs this tracker is polling now; returns how many it still holds."""
        if not self._in_flight:
            return 0
        return await self._store.renew_run_leases(holder=self._holder, keys=set(self._in_flight))

    async def _claim_due(self) -> bool:
        """Claim due runs while there is room and follow each in its own task, so a run waiting for Slack's
        pace never holds up the others; True when more may be due now. It claims no more than
        ``max_in_flight``: a run leased here but not yet looked at would keep an idle replica from taking it."""
        while (asked := min(self._max_in_flight - len(self._polls), BATCH_SIZE)) <= 0:
            await self._idle(IDLE_WAIT_SECONDS)  # no room: wait for a poll to end
        claimed = self._spawn(await self._store.claim_due_runs(holder=self._holder, limit=asked))
        return claimed >= asked

    async def _idle(self, seconds: float) -> None:
        """Wait for a wake-up (a run tracked, a poll ended), at most ``seconds``."""
        self._wake.clear()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(seconds):  # not wait_for: 3.11's can swallow a cancel
                await self._wake.wait()

    def _spawn(self, due: list[TrackedRun]) -> int:
        for run in due:
            key = (run.team_id, run.run_id)
            self._in_flight.add(key)
            metrics.runs_followed.inc(run.kind.value)
            task = asyncio.create_task(self._poll_guarded(run), name="run-poll")
            self._polls.add(task)
            task.add_done_callback(functools.partial(self._done, key=key, kind=run.kind.value))
        return len(due)

    def _done(self, task: asyncio.Task[None], key: tuple[str, str], kind: str) -> None:
        self._polls.discard(task)
        self._in_flight.discard(key)
        metrics.runs_followed.dec(kind)
        self._wake.set()  # room for another run

    async def tick(self, *, limit: int = BATCH_SIZE) -> int:
        """Claim up to ``limit`` runs that are due now (leased to this replica) and poll them; returns how many."""
        due = await self._store.claim_due_runs(holder=self._holder, limit=limit)
        keys = [(run.team_id, run.run_id) for run in due]
        self._in_flight.update(keys)
        for run in due:
            metrics.runs_followed.inc(run.kind.value)
        try:
            await asyncio.gather(*(self._poll_guarded(run) for run in due))
        finally:
            self._in_flight.difference_update(keys)
            for run in due:
                metrics.runs_followed.dec(run.kind.value)
        return len(due)

    async def _poll_guarded(self, run: TrackedRun) -> None:
        try:
            if self._language is not None:
                i18n.speak(await self._language(run.team_id))
            await self._poll(run)
        except StoreUnavailableError as exc:
            # Nothing can be recorded now: the run's lease runs out and it is due again once the store answers.
            self.outage.failed(exc)
        except Exception:  # one run's failure must not stop the loop for every other run
            log.exception("polling a run failed", extra={"fields": {"run": run.run_id, "team": run.team_id}})
            try:
                await self._reschedule(run, delay=MAX_INTERVAL_SECONDS, attempts=run.attempts + 1)
            except StoreUnavailableError as exc:  # as above: its lease runs out
                self.outage.failed(exc)

    async def _poll(self, run: TrackedRun) -> None:
        handler = self._handlers[run.kind]
        keep_free = 0.0 if run.kind in WAITED_ON else FOLLOW_UP_KEEP_FREE
        if self._read_delay is not None and (wait := await self._read_delay(run.team_id, keep_free=keep_free)) > 0:
            # The workspace's Minds allowance is spent for now: look again when it has room (not a failed read).
            await self._reschedule(run, delay=wait * (1 + self._rng.uniform(0, JITTER)), attempts=run.attempts)
            return
        async with self._slots:  # only the read: posting waits for Slack's pace outside the slot
            try:
                observation = await handler.observe(run)
            except NotFound:
                observation = None
            except MindsError as exc:
                await self._after_failed_read(run, exc)
                return
        if observation is None:
            await self._after_not_found(run, handler)
            return
        if observation.terminal:
            await self._finish(run, handler, observation)
            return
        changed = observation.visible != run.last_state
        progress_ts = run.progress_ts
        if changed:
            progress_ts = await handler.show_progress(run, observation) or run.progress_ts
        attempts = 0 if changed else run.attempts + 1
        await self._store.update_run_poll(
            team_id=run.team_id,
            run_id=run.run_id,
            next_poll_at=self._clock() + timedelta(seconds=next_interval(attempts, rng=self._rng)),
            attempts=attempts,
            last_state=observation.visible,
            progress_ts=progress_ts,
        )
        if changed:
            _changed(run, "progress", shown=observation.visible)
        if changed and self._on_change is not None:
            self._on_change(run.model_copy(update={"last_state": observation.visible}))

    async def _after_failed_read(self, run: TrackedRun, exc: MindsError) -> None:
        """A failed poll is only ever retried later; it never leads to a new submission."""
        delay = next_interval(run.attempts + 1, rng=self._rng)
        retry_after = getattr(exc, "retry_after", None) if isinstance(exc, RateLimited | ServiceUnavailable) else None
        if retry_after:
            delay = max(delay, min(float(retry_after), MAX_RETRY_AFTER_SECONDS))
        log.warning(
            "could not read a run; will look again",
            extra={"fields": {"run": run.run_id, "error": type(exc).__name__, "retry_in": round(delay, 1)}},
        )
        metrics.run_changes.inc(run.kind.value, "read_failed")
        await self._reschedule(run, delay=delay, attempts=run.attempts + 1)

    async def _after_not_found(self, run: TrackedRun, handler: RunHandler) -> None:
        """Counted in ``last_state``; a 404 that persists ends the run with one note, a passing one is retried."""
        reads = _not_found_reads(run.last_state) + 1
        if reads >= MAX_NOT_FOUND_READS:
            await self._claimed(run, lambda: handler.post_lost(run, reads), state="lost")
            return
        await self._store.update_run_poll(
            team_id=run.team_id,
            run_id=run.run_id,
            next_poll_at=self._clock() + timedelta(seconds=next_interval(run.attempts + 1, rng=self._rng)),
            attempts=run.attempts + 1,
            last_state=f"{NOT_FOUND_STATE}{reads}",
            progress_ts=run.progress_ts,
        )

    async def _finish(self, run: TrackedRun, handler: RunHandler, observation: Observation) -> None:
        await self._claimed(run, lambda: handler.post_terminal(run, observation), state="finished")

    async def _claimed(self, run: TrackedRun, post: Callable[[], Awaitable[None]], *, state: str) -> None:
        """Run ``post`` once for this run: claimed in the store first, released if it fails; ``state`` is the
        change logged once it is posted (``finished``, ``lost``)."""
        if not await self._store.claim_terminal_post(team_id=run.team_id, run_id=run.run_id):
            return  # another process (or an earlier pass) is posting it
        try:
            await post()
        except BaseException:
            try:
                await self._store.release_terminal_post(team_id=run.team_id, run_id=run.run_id)
            except StoreUnavailableError as exc:  # the claim runs out by itself (TERMINAL_CLAIM_LEASES leases)
                self.outage.failed(exc)
            raise
        await self.record_posted(run)
        _changed(run, state)
        if self._on_change is not None:
            self._on_change(run.model_copy(update={"terminal_posted": True}))

    async def record_posted(self, run: TrackedRun) -> None:
        """The run's result is in Slack: record it, waiting out an outage of the store (backing off), since a
        result posted but not recorded would be posted again once its claim ran out. The claim is renewed with
        the run's lease while this waits; an outage longer than the claim (``TERMINAL_CLAIM_LEASES`` leases) is
        the one case where another replica could post it again."""
        while True:
            try:
                await self._store.mark_terminal_posted(team_id=run.team_id, run_id=run.run_id)
            except StoreUnavailableError as exc:
                await self.outage.pause(exc)
            else:
                return

    async def _reschedule(self, run: TrackedRun, *, delay: float, attempts: int) -> None:
        await self._store.update_run_poll(
            team_id=run.team_id,
            run_id=run.run_id,
            next_poll_at=self._clock() + timedelta(seconds=delay),
            attempts=attempts,
            last_state=run.last_state,
            progress_ts=run.progress_ts,
        )


SHOWN_IN_LOG = 80  # characters of a run's visible state in its log line


def _changed(run: TrackedRun, state: str, *, shown: str | None = None) -> None:
    """One INFO line and one count per run state change (``started``, ``progress``, ``finished``, ``lost``);
    the log names the run, the count only its kind and the state."""
    fields = {"team": run.team_id, "run": run.run_id, "kind": run.kind.value, "state": state}
    if shown:
        fields["shown"] = " ".join(shown.split())[:SHOWN_IN_LOG]
    log.info("run %s", state, extra={"fields": fields})
    metrics.run_changes.inc(run.kind.value, state)


def _not_found_reads(last_state: str | None) -> int:
    if last_state and last_state.startswith(NOT_FOUND_STATE):
        count = last_state.removeprefix(NOT_FOUND_STATE)
        return int(count) if count.isdigit() else 0
    return 0
