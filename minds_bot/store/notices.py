"""Hearing when a research run ends: who wants a DM, who already got one, and the runs' outcomes for the Home.

Owns the store contract for these (``RunNoticeStore``, part of ``Store``) and its two implementations:
``SqlRunNotices`` (SQLite and PostgreSQL, the shared statements) and ``MemoryRunNotices`` (the in-memory twin).
- Per person: DMs when a run ends are on unless the person turned them off (a row in ``run_dm_opt_outs``).
- Per run: who asked to be told with "Notify me" (``run_watchers``).
- Per run and person: the sent marker (``run_notices``), claimed atomically before the DM is posted — an
  ``INSERT … ON CONFLICT DO NOTHING`` on its primary key, so of any replicas or restarts that see the same
  end, exactly one posts it; released when posting fails, so a later look may try again.
- Per run: how it ended (``run_results``), written once, at the first look that saw its end (later looks keep
  the first record): the App Home's *Recent results* read it.
Must not call Slack or Minds.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Protocol

from minds_bot.store.codec import Row, encode_time, from_row, to_row
from minds_bot.store.records import Record, UtcDatetime
from minds_bot.store.session import SqlSection
from minds_bot.store.twin import MemorySection


class RunResult(Record):
    """How one research run ended, as Minds reported it, and where its thread is."""

    team_id: str
    run_id: str
    channel_id: str
    thread_ts: str | None = None
    study_name: str
    revision: int | None = None
    requester_id: str | None = None
    approver_id: str | None = None
    status: str  # Minds' final status word (completed, partial, plan_limited, cancelled, failed, …)
    cancelled_by: str | None = None
    permalink: str | None = None  # the thread's link as Slack gave it (None when Slack did not)
    ended_at: UtcDatetime


class RunNoticeStore(Protocol):
    """The part of ``Store`` that remembers DMs about run ends (see the module docstring)."""

    @abstractmethod
    async def set_run_dms(self, *, team_id: str, user_id: str, on: bool) -> None:
        """Turn a person's DMs about run ends on (the default) or off."""

    @abstractmethod
    async def run_dms_on(self, *, team_id: str, user_id: str) -> bool: ...

    @abstractmethod
    async def watch_run(self, *, team_id: str, run_id: str, user_id: str) -> bool:
        """Remember that ``user_id`` asked to be told when the run ends; False when they already had."""

    @abstractmethod
    async def run_watchers(self, *, team_id: str, run_id: str) -> list[str]:
        """Who pressed "Notify me" on the run, in the order they did."""

    @abstractmethod
    async def claim_run_notice(self, *, team_id: str, run_id: str, user_id: str) -> bool:
        """True exactly once per (run, person) across every replica: the caller posts that DM."""

    @abstractmethod
    async def release_run_notice(self, *, team_id: str, run_id: str, user_id: str) -> None:
        """Posting the claimed DM failed: a later look may claim it again."""

    @abstractmethod
    async def save_run_result(self, result: RunResult) -> RunResult:
        """Record how a run ended; a run already recorded keeps its first record, which is returned."""

    @abstractmethod
    async def get_run_result(self, *, team_id: str, run_id: str) -> RunResult | None:
        """How the run ended, if the bot recorded it (kept after its tracked run is pruned: where its thread is)."""

    @abstractmethod
    async def recent_run_results(self, *, team_id: str, user_id: str, limit: int) -> list[RunResult]:
        """The latest ended runs, newest first, that concern ``user_id``: runs in any channel where they
        requested a plan, approved a run, or are a named approver (their own plans' runs among them)."""


_RECENT_RESULTS = """
    SELECT * FROM run_results WHERE team_id = ? AND channel_id IN (
        SELECT channel_id FROM run_results WHERE team_id = ? AND (requester_id = ? OR approver_id = ?)
        UNION SELECT channel_id FROM plan_posts WHERE team_id = ? AND requester_id = ?
        UNION SELECT channel_id FROM approvers WHERE team_id = ? AND user_id = ?
    ) ORDER BY ended_at DESC, run_id LIMIT ?"""


