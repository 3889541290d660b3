"""The one store interface (`Store`) and its policy objects.

Owns the contract every implementation honours: `PostgresStore` (several replicas on one database),
`SqliteStore` (the embedded default) and `MemoryStore` (fast tests). The contract suite in tests/store/ runs
against all three. Must not import Slack or Minds clients.

Conventions: keys are keyword-only; `created_at` / `updated_at` are stamped from the store's injected clock;
every "claim" is atomic across coroutines and across processes sharing the database: exactly one caller wins.
Reads of a record whose secret cannot be decrypted raise `SecretDecryptError`.

Leases, not luck: work that any replica could do (polling a due run, resuming an interrupted approval or
question) is *claimed* with a lease of the store's `claim_lease`: the claimer's name (`holder`) and an expiry.
Nobody else takes it while the lease is live; the holder renews it while it works; when the holder dies the
lease runs out and the next claim by another replica takes the work over. A replica's death costs a delay of at
most one lease, never the work.
"""

from __future__ import annotations

import os
import secrets
import socket
from abc import ABC, abstractmethod
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime, timedelta

from minds_bot.store.notices import RunNoticeStore
from minds_bot.store.records import (
    Approval,
    BotRecord,
    ChannelPolicy,
    ChatThread,
    Digest,
    DirectAsk,
    ExportJob,
    ExportState,
    InstallationRecord,
    KeyedRequest,
    PlanPost,
    PlanState,
    Spend,
    SpendOutcome,
    TrackedRun,
    WorkspaceSettings,
)

DEFAULT_CLAIM_LEASE = timedelta(minutes=10)
# A terminal-post claim lasts this many leases: posting to Slack is the one step that cannot be undone, so a
# replica that is slow (not dead) keeps its claim through a few missed renewals before anyone posts instead.
TERMINAL_CLAIM_LEASES = 5
RESUME_BATCH = 100  # pending approvals / questions claimed per call


