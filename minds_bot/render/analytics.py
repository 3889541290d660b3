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

from minds_bot.i18n import N_, _, _n, annotate, format_number, format_share, join_list, separated
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
    """A figure as Minds sent it, to two decimals at most, in the reader's format: "3.75", "3,75", "12"."""
    return format_number(round(value, 2))


def _figures(q: QuestionAnalytics) -> list[str]:
    """Every figure Minds sent for this question, in a fixed order; nothing else."""
    named = (
        (N_("mean {value}"), q.mean),
        (N_("median {value}"), q.median),
        (N_("min {value}"), q.min),
        (N_("max {value}"), q.max),
        (N_("std dev {value}"), q.std_dev),
        (N_("consensus {value}"), q.consensus),
        (N_("divergence {value}"), q.divergence),
        (N_("diversity index {value}"), q.diversity_index),
    )
    parts = [_(label, value=_number(value)) for label, value in named if value is not None]
    if q.scale_range and len(q.scale_range) == 2:
        parts.append(_("scale {low}–{high}", low=_number(q.scale_range[0]), high=_number(q.scale_range[1])))
    if q.dominant:
        parts.insert(0, _("most chosen {option}", option=escape(q.dominant, limit=MAX_NAME_SHOWN)))
    elif q.distribution:
        parts.insert(0, _top_share(q.distribution))
    if q.themes:
        themes = [
            annotate(escape(t.theme, limit=MAX_NAME_SHOWN), format_number(t.count) if t.count is not None else None)
            for t in q.themes
        ]
        shown = join_list(themes[:MAX_THEMES]) + (" …" if len(themes) > MAX_THEMES else "")
        parts.append(_("themes: {themes}", themes=shown))
    return parts


def _top_share(distribution: Sequence[AnalyticsShare]) -> str:
    shares = [s for s in distribution if s.pct is not None]
    if shares:
        top = max(shares, key=lambda s: s.pct or 0.0)
        option = escape(top.option, limit=MAX_NAME_SHOWN)
        # i18n: {option} is an answer option as Minds wrote it; {share} its percentage, e.g. "42%".
        return _("most chosen {option} ({share})", option=option, share=format_share(top.pct or 0.0, digits=2))
    counted = [s for s in distribution if s.count is not None]
    if counted:
        top = max(counted, key=lambda s: s.count or 0)
        option = escape(top.option, limit=MAX_NAME_SHOWN)
        return _n(
            "most chosen {option} ({count} answer)",
            "most chosen {option} ({count} answers)",
            top.count or 0,
            option=option,
        )
    shown = [escape(s.option, limit=MAX_NAME_SHOWN) for s in distribution[:MAX_OPTIONS_LISTED]]
    more = len(distribution) - len(shown)
    if more > 0:
        return _n(
            "options: {options} and {count} more", "options: {options} and {count} more", more, options=join_list(shown)
        )
    return _("options: {options}", options=join_list(shown))


def _question_line(index: int, q: QuestionAnalytics) -> str:
    title, kind = escape(shorten(q.title, MAX_TITLE)), escape(q.type, limit=MAX_WORD_SHOWN)
    if q.response_count is not None:
        head = _(
            "*Q{number}. {title}* ({type}, n={count})",
            number=index,
            title=title,
            type=kind,
            count=format_number(q.response_count),
        )
    else:
        head = _("*Q{number}. {title}* ({type})", number=index, title=title, type=kind)
    figures = _figures(q)
    return head + ("\n" + separated(figures) if figures else "\n" + _("Minds sent no figures for this question."))


def _totals(analytics: StudyAnalytics) -> str:
    parts = []
    if analytics.question_count is not None:
        parts.append(_n("{count} question analysed", "{count} questions analysed", analytics.question_count))
    if analytics.response_count is not None:
        parts.append(_n("{count} response", "{count} responses", analytics.response_count))
    return separated(parts)


def render_analytics(analytics: StudyAnalytics, *, study_name: str, charted: bool) -> Message:
    """The compact message; ``charted`` says the chart follows in the thread."""
    blocks: list[Block] = [HeaderBlock(text=shorten(_("Analytics — {study}", study=study_name), 150))]
    totals = _totals(analytics)
    if totals:
        blocks.append(context(totals))
    if not analytics.questions:
        blocks.append(section(_("Minds has no answered questions to analyse in this Study yet.")))
    lines = [_question_line(i, q) for i, q in enumerate(analytics.questions, 1)]
    blocks += [section(line) for line in lines[:QUESTION_BLOCKS]]
    if len(lines) > QUESTION_BLOCKS:
        more = len(lines) - QUESTION_BLOCKS
        blocks.append(
            context(
                _n(
                    "{count} more question is in the Study in Minds.",
                    "{count} more questions are in the Study in Minds.",
                    more,
                )
            )
        )
    if charted:
        note = _(
            "Figures exactly as Minds computed them; a figure Minds did not send is not shown. "
            "The chart is in the thread."
        )
    else:
        note = _("Figures exactly as Minds computed them; a figure Minds did not send is not shown.")
    blocks.append(context(note))
    return Message(text=_("Analytics for {study}", study=escape(study_name, limit=MAX_NAME_SHOWN)), blocks=blocks)


# --- chart --------------------------------------------------------------------------------------------------


SHARE_UNIT = N_("share (%)")
COUNT_UNIT = N_("answers")


@dataclass(frozen=True)
class ChartPanel:
    """One question's bars: share (%) per option when Minds sent shares, otherwise answer counts. The words are
    translated here, where the language being spoken is known (the charts thread does not know it)."""

    title: str
    options: list[str]
    values: list[float]
    unit: str  # SHARE_UNIT or COUNT_UNIT, translated
    top: float | None = None  # the axis' end: 100 for shares, else the largest value


def chart_panels(analytics: StudyAnalytics) -> list[ChartPanel]:
    """The questions whose distribution Minds sent in full (every option with the same kind of figure)."""
    panels = []
    for index, q in enumerate(analytics.questions, 1):
        if q.type not in CHARTED or not q.distribution:
            continue
        title = _("Q{number}. {title}", number=index, title=q.title)
        options = [s.option for s in q.distribution]
        if all(s.pct is not None for s in q.distribution):
            shares = [float(s.pct or 0) for s in q.distribution]
            panels.append(ChartPanel(title, options, shares, _(SHARE_UNIT), top=100.0))
        elif all(s.count is not None for s in q.distribution):
            panels.append(ChartPanel(title, options, [float(s.count or 0) for s in q.distribution], _(COUNT_UNIT)))
    return panels[:MAX_CHARTED]


def analytics_chart(panels: Sequence[ChartPanel]) -> bytes:
    """A PNG with one horizontal bar panel per question (``render.bars``)."""
    drawn = [Panel(p.title, p.options, {"": p.values}, p.unit, top=p.top) for p in panels]
    return draw_panels(drawn)