class SqlRunNotices(SqlSection, RunNoticeStore):
    """The statements for SQLite and PostgreSQL (composed into ``SqlStore``)."""

    async def set_run_dms(self, *, team_id: str, user_id: str, on: bool) -> None:
        async with self._tx() as q:
            if on:
                await q.run("DELETE FROM run_dm_opt_outs WHERE team_id = ? AND user_id = ?", (team_id, user_id))
            else:
                row = {"team_id": team_id, "user_id": user_id, "turned_off_at": self._now()}
                await q.insert("run_dm_opt_outs", row, conflict="ignore")

    async def run_dms_on(self, *, team_id: str, user_id: str) -> bool:
        async with self._read() as q:
            row = await q.one("SELECT 1 FROM run_dm_opt_outs WHERE team_id = ? AND user_id = ?", (team_id, user_id))
        return row is None

    async def watch_run(self, *, team_id: str, run_id: str, user_id: str) -> bool:
        row = {"team_id": team_id, "run_id": run_id, "user_id": user_id, "added_at": self._now()}
        async with self._tx() as q:
            return await q.insert("run_watchers", row, conflict="ignore") == 1

    async def run_watchers(self, *, team_id: str, run_id: str) -> list[str]:
        async with self._read() as q:
            rows = await q.all(
                "SELECT user_id FROM run_watchers WHERE team_id = ? AND run_id = ? ORDER BY added_at, user_id",
                (team_id, run_id),
            )
        return [row[0] for row in rows]

    async def claim_run_notice(self, *, team_id: str, run_id: str, user_id: str) -> bool:
        row = {"team_id": team_id, "run_id": run_id, "user_id": user_id, "sent_at": self._now()}
        async with self._tx() as q:
            return await q.insert("run_notices", row, conflict="ignore") == 1

    async def release_run_notice(self, *, team_id: str, run_id: str, user_id: str) -> None:
        async with self._tx() as q:
            await q.run(
                "DELETE FROM run_notices WHERE team_id = ? AND run_id = ? AND user_id = ?", (team_id, run_id, user_id)
            )

    async def save_run_result(self, result: RunResult) -> RunResult:
        async with self._tx() as q:
            await q.insert("run_results", to_row(result, self._box), conflict="ignore")
            row = await q.one(
                "SELECT * FROM run_results WHERE team_id = ? AND run_id = ?", (result.team_id, result.run_id)
            )
        return result if row is None else from_row(RunResult, row, self._box)

    async def get_run_result(self, *, team_id: str, run_id: str) -> RunResult | None:
        async with self._read() as q:
            row = await q.one("SELECT * FROM run_results WHERE team_id = ? AND run_id = ?", (team_id, run_id))
        return None if row is None else from_row(RunResult, row, self._box)

    async def recent_run_results(self, *, team_id: str, user_id: str, limit: int) -> list[RunResult]:
        params = (team_id, team_id, user_id, user_id, team_id, user_id, team_id, user_id, limit)
        async with self._read() as q:
            rows = await q.all(_RECENT_RESULTS, params)
        return [from_row(RunResult, row, self._box) for row in rows]


class MemoryRunNotices(MemorySection, RunNoticeStore):
    """The in-memory twin (composed into ``MemoryStore``); each method is one uninterrupted step on the event loop."""

    _run_dm_opt_outs: set[tuple[str, str]]  # (team, user)
    _run_watchers: dict[tuple[str, str], list[str]]  # (team, run) -> users, in the order they asked
    _run_notices: set[tuple[str, str, str]]  # (team, run, user): the DM was claimed
    _run_results: dict[tuple[str, str], Row]
    _plan_posts: dict[tuple[str, str, str], Row]  # read: whose plans ran in which channel
    _approvers: dict[tuple[str, str], set[str]]  # read: who approves in which channel

    async def set_run_dms(self, *, team_id: str, user_id: str, on: bool) -> None:
        (self._run_dm_opt_outs.discard if on else self._run_dm_opt_outs.add)((team_id, user_id))

    async def run_dms_on(self, *, team_id: str, user_id: str) -> bool:
        return (team_id, user_id) not in self._run_dm_opt_outs

    async def watch_run(self, *, team_id: str, run_id: str, user_id: str) -> bool:
        watchers = self._run_watchers.setdefault((team_id, run_id), [])
        if user_id in watchers:
            return False
        watchers.append(user_id)
        return True

    async def run_watchers(self, *, team_id: str, run_id: str) -> list[str]:
        return list(self._run_watchers.get((team_id, run_id), []))

    async def claim_run_notice(self, *, team_id: str, run_id: str, user_id: str) -> bool:
        if (team_id, run_id, user_id) in self._run_notices:
            return False
        self._run_notices.add((team_id, run_id, user_id))
        return True

    async def release_run_notice(self, *, team_id: str, run_id: str, user_id: str) -> None:
        self._run_notices.discard((team_id, run_id, user_id))

    async def save_run_result(self, result: RunResult) -> RunResult:
        row = self._run_results.setdefault((result.team_id, result.run_id), to_row(result, self._box))
        return from_row(RunResult, row, self._box)

    async def get_run_result(self, *, team_id: str, run_id: str) -> RunResult | None:
        row = self._run_results.get((team_id, run_id))
        return None if row is None else from_row(RunResult, row, self._box)

    async def recent_run_results(self, *, team_id: str, user_id: str, limit: int) -> list[RunResult]:
        results = [from_row(RunResult, row, self._box) for row in self._run_results.values()]
        results = [r for r in results if r.team_id == team_id]
        channels = {r.channel_id for r in results if user_id in (r.requester_id, r.approver_id)}
        channels |= {
            p["channel_id"]
            for (team, _c, _t), p in self._plan_posts.items()
            if team == team_id and p["requester_id"] == user_id
        }
        channels |= {c for (team, c), users in self._approvers.items() if team == team_id and user_id in users}
        mine = [r for r in results if r.channel_id in channels]
        mine.sort(key=lambda r: r.run_id)
        mine.sort(key=lambda r: encode_time(r.ended_at), reverse=True)
        return mine[:limit]
