"""Background work: what the bot runs beside Slack's requests, and the one way it loops.

Owns: ``Background`` (the role: ``start`` after the store is ready, ``stop`` first on the way down), ``Periodic``
(the one background loop: a step every N seconds in a task of its own, backing off while the store cannot be
reached with one line when the outage starts and one when it ends — ``minds_bot.store.health.Outage`` — and any
other failure logged once with its traceback; cancelled by ``stop``), ``Resume`` (a periodic pass that finishes
what a crash interrupted) and ``Followups`` (charts and reports after a
posted result, a bounded number at a time).
Must not touch: what a step does (the flows'), Slack, Minds.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

from minds_bot.store import StoreUnavailableError
from minds_bot.store.health import Outage

log = logging.getLogger(__name__)

Step = Callable[[], Awaitable[object]]


class Background(Protocol):
    """Long-lived work (run tracker, digest scheduler …) started after the store is ready and stopped first."""

    async def start(self) -> None: ...

    async def stop(self) -> None: ...


class Periodic:
    """One background loop named ``name`` (its name in the outage lines, verbatim): ``step()`` now (after one
    period with ``wait_first``), then every ``every`` seconds, in a task named ``task`` until ``stop()``.

    - ``step`` returns True when there is more to do now: it runs again at once (anything else: after the period).
    - ``StoreUnavailableError``: ``outage`` logs the outage's start once and the step runs again after its back-off
      (``at_least_a_period``: after the back-off or the period, whichever is longer); the next step that works logs
      the outage's end once.
    - Any other error: logged once with its traceback as ``failure`` (on ``logger``), and the loop goes on after
      the period.
    - Between two steps it ``rest``s (``asyncio.sleep``; a loop that can be woken early passes its own).
    Subclasses may override ``step`` instead of passing one; ``outage`` may be replaced before ``start`` (tests)."""

    def __init__(
        self,
        name: str,
        *,
        every: float,
        failure: str,
        step: Step | None = None,
        task: str | None = None,
        wait_first: bool = False,
        at_least_a_period: bool = False,
        rest: Callable[[float], Awaitable[None]] | None = None,
        logger: logging.Logger | None = None,
    ) -> None:
        self.outage = Outage(name)
        self.every = every
        self._failure = failure
        self._step = step
        self._task_name = task or name.replace(" ", "-")
        self._wait_first = wait_first
        self._at_least_a_period = at_least_a_period
        self._rest = rest or asyncio.sleep
        self._log = logger or log
        self._task: asyncio.Task[None] | None = None

    async def step(self) -> object:
        """One round of the loop's work; True when there is more to do at once."""
        if self._step is None:
            raise NotImplementedError
        return await self._step()

    async def start(self) -> None:
        self._task = asyncio.create_task(self._loop(), name=self._task_name)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None

    async def _loop(self) -> None:
        if self._wait_first:
            await self._rest(self.every)  # a period, not a synchronisation
        while True:
            try:
                again = await self.step()
            except StoreUnavailableError as exc:  # the database is down or restarting: back off, then again
                if self._at_least_a_period:
                    await self._rest(max(self.every, self.outage.failed(exc)))
                else:
                    await self.outage.pause(exc)
                continue
            except Exception:  # noqa: BLE001 - logged once; the next round tries again, never stop the loop
                self._log.exception(self._failure)
                again = False
            else:
                self.outage.recovered()
            if again is not True:
                await self._rest(self.every)


class Resume(Periodic):
    """Finishes work a crash left half done (an approval between claim and Minds' answer, a question being sent),
    with the same key, never a new one: ``resume(abandoned_only=False)`` at start-up takes every such piece, then
    once every ``every`` seconds (a lease) ``resume(abandoned_only=True)`` those another replica was doing when it
    died. It returns how many it resumed (logged as ``resumed``); a failure is logged as ``failure`` and the
    person can still retry by a click."""

    def __init__(
        self,
        name: str,
        *,
        resume: Callable[..., Awaitable[int]],
        every: float,
        failure: str,
        resumed: str,
        logger: logging.Logger | None = None,
    ) -> None:
        super().__init__(name, every=every, failure=failure, logger=logger)
        self._resume = resume
        self._resumed = resumed
        self._abandoned_only = False  # the first pass, at start-up, takes every interrupted piece of work

    async def step(self) -> None:
        abandoned_only, self._abandoned_only = self._abandoned_only, True
        try:
            count = await self._resume(abandoned_only=abandoned_only)
        except StoreUnavailableError:
            self._abandoned_only = abandoned_only  # the same pass once the store answers
            raise
        if count:
            self._log.info(self._resumed, extra={"fields": {"count": count}})


MAX_FOLLOWUPS = 16  # follow-up jobs running at once; the rest wait their turn
FOLLOWUP_GRACE_SECONDS = 10.0  # how long a graceful stop lets follow-ups under way finish


class Followups:
    """Work that follows a result already in Slack (its charts, its report), done beside the run tracker so
    a burst of results is not held up by drawing: each job is a task, ``MAX_FOLLOWUPS`` at a time, logged
    when it fails (in one line per outage when the store cannot be reached), given a short grace on a graceful
    stop and cancelled after it (the result it follows is already posted; a killed process loses what was not
    done)."""

    def __init__(self, *, limit: int = MAX_FOLLOWUPS, grace: float = FOLLOWUP_GRACE_SECONDS) -> None:
        self._slots = asyncio.Semaphore(limit)
        self._grace = grace
        self._tasks: set[asyncio.Task[None]] = set()
        self.outage = Outage("follow-ups")  # the loop's name in the log, verbatim

    def spawn(self, job: Callable[[], Awaitable[None]], *, name: str) -> None:
        task = asyncio.create_task(self._run(job, name), name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _run(self, job: Callable[[], Awaitable[None]], name: str) -> None:
        async with self._slots:
            try:
                await job()
            except StoreUnavailableError as exc:  # the result it follows stands; one line per outage
                self.outage.failed(exc)
            except Exception:  # a follow-up's failure is logged; the result it follows stands
                log.exception("a follow-up failed", extra={"fields": {"job": name}})
            else:
                self.outage.recovered()

    async def settled(self) -> None:
        """Wait until every follow-up spawned so far (and any they spawn) has finished."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        """On a graceful stop the jobs under way get ``grace`` seconds to finish (a chart half uploaded is
        better finished than lost); what is left then is cancelled."""
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=self._grace)
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
