"""Plan messages and approvals: the plan a Slack message shows, its state, and the approval that starts its run.

Owns the store contract for them (``PlanStore``, part of ``Store``) and its two implementations: ``SqlPlans``
(tables ``plan_posts``, ``approvals``) and ``MemoryPlans``. An approval is claimed once per revision (exactly
one approver's press starts the run) and leased to its confirmer (leases.py), so an interrupted confirm is
resumed with the same idempotency key. Must not call Slack or Minds.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Collection
from datetime import datetime
from typing import Any, NotRequired, Protocol, TypedDict, Unpack

from minds_bot.store.codec import Row, encode_time, from_row
from minds_bot.store.errors import RecordNotFoundError
from minds_bot.store.leases import RESUME_BATCH, count_takeovers, lease_clause, lease_free
from minds_bot.store.records import Approval, ApprovalState, PlanPost, PlanState
from minds_bot.store.session import Session, SqlSection
from minds_bot.store.twin import MemorySection, require

_PENDING_APPROVALS = (
    "SELECT * FROM approvals WHERE state = ? AND {lease} ORDER BY approved_at, draft_plan_id, revision LIMIT ?"
)


_LATEST_PLAN_POST = (
    "SELECT * FROM plan_posts WHERE team_id = ? AND draft_plan_id = ? ORDER BY updated_at DESC, {order} DESC LIMIT 1"
)


class ApprovalClaim(TypedDict):
    """What pressing Approve claims (``PlanStore.claim_approval``'s keywords): this revision of a draft, by whom,
    under which idempotency key; ``model_connection`` is the (id, revision) pinned for the run."""

    team_id: str
    draft_plan_id: str
    revision: int
    approver_id: str
    idempotency_key: str
    advanced_opt_in: NotRequired[bool]  # False when not given
    model_connection: NotRequired[tuple[str, int] | None]


def new_approval(claim: ApprovalClaim, *, now: datetime) -> Approval:
    """The approval a claim creates (PENDING, approved and updated ``now``), as both halves store it."""
    connection = claim.get("model_connection")
    return Approval(
        team_id=claim["team_id"],
        draft_plan_id=claim["draft_plan_id"],
        revision=claim["revision"],
        idempotency_key=claim["idempotency_key"],
        approver_id=claim["approver_id"],
        approved_at=now,
        advanced_opt_in=claim.get("advanced_opt_in", False),
        model_connection_id=connection[0] if connection else None,
        model_connection_revision=connection[1] if connection else None,
        updated_at=now,
    )


class PlanStore(Protocol):
    """Plan posts by (team, channel, message_ts) and approvals by (team, draft, revision)."""

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
    async def claim_approval(self, **claim: Unpack[ApprovalClaim]) -> tuple[Approval, bool]:
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


class SqlPlans(SqlSection, PlanStore):
    """The statements for SQLite and PostgreSQL (composed into ``SqlStore``)."""

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

    async def claim_approval(self, **claim: Unpack[ApprovalClaim]) -> tuple[Approval, bool]:
        now = self._clock()
        fresh = new_approval(claim, now=now)
        key = (fresh.team_id, fresh.draft_plan_id, fresh.revision)
        row = {**self._row(fresh), "lease_holder": None, "lease_until": encode_time(now + self._lease)}
        async with self._tx() as q:
            created = await q.insert("approvals", row, conflict="ignore") == 1
            if not created:
                # Only a definitive refusal frees the revision for another approval.
                created = await _reclaim_failed(q, row)
            stored = await _get_approval(q, key)
        assert stored is not None  # inserted or found inside the same transaction
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
        sql = _PENDING_APPROVALS.format(lease=lease_clause(abandoned_only=abandoned_only)) + "{lock}"
        async with self._tx() as q:
            rows = await q.all(
                sql.format(lock=q.skip_locked), (ApprovalState.PENDING.value, encode_time(now), RESUME_BATCH)
            )
            count_takeovers("approval", rows, holder)
            for row in rows:
                await q.run(
                    "UPDATE approvals SET lease_holder = ?, lease_until = ? "
                    "WHERE team_id = ? AND draft_plan_id = ? AND revision = ?",
                    (holder, encode_time(now + self._lease), row["team_id"], row["draft_plan_id"], row["revision"]),
                )
        return [from_row(Approval, row, self._box) for row in rows]


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


class MemoryPlans(MemorySection, PlanStore):
    """The in-memory twin (composed into ``MemoryStore``); each method is one uninterrupted step on the event loop."""

    _plan_posts: dict[tuple[str, str, str], Row]
    _approvals: dict[tuple[str, str, int], Row]

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

    async def claim_approval(self, **claim: Unpack[ApprovalClaim]) -> tuple[Approval, bool]:
        key = (claim["team_id"], claim["draft_plan_id"], claim["revision"])
        existing = self._approvals.get(key)
        if existing is not None and existing["state"] != ApprovalState.FAILED.value:
            return from_row(Approval, existing, self._box), False
        fresh = new_approval(claim, now=self._clock())
        self._approvals[key] = {**self._row(fresh), "lease_holder": None, "lease_until": self._lease_end()}
        return from_row(Approval, self._approvals[key], self._box), True

    async def release_approval(self, *, team_id: str, draft_plan_id: str, revision: int) -> None:
        row = self._approvals.get((team_id, draft_plan_id, revision))
        if row is not None:
            row.update(lease_holder=None, lease_until=None)

    async def get_approval(self, *, team_id: str, draft_plan_id: str, revision: int) -> Approval | None:
        return self._load(Approval, self._approvals.get((team_id, draft_plan_id, revision)))

    async def attach_run(self, *, team_id: str, draft_plan_id: str, revision: int, run_id: str) -> Approval:
        row = require(self._approvals, (team_id, draft_plan_id, revision), what="approval")
        row.update(state=ApprovalState.SUBMITTED.value, run_id=run_id, failure=None, updated_at=self._now())
        return from_row(Approval, row, self._box)

    async def fail_approval(self, *, team_id: str, draft_plan_id: str, revision: int, reason: str) -> Approval:
        row = require(self._approvals, (team_id, draft_plan_id, revision), what="approval")
        row.update(state=ApprovalState.FAILED.value, failure=reason, updated_at=self._now())
        return from_row(Approval, row, self._box)

    async def claim_pending_approvals(self, *, holder: str, abandoned_only: bool = False) -> list[Approval]:
        now = self._now()
        pending = [
            row
            for row in self._approvals.values()
            if row["state"] == ApprovalState.PENDING.value and lease_free(row, now, abandoned_only=abandoned_only)
        ]
        order = lambda row: (row["approved_at"], row["draft_plan_id"], row["revision"])  # noqa: E731
        claimed = sorted(pending, key=order)[:RESUME_BATCH]
        for row in claimed:
            row.update(lease_holder=holder, lease_until=self._lease_end())
        return [from_row(Approval, row, self._box) for row in claimed]
