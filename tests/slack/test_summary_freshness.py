"""Issue 24 row 8: the summary and the digest say, in the same words, whether a summary includes the Study's newest
finished run — from Minds' times when Minds gives both, else that it may predate it."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from minds_bot.minds import AgentRun, SemanticSummary
from minds_bot.render.digest import render_digest
from minds_bot.render.digest_news import DigestContent, RunNews, StudyNews, Watermark
from minds_bot.render.summary import freshness, latest_run_ended

MONDAY = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
TUESDAY = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("generated", "ended", "said"),
    [
        (MONDAY, TUESDAY, "before the latest run finished ("),
        (TUESDAY, MONDAY, ", after the latest run finished."),
        (MONDAY, None, "; it may predate the latest run. Refresh to include every finished run."),
        (None, TUESDAY, "Minds did not say when this summary was generated; it may predate the latest run."),
    ],
)
def test_freshness_is_said_from_minds_times_or_said_to_be_unknown(
    generated: datetime | None, ended: datetime | None, said: str
) -> None:
    assert said in freshness(generated=generated, latest_run_ended=ended)


def test_minds_times_without_a_zone_are_read_as_utc_once_at_the_boundary() -> None:
    summary = SemanticSummary.model_validate({"summary": "Sum", "generatedAt": "2026-11-30T09:00:00"})
    run = AgentRun.model_validate({"runId": "r1", "status": "completed", "completedAt": "2026-12-01T09:00:00Z"})
    assert summary.generated_at == MONDAY and run.completed_at == TUESDAY
    ended = latest_run_ended([run, AgentRun.model_validate({"runId": "r2", "status": "running"})])
    assert ended == TUESDAY  # only finished runs count
    assert "before the latest run finished" in freshness(generated=summary.generated_at, latest_run_ended=ended)


def test_the_digest_says_its_summary_predates_the_latest_run() -> None:
    run = RunNews(run_id="r1", status="completed", new=True, kind="research", question_titles=("Price?",))
    study = StudyNews(
        study_id="s1",
        name="Cups",
        runs=(run,),
        summary_excerpt="# Cups\n- **Price** matters",
        summary_generated_at=MONDAY,
        latest_run_ended=TUESDAY,
    )
    content = DigestContent(studies=(study,), errors=(), watermark=Watermark(), since=None)
    blocks = [b.to_dict() if hasattr(b, "to_dict") else b for b in render_digest(content, schedule="daily").blocks]
    text = " ".join(str(b.get("text", {}).get("text", "")) for b in blocks)
    assert ":warning: Generated <!date^" in text
    assert "before the latest run finished (<!date^" in text and "it does not include that run." in text
    assert "**" not in text and "# " not in text
