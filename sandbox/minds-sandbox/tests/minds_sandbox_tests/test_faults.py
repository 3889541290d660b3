"""Fault knobs, set by config or through /_sandbox/faults, change what a client sees."""

from __future__ import annotations

import uuid

import httpx
import pytest

from minds_sandbox import Faults, ManualClock, RunningSandbox, SandboxConfig
from minds_sandbox_tests.conftest import OTHER_KEY, ContractLog, make_client, sandbox_client
from minds_sandbox_tests.helpers import LAUNCH_STUDY, plan


async def put_faults(sandbox: RunningSandbox, **knobs: object) -> httpx.Response:
    async with httpx.AsyncClient() as control:
        return await control.put(f"{sandbox.origin}/_sandbox/faults", json=knobs)


async def test_latency_is_added_to_every_api_request() -> None:
    slept: list[float] = []

    async def record(seconds: float) -> None:
        slept.append(seconds)

    config = SandboxConfig(faults=Faults(latency_ms=250))
    async with sandbox_client(config, clock=ManualClock(), sleep=record) as (sandbox, client):
        await client.get("/studies")
        await client.get("/auth/me")
    assert slept == [0.25, 0.25]


async def test_throttle_answers_429_with_retry_after(client: httpx.AsyncClient, sandbox: RunningSandbox) -> None:
    assert (await put_faults(sandbox, throttle_rate=1.0, retry_after_seconds=7)).status_code == 200
    response = await client.get("/studies")
    assert response.status_code == 429
    assert response.headers["Retry-After"] == "7"
    assert response.json()["data"]["code"] == "RATE_LIMITED"
    await put_faults(sandbox, throttle_rate=0.0)
    assert (await client.get("/studies")).status_code == 200


@pytest.mark.parametrize("mode", ["missing_pagination", "data_not_list", "empty_page"])
async def test_malformed_lists_break_list_bodies(sandbox: RunningSandbox, mode: str) -> None:
    await put_faults(sandbox, malformed_lists=mode)
    async with make_client(sandbox, ContractLog()) as client:
        body = (await client.get("/studies")).json()
    if mode == "missing_pagination":
        assert "pagination" not in body
    elif mode == "data_not_list":
        assert not isinstance(body["data"], list)
    else:
        assert body["data"] == [] and body["pagination"]["total"] > body["pagination"]["offset"]


async def test_plan_receipts_precede_the_saved_revision(client: httpx.AsyncClient, sandbox: RunningSandbox) -> None:
    await put_faults(sandbox, plan_receipts=2)
    key, body = str(uuid.uuid4()), {"request": "Gauge interest in a sneaker resale app"}
    receipts = [await plan(client, LAUNCH_STUDY, body, key=key) for _ in range(2)]
    assert [r.status_code for r in receipts] == [202, 202]
    receipt = receipts[0].json()["data"]
    assert receipt["status"] == "pending" and receipt["accepted"] is True
    headers = {
        "Idempotency-Key": key,
        "x-minds-study-plan-request-id": receipt["requestId"],
        "x-minds-study-plan-operation-id": receipt["operationId"],
    }
    done = await client.post(f"/studies/{LAUNCH_STUDY}/research-plans/preview", json=body, headers=headers)
    assert done.status_code == 200 and done.json()["data"]["replayed"] is False
    replay = await plan(client, LAUNCH_STUDY, body, key=key)
    assert replay.json()["data"]["replayed"] is True
    assert replay.json()["data"]["draftPlanId"] == done.json()["data"]["draftPlanId"]
    different = await plan(client, LAUNCH_STUDY, {"request": "Something else entirely"}, key=key)
    assert different.status_code == 409


async def test_error_rate_applies_per_route_glob(client: httpx.AsyncClient, sandbox: RunningSandbox) -> None:
    await put_faults(sandbox, error_rates={"GET /api/v1/studies": 1.0}, error_status=503)
    failed = await client.get("/studies")
    assert failed.status_code == 503 and failed.json()["error"] is True
    assert (await client.get("/audiences")).status_code == 200


async def test_invalid_fault_knobs_are_rejected_and_change_nothing(sandbox: RunningSandbox) -> None:
    response = await put_faults(sandbox, throttle_rate=3)
    assert response.status_code == 400 and response.json()["error"] is True
    assert (await put_faults(sandbox, no_such_knob=1)).status_code == 400
    assert sandbox.runtime.faults.throttle_rate == 0


async def test_rate_limit_per_key_with_headers() -> None:
    config = SandboxConfig(rate_limit_per_minute=3)
    async with (
        sandbox_client(config) as (sandbox, client),
        make_client(sandbox, ContractLog(), key=OTHER_KEY) as other,
    ):
        statuses = [(await client.get("/auth/me")) for _ in range(4)]
        assert [r.status_code for r in statuses] == [200, 200, 200, 429]
        assert [r.headers["RateLimit-Remaining"] for r in statuses] == ["2", "1", "0", "0"]
        assert statuses[0].headers["RateLimit-Limit"] == "3"
        assert int(statuses[3].headers["Retry-After"]) > 0
        assert (await other.get("/auth/me")).status_code == 200
        sandbox.advance(60)
        assert (await client.get("/auth/me")).status_code == 200


async def test_traffic_counts_each_keys_most_requests_in_any_sliding_window() -> None:
    """``/_sandbox/traffic`` is what the shared-budget proof reads: per key, every request, the most within any
    ``rate_window_seconds`` on the real clock (here a scripted one), and the 429s."""
    config = SandboxConfig(rate_limit_per_minute=5, rate_window_seconds=10)
    arrivals = iter([0.0, 4.0, 8.0, 12.0, 13.0, 14.0, 14.5, 30.0])
    async with (
        sandbox_client(config, clock=ManualClock()) as (sandbox, client),
        make_client(sandbox, ContractLog(), key=OTHER_KEY) as other,
    ):
        sandbox.runtime.monotonic = lambda: next(arrivals)
        statuses = [(await client.get("/auth/me")).status_code for _ in range(7)]
        await other.get("/auth/me")
        async with httpx.AsyncClient() as control:
            traffic = (await control.get(f"{sandbox.origin}/_sandbox/traffic")).json()
    assert statuses == [200, 200, 200, 200, 200, 429, 429]  # the sandbox's own minute is fixed, not sliding
    assert traffic["windowSeconds"] == 10
    counts = sorted(traffic["keys"].values(), key=lambda seen: seen["total"])
    # 8, 12, 13, 14 and 14.5 arrived within 10 s of each other; the other key is counted apart.
    assert counts == [
        {"total": 1, "maxInWindow": 1, "throttled": 0},
        {"total": 7, "maxInWindow": 5, "throttled": 2},
    ]
