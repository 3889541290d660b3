"""Minds reads shared by the digests of one workspace that fire together.

Owns: ``SharedReads``, which hands the digests of one workspace due at the same fire time (one *wave*) a reader
(``DigestReads``) whose answers they share: the first digest to ask reads Minds, digests asking the same while
that read is in flight wait for it (one request, not many), and later ones of the wave take the kept answer — a
refusal included, so a failing Minds is asked once per wave, not once per digest. A digest posted on request
reads for itself. Answers are dropped ``SHARED_SECONDS`` after they were read. 500 digests of one workspace due
in the same minute then cost Minds what one wave of distinct reads costs, within its 300 requests a minute per
key (``benchmarks/digest_fanout.py``). Answers are kept per workspace key, never across workspaces.
Must not touch: Slack, the store, the watermark (each digest still diffs against its own).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable
from typing import Any, Protocol, TypeVar

from minds_bot.minds import AgentRun, MindsClient, ResearchRun, SemanticSummary, Study, StudyDetail, Walked

SHARED_SECONDS = 60.0  # how long a wave's answers are kept (a wave's digests start within its minute)
T = TypeVar("T")


class DigestReads(Protocol):
    """The Minds reads a digest makes (GETs only)."""

    def iter_studies(self, *, max_items: int | None = None) -> AsyncIterator[Study]: ...

    async def get_study(self, study_id: str) -> StudyDetail: ...

    async def all_study_runs(self, study_id: str) -> Walked[AgentRun]: ...

    async def get_research_run(self, study_id: str, run_id: str) -> ResearchRun: ...

    async def get_summary(self, study_id: str) -> SemanticSummary: ...


class SharedReads:
    def __init__(self, *, seconds: float = SHARED_SECONDS, clock: Callable[[], float] = time.monotonic) -> None:
        self._seconds = seconds
        self._clock = clock
        self._answers: dict[Hashable, tuple[float, asyncio.Task[Any]]] = {}

    def reader(self, client: MindsClient, *, team_id: str, wave: str) -> DigestReads:
        """A reader sharing answers with the other digests of ``team_id`` due at fire time ``wave``."""
        return _SharedReader(self, (team_id, wave), client)

    async def read(self, key: Hashable, fetch: Callable[[], Awaitable[T]]) -> T:
        now = self._clock()
        self._expire(now)
        kept = self._answers.get(key)
        if kept is None:
            task: asyncio.Task[Any] = asyncio.ensure_future(fetch())
            task.add_done_callback(_retrieved)
            self._answers[key] = (now, task)
        else:
            task = kept[1]
        return await asyncio.shield(task)  # one digest giving up does not cancel the read the others wait for

    def _expire(self, now: float) -> None:
        for key in [k for k, (at, _) in self._answers.items() if at <= now - self._seconds]:
            del self._answers[key]


def _retrieved(task: asyncio.Task[Any]) -> None:
    if not task.cancelled():
        task.exception()  # every waiter sees it; this only keeps asyncio from warning about a kept refusal


class _SharedReader:
    def __init__(self, shared: SharedReads, wave: tuple[str, str], client: MindsClient) -> None:
        self._shared, self._team, self._client = shared, wave, client

    async def iter_studies(self, *, max_items: int | None = None) -> AsyncIterator[Study]:
        async def listed() -> list[Study]:
            return [s async for s in self._client.iter_studies(max_items=max_items)]

        for study in await self._shared.read((self._team, "studies", max_items), listed):
            yield study

    async def get_study(self, study_id: str) -> StudyDetail:
        return await self._shared.read((self._team, "study", study_id), lambda: self._client.get_study(study_id))

    async def all_study_runs(self, study_id: str) -> Walked[AgentRun]:
        key = (self._team, "runs", study_id)
        return await self._shared.read(key, lambda: self._client.all_study_runs(study_id))

    async def get_research_run(self, study_id: str, run_id: str) -> ResearchRun:
        key = (self._team, "run", study_id, run_id)
        return await self._shared.read(key, lambda: self._client.get_research_run(study_id, run_id))

    async def get_summary(self, study_id: str) -> SemanticSummary:
        return await self._shared.read((self._team, "summary", study_id), lambda: self._client.get_summary(study_id))
