"""Durable state of minds-bot: what it must never forget, never do twice, and never leak.

Owns the schema (SQLite and PostgreSQL) and every read/write of bot state; must not call Slack or Minds.
Public API:

- `open_store(path, *, secrets, clock=utc_now, retention=None, claim_lease=..., database_url=None,
  pool_size=...) -> Store` — PostgreSQL at `database_url` when given, else SQLite at `path` (None or
  ":memory:" for a private in-memory database), migrated to the latest schema.
- `Store` — the interface (base.py): one small protocol per section of state, each in the module of what it
  owns together with its SQL and in-memory halves (`StoreLifecycle`, `InstallStore` installs.py, `WorkspaceStore`
  workspaces.py, `PlanStore` plans.py, `RunStore` runs.py, `AskStore` asks.py, `KeyedRequestStore` and
  `DeliveryStore` keys.py, `ExportStore` exports.py, `DigestStore` digests.py, `ChatStore` chats.py, `SpendStore`
  spends.py, `RunNoticeStore` notices.py); a caller that needs one section may ask for its protocol.
  `PostgresStore.open(url, ...)` (several replicas), `SqliteStore.open(...)` (embedded default) — both run the
  shared statements (`SqlStore`, sql.py, composed of the sections' SQL halves) — and `MemoryStore(...)` (fast
  tests, composed of their in-memory halves). The in-memory twin stays: hundreds of listener and flow tests build
  a store each, and it costs nothing; the contract suite holds all three to the same behaviour (memory.py says
  more).
  Lifecycle: `schema_version`, `close()`, `ping()`, `prune(now) -> PruneCounts`, `rotate_secrets() -> int`.
  Leases (see leases.py): `claim_due_runs`, `renew_run_leases`, `claim_pending_approvals`,
  `claim_pending_direct_asks`; `new_holder_id()` names a replica.
  Installations: `save_installation`, `save_bot`, `find_bot`, `find_installation`, `delete_bot`,
  `delete_installation`, `issue_oauth_state`, `consume_oauth_state`.
  Workspaces: `save_workspace`, `get_workspace`, `delete_workspace`; approvers: `add_approver`,
  `remove_approver`, `list_approvers`.
  Plans: `save_plan_post`, `get_plan_post`, `find_plan_post`, `transition_plan_post`; approvals:
  `claim_approval -> (Approval, created)`, `get_approval`, `attach_run`, `fail_approval`.
  Runs: `add_tracked_run`, `get_tracked_run`, `update_run_poll`, `claim_terminal_post`,
  `release_terminal_post`, `mark_terminal_posted`, `unfinished_runs`.
  Direct asks: `begin_direct_ask -> (DirectAsk, created)`, `get_direct_ask`, `attach_direct_run`,
  `settle_direct_ask`. Keyed requests: `save_keyed_request`, `get_keyed_request`, `latest_keyed_request`.
  Exports: `add_export`, `get_export`, `update_export`, `unfinished_exports`. Chat threads: `save_chat_thread`,
  `get_chat_thread`, `touch_chat_thread`, `close_idle_chat_threads`.
  Run ends (notices.py): `set_run_dms`, `run_dms_on`, `watch_run`, `run_watchers`, `claim_run_notice`,
  `release_run_notice`, `save_run_result`, `get_run_result`, `recent_run_results` (`RunResult`).
  Spend with consent: `set_channel_policy`, `list_channel_policies`, `add_spend`, `get_spend`,
  `transition_spend` (compare-and-set: one caller wins), `list_spends` (newest first).
  Digests: `save_digest`, `get_digest`, `list_digests`, `delete_digest`, `claim_digest_run`,
  `release_digest_run`, `complete_digest_run`. Slack retries: `mark_delivery(key) -> bool`.
- Records (records.py): `WorkspaceSettings`, `InstallationRecord`, `BotRecord`, `PlanPost` (with its
  `PlanMemory`), `PreviewReceipt`, `Approval`, `TrackedRun`, `DirectAsk`, `KeyedRequest`, `ExportJob`, `Digest`,
  `ChatThread` and their state enums.
- `SecretBox` (secrets.py) from MINDS_BOT_SECRET_KEY; `SecretKeyError`, `SecretDecryptError`.
- Bolt adapters (slack_oauth.py): `StoreInstallationStore(store)`, `StoreOAuthStateStore(store, clock=...)`.
- Errors (errors.py): `StoreError`, `SchemaTooNewError`, `StoreUnavailableError` (also every operation on a
  database that went away: no raw driver error leaves the store), `RecordNotFoundError`.
- Availability (health.py, imported as `minds_bot.store.health`): `StoreHealth` (a bounded ping, at most once a
  second, for `/healthz`) and `Outage` (a background loop's back-off and its two log lines per outage).
- Probes for `minds-bot check` (read-only): `schema_version_of(url)` (PostgreSQL), `sqlite_schema_version(path)`;
  `redact_url(url)` (password → ***).
- The Minds budget shared by replicas: `PostgresStore.budget_take` / `budget_recent` / `budget_block` (postgres.py)
  on the tables and the function `minds_budget_take` of minds_budget.sql (migration 15).

The PostgreSQL and OAuth parts and `MemoryStore` load on first use (`__getattr__`): a SQLite bot never imports
them (each section's in-memory half is a few dozen lines in its section's module and loads with it).
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

from minds_bot.lazy import lazy_names
from minds_bot.store.asks import AskStore
from minds_bot.store.base import PruneCounts, RetentionPolicy, Store, StoreLifecycle
from minds_bot.store.chats import ChatStore
from minds_bot.store.digests import DigestStore
from minds_bot.store.errors import RecordNotFoundError, SchemaTooNewError, StoreError, StoreUnavailableError
from minds_bot.store.exports import ExportStore
from minds_bot.store.installs import InstallStore
from minds_bot.store.keys import DeliveryStore, KeyedRequestStore
from minds_bot.store.leases import DEFAULT_CLAIM_LEASE, new_holder_id
from minds_bot.store.notices import RunNoticeStore, RunResult
from minds_bot.store.plans import PlanStore
from minds_bot.store.records import (
    Approval,
    ApprovalState,
    BotRecord,
    ChannelPolicy,
    ChatThread,
    Clock,
    ConfirmationAnswer,
    Digest,
    DirectAsk,
    ExportJob,
    ExportState,
    InstallationRecord,
    KeyedRequest,
    PlanMemory,
    PlanPost,
    PlanState,
    PolicyMode,
    PreviewReceipt,
    RunKind,
    ScheduleKind,
    ShownQuestion,
    Spend,
    SpendOutcome,
    TrackedRun,
    WorkspaceSettings,
    utc_now,
)
from minds_bot.store.runs import RunStore
from minds_bot.store.secrets import SecretBox, SecretDecryptError, SecretKeyError
from minds_bot.store.spends import SpendStore
from minds_bot.store.sqlite import SqliteStore, sqlite_schema_version
from minds_bot.store.workspaces import WorkspaceStore

if TYPE_CHECKING:  # loaded on first use: PostgreSQL with MINDS_BOT_DATABASE_URL, OAuth installs, tests
    from minds_bot.store.memory import MemoryStore
    from minds_bot.store.postgres import PostgresStore, redact_url, schema_version_of
    from minds_bot.store.slack_oauth import StoreInstallationStore, StoreOAuthStateStore

_LATER = {
    "MemoryStore": "memory",
    "PostgresStore": "postgres",
    "redact_url": "postgres",
    "schema_version_of": "postgres",
    "StoreInstallationStore": "slack_oauth",
    "StoreOAuthStateStore": "slack_oauth",
}

__getattr__ = lazy_names(__name__, _LATER, globals())


async def open_store(
    path: str | None,
    *,
    secrets: SecretBox,
    clock: Clock = utc_now,
    retention: RetentionPolicy | None = None,
    claim_lease: timedelta = DEFAULT_CLAIM_LEASE,
    database_url: str | None = None,
    pool_size: int | None = None,
) -> Store:
    """The production store, migrated: PostgreSQL at `database_url` when given (a pool of `pool_size`
    connections, its own default when None), else SQLite at `path`."""
    if database_url:
        from minds_bot.store.postgres import DEFAULT_POOL_SIZE, PostgresStore

        return await PostgresStore.open(
            database_url,
            secrets=secrets,
            clock=clock,
            retention=retention,
            claim_lease=claim_lease,
            pool_size=pool_size or DEFAULT_POOL_SIZE,
        )
    return await SqliteStore.open(path, secrets=secrets, clock=clock, retention=retention, claim_lease=claim_lease)


__all__ = [
    "AskStore",
    "ChatStore",
    "DeliveryStore",
    "DigestStore",
    "ExportStore",
    "InstallStore",
    "KeyedRequestStore",
    "PlanStore",
    "RunNoticeStore",
    "RunStore",
    "SpendStore",
    "StoreLifecycle",
    "WorkspaceStore",
    "Approval",
    "ApprovalState",
    "BotRecord",
    "ChannelPolicy",
    "ChatThread",
    "Clock",
    "DEFAULT_CLAIM_LEASE",
    "Digest",
    "DirectAsk",
    "ExportJob",
    "KeyedRequest",
    "ExportState",
    "InstallationRecord",
    "MemoryStore",
    "PlanMemory",
    "PlanPost",
    "PostgresStore",
    "PlanState",
    "PolicyMode",
    "Spend",
    "SpendOutcome",
    "PreviewReceipt",
    "ShownQuestion",
    "ConfirmationAnswer",
    "PruneCounts",
    "RecordNotFoundError",
    "RetentionPolicy",
    "RunKind",
    "RunResult",
    "ScheduleKind",
    "SchemaTooNewError",
    "SecretBox",
    "SecretDecryptError",
    "SecretKeyError",
    "SqliteStore",
    "Store",
    "StoreError",
    "StoreInstallationStore",
    "StoreOAuthStateStore",
    "StoreUnavailableError",
    "TrackedRun",
    "WorkspaceSettings",
    "new_holder_id",
    "open_store",
    "redact_url",
    "schema_version_of",
    "sqlite_schema_version",
    "utc_now",
]
