"""Who answers a plan revision and what a plan post remembers between revisions.

Owns: ``plan_context`` (the revision's ``audience_ids`` when Minds narrowed them, else the Study's Audiences,
each with the Mind count Minds gave — from the Study detail, or Minds' Audience detail for a selected Audience
the Study does not list (``unlisted_audiences``); unknown when Minds gave none), and ``PlanMemory`` upkeep:
the questions shown, with how each is answered (to say what changed in the next revision) and who answered each
confirmation question (``with_answerer``, recorded when the answer is sent; shown once Minds reports it answered).
Must not touch: Block Kit (``render/plan*.py``), SQL, Slack.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

from minds_bot.i18n import _
from minds_bot.minds import MindsClient, MindsError, ResearchPlan, Study, StudyDetail
from minds_bot.minds.models import QuestionResponse, StudyAudience
from minds_bot.render.plan_gate import AudienceInfo, PlanContext
from minds_bot.render.plan_history import AnsweredBy, PreviousRevision
from minds_bot.store import ConfirmationAnswer, PlanMemory, PlanPost, ShownQuestion

log = logging.getLogger(__name__)


def plan_context(
    study: Study | StudyDetail,
    *,
    requester_id: str,
    plan: ResearchPlan | None = None,
    memory: PlanMemory | None = None,
    shown_revision: int | None = None,
    others: Mapping[str, AudienceInfo] | None = None,
) -> PlanContext:
    """Who answers ``plan``: the Audiences its revision selected (``audience_ids``) when Minds narrowed them,
    else every Audience of the Study, each with the Mind count Minds gave (``mindCount``, else the Minds it
    listed; None when it gave neither). A selected Audience the Study does not list is named from ``others``
    (Minds' Audience detail, see ``unlisted_audiences``), else shown as an unnamed Audience of unknown size —
    never by its id. ``memory``: who answered which confirmation question and the questions of the revision shown
    before (``shown_revision``)."""
    by_id = {a.id: a for a in study.audiences}
    selected = plan.audience_ids if plan is not None and plan.audience_ids else None
    looked_up = others or {}
    audiences = tuple(
        _info(i, by_id.get(i), looked_up) for i in (selected if selected else [a.id for a in study.audiences])
    )
    narrowed = selected is not None and set(selected) != set(by_id)
    answered_by: dict[str, AnsweredBy] = {}
    previous = None
    if memory is not None:
        answered_by = {q: AnsweredBy(question=a.question, user_id=a.user_id) for q, a in memory.answered.items()}
        if shown_revision is not None and memory.questions:
            previous = PreviousRevision(
                shown_revision,
                tuple((q.id, q.text) for q in memory.questions),
                responses={
                    q.id: QuestionResponse.model_validate_json(q.response) for q in memory.questions if q.response
                },
            )
    return PlanContext(
        study_name=study.name,
        requester_id=requester_id,
        audiences=audiences,
        narrowed=narrowed,
        answered_by=answered_by,
        previous=previous,
    )


def _info(audience_id: str, listed: StudyAudience | None, others: Mapping[str, AudienceInfo]) -> AudienceInfo:
    if listed is not None:
        return AudienceInfo(name=listed.name, mind_count=_mind_count(listed))
    # i18n: an Audience the revision selected that Minds did not name (its Study does not list it)
    return others.get(audience_id) or AudienceInfo(name=_("an Audience this Study does not list"), mind_count=None)


async def unlisted_audiences(
    minds: MindsClient, study: Study | StudyDetail, plan: ResearchPlan
) -> dict[str, AudienceInfo]:
    """Name and Mind count, from Minds' Audience detail, of each Audience ``plan`` selected that ``study`` does not
    list; one Minds refuses to describe stays out (the header then says its count is unknown)."""
    listed = {a.id for a in study.audiences}
    found: dict[str, AudienceInfo] = {}
    for audience_id in plan.audience_ids or ():
        if audience_id in listed or audience_id in found:
            continue
        try:
            detail = await minds.get_audience(audience_id)
        except MindsError:
            log.info("Audience %s of a plan revision could not be described", audience_id)
            continue
        found[audience_id] = AudienceInfo(name=detail.name, mind_count=detail.mind_count)
    return found


def _mind_count(audience: StudyAudience) -> int | None:
    if audience.mind_count is not None:
        return audience.mind_count
    return len(audience.minds) if audience.minds else None


def remembered(post: PlanPost, plan: ResearchPlan) -> PlanMemory:
    """The post's memory once ``plan`` is shown: its questions and open confirmation questions; who answered is
    kept."""
    memory = post.memory or PlanMemory()
    return PlanMemory(
        questions=[
            ShownQuestion(id=q.id, text=q.text, response=q.response.model_dump_json(by_alias=True, exclude_none=True))
            for q in plan.questions
        ],
        confirmations={**memory.confirmations, **{c.id: c.text for c in plan.confirmation_questions}},
        answered=memory.answered,
    )


def with_answerer(post: PlanPost, answers: dict[str, str] | None, user_id: str) -> PlanMemory | None:
    """The memory with ``user_id`` recorded as who answered each of ``answers`` (the question as shown)."""
    if not answers:
        return post.memory
    memory = post.memory or PlanMemory()
    answered = dict(memory.answered)
    for question_id in answers:
        question = memory.confirmations.get(question_id, question_id)
        answered[question_id] = ConfirmationAnswer(question=question, user_id=user_id)
    return memory.model_copy(update={"answered": answered})