def new_holder_id() -> str:
    """A lease holder's name: unique per process, readable in the database (host, pid, random suffix)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


@dataclass(frozen=True, slots=True)
class RetentionPolicy:
    """How long finished things are kept before `prune` deletes them."""

    deliveries: timedelta = timedelta(days=3)  # Slack retries within minutes; days is ample
    finished: timedelta = timedelta(days=30)  # posted runs, attached asks, finished exports, digest windows


@dataclass(frozen=True, slots=True)
class PruneCounts:
    deliveries: int = 0
    runs: int = 0
    direct_asks: int = 0
    exports: int = 0
    digest_runs: int = 0
    oauth_states: int = 0
    skipped: bool = False  # another replica held the housekeeping lock: nothing was pruned by this call

    @property
    def total(self) -> int:
        return self.deliveries + self.runs + self.direct_asks + self.exports + self.digest_runs + self.oauth_states


class Store(RunNoticeStore, ABC):
    """Durable state of minds-bot. See the module docstring for the shared conventions."""

    # -- lifecycle -------------------------------------------------------------------------------------------
    @property
    @abstractmethod
    def schema_version(self) -> int: ...

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    async def ping(self) -> None:
        """Cheap liveness check for /healthz; raises StoreUnavailableError when the store cannot answer."""

    @abstractmethod
    async def rotate_secrets(self) -> int:
        """Re-encrypt every stored secret under the first configured key; returns how many were rewritten."""

    @abstractmethod
    async def prune(self, now: datetime) -> PruneCounts:
        """Delete deliveries, finished runs/asks/exports, digest windows and OAuth states past retention. One
        replica at a time: while another is pruning this returns at once with `skipped=True`."""

    # -- Slack installations and OAuth state -----------------------------------------------------------------
    @abstractmethod
    async def save_installation(self, installation: InstallationRecord) -> None:
        """Upsert per (enterprise, team, installer); also upserts its bot when it carries a bot token."""

    @abstractmethod
    async def save_bot(self, bot: BotRecord) -> None:
        """Upsert per (enterprise, team)."""

    @abstractmethod
    async def find_bot(self, *, enterprise_id: str | None, team_id: str | None) -> BotRecord | None: ...

    @abstractmethod
    async def find_installation(
        self, *, enterprise_id: str | None, team_id: str | None, user_id: str | None = None
    ) -> InstallationRecord | None:
        """The installer's installation, or without `user_id` the latest installed in that team."""

    @abstractmethod
    async def delete_bot(self, *, enterprise_id: str | None, team_id: str | None) -> None: ...

    @abstractmethod
    async def delete_installation(
        self, *, enterprise_id: str | None, team_id: str | None, user_id: str | None = None
    ) -> None:
        """Deletes the installer's installation, or without `user_id` every installation of that team."""

    @abstractmethod
    async def issue_oauth_state(self, state: str, *, expires_at: datetime) -> None: ...

    @abstractmethod
    async def consume_oauth_state(self, state: str, *, now: datetime) -> bool:
        """True once for a state issued and not expired at `now`; the state is gone afterwards."""

    # -- workspaces and approvers ----------------------------------------------------------------------------
    @abstractmethod
    async def save_workspace(self, settings: WorkspaceSettings) -> WorkspaceSettings:
        """Upsert by team; returns the stored record (updated_at stamped)."""

    @abstractmethod
    async def get_workspace(self, team_id: str) -> WorkspaceSettings | None: ...

    @abstractmethod
    async def delete_workspace(self, team_id: str) -> bool: ...

    @abstractmethod
    async def add_approver(self, *, team_id: str, channel_id: str, user_id: str) -> bool:
        """True when newly added, False when already an approver."""

    @abstractmethod
    async def remove_approver(self, *, team_id: str, channel_id: str, user_id: str) -> bool:
        """True when removed, False when the user was not an approver."""

    @abstractmethod
    async def list_approvers(self, *, team_id: str, channel_id: str) -> list[str]:
        """User ids, sorted."""

    # -- plan posts and approvals ----------------------------------------------------------------------------
    @abstractmethod
    async def save_plan_post(self, post: PlanPost) -> PlanPost:
        """Upsert by (team, channel, message_ts); keeps created_at, stamps updated_at."""

    @abstractmethod
    async def get_plan_post(self, *, team_id: str, channel_id: str, message_ts: str) -> PlanPost | None: ...

    @abstractmethod
    async def find_plan_post(self, *, team_id: str, draft_plan_id: str) -> PlanPost | None:
        """The most recently updated post showing this draft."""

    @abstractmethod
    async def recent_plan_posts(
        self, *, team_id: str, requester_id: str | None = None, states: Collection[PlanState] = (), limit: int = 20
    ) -> list[PlanPost]:
        """A workspace's plan messages, the most recently changed first: only ``requester_id``'s when given, only
        in ``states`` when given."""

    @abstractmethod
    async def transition_plan_post(
        self,
        *,
        team_id: str,
        channel_id: str,
        message_ts: str,
        expected: Collection[PlanState],
        new: PlanState,
    ) -> PlanPost | None:
        """Atomic compare-and-set of the state; None when the post is missing or not in `expected`."""

    @abstractmethod
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
        """Atomically create the approval of this revision, leased to its creator for one claim lease while it
        confirms. Returns (record, created): exactly one concurrent caller gets created=True; the others get the
        winner's record (and must reuse its idempotency_key). A FAILED approval is claimable again (re-pending
        with the new approver and key). ``model_connection``: the (id, revision) pinned for the run, kept with the
        approval so every retry sends the same selection."""

    @abstractmethod
    async def get_approval(self, *, team_id: str, draft_plan_id: str, revision: int) -> Approval | None: ...

    @abstractmethod
    async def attach_run(self, *, team_id: str, draft_plan_id: str, revision: int, run_id: str) -> Approval:
        """Record the run Minds started; state becomes SUBMITTED. Raises RecordNotFoundError."""

    @abstractmethod
    async def fail_approval(self, *, team_id: str, draft_plan_id: str, revision: int, reason: str) -> Approval:
        """Only for a definitive refusal (nothing started). Raises RecordNotFoundError."""

    @abstractmethod
    async def claim_pending_approvals(self, *, holder: str, abandoned_only: bool = False) -> list[Approval]:
        """Claimed but never answered and leased by nobody (a new approval is leased to its claimer while it
        confirms): leases each to `holder`, who resumes it by re-sending with the same key. `abandoned_only`
        takes only approvals whose lease ran out (their confirmer died), not released ones (a confirm that ended
        without an answer and waits for a person to press Approve again)."""

    @abstractmethod
    async def release_approval(self, *, team_id: str, draft_plan_id: str, revision: int) -> None:
        """The confirm attempt ended without Minds' answer: end its lease; it waits for a person (or a start-up)."""

    # -- tracked runs ----------------------------------------------------------------------------------------
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

    # -- direct asks -----------------------------------------------------------------------------------------
    @abstractmethod
    async def begin_direct_ask(self, ask: DirectAsk) -> tuple[DirectAsk, bool]:
        """Persist before POST /runs, leased to its creator for one claim lease. Returns (stored, created); an
        existing client_request_id is kept."""

    @abstractmethod
    async def get_direct_ask(self, client_request_id: str) -> DirectAsk | None: ...

    @abstractmethod
    async def attach_direct_run(self, *, client_request_id: str, run_id: str) -> DirectAsk:
        """Raises RecordNotFoundError."""

    @abstractmethod
    async def settle_direct_ask(self, client_request_id: str) -> DirectAsk:
        """Minds refused the ask for good (or asked for a plan): it is never re-sent. Raises RecordNotFoundError."""

    @abstractmethod
    async def claim_pending_direct_asks(self, *, holder: str, abandoned_only: bool = False) -> list[DirectAsk]:
        """Unsettled asks with no run yet and no live lease, leased to `holder`: after a crash, it resends them
        with the same clientRequestId. `abandoned_only` as for `claim_pending_approvals`."""

    @abstractmethod
    async def release_direct_ask(self, client_request_id: str) -> None:
        """The send attempt ended without a definitive answer: end its lease; it waits for Try again (or a
        start-up)."""

    # -- keyed requests -------------------------------------------------------------------------------------
    @abstractmethod
    async def save_keyed_request(self, request: KeyedRequest) -> KeyedRequest:
        """Persist before the request is sent; an existing (team_id, key) is kept and returned unchanged."""

    @abstractmethod
    async def get_keyed_request(self, *, team_id: str, key: str) -> KeyedRequest | None: ...

    @abstractmethod
    async def latest_keyed_request(
        self, *, team_id: str, purpose: str, subject: str, since: datetime
    ) -> KeyedRequest | None:
        """The newest request for this purpose and subject created at or after ``since``."""

    # -- exports ---------------------------------------------------------------------------------------------
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

    # -- digests ---------------------------------------------------------------------------------------------
    @abstractmethod
    async def save_digest(self, digest: Digest) -> Digest: ...

    @abstractmethod
    async def get_digest(self, digest_id: str) -> Digest | None: ...

    @abstractmethod
    async def list_digests(self, *, team_id: str | None = None) -> list[Digest]:
        """Ordered by creation."""

    @abstractmethod
    async def delete_digest(self, digest_id: str) -> bool: ...

    @abstractmethod
    async def claim_digest_run(self, *, digest_id: str, window_key: str) -> bool:
        """True for exactly one caller per (digest, window), across processes."""

    @abstractmethod
    async def release_digest_run(self, *, digest_id: str, window_key: str) -> None:
        """Undo an unfinished claim after a failed post so the window can be retried."""

    @abstractmethod
    async def complete_digest_run(self, *, digest_id: str, window_key: str, watermark: str | None) -> Digest:
        """Mark the window posted; sets the digest's watermark and last_posted_at. Raises
        RecordNotFoundError."""

    # -- Slack deliveries ------------------------------------------------------------------------------------
    @abstractmethod
    async def mark_delivery(self, key: str) -> bool:
        """True the first time `key` is seen (event id, or action + user + action_ts); False for repeats."""

    # -- chat threads (/minds chat) --------------------------------------------------------------------------
    @abstractmethod
    async def save_chat_thread(self, thread: ChatThread) -> ChatThread:
        """Upsert by (team, channel, thread_ts); keeps created_at, stamps updated_at."""

    @abstractmethod
    async def get_chat_thread(self, *, team_id: str, channel_id: str, thread_ts: str) -> ChatThread | None: ...

    @abstractmethod
    async def touch_chat_thread(self, *, team_id: str, channel_id: str, thread_ts: str, at: datetime) -> bool:
        """Record a turn at `at` in an open thread; False when the thread is unknown or closed."""

    @abstractmethod
    async def close_idle_chat_threads(self, *, idle_since: datetime) -> list[ChatThread]:
        """Close every open thread whose last turn was before `idle_since` and return them, closed; each
        thread is returned to exactly one caller, across processes (it is then posted about once)."""

    # -- spend with consent (/minds policy, /minds activity) ---------------------------------------------------
    @abstractmethod
    async def set_channel_policy(self, policy: ChannelPolicy) -> ChannelPolicy:
        """Upsert by (team, channel, action); stamps updated_at."""

    @abstractmethod
    async def list_channel_policies(self, *, team_id: str, channel_id: str) -> list[ChannelPolicy]:
        """The actions this channel set a mode for, by action."""

    @abstractmethod
    async def add_spend(self, spend: Spend) -> Spend:
        """Record a spend; an existing (team, spend_id) is kept and returned unchanged."""

    @abstractmethod
    async def get_spend(self, *, team_id: str, spend_id: str) -> Spend | None: ...

    @abstractmethod
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
        """Atomic compare-and-set of the outcome (exactly one concurrent caller wins); ``decided_by`` and
        ``detail`` are only overwritten when given, and so is ``responses`` (what Minds counted once it answered,
        e.g. a research run's responses). None when the spend is missing or not in ``expected``."""

    @abstractmethod
    async def list_spends(self, *, team_id: str, channel_id: str, since: datetime) -> list[Spend]:
        """A channel's spends recorded at or after ``since``, newest first."""
