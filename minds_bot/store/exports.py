"""Exports: a study's report or data file being built by Minds and delivered to Slack.

Owns the store contract for them (``ExportStore``, part of ``Store``) and its two implementations: ``SqlExports``
(table ``exports``) and ``MemoryExports``. An unfinished export is resumed after a restart. Must not call Slack
or Minds.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Any, Protocol

from minds_bot.store.codec import Row, from_row
from minds_bot.store.errors import RecordNotFoundError
from minds_bot.store.records import FINISHED_EXPORT_STATES, ExportJob, ExportState
from minds_bot.store.session import Session, SqlSection
from minds_bot.store.twin import MemorySection, require


class ExportStore(Protocol):
    """Export jobs by (team, job_id) and their state until delivered or failed."""

    @abstractmethod
    async def add_export(self, job: ExportJob) -> bool:
        """True when new; False when (team, job_id) exists already."""

    @abstractmethod
    async def get_export(self, *, team_id: str, job_id: str) -> ExportJob | None: ...

    @abstractmethod
    async def update_export(
        self,
        *,
        team_id: str,
        job_id: str,
        state: ExportState,
        file_name: str | None = None,
        sha256: str | None = None,
    ) -> ExportJob:
        """Set the state; file_name / sha256 are only overwritten when given. Raises RecordNotFoundError."""

    @abstractmethod
    async def unfinished_exports(self) -> list[ExportJob]:
        """Exports neither delivered nor failed (resume after restart)."""


class SqlExports(SqlSection, ExportStore):
    """The statements for SQLite and PostgreSQL (composed into ``SqlStore``)."""

    async def add_export(self, job: ExportJob) -> bool:
        return await self._insert_new("exports", job)

    async def get_export(self, *, team_id: str, job_id: str) -> ExportJob | None:
        async with self._read() as q:
            row = await _get_export(q, team_id=team_id, job_id=job_id)
        return None if row is None else from_row(ExportJob, row, self._box)

    async def update_export(
        self,
        *,
        team_id: str,
        job_id: str,
        state: ExportState,
        file_name: str | None = None,
        sha256: str | None = None,
    ) -> ExportJob:
        async with self._tx() as q:
            await q.run(
                "UPDATE exports SET state = ?, file_name = coalesce(?, file_name), "
                "sha256 = coalesce(?, sha256), updated_at = ? WHERE team_id = ? AND job_id = ?",
                (state.value, file_name, sha256, self._now(), team_id, job_id),
            )
            row = await _get_export(q, team_id=team_id, job_id=job_id)
        if row is None:
            raise RecordNotFoundError(f"no export job {job_id}")
        return from_row(ExportJob, row, self._box)

    async def unfinished_exports(self) -> list[ExportJob]:
        finished = tuple(state.value for state in FINISHED_EXPORT_STATES)
        async with self._read() as q:
            rows = await q.all("SELECT * FROM exports WHERE state NOT IN (?, ?) ORDER BY created_at, job_id", finished)
        return [from_row(ExportJob, row, self._box) for row in rows]


async def _get_export(q: Session, *, team_id: str, job_id: str) -> Any | None:
    return await q.one("SELECT * FROM exports WHERE team_id = ? AND job_id = ?", (team_id, job_id))


class MemoryExports(MemorySection, ExportStore):
    """The in-memory twin (composed into ``MemoryStore``); each method is one uninterrupted step on the event loop."""

    _exports: dict[tuple[str, str], Row]

    async def add_export(self, job: ExportJob) -> bool:
        return self._insert_new(self._exports, (job.team_id, job.job_id), job)

    async def get_export(self, *, team_id: str, job_id: str) -> ExportJob | None:
        return self._load(ExportJob, self._exports.get((team_id, job_id)))

    async def update_export(
        self,
        *,
        team_id: str,
        job_id: str,
        state: ExportState,
        file_name: str | None = None,
        sha256: str | None = None,
    ) -> ExportJob:
        row = require(self._exports, (team_id, job_id), what="export job")
        row.update(state=state.value, updated_at=self._now())
        if file_name is not None:
            row["file_name"] = file_name
        if sha256 is not None:
            row["sha256"] = sha256
        return from_row(ExportJob, row, self._box)

    async def unfinished_exports(self) -> list[ExportJob]:
        finished = {state.value for state in FINISHED_EXPORT_STATES}
        rows = (row for row in self._exports.values() if row["state"] not in finished)
        return self._load_all(ExportJob, rows, order=lambda row: (row["created_at"], row["job_id"]))
