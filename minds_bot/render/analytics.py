"""A Study's analytics (``GET /studies/{id}/analytics``) as one compact message and one chart image.

Owns: the words for each question's figures exactly as Minds sent them — a figure Minds did not send is left
out, never shown as zero or estimated — and the chart of the answer distributions Minds reported. Text from
Minds is escaped. The chart is drawn by ``render.bars`` (Pillow, imported on first use).
Pure: no I/O (callers run ``analytics_chart`` with ``flows.drawing.draw``).
Must not touch: Minds calls, the store, Slack calls.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from slack_sdk.models.blocks import Block, HeaderBlock

from minds_bot.minds import QuestionAnalytics, StudyAnalytics
from minds_bot.minds.models import AnalyticsShare
from minds_bot.render import MAX_BLOCKS_PER_MESSAGE, MAX_NAME_SHOWN, MAX_WORD_SHOWN, Message, escape
from minds_bot.render.bars import Panel, draw_panels
from minds_bot.render.common import context, section, shorten

MAX_TITLE = 150
MAX_THEMES = 3
MAX_OPTIONS_LISTED = 8
MAX_CHARTED = 6
CHARTED = frozenset({"categorical", "multiselect"})
QUESTION_BLOCKS = MAX_BLOCKS_PER_MESSAGE - 4


def _number(value: float) -> str:
    return f"{value:g}" if float(value).is_integer() else f"{value:.2f}".rstrip("0")


def _figures(q: QuestionAnalytics) -> list[str]:
    """Every figure Minds sent for this question, in a fixed order; nothing else."""
    named = (
        ("mean", q.mean),
        ("median", q.median),
        ("min", q.min),
        ("max", q.max),
        ("std dev", q.std_dev),
        ("consensus", q.consensus),
        ("divergence", q.divergence),
        ("diversity index", q.diversity_index),
    )
    parts = [f"{label} {_number(value)}" for label, value in named if value is not None]
    if q.scale_range and len(q.scale_range) == 2:
        parts.append(f"scale {_number(q.scale_range[0])}–{_number(q.scale_range[1])}")
    if q.dominant:
        parts.insert(0, f"most chosen {escape(q.dominant, limit=MAX_NAME_SHOWN)}")
    elif q.distribution:
        parts.insert(0, _top_share(q.distribution))
    if q.themes:
        themes = [
            f"{escape(t.theme, limit=MAX_NAME_SHOWN)}" + (f" ({t.count})" if t.count is not None else "")
            for t in q.themes
        ]
        parts.append("themes: " + ", ".join(themes[:MAX_THEMES]) + (" …" if len(themes) > MAX_THEMES else ""))
    return parts


def _top_share(distribution: Sequence[AnalyticsShare]) -> str:
    shares = [s for s in distribution if s.pct is not None]
    if shares:
        top = max(shares, key=lambda s: s.pct or 0.0)
        return f"most chosen {escape(top.option, limit=MAX_NAME_SHOWN)} ({_number(top.pct or 0.0)}%)"
    counted = [s for s in distribution if s.count is not None]
    if counted:
        top = max(counted, key=lambda s: s.count or 0)
        return f"most chosen {escape(top.option, limit=MAX_NAME_SHOWN)} ({top.count} answers)"
    shown = [escape(s.option, limit=MAX_NAME_SHOWN) for s in distribution[:MAX_OPTIONS_LISTED]]
    more = len(distribution) - len(shown)
    return "options: " + ", ".join(shown) + (f" and {more} more" if more > 0 else "")


def _question_line(index: int, q: QuestionAnalytics) -> str:
    count = f", n={q.response_count}" if q.response_count is not None else ""
    head = f"*Q{index}. {escape(shorten(q.title, MAX_TITLE))}* ({escape(q.type, limit=MAX_WORD_SHOWN)}{count})"
    figures = _figures(q)
    return head + ("\n" + " · ".join(figures) if figures else "\nMinds sent no figures for this question.")


def _totals(analytics: StudyAnalytics) -> str:
    parts = []
    if analytics.question_count is not None:
        parts.append(f"{analytics.question_count} questions analysed")
    if analytics.response_count is not None:
        parts.append(f"{analytics.response_count} responses")
    return " · ".join(parts)


def render_analytics(analytics: StudyAnalytics, *, study_name: str, charted: bool) -> Message:
    """The compact message; ``charted`` says the chart follows in the thread."""
    blocks: list[Block] = [HeaderBlock(text=shorten(f"Analytics — {study_name}", 150))]
    totals = _totals(analytics)
    if totals:
        blocks.append(context(totals))
    if not analytics.questions:
        blocks.append(section("Minds has no answered questions to analyse in this Study yet."))
    lines = [_question_line(i, q) for i, q in enumerate(analytics.questions, 1)]
    blocks += [section(line) for line in lines[:QUESTION_BLOCKS]]
    if len(lines) > QUESTION_BLOCKS:
        blocks.append(context(f"{len(lines) - QUESTION_BLOCKS} more questions are in the Study in Minds."))
    note = "Figures exactly as Minds computed them; a figure Minds did not send is not shown."
    blocks.append(context(note + (" The chart is in the thread." if charted else "")))
    return Message(text=f"Analytics for {escape(study_name, limit=MAX_NAME_SHOWN)}", blocks=blocks)


# --- chart --------------------------------------------------------------------------------------------------


SHARE_UNIT = "share (%)"


@dataclass(frozen=True)
class ChartPanel:
    """One question's bars: share (%) per option when Minds sent shares, otherwise answer counts."""

    title: str
    options: list[str]
    values: list[float]
    unit: str  # "share of answers (%)" or "answers"


def chart_panels(analytics: StudyAnalytics) -> list[ChartPanel]:
    """The questions whose distribution Minds sent in full (every option with the same kind of figure)."""
    panels = []
    for index, q in enumerate(analytics.questions, 1):
        if q.type not in CHARTED or not q.distribution:
            continue
        title = f"Q{index}. {q.title}"
        options = [s.option for s in q.distribution]
        if all(s.pct is not None for s in q.distribution):
            panels.append(ChartPanel(title, options, [float(s.pct or 0) for s in q.distribution], SHARE_UNIT))
        elif all(s.count is not None for s in q.distribution):
            panels.append(ChartPanel(title, options, [float(s.count or 0) for s in q.distribution], "answers"))
    return panels[:MAX_CHARTED]


def analytics_chart(panels: Sequence[ChartPanel]) -> bytes:
    """A PNG with one horizontal bar panel per question (``render.bars``)."""
    drawn = [
        Panel(p.title, p.options, {"": p.values}, p.unit, top=100.0 if p.unit == SHARE_UNIT else None) for p in panels
    ]
    return draw_panels(drawn)
