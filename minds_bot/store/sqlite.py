"""`SqliteStore`: the production `Store` on aiosqlite.

Owns the connection, WAL mode, the busy timeout, migrations, every SQL statement and the database files' mode
(0600: only the bot's user reads the file, its WAL and shared-memory index, also when they existed before).
One aiosqlite connection per store; an asyncio lock keeps each operation (a single statement or one short
`BEGIN IMMEDIATE` transaction) from interleaving with another coroutine's on that connection, and every
statement gets its own cursor. Claims are single conditional writes inside an immediate transaction, so they
stay atomic across processes sharing the file. Must not call Slack or Minds, and never writes a plaintext
secret (codec.py seals them first).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
from collections.abc import AsyncIterator, Collection, Iterable, Mapping
from contextlib import asynccontextmanager
from datetime import datetime, timedelta
from typing import Any

import aiosqlite

from minds_bot.store.base import DEFAULT_CLAIM_LEASE, PruneCounts, RetentionPolicy, Store
from minds_bot.store.codec import Row, encode_time, from_row, secret_fields, to_row
from minds_bot.store.errors import RecordNotFoundError, SchemaTooNewError, StoreUnavailableError
from minds_bot.store.migrations import MIGRATIONS, Migration
from minds_bot.store.records import (
    FINISHED_EXPORT_STATES,
    Approval,
    ApprovalState,
    BotRecord,
    ChatThread,
    Clock,
    Digest,
    DirectAsk,
    ExportJob,
    ExportState,
    InstallationRecord,
    KeyedRequest,
    PlanPost,
    PlanState,
    Record,
    TrackedRun,
    WorkspaceSettings,
    utc_now,
)
from minds_bot.store.secrets import SecretBox

BUSY_TIMEOUT_SECONDS = 5.0  # how long a writer waits for another process's transaction before failing
WAL_RETRY_FIRST_DELAY_SECONDS = 0.01
MEMORY_PATH = ":memory:"
# The database holds encrypted keys and all research state: nobody but the bot's user reads it.
FILE_MODE = 0o600
SIDE_FILE_SUFFIXES = ("-wal", "-shm", "-journal")

_SECRET_TABLES: Mapping[str, type[Record]] = {
    "workspaces": WorkspaceSettings,
    "installations": InstallationRecord,
    "bots": BotRecord,
}


class _Session:
    """Statements on one connection, each with its own cursor."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def one(self, sql: str, params: Iterable[Any] = ()) -> sqlite3.Row | None:
        async with self._conn.execute(sql, tuple(params)) as cursor:
            return await cursor.fetchone()

    async def all(self, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]:
        async with self._conn.execute(sql, tuple(params)) as cursor:
            return list(await cursor.fetchall())

    async def run(self, sql: str, params: Iterable[Any] = ()) -> int:
        """Execute a write; returns the number of rows it changed."""
        async with self._conn.execute(sql, tuple(params)) as cursor:
            return cursor.rowcount

    async def insert(self, table: str, row: Row, *, conflict: str) -> int:
        """`conflict` is "OR REPLACE" (upsert whole record) or "OR IGNORE" (first writer wins)."""
        columns = ", ".join(row)
        marks = ", ".join("?" for _ in row)
        # Table and column names come from this module and the record models, never from input.
        sql = f"INSERT {conflict} INTO {table} ({columns}) VALUES ({marks})"  # noqa: S608
        return await self.run(sql, row.values())


