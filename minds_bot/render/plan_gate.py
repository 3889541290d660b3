"""What stands between a plan revision and its run, and what its run will send.

Owns: the ``ApprovalGate`` (open confirmation questions, methods Minds' catalogue does not mark executable, with
their fallback offered as a revision to review) and its words, which the plan message shows and a refused
Approve repeats; ``PlanContext`` (the Study, who asked, and who answers: the revision's Audiences when Minds
narrowed them, else the Study's, with Mind counts as Minds gave them — None when it did not say); the "Who
answers" line of the plan header and the Approve dialog's consent and cost line, both drawn from that one
context so they cannot disagree. Minds' names are escaped wherever they are mrkdwn. Pure: no I/O.
Must not touch: Minds calls, the store, the plan message's layout (``render/plan.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from minds_bot.i18n import _, _n, join_list, sentences
from minds_bot.minds import ResearchMethod, ResearchPlan
from minds_bot.minds.models import PlanMethod
from minds_bot.render import MAX_NAME_SHOWN, escape
from minds_bot.render.method_words import availability
from minds_bot.render.plan_history import AnsweredBy, PreviousRevision
from minds_bot.render.states import state_word

MAX_CONFIRM_TEXT = 300


@dataclass(frozen=True)
class AudienceInfo:
    """An Audience that answers; ``mind_count`` as Minds gave it (None: Minds did not say)."""

    name: str
    mind_count: int | None


@dataclass(frozen=True)
class PlanContext:
    """What the plan message says besides the plan: where it runs, who asked, who answers (``audiences``: the
    revision's selection when ``narrowed``, else the Study's), who answered its confirmation questions and the
    revision shown before it."""

    study_name: str
    requester_id: str
    audiences: tuple[AudienceInfo, ...] = ()
    narrowed: bool = False
    answered_by: Mapping[str, AnsweredBy] = field(default_factory=dict)
    previous: PreviousRevision | None = None

    @property
    def mind_count(self) -> int | None:
        """Every Mind that answers, or None when Minds did not say for some Audience (or there is none)."""
        counts = [a.mind_count for a in self.audiences]
        if not counts or any(c is None for c in counts):
            return None
        return sum(c for c in counts if c is not None)


def advanced_methods(plan: ResearchPlan) -> list[str]:
    return [m.name or m.id for m in plan.methods if m.advanced]


# --- who answers and what a run sends --------------------------------------------------------------------------


def _minds(count: int | None) -> str:
    if count is None:
        return _("Mind count unknown")
    return _n("{count} Mind", "{count} Minds", count)


def who_answers(context: PlanContext) -> str:
    """mrkdwn for the plan header: "Who answers: Korean skincare enthusiasts (12 Minds)"."""
    if not context.audiences:
        return _("Who answers: no Audience is attached to this Study.")
    named = join_list(
        _("{audience} ({minds})", audience=escape(a.name, limit=MAX_NAME_SHOWN), minds=_minds(a.mind_count))
        for a in context.audiences
    )
    if len(context.audiences) > 1 and context.mind_count is not None:
        named = _("{audiences} — {minds} in total", audiences=named, minds=_minds(context.mind_count))
    if context.narrowed:
        return _("Who answers: {audiences} (chosen for this revision)", audiences=named)
    return _("Who answers: {audiences}", audiences=named)


def confirm_text(plan: ResearchPlan, context: PlanContext) -> str:
    """The Approve dialog's consent and cost line (≤ 300 characters): the questions, the Audiences and Minds this
    revision's run asks, and questions × Minds responses (an upper bound when a question is asked only to some)."""
    minds = context.mind_count
    count = len(plan.questions)
    who = _minds(minds)
    if minds is not None:
        responses = count * minds
        if any(q.ask_if is not None for q in plan.questions):
            said = _n("up to {count} response", "up to {count} responses", responses)
        else:
            said = _n("{count} response", "{count} responses", responses)
        # i18n: "12 Minds, 48 responses (4 questions × 12 Minds)"
        who = _(
            "{minds}, {responses} ({questions} × {minds})",
            minds=who,
            responses=said,
            questions=_n("{count} question", "{count} questions", count),
        )
    run = _n(
        "Run {count} question of revision {revision} with {audiences}: {who}.",
        "Run {count} questions of revision {revision} with {audiences}: {who}.",
        count,
        revision=plan.revision,
        audiences=_audience_names(context, room=120),
        who=who,
    )
    advanced = advanced_methods(plan)
    opt_in = _("You opt in to the advanced methods: {methods}.", methods=join_list(advanced)) if advanced else None
    text = sentences(run, opt_in, _("Responses count toward your Minds plan."))
    return escape(text, limit=MAX_CONFIRM_TEXT)  # a confirm dialog's text is mrkdwn


