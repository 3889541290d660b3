"""One place decides what a question's result says: the ``QuestionResult`` that the thread text and the chart are
both drawn from, for guided research runs (``render/runs.py``) and standalone questions (``render/answers.py``).

Owns: the base (respondents — people whose answer is not empty — per Audience), n per Audience, the option order,
each option's share of respondents, the scale statistics (mean, top-2-box, from ``render/stats.py``), the NPS
split, the words that say what a number covers ("% of respondents · several answers allowed · n=12"), and the
per-Audience line the thread shows, and the line a result simulated by the embedded sandbox carries
(``simulated_text``, shown when the model's ``simulated`` says the sandbox produced it).

Option order (the rule):
- A scale is ordinal: every point of Minds' ``scaleRange`` (when it has at most ``MAX_SCALE_POINTS`` points) is
  listed low to high, a point nobody chose at 0%; a numeric answer off those points is placed by its value.
- A categorical or multiselect question with Minds' option list keeps that list's order when the options read as
  ordered: all numbers, or worded as a ladder (``ORDERED_WORDS``: "very", "somewhat", "not at all", "never",
  "always", "strongly", "likely", …). Otherwise the options are nominal and sorted by their share across all
  Audiences, largest first (ties keep Minds' order). Either way every option Minds listed is kept, at 0% when
  nobody chose it; an answer off the list is added after them, never dropped.
- Without an option list the answers' own values are sorted by share, largest first.

Base: a share is of the respondents of that Audience, so for a multiselect question (several answers allowed)
the shares may add up to more than 100%; a categorical question's shares are the same as its shares of answers.

NPS: a 0–10 scale whose question asks how likely one is to "recommend", or any 0–10 scale of a run whose method
is NPS, shows the Net Promoter Score (promoters 9–10 minus detractors 0–6, in percentage points of the
respondents) with each group's share, instead of the mean and top-2-box.
Pure: no I/O. Must not touch: Slack, Minds calls, the store.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from minds_bot.i18n import _, format_number
from minds_bot.render import stats

MAX_SCALE_POINTS = 21  # a scale with more points than this lists only the answers given
NPS_RANGE = (0, 10)
PROMOTER_MIN = 9
DETRACTOR_MAX = 6
# Words of Minds' English option labels that read as a ladder (matched, never shown).
ORDERED_WORDS = re.compile(
    r"\b(very|somewhat|slightly|extremely|strongly|not at all|never|rarely|sometimes|often|always|"  # verbatim
    r"likely|unlikely|agree|disagree|satisfied|dissatisfied|neutral|neither)\b",  # verbatim
    re.IGNORECASE,
)
RECOMMEND = re.compile(r"\brecommend", re.IGNORECASE)
MULTI_SPLIT = re.compile(r"\s*[;\n]\s*")
COMMA_SPLIT = re.compile(r"\s*[,;\n]\s*")


@dataclass(frozen=True)
class Nps:
    """The Net Promoter Score of ``n`` respondents: ``score`` = promoters' share − detractors' share (points)."""

    score: int
    promoters: int
    passives: int
    detractors: int
    n: int

    def pct(self, count: int) -> int:
        return round(100 * count / self.n) if self.n else 0


@dataclass(frozen=True)
class AudienceResult:
    name: str
    n: int  # respondents: people whose answer is not empty (the base of every share)
    counts: dict[str, int]  # option → respondents who chose it
    shares: list[float]  # share of respondents (%) per option, in ``QuestionResult.options`` order
    scale: stats.ScaleSummary | None = None
    nps: Nps | None = None

    def pct(self, option: str, options: Sequence[str]) -> int:
        return round(self.shares[list(options).index(option)])


@dataclass(frozen=True)
class QuestionResult:
    title: str
    kind: str  # "categorical" | "multiselect" | "scale"
    options: list[str]  # display order (see the module docstring)
    ordered: bool
    audiences: list[AudienceResult]
    anchors: tuple[str, str] | None = None  # Minds' labels for a scale's two ends, when it gives them

    @property
    def several(self) -> bool:
        return self.kind == "multiselect"

    @property
    def is_nps(self) -> bool:
        return any(a.nps is not None for a in self.audiences)

    @property
    def respondents(self) -> int:
        return sum(a.n for a in self.audiences)


def _number(value: str) -> float | None:
    try:
        return float(value)
    except ValueError:
        return None


def _point(value: str) -> str:
    number = _number(value)
    return str(int(number)) if number is not None and number.is_integer() else value


def picked(value: str, kind: str, listed: Sequence[str] = ()) -> list[str]:
    """The options one answer names: a multiselect answer ("A; B", or "A, B" when every piece is a listed option)
    names each once; others name one value."""
    value = value.strip()
    if not value:
        return []
    if kind == "multiselect":
        pieces = [v for v in MULTI_SPLIT.split(value) if v]
        commas = [v for v in COMMA_SPLIT.split(value) if v]
        if listed and any(p not in listed for p in pieces) and all(c in listed for c in commas):
            pieces = commas
        return list(dict.fromkeys(pieces))
    return [_point(value) if kind == "scale" else value]


def reads_ordered(options: Sequence[str]) -> bool:
    """Whether Minds' option list reads as a ladder (see the module docstring); unsure → False (sort by share)."""
    if not options:
        return False
    if all(_number(o) is not None for o in options):
        return True
    return any(ORDERED_WORDS.search(o) for o in options)


def _scale_points(scale_range: Sequence[float] | None) -> list[str]:
    if scale_range is None or len(scale_range) != 2:
        return []
    low, high = int(scale_range[0]), int(scale_range[1])
    return [str(v) for v in range(low, high + 1)] if 0 < high - low < MAX_SCALE_POINTS else []


