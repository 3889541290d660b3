"""Whether the store can be reached, and how the bot's background loops live through a time when it cannot.

Owns: ``StoreHealth`` (``/healthz``'s question "does the store answer?": one cheap ``ping`` bounded by
``PING_TIMEOUT_SECONDS``, asked at most once per ``PING_EVERY_SECONDS`` and shared by every caller meanwhile) and
``Outage`` (one background loop's view of an outage: a bounded exponential back-off with jitter, capped at
``MAX_BACKOFF_SECONDS``, one WARNING line when the outage starts and one INFO line when it ends, with how many
attempts failed and for how long — never a traceback per attempt, never a line a second).
Must not touch: Slack, Minds, SQL (the store's ``ping`` is its only call).
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Awaitable, Callable

from minds_bot.store.base import StoreLifecycle
from minds_bot.store.errors import StoreError, StoreUnavailableError

log = logging.getLogger(__name__)

PING_EVERY_SECONDS = 1.0  # /healthz asks the store at most this often; answers in between reuse the last one
PING_TIMEOUT_SECONDS = 1.0  # a store that takes longer to answer SELECT 1 is as good as down for a health check
FIRST_BACKOFF_SECONDS = 0.5
MAX_BACKOFF_SECONDS = 30.0
BACKOFF_GROWTH = 2.0
BACKOFF_JITTER = 0.1  # ±10 %: replicas that lost the database together do not retry in step
OUTAGE_STARTED = "the store cannot be reached; backing off until it answers"
OUTAGE_ENDED = "the store answers again"


class StoreHealth:
    """``await reachable()``: whether the store answered a ``ping`` within ``timeout`` seconds, asked at most once
    per ``every`` seconds (concurrent callers share the ping under way)."""

    def __init__(
        self,
        store: StoreLifecycle,
        *,
        every: float = PING_EVERY_SECONDS,
        timeout: float = PING_TIMEOUT_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._store = store
        self._every = every
        self._timeout = timeout
        self._clock = clock
        self._answer: tuple[float, bool] | None = None  # (asked at, reachable)
        self._asking: asyncio.Future[bool] | None = None

    async def reachable(self) -> bool:
        if self._answer is not None and self._clock() - self._answer[0] < self._every:
            return self._answer[1]
        if self._asking is None:
            self._asking = asyncio.ensure_future(self._ping())
        return await asyncio.shield(self._asking)

    async def _ping(self) -> bool:
        try:
            async with asyncio.timeout(self._timeout):
                await self._store.ping()
        except (StoreError, TimeoutError):
            reachable = False
        else:
            reachable = True
        finally:
            self._asking = None
        self._answer = (self._clock(), reachable)
        return reachable


class Outage:
    """One background loop (``name``) and the store's outages: ``failed(error)`` after an attempt the store could
    not answer returns how long to wait before the next (``first`` seconds, growing by ``BACKOFF_GROWTH`` up to
    ``cap``, with jitter) and logs the outage's start once; ``recovered()`` after an attempt that worked logs its
    end once (attempts that failed, seconds it lasted) and resets the back-off. ``pause(error)`` is ``failed``
    followed by the wait."""

    def __init__(
        self,
        name: str,
        *,
        first: float = FIRST_BACKOFF_SECONDS,
        cap: float = MAX_BACKOFF_SECONDS,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        rng: random.Random | None = None,
    ) -> None:
        self.name = name
        self._first, self._cap = first, cap
        self._clock, self._sleep = clock, sleep
        self._rng = rng or random.Random()  # jitter, not security
        self.failures = 0  # attempts that failed in the outage under way
        self._since: float | None = None

    @property
    def down(self) -> bool:
        """Whether the last attempt failed because the store could not be reached."""
        return self._since is not None

    def failed(self, error: StoreUnavailableError) -> float:
        self.failures += 1
        if self._since is None:
            self._since = self._clock()
            log.warning(OUTAGE_STARTED, extra={"fields": {"loop": self.name, "error": str(error)[:200]}})
        base = min(self._cap, self._first * BACKOFF_GROWTH ** (self.failures - 1))
        return min(self._cap, base * (1 + self._rng.uniform(-BACKOFF_JITTER, BACKOFF_JITTER)))

    async def pause(self, error: StoreUnavailableError) -> None:
        await self._sleep(self.failed(error))

    def recovered(self) -> None:
        if self._since is None:
            return
        fields = {"loop": self.name, "failed_attempts": self.failures, "seconds": round(self._clock() - self._since, 1)}
        log.info(OUTAGE_ENDED, extra={"fields": fields})
        self._since, self.failures = None, 0
