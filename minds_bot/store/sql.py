"""`SqlStore`: every statement of the `Store` contract, shared by `SqliteStore` and `PostgresStore`.

Owns the SQL of each operation and the claim and lease rules. Each engine supplies a `Session` (statements
with `?` placeholders, an engine's upsert, its row-locking suffixes and its exclusive-work lock) and the
`_read` / `_tx` context managers; nothing here knows which engine runs it, so no behaviour differs by engine.
Claims are single conditional writes, or a locked read followed by writes in one transaction: SQLite's
`BEGIN IMMEDIATE` makes the whole transaction single-writer, PostgreSQL locks the rows it read
(`FOR UPDATE`, `FOR UPDATE SKIP LOCKED` for leases). Must not call Slack or Minds, and never writes a plaintext
secret (codec.py seals them first). Every public operation is timed by name, and a claim that takes work over from
a replica whose lease ran out is counted (``minds_bot.metrics``).
"""

from __future__ import annotations

import functools
import inspect
from abc import abstractmethod
from collections.abc import Collection, Iterable, Mapping
from contextlib import AbstractAsyncContextManager
from datetime import datetime, timedelta
from typing import Any, Literal, Protocol, TypeVar

from minds_bot import metrics
from minds_bot.store.base import RESUME_BATCH, TERMINAL_CLAIM_LEASES, PruneCounts, RetentionPolicy, Store
from minds_bot.store.codec import Row, encode_time, from_row, secret_fields, to_row
from minds_bot.store.errors import RecordNotFoundError
from minds_bot.store.notices import SqlRunNotices
from minds_bot.store.records import (
    FINISHED_EXPORT_STATES,
    Approval,
    ApprovalState,
    BotRecord,
    ChannelPolicy,
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
    Spend,
    SpendOutcome,
    TrackedRun,
    WorkspaceSettings,
)
from minds_bot.store.secrets import SecretBox

Conflict = Literal["replace", "ignore"]
PRUNE_LOCK = "prune"  # the name of the exclusive work lock housekeeping takes

# Work that is due and whose lease (if any) has run out: claimed with a lease by whoever selects it first.
_DUE_RUNS = (
    "SELECT * FROM tracked_runs WHERE terminal_posted = 0 AND next_poll_at <= ? "
    "AND (terminal_claimed_at IS NULL OR terminal_claimed_at < ?) "
    "AND (lease_until IS NULL OR lease_until < ?) "
    "ORDER BY next_poll_at, created_at, run_id LIMIT ?"
)
# A lease that ran out is free; so is none at all (released: the work ended and waits for a person), except for
# a pass that only takes over work whose holder died.
_FREE = "(lease_until IS NULL OR lease_until < ?)"
_ABANDONED = "(lease_until IS NOT NULL AND lease_until < ?)"
_PENDING_APPROVALS = (
    "SELECT * FROM approvals WHERE state = ? AND {lease} ORDER BY approved_at, draft_plan_id, revision LIMIT ?"
)
_PENDING_ASKS = (
    "SELECT * FROM direct_asks WHERE run_id IS NULL AND settled = 0 AND {lease} "
    "ORDER BY created_at, client_request_id LIMIT ?"
)
_LATEST_PLAN_POST = (
    "SELECT * FROM plan_posts WHERE team_id = ? AND draft_plan_id = ? ORDER BY updated_at DESC, {order} DESC LIMIT 1"
)

_SECRET_TABLES: Mapping[str, type[Record]] = {
    "workspaces": WorkspaceSettings,
    "installations": InstallationRecord,
    "bots": BotRecord,
}


T = TypeVar("T", bound=type)


def _timed_operations(cls: T) -> T:
    """Every public operation of the store (its own and ``SqlRunNotices``') timed by name in
    ``minds_bot.metrics.store_seconds``: the one place store latency is measured, waits for the write lock or a
    pooled connection included."""
    for name in dir(cls):
        operation = inspect.getattr_static(cls, name)
        if name.startswith("_") or not inspect.iscoroutinefunction(operation):
            continue
        if operation.__qualname__.split(".")[0] in {"SqlStore", "SqlRunNotices"}:
            setattr(cls, name, _timed(operation, name))
    return cls


