"""Direct runs and research runs: every status, honest partial/plan-limited reads, routing and coverage."""

from __future__ import annotations

import pytest

from minds_bot.minds import (
    DirectRunAccepted,
    MalformedResponse,
    PlanLimitError,
    PlanningRequired,
)
from minds_bot.render.errors import minds_error_text
from tests.fakes.minds_http import envelope, ok, raw
from tests.minds.samples import MIND_ID, PLAN_ID, RUN_ID, STUDY_ID, research_run, uid

REQ = uid(321)


async def test_direct_run_accepted(api, client):
    api.on(
        "POST",
        f"/studies/{STUDY_ID}/runs",
        ok({"runId": RUN_ID, "status": "queued", "clientRequestId": REQ}, status=202),
    )
    result = await client.start_direct_run(STUDY_ID, question="Would you buy this?", client_request_id=REQ)
    assert isinstance(result, DirectRunAccepted) and result.run_id == RUN_ID
    body = api.sent[0].json()
    assert body == {"question": "Would you buy this?", "clientRequestId": REQ, "routeResearchBrief": True}


async def test_direct_run_planning_required_starts_nothing(api, client):
    api.on("POST", f"/studies/{STUDY_ID}/runs", ok({"status": "planning_required", "reason": "broad brief"}))
    result = await client.start_direct_run(STUDY_ID, question="Research our market", client_request_id=REQ)
    assert isinstance(result, PlanningRequired) and result.reason == "broad brief"


async def test_direct_run_id_must_be_uuid(client):
    with pytest.raises(ValueError):
        await client.start_direct_run(STUDY_ID, question="q", client_request_id="not-a-uuid")


async def test_agent_run_status_cancel_answers_and_recent_runs(api, client):
    api.on("GET", f"/runs/{RUN_ID}", ok({"id": RUN_ID, "status": "completed", "messageId": "msg1"}))
    api.on("POST", f"/runs/{RUN_ID}/cancel", ok({"status": "cancelled"}))
    api.on(
        "GET",
        f"/studies/{STUDY_ID}/messages/msg1/answers",
        raw({"messageId": "msg1", "outputData": {"a": 1}}),
    )
    api.on("GET", f"/studies/{STUDY_ID}/runs", raw({"data": [{"runId": RUN_ID, "status": "running"}]}))
    run = await client.get_run(RUN_ID)
    assert run.is_terminal and run.message_id == "msg1"
    assert (await client.cancel_run(RUN_ID)).status == "cancelled"
    assert (await client.get_message_answers(STUDY_ID, "msg1")).output_data == {"a": 1}
    [recent] = await client.list_study_runs(STUDY_ID, limit=5)
    assert recent.status == "running" and not recent.is_terminal
    assert api.to("GET", f"/studies/{STUDY_ID}/runs")[0].params == {"limit": "5"}


async def test_recent_runs_without_data_list_is_malformed(api, client):
    api.on("GET", f"/studies/{STUDY_ID}/runs", raw({"runs": []}))
    with pytest.raises(MalformedResponse):
        await client.list_study_runs(STUDY_ID)


async def test_research_run_started_accepts_id_alias(api, client):
    api.on(
        "POST",
        f"/studies/{STUDY_ID}/research-runs",
        ok({"id": RUN_ID, "status": "queued", "draftPlanId": PLAN_ID, "revision": 3, "questionCount": 12}),
    )
    started = await client.start_research_run(
        STUDY_ID, draft_plan_id=PLAN_ID, revision=3, idempotency_key=uid(8), advanced_method_opt_in=True
    )
    assert (started.run_id, started.question_count) == (RUN_ID, 12)
    assert api.sent[0].json()["confirmation"] == {"accepted": True, "advancedMethodOptIn": True}


async def test_research_run_refused_by_plan_limit_is_not_queued(api, client):
    api.on(
        "POST",
        f"/studies/{STUDY_ID}/research-runs",
        envelope(403, code="PLAN_LIMIT", data={"limitType": "responses", "currentPlan": "free", "limit": 50}),
    )
    with pytest.raises(PlanLimitError) as caught:
        await client.start_research_run(STUDY_ID, draft_plan_id=PLAN_ID, revision=3, idempotency_key=uid(8))
    assert "upgrade" in minds_error_text(caught.value).lower()
    assert len(api.sent) == 1  # a refusal is not retried


async def test_partial_run_keeps_coverage_routing_and_consistency(api, client):
    api.on("GET", f"/studies/{STUDY_ID}/research-runs/{RUN_ID}", ok(research_run("partial")))
    run = await client.get_research_run(STUDY_ID, RUN_ID)
    assert run.is_terminal and run.status == "partial"
    assert run.progress.partial == 1 and run.questions_completed == 3
    answered, routed = run.artifacts
    assert answered.response_coverage.expected == 8 and answered.response_coverage.received == 7
    assert answered.response_coverage.missing[0].mind_id == MIND_ID
    assert answered.answer_consistency.flags[0].with_item == 2
    assert routed.not_asked and routed.routing.not_asked_count == 8 and routed.response_coverage is None
    assert run.answer_consistency.flagged_minds == 1


@pytest.mark.parametrize(
    ("status", "terminal"),
    [
        ("queued", False),
        ("running", False),
        ("completed", True),
        ("failed", True),
        ("cancelled", True),
        ("plan_limited", True),
    ],
)
async def test_every_research_status_is_read(api, client, status, terminal):
    data = research_run(status)
    del data["completedQuestions"]
    api.on("GET", f"/studies/{STUDY_ID}/research-runs/{RUN_ID}", ok(data))
    run = await client.get_research_run(STUDY_ID, RUN_ID)
    assert run.status == status and run.is_terminal is terminal
    assert run.questions_completed == 3  # from progress.settled when completedQuestions is absent


@pytest.mark.parametrize(
    "mutate",
    [
        lambda d: d.pop("status"),
        lambda d: d.update(status="done"),
        lambda d: d["artifacts"][0]["outputData"]["responseCoverage"].pop("expected"),
        lambda d: d["artifacts"][1]["routing"].pop("gateQuestionId"),
    ],
    ids=["no-status", "unknown-status", "coverage-without-expected", "routing-without-gate"],
)
async def test_malformed_research_run_raises(api, client, mutate):
    data = research_run()
    mutate(data)
    api.on("GET", f"/studies/{STUDY_ID}/research-runs/{RUN_ID}", ok(data))
    with pytest.raises(MalformedResponse):
        await client.get_research_run(STUDY_ID, RUN_ID)


async def test_old_artifact_without_coverage_is_unknown_not_complete(api, client):
    data = research_run("completed")
    del data["artifacts"][0]["outputData"]["responseCoverage"]
    del data["answerConsistency"]  # may arrive shortly after completed
    api.on("GET", f"/studies/{STUDY_ID}/research-runs/{RUN_ID}", ok(data))
    run = await client.get_research_run(STUDY_ID, RUN_ID)
    assert run.artifacts[0].response_coverage is None
    assert run.answer_consistency is None
