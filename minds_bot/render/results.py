"""One place decides what a question's result says: the ``QuestionResult`` that the thread text and the chart are
both drawn from, for guided research runs (``render/runs.py``) and standalone questions (``render/answers.py``).

Owns: the base (respondents — people whose answer is not empty — per Audience), n per Audience, the option order,
each option's share of respondents, the scale statistics (mean, top-2-box, from ``render/stats.py``), the NPS
split, the words that say what a number covers ("% of respondents · several answers allowed · n=12"), and the
per-Audience line the thread shows ("Gen Z (% of respondents · n=12): Yes 92% · No 8%", "mean 3.9 on 1–5 ·
top-2-box 75%"): every word from the catalogs, every number from the Babel helpers of ``minds_bot.i18n`` in the
reader's language (German "Mittelwert 3,9 auf 1–5 · Top-2-Box 75 %"), an NPS with a true minus; option labels
and Audience names stay as Minds wrote them; and the line a result simulated by the embedded sandbox carries
(``simulated_text``, shown when the model's ``simulated`` says the sandbox produced it).

What a result is comes from Minds' data only, never from words of a question or an option (the same answers
give the same kind of result in every language):
- A scale is ordinal: every point of Minds' ``scaleRange`` (when it has at most ``MAX_SCALE_POINTS`` points) is
  listed low to high, a point nobody chose at 0%; a numeric answer off those points is placed by its value.
  Its anchors are Minds' ``scaleLabels``.
- A categorical or multiselect question with Minds' option list (``classification.options``, the plan's
  ``categoricalOptions``, or Minds' category codebook) keeps that list's order in text, chart, compare and CSV:
  every option Minds listed is kept, at 0% when nobody chose it; an answer off the list is added after them by
  share, never dropped.
- Without an option list the answers' own values are sorted by share, largest first, and the result says so
  once (``order_text``): that order is the bot's, not Minds'.
- NPS: a 0–10 scale shows the Net Promoter Score (promoters 9–10 minus detractors 0–6, in percentage points of
  the respondents) with each group's share, instead of the mean and top-2-box, only when Minds marks the method
  NPS (``method_nps=True``: the run's ``calculations`` hold an NPS entry). When Minds' data says nothing about a
  method (``method_nps=None``: a standalone question), a 0–10 scale is shown as a scale (mean, top-2-box) and
  says once that Minds named no NPS method (``assumed_text``) — never an NPS Minds did not mark.
- Positions (``position``): an option's 1-based place in Minds' option list, or a scale point's place on Minds'
  scale; what the answers CSV writes beside each answer, with the numeric scale value (``scale_value``).

Base: a share is of the respondents of that Audience, so for a multiselect question (several answers allowed)
the shares may add up to more than 100%; a categorical question's shares are the same as its shares of answers.

Pure: no I/O. Must not touch: Slack, Minds calls, the store.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from minds_bot.i18n import _, format_decimal, format_number, format_share, format_signed, separated
from minds_bot.render import escape, stats

MAX_SCALE_POINTS = 21  # a scale with more points than this lists only the answers given
NPS_RANGE = (0, 10)
PROMOTER_MIN = 9
DETRACTOR_MAX = 6
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
    ordered: bool  # the order is Minds' (its option list or scale points); False: by share (no list from Minds)
    audiences: list[AudienceResult]
    anchors: tuple[str, str] | None = None  # Minds' labels for a scale's two ends, when it gives them
    listed: tuple[str, ...] = ()  # Minds' option list, or a scale's points low to high: what ``position`` counts
    nps_unmarked: bool = False  # a 0–10 scale of which Minds' data names no method (shown as a scale, said once)

    def position(self, option: str) -> int | None:
        """The option's 1-based place in Minds' option list (a scale point's place on Minds' scale); None when
        Minds did not list it."""
        return self.listed.index(option) + 1 if option in self.listed else None

    def scale_value(self, option: str) -> float | None:
        """A scale answer's numeric value; None for other questions and non-numeric answers."""
        return _number(option) if self.kind == "scale" else None

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


def csv_cells(result: QuestionResult | None, value: str) -> tuple[str, str]:
    """One answer's scale value and option position(s) for the answers CSV, from the same model the text and
    chart use: ("7", "8") for 7 on a 0–10 scale, ("", "2; 4") for a multiselect answer naming Minds' 2nd and 4th
    options; "" where there is none (an answer off Minds' list has no position). Numbers are written for machines
    (a point, no grouping), whatever the language."""
    if result is None:
        return "", ""
    options = picked(value, result.kind, result.listed)
    numbers = [number for option in options if (number := result.scale_value(option)) is not None]
    positions = [str(place) for option in options if (place := result.position(option)) is not None]
    scale = "; ".join(str(int(v)) if v.is_integer() else repr(v) for v in numbers)  # a CSV cell, verbatim
    return scale, "; ".join(positions)  # a CSV cell for machines, verbatim


def _scale_points(scale_range: Sequence[float] | None) -> list[str]:
    if scale_range is None or len(scale_range) != 2:
        return []
    low, high = int(scale_range[0]), int(scale_range[1])
    return [str(v) for v in range(low, high + 1)] if 0 < high - low < MAX_SCALE_POINTS else []


