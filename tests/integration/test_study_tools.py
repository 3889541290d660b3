"""What a user does with a Study after research: read and refresh its summary, share it, copy it, build an
Audience from a brief, and export files that really download."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import uuid
from pathlib import Path

import pytest

from minds_bot.minds import (
    ExportFailed,
    FromBriefJob,
    FromBriefResult,
    PlanLimitError,
    SemanticSummary,
    StudyRunInProgress,
    SummarySuperseded,
)
from tests.integration.conftest import Harness
from tests.integration.seeds import LAUNCH_STUDY, PRICING_STUDY

HANG_GUARD_SECONDS = 10  # only stops a broken test from hanging; never decides pass or fail
CSV_HEADER = "run_id,question_id,question,mind_id,mind_name,audience_id,answer"


def _summary_generations(h: Harness) -> asyncio.Queue[int]:
    """Revisions of summary generations as the sandbox starts them, so a test can await the server side."""
    engine = h.sandbox.runtime.engine
    original = engine.request_summary
    started: asyncio.Queue[int] = asyncio.Queue()

    def request_summary(study: dict, *, length: str, force: bool):  # same as the original
        revision, done = original(study, length=length, force=force)
        started.put_nowait(revision)
        return revision, done

    engine.request_summary = request_summary  # type: ignore[method-assign]
    return started


async def _next(queue: asyncio.Queue[int]) -> int:
    return await asyncio.wait_for(queue.get(), HANG_GUARD_SECONDS)


async def test_summary_refresh_returns_the_newly_written_revision(h: Harness) -> None:
    generations = _summary_generations(h)
    current = await h.minds.get_summary(LAUNCH_STUDY)
    assert current.revision == 1 and not current.is_generating
    assert current.summary is not None and current.summary.startswith("# Launch positioning")

    refresh = asyncio.create_task(h.minds.refresh_summary(LAUNCH_STUDY, force=True))
    assert await _next(generations) == 2
    meanwhile = await h.minds.get_summary(LAUNCH_STUDY)
    assert meanwhile.is_generating and meanwhile.revision == 1
    h.advance(h.step)
    refreshed = await asyncio.wait_for(refresh, HANG_GUARD_SECONDS)

    assert isinstance(refreshed, SemanticSummary)
    assert refreshed.revision == 2 and not refreshed.is_generating and refreshed.blocks
    assert (await h.minds.get_summary(LAUNCH_STUDY)).revision == 2


async def test_a_superseded_refresh_is_reported_not_retried(h: Harness) -> None:
    generations = _summary_generations(h)
    older = asyncio.create_task(h.minds.refresh_summary(LAUNCH_STUDY, force=True))
    older_revision = await _next(generations)
    newer = asyncio.create_task(h.minds.refresh_summary(LAUNCH_STUDY, force=True, length="short"))
    newer_revision = await _next(generations)

    with pytest.raises(SummarySuperseded) as superseded:
        await asyncio.wait_for(older, HANG_GUARD_SECONDS)
    h.advance(h.step)
    written = await asyncio.wait_for(newer, HANG_GUARD_SECONDS)

    assert superseded.value.status_code == 409 and superseded.value.data["revision"] == older_revision
    assert written.revision == newer_revision == older_revision + 1
    posts = h.log.matching("POST", f"/api/v1/studies/{LAUNCH_STUDY}/summary")
    assert sorted(p.status for p in posts) == [200, 409]


async def test_public_link_is_shown_only_while_sharing_is_on_and_never_changes(h: Harness) -> None:
    before = await h.minds.get_study(PRICING_STUDY)
    assert not before.is_link_sharing_enabled

    on = await h.minds.set_sharing(PRICING_STUDY, enabled=True)
    link = on.public_url
    assert link == f"{h.sandbox.origin}/share/studies/{on.public_share_id}"
    assert (await h.minds.set_sharing(PRICING_STUDY, enabled=True)).public_url == link

    off = await h.minds.set_sharing(PRICING_STUDY, enabled=False)
    assert off.public_url is None and not off.is_public and not off.is_link_sharing_enabled
    assert off.public_share_id == on.public_share_id  # kept by Minds, but no longer a live link
    assert not (await h.minds.get_study(PRICING_STUDY)).is_link_sharing_enabled

    assert (await h.minds.set_sharing(PRICING_STUDY, enabled=True)).public_url == link


async def test_duplicating_twice_with_one_key_makes_one_copy(h: Harness) -> None:
    studies_before = len(h.sandbox.runtime.state.studies)

    first = await h.minds.duplicate_study(LAUNCH_STUDY, idempotency_key="copy-launch-q3", name="Launch (Q3)")
    second = await h.minds.duplicate_study(LAUNCH_STUDY, idempotency_key="copy-launch-q3", name="Launch (Q3)")

    assert not first.replayed and second.replayed
    assert second.study.id == first.study.id != LAUNCH_STUDY
    assert first.study.name == "Launch (Q3)" and first.workspace_url
    assert len(h.sandbox.runtime.state.studies) == studies_before + 1
    copy = await h.minds.get_study(first.study.id)
    source = await h.minds.get_study(LAUNCH_STUDY)
    assert len(copy.messages) == len(source.messages) > 0


async def test_duplicating_during_a_live_run_is_refused(h: Harness) -> None:
    await h.minds.start_direct_run(
        PRICING_STUDY, question="Would you trial a new invoicing tool?", client_request_id=str(uuid.uuid4())
    )
    studies_before = len(h.sandbox.runtime.state.studies)

    with pytest.raises(StudyRunInProgress):
        await h.minds.duplicate_study(PRICING_STUDY, idempotency_key=str(uuid.uuid4()))

    assert len(h.sandbox.runtime.state.studies) == studies_before


async def test_audience_from_brief_is_built_and_a_replay_returns_it(h: Harness) -> None:
    key = str(uuid.uuid4())
    brief = "Urban cyclists in Amsterdam who commute daily and care about rain gear"

    job = await h.minds.create_audience_from_brief(text=brief, idempotency_key=key, member_count=6)
    assert isinstance(job, FromBriefJob) and job.status == "queued"
    done = await h.minds.wait_audience_job(job.job_id, wait_seconds=60)

    assert done.status == "completed" and done.result is not None
    assert done.result.mind_count == 6 and len(done.result.minds) == 6
    assert h.sleeps, "the client waited between polls (in simulated time)"
    audience = await h.minds.get_audience(done.result.id)
    assert audience.name == done.result.name and audience.mind_count == 6
    replay = await h.minds.create_audience_from_brief(text=brief, idempotency_key=key, member_count=6)
    assert isinstance(replay, FromBriefResult) and replay.id == done.result.id
    assert len(h.sandbox.runtime.state.brief_jobs) == 1


async def test_an_audience_over_the_plan_size_is_refused(h: Harness) -> None:
    with pytest.raises(PlanLimitError) as refused:
        await h.minds.create_audience_from_brief(
            text="Dentists in Lyon", idempotency_key=str(uuid.uuid4()), member_count=80
        )
    assert refused.value.limit == 50 and refused.value.limit_type == "audienceMembers"
    assert h.sandbox.runtime.state.brief_jobs == {}


def _looks_real(kind: str, fmt: str, content: bytes) -> None:
    if fmt == "md":
        assert content.startswith(b"# Launch positioning\n") and b"## Results" in content
    elif fmt == "csv":
        lines = content.decode().splitlines()
        assert lines[0] == CSV_HEADER and len(lines) > 1
    elif fmt == "docx":
        assert content.startswith(b"PK") and b"word/document.xml" in content
    else:
        assert content.startswith(b"%PDF-") and content.rstrip().endswith(b"%%EOF")


@pytest.mark.parametrize(
    ("kind", "fmt"),
    [("full_report", "md"), ("raw_data", "csv"), ("executive_brief", "pdf"), ("full_report", "docx")],
)
async def test_export_downloads_the_real_file_without_the_key(h: Harness, tmp_path: Path, kind: str, fmt: str) -> None:
    job = await h.minds.start_export(LAUNCH_STUDY, kind=kind, format=fmt)  # type: ignore[arg-type]
    status = await h.minds.wait_export(LAUNCH_STUDY, job, wait_seconds=30)
    assert status.status == "completed" and status.filename and status.filename.endswith(f".{fmt}")

    file = await h.minds.download_export(LAUNCH_STUDY, job, status=status, dest_dir=tmp_path)

    path = Path(file.path)
    content = await asyncio.to_thread(path.read_bytes)
    assert path.parent == tmp_path and file.filename == status.filename
    assert file.size == len(content) and file.sha256 == hashlib.sha256(content).hexdigest()
    export = h.sandbox.runtime.state.exports[job.job_id]
    served = base64.b64decode(h.sandbox.runtime.state.files[export["fileId"]]["content"])
    assert content == served
    _looks_real(kind, fmt, content)

    [redirect] = h.log.matching("GET", f"/api/v1/studies/{LAUNCH_STUDY}/export-download")
    assert redirect.status == 302 and redirect.has_authorization
    [signed] = h.log.under("/_files/")
    assert signed.status == 200 and not signed.has_authorization


async def test_an_export_minds_cannot_build_is_reported_as_failed(h: Harness) -> None:
    job = await h.minds.start_export(LAUNCH_STUDY, kind="full_report", format="pptx")

    with pytest.raises(ExportFailed) as failed:
        await h.minds.wait_export(LAUNCH_STUDY, job, wait_seconds=30)

    assert failed.value.error_code == "EXPORT_FAILED" and failed.value.error
    assert h.log.under("/_files/") == []