class SqliteStore(Store):
    """Use `await SqliteStore.open(path, secrets=...)`; the constructor expects a migrated connection."""

    def __init__(
        self,
        conn: aiosqlite.Connection,
        *,
        secrets: SecretBox,
        clock: Clock,
        retention: RetentionPolicy,
        claim_lease: timedelta,
        schema_version: int,
    ) -> None:
        self._conn = conn
        self._box = secrets
        self._clock = clock
        self._retention = retention
        self._lease = claim_lease
        self._version = schema_version
        self._lock = asyncio.Lock()

    @classmethod
    async def open(
        cls,
        path: str | None,
        *,
        secrets: SecretBox,
        clock: Clock = utc_now,
        retention: RetentionPolicy | None = None,
        claim_lease: timedelta = DEFAULT_CLAIM_LEASE,
        migrations: tuple[Migration, ...] = MIGRATIONS,
    ) -> SqliteStore:
        """Open (creating if needed) and migrate. `None` or ":memory:" gives a private in-memory database."""
        conn = await _connect(path or MEMORY_PATH)
        try:
            version = await _migrate(_Session(conn), migrations=migrations, now=clock())
        except BaseException:
            await conn.close()
            raise
        return cls(
            conn,
            secrets=secrets,
            clock=clock,
            retention=retention or RetentionPolicy(),
            claim_lease=claim_lease,
            schema_version=version,
        )

    # -- plumbing --------------------------------------------------------------------------------------------
    @asynccontextmanager
    async def _read(self) -> AsyncIterator[_Session]:
        async with self._lock:
            yield _Session(self._conn)

    @asynccontextmanager
    async def _tx(self) -> AsyncIterator[_Session]:
        async with self._lock:
            session = _Session(self._conn)
            try:
                await session.run("BEGIN IMMEDIATE")
                yield session
                await session.run("COMMIT")
            except BaseException:
                # A cancelled await does not stop the statement: aiosqlite's thread still runs BEGIN (or COMMIT)
                # after the caller has gone. Queue a ROLLBACK behind it whatever `in_transaction` says right now,
                # shielded from a second cancel, or the connection stays inside a transaction holding the
                # file's write lock and every later write, here and in other processes, fails.
                await asyncio.shield(_rollback(self._conn))
                raise

    def _now(self) -> str:
        return encode_time(self._clock())

    def _row(self, record: Record) -> Row:
        return to_row(record, self._box)

    # -- lifecycle -------------------------------------------------------------------------------------------
    @property
    def schema_version(self) -> int:
        return self._version

    async def close(self) -> None:
        await self._conn.close()

    async def ping(self) -> None:
        try:
            async with self._read() as q:
                await q.one("SELECT 1")
        except (sqlite3.Error, ValueError) as exc:  # aiosqlite raises ValueError once closed
            raise StoreUnavailableError("the SQLite store did not answer") from exc

    async def rotate_secrets(self) -> int:
        rewritten = 0
        async with self._tx() as q:
            for table, model in _SECRET_TABLES.items():
                for column in secret_fields(model):
                    rewritten += await self._rotate_column(q, table=table, column=column)
        return rewritten

    async def _rotate_column(self, q: _Session, *, table: str, column: str) -> int:
        rows = await q.all(f"SELECT rowid, {column} FROM {table} WHERE {column} IS NOT NULL")  # noqa: S608
        for rowid, token in rows:
            await q.run(f"UPDATE {table} SET {column} = ? WHERE rowid = ?", (self._box.rotate(token), rowid))  # noqa: S608
        return len(rows)

    async def prune(self, now: datetime) -> PruneCounts:
        seen_cutoff = encode_time(now - self._retention.deliveries)
        done_cutoff = encode_time(now - self._retention.finished)
        finished_exports = tuple(state.value for state in FINISHED_EXPORT_STATES)
        async with self._tx() as q:
            return PruneCounts(
                deliveries=await q.run("DELETE FROM deliveries WHERE seen_at < ?", (seen_cutoff,)),
                runs=await q.run(
                    "DELETE FROM tracked_runs WHERE terminal_posted = 1 AND finished_at < ?", (done_cutoff,)
                ),
                direct_asks=await q.run(
                    "DELETE FROM direct_asks WHERE run_id IS NOT NULL AND updated_at < ?", (done_cutoff,)
                ),
                exports=await q.run(
                    "DELETE FROM exports WHERE state IN (?, ?) AND updated_at < ?",
                    (*finished_exports, done_cutoff),
                ),
                digest_runs=await q.run("DELETE FROM digest_runs WHERE claimed_at < ?", (done_cutoff,)),
                oauth_states=await q.run("DELETE FROM oauth_states WHERE expires_at <= ?", (encode_time(now),)),
            )

    # -- Slack installations and OAuth state -----------------------------------------------------------------
    async def save_installation(self, installation: InstallationRecord) -> None:
        bot = installation.to_bot()
        async with self._tx() as q:
            await q.insert("installations", self._row(installation), conflict="OR REPLACE")
            if bot is not None:
                await q.insert("bots", self._row(bot), conflict="OR REPLACE")

    async def save_bot(self, bot: BotRecord) -> None:
        async with self._tx() as q:
            await q.insert("bots", self._row(bot), conflict="OR REPLACE")

    async def find_bot(self, *, enterprise_id: str | None, team_id: str | None) -> BotRecord | None:
        async with self._read() as q:
            row = await q.one(
                "SELECT * FROM bots WHERE enterprise_key = ? AND team_key = ?",
                (enterprise_id or "", team_id or ""),
            )
        return None if row is None else from_row(BotRecord, row, self._box)

    async def find_installation(
        self, *, enterprise_id: str | None, team_id: str | None, user_id: str | None = None
    ) -> InstallationRecord | None:
        where, params = _installation_filter(enterprise_id=enterprise_id, team_id=team_id, user_id=user_id)
        async with self._read() as q:
            row = await q.one(
                f"SELECT * FROM installations WHERE {where} ORDER BY installed_at DESC, rowid DESC LIMIT 1",  # noqa: S608
                params,
            )
        return None if row is None else from_row(InstallationRecord, row, self._box)

    async def delete_bot(self, *, enterprise_id: str | None, team_id: str | None) -> None:
        async with self._tx() as q:
            await q.run(
                "DELETE FROM bots WHERE enterprise_key = ? AND team_key = ?",
                (enterprise_id or "", team_id or ""),
            )

    async def delete_installation(
        self, *, enterprise_id: str | None, team_id: str | None, user_id: str | None = None
    ) -> None:
        where, params = _installation_filter(enterprise_id=enterprise_id, team_id=team_id, user_id=user_id)
        async with self._tx() as q:
            await q.run(f"DELETE FROM installations WHERE {where}", params)  # noqa: S608

    async def issue_oauth_state(self, state: str, *, expires_at: datetime) -> None:
        async with self._tx() as q:
            await q.insert(
                "oauth_states", {"state": state, "expires_at": encode_time(expires_at)}, conflict="OR REPLACE"
            )

    async def consume_oauth_state(self, state: str, *, now: datetime) -> bool:
        async with self._tx() as q:
            row = await q.one("SELECT expires_at FROM oauth_states WHERE state = ?", (state,))
            await q.run("DELETE FROM oauth_states WHERE state = ?", (state,))
        return row is not None and row["expires_at"] > encode_time(now)

    # -- workspaces and approvers ----------------------------------------------------------------------------
    async def save_workspace(self, settings: WorkspaceSettings) -> WorkspaceSettings:
        stored = settings.model_copy(update={"updated_at": self._clock()})
        async with self._tx() as q:
            await q.insert("workspaces", self._row(stored), conflict="OR REPLACE")
        return stored

    async def get_workspace(self, team_id: str) -> WorkspaceSettings | None:
        async with self._read() as q:
            row = await q.one("SELECT * FROM workspaces WHERE team_id = ?", (team_id,))
        return None if row is None else from_row(WorkspaceSettings, row, self._box)

    async def delete_workspace(self, team_id: str) -> bool:
        async with self._tx() as q:
            return await q.run("DELETE FROM workspaces WHERE team_id = ?", (team_id,)) == 1

    async def add_approver(self, *, team_id: str, channel_id: str, user_id: str) -> bool:
        row = {"team_id": team_id, "channel_id": channel_id, "user_id": user_id, "added_at": self._now()}
        async with self._tx() as q:
            return await q.insert("approvers", row, conflict="OR IGNORE") == 1

    async def remove_approver(self, *, team_id: str, channel_id: str, user_id: str) -> bool:
        async with self._tx() as q:
            changed = await q.run(
                "DELETE FROM approvers WHERE team_id = ? AND channel_id = ? AND user_id = ?",
                (team_id, channel_id, user_id),
            )
        return changed == 1

    async def list_approvers(self, *, team_id: str, channel_id: str) -> list[str]:
        async with self._read() as q:
            rows = await q.all(
                "SELECT user_id FROM approvers WHERE team_id = ? AND channel_id = ? ORDER BY user_id",
                (team_id, channel_id),
            )
        return [row["user_id"] for row in rows]

    # -- plan posts and approvals ----------------------------------------------------------------------------
    async def save_plan_post(self, post: PlanPost) -> PlanPost:
        async with self._tx() as q:
            existing = await _get_plan_post(
                q, team_id=post.team_id, channel_id=post.channel_id, message_ts=post.message_ts
            )
            now = self._clock()
            created = from_row(PlanPost, existing, self._box).created_at if existing is not None else now
            stored = post.model_copy(update={"created_at": created, "updated_at": now})
            await q.insert("plan_posts", self._row(stored), conflict="OR REPLACE")
        return stored

    async def get_plan_post(self, *, team_id: str, channel_id: str, message_ts: str) -> PlanPost | None:
        async with self._read() as q:
            row = await _get_plan_post(q, team_id=team_id, channel_id=channel_id, message_ts=message_ts)
        return None if row is None else from_row(PlanPost, row, self._box)

    async def find_plan_post(self, *, team_id: str, draft_plan_id: str) -> PlanPost | None:
        async with self._read() as q:
            row = await q.one(
                "SELECT * FROM plan_posts WHERE team_id = ? AND draft_plan_id = ? "
                "ORDER BY updated_at DESC, rowid DESC LIMIT 1",
                (team_id, draft_plan_id),
            )
        return None if row is None else from_row(PlanPost, row, self._box)

    async def transition_plan_post(
        self,
        *,
        team_id: str,
        channel_id: str,
        message_ts: str,
        expected: Collection[PlanState],
        new: PlanState,
    ) -> PlanPost | None:
        async with self._tx() as q:
            row = await _get_plan_post(q, team_id=team_id, channel_id=channel_id, message_ts=message_ts)
            if row is None or PlanState(row["state"]) not in expected:
                return None
            await q.run(
                "UPDATE plan_posts SET state = ?, updated_at = ? "
                "WHERE team_id = ? AND channel_id = ? AND message_ts = ?",
                (new.value, self._now(), team_id, channel_id, message_ts),
            )
            row = await _get_plan_post(q, team_id=team_id, channel_id=channel_id, message_ts=message_ts)
        return None if row is None else from_row(PlanPost, row, self._box)

    async def claim_approval(
        self,
        *,
        team_id: str,
        draft_plan_id: str,
        revision: int,
        approver_id: str,
        idempotency_key: str,
        advanced_opt_in: bool = False,
    ) -> tuple[Approval, bool]:
        now = self._clock()
        fresh = Approval(
            team_id=team_id,
            draft_plan_id=draft_plan_id,
            revision=revision,
            idempotency_key=idempotency_key,
            approver_id=approver_id,
            approved_at=now,
            advanced_opt_in=advanced_opt_in,
            updated_at=now,
        )
        key = (team_id, draft_plan_id, revision)
        async with self._tx() as q:
            created = await q.insert("approvals", self._row(fresh), conflict="OR IGNORE") == 1
            if not created:
                # Only a definitive refusal frees the revision for another approval.
                created = await _reclaim_failed(q, self._row(fresh))
            row = await _get_approval(q, key)
        assert row is not None  # noqa: S101 - inserted or found inside the same transaction
        return from_row(Approval, row, self._box), created

    async def get_approval(self, *, team_id: str, draft_plan_id: str, revision: int) -> Approval | None:
        async with self._read() as q:
            row = await _get_approval(q, (team_id, draft_plan_id, revision))
        return None if row is None else from_row(Approval, row, self._box)

    async def attach_run(self, *, team_id: str, draft_plan_id: str, revision: int, run_id: str) -> Approval:
        return await self._update_approval(
            (team_id, draft_plan_id, revision),
            "state = ?, run_id = ?, failure = NULL",
            (ApprovalState.SUBMITTED.value, run_id),
        )

    async def fail_approval(self, *, team_id: str, draft_plan_id: str, revision: int, reason: str) -> Approval:
        return await self._update_approval(
            (team_id, draft_plan_id, revision), "state = ?, failure = ?", (ApprovalState.FAILED.value, reason)
        )

    async def _update_approval(self, key: tuple[str, str, int], assignments: str, values: tuple) -> Approval:
        async with self._tx() as q:
            changed = await q.run(
                f"UPDATE approvals SET {assignments}, updated_at = ? "  # noqa: S608
                "WHERE team_id = ? AND draft_plan_id = ? AND revision = ?",
                (*values, self._now(), *key),
            )
            row = await _get_approval(q, key)
        if changed == 0 or row is None:
            raise RecordNotFoundError(f"no approval for draft {key[1]} revision {key[2]}")
        return from_row(Approval, row, self._box)

    async def pending_approvals(self) -> list[Approval]:
        async with self._read() as q:
            rows = await q.all(
                "SELECT * FROM approvals WHERE state = ? ORDER BY approved_at", (ApprovalState.PENDING.value,)
            )
        return [from_row(Approval, row, self._box) for row in rows]

    # -- tracked runs ----------------------------------------------------------------------------------------
    async def add_tracked_run(self, run: TrackedRun) -> bool:
        now = self._clock()
        stored = run.model_copy(update={"created_at": now, "updated_at": now})
        async with self._tx() as q:
            return await q.insert("tracked_runs", self._row(stored), conflict="OR IGNORE") == 1

    async def get_tracked_run(self, *, team_id: str, run_id: str) -> TrackedRun | None:
        async with self._read() as q:
            row = await _get_run(q, team_id=team_id, run_id=run_id)
        return None if row is None else from_row(TrackedRun, row, self._box)

    async def due_runs(self, now: datetime, limit: int) -> list[TrackedRun]:
        async with self._read() as q:
            rows = await q.all(
                "SELECT * FROM tracked_runs WHERE terminal_posted = 0 AND next_poll_at <= ? "
                "AND (terminal_claimed_at IS NULL OR terminal_claimed_at < ?) "
                "ORDER BY next_poll_at, created_at, run_id LIMIT ?",
                (encode_time(now), encode_time(now - self._lease), limit),
            )
        return [from_row(TrackedRun, row, self._box) for row in rows]

    async def update_run_poll(
        self,
        *,
        team_id: str,
        run_id: str,
        next_poll_at: datetime,
        attempts: int,
        last_state: str | None,
        progress_ts: str | None,
    ) -> None:
        await self._update_run(
            team_id=team_id,
            run_id=run_id,
            assignments="next_poll_at = ?, attempts = ?, last_state = ?, progress_ts = ?",
            values=(encode_time(next_poll_at), attempts, last_state, progress_ts),
        )

    async def claim_terminal_post(self, *, team_id: str, run_id: str) -> bool:
        now = self._clock()
        async with self._tx() as q:
            changed = await q.run(
                "UPDATE tracked_runs SET terminal_claimed_at = ?, updated_at = ? "
                "WHERE team_id = ? AND run_id = ? AND terminal_posted = 0 "
                "AND (terminal_claimed_at IS NULL OR terminal_claimed_at < ?)",
                (encode_time(now), encode_time(now), team_id, run_id, encode_time(now - self._lease)),
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
            assignments="terminal_posted = 1, terminal_claimed_at = NULL, finished_at = ?",
            values=(self._now(),),
        )

    async def _update_run(self, *, team_id: str, run_id: str, assignments: str, values: tuple) -> None:
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

    # -- direct asks -----------------------------------------------------------------------------------------
    async def begin_direct_ask(self, ask: DirectAsk) -> tuple[DirectAsk, bool]:
        now = self._clock()
        stored = ask.model_copy(update={"created_at": now, "updated_at": now})
        async with self._tx() as q:
            created = await q.insert("direct_asks", self._row(stored), conflict="OR IGNORE") == 1
            row = await _get_ask(q, ask.client_request_id)
        assert row is not None  # noqa: S101 - inserted or found inside the same transaction
        return from_row(DirectAsk, row, self._box), created

    async def get_direct_ask(self, client_request_id: str) -> DirectAsk | None:
        async with self._read() as q:
            row = await _get_ask(q, client_request_id)
        return None if row is None else from_row(DirectAsk, row, self._box)

    async def attach_direct_run(self, *, client_request_id: str, run_id: str) -> DirectAsk:
        async with self._tx() as q:
            await q.run(
                "UPDATE direct_asks SET run_id = ?, settled = 1, updated_at = ? WHERE client_request_id = ?",
                (run_id, self._now(), client_request_id),
            )
            row = await _get_ask(q, client_request_id)
        if row is None:
            raise RecordNotFoundError(f"no direct ask with clientRequestId {client_request_id}")
        return from_row(DirectAsk, row, self._box)

    async def settle_direct_ask(self, client_request_id: str) -> DirectAsk:
        async with self._tx() as q:
            await q.run(
                "UPDATE direct_asks SET settled = 1, updated_at = ? WHERE client_request_id = ?",
                (self._now(), client_request_id),
            )
            row = await _get_ask(q, client_request_id)
        if row is None:
            raise RecordNotFoundError(f"no direct ask with clientRequestId {client_request_id}")
        return from_row(DirectAsk, row, self._box)

    async def pending_direct_asks(self) -> list[DirectAsk]:
        async with self._read() as q:
            rows = await q.all(
                "SELECT * FROM direct_asks WHERE run_id IS NULL AND settled = 0 ORDER BY created_at, client_request_id"
            )
        return [from_row(DirectAsk, row, self._box) for row in rows]

    # -- keyed requests -------------------------------------------------------------------------------------
    async def save_keyed_request(self, request: KeyedRequest) -> KeyedRequest:
        stored = request.model_copy(update={"created_at": self._clock()})
        async with self._tx() as q:
            await q.insert("keyed_requests", self._row(stored), conflict="OR IGNORE")
            row = await q.one(
                "SELECT * FROM keyed_requests WHERE team_id = ? AND key = ?", (request.team_id, request.key)
            )
        assert row is not None  # noqa: S101 - inserted or found inside the same transaction
        return from_row(KeyedRequest, row, self._box)

    async def get_keyed_request(self, *, team_id: str, key: str) -> KeyedRequest | None:
        async with self._read() as q:
            row = await q.one("SELECT * FROM keyed_requests WHERE team_id = ? AND key = ?", (team_id, key))
        return None if row is None else from_row(KeyedRequest, row, self._box)

    async def latest_keyed_request(
        self, *, team_id: str, purpose: str, subject: str, since: datetime
    ) -> KeyedRequest | None:
        async with self._read() as q:
            row = await q.one(
                "SELECT * FROM keyed_requests WHERE team_id = ? AND purpose = ? AND subject = ? AND created_at >= ? "
                "ORDER BY created_at DESC, key DESC LIMIT 1",
                (team_id, purpose, subject, encode_time(since)),
            )
        return None if row is None else from_row(KeyedRequest, row, self._box)

    # -- exports ---------------------------------------------------------------------------------------------
    async def add_export(self, job: ExportJob) -> bool:
        now = self._clock()
        stored = job.model_copy(update={"created_at": now, "updated_at": now})
        async with self._tx() as q:
            return await q.insert("exports", self._row(stored), conflict="OR IGNORE") == 1

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

    # -- digests ---------------------------------------------------------------------------------------------
    async def save_digest(self, digest: Digest) -> Digest:
        async with self._tx() as q:
            existing = await _get_digest(q, digest.digest_id)
            now = self._clock()
            created = from_row(Digest, existing, self._box).created_at if existing is not None else now
            stored = digest.model_copy(update={"created_at": created, "updated_at": now})
            await q.insert("digests", self._row(stored), conflict="OR REPLACE")
        return stored

    async def get_digest(self, digest_id: str) -> Digest | None:
        async with self._read() as q:
            row = await _get_digest(q, digest_id)
        return None if row is None else from_row(Digest, row, self._box)

    async def list_digests(self, *, team_id: str | None = None) -> list[Digest]:
        async with self._read() as q:
            rows = await q.all(
                "SELECT * FROM digests WHERE ? IS NULL OR team_id = ? ORDER BY created_at, digest_id",
                (team_id, team_id),
            )
        return [from_row(Digest, row, self._box) for row in rows]

    async def delete_digest(self, digest_id: str) -> bool:
        async with self._tx() as q:
            await q.run("DELETE FROM digest_runs WHERE digest_id = ?", (digest_id,))
            return await q.run("DELETE FROM digests WHERE digest_id = ?", (digest_id,)) == 1

    async def claim_digest_run(self, *, digest_id: str, window_key: str) -> bool:
        row = {
            "digest_id": digest_id,
            "window_key": window_key,
            "claimed_at": self._now(),
            "completed_at": None,
        }
        async with self._tx() as q:
            if await _get_digest(q, digest_id) is None:
                raise RecordNotFoundError(f"no digest {digest_id}")
            return await q.insert("digest_runs", row, conflict="OR IGNORE") == 1

    async def release_digest_run(self, *, digest_id: str, window_key: str) -> None:
        async with self._tx() as q:
            await q.run(
                "DELETE FROM digest_runs WHERE digest_id = ? AND window_key = ? AND completed_at IS NULL",
                (digest_id, window_key),
            )

    async def complete_digest_run(self, *, digest_id: str, window_key: str, watermark: str | None) -> Digest:
        now = self._now()
        async with self._tx() as q:
            claimed = await q.run(
                "UPDATE digest_runs SET completed_at = ? WHERE digest_id = ? AND window_key = ?",
                (now, digest_id, window_key),
            )
            await q.run(
                "UPDATE digests SET watermark = ?, last_posted_at = ?, updated_at = ? WHERE digest_id = ?",
                (watermark, now, now, digest_id),
            )
            row = await _get_digest(q, digest_id)
            if claimed == 0 or row is None:
                raise RecordNotFoundError(f"digest {digest_id} has no claimed window {window_key}")
        return from_row(Digest, row, self._box)

    # -- Slack deliveries ------------------------------------------------------------------------------------
    async def mark_delivery(self, key: str) -> bool:
        async with self._tx() as q:
            return (
                await q.insert("deliveries", {"delivery_key": key, "seen_at": self._now()}, conflict="OR IGNORE") == 1
            )

    # -- chat threads ----------------------------------------------------------------------------------------
    async def save_chat_thread(self, thread: ChatThread) -> ChatThread:
        now = self._clock()
        async with self._tx() as q:
            old = await _get_chat_thread(q, team_id=thread.team_id, channel_id=thread.channel_id, ts=thread.thread_ts)
            created = from_row(ChatThread, old, self._box).created_at if old is not None else now
            stored = thread.model_copy(update={"created_at": created, "updated_at": now})
            await q.insert("chat_threads", self._row(stored), conflict="OR REPLACE")
        return stored

    async def get_chat_thread(self, *, team_id: str, channel_id: str, thread_ts: str) -> ChatThread | None:
        async with self._read() as q:
            row = await _get_chat_thread(q, team_id=team_id, channel_id=channel_id, ts=thread_ts)
        return None if row is None else from_row(ChatThread, row, self._box)

    async def touch_chat_thread(self, *, team_id: str, channel_id: str, thread_ts: str, at: datetime) -> bool:
        async with self._tx() as q:
            changed = await q.run(
                "UPDATE chat_threads SET last_activity_at = ?, updated_at = ? "
                "WHERE team_id = ? AND channel_id = ? AND thread_ts = ? AND closed_at IS NULL",
                (encode_time(at), self._now(), team_id, channel_id, thread_ts),
            )
        return changed == 1

    async def close_idle_chat_threads(self, *, idle_since: datetime) -> list[ChatThread]:
        now = self._now()
        async with self._tx() as q:
            rows = await q.all(
                "SELECT * FROM chat_threads WHERE closed_at IS NULL AND last_activity_at < ? ORDER BY last_activity_at",
                (encode_time(idle_since),),
            )
            for row in rows:
                await q.run(
                    "UPDATE chat_threads SET closed_at = ?, updated_at = ? "
                    "WHERE team_id = ? AND channel_id = ? AND thread_ts = ?",
                    (now, now, row["team_id"], row["channel_id"], row["thread_ts"]),
                )
        closed = {"closed_at": self._clock(), "updated_at": self._clock()}
        return [from_row(ChatThread, row, self._box).model_copy(update=closed) for row in rows]


