"""An Audience build is followed in its thread by the run tracker: progress edited when the state changes, then
the Audience (name and Mind count) or Minds' reason — posted once, never resubmitted."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest

from minds_bot.flows.audiences import AudienceJobHandler
from minds_bot.flows.tracking import MAX_INTERVAL_SECONDS, RunTracker
from minds_bot.services import Services
from minds_bot.settings import Settings
from minds_bot.store import MemoryStore, RunKind, SecretBox, TrackedRun
from tests.fakes.minds_http import FakeMindsAPI, fake_key, make_client, ok
from tests.fakes.slack_web import FakeSlack, fake_slack

START = datetime(2026, 12, 7, 9, 0, tzinfo=UTC)
JOB = {"jobId": "job-1", "status": "queued", "progress": 0}
DONE = {
    **JOB,
    "status": "completed",
    "progress": 100,
    "result": {"id": "5b1f6a52-0000-4000-8000-000000000009", "name": "Berlin cyclists", "mindCount": 24, "minds": []},
}


@pytest.fixture
async def slack() -> AsyncIterator[FakeSlack]:
    async with fake_slack() as fake:
        yield fake


def follow(slack: FakeSlack, api: FakeMindsAPI) -> tuple[RunTracker, list[datetime]]:
    now = [START]
    key = SecretBox.generate_key()
    settings = Settings(
        _env_file=None,
        slack_bot_token="xoxb-test-token",
        slack_api_url=slack.api_url,
        minds_api_key=fake_key(),
        minds_bot_secret_key=key,
    )
    services = Services.build(settings, MemoryStore(secrets=SecretBox(key), clock=lambda: now[0]), clock=lambda: now[0])
    services.minds.build = lambda api_key, limiter=None: make_client(api)  # type: ignore[method-assign]
    tracker = RunTracker(
        store=services.store,
        handlers={RunKind.AUDIENCE: AudienceJobHandler(services)},
        clock=lambda: now[0],
        rng=random.Random(3),
    )
    return tracker, now


def build(team: str = "T1") -> TrackedRun:
    return TrackedRun(
        team_id=team,
        run_id="job-1",
        study_id="",
        kind=RunKind.AUDIENCE,
        channel_id="C1",
        thread_ts="1733140000.000100",
        progress_ts="1733140000.000200",
        last_state="queued",
        next_poll_at=START,
    )


async def ticks(tracker: RunTracker, now: list[datetime], count: int = 6) -> None:
    for _ in range(count):
        await tracker.tick()
        now[0] += timedelta(seconds=MAX_INTERVAL_SECONDS * 1.5)


async def test_progress_then_the_audience_in_the_same_thread_line(slack: FakeSlack) -> None:
    api = FakeMindsAPI().on(
        "GET", "/audiences/from-brief/jobs/job-1", ok({**JOB, "status": "processing", "progress": 40}), ok(DONE)
    )
    tracker, now = follow(slack, api)
    await tracker.track(build())
    await ticks(tracker, now)
    edits = [c["text"] for c in slack.calls_to("chat.update")]
    assert edits[0].startswith("Building an Audience from your brief: processing (40%)")
    assert "Berlin cyclists" in edits[-1] and "24 Minds" in edits[-1]
    assert len(edits) == 2 and not slack.calls_to("chat.postMessage")
    assert len(api.to("GET", "/audiences/from-brief/jobs/job-1")) == 2
    assert api.to("POST", "/audiences/from-brief") == []  # following never resubmits


async def test_a_failed_build_says_minds_reason(slack: FakeSlack) -> None:
    api = FakeMindsAPI().on(
        "GET", "/audiences/from-brief/jobs/job-1", ok({**JOB, "status": "failed", "error": "brief too vague"})
    )
    tracker, now = follow(slack, api)
    await tracker.track(build())
    await ticks(tracker, now)
    (failed,) = [c["text"] for c in slack.calls_to("chat.update")]
    assert failed.startswith("Minds could not build the Audience") and "brief too vague" in failed
