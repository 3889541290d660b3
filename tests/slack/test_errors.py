"""What people read when something goes wrong: specific, honest, actionable, never a key."""

from __future__ import annotations

import pytest

from minds_bot.minds import (
    AuthenticationError,
    InvalidRequest,
    MalformedResponse,
    PlanLimitError,
    RateLimited,
    ServiceUnavailable,
)
from minds_bot.render.errors import user_message
from minds_bot.services import NotConnected


@pytest.mark.parametrize(
    ("error", "fragments"),
    [
        (
            PlanLimitError(
                status_code=403,
                code="PLAN_LIMIT",
                data={
                    "limitType": "responses",
                    "currentPlan": "free",
                    "limit": 100,
                    "current": 100,
                    "periodEnd": "2027-01-01",
                },
            ),
            [
                "responses allowance is used up",
                "100 of 100 on the Free plan",
                "Nothing was started",
                "upgrade is required",
                "resets on 1 January 2027",
            ],
        ),
        (RateLimited(status_code=429, retry_after=42), ["nothing was started", "Try again in about 42 seconds"]),
        (ServiceUnavailable(status_code=503, retry_after=300), ["Try again in about 5 minutes"]),
        (AuthenticationError(status_code=401), ["/minds connect"]),
        (
            InvalidRequest(status_code=400, server_message="Invalid question conditions: q2"),
            ["Invalid question conditions: q2"],
        ),
        (MalformedResponse("pagination missing"), ["could not read", "nothing is assumed"]),
        (NotConnected(), ["/minds connect"]),
        (RuntimeError("boom"), ["went wrong on our side"]),
    ],
)
def test_user_messages(error: Exception, fragments: list[str]) -> None:
    text = user_message(error)
    for fragment in fragments:
        assert fragment in text
    assert "Traceback" not in text and "minds_" not in text
