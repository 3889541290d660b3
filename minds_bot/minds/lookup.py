"""Resolving a name a user typed to one Study, Audience or Mind — pure, over a list already fetched.

Owns: exact match (id, or case-insensitive name), a single fuzzy match, ranked candidates, or "not found" with
how many items were scanned and whether that was all of them (``minds_bot.render.common.lookup_explanation`` says
it in words). Must not touch: HTTP, Slack, the store, the words people read.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Generic, Literal, Protocol, TypedDict, TypeVar

FUZZY_THRESHOLD = 0.6
MAX_CANDIDATES = 5


class Named(Protocol):
    @property
    def id(self) -> str: ...

    @property
    def name(self) -> str: ...


N = TypeVar("N", bound=Named)

LookupKind = Literal["exact", "fuzzy", "ambiguous", "not_found"]


@dataclass(frozen=True)
class Candidate(Generic[N]):
    item: N
    score: float


class _Scan(TypedDict):
    """What every ``LookupResult`` of one lookup says about the search itself."""

    query: str
    scanned: int
    exhaustive: bool


@dataclass(frozen=True)
class LookupResult(Generic[N]):
    """``match`` is set for exact/fuzzy; ``candidates`` (best first) for ambiguous."""

    kind: LookupKind
    query: str
    scanned: int
    exhaustive: bool
    match: N | None = None
    candidates: list[Candidate[N]] = field(default_factory=list)


def normalize(text: str) -> str:
    """Casefold, strip accents and punctuation, collapse whitespace."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()
    return " ".join(re.sub(r"[^\w]+", " ", plain).split())


def score(query: str, name: str) -> float:
    """Similarity in [0, 1]: containment counts strongly, otherwise sequence similarity."""
    q, n = normalize(query), normalize(name)
    if not q or not n:
        return 0.0
    if q == n:
        return 1.0
    from difflib import SequenceMatcher  # loaded with the first name matched, not at start-up

    ratio = SequenceMatcher(None, q, n).ratio()
    if q in n or n in q:
        return max(ratio, 0.8 + 0.19 * min(len(q), len(n)) / max(len(q), len(n)))
    return ratio


def resolve(query: str, items: Sequence[N], *, exhaustive: bool) -> LookupResult[N]:
    """Pick the item ``query`` names. ``exhaustive`` is False when the scan stopped before the oldest item."""
    text = query.strip()
    base: _Scan = {"query": text, "scanned": len(items), "exhaustive": exhaustive}
    by_id = [item for item in items if item.id == text]
    if by_id:
        return LookupResult(kind="exact", match=by_id[0], **base)
    same_name = [item for item in items if item.name.strip().casefold() == text.casefold()]
    if len(same_name) == 1:
        return LookupResult(kind="exact", match=same_name[0], **base)
    if same_name:
        return LookupResult(kind="ambiguous", candidates=[Candidate(i, 1.0) for i in same_name], **base)
    return _fuzzy(text, items, base)


def _fuzzy(text: str, items: Sequence[N], base: _Scan) -> LookupResult[N]:
    ranked = sorted(
        (Candidate(item, score(text, item.name)) for item in items),
        key=lambda c: c.score,
        reverse=True,
    )
    good = [c for c in ranked if c.score >= FUZZY_THRESHOLD]
    if len(good) == 1:
        return LookupResult(kind="fuzzy", match=good[0].item, candidates=good, **base)
    if good:
        return LookupResult(kind="ambiguous", candidates=good[:MAX_CANDIDATES], **base)
    return LookupResult(kind="not_found", **base)
