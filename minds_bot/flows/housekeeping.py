"""Housekeeping: apply the store's retention policy soon after start and then every few hours, so the database does
not grow forever with delivery records and finished runs.

Owns: the pruning schedule, off the request path (its own task). The policy itself (what is old) and keeping
pruning to one replica at a time (an advisory lock on PostgreSQL; a replica that finds it taken skips that
round) belong to the store. While the store cannot be reached the round is tried again with a growing back-off
(``minds_bot.store.health.Outage``: one line when the outage starts, one when it ends), then every few hours again.
Must not touch: Slack or Minds.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime

from minds_bot.services.background import Periodic
from minds_bot.store import Store

log = logging.getLogger(__name__)

PRUNE_EVERY_SECONDS = 6 * 3600


class Housekeeping(Periodic):
    def __init__(self, *, store: Store, clock: Callable[[], datetime], every: float = PRUNE_EVERY_SECONDS) -> None:
        # Its own task, off the start-up path: readiness does not wait for a prune.
        failure = "pruning failed; will try again"  # for logs, verbatim
        super().__init__("housekeeping", every=every, failure=failure, logger=log)
        self._store = store
        self._clock = clock

    async def step(self) -> None:
        await self.prune_once()

    async def prune_once(self) -> int:
        counts = await self._store.prune(self._clock())
        if counts.skipped:
            log.debug("another replica is pruning; skipped this round")
        elif counts.total:
            log.info("pruned old records", extra={"fields": {"removed": counts.total}})
        return counts.total
