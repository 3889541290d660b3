"""Retries: only GETs and keyed calls, same key and bytes, bounded, Retry-After honoured up to a cap."""

from __future__ import annotations

import httpx
import pytest

from minds_bot.minds import (
    NotFound,
    PlanPreviewRequest,
    RateLimited,
    RetryPolicy,
    ServerError,
    ServiceUnavailable,
)
from tests.fakes.minds_http import FakeMindsAPI, envelope, make_client, ok
from tests.minds.samples import PLAN_ID, RUN_ID, STUDY_ID, plan, uid

RUNS = f"/studies/{STUDY_ID}/research-runs"
KEY = uid(555)


async def test_keyed_post_retry_sends_same_key_and_identical_body(api, client):
    api.on("POST", RUNS, envelope(503), httpx.Response(502), ok({"runId": RUN_ID, "status": "queued"}))
    started = await client.start_research_run(STUDY_ID, draft_plan_id=PLAN_ID, revision=3, idempotency_key=KEY)
    assert started.run_id == RUN_ID
    sent = api.to("POST", RUNS)
    assert len(sent) == 3
    assert len({s.body for s in sent}) == 1
    assert sent[0].json()["idempotencyKey"] == KEY


async def test_header_keyed_retry_reuses_the_header(api, client):
    path = f"/studies/{STUDY_ID}/research-plans/preview"
    api.on("POST", path, httpx.Response(500), ok(plan()))
    await client.preview_plan(STUDY_ID, PlanPreviewRequest(request="Test the launch"), idempotency_key="k-42")
    sent = api.to("POST", path)
    assert [s.headers["idempotency-key"] for s in sent] == ["k-42", "k-42"]
    assert sent[0].body == sent[1].body


@pytest.mark.parametrize("reply", [envelope(503), httpx.Response(500), envelope(429)])
async def test_post_without_key_is_never_retried(api, client, reply):
    api.on("POST", "/studies", reply, ok({}))
    with pytest.raises((ServerError, RateLimited)):
        await client.create_study(name="Launch")
    assert len(api.to("POST", "/studies")) == 1
    assert api.clock.sleeps == []


async def test_export_start_without_key_is_not_retried(api, client):
    api.on("POST", f"/studies/{STUDY_ID}/export", envelope(503))
    with pytest.raises(ServiceUnavailable):
        await client.start_export(STUDY_ID, kind="full_report", format="pdf")
    assert len(api.sent) == 1


async def test_get_retries_are_bounded():
    api = FakeMindsAPI().on("GET", "/auth/me", envelope(500))
    async with make_client(api, retry=RetryPolicy(max_attempts=3)) as minds:
        with pytest.raises(ServerError):
            await minds.me()
    assert len(api.sent) == 3
    assert len(api.clock.sleeps) == 2


async def test_client_errors_are_not_retried(api, client):
    api.on("GET", "/auth/me", envelope(404))
    with pytest.raises(NotFound):
        await client.me()
    assert len(api.sent) == 1


async def test_timeouts_on_gets_are_retried(api, client):
    def slow(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("slow", request=request)

    api.on("GET", "/auth/me", slow, httpx.Response(200, json={"id": uid(9)}))
    assert (await client.me()).id == uid(9)
    assert len(api.sent) == 2


async def test_retry_after_within_cap_is_waited_exactly():
    api = FakeMindsAPI().on(
        "GET",
        "/auth/me",
        envelope(429, headers={"Retry-After": "7"}),
        httpx.Response(200, json={"id": uid(9)}),
    )
    async with make_client(api, retry=RetryPolicy(retry_after_cap=30)) as minds:
        await minds.me()
    assert api.clock.sleeps == [7.0]
    assert api.sent[1].at - api.sent[0].at == 7.0


async def test_retry_after_beyond_cap_is_not_waited_and_reported():
    api = FakeMindsAPI().on(
        "GET",
        "/auth/me",
        envelope(503, headers={"Retry-After": "600"}),
        httpx.Response(200, json={"id": uid(9)}),
    )
    async with make_client(api, retry=RetryPolicy(retry_after_cap=30)) as minds:
        with pytest.raises(ServiceUnavailable) as caught:
            await minds.me()
    assert caught.value.retry_after == 600.0
    assert len(api.sent) == 1
    assert api.clock.sleeps == []


async def test_backoff_grows_exponentially_with_jitter():
    api = FakeMindsAPI().on("GET", "/auth/me", envelope(500))
    policy = RetryPolicy(max_attempts=5, base_delay=1.0, max_delay=4.0)
    async with make_client(api, retry=policy) as minds:
        with pytest.raises(ServerError):
            await minds.me()
    ceilings = [1.0, 2.0, 4.0, 4.0]
    assert len(api.clock.sleeps) == 4
    for slept, ceiling in zip(api.clock.sleeps, ceilings, strict=True):
        assert ceiling / 2 <= slept <= ceiling
    assert len(set(api.clock.sleeps)) == 4  # jittered, not a fixed schedule
