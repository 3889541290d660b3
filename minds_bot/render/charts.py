"""Small PNG charts of answer distributions, for results posted in threads.

Owns: turning per-audience answer counts into a horizontal grouped bar chart (shares in percent, so audiences of
different sizes compare fairly). Pure CPU work with no I/O; callers run it with ``asyncio.to_thread``.
Uses matplotlib's object API (``Figure`` + Agg canvas), never ``pyplot``'s global state, so it is thread-safe.
matplotlib is imported on the first chart, not at import: it costs more than a second and ~40 MB, and a bot that
never draws a chart should not pay for it at start-up.
"""

from __future__ import annotations

import io
import textwrap
from collections.abc import Mapping, Sequence

CHART_WIDTH_INCHES = 7.0
ROW_HEIGHT_INCHES = 0.42
DPI = 110
MAX_OPTIONS = 12  # more options than this are summed into "Other" so labels stay readable
LABEL_WIDTH = 28
PALETTE = ("#2f6690", "#e07a5f", "#81b29a", "#f2cc8f", "#6d597a", "#3d405b")


def _shares(counts: Mapping[str, int], options: Sequence[str]) -> list[float]:
    total = sum(counts.values())
    return [100.0 * counts.get(option, 0) / total if total else 0.0 for option in options]


def _fold_options(options: Sequence[str], series: Mapping[str, Mapping[str, int]]) -> tuple[list[str], dict]:
    if len(options) <= MAX_OPTIONS:
        return list(options), {name: dict(counts) for name, counts in series.items()}
    kept = list(options[: MAX_OPTIONS - 1])
    folded = {}
    for name, counts in series.items():
        row = {option: counts.get(option, 0) for option in kept}
        row["Other"] = sum(v for k, v in counts.items() if k not in kept)
        folded[name] = row
    return [*kept, "Other"], folded


def distribution_chart(*, title: str, options: Sequence[str], series: Mapping[str, Mapping[str, int]]) -> bytes:
    """A PNG: one bar group per option, one bar per audience, x = share of that audience's answers (%)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    options, series = _fold_options(options, series)
    audiences = list(series)
    legend_rows = (len(audiences) + 1) // 2 if len(audiences) > 1 else 0
    height = 1.2 + 0.25 * legend_rows + ROW_HEIGHT_INCHES * max(1, len(options)) * max(1, min(len(audiences), 3)) / 1.5
    figure = Figure(figsize=(CHART_WIDTH_INCHES, height), dpi=DPI)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    bar = 0.8 / max(1, len(audiences))
    positions = list(range(len(options)))
    for index, audience in enumerate(audiences):
        offsets = [p + (index - (len(audiences) - 1) / 2) * bar for p in positions]
        shares = _shares(series[audience], options)
        axes.barh(offsets, shares, height=bar, color=PALETTE[index % len(PALETTE)], label=audience)
    axes.set_yticks(positions, [textwrap.shorten(o, LABEL_WIDTH, placeholder="…") for o in options])
    axes.invert_yaxis()
    axes.set_xlim(0, 100)
    axes.set_xlabel("share of answers (%)")
    axes.set_title(textwrap.shorten(title, 70, placeholder="…"), fontsize=10, loc="left")
    axes.spines[["top", "right"]].set_visible(False)
    if len(audiences) > 1:
        axes.legend(fontsize=8, frameon=False, loc="upper center", bbox_to_anchor=(0.5, -0.22), ncols=2)
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=DPI, metadata={"Software": None})
    return buffer.getvalue()
