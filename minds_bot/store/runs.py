"""Tracked runs: the Minds runs the bot follows until their end is posted, and the leases on polling them.

Owns the store contract for them (``RunStore``, part of ``Store``) and its two implementations: ``SqlRuns``
(table ``tracked_runs``) and ``MemoryRuns``. A due run is leased to one replica at a time (leases.py); its
terminal post is claimed by exactly one caller, a claim lasting TERMINAL_CLAIM_LEASES leases. Must not call
Slack or Minds.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Collection
from datetime import datetime
from typing import Any, Protocol, TypedDict, Unpack

from minds_bot.store.codec import Row, encode_time, from_row
from minds_bot.store.errors import RecordNotFoundError
from minds_bot.store.leases import count_takeovers, lease_free
from minds_bot.store.records import TrackedRun
from minds_bot.store.session import Session, SqlSection
from minds_bot.store.twin import MemorySection, require

# Work that is due and whose lease (if any) has run out: claimed with a lease by whoever selects it first.
_DUE_RUNS = (
    "SELECT * FROM tracked_runs WHERE terminal_posted = 0 AND next_poll_at <= ? "
    "AND (terminal_claimed_at IS NULL OR terminal_claimed_at < ?) "
    "AND (lease_until IS NULL OR lease_until < ?) "
    "ORDER BY next_poll_at, created_at, run_id LIMIT ?"
)


class RunPoll(TypedDict):
    """One poll's outcome (``RunStore.update_run_poll``'s keywords besides the run)."""

    next_poll_at: datetime
    attempts: int
    last_state: str | None  # what Slack last showed, to skip no-op edits
    progress_ts: str | None  # the message edited with progress


class RunStore(Protocol):
    """Runs by (team, run_id): due polls leased to a holder, and the once-only terminal post."""

    @abstractmethod
    async def add_tracked_run(self, run: TrackedRun) -> bool:
        """True when newly tracked; False (and nothing changes) when (team, run_id) is already tracked."""

    @abstractmethod
    async def get_tracked_run(self, *, team_id: str, run_id: str) -> TrackedRun | None: ...

    @abstractmethod
    async def claim_due_runs(self, *, holder: str, limit: int) -> list[TrackedRun]:
        """Lease up to `limit` unposted runs whose next poll is due, that nobody holds a live lease or terminal
        claim on, oldest due first, to `holder`. Concurrent claimers never get the same run. The lease ends with
        `update_run_poll` or `mark_terminal_posted`, or runs out (its holder died)."""

    @abstractmethod
    async def renew_run_leases(self, *, holder: str, keys: Collection[tuple[str, str]]) -> int:
        """Extend `holder`'s live leases on these (team_id, run_id) runs, and any terminal claim taken under
        them, by one claim lease from now; returns how many it still held."""

    @abstractmethod
    async def update_run_poll(self, *, team_id: str, run_id: str, **poll: Unpack[RunPoll]) -> None:
        """Record one poll's outcome and end the run's lease; never touches the terminal-post fields. Raises
        RecordNotFoundError."""

    @abstractmethod
    async def note_cancel_requested(self, *, team_id: str, run_id: str, user_id: str) -> None:
        """Remember who asked Minds to cancel the run (Minds accepted), for the words of its outcome. Raises
        RecordNotFoundError."""

    @abstractmethod
    async def claim_terminal_post(self, *, team_id: str, run_id: str) -> bool:
        """True for exactly one caller until released or posted. A claim older than TERMINAL_CLAIM_LEASES claim
        leases (renewed with the run's lease while its holder works) is treated as abandoned by a crashed process
        and can be taken again."""

    @abstractmethod
    async def release_terminal_post(self, *, team_id: str, run_id: str) -> None:
        """Give the claim back after a failed post so a later poll can try again."""

    @abstractmethod
    async def mark_terminal_posted(self, *, team_id: str, run_id: str) -> None:
        """The terminal result is in Slack: never poll or post this run again."""

    @abstractmethod
    async def unfinished_runs(self) -> list[TrackedRun]:
        """Every run whose terminal result is not posted yet (resume after restart)."""


class SqlRuns(SqlSection, RunStore):
    """The statements for SQLite and PostgreSQL (composed into ``SqlStore``)."""

    async def add_tracked_run(self, run: TrackedRun) -> bool:
        return await self._insert_new("tracked_runs", run)

    async def get_tracked_run(self, *, team_id: str, run_id: str) -> TrackedRun | None:
        async with self._read() as q:
            row = await _get_run(q, team_id=team_id, run_id=run_id)
        return None if row is None else from_row(TrackedRun, row, self._box)

    async def claim_due_runs(self, *, holder: str, limit: int) -> list[TrackedRun]:
        now = self._clock()
        until = encode_time(now + self._lease)
        async with self._tx() as q:
            rows = await q.all(
                _DUE_RUNS + q.skip_locked,
                (encode_time(now), encode_time(now - self._post_lease), encode_time(now), max(limit, 0)),
            )
            count_takeovers("run", rows, holder)
            for row in rows:
                await q.run(
                    "UPDATE tracked_runs SET lease_holder = ?, lease_until = ? WHERE team_id = ? AND run_id = ?",
                    (holder, until, row["team_id"], row["run_id"]),
                )
        return [from_row(TrackedRun, row, self._box) for row in rows]

    async def renew_run_leases(self, *, holder: str, keys: Collection[tuple[str, str]]) -> int:
        now = self._now()
        until = encode_time(self._clock() + self._lease)
        renewed = 0
        async with self._tx() as q:
            for team_id, run_id in keys:
                # A terminal claim taken under this lease is renewed with it.
                renewed += await q.run(
                    "UPDATE tracked_runs SET lease_until = ?, terminal_claimed_at = "
                    "CASE WHEN terminal_claimed_at IS NULL THEN NULL ELSE CAST(? AS TEXT) END "
                    "WHERE team_id = ? AND run_id = ? AND lease_holder = ? AND terminal_posted = 0",
                    (until, now, team_id, run_id, holder),
                )
        return renewed

    async def update_run_poll(self, *, team_id: str, run_id: str, **poll: Unpack[RunPoll]) -> None:
        await self._update_run(
            team_id=team_id,
            run_id=run_id,
            assignments="next_poll_at = ?, attempts = ?, last_state = ?, progress_ts = ?, "
            "lease_holder = NULL, lease_until = NULL",
            values=(encode_time(poll["next_poll_at"]), poll["attempts"], poll["last_state"], poll["progress_ts"]),
        )

    async def note_cancel_requested(self, *, team_id: str, run_id: str, user_id: str) -> None:
        await self._update_run(team_id=team_id, run_id=run_id, assignments="cancelled_by = ?", values=(user_id,))

    async def claim_terminal_post(self, *, team_id: str, run_id: str) -> bool:
        now = self._clock()
        async with self._tx() as q:
            changed = await q.run(
                "UPDATE tracked_runs SET terminal_claimed_at = ?, updated_at = ? "
                "WHERE team_id = ? AND run_id = ? AND terminal_posted = 0 "
                "AND (terminal_claimed_at IS NULL OR terminal_claimed_at < ?)",
                (encode_time(now), encode_time(now), team_id, run_id, encode_time(now - self._post_lease)),
            )
            exists = changed == 1 or await _get_run(q, team_id=team_id, run_id=run_id) is not None
        if not exists:
            raise RecordNotFoundError(f"run {run_id} is not tracked")
        return changed == 1

    async def release_terminal_post(self, *, team_id: str, run_id: str) -> None:
        await self._update_run(team_id=team_id, run_id=run_id, assignments="terminal_claimed_at = NULL", values=())

    async def mark_terminal_posted(self, *, team_id: str, run_id: str) -> None:
        await self._update_run(
            team_id=team_id,
            run_id=run_id,
            assignments="terminal_posted = 1, terminal_claimed_at = NULL, finished_at = ?, "
            "lease_holder = NULL, lease_until = NULL",
            values=(self._now(),),
        )

    async def _update_run(self, *, team_id: str, run_id: str, assignments: str, values: tuple[Any, ...]) -> None:
        async with self._tx() as q:
            changed = await q.run(
                f"UPDATE tracked_runs SET {assignments}, updated_at = ? WHERE team_id = ? AND run_id = ?",  # noqa: S608
                (*values, self._now(), team_id, run_id),
            )
        if changed == 0:
            raise RecordNotFoundError(f"run {run_id} is not tracked")

    async def unfinished_runs(self) -> list[TrackedRun]:
        async with self._read() as q:
            rows = await q.all("SELECT * FROM tracked_runs WHERE terminal_posted = 0 ORDER BY created_at, run_id")
        return [from_row(TrackedRun, row, self._box) for row in rows]


async def _get_run(q: Session, *, team_id: str, run_id: str) -> Any | None:
    return await q.one("SELECT * FROM tracked_runs WHERE team_id = ? AND run_id = ?", (team_id, run_id))


class MemoryRuns(MemorySection, RunStore):
    """The in-memory twin (composed into ``MemoryStore``); each method is one uninterrupted step on the event loop."""

    _runs: dict[tuple[str, str], Row]

    async def add_tracked_run(self, run: TrackedRun) -> bool:
        return self._insert_new(self._runs, (run.team_id, run.run_id), run)

    async def get_tracked_run(self, *, team_id: str, run_id: str) -> TrackedRun | None:
        return self._load(TrackedRun, self._runs.get((team_id, run_id)))

    async def claim_due_runs(self, *, holder: str, limit: int) -> list[TrackedRun]:
        now = self._clock()
        due_at, stale = encode_time(now), encode_time(now - self._post_lease)
        due = [
            row
            for row in self._runs.values()
            if not row["terminal_posted"]
            and row["next_poll_at"] <= due_at
            and (row["terminal_claimed_at"] is None or row["terminal_claimed_at"] < stale)
            and lease_free(row, due_at)
        ]
        order = lambda row: (row["next_poll_at"], row["created_at"], row["run_id"])  # noqa: E731
        claimed = sorted(due, key=order)[: max(limit, 0)]
        for row in claimed:
            row.update(lease_holder=holder, lease_until=self._lease_end())
        return [from_row(TrackedRun, row, self._box) for row in claimed]

    async def renew_run_leases(self, *, holder: str, keys: Collection[tuple[str, str]]) -> int:
        now = self._now()
        renewed = 0
        for key in keys:
            row = self._runs.get(key)
            if row is None or row["terminal_posted"] or row.get("lease_holder") != holder:
                continue
            row.update(lease_until=self._lease_end())
            if row["terminal_claimed_at"] is not None:
                row.update(terminal_claimed_at=now)
            renewed += 1
        return renewed

    async def update_run_poll(self, *, team_id: str, run_id: str, **poll: Unpack[RunPoll]) -> None:
        row = require(self._runs, (team_id, run_id), what="tracked run")
        row.update(
            next_poll_at=encode_time(poll["next_poll_at"]),
            attempts=poll["attempts"],
            last_state=poll["last_state"],
            progress_ts=poll["progress_ts"],
            updated_at=self._now(),
            lease_holder=None,
            lease_until=None,
        )

    async def note_cancel_requested(self, *, team_id: str, run_id: str, user_id: str) -> None:
        row = require(self._runs, (team_id, run_id), what="tracked run")
        row.update(cancelled_by=user_id, updated_at=self._now())

    async def claim_terminal_post(self, *, team_id: str, run_id: str) -> bool:
        row = require(self._runs, (team_id, run_id), what="tracked run")
        now = self._clock()
        claimed_at = row["terminal_claimed_at"]
        if row["terminal_posted"] or (claimed_at is not None and claimed_at >= encode_time(now - self._post_lease)):
            return False
        row.update(terminal_claimed_at=encode_time(now), updated_at=encode_time(now))
        return True

    async def release_terminal_post(self, *, team_id: str, run_id: str) -> None:
        row = require(self._runs, (team_id, run_id), what="tracked run")
        row.update(terminal_claimed_at=None, updated_at=self._now())

    async def mark_terminal_posted(self, *, team_id: str, run_id: str) -> None:
        row = require(self._runs, (team_id, run_id), what="tracked run")
        now = self._now()
        row.update(
            terminal_posted=1,
            terminal_claimed_at=None,
            finished_at=now,
            updated_at=now,
            lease_holder=None,
            lease_until=None,
        )

    async def unfinished_runs(self) -> list[TrackedRun]:
        rows = (row for row in self._runs.values() if not row["terminal_posted"])
        return self._load_all(TrackedRun, rows, order=lambda row: (row["created_at"], row["run_id"]))
