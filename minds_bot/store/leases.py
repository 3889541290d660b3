"""Leases, not luck: the rules every claim of shared work follows, for both halves of each section.

Work that any replica could do (polling a due run, resuming an interrupted approval or question) is *claimed*
with a lease of the store's `claim_lease`: the claimer's name (`holder`) and an expiry. Nobody else takes it
while the lease is live; the holder renews it while it works; when the holder dies the lease runs out and the
next claim by another replica takes the work over. A replica's death costs a delay of at most one lease, never
the work.

Owns the lease constants, a holder's name, the SQL conditions for a free or abandoned lease, the same test for
the in-memory twin's rows, and counting takeovers (``minds_bot.metrics``). Must not call Slack or Minds.
"""

from __future__ import annotations

import os
import secrets
import socket
from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from minds_bot import metrics
from minds_bot.store.codec import Row

DEFAULT_CLAIM_LEASE = timedelta(minutes=10)
# A terminal-post claim lasts this many leases: posting to Slack is the one step that cannot be undone, so a
# replica that is slow (not dead) keeps its claim through a few missed renewals before anyone posts instead.
TERMINAL_CLAIM_LEASES = 5
RESUME_BATCH = 100  # pending approvals / questions claimed per call

# A lease that ran out is free; so is none at all (released: the work ended and waits for a person), except for
# a pass that only takes over work whose holder died.
FREE_LEASE = "(lease_until IS NULL OR lease_until < ?)"
ABANDONED_LEASE = "(lease_until IS NOT NULL AND lease_until < ?)"


def new_holder_id() -> str:
    """A lease holder's name: unique per process, readable in the database (host, pid, random suffix)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


def lease_clause(*, abandoned_only: bool) -> str:
    """The SQL condition on a row's lease for a claim (`FREE_LEASE`, or `ABANDONED_LEASE` for a takeover pass)."""
    return ABANDONED_LEASE if abandoned_only else FREE_LEASE


def lease_free(row: Row, now: str, *, abandoned_only: bool = False) -> bool:
    """The in-memory twin's `lease_clause`: nobody holds a live lease on this row (times are encoded, so text
    order is time order); with `abandoned_only`, a lease was taken and ran out (its holder died), as opposed to
    released."""
    until: str | None = row.get("lease_until")
    if until is None:
        return not abandoned_only
    return until < now


def count_takeovers(work: str, rows: Iterable[Any], holder: str) -> None:
    """Claimed rows whose lease another replica held and let run out (it died or stalled) were taken over."""
    taken = sum(1 for row in rows if row["lease_holder"] not in (None, holder))
    if taken:
        metrics.lease_takeovers.inc(work, amount=taken)
