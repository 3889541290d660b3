"""Fixtures for digest flow tests: a hand-moved clock, the store, the fake Minds API and a fake Slack Web API."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from slack_sdk.web.async_client import AsyncWebClient

from minds_bot.flows.digests.flow import DigestFlow
from minds_bot.minds import MindsClient
from minds_bot.store import Digest, MemoryStore, ScheduleKind, SecretBox, SqliteStore, Store
from tests.fakes.minds_http import FakeMindsAPI, make_client, ok, raw
from tests.fakes.slack_web import FakeSlack, fake_slack

TEAM = "T0001"
CHANNEL = "C0DIGEST"
START = datetime(2025, 3, 24, 7, 30, tzinfo=UTC)  # a Monday, 08:30 in Berlin


def uid(n: int) -> str:
    return str(uuid.UUID(int=n))


def run_uid(n: int) -> str:
    """Run ids that differ in their first eight characters, as random UUIDs do (digests show those)."""
    return str(uuid.UUID(f"{n:08x}-0000-4000-8000-{n:012x}"))


PRICING = uid(101)
LAUNCH = uid(102)
TS = "2025-03-01T10:00:00Z"


class Clock:
    def __init__(self, start: datetime = START) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def set(self, moment: datetime) -> None:
        self.now = moment

    def advance(self, delta: timedelta) -> None:
        self.now += delta


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def box() -> SecretBox:
    return SecretBox(SecretBox.generate_key())


@pytest.fixture
async def store(box: SecretBox, clock: Clock) -> AsyncIterator[Store]:
    store = MemoryStore(secrets=box, clock=clock)
    yield store
    await store.close()


@pytest.fixture
async def sqlite_path(tmp_path: Path) -> str:
    return str(tmp_path / "bot.sqlite3")


async def open_sqlite(path: str, box: SecretBox, clock: Clock) -> SqliteStore:
    return await SqliteStore.open(path, secrets=box, clock=clock)


@pytest.fixture
def api() -> FakeMindsAPI:
    return FakeMindsAPI()


@pytest.fixture
async def minds(api: FakeMindsAPI) -> AsyncIterator[MindsClient]:
    client = make_client(api)
    yield client
    await client.aclose()


@pytest.fixture
async def slack() -> AsyncIterator[FakeSlack]:
    async with fake_slack() as fake:
        yield fake


def build_flow(store: Store, *, minds: MindsClient, slack: FakeSlack, clock: Clock) -> DigestFlow:
    web = AsyncWebClient(token="xoxb-test-token", base_url=slack.api_url)  # fake

    async def minds_for(team_id: str) -> MindsClient:
        return minds

    async def slack_for(team_id: str) -> AsyncWebClient:
        return web

    return DigestFlow(store=store, minds=minds_for, slack=slack_for, clock=clock)


@pytest.fixture
def flow(store: Store, minds: MindsClient, slack: FakeSlack, clock: Clock) -> DigestFlow:
    return build_flow(store, minds=minds, slack=slack, clock=clock)


def digest(
    *,
    digest_id: str = "dg-1",
    studies: tuple[str, ...] = (PRICING,),
    kind: ScheduleKind = ScheduleKind.DAILY,
    spec: str = "09:00",
    tz: str = "Europe/Berlin",
    skip_quiet: bool = False,
) -> Digest:
    return Digest(
        digest_id=digest_id,
        team_id=TEAM,
        channel_id=CHANNEL,
        schedule_kind=kind,
        spec=spec,
        tz=tz,
        study_ids=studies,
        created_by="U0001",
        skip_quiet=skip_quiet,
    )


# --- Minds payloads --------------------------------------------------------------------------------------------


def study_payload(study_id: str, name: str) -> dict[str, Any]:
    return {
        "id": study_id,
        "name": name,
        "createdAt": TS,
        "updatedAt": TS,
        "messageCount": 1,
        "audiences": [],
        "messages": [],
    }


def research_run(
    run_id: str,
    status: str,
    *,
    total: int = 3,
    settled: int = 3,
    partial: int = 0,
    completed: int | None = None,
    coverage: tuple[int, int] | None = None,
    flags: int = 0,
    titles: tuple[str, ...] | None = None,
) -> dict[str, Any]:
    """A research run's detail; its first question names the run (and carries the run's id to tell runs apart)."""
    titles = titles if titles is not None else (f"Price fairness {run_id[:8]}", "Willingness to pay")
    artifacts = []
    for index, title in enumerate(titles):
        output: dict[str, Any] = {"title": title, "type": "scale"}
        if coverage is not None and index == 0:
            output["responseCoverage"] = {"expected": coverage[1], "received": coverage[0], "missing": []}
        artifacts.append({"index": index, "questionId": f"q{index}", "kind": "response", "outputData": output})
    payload: dict[str, Any] = {
        "runId": run_id,
        "status": status,
        "progress": {"total": total, "settled": settled, "failed": 0, "partial": partial, "skipped": 0},
        "artifacts": artifacts,
    }
    if completed is not None:
        payload["completedQuestions"] = completed
    if flags:
        payload["answerConsistency"] = {"status": "checked", "checkedMinds": 8, "flaggedMinds": 1, "flagCount": flags}
    return payload


def serve_study(
    api: FakeMindsAPI,
    study_id: str,
    name: str,
    *,
    runs: list[tuple[str, str]],
    details: dict[str, dict[str, Any]] | None = None,
    summary: str | None = "Prices above 20 € meet resistance among parents; value framing helps.",
) -> None:
    """Route one Study: its detail, its runs list (run id, list status), run details and summary."""
    api.set("GET", f"/studies/{study_id}", ok(study_payload(study_id, name)))
    api.set(
        "GET",
        f"/studies/{study_id}/runs",
        raw({"data": [{"runId": r, "status": s, "question": f"Question {r[:8]}"} for r, s in runs]}),
    )
    for run_id, detail in (details or {}).items():
        api.set("GET", f"/studies/{study_id}/research-runs/{run_id}", ok(detail))
    api.set("GET", f"/studies/{study_id}/summary", ok({"summary": summary, "revision": 2, "isGenerating": False}))