def is_nps_question(title: str, scale_range: Sequence[float] | None, *, method_nps: bool = False) -> bool:
    if scale_range is None or len(scale_range) != 2:
        return False
    if (int(scale_range[0]), int(scale_range[1])) != NPS_RANGE:
        return False
    return method_nps or bool(RECOMMEND.search(title))


def nps_of(counts: dict[str, int]) -> Nps | None:
    numeric = [(number, count) for value, count in counts.items() if (number := _number(value)) is not None]
    n = sum(count for _number_, count in numeric)
    if not n:
        return None
    promoters = sum(c for v, c in numeric if v >= PROMOTER_MIN)
    detractors = sum(c for v, c in numeric if v <= DETRACTOR_MAX)
    score = round(100 * promoters / n) - round(100 * detractors / n)
    return Nps(score=score, promoters=promoters, passives=n - promoters - detractors, detractors=detractors, n=n)


def build(
    *,
    title: str,
    kind: str,
    audiences: Sequence[tuple[str, Sequence[str]]],
    listed: Sequence[str] = (),
    scale_range: Sequence[float] | None = None,
    anchors: tuple[str, str] | None = None,
    method_nps: bool = False,
) -> QuestionResult | None:
    """The result of one question from each Audience's raw answer values; None when nobody answered."""
    counted: list[tuple[str, int, dict[str, int]]] = []
    for name, values in audiences:
        counts: dict[str, int] = {}
        n = 0
        for value in values:
            options = picked(value, kind, listed)
            n += 1 if options else 0
            for option in options:
                counts[option] = counts.get(option, 0) + 1
        counted.append((name, n, counts))
    if not any(n for _name, n, _counts in counted):
        return None
    totals: dict[str, int] = {}
    for *_head, counts in counted:
        for option, count in counts.items():
            totals[option] = totals.get(option, 0) + count
    options, ordered = _order(kind, listed=list(listed), scale_range=scale_range, totals=totals)
    nps = kind == "scale" and is_nps_question(title, scale_range, method_nps=method_nps)
    results = []
    for name, n, counts in counted:
        shares = [100.0 * counts.get(option, 0) / n if n else 0.0 for option in options]
        scale = stats.scale_summary(counts, scale_range=scale_range) if kind == "scale" and n else None
        results.append(
            AudienceResult(
                name=name, n=n, counts=counts, shares=shares, scale=scale, nps=nps_of(counts) if nps and n else None
            )
        )
    return QuestionResult(title=title, kind=kind, options=options, ordered=ordered, audiences=results, anchors=anchors)


def _order(
    kind: str, *, listed: list[str], scale_range: Sequence[float] | None, totals: dict[str, int]
) -> tuple[list[str], bool]:
    if kind == "scale":
        points = _scale_points(scale_range)
        numeric = sorted({*points, *(v for v in totals if _number(v) is not None)}, key=lambda v: _number(v) or 0.0)
        return [*numeric, *(v for v in totals if _number(v) is None)], True
    off_list = [v for v in totals if v not in listed]
    if listed and reads_ordered(listed):
        return [*listed, *sorted(off_list, key=lambda v: -totals[v])], True
    order = [*listed, *off_list]
    return sorted(order, key=lambda v: -totals.get(v, 0)), False


# --- words -----------------------------------------------------------------------------------------------


def nps_text(score: int) -> str:
    """ "NPS +12", "NPS −42", "NPS 0" (a true minus sign)."""
    sign = "+" if score > 0 else "−" if score < 0 else ""
    # i18n: {score} is the Net Promoter Score with its sign, e.g. "−42" or "+12".
    return _("NPS {score}", score=f"{sign}{format_number(abs(score))}")


def base_text(result: QuestionResult, audience: AudienceResult) -> str:
    """What an Audience's numbers cover: "% of respondents · several answers allowed · n=12", or "n=12"."""
    n = format_number(audience.n)
    if result.kind == "scale":
        return _("n={n}", n=n)
    if result.several:
        return _("% of respondents · several answers allowed · n={n}", n=n)
    return _("% of respondents · n={n}", n=n)


def chart_base(result: QuestionResult) -> str:
    """The chart's axis label: the base of its percentages."""
    if result.several:
        return _("% of respondents (several answers allowed)")
    return _("% of respondents")


def simulated_text() -> str:
    """What a result simulated by the embedded sandbox says once, under its heading (never a result from Minds)."""
    return _("Simulated locally by the minds-bot sandbox — not answers from Minds.")


def pct_text(value: float) -> str:
    return f"{format_number(round(value))}%"


def summary(result: QuestionResult, audience: AudienceResult) -> str:
    """One Audience's numbers, plain text for the caller to escape (option labels are Minds' words)."""
    if audience.n == 0:
        return _("no answers")
    if audience.nps is not None:
        nps = audience.nps
        return _(
            "{nps} · promoters (9–10) {promoters} · passives (7–8) {passives} · detractors (0–6) {detractors}",
            nps=nps_text(nps.score),
            promoters=pct_text(nps.pct(nps.promoters)),
            passives=pct_text(nps.pct(nps.passives)),
            detractors=pct_text(nps.pct(nps.detractors)),
        )
    if result.kind == "scale":
        summary_ = audience.scale
        if summary_ is None:
            return _("no numeric answers")
        scale = f" on {summary_.low}–{summary_.high}" if summary_.low is not None else ""
        top = f" · top-2-box {summary_.top_box_pct}%" if summary_.top_box_pct is not None else ""
        return f"mean {summary_.mean:.1f}{scale}{top}"
    return " · ".join(
        f"{option} {pct_text(share)}" for option, share in zip(result.options, audience.shares, strict=True)
    )
