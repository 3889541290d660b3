"""`MemoryStore`: the pure-Python twin of the SQL stores, for fast tests and the manifest generator.

Why it is kept beside SQLite and PostgreSQL: several hundred listener and flow tests each build a fresh store;
a dictionary costs nothing to make, needs no file or server and leaves nothing behind, and the contract suite
(tests/store/) holds it to exactly the behaviour of the SQL engines, so a test passing on it means the same as
on them. Everything about several processes (leases taken over, claims across replicas) is proven on the SQL
engines; here "another replica" is another holder name on the same object.

Owns nothing durable. Keeps the same encoded rows as SQL (codec.py: secrets sealed, times as UTC text), so
ordering, secrecy and decrypt failures behave identically. Atomicity comes from asyncio: no method awaits
between reading and writing a row, so every claim is a single uninterrupted step on the event loop.
Must not be used across threads or processes.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from datetime import datetime, timedelta
from typing import Any, TypeVar

from minds_bot.store.base import (
    DEFAULT_CLAIM_LEASE,
    RESUME_BATCH,
    TERMINAL_CLAIM_LEASES,
    PruneCounts,
    RetentionPolicy,
    Store,
)
from minds_bot.store.codec import Row, encode_time, from_row, secret_fields, to_row
from minds_bot.store.errors import RecordNotFoundError, StoreUnavailableError
from minds_bot.store.migrations import MIGRATIONS
from minds_bot.store.notices import MemoryRunNotices
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
    utc_now,
)
from minds_bot.store.secrets import SecretBox

R = TypeVar("R", bound=Record)
K = TypeVar("K")


class MemoryStore(MemoryRunNotices, Store):
    def __init__(
        self,
        *,
        secrets: SecretBox,
        clock: Clock = utc_now,
        retention: RetentionPolicy | None = None,
        claim_lease: timedelta = DEFAULT_CLAIM_LEASE,
    ) -> None:
        self._box = secrets
        self._clock = clock
        self._retention = retention or RetentionPolicy()
        self._lease = claim_lease
        self._post_lease = claim_lease * TERMINAL_CLAIM_LEASES
        self._closed = False
        self._installations: dict[tuple[str, str, str], Row] = {}
        self._bots: dict[tuple[str, str], Row] = {}
        self._oauth_states: dict[str, str] = {}
        self._workspaces: dict[str, Row] = {}
        self._approvers: dict[tuple[str, str], set[str]] = {}
        self._plan_posts: dict[tuple[str, str, str], Row] = {}
        self._approvals: dict[tuple[str, str, int], Row] = {}
        self._runs: dict[tuple[str, str], Row] = {}
        self._asks: dict[str, Row] = {}
        self._keyed: dict[tuple[str, str], Row] = {}
        self._policies: dict[tuple[str, str, str], Row] = {}
        self._spends: dict[tuple[str, str], Row] = {}
        self._exports: dict[tuple[str, str], Row] = {}
        self._digests: dict[str, Row] = {}
        self._digest_runs: dict[tuple[str, str], Row] = {}
        self._deliveries: dict[str, str] = {}
        self._chats: dict[tuple[str, str, str], Row] = {}

    # -- plumbing --------------------------------------------------------------------------------------------
    def _now(self) -> str:
        return encode_time(self._clock())

    def _row(self, record: Record) -> Row:
        return to_row(record, self._box)

    def _load(self, model: type[R], row: Row | None) -> R | None:
        return None if row is None else from_row(model, row, self._box)

    def _load_all(self, model: type[R], rows: Iterable[Row], *, order: Callable[[Row], Any]) -> list[R]:
        return [from_row(model, row, self._box) for row in sorted(rows, key=order)]

    # -- lifecycle -------------------------------------------------------------------------------------------
    @property
    def schema_version(self) -> int:
        return len(MIGRATIONS)

    async def close(self) -> None:
        self._closed = True

    async def ping(self) -> None:
        if self._closed:
            raise StoreUnavailableError("the memory store is closed")

    async def rotate_secrets(self) -> int:
        rewritten = 0
        for table, model in (
            (self._workspaces, WorkspaceSettings),
            (self._installations, InstallationRecord),
            (self._bots, BotRecord),
        ):
            for row in table.values():
                for column in secret_fields(model):
                    if row[column] is not None:
                        row[column] = self._box.rotate(row[column])
                        rewritten += 1
        return rewritten

    async def prune(self, now: datetime) -> PruneCounts:
        seen_cutoff = encode_time(now - self._retention.deliveries)
        done_cutoff = encode_time(now - self._retention.finished)
        finished_exports = {state.value for state in FINISHED_EXPORT_STATES}
        return PruneCounts(
            deliveries=_drop(self._deliveries, lambda seen: seen < seen_cutoff),
            runs=_drop(self._runs, lambda r: bool(r["terminal_posted"]) and r["finished_at"] < done_cutoff),
            direct_asks=_drop(self._asks, lambda a: a["run_id"] is not None and a["updated_at"] < done_cutoff),
            exports=_drop(self._exports, lambda e: e["state"] in finished_exports and e["updated_at"] < done_cutoff),
            digest_runs=_drop(self._digest_runs, lambda d: d["claimed_at"] < done_cutoff),
            oauth_states=_drop(self._oauth_states, lambda expires: expires <= encode_time(now)),
        )

    # -- Slack installations and OAuth state -----------------------------------------------------------------
    async def save_installation(self, installation: InstallationRecord) -> None:
        key = (installation.enterprise_id or "", installation.team_id or "", installation.user_id)
        self._installations.pop(key, None)  # re-insert so the newest save is also the last on ties
        self._installations[key] = self._row(installation)
        bot = installation.to_bot()
        if bot is not None:
            await self.save_bot(bot)

    async def save_bot(self, bot: BotRecord) -> None:
        self._bots[(bot.enterprise_id or "", bot.team_id or "")] = self._row(bot)

    async def find_bot(self, *, enterprise_id: str | None, team_id: str | None) -> BotRecord | None:
        return self._load(BotRecord, self._bots.get((enterprise_id or "", team_id or "")))

    async def find_installation(
        self, *, enterprise_id: str | None, team_id: str | None, user_id: str | None = None
    ) -> InstallationRecord | None:
        matches = self._installation_keys(enterprise_id=enterprise_id, team_id=team_id, user_id=user_id)
        if not matches:
            return None
        # Latest installed_at wins; on a tie the later save (later in insertion order) wins, as in SQLite.
        position = {key: index for index, key in enumerate(self._installations)}
        best = max(matches, key=lambda key: (self._installations[key]["installed_at"], position[key]))
        return self._load(InstallationRecord, self._installations[best])

    async def delete_bot(self, *, enterprise_id: str | None, team_id: str | None) -> None:
        self._bots.pop((enterprise_id or "", team_id or ""), None)

    async def delete_installation(
        self, *, enterprise_id: str | None, team_id: str | None, user_id: str | None = None
    ) -> None:
        for key in self._installation_keys(enterprise_id=enterprise_id, team_id=team_id, user_id=user_id):
            del self._installations[key]

    def _installation_keys(
        self, *, enterprise_id: str | None, team_id: str | None, user_id: str | None
    ) -> list[tuple[str, str, str]]:
        wanted = (enterprise_id or "", team_id or "")
        return [key for key in self._installations if key[:2] == wanted and (user_id is None or key[2] == user_id)]

    async def issue_oauth_state(self, state: str, *, expires_at: datetime) -> None:
        self._oauth_states[state] = encode_time(expires_at)

    async def consume_oauth_state(self, state: str, *, now: datetime) -> bool:
        expires_at = self._oauth_states.pop(state, None)
        return expires_at is not None and expires_at > encode_time(now)

    # -- workspaces and approvers ----------------------------------------------------------------------------
    async def save_workspace(self, settings: WorkspaceSettings) -> WorkspaceSettings:
        stored = settings.model_copy(update={"updated_at": self._clock()})
        self._workspaces[settings.team_id] = self._row(stored)
        return stored

    async def get_workspace(self, team_id: str) -> WorkspaceSettings | None:
        return self._load(WorkspaceSettings, self._workspaces.get(team_id))

    async def delete_workspace(self, team_id: str) -> bool:
        return self._workspaces.pop(team_id, None) is not None

    async def add_approver(self, *, team_id: str, channel_id: str, user_id: str) -> bool:
        users = self._approvers.setdefault((team_id, channel_id), set())
        if user_id in users:
            return False
        users.add(user_id)
        return True

    async def remove_approver(self, *, team_id: str, channel_id: str, user_id: str) -> bool:
        users = self._approvers.get((team_id, channel_id), set())
        if user_id not in users:
            return False
        users.discard(user_id)
        return True

    async def list_approvers(self, *, team_id: str, channel_id: str) -> list[str]:
        return sorted(self._approvers.get((team_id, channel_id), set()))

    # -- plan posts and approvals ----------------------------------------------------------------------------
    async def save_plan_post(self, post: PlanPost) -> PlanPost:
        key = (post.team_id, post.channel_id, post.message_ts)
        existing = self._load(PlanPost, self._plan_posts.pop(key, None))
        now = self._clock()
        created = existing.created_at if existing is not None else now
        stored = post.model_copy(update={"created_at": created, "updated_at": now})
        self._plan_posts[key] = self._row(stored)
        return stored

    async def get_plan_post(self, *, team_id: str, channel_id: str, message_ts: str) -> PlanPost | None:
        return self._load(PlanPost, self._plan_posts.get((team_id, channel_id, message_ts)))

    async def find_plan_post(self, *, team_id: str, draft_plan_id: str) -> PlanPost | None:
        matches = [
            (row["updated_at"], index, row)
            for index, row in enumerate(self._plan_posts.values())
            if row["team_id"] == team_id and row["draft_plan_id"] == draft_plan_id
        ]
        return self._load(PlanPost, max(matches, key=lambda m: m[:2])[2]) if matches else None

    async def recent_plan_posts(
        self, *, team_id: str, requester_id: str | None = None, states: Collection[PlanState] = (), limit: int = 20
    ) -> list[PlanPost]:
        wanted = {str(state) for state in states}
        matches = [
            (row["updated_at"], index, row)
            for index, row in enumerate(self._plan_posts.values())
            if row["team_id"] == team_id
            and (requester_id is None or row["requester_id"] == requester_id)
            and (not wanted or row["state"] in wanted)
        ]
        matches.sort(key=lambda m: m[:2], reverse=True)
        return [from_row(PlanPost, row, self._box) for _, _, row in matches[:limit]]

    async def transition_plan_post(
        self,
        *,
        team_id: str,
        channel_id: str,
        message_ts: str,
        expected: Collection[PlanState],
        new: PlanState,
    ) -> PlanPost | None:
        row = self._plan_posts.get((team_id, channel_id, message_ts))
        if row is None or PlanState(row["state"]) not in expected:
            return None
        row.update(state=new.value, updated_at=self._now())
        return self._load(PlanPost, row)

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
        key = (team_id, draft_plan_id, revision)
        existing = self._approvals.get(key)
        if existing is not None and existing["state"] != ApprovalState.FAILED.value:
            return from_row(Approval, existing, self._box), False
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
        self._approvals[key] = {**self._row(fresh), "lease_holder": None, "lease_until": self._lease_end()}
        return from_row(Approval, self._approvals[key], self._box), True

    async def release_approval(self, *, team_id: str, draft_plan_id: str, revision: int) -> None:
        row = self._approvals.get((team_id, draft_plan_id, revision))
        if row is not None:
            row.update(lease_holder=None, lease_until=None)

    async def get_approval(self, *, team_id: str, draft_plan_id: str, revision: int) -> Approval | None:
        return self._load(Approval, self._approvals.get((team_id, draft_plan_id, revision)))

    async def attach_run(self, *, team_id: str, draft_plan_id: str, revision: int, run_id: str) -> Approval:
        row = _require(self._approvals, (team_id, draft_plan_id, revision), what="approval")
        row.update(state=ApprovalState.SUBMITTED.value, run_id=run_id, failure=None, updated_at=self._now())
        return from_row(Approval, row, self._box)

    async def fail_approval(self, *, team_id: str, draft_plan_id: str, revision: int, reason: str) -> Approval:
        row = _require(self._approvals, (team_id, draft_plan_id, revision), what="approval")
        row.update(state=ApprovalState.FAILED.value, failure=reason, updated_at=self._now())
        return from_row(Approval, row, self._box)

    async def claim_pending_approvals(self, *, holder: str, abandoned_only: bool = False) -> list[Approval]:
        now = self._now()
        pending = [
            row
            for row in self._approvals.values()
            if row["state"] == ApprovalState.PENDING.value and _lease_free(row, now, abandoned_only=abandoned_only)
        ]
        order = lambda row: (row["approved_at"], row["draft_plan_id"], row["revision"])  # noqa: E731
        claimed = sorted(pending, key=order)[:RESUME_BATCH]
        for row in claimed:
            row.update(lease_holder=holder, lease_until=self._lease_end())
        return [from_row(Approval, row, self._box) for row in claimed]

    def _lease_end(self) -> str:
        return encode_time(self._clock() + self._lease)

    # -- tracked runs ----------------------------------------------------------------------------------------
    async def add_tracked_run(self, run: TrackedRun) -> bool:
        key = (run.team_id, run.run_id)
        if key in self._runs:
            return False
        now = self._clock()
        self._runs[key] = self._row(run.model_copy(update={"created_at": now, "updated_at": now}))
        return True

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
            and _lease_free(row, due_at)
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
        row = _require(self._runs, (team_id, run_id), what="tracked run")
        row.update(
            next_poll_at=encode_time(next_poll_at),
            attempts=attempts,
            last_state=last_state,
            progress_ts=progress_ts,
            updated_at=self._now(),
            lease_holder=None,
            lease_until=None,
        )

    async def note_cancel_requested(self, *, team_id: str, run_id: str, user_id: str) -> None:
        row = _require(self._runs, (team_id, run_id), what="tracked run")
        row.update(cancelled_by=user_id, updated_at=self._now())

    async def claim_terminal_post(self, *, team_id: str, run_id: str) -> bool:
        row = _require(self._runs, (team_id, run_id), what="tracked run")
        now = self._clock()
        claimed_at = row["terminal_claimed_at"]
        if row["terminal_posted"] or (claimed_at is not None and claimed_at >= encode_time(now - self._post_lease)):
            return False
        row.update(terminal_claimed_at=encode_time(now), updated_at=encode_time(now))
        return True

    async def release_terminal_post(self, *, team_id: str, run_id: str) -> None:
        row = _require(self._runs, (team_id, run_id), what="tracked run")
        row.update(terminal_claimed_at=None, updated_at=self._now())

    async def mark_terminal_posted(self, *, team_id: str, run_id: str) -> None:
        row = _require(self._runs, (team_id, run_id), what="tracked run")
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

    # -- direct asks -----------------------------------------------------------------------------------------
    async def begin_direct_ask(self, ask: DirectAsk) -> tuple[DirectAsk, bool]:
        existing = self._asks.get(ask.client_request_id)
        if existing is not None:
            return from_row(DirectAsk, existing, self._box), False
        now = self._clock()
        stored = ask.model_copy(update={"created_at": now, "updated_at": now})
        self._asks[ask.client_request_id] = {
            **self._row(stored),
            "lease_holder": None,
            "lease_until": self._lease_end(),
        }
        return from_row(DirectAsk, self._asks[ask.client_request_id], self._box), True

    async def release_direct_ask(self, client_request_id: str) -> None:
        row = self._asks.get(client_request_id)
        if row is not None:
            row.update(lease_holder=None, lease_until=None)

    async def get_direct_ask(self, client_request_id: str) -> DirectAsk | None:
        return self._load(DirectAsk, self._asks.get(client_request_id))

    async def attach_direct_run(self, *, client_request_id: str, run_id: str) -> DirectAsk:
        row = _require(self._asks, client_request_id, what="direct ask")
        row.update(run_id=run_id, settled=True, updated_at=self._now())
        return from_row(DirectAsk, row, self._box)

    async def settle_direct_ask(self, client_request_id: str) -> DirectAsk:
        row = _require(self._asks, client_request_id, what="direct ask")
        row.update(settled=True, updated_at=self._now())
        return from_row(DirectAsk, row, self._box)

    async def claim_pending_direct_asks(self, *, holder: str, abandoned_only: bool = False) -> list[DirectAsk]:
        now = self._now()
        rows = [
            row
            for row in self._asks.values()
            if row["run_id"] is None and not row["settled"] and _lease_free(row, now, abandoned_only=abandoned_only)
        ]
        claimed = sorted(rows, key=lambda row: (row["created_at"], row["client_request_id"]))[:RESUME_BATCH]
        for row in claimed:
            row.update(lease_holder=holder, lease_until=self._lease_end())
        return [from_row(DirectAsk, row, self._box) for row in claimed]

    # -- keyed requests -------------------------------------------------------------------------------------
    async def save_keyed_request(self, request: KeyedRequest) -> KeyedRequest:
        slot = (request.team_id, request.key)
        if slot not in self._keyed:
            self._keyed[slot] = self._row(request.model_copy(update={"created_at": self._clock()}))
        return from_row(KeyedRequest, self._keyed[slot], self._box)

    async def get_keyed_request(self, *, team_id: str, key: str) -> KeyedRequest | None:
        return self._load(KeyedRequest, self._keyed.get((team_id, key)))

    async def latest_keyed_request(
        self, *, team_id: str, purpose: str, subject: str, since: datetime
    ) -> KeyedRequest | None:
        found = [
            from_row(KeyedRequest, row, self._box)
            for row in self._keyed.values()
            if (row["team_id"], row["purpose"], row["subject"]) == (team_id, purpose, subject)
        ]
        recent = [r for r in found if r.created_at is not None and r.created_at >= since]
        return max(recent, key=lambda r: (r.created_at, r.key), default=None)

    # -- exports ---------------------------------------------------------------------------------------------
    async def add_export(self, job: ExportJob) -> bool:
        key = (job.team_id, job.job_id)
        if key in self._exports:
            return False
        now = self._clock()
        self._exports[key] = self._row(job.model_copy(update={"created_at": now, "updated_at": now}))
        return True

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
        row = _require(self._exports, (team_id, job_id), what="export job")
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

    # -- digests ---------------------------------------------------------------------------------------------
    async def save_digest(self, digest: Digest) -> Digest:
        existing = self._load(Digest, self._digests.get(digest.digest_id))
        now = self._clock()
        created = existing.created_at if existing is not None else now
        stored = digest.model_copy(update={"created_at": created, "updated_at": now})
        self._digests[digest.digest_id] = self._row(stored)
        return stored

    async def get_digest(self, digest_id: str) -> Digest | None:
        return self._load(Digest, self._digests.get(digest_id))

    async def list_digests(self, *, team_id: str | None = None) -> list[Digest]:
        rows = (row for row in self._digests.values() if team_id is None or row["team_id"] == team_id)
        return self._load_all(Digest, rows, order=lambda row: (row["created_at"], row["digest_id"]))

    async def delete_digest(self, digest_id: str) -> bool:
        for key in [key for key in self._digest_runs if key[0] == digest_id]:
            del self._digest_runs[key]
        return self._digests.pop(digest_id, None) is not None

    async def claim_digest_run(self, *, digest_id: str, window_key: str) -> bool:
        _require(self._digests, digest_id, what="digest")
        key = (digest_id, window_key)
        if key in self._digest_runs:
            return False
        self._digest_runs[key] = {"claimed_at": self._now(), "completed_at": None}
        return True

    async def release_digest_run(self, *, digest_id: str, window_key: str) -> None:
        run = self._digest_runs.get((digest_id, window_key))
        if run is not None and run["completed_at"] is None:
            del self._digest_runs[(digest_id, window_key)]

    async def complete_digest_run(self, *, digest_id: str, window_key: str, watermark: str | None) -> Digest:
        run = self._digest_runs.get((digest_id, window_key))
        digest = self._digests.get(digest_id)
        if run is None or digest is None:
            raise RecordNotFoundError(f"digest {digest_id} has no claimed window {window_key}")
        now = self._now()
        run["completed_at"] = now
        digest.update(watermark=watermark, last_posted_at=now, updated_at=now)
        return from_row(Digest, digest, self._box)

    # -- Slack deliveries ------------------------------------------------------------------------------------
    async def mark_delivery(self, key: str) -> bool:
        if key in self._deliveries:
            return False
        self._deliveries[key] = self._now()
        return True

    # -- chat threads ----------------------------------------------------------------------------------------
    async def save_chat_thread(self, thread: ChatThread) -> ChatThread:
        key = (thread.team_id, thread.channel_id, thread.thread_ts)
        old = self._load(ChatThread, self._chats.get(key))
        now = self._clock()
        stored = thread.model_copy(update={"created_at": old.created_at if old else now, "updated_at": now})
        self._chats[key] = self._row(stored)
        return stored

    async def get_chat_thread(self, *, team_id: str, channel_id: str, thread_ts: str) -> ChatThread | None:
        return self._load(ChatThread, self._chats.get((team_id, channel_id, thread_ts)))

    async def touch_chat_thread(self, *, team_id: str, channel_id: str, thread_ts: str, at: datetime) -> bool:
        row = self._chats.get((team_id, channel_id, thread_ts))
        if row is None or row["closed_at"] is not None:
            return False
        self._chats[(team_id, channel_id, thread_ts)] = {
            **row,
            "last_activity_at": encode_time(at),
            "updated_at": self._now(),
        }
        return True

    async def close_idle_chat_threads(self, *, idle_since: datetime) -> list[ChatThread]:
        cutoff, now = encode_time(idle_since), self._now()
        idle = [k for k, r in self._chats.items() if r["closed_at"] is None and r["last_activity_at"] < cutoff]
        idle.sort(key=lambda k: self._chats[k]["last_activity_at"])
        for key in idle:
            self._chats[key] = {**self._chats[key], "closed_at": now, "updated_at": now}
        return [from_row(ChatThread, self._chats[key], self._box) for key in idle]

    # -- spend with consent ----------------------------------------------------------------------------------
    async def set_channel_policy(self, policy: ChannelPolicy) -> ChannelPolicy:
        stored = policy.model_copy(update={"updated_at": self._clock()})
        self._policies[(policy.team_id, policy.channel_id, policy.action)] = self._row(stored)
        return stored

    async def list_channel_policies(self, *, team_id: str, channel_id: str) -> list[ChannelPolicy]:
        rows = [r for (t, c, _a), r in self._policies.items() if (t, c) == (team_id, channel_id)]
        return self._load_all(ChannelPolicy, rows, order=lambda r: r["action"])

    async def add_spend(self, spend: Spend) -> Spend:
        slot = (spend.team_id, spend.spend_id)
        if slot not in self._spends:
            now = self._clock()
            self._spends[slot] = self._row(spend.model_copy(update={"created_at": now, "updated_at": now}))
        return from_row(Spend, self._spends[slot], self._box)

    async def get_spend(self, *, team_id: str, spend_id: str) -> Spend | None:
        return self._load(Spend, self._spends.get((team_id, spend_id)))

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
        row = self._spends.get((team_id, spend_id))
        if row is None or SpendOutcome(row["outcome"]) not in expected:
            return None
        row.update(outcome=new.value, updated_at=self._now())
        if decided_by is not None:
            row["decided_by"] = decided_by
        if detail is not None:
            row["detail"] = detail
        if responses is not None:
            row["responses"] = responses
        return self._load(Spend, row)

    async def list_spends(self, *, team_id: str, channel_id: str, since: datetime) -> list[Spend]:
        cutoff = encode_time(since)
        rows = [
            r
            for (t, _s), r in self._spends.items()
            if t == team_id and r["channel_id"] == channel_id and r["created_at"] >= cutoff
        ]
        ordered = self._load_all(Spend, rows, order=lambda r: (r["created_at"], r["spend_id"]))
        return ordered[::-1]


def _lease_free(row: Row, now: str, *, abandoned_only: bool = False) -> bool:
    """Nobody holds a live lease on this row (times are encoded, so text order is time order); with
    `abandoned_only`, a lease was taken and ran out (its holder died), as opposed to released."""
    until: str | None = row.get("lease_until")
    if until is None:
        return not abandoned_only
    return until < now


def _require(table: dict[K, Row], key: K, *, what: str) -> Row:
    row = table.get(key)
    if row is None:
        raise RecordNotFoundError(f"no {what} {key!r}")
    return row


def _drop(table: dict[K, Any], doomed: Callable[[Any], bool]) -> int:
    keys = [key for key, value in table.items() if doomed(value)]
    for key in keys:
        del table[key]
    return len(keys)
