"""Guided research and direct questions end to end: plan preparation with receipts, revisions, confirming a
run exactly once, watching it to the end, the allowance, missing answers and one-off questions."""

from __future__ import annotations

import uuid

import pytest

from minds_bot.minds import (
    AgentRun,
    Conflict,
    DirectRunAccepted,
    PlanLimitError,
    PlanningRequired,
    PlanPending,
    PlanPreviewRequest,
    ResearchPlan,
    ResearchRun,
    StaleRevision,
)
from minds_sandbox import Faults, SandboxConfig
from tests.integration.conftest import Harness, harness
from tests.integration.seeds import PRICING_STUDY

PRICING_MINDS = 10
# This price request asks for 7 questions, and under the default seed none of the IT leads has bought anything like
# it in the past year, so q2 ("You bought something similar recently...", asked only after "Yes" to q1) is not asked.
ROUTED_REQUEST = "What would IT leads pay for a managed audit subscription, in 7 questions"
MAX_POLLS = 60
PREVIEW_PATH = f"/api/v1/studies/{PRICING_STUDY}/research-plans/preview"


async def _ready_plan(h: Harness, text: str = ROUTED_REQUEST) -> ResearchPlan:
    """Plan and answer the confirmation question, as a user confirming in Slack would."""
    first = await h.minds.preview_plan(
        PRICING_STUDY, PlanPreviewRequest(request=text), idempotency_key=str(uuid.uuid4())
    )
    assert isinstance(first, ResearchPlan)
    [question] = first.confirmation_questions
    answered = await h.minds.preview_plan(
        PRICING_STUDY,
        PlanPreviewRequest(draft_plan_id=first.draft_plan_id, revision=first.revision, answers={question.id: "Yes"}),
        idempotency_key=str(uuid.uuid4()),
    )
    assert isinstance(answered, ResearchPlan)
    return answered


async def _run_to_end(h: Harness, run_id: str) -> ResearchRun:
    for _ in range(MAX_POLLS):
        run = await h.minds.get_research_run(PRICING_STUDY, run_id)
        if run.is_terminal:
            return run
        h.advance(h.step)
    raise AssertionError(f"research run {run_id} did not finish within {MAX_POLLS} steps")


async def _direct_to_end(h: Harness, run_id: str) -> AgentRun:
    for _ in range(MAX_POLLS):
        run = await h.minds.get_run(run_id)
        if run.is_terminal:
            return run
        h.advance(h.step)
    raise AssertionError(f"run {run_id} did not finish within {MAX_POLLS} steps")


