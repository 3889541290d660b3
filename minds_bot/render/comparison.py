"""The comparison model: two runs of one Study question by question, or one run's Audiences side by side.

Owns: ``Comparison`` — the one model a comparison's text, its charts and its words read (``render/compare.py``),
built only from ``render/results.QuestionResult`` (never from raw answers): each run's questions (``asked_in_run``,
``asked_in_output``: the very result its own thread showed), which questions two runs share (the same text,
compared after folding case and spaces), which Audiences are paired (the same name in both runs; when each run
asked one Audience, those two; in one run, each Audience against the first), each side's shown shares, mean,
top-2-box or NPS — a difference is of the numbers each side shows, so "57% → 64% (+7 pp)" always adds up — and
what could not be compared, with the reason (only one run asked it, asked another way or on another scale,
open-ended answers, not asked, one Audience only).
Pure: no I/O. Must not touch: Minds calls, the store, Slack calls, Block Kit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from minds_bot.i18n import _, format_number
from minds_bot.minds import AgentRun, ResearchRun, StudyOutput
from minds_bot.minds.models import StudyMessage
from minds_bot.render import results
from minds_bot.render.answers import distribution as output_distribution
from minds_bot.render.runs import distribution as artifact_distribution
from minds_bot.render.runs import uses_nps

LETTERS = "ABCDEFGHIJ"
PAIR = 2
Mode = Literal["runs", "audiences"]


# --- what each run asked ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Asked:
    """One question a run asked: its number in the run, its text, and its result (None: nothing to count)."""

    number: int
    title: str
    result: results.QuestionResult | None
    not_asked: bool = False
    simulated: bool = False  # the embedded sandbox simulated it (never a result from Minds)


@dataclass(frozen=True)
class RunSide:
    """A run with its questions; ``messages`` (the Study's) name its first question (``render/run_names.py``)."""

    run: AgentRun
    questions: tuple[Asked, ...]
    messages: tuple[StudyMessage, ...] = ()


def asked_in_run(run: ResearchRun) -> tuple[Asked, ...]:
    """Every question of a research run, with the very ``QuestionResult`` its thread showed."""
    nps = uses_nps(run)
    asked = []
    for artifact in sorted(run.artifacts, key=lambda a: a.index):
        output = artifact.output_data or {}
        title = str(output.get("title") or artifact.question_id or "")
        result = artifact_distribution(artifact, method_nps=nps)
        asked.append(
            Asked(
                number=artifact.index + 1,
                title=title,
                result=result,
                not_asked=artifact.not_asked,
                simulated=artifact.simulated,
            )
        )
    return tuple(asked)


def asked_in_output(output: StudyOutput) -> tuple[Asked, ...]:
    """A standalone question's one result, as its thread showed it."""
    return (Asked(number=1, title=output.title, result=output_distribution(output), simulated=output.simulated),)


def same_text(title: str) -> str:
    return " ".join(title.casefold().split())


# --- the model -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Side:
    """One side of a pair: which run (its letter in runs mode), which Audience, and that Audience's numbers."""

    letter: str
    audience: results.AudienceResult

    def legend(self) -> str:
        # i18n: A comparison's side in a chart legend and in text: "A · Gen Z (n=14)"; A/B name the runs or
        # Audiences listed at the top of the comparison.
        return _(
            "{letter} · {audience} (n={n})",
            letter=self.letter,
            audience=self.audience.name,
            n=format_number(self.audience.n),
        )


@dataclass(frozen=True)
class OptionRow:
    option: str
    a: int  # % of A's respondents, as shown
    b: int

    @property
    def difference(self) -> int:
        return self.b - self.a


@dataclass(frozen=True)
class Pair:
    a: Side
    b: Side
    rows: tuple[OptionRow, ...]
    mean: tuple[float, float] | None = None  # each side's mean, rounded to one decimal as shown
    top_box: tuple[int, int] | None = None
    nps: tuple[int, int] | None = None


@dataclass(frozen=True)
class QuestionComparison:
    title: str
    kind: str
    numbers: tuple[int, int]  # the question's number in A's run and in B's run
    options: tuple[str, ...]
    pairs: tuple[Pair, ...]
    unpaired: tuple[Side, ...] = ()  # an Audience that answered on one side only


@dataclass(frozen=True)
class NotCompared:
    title: str
    numbers: tuple[int, int]
    reason: str  # plain words


@dataclass(frozen=True)
class Comparison:
    mode: Mode
    study: str  # the Study's name as Minds gives it
    runs: tuple[AgentRun, ...]  # runs mode: A and B; audiences mode: the one run
    messages: tuple[StudyMessage, ...] = ()  # the Study's: they name each run's first question
    letters: tuple[tuple[str, str], ...] = ()  # audiences mode: (letter, Audience name)
    questions: tuple[QuestionComparison, ...] = ()
    only: tuple[tuple[Asked, ...], ...] = ((), ())  # runs mode: questions only A asked, only B asked
    not_compared: tuple[NotCompared, ...] = field(default_factory=tuple)
    simulated: bool = False  # some of the compared results were simulated by the embedded sandbox


def _shown_share(result: results.QuestionResult, audience: results.AudienceResult, option: str) -> int:
    if option in result.options:
        return round(audience.shares[result.options.index(option)])
    return 0  # not among that side's options: nobody there chose it


def _pair(
    a: tuple[str, results.QuestionResult, results.AudienceResult],
    b: tuple[str, results.QuestionResult, results.AudienceResult],
    options: Sequence[str],
) -> Pair:
    (letter_a, result_a, audience_a), (letter_b, result_b, audience_b) = a, b
    rows = tuple(
        OptionRow(option=o, a=_shown_share(result_a, audience_a, o), b=_shown_share(result_b, audience_b, o))
        for o in options
    )
    mean = top = nps = None
    if audience_a.nps is not None and audience_b.nps is not None:
        nps = (audience_a.nps.score, audience_b.nps.score)
    elif audience_a.scale is not None and audience_b.scale is not None:
        mean = (round(audience_a.scale.mean, 1), round(audience_b.scale.mean, 1))
        if audience_a.scale.top_box_pct is not None and audience_b.scale.top_box_pct is not None:
            top = (audience_a.scale.top_box_pct, audience_b.scale.top_box_pct)
    return Pair(a=Side(letter_a, audience_a), b=Side(letter_b, audience_b), rows=rows, mean=mean, top_box=top, nps=nps)


def _options(a: results.QuestionResult, b: results.QuestionResult) -> tuple[str, ...]:
    """A's option order, then any option only B has (a scale's points stay low to high)."""
    merged = [*a.options, *(o for o in b.options if o not in a.options)]
    if a.kind == "scale":
        numeric = [o for o in merged if _is_number(o)]
        merged = [*sorted(numeric, key=float), *(o for o in merged if not _is_number(o))]
    return tuple(merged)


def _is_number(value: str) -> bool:
    try:
        float(value)
    except ValueError:
        return False
    return True


def _ends(result: results.QuestionResult) -> tuple[int | None, int | None] | None:
    scale = next((a.scale for a in result.audiences if a.scale is not None), None)
    return (scale.low, scale.high) if scale is not None else None


def _why_not(a: Asked, b: Asked) -> str | None:
    if a.not_asked or b.not_asked:
        return _("not asked in one run (no Mind met its routing condition)")
    if a.result is None or b.result is None:
        return _("open-ended answers or no answers: no shares to compare")
    if a.result.kind != b.result.kind:
        # i18n: {a} and {b} are Minds' answer types (categorical, multiselect, scale).
        return _("asked another way ({a} in A, {b} in B)", a=a.result.kind, b=b.result.kind)
    if a.result.kind == "scale" and _ends(a.result) != _ends(b.result):
        return _("asked on different scales")
    return None


def compare_runs(a: RunSide, b: RunSide, *, study: str) -> Comparison:
    """Two runs question by question: the questions both asked (same text), Audience by Audience."""
    in_b = {same_text(q.title): q for q in b.questions if q.title}
    in_a = {same_text(q.title) for q in a.questions if q.title}
    compared: list[QuestionComparison] = []
    skipped: list[NotCompared] = []
    for question_a in a.questions:
        question_b = in_b.get(same_text(question_a.title)) if question_a.title else None
        if question_b is None:
            continue
        numbers = (question_a.number, question_b.number)
        reason = _why_not(question_a, question_b)
        if reason is not None or question_a.result is None or question_b.result is None:
            skipped.append(NotCompared(title=question_a.title, numbers=numbers, reason=reason or ""))
            continue
        compared.append(_question(question_a.result, question_b.result, numbers=numbers))
    only_a = tuple(_named(q) for q in a.questions if not q.title or same_text(q.title) not in in_b)
    only_b = tuple(_named(q) for q in b.questions if not q.title or same_text(q.title) not in in_a)
    return Comparison(
        mode="runs",
        study=study,
        runs=(a.run, b.run),
        messages=(*a.messages, *(m for m in b.messages if m not in a.messages)),
        questions=tuple(compared),
        only=(only_a, only_b),
        not_compared=tuple(skipped),
        simulated=any(q.simulated for q in (*a.questions, *b.questions)),
    )


def _named(question: Asked) -> Asked:
    """What an "Only in …" line needs of a question: its number and text (not its numbers)."""
    return Asked(number=question.number, title=question.title, result=None, not_asked=question.not_asked)


def _question(a: results.QuestionResult, b: results.QuestionResult, *, numbers: tuple[int, int]) -> QuestionComparison:
    options = _options(a, b)
    answered_a = [x for x in a.audiences if x.n]
    answered_b = [x for x in b.audiences if x.n]
    names_b = {x.name: x for x in answered_b}
    pairs = [_pair(("A", a, x), ("B", b, names_b[x.name]), options) for x in answered_a if x.name in names_b]
    if not pairs and len(answered_a) == 1 and len(answered_b) == 1:  # one Audience each: those two
        pairs = [_pair(("A", a, answered_a[0]), ("B", b, answered_b[0]), options)]
    paired = {p.a.audience.name for p in pairs}, {p.b.audience.name for p in pairs}
    unpaired = (
        *(Side("A", x) for x in answered_a if x.name not in paired[0]),
        *(Side("B", x) for x in answered_b if x.name not in paired[1]),
    )
    return QuestionComparison(
        title=a.title, kind=a.kind, numbers=numbers, options=options, pairs=tuple(pairs), unpaired=unpaired
    )


def compare_audiences(run: RunSide, *, study: str) -> Comparison:
    """One run's Audiences side by side, question by question: each Audience against the first (A)."""
    names: list[str] = []
    for question in run.questions:
        for audience in question.result.audiences if question.result else ():
            if audience.n and audience.name not in names:
                names.append(audience.name)
    letters = {name: LETTERS[i] if i < len(LETTERS) else str(i + 1) for i, name in enumerate(names)}
    compared: list[QuestionComparison] = []
    skipped: list[NotCompared] = []
    for question in run.questions:
        numbers = (question.number, question.number)
        result = question.result
        answered = [x for x in result.audiences if x.n] if result else []
        if result is None or len(answered) < PAIR:
            reason = (
                _("not asked (no Mind met its routing condition)")
                if question.not_asked
                else _("open-ended answers or no answers: no shares to compare")
                if result is None
                else _("only one Audience answered")
            )
            skipped.append(NotCompared(title=question.title, numbers=numbers, reason=reason))
            continue
        base = (letters[answered[0].name], result, answered[0])
        pairs = tuple(_pair(base, (letters[other.name], result, other), result.options) for other in answered[1:])
        compared.append(
            QuestionComparison(
                title=result.title, kind=result.kind, numbers=numbers, options=tuple(result.options), pairs=pairs
            )
        )
    return Comparison(
        mode="audiences",
        study=study,
        runs=(run.run,),
        messages=run.messages,
        letters=tuple((letters[n], n) for n in names),
        questions=tuple(compared),
        not_compared=tuple(skipped),
        simulated=any(q.simulated for q in run.questions),
    )
