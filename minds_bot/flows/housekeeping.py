"""Housekeeping: apply the store's retention policy soon after start and then every few hours, so the database does
not grow forever with delivery records and finished runs.

Owns: the pruning schedule, off the request path (its own task). The policy itself (what is old) and keeping
pruning to one replica at a time (an advisory lock on PostgreSQL; a replica that finds it taken skips that
round) belong to the store. While the store cannot be reached the round is tried again with a growing back-off
(``minds_bot.store.health.Outage``: one line when the outage starts, one when it ends), then every few hours again.
Must not touch: Slack or Minds.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import datetime

from minds_bot.services import Background
from minds_bot.store import Store, StoreUnavailableError
from minds_bot.store.health import Outage

log = logging.getLogger(__name__)

PRUNE_EVERY_SECONDS = 6 * 3600


class Housekeeping(Background):
    def __init__(self, *, store: Store, clock: Callable[[], datetime], every: float = PRUNE_EVERY_SECONDS) -> None:
        self._store = store
        self._clock = clock
        self._every = every
        self._task: asyncio.Task[None] | None = None
        self.outage = Outage("housekeeping")  # the loop's name in the log, verbatim

    async def prune_once(self) -> int:
        counts = await self._store.prune(self._clock())
        if counts.skipped:
            log.debug("another replica is pruning; skipped this round")
        elif counts.total:
            log.info("pruned old records", extra={"fields": {"removed": counts.total}})
        return counts.total

    async def start(self) -> None:
        # Off the start-up path: readiness does not wait for a prune.
        self._task = asyncio.create_task(self._loop(), name="housekeeping")

    async def _loop(self) -> None:
        while True:
            try:
                await self.prune_once()
            except StoreUnavailableError as exc:  # the database is down or restarting: soon again, backing off
                await self.outage.pause(exc)
                continue
            except Exception:  # noqa: BLE001 - a failed round is retried next round
                log.exception("pruning failed; will try again")
            else:
                self.outage.recovered()
            await asyncio.sleep(self._every)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None
