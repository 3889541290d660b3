"""Who answers a revision: an Audience the revision selected that its Study does not list is named with the Mind
count from Minds' Audience detail — never shown by its id, never given a guessed count."""

from __future__ import annotations

from typing import Any, cast

from minds_bot.flows.plan_memory import plan_context, remembered, unlisted_audiences
from minds_bot.minds import MindsClient, MindsError, ResearchPlan, StudyDetail
from minds_bot.minds.models import AudienceDetail
from minds_bot.render.plan import render_plan
from minds_bot.render.plan_gate import confirm_text, who_answers
from minds_bot.store import PlanMemory, PlanPost, ShownQuestion
from tests.slack import samples
from tests.slack.plan_samples import catalogue, plan, plan_data

STUDY = StudyDetail.model_validate(samples.study_detail())  # Parents (12 Minds), Students (8 Minds)
LISTED = samples.uid(2001)
UNLISTED = samples.uid(2999)
REFUSED = samples.uid(2998)


class _Minds:
    def __init__(self) -> None:
        self.asked: list[str] = []

    async def get_audience(self, audience_id: str) -> AudienceDetail:
        self.asked.append(audience_id)
        if audience_id == REFUSED:
            raise MindsError("no such Audience")
        data: dict[str, Any] = samples.audience_ref(999, "Retired cyclists", 5)
        return AudienceDetail.model_validate({**data, "id": audience_id, "currentMemberRole": "owner"})


async def test_an_audience_the_study_does_not_list_is_named_from_minds_audience_detail() -> None:
    revision = plan(confirmationQuestions=[], audienceIds=[LISTED, UNLISTED])
    minds = _Minds()
    others = await unlisted_audiences(cast(MindsClient, minds), STUDY, revision)
    assert minds.asked == [UNLISTED]  # the Study's own Audience is not looked up again
    context = plan_context(STUDY, requester_id="UREQ", plan=revision, others=others)
    assert who_answers(context) == (
        "Who answers: Parents (12 Minds), Retired cyclists (5 Minds) — 17 Minds in total (chosen for this revision)"
    )
    assert confirm_text(revision, context).startswith(
        "Run 3 questions of revision 1 with 2 Audiences (Parents, Retired cyclists): 17 Minds, up to 51 responses"
    )


async def test_an_audience_minds_will_not_describe_is_said_unknown_and_never_shown_by_id() -> None:
    revision = plan(confirmationQuestions=[], audienceIds=[REFUSED])
    others = await unlisted_audiences(cast(MindsClient, _Minds()), STUDY, revision)
    context = plan_context(STUDY, requester_id="UREQ", plan=revision, others=others)
    assert who_answers(context) == (
        "Who answers: an Audience this Study does not list (Mind count unknown) (chosen for this revision)"
    )
    shown = str([b.to_dict() for b in render_plan(revision, context, catalogue=catalogue()).message.blocks])
    assert REFUSED not in shown
    assert "Mind count unknown." in confirm_text(revision, context)


def _post(memory: PlanMemory | None = None) -> PlanPost:
    return PlanPost(
        team_id="T1",
        channel_id="C1",
        message_ts="1.000001",
        study_id=STUDY.id,
        study_name=STUDY.name,
        requester_id="UREQ",
        preview_idempotency_key="key",
        memory=memory,
    )


def _sometimes() -> ResearchPlan:
    """Revision 2 of the sample plan, whose first question gained the option "Sometimes"."""
    data = plan_data(revision=2)
    data["questions"][0]["response"]["categoricalOptions"] = ["Yes", "No", "Sometimes"]
    return ResearchPlan.model_validate(data)


def test_the_next_revision_says_which_question_is_answered_differently() -> None:
    first = plan()
    memory = remembered(_post(), first)
    assert memory.questions[0].response == '{"type":"categorical","categoricalOptions":["Yes","No"]}'
    second = _sometimes()
    context = plan_context(STUDY, requester_id="UREQ", plan=second, memory=memory, shown_revision=1)
    shown = str([b.to_dict() for b in render_plan(second, context, catalogue=catalogue()).message.blocks])
    assert "• Changed how Q1 is answered: One of: Yes · No → One of: Yes · No · Sometimes" in shown


def test_a_memory_kept_before_answer_formats_were_recorded_compares_the_wording_only() -> None:
    older = PlanMemory(questions=[ShownQuestion(id=q.id, text=q.text) for q in plan().questions])
    second = _sometimes()
    context = plan_context(STUDY, requester_id="UREQ", plan=second, memory=older, shown_revision=1)
    shown = str([b.to_dict() for b in render_plan(second, context, catalogue=catalogue()).message.blocks])
    assert "*Changed since revision 1:* No question changed." in shown