async def _get_chat_thread(q: _Session, *, team_id: str, channel_id: str, ts: str) -> sqlite3.Row | None:
    return await q.one(
        "SELECT * FROM chat_threads WHERE team_id = ? AND channel_id = ? AND thread_ts = ?", (team_id, channel_id, ts)
    )


async def _rollback(conn: aiosqlite.Connection) -> None:
    """Roll back whatever transaction is open once the statements queued before this one have run."""
    with contextlib.suppress(sqlite3.OperationalError):  # "no transaction is active": it committed or never began
        await conn.execute("ROLLBACK")


async def _reclaim_failed(q: _Session, row: Row) -> bool:
    """Re-pend an approval Minds definitively refused; True when there was one to take over."""
    changed = await q.run(
        "UPDATE approvals SET idempotency_key = ?, approver_id = ?, approved_at = ?, advanced_opt_in = ?, "
        "state = ?, run_id = NULL, failure = NULL, updated_at = ? "
        "WHERE team_id = ? AND draft_plan_id = ? AND revision = ? AND state = ?",
        (
            row["idempotency_key"],
            row["approver_id"],
            row["approved_at"],
            row["advanced_opt_in"],
            ApprovalState.PENDING.value,
            row["updated_at"],
            row["team_id"],
            row["draft_plan_id"],
            row["revision"],
            ApprovalState.FAILED.value,
        ),
    )
    return changed == 1


