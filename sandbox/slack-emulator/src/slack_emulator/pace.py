"""Slack's documented rate limits as the emulator enforces them when ``EmulatorConfig.slack_limits`` is on.

The model: ``chat.postMessage`` about one a second per channel after a short burst (``POST_BURST``), and
``chat.update`` (Tier 3) 50 a minute per workspace. A call over either limit is refused with HTTP 429 and a
``Retry-After`` in whole seconds, and counted in ``refused`` so a benchmark can report Slack's 429s.
Must not touch workspace data.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable

POSTS_PER_SECOND = 1.0
POST_BURST = 10
TIER3_PER_MINUTE = 50
WINDOW_SECONDS = 60.0


class SlackPace:
    def __init__(self, clock: Callable[[], float]) -> None:
        self._clock = clock
        self._channels: dict[str, tuple[float, float]] = {}  # channel -> (tokens, at)
        self._updates: dict[str, deque[float]] = {}  # workspace -> recent chat.update times
        self.refused: dict[str, int] = {}  # method -> 429s answered

    def take(self, method: str, *, workspace: str, channel: str | None) -> int | None:
        """Retry-After seconds when this call is over Slack's limit (and is refused), else None (counted)."""
        now = self._clock()
        wait = 0.0
        if method == "chat.postMessage" and channel:
            tokens, at = self._channels.get(channel, (float(POST_BURST), now))
            tokens = min(float(POST_BURST), tokens + (now - at) * POSTS_PER_SECOND)
            if tokens < 1.0:
                wait = (1.0 - tokens) / POSTS_PER_SECOND
            else:
                self._channels[channel] = (tokens - 1.0, now)
        elif method == "chat.update":
            sent = self._updates.setdefault(workspace, deque())
            while sent and sent[0] <= now - WINDOW_SECONDS:
                sent.popleft()
            if len(sent) >= TIER3_PER_MINUTE:
                wait = sent[0] + WINDOW_SECONDS - now
            else:
                sent.append(now)
        if wait <= 0:
            return None
        self.refused[method] = self.refused.get(method, 0) + 1
        return max(1, math.ceil(wait))
