"""The research tools reached from Slack, client against the sandbox: the method catalogue, an Audience's card
(detail, coverage, Formations, progress), recalibration, model connections and Study invitations."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from minds_bot.minds import (
    Conflict,
    DirectRunAccepted,
    DownloadedFile,
    MalformedResponse,
    NotFound,
    PlanLimitError,
    parse_output,
)
from tests.integration.conftest import Harness
from tests.integration.seeds import GEN_Z, LAUNCH_STUDY


async def test_the_method_catalogue_says_what_each_method_needs(h: Harness) -> None:
    methods = {m.id: m for m in await h.minds.research_methods()}
    assert methods["gabor-granger"].executable and methods["gabor-granger"].requires == ["pricePoints", "currency"]
    assert methods["turf"].complexity == "high"
    assert not methods["visual-asset-analysis"].executable


async def test_an_audience_card_reads_coverage_formations_and_progress(h: Harness) -> None:
    detail = await h.minds.get_audience(GEN_Z)
    assert detail.research is not None and detail.research.dimensions is not None
    assert {d.status for d in detail.research.dimensions} == {"sourced", "proxy", "assumed", "missing"}
    assert detail.calibration is not None and not detail.calibration.active
    assert detail.is_owner and detail.sources and detail.sources[0].kind == "brief"

    formations = await h.minds.list_formations(GEN_Z)
    assert {f.name for f in formations} == {"Age", "Location"}
    assert all(sum(s.count.memberships for s in f.subgroups) == detail.mind_count for f in formations)
    progress = await h.minds.audience_progress(GEN_Z)
    assert progress.total == detail.mind_count and not progress.in_progress


async def test_a_malformed_formation_list_is_an_error(h: Harness) -> None:
    await h.set_faults(malformed_lists="data_not_list")
    with pytest.raises(MalformedResponse):
        await h.minds.list_formations(GEN_Z)


async def test_recalibration_reports_changed_members_and_refuses_a_second_one(h: Harness) -> None:
    result = await h.minds.recalibrate_audience(GEN_Z, instruction="skew younger")
    assert result.retraining_members == 4 and result.added_members == 0
    assert (await h.minds.get_audience(GEN_Z)).calibration.active  # type: ignore[union-attr]
    assert (await h.minds.audience_progress(GEN_Z)).in_progress
    with pytest.raises(Conflict):
        await h.minds.recalibrate_audience(GEN_Z, instruction="again")
    assert len(h.log.matching("POST", f"/api/v1/audiences/{GEN_Z}/recalibrate")) == 2, "never retried"


async def test_model_connections_follow_the_cursor_and_flag_the_unverified(h: Harness) -> None:
    connections = await h.minds.model_connections()
    assert [c.verified for c in connections] == [True, False]
    assert len(h.log.matching("GET", "/api/v1/model-connections")) == 2


async def test_a_stalled_cursor_is_an_error_and_disabled_connections_are_not_found(h: Harness) -> None:
    await h.set_faults(cursor_stall=True)
    with pytest.raises(MalformedResponse):
        await h.minds.model_connections()
    await h.set_faults(cursor_stall=False, model_connections=False)
    with pytest.raises(NotFound):
        await h.minds.model_connections()


async def test_invitations_name_each_undelivered_address(h: Harness) -> None:
    result = await h.minds.invite_to_study(LAUNCH_STUDY, emails=["ana@example.com", "x@mail.invalid"], role="admin")
    assert result.invited == ["ana@example.com"]
    assert [f.email for f in result.email_failures] == ["x@mail.invalid"]


async def test_an_audience_brief_exports_as_markdown(h: Harness) -> None:
    """The card's Export button is the profile export (``/minds export audience``): Markdown inline."""
    started = await h.minds.start_profile_export("audiences", GEN_Z, format="md")
    finished = await h.minds.wait_profile_export("audiences", GEN_Z, started, format="md")
    assert finished.filename == "Gen Z sneaker buyers in Germany.md"
    content = finished.content or ""
    assert content.startswith("# Gen Z sneaker buyers in Germany") and content.count("\n- ") == 12
    again = await h.minds.start_profile_export("audiences", GEN_Z, format="md")
    assert again.status == "completed", "a finished brief is reused"


async def asked_about(
    h: Harness, question: str = "What catches your eye first in this ad? https://cdn.example.com/ad.png"
) -> str:
    accepted = await h.minds.start_direct_run(LAUNCH_STUDY, question=question, client_request_id=str(uuid.uuid4()))
    assert isinstance(accepted, DirectRunAccepted)
    for _ in range(40):
        run = await h.minds.get_run(accepted.run_id)
        if run.is_terminal:
            break
        h.advance(h.step)
    assert run.status == "completed" and run.message_id
    return run.message_id


async def test_a_question_heatmap_costs_one_response_per_mind_and_has_no_archive(h: Harness, tmp_path: Path) -> None:
    message_id = await asked_about(h)
    answers = await h.minds.get_message_answers(LAUNCH_STUDY, message_id)
    output = parse_output(answers.output_data)
    [asset] = output.visual_assets
    assert asset.kind == "image" and asset.asset_key == "https://cdn.example.com/ad.png"

    none = await h.minds.get_heatmap(LAUNCH_STUDY, message_id, asset_key=asset.asset_key)
    assert none.status == "none" and none.respondents == output.answer_count
    await h.set_allowance(none.respondents - 1)
    with pytest.raises(PlanLimitError):
        await h.minds.start_heatmap(LAUNCH_STUDY, message_id, asset_key=asset.asset_key)
    await h.set_allowance(None)
    started = await h.minds.start_heatmap(LAUNCH_STUDY, message_id, asset_key=asset.asset_key)
    assert started.status == "processing"
    h.advance(3 * h.step)
    done = await h.minds.get_heatmap(LAUNCH_STUDY, message_id, asset_key=asset.asset_key)
    assert done.status == "completed" and done.regions
    reused = await h.minds.start_heatmap(LAUNCH_STUDY, message_id, asset_key=asset.asset_key)
    assert reused.status == "completed"

    with pytest.raises(Conflict):  # the export is of website heatmaps only (catalogue rule 91)
        await h.minds.export_heatmap(LAUNCH_STUDY, message_id, dest_dir=tmp_path)


async def test_a_question_about_a_website_carries_its_heatmap_and_exports_a_zip(h: Harness, tmp_path: Path) -> None:
    message_id = await asked_about(h, "How does our launch page feel? https://shop.example.com/launch")
    output = parse_output((await h.minds.get_message_answers(LAUNCH_STUDY, message_id)).output_data)
    assert [(a.kind, a.asset_key) for a in output.website_assets] == [("website", "https://shop.example.com/launch")]
    assert output.visual_assets == []
    archive = await h.minds.export_heatmap(LAUNCH_STUDY, message_id, dest_dir=tmp_path)
    assert isinstance(archive, DownloadedFile) and archive.filename.endswith(".zip")
    assert Path(archive.path).read_bytes().startswith(b"PK")