def _timed(operation: Any, name: str) -> Any:
    @functools.wraps(operation)
    async def timed(*args: Any, **kwargs: Any) -> Any:
        with metrics.store_seconds.time(name):
            return await operation(*args, **kwargs)

    return timed


def _count_takeovers(work: str, rows: Iterable[Any], holder: str) -> None:
    """Claimed rows whose lease another replica held and let run out (it died or stalled) were taken over."""
    taken = sum(1 for row in rows if row["lease_holder"] not in (None, holder))
    if taken:
        metrics.lease_takeovers.inc(work, amount=taken)


class Session(Protocol):
    """Statements inside one `_read` or `_tx` block. Rows are mappings by column name."""

    # Appended to a SELECT whose rows the transaction goes on to change ("" where the whole transaction is
    # already single-writer).
    lock_rows: str
    # Appended to a SELECT that claims work: rows another transaction is claiming are skipped, not waited for.
    skip_locked: str
    # The column that orders rows by insertion (newest upsert last), for ties.
    insertion_order: str

    async def one(self, sql: str, params: Iterable[Any] = ()) -> Any | None: ...

    async def all(self, sql: str, params: Iterable[Any] = ()) -> list[Any]: ...

    async def run(self, sql: str, params: Iterable[Any] = ()) -> int:
        """Execute a write; returns the number of rows it changed."""
        ...

    async def insert(self, table: str, row: Row, *, conflict: Conflict) -> int:
        """ "replace" upserts the whole record by the table's key; "ignore" lets the first writer win."""
        ...

    async def try_exclusive(self, name: str) -> bool:
        """Take the named lock for the rest of the transaction; False when another holder has it now."""
        ...


