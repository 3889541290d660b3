"""The rest of the client surface a bot user reaches: replays of a finished plan, choosing an Audience in a
confirmation answer, cancelling, analytics, research methods, Study drafts and templates."""

from __future__ import annotations

import uuid

import pytest

from minds_bot.minds import Conflict, DirectRunAccepted, PlanPreviewRequest, ResearchPlan
from tests.integration.conftest import Harness
from tests.integration.seeds import GEN_Z, LAUNCH_STUDY, PRICING_STUDY, SKINCARE

MAX_POLLS = 60


async def test_repeating_a_finished_preview_replays_the_same_revision(h: Harness) -> None:
    key = str(uuid.uuid4())
    request = PlanPreviewRequest(request="Explore reactions to a refillable deodorant")

    first = await h.minds.preview_plan(LAUNCH_STUDY, request, idempotency_key=key)
    again = await h.minds.preview_plan(LAUNCH_STUDY, request, idempotency_key=key)

    assert isinstance(first, ResearchPlan) and isinstance(again, ResearchPlan)
    assert not first.replayed and again.replayed
    assert (again.draft_plan_id, again.revision, again.questions) == (
        first.draft_plan_id,
        first.revision,
        first.questions,
    )


async def test_a_confirmation_answer_naming_one_audience_asks_only_that_audience(h: Harness) -> None:
    plan = await h.minds.preview_plan(
        LAUNCH_STUDY,
        PlanPreviewRequest(request="Explore reactions to a refillable deodorant"),
        idempotency_key=str(uuid.uuid4()),
    )
    assert isinstance(plan, ResearchPlan)
    [question] = plan.confirmation_questions
    assert question.options is not None and "Korean skincare enthusiasts" in question.options
    chosen = await h.minds.preview_plan(
        LAUNCH_STUDY,
        PlanPreviewRequest(
            draft_plan_id=plan.draft_plan_id, revision=1, answers={question.id: "Korean skincare enthusiasts"}
        ),
        idempotency_key=str(uuid.uuid4()),
    )
    assert isinstance(chosen, ResearchPlan)

    started = await h.minds.start_research_run(
        LAUNCH_STUDY, draft_plan_id=chosen.draft_plan_id, revision=2, idempotency_key=str(uuid.uuid4())
    )
    for _ in range(MAX_POLLS):
        run = await h.minds.get_research_run(LAUNCH_STUDY, started.run_id)
        if run.is_terminal:
            break
        h.advance(h.step)
    assert run.status == "completed"
    coverage = run.artifacts[0].response_coverage
    assert coverage is not None and coverage.expected == 16  # the skincare Audience only, not Gen Z's 12
    answers = await h.minds.get_message_answers(LAUNCH_STUDY, run.artifacts[0].message_id or "")
    assert {a["audienceId"] for a in answers.output_data["answers"]} == {SKINCARE}
    assert GEN_Z not in {a["audienceId"] for a in answers.output_data["answers"]}


async def test_cancelling_a_direct_run_stops_it_once(h: Harness) -> None:
    accepted = await h.minds.start_direct_run(
        PRICING_STUDY, question="Would you trial a new invoicing tool?", client_request_id=str(uuid.uuid4())
    )
    assert isinstance(accepted, DirectRunAccepted)

    cancelled = await h.minds.cancel_run(accepted.run_id)
    h.advance(10 * h.step)

    assert cancelled.status == "cancelled"
    run = await h.minds.get_run(accepted.run_id)
    assert run.status == "cancelled" and run.message_id is None
    with pytest.raises(Conflict) as again:
        await h.minds.cancel_run(accepted.run_id)
    assert again.value.code == "RUN_NOT_ACTIVE"


async def test_analytics_cover_the_answered_questions(h: Harness) -> None:
    analytics = await h.minds.get_analytics(LAUNCH_STUDY)
    assert analytics.question_count and analytics.response_count
    assert len(analytics.questions) == analytics.question_count
    assert all(q.title and q.response_count is not None for q in analytics.questions)


async def test_research_methods_say_which_can_run(h: Harness) -> None:
    methods = {m.id: m for m in await h.minds.research_methods()}
    assert methods["survey"].executable and not methods["survey"].advanced
    assert not methods["conjoint"].executable and methods["conjoint"].fallback_method_id == "maxdiff"


async def test_using_a_template_twice_with_one_request_id_makes_one_draft(h: Harness) -> None:
    drafts_before = await h.minds.list_study_drafts()
    [template] = [t for t in await h.minds.list_study_templates() if t.name == "Concept test"]
    request_id = str(uuid.uuid4())

    first = await h.minds.use_study_template(template.id, expected_revision=template.revision, request_id=request_id)
    second = await h.minds.use_study_template(template.id, expected_revision=template.revision, request_id=request_id)

    assert first.id == second.id and first.status == "draft" and first.study_id is None
    drafts = await h.minds.list_study_drafts()
    assert len(drafts) == len(drafts_before) + 1 and first.id in {d.id for d in drafts}
    with pytest.raises(Conflict) as stale:
        await h.minds.use_study_template(
            template.id, expected_revision=template.revision + 1, request_id=str(uuid.uuid4())
        )
    assert stale.value.code == "REVISION_CONFLICT"
