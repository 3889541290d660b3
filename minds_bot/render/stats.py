"""The statistics of a scale result: the mean, the top-2-box share and n.

Owns: ``scale_summary`` over plain answer counts (pure arithmetic). What a result says — base, shares, order,
NPS, the words — is ``render/results.py``, which uses it.
Must not touch: Slack, Minds, I/O.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

TOP_BOX_POINTS = 2  # "top-2-box": the two highest points of the scale


@dataclass(frozen=True)
class ScaleSummary:
    mean: float
    top_box_pct: int | None  # share of answers on the two highest points; None when the range is unknown
    n: int
    low: int | None
    high: int | None


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
