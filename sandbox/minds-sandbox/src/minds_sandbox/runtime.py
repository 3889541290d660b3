"""The live sandbox: state, engine, clock, store and fault knobs shared by every handler of one server.

Owns: ``Runtime`` (one per application), reset, URL signing for downloads, the per-key rate window and the per-key
traffic count (``Traffic``: every request that reached ``/api/v1``, the most in any sliding window, the 429s),
counted on the real monotonic clock (the sandbox clock may be manual or skipped ahead).
Must not define routes.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import random
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from aiohttp import web

from minds_sandbox.clock import Clock
from minds_sandbox.config import Faults, SandboxConfig
from minds_sandbox.engine import Engine
from minds_sandbox.seed import build_audience, build_demo_state
from minds_sandbox.state import SandboxState, SnapshotStore

Sleeper = Callable[[float], Awaitable[None]]
SIGNED_URL_TTL_SECONDS = 300


@dataclass
class Traffic:
    """What one key sent: every arrival, the most arrivals within any ``window`` seconds, and how many got a 429."""

    window: float
    total: int = 0
    max_in_window: int = 0
    throttled: int = 0
    _recent: deque[float] = field(default_factory=deque)

    def arrive(self, at: float) -> None:
        while self._recent and self._recent[0] <= at - self.window:
            self._recent.popleft()
        self._recent.append(at)
        self.total += 1
        self.max_in_window = max(self.max_in_window, len(self._recent))

    def as_json(self) -> dict[str, int]:
        return {"total": self.total, "maxInWindow": self.max_in_window, "throttled": self.throttled}


@dataclass
class Runtime:
    config: SandboxConfig
    clock: Clock
    sleep: Sleeper
    store: SnapshotStore | None
    engine: Engine
    fault_rng: random.Random
    signing_key: bytes = field(default_factory=lambda: secrets.token_bytes(32))
    windows: dict[str, tuple[int, int]] = field(default_factory=dict)  # key fingerprint -> (window, count)
    traffic: dict[str, Traffic] = field(default_factory=dict)  # key fingerprint -> what it sent
    monotonic: Callable[[], float] = time.monotonic

    @property
    def state(self) -> SandboxState:
        return self.engine.state

    @property
    def faults(self) -> Faults:
        return self.engine.faults

    def reset(self) -> None:
        """Back to the seeded demo and the configured faults, as if freshly started without a database."""
        state = build_demo_state(self.config.seed)
        state.allowance = self.config.response_allowance
        state.revision = self.state.revision + 1
        self.engine = new_engine(state=state, clock=self.clock, config=self.config)
        self.fault_rng = random.Random(self.config.seed)
        self.windows.clear()
        self.traffic.clear()

    # ------------------------------------------------------------ signed downloads

    def note_throttled(self, key_fp: str) -> None:
        """This key's request was answered 429."""
        if key_fp in self.traffic:
            self.traffic[key_fp].throttled += 1

    def sign(self, file_id: str) -> str:
        expires = int(self.clock.now()) + SIGNED_URL_TTL_SECONDS
        payload = f"{file_id}.{expires}"
        return f"{payload}.{self._mac(payload)}"

    def verify(self, token: str) -> str | None:
        """The file id a token grants, or None when it is forged, malformed or expired."""
        file_id, _, rest = token.partition(".")
        expires, _, mac = rest.partition(".")
        if not expires.isdigit() or not hmac.compare_digest(mac, self._mac(f"{file_id}.{expires}")):
            return None
        return file_id if self.clock.now() <= int(expires) else None

    def _mac(self, payload: str) -> str:
        return hmac.new(self.signing_key, payload.encode(), hashlib.sha256).hexdigest()[:32]

    # ------------------------------------------------------------ rate limit

    def count_request(self, key_fp: str) -> tuple[int, int, int] | None:
        """(limit, remaining, seconds to reset) after counting this request; None when unlimited."""
        span = self.config.rate_window_seconds
        self.traffic.setdefault(key_fp, Traffic(window=span)).arrive(self.monotonic())
        limit = self.config.rate_limit_per_minute
        if limit is None:
            return None
        now = self.clock.now()
        window = int(now // span)
        seen_window, count = self.windows.get(key_fp, (window, 0))
        count = count + 1 if seen_window == window else 1
        self.windows[key_fp] = (window, count)
        reset = math.ceil((window + 1) * span - now)
        return limit, limit - count, max(1, reset)


def new_engine(*, state: SandboxState, clock: Clock, config: SandboxConfig) -> Engine:
    return Engine(
        state=state,
        clock=clock,
        config=config,
        faults=config.faults.model_copy(deep=True),
        build_audience=build_audience,
    )


async def load_state(config: SandboxConfig, store: SnapshotStore | None) -> SandboxState:
    state = await store.load() if store else None
    if state is None:
        state = build_demo_state(config.seed)
        state.touch()  # a fresh database gets its first snapshot right away
    state.allowance = config.response_allowance
    return state


RUNTIME: web.AppKey[Runtime] = web.AppKey("minds_sandbox_runtime", Runtime)