def _audience_names(context: PlanContext, *, room: int) -> str:
    if not context.audiences:
        return _("no Audience")
    count = len(context.audiences)
    names: list[str] = []
    for index, audience in enumerate(context.audiences):
        rest = count - index
        candidate = join_list([*names, audience.name])
        if len(candidate) > room:
            return _n(
                "{count} Audience ({names} and {rest} more)",
                "{count} Audiences ({names} and {rest} more)",
                count,
                names=join_list(names),
                rest=rest,
            )
        names.append(audience.name)
    return _n("{count} Audience ({names})", "{count} Audiences ({names})", count, names=join_list(names))


# --- what stands between a revision and its run ---------------------------------------------------------------


@dataclass(frozen=True)
class MethodProblem:
    """A plan method that cannot be promised to run; ``fallback`` is Minds' alternative to review, if any.
    ``reason`` is mrkdwn: Minds' names in it are escaped and shortened."""

    method: PlanMethod
    reason: str
    fallback: ResearchMethod | None = None


@dataclass(frozen=True)
class ApprovalGate:
    """Whether a revision may be approved, decided from the plan as Minds returns it and Minds' method catalogue
    (CATALOGUE §2 E.41–43): every confirmation question answered, every method ``executable: true``."""

    open_questions: int
    problems: tuple[MethodProblem, ...] = ()

    @property
    def blocked(self) -> bool:
        return self.open_questions > 0 or bool(self.problems)

    def reasons(self) -> list[str]:
        """The words (mrkdwn, escaped) the plan message shows and a refused Approve repeats."""
        reasons = [answers_needed(self.open_questions)] if self.open_questions else []
        return reasons + [p.reason for p in self.problems]


def answers_needed(count: int) -> str:
    return _n("Answer {count} more question to approve.", "Answer {count} more questions to approve.", count)


def approval_gate(plan: ResearchPlan, catalogue: Mapping[str, ResearchMethod]) -> ApprovalGate:
    """Open confirmation questions and non-executable methods of ``plan``; a method the catalogue does not
    list is never guessed to run."""
    problems = [p for p in (_method_problem(m, catalogue) for m in plan.methods) if p is not None]
    return ApprovalGate(open_questions=len(plan.confirmation_questions), problems=tuple(problems))


def _method_problem(method: PlanMethod, catalogue: Mapping[str, ResearchMethod]) -> MethodProblem | None:
    facts = catalogue.get(method.id)
    name = escape(method.name or (facts.name if facts else None) or method.id, limit=MAX_NAME_SHOWN)
    if facts is None:
        reason = _(
            "{method} is not in Minds' method catalogue, so it cannot be promised to run. Revise the plan.",
            method=name,
        )
        return MethodProblem(method, reason)
    if facts.executable and method.executable is not False:
        return None
    state = facts.availability or facts.status
    said = (availability(state) if facts.availability else state_word(state)) if state else None
    fallback = catalogue.get(facts.fallback_method_id) if facts.fallback_method_id else None
    if fallback is None or not fallback.executable:
        if said:
            reason = _(
                "{method} is not executable in Minds' catalogue ({state}), so this revision cannot run. "
                "Revise the plan.",
                method=name,
                state=said,
            )
        else:
            reason = _(
                "{method} is not executable in Minds' catalogue, so this revision cannot run. Revise the plan.",
                method=name,
            )
        return MethodProblem(method, reason)
    instead = escape(fallback.name or fallback.id, limit=MAX_NAME_SHOWN)
    if said:
        reason = _(
            "{method} is not executable in Minds' catalogue ({state}), so this revision cannot run as is. Minds "
            "suggests {fallback} instead: ask for that revision and review it before approving.",
            method=name,
            state=said,
            fallback=instead,
        )
    else:
        reason = _(
            "{method} is not executable in Minds' catalogue, so this revision cannot run as is. Minds suggests "
            "{fallback} instead: ask for that revision and review it before approving.",
            method=name,
            fallback=instead,
        )
    return MethodProblem(method, reason, fallback)
