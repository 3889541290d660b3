"""Retry policy, backoff and the per-key rate limiter (the Minds budget) for Minds calls.

Owns: when a failed call may be repeated and how long to wait, and keeping one Minds key under its allowance
(300 requests/min by default) fairly: calls wait their turn round robin across callers (``caller``, an opaque
name the code above sets for the work it does on someone's behalf), so one caller's queue cannot starve another's,
and the limiter tells how much of the window one caller has used (``share_wait``). The requests of the window are
counted in a ``BudgetLedger``: ``MemoryLedger`` for one process, or one the store provides (PostgreSQL) so that
replicas and workspaces sharing a key share one budget. A budget is named by ``budget_name`` (a salted hash of the
key), never by the key. Time is injected (``clock``/``sleep``) so tests never really wait.
Must not touch: HTTP, Slack, the store (the ledger is a protocol the store happens to implement).
"""

from __future__ import annotations

import asyncio
import hashlib
import random
from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Protocol

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
# Fixed salt of ``budget_name``: the ledger row names a key without being a plain hash of it.
BUDGET_SALT = b"minds-bot budget v1:"

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
        ceiling = min(self.max_delay, self.base_delay * 2.0 ** (attempt - 1))
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
    base = min(cap, first * 2.0 ** max(0, attempt - 1))
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


def budget_name(api_key: str) -> str:
    """The name a Minds key's budget is counted under: a salted SHA-256 of the key (the key is never stored)."""
    return hashlib.sha256(BUDGET_SALT + api_key.strip().encode()).hexdigest()


class BudgetLedger(Protocol):
    """Where a Minds key's requests of the last window are counted; every process sharing the ledger shares the
    budget. ``budget`` is a ``budget_name``; times are the ledger's own (ages are returned, not instants)."""

    async def budget_take(self, budget: str, *, caller: str, limit: int, window: float) -> float:
        """Count one request for ``caller`` now and return 0 when fewer than ``limit`` were counted in the last
        ``window`` seconds; otherwise count nothing and return the seconds until one more would fit."""
        ...

    async def budget_recent(self, budget: str, *, window: float) -> list[tuple[float, str]]:
        """(seconds ago, caller) of every request counted in the last ``window`` seconds, oldest first."""
        ...

    async def budget_block(self, budget: str, *, seconds: float) -> None:
        """Count no request of ``budget`` for ``seconds`` from now (``budget_take`` returns the rest of the pause)."""
        ...


class MemoryLedger:
    """A ``BudgetLedger`` in this process's memory (no database, or SQLite's single process)."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._sent: dict[str, deque[tuple[float, str]]] = {}  # budget -> (when, for whom)
        self._blocked: dict[str, float] = {}  # budget -> no request before this time

    async def budget_take(self, budget: str, *, caller: str, limit: int, window: float) -> float:
        now = self._clock()
        if (blocked := self._blocked.get(budget, 0.0)) > now:
            return blocked - now
        sent = self._expire(budget, now, window)
        if len(sent) >= limit:
            return max(1e-3, sent[len(sent) - limit][0] + window - now)
        sent.append((now, caller))
        return 0.0

    async def budget_recent(self, budget: str, *, window: float) -> list[tuple[float, str]]:
        now = self._clock()
        return [(now - at, who) for at, who in self._expire(budget, now, window)]

    async def budget_block(self, budget: str, *, seconds: float) -> None:
        self._blocked[budget] = max(self._blocked.get(budget, 0.0), self._clock() + seconds)

    def _expire(self, budget: str, now: float, window: float) -> deque[tuple[float, str]]:
        sent = self._sent.setdefault(budget, deque())
        while sent and sent[0][0] <= now - window:
            sent.popleft()
        return sent


class RateLimiter:
    """Keeps one Minds key under ``requests_per_minute`` per ``window`` seconds and honours what Minds says.

    Share one instance per key between every client built for it in this process; share the ``ledger`` between
    processes. Two sources of truth: the ledger's sliding count of sent requests (and the pause a 429 set), and
    Minds' ``RateLimit-Remaining``/``Retry-After`` headers (Minds' limiter is per instance and may fail open, so
    our count still applies).
    Waiting calls are served round robin across callers (``caller``): a newcomer waits for at most one call of
    each other caller of this process.
    """

    def __init__(
        self,
        *,
        requests_per_minute: int = DEFAULT_REQUESTS_PER_MINUTE,
        window: float = RATE_WINDOW_SECONDS,
        clock: Clock,
        sleep: Sleep,
        ledger: BudgetLedger | None = None,
        budget: str = "",
    ) -> None:
        if requests_per_minute < 1:
            raise ValueError("requests_per_minute must be at least 1")
        if window <= 0:
            raise ValueError("window must be positive")
        self._limit = requests_per_minute
        self._window = window
        self._clock = clock
        self._sleep = sleep
        self._ledger: BudgetLedger = ledger if ledger is not None else MemoryLedger(clock)
        self._budget = budget
        self._blocked_until = 0.0
        self._turns = _Turns()

    @property
    def caller_limit(self) -> int:
        """How many calls of the window one named caller may use (``CALLER_SHARE`` of the limit)."""
        return max(1, int(self._limit * CALLER_SHARE))

    @property
    def _counted(self) -> float:
        """How long the ledger remembers a request: the window plus the travel-time margin."""
        return self._window + WINDOW_MARGIN_SECONDS

    async def acquire(self) -> None:
        """Wait for this caller's turn and until one more request fits in the window, then count it."""
        who = caller.get()
        await self._turns.wait(who)
        try:
            while True:
                blocked = self._blocked_until - self._clock()
                if blocked > 0:
                    await self._sleep(blocked)
                    continue
                wait = await self._ledger.budget_take(self._budget, caller=who, limit=self._limit, window=self._counted)
                if wait <= 0:
                    return
                await self._sleep(wait)
        finally:
            self._turns.next()

    async def delay(self, *, keep_free: float = 0.0) -> float:
        """Seconds until one more request would fit in this key's window (0 when it fits now) while leaving
        ``keep_free`` (a fraction of the limit) of the window for other work."""
        recent = await self._ledger.budget_recent(self._budget, window=self._counted)
        waits = [self._blocked_until - self._clock()]
        room = max(1, self._limit - int(self._limit * keep_free))
        if len(recent) >= room:
            waits.append(self._counted - recent[len(recent) - room][0])
        return max(0.0, *waits)

    async def share_wait(self, who: str) -> float:
        """Seconds until ``who`` is back under its share of the window (0 when it is, or for the bot itself)."""
        if not who:
            return 0.0
        recent = await self._ledger.budget_recent(self._budget, window=self._window)  # our own share: no margin
        mine = [age for age, name in recent if name == who]
        if len(mine) < self.caller_limit:
            return 0.0
        return max(0.0, self._window - mine[len(mine) - self.caller_limit])

    async def observe(self, *, status_code: int, headers: Mapping[str, str]) -> None:
        """Learn from a reply: a spent allowance or a 429 blocks this key until it resets; a 429 blocks it for every
        process sharing the ledger too (the spent allowance only here: without a reset time its pause is a guess)."""
        retry_after = parse_retry_after(headers)
        remaining = parse_remaining(headers)
        now = self._clock()
        if status_code == 429 or remaining == 0:
            pause = retry_after if retry_after is not None else self._window
            self._blocked_until = max(self._blocked_until, now + pause)
            if status_code == 429:
                await self._ledger.budget_block(self._budget, seconds=pause)


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