@_timed_operations
class SqlStore(SqlRunNotices, Store):
    """The shared statements. Subclasses open the engine and provide `_read`, `_tx` and the lifecycle."""

    def __init__(
        self,
        *,
        secrets: SecretBox,
        clock: Clock,
        retention: RetentionPolicy,
        claim_lease: timedelta,
        schema_version: int,
    ) -> None:
        self._box = secrets
        self._clock = clock
        self._retention = retention
        self._lease = claim_lease
        self._post_lease = claim_lease * TERMINAL_CLAIM_LEASES
        self._version = schema_version

    @abstractmethod
    def _read(self) -> AbstractAsyncContextManager[Session]: ...

    @abstractmethod
    def _tx(self) -> AbstractAsyncContextManager[Session]: ...

    # -- plumbing --------------------------------------------------------------------------------------------
    def _now(self) -> str:
        return encode_time(self._clock())

    def _row(self, record: Record) -> Row:
        return to_row(record, self._box)

    # -- lifecycle -------------------------------------------------------------------------------------------
    @property
    def schema_version(self) -> int:
        return self._version

    async def rotate_secrets(self) -> int:
        rewritten = 0
        async with self._tx() as q:
            for table, model in _SECRET_TABLES.items():
                for column in secret_fields(model):
                    rewritten += await self._rotate_column(q, table=table, column=column)
        return rewritten

    async def _rotate_column(self, q: Session, *, table: str, column: str) -> int:
        # Each Fernet token is unique (random IV), so the old token names its row on either engine.
        rows = await q.all(f"SELECT {column} FROM {table} WHERE {column} IS NOT NULL{q.lock_rows}")  # noqa: S608
        for (token,) in rows:
            await q.run(f"UPDATE {table} SET {column} = ? WHERE {column} = ?", (self._box.rotate(token), token))  # noqa: S608
        return len(rows)

    async def prune(self, now: datetime) -> PruneCounts:
        seen_cutoff = encode_time(now - self._retention.deliveries)
        done_cutoff = encode_time(now - self._retention.finished)
        finished_exports = tuple(state.value for state in FINISHED_EXPORT_STATES)
        async with self._tx() as q:
            if not await q.try_exclusive(PRUNE_LOCK):
                return PruneCounts(skipped=True)  # another replica is pruning right now
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
            await q.insert("installations", self._row(installation), conflict="replace")
            if bot is not None:
                await q.insert("bots", self._row(bot), conflict="replace")

    async def save_bot(self, bot: BotRecord) -> None:
        async with self._tx() as q:
            await q.insert("bots", self._row(bot), conflict="replace")

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
            order = f"installed_at DESC, {q.insertion_order} DESC"
            row = await q.one(f"SELECT * FROM installations WHERE {where} ORDER BY {order} LIMIT 1", params)  # noqa: S608
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
            await q.insert("oauth_states", {"state": state, "expires_at": encode_time(expires_at)}, conflict="replace")

    async def consume_oauth_state(self, state: str, *, now: datetime) -> bool:
        async with self._tx() as q:
            # One conditional delete decides, so two concurrent callbacks cannot both consume the state.
            valid = await q.run(
                "DELETE FROM oauth_states WHERE state = ? AND expires_at > ?", (state, encode_time(now))
            )
            await q.run("DELETE FROM oauth_states WHERE state = ?", (state,))
        return valid == 1

    # -- workspaces and approvers ----------------------------------------------------------------------------
    async def save_workspace(self, settings: WorkspaceSettings) -> WorkspaceSettings:
        stored = settings.model_copy(update={"updated_at": self._clock()})
        async with self._tx() as q:
            await q.insert("workspaces", self._row(stored), conflict="replace")
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
            return await q.insert("approvers", row, conflict="ignore") == 1

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
            await q.insert("plan_posts", self._row(stored), conflict="replace")
        return stored

    async def get_plan_post(self, *, team_id: str, channel_id: str, message_ts: str) -> PlanPost | None:
        async with self._read() as q:
            row = await _get_plan_post(q, team_id=team_id, channel_id=channel_id, message_ts=message_ts)
        return None if row is None else from_row(PlanPost, row, self._box)

    async def find_plan_post(self, *, team_id: str, draft_plan_id: str) -> PlanPost | None:
        async with self._read() as q:
            row = await q.one(_LATEST_PLAN_POST.format(order=q.insertion_order), (team_id, draft_plan_id))
        return None if row is None else from_row(PlanPost, row, self._box)

    async def recent_plan_posts(
        self, *, team_id: str, requester_id: str | None = None, states: Collection[PlanState] = (), limit: int = 20
    ) -> list[PlanPost]:
        where, params = ["team_id = ?"], [team_id]
        if requester_id is not None:
            where.append("requester_id = ?")
            params.append(requester_id)
        if states:
            where.append(f"state IN ({', '.join('?' for _ in states)})")
            params += [str(state) for state in states]
        async with self._read() as q:
            order = f"updated_at DESC, {q.insertion_order} DESC"
            sql = f"SELECT * FROM plan_posts WHERE {' AND '.join(where)} ORDER BY {order} LIMIT ?"  # noqa: S608
            rows = await q.all(sql, (*params, limit))
        return [from_row(PlanPost, row, self._box) for row in rows]

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
            row = await _get_plan_post(q, team_id=team_id, channel_id=channel_id, message_ts=message_ts, lock=True)
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
        model_connection: tuple[str, int] | None = None,
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
            model_connection_id=model_connection[0] if model_connection else None,
            model_connection_revision=model_connection[1] if model_connection else None,
            updated_at=now,
        )
        key = (team_id, draft_plan_id, revision)
        row = {**self._row(fresh), "lease_holder": None, "lease_until": encode_time(now + self._lease)}
        async with self._tx() as q:
            created = await q.insert("approvals", row, conflict="ignore") == 1
            if not created:
                # Only a definitive refusal frees the revision for another approval.
                created = await _reclaim_failed(q, row)
            stored = await _get_approval(q, key)
        assert stored is not None  # noqa: S101 - inserted or found inside the same transaction
        return from_row(Approval, stored, self._box), created

    async def release_approval(self, *, team_id: str, draft_plan_id: str, revision: int) -> None:
        async with self._tx() as q:
            await q.run(
                "UPDATE approvals SET lease_holder = NULL, lease_until = NULL "
                "WHERE team_id = ? AND draft_plan_id = ? AND revision = ?",
                (team_id, draft_plan_id, revision),
            )

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

    async def _update_approval(self, key: tuple[str, str, int], assignments: str, values: tuple[Any, ...]) -> Approval:
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

    async def claim_pending_approvals(self, *, holder: str, abandoned_only: bool = False) -> list[Approval]:
        now = self._clock()
        sql = _PENDING_APPROVALS.format(lease=_ABANDONED if abandoned_only else _FREE) + "{lock}"
        async with self._tx() as q:
            rows = await q.all(
                sql.format(lock=q.skip_locked), (ApprovalState.PENDING.value, encode_time(now), RESUME_BATCH)
            )
            _count_takeovers("approval", rows, holder)
            for row in rows:
                await q.run(
                    "UPDATE approvals SET lease_holder = ?, lease_until = ? "
                    "WHERE team_id = ? AND draft_plan_id = ? AND revision = ?",
                    (holder, encode_time(now + self._lease), row["team_id"], row["draft_plan_id"], row["revision"]),
                )
        return [from_row(Approval, row, self._box) for row in rows]

    # -- tracked runs ----------------------------------------------------------------------------------------
    async def add_tracked_run(self, run: TrackedRun) -> bool:
        now = self._clock()
        stored = run.model_copy(update={"created_at": now, "updated_at": now})
        async with self._tx() as q:
            return await q.insert("tracked_runs", self._row(stored), conflict="ignore") == 1

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
            _count_takeovers("run", rows, holder)
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
            assignments="next_poll_at = ?, attempts = ?, last_state = ?, progress_ts = ?, "
            "lease_holder = NULL, lease_until = NULL",
            values=(encode_time(next_poll_at), attempts, last_state, progress_ts),
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

    # -- direct asks -----------------------------------------------------------------------------------------
    async def begin_direct_ask(self, ask: DirectAsk) -> tuple[DirectAsk, bool]:
        now = self._clock()
        stored = ask.model_copy(update={"created_at": now, "updated_at": now})
        row = {**self._row(stored), "lease_holder": None, "lease_until": encode_time(now + self._lease)}
        async with self._tx() as q:
            created = await q.insert("direct_asks", row, conflict="ignore") == 1
            found = await _get_ask(q, ask.client_request_id)
        assert found is not None  # noqa: S101 - inserted or found inside the same transaction
        return from_row(DirectAsk, found, self._box), created

    async def release_direct_ask(self, client_request_id: str) -> None:
        async with self._tx() as q:
            await q.run(
                "UPDATE direct_asks SET lease_holder = NULL, lease_until = NULL WHERE client_request_id = ?",
                (client_request_id,),
            )

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

    async def claim_pending_direct_asks(self, *, holder: str, abandoned_only: bool = False) -> list[DirectAsk]:
        now = self._clock()
        async with self._tx() as q:
            sql = _PENDING_ASKS.format(lease=_ABANDONED if abandoned_only else _FREE) + q.skip_locked
            rows = await q.all(sql, (encode_time(now), RESUME_BATCH))
            _count_takeovers("question", rows, holder)
            for row in rows:
                await q.run(
                    "UPDATE direct_asks SET lease_holder = ?, lease_until = ? WHERE client_request_id = ?",
                    (holder, encode_time(now + self._lease), row["client_request_id"]),
                )
        return [from_row(DirectAsk, row, self._box) for row in rows]

    # -- exports ---------------------------------------------------------------------------------------------
    async def add_export(self, job: ExportJob) -> bool:
        now = self._clock()
        stored = job.model_copy(update={"created_at": now, "updated_at": now})
        async with self._tx() as q:
            return await q.insert("exports", self._row(stored), conflict="ignore") == 1

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
            await q.insert("digests", self._row(stored), conflict="replace")
        return stored

    async def get_digest(self, digest_id: str) -> Digest | None:
        async with self._read() as q:
            row = await _get_digest(q, digest_id)
        return None if row is None else from_row(Digest, row, self._box)

    async def list_digests(self, *, team_id: str | None = None) -> list[Digest]:
        where, params = ("", ()) if team_id is None else (" WHERE team_id = ?", (team_id,))
        async with self._read() as q:
            rows = await q.all(f"SELECT * FROM digests{where} ORDER BY created_at, digest_id", params)  # noqa: S608
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
            return await q.insert("digest_runs", row, conflict="ignore") == 1

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
            return await q.insert("deliveries", {"delivery_key": key, "seen_at": self._now()}, conflict="ignore") == 1

    # -- keyed requests -------------------------------------------------------------------------------------
    async def save_keyed_request(self, request: KeyedRequest) -> KeyedRequest:
        stored = request.model_copy(update={"created_at": self._clock()})
        async with self._tx() as q:
            await q.insert("keyed_requests", self._row(stored), conflict="ignore")
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

    # -- spend with consent ----------------------------------------------------------------------------------
    async def set_channel_policy(self, policy: ChannelPolicy) -> ChannelPolicy:
        stored = policy.model_copy(update={"updated_at": self._clock()})
        async with self._tx() as q:
            await q.insert("channel_policies", self._row(stored), conflict="replace")
        return stored

    async def list_channel_policies(self, *, team_id: str, channel_id: str) -> list[ChannelPolicy]:
        async with self._read() as q:
            rows = await q.all(
                "SELECT * FROM channel_policies WHERE team_id = ? AND channel_id = ? ORDER BY action",
                (team_id, channel_id),
            )
        return [from_row(ChannelPolicy, row, self._box) for row in rows]

    async def add_spend(self, spend: Spend) -> Spend:
        now = self._clock()
        stored = spend.model_copy(update={"created_at": now, "updated_at": now})
        async with self._tx() as q:
            await q.insert("spends", self._row(stored), conflict="ignore")
            row = await _get_spend(q, team_id=spend.team_id, spend_id=spend.spend_id)
        assert row is not None  # noqa: S101 - inserted or found inside the same transaction
        return from_row(Spend, row, self._box)

    async def get_spend(self, *, team_id: str, spend_id: str) -> Spend | None:
        async with self._read() as q:
            row = await _get_spend(q, team_id=team_id, spend_id=spend_id)
        return None if row is None else from_row(Spend, row, self._box)

    async def transition_spend(
        self,
        *,
        team_id: str,
        spend_id: str,
        expected: Collection[SpendOutcome],
        new: SpendOutcome,
        decided_by: str | None = None,
        detail: str | None = None,
        responses: int | None = None,
    ) -> Spend | None:
        async with self._tx() as q:
            row = await _get_spend(q, team_id=team_id, spend_id=spend_id, lock=True)
            if row is None or SpendOutcome(row["outcome"]) not in expected:
                return None
            await q.run(
                "UPDATE spends SET outcome = ?, decided_by = coalesce(?, decided_by), detail = coalesce(?, detail), "
                "responses = coalesce(?, responses), updated_at = ? WHERE team_id = ? AND spend_id = ?",
                (new.value, decided_by, detail, responses, self._now(), team_id, spend_id),
            )
            row = await _get_spend(q, team_id=team_id, spend_id=spend_id)
        return None if row is None else from_row(Spend, row, self._box)

    async def list_spends(self, *, team_id: str, channel_id: str, since: datetime) -> list[Spend]:
        async with self._read() as q:
            rows = await q.all(
                "SELECT * FROM spends WHERE team_id = ? AND channel_id = ? AND created_at >= ? "
                "ORDER BY created_at DESC, spend_id DESC",
                (team_id, channel_id, encode_time(since)),
            )
        return [from_row(Spend, row, self._box) for row in rows]

    # -- chat threads ----------------------------------------------------------------------------------------
    async def save_chat_thread(self, thread: ChatThread) -> ChatThread:
        now = self._clock()
        async with self._tx() as q:
            old = await _get_chat_thread(q, team_id=thread.team_id, channel_id=thread.channel_id, ts=thread.thread_ts)
            created = from_row(ChatThread, old, self._box).created_at if old is not None else now
            stored = thread.model_copy(update={"created_at": created, "updated_at": now})
            await q.insert("chat_threads", self._row(stored), conflict="replace")
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
        """Close each idle thread once, whoever else closes at the same moment: the rows are locked while read
        (PostgreSQL) or read inside a single-writer transaction (SQLite)."""
        now = self._now()
        async with self._tx() as q:
            rows = await q.all(_IDLE_CHATS + q.lock_rows, (encode_time(idle_since),))
            for row in rows:
                await q.run(
                    "UPDATE chat_threads SET closed_at = ?, updated_at = ? "
                    "WHERE team_id = ? AND channel_id = ? AND thread_ts = ?",
                    (now, now, row["team_id"], row["channel_id"], row["thread_ts"]),
                )
        closed = {"closed_at": self._clock(), "updated_at": self._clock()}
        return [from_row(ChatThread, row, self._box).model_copy(update=closed) for row in rows]


