"""Every error class, built from real envelope bodies, through the client's one status -> class map."""

from __future__ import annotations

import httpx
import pytest

from minds_bot.minds import (
    AuthenticationError,
    Conflict,
    InvalidRequest,
    MindsAPIError,
    MindsConnectionError,
    MindsTimeout,
    NotFound,
    PanelMindsNotReady,
    PermissionDenied,
    PlanLimitError,
    PlanPreviewRequest,
    RateLimited,
    RetryPolicy,
    ServerError,
    ServiceUnavailable,
    StaleRevision,
    StudyRunInProgress,
    SummarySuperseded,
)
from minds_bot.render.errors import minds_error_text
from tests.fakes.minds_http import FakeMindsAPI, envelope, fake_key, make_client
from tests.minds.samples import AUDIENCE_ID, MIND_ID, PLAN_ID, STUDY_ID

ONE_TRY = RetryPolicy(max_attempts=1)
NOT_READY = [{"mindId": MIND_ID, "name": "Ana", "audienceId": AUDIENCE_ID, "trainingStatus": "running"}]

CASES = [
    ("401", envelope(401, message="Unauthorized"), AuthenticationError, {}),
    (
        "403 plan limit",
        envelope(
            403,
            code="PLAN_LIMIT",
            data={
                "limitType": "responses",
                "currentPlan": "free",
                "limit": 100,
                "current": 100,
                "periodEnd": "2025-02-01T00:00:00Z",
            },
        ),
        PlanLimitError,
        {
            "limit_type": "responses",
            "current_plan": "free",
            "limit": 100,
            "current": 100,
            "period_end": "2025-02-01T00:00:00Z",
            "code": "PLAN_LIMIT",
        },
    ),
    ("403 plain", envelope(403), PermissionDenied, {"code": None}),
    ("403 mode cap", envelope(403, code="MODE_CAP"), PermissionDenied, {"code": "MODE_CAP"}),
    ("404", envelope(404), NotFound, {}),
    (
        "409 not ready",
        envelope(409, code="PANEL_MINDS_NOT_READY", data={"notReady": NOT_READY}),
        PanelMindsNotReady,
        {"code": "PANEL_MINDS_NOT_READY"},
    ),
    (
        "409 run in progress",
        envelope(409, code="STUDY_RUN_IN_PROGRESS"),
        StudyRunInProgress,
        {"code": "STUDY_RUN_IN_PROGRESS"},
    ),
    ("409 other", envelope(409, code="AUDIENCE_MINDS_SHARED"), Conflict, {"code": "AUDIENCE_MINDS_SHARED"}),
    (
        "400",
        envelope(400, message="Fixed instrument is not executable as given: q2"),
        InvalidRequest,
        {"server_message": "Fixed instrument is not executable as given: q2"},
    ),
    ("422", envelope(422), InvalidRequest, {"status_code": 422}),
    ("429", envelope(429, headers={"Retry-After": "12"}), RateLimited, {"retry_after": 12.0}),
    ("500", envelope(500), ServerError, {}),
    (
        "503",
        envelope(503, code="USAGE_METERING_UNAVAILABLE", headers={"Retry-After": "5"}),
        ServiceUnavailable,
        {"retry_after": 5.0, "code": "USAGE_METERING_UNAVAILABLE"},
    ),
    ("502 html", httpx.Response(502, text="<html>Bad gateway</html>"), ServerError, {"code": None}),
    ("404 empty body", httpx.Response(404), NotFound, {}),
    ("400 json list", httpx.Response(400, json=["odd"]), InvalidRequest, {}),
    (
        "402 addon",
        envelope(402, code="MARKETPLACE_ADDON_REQUIRED"),
        MindsAPIError,
        {"code": "MARKETPLACE_ADDON_REQUIRED"},
    ),
]


@pytest.mark.parametrize(("label", "reply", "cls", "fields"), CASES, ids=[c[0] for c in CASES])
async def test_error_envelope_maps_to_typed_error(label, reply, cls, fields):
    api = FakeMindsAPI().on("GET", f"/studies/{STUDY_ID}", reply)
    async with make_client(api, retry=ONE_TRY) as minds:
        with pytest.raises(cls) as caught:
            await minds.get_study(STUDY_ID)
    err = caught.value
    assert type(err) is cls
    assert err.status_code == reply.status_code
    assert str(err.request) == f"GET /studies/{STUDY_ID}"
    assert minds_error_text(err) and fake_key() not in str(err)
    for name, value in fields.items():
        assert getattr(err, name) == value


async def test_not_ready_minds_are_named():
    api = FakeMindsAPI().on(
        "GET",
        f"/studies/{STUDY_ID}",
        envelope(409, code="PANEL_MINDS_NOT_READY", data={"notReady": NOT_READY}),
    )
    async with make_client(api) as minds:
        with pytest.raises(PanelMindsNotReady) as caught:
            await minds.get_study(STUDY_ID)
    [mind] = caught.value.not_ready
    assert (mind.mind_id, mind.name, mind.training_status) == (MIND_ID, "Ana", "running")


async def test_summary_refresh_conflict_is_superseded(api, client):
    api.on("POST", f"/studies/{STUDY_ID}/summary", envelope(409))
    with pytest.raises(SummarySuperseded) as caught:
        await client.refresh_summary(STUDY_ID)
    assert "reload" in minds_error_text(caught.value).lower()


async def test_plan_revision_conflict_is_stale_revision(api, client):
    api.on("POST", f"/studies/{STUDY_ID}/research-plans/preview", envelope(409))
    request = PlanPreviewRequest(draft_plan_id=PLAN_ID, revision=2, refinement="shorter")
    with pytest.raises(StaleRevision):
        await client.preview_plan(STUDY_ID, request, idempotency_key="k-1")


@pytest.mark.parametrize(
    ("exc", "cls"),
    [(httpx.ConnectError("refused"), MindsConnectionError), (httpx.ReadTimeout("slow"), MindsTimeout)],
)
async def test_transport_errors_wrap_httpx_with_request_but_no_key(exc, cls):
    def boom(request: httpx.Request) -> httpx.Response:
        raise exc

    api = FakeMindsAPI().on("GET", "/auth/me", boom)
    async with make_client(api, retry=ONE_TRY) as minds:
        with pytest.raises(cls) as caught:
            await minds.me()
    err = caught.value
    assert str(err.request) == "GET /auth/me"
    assert err.__cause__ is exc
    assert fake_key() not in str(err) and fake_key() not in repr(err)


@pytest.mark.parametrize("code", ["IDEMPOTENCY_KEY_REUSED", "OPERATION_MISMATCH"])
def test_a_request_conflict_on_a_revision_is_not_reported_as_a_stale_revision(code: str) -> None:
    from minds_bot.minds.errors import RequestInfo, error_from_response

    body = envelope(409, code=code).content
    error = error_from_response(
        status_code=409, body=body, retry_after=None, request=RequestInfo("POST", "/x"), conflict_class=StaleRevision
    )
    assert type(error) is Conflict and error.code == code
    stale = error_from_response(
        status_code=409,
        body=envelope(409).content,
        retry_after=None,
        request=RequestInfo("POST", "/x"),
        conflict_class=StaleRevision,
    )
    assert isinstance(stale, StaleRevision)
