"""Research and direct runs: routing, coverage, revisions, consistency, cancelling, summary, sharing."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import httpx
import pytest

from minds_sandbox import RunningSandbox
from minds_sandbox.routes_tools import CONNECTIONS
from minds_sandbox_tests.helpers import (
    LAUNCH_STUDY,
    PRICING_STUDY,
    confirm,
    finish_run,
    generation_started,
    plan,
    planned_revision,
)

OWNS_CAR = [
    {
        "id": "owns_car",
        "text": "Do you own a car?",
        "response": {"type": "categorical", "categoricalOptions": ["Yes", "No"]},
    },
    {
        "id": "car_brand",
        "text": "Which brand is it?",
        "response": {"type": "qualitative"},
        "askIf": {"questionId": "owns_car", "answerIn": ["Yes"]},
    },
    {"id": "commute", "text": "How do you commute?", "response": {"type": "qualitative"}},
]


async def fixed(client: httpx.AsyncClient, questions: list[dict[str, Any]]) -> httpx.Response:
    return await plan(client, LAUNCH_STUDY, {"questions": questions}, key=str(uuid.uuid4()))


async def test_askif_routes_only_matching_minds(client: httpx.AsyncClient, sandbox: RunningSandbox) -> None:
    revision = (await fixed(client, OWNS_CAR)).json()["data"]
    assert [q["id"] for q in revision["questions"]] == ["owns_car", "car_brand", "commute"]
    run_id = (await confirm(client, LAUNCH_STUDY, revision)).json()["data"]["runId"]
    run = await finish_run(client, sandbox, LAUNCH_STUDY, run_id)
    gate, routed = run["artifacts"][0], run["artifacts"][1]
    yes = next(d["count"] for d in gate["outputData"]["distribution"] if d["option"] == "Yes")
    assert 0 < yes < gate["outputData"]["responseCount"]
    assert routed["routing"]["askedCount"] == yes
    assert len(routed["routing"]["notAskedMindIds"]) == gate["outputData"]["responseCount"] - yes
    assert routed["outputData"]["responseCoverage"]["expected"] == yes
    assert run["status"] == "completed"


async def test_item_nobody_is_asked_settles_not_asked(client: httpx.AsyncClient, sandbox: RunningSandbox) -> None:
    # answerNotIn every option: no Mind's answer qualifies, so nobody is asked the second item.
    questions = [
        OWNS_CAR[0],
        dict(OWNS_CAR[1], askIf={"questionId": "owns_car", "answerNotIn": ["Yes", "No"]}),
    ]
    revision = (await fixed(client, questions)).json()["data"]
    run_id = (await confirm(client, LAUNCH_STUDY, revision)).json()["data"]["runId"]
    run = await finish_run(client, sandbox, LAUNCH_STUDY, run_id)
    assert run["artifacts"][1]["kind"] == "not_asked"
    assert run["progress"]["skipped"] == 1 and run["status"] == "completed"


@pytest.mark.parametrize(
    ("condition", "fragment"),
    [
        ({"questionId": "owns_car"}, "exactly one of answerIn or answerNotIn"),
        ({"questionId": "owns_car", "answerIn": ["Yes"], "answerNotIn": ["No"]}, "exactly one"),
        ({"questionId": "nope", "answerIn": ["Yes"]}, "not a question in this plan"),
        ({"questionId": "commute", "answerIn": ["Yes"]}, "not an earlier question"),
        ({"questionId": "owns_car", "answerIn": ["Sometimes"]}, 'option "Sometimes" is not offered'),
    ],
)
async def test_fixed_instrument_with_bad_askif_is_400(
    client: httpx.AsyncClient, condition: dict, fragment: str
) -> None:
    questions = [OWNS_CAR[0], dict(OWNS_CAR[1], askIf=condition), OWNS_CAR[2]]
    response = await fixed(client, questions)
    assert response.status_code == 400
    assert response.json()["message"].startswith("Fixed instrument is not executable as given: ")
    assert fragment in response.json()["message"] and "car_brand" in response.json()["message"]


async def test_gate_that_is_not_a_choice_question_is_400(client: httpx.AsyncClient) -> None:
    questions = [OWNS_CAR[2], dict(OWNS_CAR[1], askIf={"questionId": "commute", "answerIn": ["Yes"]})]
    response = await fixed(client, questions)
    assert response.status_code == 400 and "not a categorical or multiselect" in response.json()["message"]


async def test_confirm_revalidates_conditions(client: httpx.AsyncClient) -> None:
    revision = (await fixed(client, OWNS_CAR)).json()["data"]
    changed = await plan(
        client,
        LAUNCH_STUDY,
        {
            "draftPlanId": revision["draftPlanId"],
            "revision": 1,
            "questionResponses": {"owns_car": {"type": "qualitative"}},
        },
    )
    assert changed.status_code == 200
    refused = await confirm(client, LAUNCH_STUDY, changed.json()["data"])
    assert refused.status_code == 400
    assert refused.json()["message"].startswith("Invalid question conditions: ")


async def test_stale_and_reused_revisions_conflict(client: httpx.AsyncClient) -> None:
    first = await planned_revision(client, LAUNCH_STUDY, "Test a limited sneaker colourway")
    second = await plan(
        client,
        LAUNCH_STUDY,
        {
            "draftPlanId": first["draftPlanId"],
            "revision": 1,
            "refinement": "Would you queue overnight for it?",
        },
    )
    assert second.json()["data"]["revision"] == 2
    assert second.json()["data"]["questions"][-1]["text"] == "Would you queue overnight for it?"
    stale_revise = await plan(
        client,
        LAUNCH_STUDY,
        {"draftPlanId": first["draftPlanId"], "revision": 1, "refinement": "focus on price"},
    )
    assert stale_revise.status_code == 409 and stale_revise.json()["data"]["latestRevision"] == 2
    assert (await confirm(client, LAUNCH_STUDY, first)).status_code == 409
    latest = await plan(client, LAUNCH_STUDY, {"draftPlanId": first["draftPlanId"], "loadLatest": True})
    assert latest.json()["data"]["revision"] == 2
    assert (await confirm(client, LAUNCH_STUDY, latest.json()["data"])).status_code == 200
    again = await confirm(client, LAUNCH_STUDY, latest.json()["data"])
    assert again.status_code == 409 and again.json()["data"]["code"] == "REVISION_ALREADY_CONFIRMED"


async def test_dropped_answers_make_a_partial_run(client: httpx.AsyncClient, sandbox: RunningSandbox) -> None:
    async with httpx.AsyncClient() as control:
        await control.put(f"{sandbox.origin}/_sandbox/faults", json={"drop_answer_rate": 0.3})
    revision = await planned_revision(client, LAUNCH_STUDY, "Test a solar phone charger")
    run = await finish_run(
        client, sandbox, LAUNCH_STUDY, (await confirm(client, LAUNCH_STUDY, revision)).json()["data"]["runId"]
    )
    assert run["status"] == "partial"
    coverage = [a["outputData"]["responseCoverage"] for a in run["artifacts"] if a["kind"] == "response"]
    assert all(c["received"] + len(c["missing"]) == c["expected"] for c in coverage)
    assert run["progress"]["partial"] == sum(1 for c in coverage if c["missing"]) > 0
    assert run["progress"]["pct"] == 100


async def test_answer_consistency_arrives_after_completion(client: httpx.AsyncClient, sandbox: RunningSandbox) -> None:
    revision = await planned_revision(client, LAUNCH_STUDY, "Test a subscription for sneaker cleaning")
    run_id = (await confirm(client, LAUNCH_STUDY, revision)).json()["data"]["runId"]
    run = await finish_run(client, sandbox, LAUNCH_STUDY, run_id)
    assert run["status"] == "completed" and "answerConsistency" not in run
    sandbox.advance(sandbox.runtime.engine.step)
    later = (await client.get(f"/studies/{LAUNCH_STUDY}/research-runs/{run_id}")).json()["data"]
    consistency = later["answerConsistency"]
    assert consistency["status"] == "checked" and consistency["checkedMinds"] == 28
    flags = [f for a in later["artifacts"] for f in a.get("answerConsistency", {}).get("flags", [])]
    assert len(flags) == 2 * consistency["flagCount"]


async def test_direct_run_and_its_answers(client: httpx.AsyncClient, sandbox: RunningSandbox) -> None:
    request_id = str(uuid.uuid4())
    body = {"question": "Would you pay for priority support?", "clientRequestId": request_id}
    accepted = await client.post(f"/studies/{PRICING_STUDY}/runs", json=body)
    assert accepted.status_code == 202
    run_id = accepted.json()["data"]["runId"]
    replay = await client.post(f"/studies/{PRICING_STUDY}/runs", json=body)
    assert replay.json()["data"]["runId"] == run_id
    reused = await client.post(f"/studies/{PRICING_STUDY}/runs", json={**body, "question": "Other?"})
    assert reused.status_code == 409
    sandbox.advance(5 * sandbox.runtime.engine.step)
    run = (await client.get(f"/runs/{run_id}")).json()["data"]
    assert run["status"] == "completed"
    answers = (await client.get(f"/studies/{PRICING_STUDY}/messages/{run['messageId']}/answers")).json()
    assert len(answers["outputData"]["answers"]) == 10
    listed = (await client.get(f"/studies/{PRICING_STUDY}/runs", params={"limit": 1})).json()
    assert listed["data"][0]["runId"] == run_id and listed["pagination"]["hasMore"] is True


async def test_a_brief_in_a_direct_run_needs_planning(client: httpx.AsyncClient) -> None:
    response = await client.post(
        f"/studies/{PRICING_STUDY}/runs", json={"question": "Is it too expensive? Would you switch vendors?"}
    )
    assert response.status_code == 200
    assert response.json()["data"]["status"] == "planning_required"


async def test_cancel_stops_a_live_run(client: httpx.AsyncClient, sandbox: RunningSandbox) -> None:
    revision = await planned_revision(client, LAUNCH_STUDY, "Test a foldable e-bike")
    run_id = (await confirm(client, LAUNCH_STUDY, revision)).json()["data"]["runId"]
    duplicate = await client.post(f"/studies/{LAUNCH_STUDY}/duplicate", headers={"Idempotency-Key": "k1"})
    assert duplicate.status_code == 409 and duplicate.json()["data"]["code"] == "STUDY_RUN_IN_PROGRESS"
    cancelled = await client.post(f"/runs/{run_id}/cancel")
    assert cancelled.json()["data"]["status"] == "cancelled"
    sandbox.advance(20 * sandbox.runtime.engine.step)
    run = (await client.get(f"/studies/{LAUNCH_STUDY}/research-runs/{run_id}")).json()["data"]
    assert run["status"] == "cancelled" and run["progress"]["settled"] == 0
    assert (await client.post(f"/runs/{run_id}/cancel")).status_code == 409


async def test_duplicate_study_is_idempotent(client: httpx.AsyncClient) -> None:
    headers = {"Idempotency-Key": str(uuid.uuid4())}
    first = await client.post(f"/studies/{LAUNCH_STUDY}/duplicate", headers=headers, json={})
    second = await client.post(f"/studies/{LAUNCH_STUDY}/duplicate", headers=headers, json={})
    assert (first.status_code, second.status_code) == (201, 200)
    assert first.json()["data"]["id"] == second.json()["data"]["id"]
    assert first.json()["data"]["name"] == "Launch positioning (copy)"
    copy = (await client.get(f"/studies/{first.json()['data']['id']}")).json()["data"]
    assert len(copy["messages"]) > 0 and copy["isLinkSharingEnabled"] is False


async def test_sharing_url_only_while_active(client: httpx.AsyncClient) -> None:
    on = (await client.put(f"/studies/{LAUNCH_STUDY}/sharing", json={"isLinkSharingEnabled": True})).json()["data"]
    assert on["isLinkSharingEnabled"] is True and on["sharedStudyUrl"].endswith(on["publicShareId"])
    off = (await client.put(f"/studies/{LAUNCH_STUDY}/sharing", json={"isLinkSharingEnabled": False})).json()["data"]
    assert off["publicShareId"] == on["publicShareId"] and "sharedStudyUrl" not in off
    bad = await client.put(f"/studies/{LAUNCH_STUDY}/sharing", json={"isLinkSharingEnabled": "yes"})
    assert bad.status_code == 400


async def test_superseded_summary_generation_is_409(client: httpx.AsyncClient, sandbox: RunningSandbox) -> None:
    older = asyncio.ensure_future(client.post(f"/studies/{PRICING_STUDY}/summary", json={"force": True}))
    await generation_started(sandbox, PRICING_STUDY, revision=2)
    newer = asyncio.ensure_future(client.post(f"/studies/{PRICING_STUDY}/summary", json={"force": True}))
    await generation_started(sandbox, PRICING_STUDY, revision=3)
    during = (await client.get(f"/studies/{PRICING_STUDY}/summary")).json()["data"]
    assert during["isGenerating"] is True
    sandbox.advance(sandbox.runtime.engine.step)
    first, second = await asyncio.wait_for(asyncio.gather(older, newer), timeout=5)
    assert first.status_code == 409 and first.json()["data"]["code"] == "SUMMARY_SUPERSEDED"
    assert second.status_code == 200 and second.json()["data"]["revision"] == 3
    assert second.headers["Cache-Control"] == "private, no-store"
    extra = await client.post(f"/studies/{PRICING_STUDY}/summary", json={"force": True, "tone": "fun"})
    assert extra.status_code == 400
    huge = await client.post(f"/studies/{PRICING_STUDY}/summary", content=b"{" + b" " * 5000 + b"}")
    assert huge.status_code == 413


@pytest.mark.parametrize(
    ("pin", "code"),
    [
        ({"id": CONNECTIONS[1]["id"], "revision": 1}, "MODEL_CONNECTION_INVALID"),  # not verified
        ({"id": CONNECTIONS[0]["id"], "revision": 2}, "MODEL_CONNECTION_STALE"),  # changed since it was picked
        ({"id": str(uuid.uuid4()), "revision": 1}, "MODEL_CONNECTION_INVALID"),  # not this team's
    ],
    ids=["unverified", "stale revision", "unknown"],
)
async def test_a_run_pinned_to_a_model_connection_needs_it_verified_at_that_revision(
    client: httpx.AsyncClient, pin: dict[str, Any], code: str
) -> None:
    revision = (await fixed(client, OWNS_CAR)).json()["data"]
    body = {
        "draftPlanId": revision["draftPlanId"],
        "revision": revision["revision"],
        "confirmation": {"accepted": True},
        "idempotencyKey": str(uuid.uuid4()),
    }
    refused = await client.post(f"/studies/{LAUNCH_STUDY}/research-runs", json={**body, "modelConnection": pin})
    assert refused.status_code == 400 and refused.json()["data"]["code"] == code
    verified = {"id": CONNECTIONS[0]["id"], "revision": CONNECTIONS[0]["revision"]}
    started = await client.post(f"/studies/{LAUNCH_STUDY}/research-runs", json={**body, "modelConnection": verified})
    assert started.status_code == 200 and started.json()["data"]["runId"]


async def test_question_count_counts_every_question_of_a_research_run(
    client: httpx.AsyncClient, sandbox: RunningSandbox
) -> None:
    """Issue 34 row 9: a research run's one message lists all its questions; Minds counts each of them."""

    async def counted() -> tuple[int, int]:
        listed = (await client.get("/studies", params={"limit": 100})).json()["data"]
        summary = next(s for s in listed if s["id"] == LAUNCH_STUDY)
        detail = (await client.get(f"/studies/{LAUNCH_STUDY}")).json()["data"]
        assert detail["questionCount"] == summary["questionCount"]
        return summary["questionCount"], sum(1 for m in detail["messages"] if m["role"] == "user")

    before, messages = await counted()
    revision = (await fixed(client, OWNS_CAR)).json()["data"]
    await finish_run(
        client, sandbox, LAUNCH_STUDY, (await confirm(client, LAUNCH_STUDY, revision)).json()["data"]["runId"]
    )
    after, more_messages = await counted()
    assert (after - before, more_messages - messages) == (3, 1)