_IDLE_CHATS = "SELECT * FROM chat_threads WHERE closed_at IS NULL AND last_activity_at < ? ORDER BY last_activity_at"


async def _get_spend(q: Session, *, team_id: str, spend_id: str, lock: bool = False) -> Row | None:
    suffix = q.lock_rows if lock else ""
    return await q.one(f"SELECT * FROM spends WHERE team_id = ? AND spend_id = ?{suffix}", (team_id, spend_id))  # noqa: S608


async def _get_chat_thread(q: Session, *, team_id: str, channel_id: str, ts: str) -> Row | None:
    return await q.one(
        "SELECT * FROM chat_threads WHERE team_id = ? AND channel_id = ? AND thread_ts = ?", (team_id, channel_id, ts)
    )


async def _reclaim_failed(q: Session, row: Row) -> bool:
    """Re-pend an approval Minds definitively refused; True when there was one to take over."""
    changed = await q.run(
        "UPDATE approvals SET idempotency_key = ?, approver_id = ?, approved_at = ?, advanced_opt_in = ?, "
        "model_connection_id = ?, model_connection_revision = ?, "
        "state = ?, run_id = NULL, failure = NULL, updated_at = ?, lease_holder = NULL, lease_until = ? "
        "WHERE team_id = ? AND draft_plan_id = ? AND revision = ? AND state = ?",
        (
            row["idempotency_key"],
            row["approver_id"],
            row["approved_at"],
            row["advanced_opt_in"],
            row["model_connection_id"],
            row["model_connection_revision"],
            ApprovalState.PENDING.value,
            row["updated_at"],
            row["lease_until"],
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


async def _get_plan_post(
    q: Session, *, team_id: str, channel_id: str, message_ts: str, lock: bool = False
) -> Any | None:
    return await q.one(
        "SELECT * FROM plan_posts WHERE team_id = ? AND channel_id = ? AND message_ts = ?"  # noqa: S608
        + (q.lock_rows if lock else ""),
        (team_id, channel_id, message_ts),
    )


async def _get_approval(q: Session, key: tuple[str, str, int]) -> Any | None:
    return await q.one("SELECT * FROM approvals WHERE team_id = ? AND draft_plan_id = ? AND revision = ?", key)


async def _get_run(q: Session, *, team_id: str, run_id: str) -> Any | None:
    return await q.one("SELECT * FROM tracked_runs WHERE team_id = ? AND run_id = ?", (team_id, run_id))


async def _get_ask(q: Session, client_request_id: str) -> Any | None:
    return await q.one("SELECT * FROM direct_asks WHERE client_request_id = ?", (client_request_id,))


async def _get_export(q: Session, *, team_id: str, job_id: str) -> Any | None:
    return await q.one("SELECT * FROM exports WHERE team_id = ? AND job_id = ?", (team_id, job_id))


async def _get_digest(q: Session, digest_id: str) -> Any | None:
    return await q.one("SELECT * FROM digests WHERE digest_id = ?", (digest_id,))
