"""Small PNG charts of answer distributions, for results posted in threads.

Owns: turning per-audience answer counts into a horizontal grouped bar chart (shares in percent, so audiences of
different sizes compare fairly). Pure CPU work with no I/O; callers run it with ``flows.drawing.draw``.
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
CHAR_INCHES = 0.075  # about one character of a tick label at 10 pt
LABEL_PAD_INCHES = 0.25
RIGHT_INCHES = 0.25
TITLE_INCHES = 0.4
AXIS_LABEL_INCHES = 0.55  # tick labels and "share of answers (%)" under the axis
LEGEND_ROW_INCHES = 0.25
LEGEND_PAD_INCHES = 0.1
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
    height = (
        1.2
        + LEGEND_ROW_INCHES * legend_rows
        + ROW_HEIGHT_INCHES * max(1, len(options)) * max(1, min(len(audiences), 3)) / 1.5
    )
    figure = Figure(figsize=(CHART_WIDTH_INCHES, height), dpi=DPI)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    bar = 0.8 / max(1, len(audiences))
    positions = list(range(len(options)))
    for index, audience in enumerate(audiences):
        offsets = [p + (index - (len(audiences) - 1) / 2) * bar for p in positions]
        shares = _shares(series[audience], options)
        axes.barh(offsets, shares, height=bar, color=PALETTE[index % len(PALETTE)], label=audience)
    labels = [textwrap.shorten(o, LABEL_WIDTH, placeholder="…") for o in options]
    axes.set_yticks(positions, labels)
    axes.invert_yaxis()
    axes.set_xlim(0, 100)
    axes.set_xlabel("share of answers (%)")
    axes.set_title(textwrap.shorten(title, 70, placeholder="…"), fontsize=10, loc="left")
    axes.spines[["top", "right"]].set_visible(False)
    if len(audiences) > 1:
        figure.legend(fontsize=8, frameon=False, loc="lower center", ncols=2)  # in the bottom margin
    # Margins worked out from what is drawn, not measured by tight_layout (a quarter of a chart's CPU time).
    left = LABEL_PAD_INCHES + CHAR_INCHES * max((len(label) for label in labels), default=1)
    bottom = AXIS_LABEL_INCHES + LEGEND_ROW_INCHES * legend_rows + (LEGEND_PAD_INCHES if legend_rows else 0)
    figure.subplots_adjust(
        left=left / CHART_WIDTH_INCHES,
        right=1 - RIGHT_INCHES / CHART_WIDTH_INCHES,
        top=1 - TITLE_INCHES / height,
        bottom=bottom / height,
    )
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=DPI, metadata={"Software": None})
    return buffer.getvalue()
