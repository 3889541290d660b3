"""Plan preparation: 200 plans parsed tolerantly, 202 receipts observed with the same key and bytes."""

from __future__ import annotations

import json

import pytest

from minds_bot.minds import MalformedResponse, PlanPending, PlanPreviewRequest, ResearchPlan
from tests.fakes.minds_http import ok
from tests.minds.samples import PLAN_ID, STUDY_ID, plan, receipt, uid

PREVIEW = f"/studies/{STUDY_ID}/research-plans/preview"
NEW = PlanPreviewRequest(request="Test three launch messages with parents", study_locale="en")


async def test_completed_plan_is_returned_as_saved(api, client):
    api.on("POST", PREVIEW, ok(plan(revision=3)))
    result = await client.preview_plan(STUDY_ID, NEW, idempotency_key="key-1")
    assert isinstance(result, ResearchPlan)
    assert (result.draft_plan_id, result.revision) == (PLAN_ID, 3)
    assert [q.id for q in result.questions_in(result.modules[0])] == ["q1", "q2"]
    assert result.questions[1].ask_if.answer_in == ["Yes"]
    assert result.confirmation_questions[0].options == ["Yes", "No"]
    assert result.framing_warnings == ["Question 3 leads the respondent"]
    sent = api.sent[0]
    assert sent.headers["idempotency-key"] == "key-1"
    assert sent.json() == {"request": "Test three launch messages with parents", "studyLocale": "en"}


async def test_tolerated_plan_alternatives(api, client):
    data = plan(
        confirmationQuestions=["Show the price?", {"id": "cq9", "text": "Which market?"}],
        futureField={"x": 1},
    )
    del data["modules"]
    api.on("POST", PREVIEW, ok(data))
    result = await client.preview_plan(STUDY_ID, NEW, idempotency_key="key-1")
    first, second = result.confirmation_questions
    assert (first.id, first.text, first.free_text) == ("1", "Show the price?", True)
    assert (second.id, second.free_text) == ("cq9", True)
    [module] = result.modules
    assert [q.id for q in result.questions_in(module)] == ["q1", "q2"]


@pytest.mark.parametrize("missing", ["draftPlanId", "revision", "questions"])
async def test_plan_without_required_piece_is_malformed(api, client, missing):
    data = plan()
    del data[missing]
    api.on("POST", PREVIEW, ok(data))
    with pytest.raises(MalformedResponse):
        await client.preview_plan(STUDY_ID, NEW, idempotency_key="key-1")


async def test_unknown_response_type_is_malformed(api, client):
    data = plan()
    data["questions"][0]["response"]["type"] = "rank_everything"
    api.on("POST", PREVIEW, ok(data))
    with pytest.raises(MalformedResponse, match="questions"):
        await client.preview_plan(STUDY_ID, NEW, idempotency_key="key-1")


async def test_202_is_observed_with_the_same_key_and_body(api, client):
    api.on(
        "POST",
        PREVIEW,
        ok(receipt(stage="drafting"), status=202),
        ok(receipt(stage="checking"), status=202),
        ok(plan(revision=1)),
    )
    result = await client.preview_plan(STUDY_ID, NEW, idempotency_key="key-7", wait_seconds=60)
    assert isinstance(result, ResearchPlan)
    sent = api.to("POST", PREVIEW)
    assert len(sent) == 3
    assert {s.headers["idempotency-key"] for s in sent} == {"key-7"}
    assert len({s.body for s in sent}) == 1
    assert "x-minds-study-plan-request-id" not in sent[0].headers
    for s in sent[1:]:
        assert s.headers["x-minds-study-plan-request-id"] == "plan-reusable-cup-01"
        assert s.headers["x-minds-study-plan-operation-id"] == uid(77)
    assert all(0.8 <= d <= 10 for d in api.clock.sleeps)


async def test_observation_backs_off_to_ten_seconds(api, client):
    api.on("POST", PREVIEW, ok(receipt(), status=202))
    result = await client.preview_plan(STUDY_ID, NEW, idempotency_key="key-7", wait_seconds=120)
    assert isinstance(result, PlanPending)
    sleeps = api.clock.sleeps
    assert 0.8 <= sleeps[0] <= 1.2
    assert max(sleeps) <= 10 and sleeps[-1] >= 8
    assert api.clock.now <= 120


async def test_deadline_returns_resumable_receipt_and_resume_keeps_the_key(api, client):
    api.on("POST", PREVIEW, ok(receipt(stage="drafting"), status=202))
    pending = await client.preview_plan(STUDY_ID, NEW, idempotency_key="key-9", wait_seconds=5)
    assert isinstance(pending, PlanPending)
    assert (pending.request_id, pending.operation_id, pending.stage) == (
        "plan-reusable-cup-01",
        uid(77),
        "drafting",
    )
    assert pending.idempotency_key == "key-9"
    stored = PlanPending.model_validate_json(pending.model_dump_json())  # as the store would keep it

    api.set("POST", PREVIEW, ok(plan(revision=2)))  # preparation finished meanwhile
    result = await client.resume_plan(stored)
    assert isinstance(result, ResearchPlan) and result.revision == 2
    sent = api.to("POST", PREVIEW)
    assert {s.headers["idempotency-key"] for s in sent} == {"key-9"}
    assert len({s.body for s in sent}) == 1
    assert sent[-1].headers["x-minds-study-plan-request-id"] == "plan-reusable-cup-01"


async def test_receipt_without_request_id_is_malformed(api, client):
    bad = receipt()
    del bad["requestId"]
    api.on("POST", PREVIEW, ok(bad, status=202))
    with pytest.raises(MalformedResponse):
        await client.preview_plan(STUDY_ID, NEW, idempotency_key="key-1")


async def test_revision_with_answers_and_load_latest_bodies(api, client):
    api.on("POST", PREVIEW, ok(plan(revision=4)))
    revise = PlanPreviewRequest(draft_plan_id=PLAN_ID, revision=3, answers={"cq1": "Yes"}, refinement="Shorter")
    await client.preview_plan(STUDY_ID, revise, idempotency_key="key-r")
    await client.preview_plan(
        STUDY_ID, PlanPreviewRequest(draft_plan_id=PLAN_ID, load_latest=True), idempotency_key="key-l"
    )
    assert api.sent[0].json() == {
        "draftPlanId": PLAN_ID,
        "revision": 3,
        "answers": {"cq1": "Yes"},
        "refinement": "Shorter",
    }
    assert json.loads(api.sent[1].body) == {"draftPlanId": PLAN_ID, "loadLatest": True}


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"refinement": "x"}, {"draft_plan_id": PLAN_ID, "load_latest": True, "request": "x"}],
    ids=["nothing", "revise-without-draft", "reload-with-planner-input"],
)
def test_incoherent_preview_requests_are_refused_before_sending(kwargs):
    with pytest.raises(ValueError):
        PlanPreviewRequest(**kwargs)


async def test_blank_or_long_idempotency_key_is_refused(api, client):
    for key in ("  ", "k" * 201):
        with pytest.raises(ValueError):
            await client.preview_plan(STUDY_ID, NEW, idempotency_key=key)
    assert api.sent == []
