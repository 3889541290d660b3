"""Small record builders for the store tests (obviously fake ids and keys)."""

from __future__ import annotations

from datetime import datetime

from pydantic import SecretStr

from minds_bot.store import (
    Digest,
    DirectAsk,
    ExportJob,
    PlanPost,
    RunKind,
    ScheduleKind,
    TrackedRun,
    WorkspaceSettings,
)
from tests.store.conftest import START, fake_minds_key


def workspace(team_id: str = "T1", *, key: str | None = None) -> WorkspaceSettings:
    return WorkspaceSettings(
        team_id=team_id,
        minds_key=SecretStr(key or fake_minds_key()),
        account_label="Acme Research",
        default_language="de",
        outcome_in_channel=False,
        connected_by="U_ADMIN",
        connected_at=START,
    )


def plan_post(ts: str = "1700000000.000100", *, draft: str | None = "draft-1", team_id: str = "T1") -> PlanPost:
    return PlanPost(
        team_id=team_id,
        channel_id="C1",
        message_ts=ts,
        study_id="study-1",
        study_name="Launch message",
        draft_plan_id=draft,
        revision=1 if draft else None,
        requester_id="U_REQ",
        preview_idempotency_key="preview-key-1",
    )


def tracked_run(run_id: str = "run-1", *, due: datetime = START, team_id: str = "T1") -> TrackedRun:
    return TrackedRun(
        team_id=team_id,
        run_id=run_id,
        study_id="study-1",
        kind=RunKind.RESEARCH,
        client_request_id=f"idem-{run_id}",
        channel_id="C1",
        thread_ts="1700000000.000100",
        next_poll_at=due,
    )


def direct_ask(client_request_id: str = "00000000-0000-4000-8000-000000000001") -> DirectAsk:
    return DirectAsk(
        client_request_id=client_request_id,
        team_id="T1",
        study_id="study-1",
        channel_id="C1",
        thread_ts="1700000000.000100",
        question="Which tagline do you prefer?",
        requester_id="U_REQ",
    )


def export_job(job_id: str = "job-1") -> ExportJob:
    return ExportJob(
        team_id="T1",
        job_id=job_id,
        study_id="study-1",
        kind="executive_brief",
        format="pdf",
        requested_by="U_REQ",
        channel_id="C1",
        thread_ts="1700000000.000100",
    )


def digest(digest_id: str = "digest-1", *, team_id: str = "T1") -> Digest:
    return Digest(
        digest_id=digest_id,
        team_id=team_id,
        channel_id="C1",
        schedule_kind=ScheduleKind.WEEKLY,
        spec="mon 09:00",
        tz="Europe/Berlin",
        study_ids=("study-1", "study-2"),
        created_by="U_ADMIN",
    )
