"""Who answers a revision: an Audience the revision selected that its Study does not list is named with the Mind
count from Minds' Audience detail — never shown by its id, never given a guessed count."""

from __future__ import annotations

from typing import Any, cast

from minds_bot.flows.plan_memory import plan_context, unlisted_audiences
from minds_bot.minds import MindsClient, MindsError, StudyDetail
from minds_bot.minds.models import AudienceDetail
from minds_bot.render.plan import render_plan
from minds_bot.render.plan_gate import confirm_text, who_answers
from tests.slack import samples
from tests.slack.plan_samples import catalogue, plan

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
