"""`MemoryStore`: the pure-Python twin of the SQL stores, for fast tests and the manifest generator.

Why it is kept beside SQLite and PostgreSQL: several hundred listener and flow tests each build a fresh store;
a dictionary costs nothing to make, needs no file or server and leaves nothing behind, and the contract suite
(tests/store/) holds it to exactly the behaviour of the SQL engines, so a test passing on it means the same as
on them. Everything about several processes (leases taken over, claims across replicas) is proven on the SQL
engines; here "another replica" is another holder name on the same object.

Owns nothing durable. Keeps the same encoded rows as SQL (codec.py: secrets sealed, times as UTC text), so
ordering, secrecy and decrypt failures behave identically. Atomicity comes from asyncio: no method awaits
between reading and writing a row, so every claim is a single uninterrupted step on the event loop.
Also owns composing the sections' in-memory halves (``MemoryInstalls`` … ``MemoryRunNotices``, each in the module
of the state it owns: base.py lists them) into one store, making their tables, and the lifecycle. Must not be
used across threads or processes.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any, TypeVar

from minds_bot.store.asks import MemoryAsks
from minds_bot.store.base import PruneCounts, RetentionPolicy, Store
from minds_bot.store.chats import MemoryChats
from minds_bot.store.codec import Row, encode_time, secret_fields
from minds_bot.store.digests import MemoryDigests
from minds_bot.store.errors import StoreUnavailableError
from minds_bot.store.exports import MemoryExports
from minds_bot.store.installs import MemoryInstalls
from minds_bot.store.keys import MemoryDeliveries, MemoryKeyedRequests
from minds_bot.store.leases import DEFAULT_CLAIM_LEASE, TERMINAL_CLAIM_LEASES
from minds_bot.store.migrations import MIGRATIONS
from minds_bot.store.notices import MemoryRunNotices
from minds_bot.store.plans import MemoryPlans
from minds_bot.store.records import (
    FINISHED_EXPORT_STATES,
    BotRecord,
    Clock,
    InstallationRecord,
    WorkspaceSettings,
    utc_now,
)
from minds_bot.store.runs import MemoryRuns
from minds_bot.store.secrets import SecretBox
from minds_bot.store.spends import MemorySpends
from minds_bot.store.workspaces import MemoryWorkspaces

K = TypeVar("K")


class MemoryStore(
    MemoryInstalls,
    MemoryWorkspaces,
    MemoryPlans,
    MemoryRuns,
    MemoryAsks,
    MemoryKeyedRequests,
    MemoryDeliveries,
    MemoryExports,
    MemoryDigests,
    MemoryChats,
    MemorySpends,
    MemoryRunNotices,
    Store,
):
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
        self._run_dm_opt_outs: set[tuple[str, str]] = set()
        self._run_watchers: dict[tuple[str, str], list[str]] = {}
        self._run_notices: set[tuple[str, str, str]] = set()
        self._run_results: dict[tuple[str, str], Row] = {}

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


def _drop(table: dict[K, Any], doomed: Callable[[Any], bool]) -> int:
    keys = [key for key, value in table.items() if doomed(value)]
    for key in keys:
        del table[key]
    return len(keys)