def _installation_filter(
    *, enterprise_id: str | None, team_id: str | None, user_id: str | None
) -> tuple[str, tuple[str, ...]]:
    if user_id is None:
        return "enterprise_key = ? AND team_key = ?", (enterprise_id or "", team_id or "")
    return "enterprise_key = ? AND team_key = ? AND user_id = ?", (
        enterprise_id or "",
        team_id or "",
        user_id,
    )


async def _get_plan_post(q: _Session, *, team_id: str, channel_id: str, message_ts: str) -> sqlite3.Row | None:
    return await q.one(
        "SELECT * FROM plan_posts WHERE team_id = ? AND channel_id = ? AND message_ts = ?",
        (team_id, channel_id, message_ts),
    )


async def _get_approval(q: _Session, key: tuple[str, str, int]) -> sqlite3.Row | None:
    return await q.one("SELECT * FROM approvals WHERE team_id = ? AND draft_plan_id = ? AND revision = ?", key)


async def _get_run(q: _Session, *, team_id: str, run_id: str) -> sqlite3.Row | None:
    return await q.one("SELECT * FROM tracked_runs WHERE team_id = ? AND run_id = ?", (team_id, run_id))


async def _get_ask(q: _Session, client_request_id: str) -> sqlite3.Row | None:
    return await q.one("SELECT * FROM direct_asks WHERE client_request_id = ?", (client_request_id,))