async def test_guided_research_from_request_to_checked_results() -> None:
    async with harness(SandboxConfig(faults=Faults(plan_receipts=2))) as h:
        key = str(uuid.uuid4())
        request = PlanPreviewRequest(request=ROUTED_REQUEST)

        # Not ready within the wait: the bot gets something to persist, not a plan and not an error.
        pending = await h.minds.preview_plan(PRICING_STUDY, request, idempotency_key=key, wait_seconds=0)
        assert isinstance(pending, PlanPending) and pending.stage == "drafting"
        restored = PlanPending.model_validate_json(pending.model_dump_json())
        plan = await h.minds.resume_plan(restored)
        assert isinstance(plan, ResearchPlan) and plan.revision == 1 and not plan.replayed
        assert len(plan.questions) == 7 and plan.questions[1].ask_if is not None

        posts = h.log.matching("POST", PREVIEW_PATH)
        assert [p.status for p in posts] == [202, 202, 200]
        assert {p.idempotency_key for p in posts} == {key}
        assert posts[0].plan_request_id is None
        assert posts[1].plan_request_id == posts[2].plan_request_id == pending.request_id

        [question] = plan.confirmation_questions
        assert question.options == ["Yes", "No"]
        answer_key = str(uuid.uuid4())
        revised = await h.minds.preview_plan(
            PRICING_STUDY,
            PlanPreviewRequest(draft_plan_id=plan.draft_plan_id, revision=1, answers={question.id: "Yes"}),
            idempotency_key=answer_key,
        )
        assert isinstance(revised, ResearchPlan)
        assert revised.revision == 2 and revised.confirmation_questions == []
        answer_posts = [p for p in h.log.matching("POST", PREVIEW_PATH) if p.idempotency_key == answer_key]
        assert [p.status for p in answer_posts] == [202, 202, 200]

        with pytest.raises(StaleRevision) as stale:
            await h.minds.preview_plan(
                PRICING_STUDY,
                PlanPreviewRequest(draft_plan_id=plan.draft_plan_id, revision=1, refinement="Add a price question?"),
                idempotency_key=str(uuid.uuid4()),
            )
        assert stale.value.data["latestRevision"] == 2
        latest = await h.minds.preview_plan(
            PRICING_STUDY,
            PlanPreviewRequest(draft_plan_id=plan.draft_plan_id, load_latest=True),
            idempotency_key=str(uuid.uuid4()),
        )
        assert isinstance(latest, ResearchPlan) and latest.revision == 2

        runs_before = h.run_count()
        with pytest.raises(Conflict) as old:
            await h.minds.start_research_run(
                PRICING_STUDY, draft_plan_id=plan.draft_plan_id, revision=1, idempotency_key=str(uuid.uuid4())
            )
        assert old.value.code == "REVISION_CONFLICT"
        run_key = str(uuid.uuid4())
        started = await h.minds.start_research_run(
            PRICING_STUDY, draft_plan_id=plan.draft_plan_id, revision=2, idempotency_key=run_key
        )
        again = await h.minds.start_research_run(
            PRICING_STUDY, draft_plan_id=plan.draft_plan_id, revision=2, idempotency_key=run_key
        )
        assert started.status == "queued" and started.question_count == 7
        assert again.run_id == started.run_id and h.run_count() == runs_before + 1

        run = await _run_to_end(h, started.run_id)
        assert run.status == "completed" and run.questions_completed == 7
        assert run.answer_consistency is None  # checked after completion, not yet
        assert [a.question_id for a in run.artifacts] == [q.id for q in plan.questions]
        routed = run.artifacts[1]
        # The follow-up is asked of those who said Yes to the screener (q1) and of nobody else.
        screener = (run.artifacts[0].output_data or {}).get("distribution", [])
        qualified = sum(d["count"] for d in screener if d["option"] == "Yes")
        assert not routed.not_asked and routed.message_id
        assert routed.routing is not None and routed.routing.gate_question_id == "q1"
        assert 0 < qualified < PRICING_MINDS
        assert routed.routing.asked_count == qualified and routed.routing.not_asked_count == PRICING_MINDS - qualified
        assert routed.response_coverage is not None and routed.response_coverage.received == qualified
        answered = [run.artifacts[0], *run.artifacts[2:]]
        assert all(a.kind == "response" and a.message_id for a in answered)
        assert all(a.response_coverage is not None and a.response_coverage.received == PRICING_MINDS for a in answered)

        h.advance(h.step)
        checked = await h.minds.get_research_run(PRICING_STUDY, started.run_id)
        assert checked.answer_consistency is not None and checked.answer_consistency.status == "checked"
        assert checked.answer_consistency.checked_minds == PRICING_MINDS

        first = answered[0]
        assert first.message_id is not None
        answers = await h.minds.get_message_answers(PRICING_STUDY, first.message_id)
        assert answers.message_id == first.message_id
        assert len(answers.output_data["answers"]) == PRICING_MINDS


