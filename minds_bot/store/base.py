"""The one store interface (`Store`), composed of one small protocol per section of state, and its policy objects.

Owns the contract every implementation honours: `PostgresStore` (several replicas on one database),
`SqliteStore` (the embedded default) and `MemoryStore` (fast tests). The contract suite in tests/store/ runs
against all three. Each section's protocol lives with what it owns, next to its SQL and in-memory halves:

    StoreLifecycle     here           schema version, close, ping, secret rotation, pruning
    InstallStore       installs.py    Slack installations, bots, OAuth states
    WorkspaceStore     workspaces.py  a team's settings and Minds key, a channel's approvers
    PlanStore          plans.py       plan messages and the approvals that start their runs
    RunStore           runs.py        tracked runs: due polls (leased) and the once-only terminal post
    AskStore           asks.py        direct asks, kept from before their POST until answered
    KeyedRequestStore  keys.py        requests a person asked for, by key (Try again reuses it)
    DeliveryStore      keys.py        Slack deliveries seen (a retry is handled once)
    ExportStore        exports.py     exports being built and delivered
    DigestStore        digests.py     digests and the once-only claim of each window
    ChatStore          chats.py       /minds chat threads
    SpendStore         spends.py      spend with consent: channel policies and the spend ledger
    RunNoticeStore     notices.py     DMs when a run ends, and how each run ended

A caller that needs one section may ask for its protocol rather than the whole `Store`. Must not import Slack or
Minds clients.

Conventions: keys are keyword-only; `created_at` / `updated_at` are stamped from the store's injected clock;
every "claim" is atomic across coroutines and across processes sharing the database: exactly one caller wins.
Reads of a record whose secret cannot be decrypted raise `SecretDecryptError`. Shared work is claimed with
leases, not luck (leases.py).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from minds_bot.store.asks import AskStore
from minds_bot.store.chats import ChatStore
from minds_bot.store.digests import DigestStore
from minds_bot.store.exports import ExportStore
from minds_bot.store.installs import InstallStore
from minds_bot.store.keys import DeliveryStore, KeyedRequestStore
from minds_bot.store.leases import DEFAULT_CLAIM_LEASE, RESUME_BATCH, TERMINAL_CLAIM_LEASES, new_holder_id
from minds_bot.store.notices import RunNoticeStore
from minds_bot.store.plans import PlanStore
from minds_bot.store.runs import RunStore
from minds_bot.store.spends import SpendStore
from minds_bot.store.workspaces import WorkspaceStore

__all__ = [
    "DEFAULT_CLAIM_LEASE",
    "RESUME_BATCH",
    "TERMINAL_CLAIM_LEASES",
    "PruneCounts",
    "RetentionPolicy",
    "Store",
    "StoreLifecycle",
    "new_holder_id",
]


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


class StoreLifecycle(Protocol):
    """Opening is each engine's own (``open_store``); the rest of a store's life is the same everywhere."""

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


class Store(
    StoreLifecycle,
    InstallStore,
    WorkspaceStore,
    PlanStore,
    RunStore,
    AskStore,
    KeyedRequestStore,
    DeliveryStore,
    ExportStore,
    DigestStore,
    ChatStore,
    SpendStore,
    RunNoticeStore,
    ABC,
):
    """Durable state of minds-bot: every section's protocol together. See the module docstring for the shared
    conventions."""