async def _get_export(q: _Session, *, team_id: str, job_id: str) -> sqlite3.Row | None:
    return await q.one("SELECT * FROM exports WHERE team_id = ? AND job_id = ?", (team_id, job_id))


async def _get_digest(q: _Session, digest_id: str) -> sqlite3.Row | None:
    return await q.one("SELECT * FROM digests WHERE digest_id = ?", (digest_id,))


async def _connect(path: str) -> aiosqlite.Connection:
    if path != MEMORY_PATH:
        await asyncio.to_thread(_owner_only, path)
    # isolation_level=None: we issue BEGIN IMMEDIATE / COMMIT ourselves, so transactions stay explicit.
    conn = await aiosqlite.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT_SECONDS)
    conn.row_factory = sqlite3.Row
    try:
        session = _Session(conn)
        await session.run(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_SECONDS * 1000)}")
        if path != MEMORY_PATH:
            await _enable_wal(session)
            await asyncio.to_thread(_owner_only, path)
    except BaseException:
        await conn.close()
        raise
    return conn


def _owner_only(path: str) -> None:
    """Create the database file readable by its owner alone, and make it (and its WAL and shared-memory index,
    when present) 0600 if it existed before with wider permissions."""
    os.close(os.open(path, os.O_RDWR | os.O_CREAT, FILE_MODE))
    for name in (path, *(path + suffix for suffix in SIDE_FILE_SUFFIXES)):
        with contextlib.suppress(FileNotFoundError):
            os.chmod(name, FILE_MODE)


