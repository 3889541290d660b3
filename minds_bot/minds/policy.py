"""Retry policy, backoff and the per-workspace rate limiter for Minds calls.

Owns: when a failed call may be repeated and how long to wait, and keeping one workspace under its Minds
allowance (300 requests/min by default) fairly: calls wait their turn round robin across callers (``caller``,
an opaque name the code above sets for the work it does on someone's behalf), so one caller's queue cannot starve
another's, and the limiter tells how much of the window one caller has used (``share_wait``). Time is injected
(``clock``/``sleep``) so tests never really wait.
Must not touch: HTTP, Slack, the store.
"""

from __future__ import annotations

import asyncio
import random
from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]

DEFAULT_REQUESTS_PER_MINUTE = 300
RATE_WINDOW_SECONDS = 60.0
# Our count forgets a request this much later than Minds' would: a request's travel time varies, and without the
# margin 301 requests could arrive within one of Minds' minutes (measured: benchmarks/run_fanout.py).
WINDOW_MARGIN_SECONDS = 1.0
RETRYABLE_STATUSES = frozenset({429, 500, 502, 503, 504})
# One caller may use at most this part of a workspace's window, so the rest stays free for everyone else.
CALLER_SHARE = 0.5

# Who the Minds calls in this task are made for ("" is the bot's own background work, which has no share).
caller: ContextVar[str] = ContextVar("minds_caller", default="")


@dataclass(frozen=True)
class RetryPolicy:
    """Bounded retries with exponential backoff and jitter.

    ``retry_after_cap``: a ``Retry-After`` up to this many seconds is waited out exactly; a longer one is not
    waited (the error is raised at once, carrying ``retry_after``) so a Slack request never hangs for minutes.
    """

    max_attempts: int = 4
    base_delay: float = 0.5
    max_delay: float = 8.0
    retry_after_cap: float = 30.0

    def backoff(self, attempt: int, rng: random.Random) -> float:
        """Delay before retry number ``attempt`` (1-based): exponential, then 50–100 % jitter."""
        ceiling = min(self.max_delay, self.base_delay * 2 ** (attempt - 1))
        return ceiling * (0.5 + rng.random() / 2)

    def delay_for(self, *, attempt: int, retry_after: float | None, rng: random.Random) -> float | None:
        """Seconds to wait before the next attempt, or None when no further attempt should be made."""
        if attempt >= self.max_attempts:
            return None
        if retry_after is not None:
            return retry_after if retry_after <= self.retry_after_cap else None
        return self.backoff(attempt, rng)


def poll_delay(attempt: int, rng: random.Random, *, first: float = 1.0, cap: float = 10.0) -> float:
    """Polling interval: 1 s doubling to 10 s, with ±20 % jitter so many workspaces do not poll in step."""
    base = min(cap, first * 2 ** max(0, attempt - 1))
    return min(cap, base * (0.8 + 0.4 * rng.random()))


def parse_retry_after(headers: Mapping[str, str]) -> float | None:
    """``Retry-After`` in seconds (Minds sends seconds); anything unreadable or negative is ignored."""
    raw = headers.get("retry-after")
    if raw is None:
        return None
    try:
        value = float(raw.strip())
    except ValueError:
        return None
    return value if value >= 0 else None


def parse_remaining(headers: Mapping[str, str]) -> int | None:
    raw = headers.get("ratelimit-remaining") or headers.get("x-ratelimit-remaining")
    if raw is None:
        return None
    try:
        return int(raw.strip())
    except ValueError:
        return None