def is_nps_scale(scale_range: Sequence[float] | None) -> bool:
    """Whether Minds' ``scaleRange`` is the 0–10 scale an NPS is computed on (the method decides whether it is one)."""
    if scale_range is None or len(scale_range) != 2:
        return False
    return (int(scale_range[0]), int(scale_range[1])) == NPS_RANGE


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
    method_nps: bool | None = None,
) -> QuestionResult | None:
    """The result of one question from each Audience's raw answer values; None when nobody answered.
    ``method_nps``: True when Minds marks the method NPS, False when Minds' data names the method and it is not
    NPS, None when Minds' data says nothing about a method (see the module docstring)."""
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
    zero_to_ten = kind == "scale" and is_nps_scale(scale_range)
    nps = zero_to_ten and method_nps is True
    results = []
    for name, n, counts in counted:
        shares = [100.0 * counts.get(option, 0) / n if n else 0.0 for option in options]
        scale = stats.scale_summary(counts, scale_range=scale_range) if kind == "scale" and n else None
        results.append(
            AudienceResult(
                name=name, n=n, counts=counts, shares=shares, scale=scale, nps=nps_of(counts) if nps and n else None
            )
        )
    return QuestionResult(
        title=title,
        kind=kind,
        options=options,
        ordered=ordered,
        audiences=results,
        anchors=anchors,
        listed=tuple(_scale_points(scale_range) if kind == "scale" else dict.fromkeys(listed)),
        nps_unmarked=zero_to_ten and method_nps is None,
    )


def _order(
    kind: str, *, listed: list[str], scale_range: Sequence[float] | None, totals: dict[str, int]
) -> tuple[list[str], bool]:
    if kind == "scale":
        points = _scale_points(scale_range)
        numeric = sorted({*points, *(v for v in totals if _number(v) is not None)}, key=lambda v: _number(v) or 0.0)
        return [*numeric, *(v for v in totals if _number(v) is None)], True
    off_list = sorted((v for v in totals if v not in listed), key=lambda v: -totals[v])  # ties: as answered
    if listed:
        return [*dict.fromkeys(listed), *off_list], True
    return off_list, False


# --- words -----------------------------------------------------------------------------------------------


def nps_text(score: int) -> str:
    """ "NPS +12", "NPS −42", "NPS 0" (a true minus sign in every language)."""
    # i18n: {score} is the Net Promoter Score with its sign, e.g. "−42" or "+12".
    return _("NPS {score}", score=format_signed(score))


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


def assumed_text(result: QuestionResult) -> str | None:
    """What the bot assumed where Minds' data is silent, said once under the question's numbers (plain text):
    a 0–10 scale without a method Minds named is shown as a scale, not an NPS; answers without Minds' option list
    are in the bot's order (by share). None when nothing was assumed."""
    if result.nps_unmarked:
        return _("Minds named no method for this 0–10 scale: shown as a scale (mean), not as an NPS.")
    if not result.ordered and result.kind != "scale" and len(result.options) > 1:
        return _("Minds sent no option list: answers sorted by share, largest first.")
    return None


def simulated_text() -> str:
    """What a result simulated by the embedded sandbox says once, under its heading (never a result from Minds)."""
    return _("Simulated locally by the minds-bot sandbox — not answers from Minds.")


def pct_text(value: float) -> str:
    """A share of respondents (0–100) as the spoken language writes a whole percentage: "75%", "75 %"."""
    return format_share(value)


def scale_text(scale: stats.ScaleSummary) -> str:
    """ "mean 3.9 on 1–5 · top-2-box 75%" in the spoken language's words and numbers."""
    mean = format_decimal(scale.mean, digits=1)
    if scale.low is None or scale.high is None:
        said = _("mean {value}", value=mean)
    else:
        # i18n: A scale question's average answer: "mean 3.9 on 1–5" ({low}–{high} is the scale's range).
        said = _(
            "mean {value} on {low}–{high}", value=mean, low=format_number(scale.low), high=format_number(scale.high)
        )
    top = None
    if scale.top_box_pct is not None:
        # i18n: The share of answers on the two highest points of the scale, e.g. "top-2-box 75%".
        top = _("top-2-box {share}", share=pct_text(scale.top_box_pct))
    return separated([said, top])


def option_text(option: str, share: float) -> str:
    """One option and its share: "Yes 92%" (the option as Minds wrote it)."""
    # i18n: {option} is an answer option as Minds wrote it (not translated); {share} its percentage, e.g. "92%".
    return _("{option} {share}", option=option, share=pct_text(share))


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
        if audience.scale is None:
            return _("no numeric answers")
        return scale_text(audience.scale)
    return separated(option_text(option, share) for option, share in zip(result.options, audience.shares, strict=True))


def audience_line(result: QuestionResult, audience: AudienceResult, *, name: str) -> str:
    """One Audience's line in a thread: "Gen Z (% of respondents · n=12): Yes 92% · No 8%". ``name`` is the
    Audience's name as the caller shows it (escaped, maybe bold); the figures are escaped here."""
    # i18n: {audience} is an Audience's name; {base} says what the numbers cover ("% of respondents · n=12");
    # {figures} are its numbers ("Yes 92% · No 8%"). Use the brackets and colon your language uses.
    return _(
        "{audience} ({base}): {figures}",
        audience=name,
        base=base_text(result, audience),
        figures=escape(summary(result, audience)),
    )
