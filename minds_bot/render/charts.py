"""Small PNG charts of answer distributions, for results posted in threads.

Owns: turning a ``render.results.QuestionResult`` into a horizontal grouped bar chart with the very shares the
thread text shows (``result_chart``: % of respondents, its base on the axis, each bar's value written after it,
each Audience named with its n — and its NPS for an NPS question — in the legend, a scale's end points labelled
with Minds' anchors when it gives them), every number and bracket written as the thread text writes it in the
reader's language ("75 %" in German, "（…）" in Chinese). Pure CPU work with no I/O; callers run it with
``flows.drawing.draw``. The drawing itself is ``render.bars``; ``chart_not_drawn`` is what is said instead when
no font here has the labels' letters (never a chart of boxes).
"""

from __future__ import annotations

from minds_bot.i18n import MINUS, N_, _, annotate, format_number
from minds_bot.render import results
from minds_bot.render.bars import Panel, draw_panels


def _legend(result: results.QuestionResult, audience: results.AudienceResult) -> str:
    if audience.nps is not None:
        # i18n: A chart legend entry: an Audience's name, its respondents and its Net Promoter Score.
        nps = results.nps_text(audience.nps.score).replace(MINUS, "-")  # the chart fonts have no true minus sign
        return _("{name} (n={n}, {nps})", name=audience.name, n=format_number(audience.n), nps=nps)
    # i18n: A chart legend entry: an Audience's name and its respondents.
    return _("{name} (n={n})", name=audience.name, n=format_number(audience.n))


def _option_labels(result: results.QuestionResult) -> list[str]:
    labels = list(result.options)
    if result.anchors and labels:
        labels[0] = annotate(labels[0], result.anchors[0])
        labels[-1] = annotate(labels[-1], result.anchors[1])
    return labels


CHART_NOT_DRAWN = N_(
    ":warning: The chart could not be drawn: this server has no font for these letters (a CJK font such as Noto "
    "Sans CJK). The figures are in the text."
)


def chart_not_drawn() -> str:
    """Said where a chart would be when no font here can draw its labels (``flows.drawing.draw`` returned None)."""
    return _(CHART_NOT_DRAWN)


def result_chart(*, result: results.QuestionResult, title: str) -> bytes:
    """A PNG of ``result_panel``."""
    return draw_panels([result_panel(result, title=title)])


def result_panel(result: results.QuestionResult, *, title: str) -> Panel:
    """``result`` as a chart panel: one bar group per option in the result's order, one bar per Audience named
    with its n, x = the share of that Audience's respondents (%) exactly as the thread text gives it, written
    after each bar; the axis says the base."""
    values = {_legend(result, a): list(a.shares) for a in result.audiences if a.n}
    labels = {_legend(result, a): [results.pct_text(v) for v in a.shares] for a in result.audiences if a.n}
    return Panel(
        title=title,
        options=_option_labels(result),
        values=values,
        unit=results.chart_base(result),
        top=100.0,
        value_labels=labels,
    )