class RateLimiter:
    """Keeps one workspace under ``requests_per_minute`` and honours what Minds says about the window.

    Share one instance per workspace key between every client built for it. Two sources of truth:
    our own sliding count of sent requests, and Minds' ``RateLimit-Remaining``/``Retry-After`` headers
    (Minds' limiter is per instance and may fail open, so our count still applies). Waiting calls are served
    round robin across callers (``caller``): a newcomer waits for at most one call of each other caller.
    """

    def __init__(
        self,
        *,
        requests_per_minute: int = DEFAULT_REQUESTS_PER_MINUTE,
        clock: Clock,
        sleep: Sleep,
    ) -> None:
        if requests_per_minute < 1:
            raise ValueError("requests_per_minute must be at least 1")
        self._limit = requests_per_minute
        self._clock = clock
        self._sleep = sleep
        self._sent: deque[tuple[float, str]] = deque()  # (when, for whom)
        self._blocked_until = 0.0
        self._turns = _Turns()

    @property
    def caller_limit(self) -> int:
        """How many calls of the window one named caller may use (``CALLER_SHARE`` of the limit)."""
        return max(1, int(self._limit * CALLER_SHARE))

    async def acquire(self) -> None:
        """Wait for this caller's turn and until one more request fits in the window, then count it."""
        who = caller.get()
        await self._turns.wait(who)
        try:
            while (wait := self._wait_needed()) > 0:
                await self._sleep(wait)
            self._sent.append((self._clock(), who))
        finally:
            self._turns.next()

    def delay(self, *, keep_free: float = 0.0) -> float:
        """Seconds until one more request would fit in this workspace's window (0 when it fits now) while
        leaving ``keep_free`` (a fraction of the limit) of the window for other work."""
        now = self._clock()
        self._expire(now)
        waits = [self._blocked_until - now]
        room = max(1, self._limit - int(self._limit * keep_free))
        if len(self._sent) >= room:
            waits.append(self._sent[len(self._sent) - room][0] + RATE_WINDOW_SECONDS + WINDOW_MARGIN_SECONDS - now)
        return max(0.0, *waits)

    def share_wait(self, who: str) -> float:
        """Seconds until ``who`` is back under its share of the window (0 when it is, or for the bot itself)."""
        now = self._clock()
        self._expire(now)
        mine = [at for at, name in self._sent if name == who]
        if not who or len(mine) < self.caller_limit:
            return 0.0
        return mine[len(mine) - self.caller_limit] + RATE_WINDOW_SECONDS - now  # our own share: no margin needed

    def observe(self, *, status_code: int, headers: Mapping[str, str]) -> None:
        """Learn from a reply: a spent allowance or a 429 blocks this whole workspace until it resets."""
        retry_after = parse_retry_after(headers)
        remaining = parse_remaining(headers)
        now = self._clock()
        if status_code == 429 or remaining == 0:
            pause = retry_after if retry_after is not None else RATE_WINDOW_SECONDS
            self._blocked_until = max(self._blocked_until, now + pause)

    def _expire(self, now: float) -> None:
        while self._sent and self._sent[0][0] <= now - RATE_WINDOW_SECONDS - WINDOW_MARGIN_SECONDS:
            self._sent.popleft()

    def _wait_needed(self) -> float:
        now = self._clock()
        self._expire(now)
        waits = [self._blocked_until - now]
        if len(self._sent) >= self._limit:
            waits.append(self._sent[0][0] + RATE_WINDOW_SECONDS + WINDOW_MARGIN_SECONDS - now)
        return max(waits)


class _Turns:
    """One waiter at a time, callers served round robin; each caller's own calls keep their order."""

    def __init__(self) -> None:
        self._waiting: dict[str, deque[asyncio.Future[None]]] = {}  # insertion order is the rotation
        self._busy = False

    async def wait(self, who: str) -> None:
        if not self._busy:
            self._busy = True
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(who, deque()).append(turn)
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self.next()  # the turn came as we were cancelled: pass it on
            raise

    def next(self) -> None:
        """Hand the turn to the next caller in the rotation (that caller goes to the back), or free it."""
        while self._waiting:
            who = next(iter(self._waiting))
            queue = self._waiting.pop(who)
            turn = queue.popleft()
            if queue:
                self._waiting[who] = queue
            if not turn.done():
                turn.set_result(None)
                return
        self._busy = False