async def _enable_wal(q: _Session) -> None:
    """Switch the file to WAL (a persistent property of the file, so normally a no-op).

    SQLite does not run the busy handler for this switch, so when two processes create a fresh file at the
    same moment one of them gets "database is locked": retry with a short backoff, within the busy timeout.
    """
    deadline = asyncio.get_running_loop().time() + BUSY_TIMEOUT_SECONDS
    delay = WAL_RETRY_FIRST_DELAY_SECONDS
    while True:
        try:
            await q.one("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError:
            if asyncio.get_running_loop().time() + delay > deadline:
                raise
        await asyncio.sleep(delay)
        delay = min(delay * 2, 0.5)


async def _migrate(q: _Session, *, migrations: tuple[Migration, ...], now: datetime) -> int:
    """Apply each pending migration in its own immediate transaction; safe if two processes start at once."""
    await q.run("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)")
    while True:
        await q.run("BEGIN IMMEDIATE")
        try:
            current = await _current_version(q)
            if current > len(migrations):
                raise SchemaTooNewError(
                    f"database schema is version {current}, this minds-bot knows up to {len(migrations)}"
                )
            if current == len(migrations):
                await q.run("COMMIT")
                return current
            for statement in migrations[current]:
                await q.run(statement)
            await q.run(
                "INSERT INTO schema_version (version, applied_at) VALUES (?, ?)",
                (current + 1, encode_time(now)),
            )
            await q.run("COMMIT")
        except BaseException:
            await q.run("ROLLBACK")
            raise


async def _current_version(q: _Session) -> int:
    row = await q.one("SELECT max(version) AS version FROM schema_version")
    return 0 if row is None or row["version"] is None else int(row["version"])