async def test_spent_allowance_refuses_to_start_and_nothing_runs(h: Harness) -> None:
    plan = await _ready_plan(h)
    await h.set_allowance(0)
    runs_before = h.run_count()

    with pytest.raises(PlanLimitError) as refused:
        await h.minds.start_research_run(
            PRICING_STUDY, draft_plan_id=plan.draft_plan_id, revision=plan.revision, idempotency_key=str(uuid.uuid4())
        )
    with pytest.raises(PlanLimitError):
        await h.minds.start_direct_run(
            PRICING_STUDY, question="Would you pay for this?", client_request_id=str(uuid.uuid4())
        )

    error = refused.value
    assert (error.limit_type, error.limit, error.current_plan) == ("responses", 0, "premium")
    assert error.period_end is not None
    assert h.run_count() == runs_before


async def test_allowance_running_out_mid_run_keeps_finished_questions(h: Harness) -> None:
    plan = await _ready_plan(h, "What would IT leads pay for a managed audit subscription, in 4 questions")
    assert not any(q.ask_if for q in plan.questions)  # every question is asked of every Mind
    await h.set_allowance(2 * PRICING_MINDS + 5)  # two questions' answers, not a third

    started = await h.minds.start_research_run(
        PRICING_STUDY, draft_plan_id=plan.draft_plan_id, revision=plan.revision, idempotency_key=str(uuid.uuid4())
    )
    run = await _run_to_end(h, started.run_id)

    assert run.status == "plan_limited"
    assert run.questions_completed == 2 and len(run.artifacts) == 2
    assert all(a.kind == "response" and a.response_coverage is not None for a in run.artifacts)


async def test_dropped_answers_end_partial_with_the_missing_minds_named(h: Harness) -> None:
    plan = await _ready_plan(h, "Check appetite for a vendor risk dashboard, in 4 questions")  # none routed
    await h.set_faults(drop_answer_rate=0.3)

    started = await h.minds.start_research_run(
        PRICING_STUDY, draft_plan_id=plan.draft_plan_id, revision=plan.revision, idempotency_key=str(uuid.uuid4())
    )
    run = await _run_to_end(h, started.run_id)

    assert run.status == "partial"
    short = [a for a in run.artifacts if a.response_coverage and a.response_coverage.missing]
    assert short and run.progress is not None and run.progress.partial == len(short)
    for artifact in short:
        coverage = artifact.response_coverage
        assert coverage is not None and coverage.expected == PRICING_MINDS
        assert coverage.received == PRICING_MINDS - len(coverage.missing)
        assert all(m.mind_id and m.audience_id for m in coverage.missing)


async def test_direct_question_runs_once_and_its_answers_can_be_read(h: Harness) -> None:
    request_id = str(uuid.uuid4())
    question = "Would you pay $30 per seat per month for priority support?"

    accepted = await h.minds.start_direct_run(PRICING_STUDY, question=question, client_request_id=request_id)
    repeat = await h.minds.start_direct_run(PRICING_STUDY, question=question, client_request_id=request_id)

    assert isinstance(accepted, DirectRunAccepted) and isinstance(repeat, DirectRunAccepted)
    assert repeat.run_id == accepted.run_id and accepted.client_request_id == request_id
    run = await _direct_to_end(h, accepted.run_id)
    assert run.status == "completed" and run.message_id
    answers = await h.minds.get_message_answers(PRICING_STUDY, run.message_id)
    assert len(answers.output_data["answers"]) == PRICING_MINDS
    assert {a["value"] for a in answers.output_data["answers"]} <= {"Yes", "No"}
    recent = await h.minds.list_study_runs(PRICING_STUDY, limit=5)
    assert recent[0].run_id == accepted.run_id and recent[0].status == "completed"


async def test_a_questionnaire_sent_as_one_question_needs_planning(h: Harness) -> None:
    runs_before = h.run_count()

    outcome = await h.minds.start_direct_run(
        PRICING_STUDY,
        question="1. Would you switch vendors for a 10% discount?\n2. What would make you stay?",
        client_request_id=str(uuid.uuid4()),
    )

    assert isinstance(outcome, PlanningRequired) and outcome.reason
    assert h.run_count() == runs_before
