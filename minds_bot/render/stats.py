"""What a researcher reads first in a result: for a scale the mean, the top-2-box share and n; for a choice the
shares of those who answered, largest first, with n.

Owns: ``scale_summary``, ``choice_shares`` and ``summary_line`` over plain answer counts. Pure arithmetic on
counts; the line is plain text for the caller to escape, so option labels written by Minds stay inert.
Must not touch: Slack, Minds, I/O.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

TOP_BOX_POINTS = 2  # "top-2-box": the two highest points of the scale
MULTI_SPLIT = re.compile(r"\s*;\s*")


@dataclass(frozen=True)
class ScaleSummary:
    mean: float
    top_box_pct: int | None  # share of answers on the two highest points; None when the range is unknown
    n: int
    low: int | None
    high: int | None


@dataclass(frozen=True)
class Share:
    option: str
    count: int
    pct: int


def _number(value: str) -> float | None:
    try:
        return float(value)
    except ValueError:
        return None


def scale_summary(counts: Mapping[str, int], *, scale_range: Sequence[float] | None) -> ScaleSummary | None:
    """Mean and top-2-box of numeric answers; None when no answer is a number."""
    numeric = {number: count for value, count in counts.items() if (number := _number(value)) is not None and count}
    n = sum(numeric.values())
    if n == 0:
        return None
    mean = sum(number * count for number, count in numeric.items()) / n
    low = high = None
    top = None
    if scale_range is not None and len(scale_range) == 2 and scale_range[0] < scale_range[1]:
        low, high = int(scale_range[0]), int(scale_range[1])
        on_top = sum(count for number, count in numeric.items() if number > high - TOP_BOX_POINTS)
        top = round(100 * on_top / n)
    return ScaleSummary(mean=mean, top_box_pct=top, n=n, low=low, high=high)


def choice_shares(counts: Mapping[str, int], *, n: int) -> list[Share]:
    """Each chosen option's share of the ``n`` who answered, largest first (ties keep the given order).

    For a multiselect question the shares are of people, so they may add up to more than 100%."""
    if n <= 0:
        return []
    chosen = [(option, count) for option, count in counts.items() if count > 0]
    chosen.sort(key=lambda item: -item[1])
    return [Share(option=option, count=count, pct=round(100 * count / n)) for option, count in chosen]


def summary_line(
    *, kind: str, counts: Mapping[str, int], n: int, scale_range: Sequence[float] | None = None
) -> str | None:
    """ "mean 3.4 on 1–5 · top-2-box 40%" or "Yes 70% · No 30%" (the caller shows n beside it); None when there
    is nothing to say."""
    if kind == "scale":
        summary = scale_summary(counts, scale_range=scale_range)
        if summary is None:
            return None
        scale = f" on {summary.low}–{summary.high}" if summary.low is not None else ""
        top = f" · top-2-box {summary.top_box_pct}%" if summary.top_box_pct is not None else ""
        return f"mean {summary.mean:.1f}{scale}{top}"
    shares = choice_shares(counts, n=n)
    if not shares:
        return None
    return " · ".join(f"{s.option} {s.pct}%" for s in shares)


def counted(values: Sequence[str], *, kind: str) -> dict[str, int]:
    """Answers counted per option; a multiselect answer ("A; B") counts once for each option it names."""
    counts: dict[str, int] = {}
    for value in values:
        picked = [v.strip() for v in MULTI_SPLIT.split(value)] if kind == "multiselect" else [value.strip()]
        for option in filter(None, picked):
            counts[option] = counts.get(option, 0) + 1
    return counts
