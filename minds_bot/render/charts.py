"""Small PNG charts of answer distributions, for results posted in threads.

Owns: turning per-audience answer counts into a horizontal grouped bar chart (shares in percent, so audiences of
different sizes compare fairly; more than ``MAX_OPTIONS`` options are summed into "Other"). Pure CPU work with no
I/O; callers run it with ``flows.drawing.draw``. The drawing itself is ``render.bars``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from minds_bot.i18n import N_, _
from minds_bot.render.bars import Panel, draw_panels

MAX_OPTIONS = 12  # more options than this are summed into "Other" so labels stay readable
UNIT = N_("share of answers (%)")
OTHER = N_("Other")


def _shares(counts: Mapping[str, int], options: Sequence[str]) -> list[float]:
    total = sum(counts.values())
    return [100.0 * counts.get(option, 0) / total if total else 0.0 for option in options]


def _fold_options(options: Sequence[str], series: Mapping[str, Mapping[str, int]]) -> tuple[list[str], dict]:
    if len(options) <= MAX_OPTIONS:
        return list(options), {name: dict(counts) for name, counts in series.items()}
    kept = list(options[: MAX_OPTIONS - 1])
    other = _(OTHER)
    folded = {}
    for name, counts in series.items():
        row = {option: counts.get(option, 0) for option in kept}
        row[other] = sum(v for k, v in counts.items() if k not in kept)
        folded[name] = row
    return [*kept, other], folded


def distribution_chart(
    *,
    title: str,
    options: Sequence[str],
    series: Mapping[str, Mapping[str, int]],
) -> bytes:
    """A PNG: one bar group per option, one bar per audience, x = share of that audience's answers (%), its
    words in the language spoken (``flows/drawing.draw`` carries the caller's)."""
    options, series = _fold_options(options, series)
    values = {audience: _shares(counts, options) for audience, counts in series.items()}
    return draw_panels([Panel(title=title, options=options, values=values, unit=_(UNIT), top=100.0)])
