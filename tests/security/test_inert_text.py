"""Issue #17 row 6: text from Minds and from people stays inert wherever it reaches Slack.

Every public function in ``minds_bot/render/`` is found by introspection and called with hostile Minds models
and hostile strings in every string field it can be given (ids included). Whatever it returns — a Message and
its fallback text, a modal, blocks, mrkdwn for a ``text`` or an ``initial_comment`` — must hold no live mention,
channel link or link the bot did not build, must fit Slack's limits, and must not show escaping twice. A new
renderer is walked automatically; one that needs a model this test cannot build fails until a sample is added.
A second walk repeats every list thirty times (Audiences, answers, questions, options, runs) to hold the block
and size budgets. End to end through the real Bolt app: the export of a Study named like a mass mention (row 6),
the plan message and its fallback text, a person's own text said back to them, and Minds' error words.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import json
import pkgutil
import re
import types
import typing
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel
from slack_sdk.models.basic_objects import JsonObject
from slack_sdk.models.blocks import Block
from slack_sdk.models.views import View

import minds_bot.render as render_package
from minds_bot.minds import (
    AgentRun,
    Audience,
    AudienceCreated,
    AudienceDetail,
    AudienceDuplicate,
    AudienceLimits,
    ExportFailed,
    ExportStatus,
    FromBriefJob,
    FromBriefResult,
    MindSummary,
    ResearchPlan,
    ResearchRun,
    SemanticSummary,
    SharingState,
    Study,
    StudyDetail,
    StudyDuplicate,
    Walked,
    parse_output,
)
from minds_bot.minds.lookup import Candidate, LookupResult
from minds_bot.minds.models import (
    AnswerConsistency,
    AudienceProgress,
    Formation,
    Heatmap,
    InvitationResult,
    KnowledgeItem,
    KnowledgePatterns,
    MindDeletion,
    MindDetail,
    MindPattern,
    ModelConnection,
    PlanMethod,
    PlanQuestion,
    Recalibration,
    RegeneratedImage,
    ResearchMethod,
    RunArtifact,
    SegmentationPreview,
    SourceImport,
    StudyAnalytics,
    StudyDraft,
    StudyMessage,
    StudyTemplate,
    TrainingStatus,
    VanWestendorpCalculation,
    parse_calculation,
)
from minds_bot.minds.models.audience_manage import FormationPreview, ImagesRegeneration
from minds_bot.minds.output import StudyOutput
from minds_bot.render import Message, escape, results, unescape
from minds_bot.render.analytics import ChartPanel
from minds_bot.render.bars import Panel
from minds_bot.render.browse import BrowsePage
from minds_bot.render.common import note
from minds_bot.render.compare import compare_block
from minds_bot.render.comparison import (
    Asked,
    Comparison,
    QuestionComparison,
    RunSide,
    asked_in_run,
    compare_runs,
)
from minds_bot.render.digest_news import DigestContent, ReadError, RunNews, StudyNews, Watermark
from minds_bot.render.home import HomeDigest, HomePlan, HomeRun, HomeState, HomeStudy
from minds_bot.render.plan import ApprovalGate, PlanConnections, PlanContext, PlanTooLarge, RenderedPlan
from minds_bot.render.run_notice import EndedRun
from minds_bot.render.spend import SpendReport, SpendTotals
from minds_bot.store import Digest, PolicyMode, RunKind, Spend, SpendOutcome
from tests.fakes.bot import CHANNEL, BotHarness, bot_harness
from tests.fakes.minds_http import envelope, ok, page
from tests.minds.design_samples import audience_created, segmentation_preview
from tests.slack import samples
from tests.slack.plan_samples import CONTEXT, catalogue, plan_data, run_data, study_data
from tests.slack.test_analytics import document as analytics_document
from tests.slack.test_chat import mind_detail
from tests.slack.test_drafts import draft as draft_data
from tests.slack.test_research_tools import METHODS
from tests.slack.test_research_tools import audience_detail as audience_detail_data
from tests.slack.test_research_tools import formations as formations_data
from tests.slack.test_templates import template as template_data
from tests.store import factories

HOSTILE = (
    "<!channel> <!here> <!everyone> <@U123> <#C123> <http://evil.example|click> [click](http://evil.example) & Evil"
)
LONG_HOSTILE = " ".join([HOSTILE] * 45)  # about 4,500 characters: more than any Slack text field holds
CORPUS = {"short": HOSTILE, "long": LONG_HOSTILE}
MAX_TEXT_INPUT = 3000
MANY, SHORT_LIST = 30, 5  # the "many items" walk repeats every list shorter than SHORT_LIST MANY times
# The only markup the bot writes itself: Slack's date formatting in digests. Any other "<" is live text.
LIVE = re.compile(r"<(?!!date\^\d+\^)")

# Public functions of minds_bot/render that do not produce Slack text, and why. Everything else is walked.
NOT_SLACK_TEXT = {
    "minds_bot.render.audience_manage.audience_value": "a button's value (JSON the bot reads back), never shown",
    "minds_bot.render.audience_manage.modal": "a dialog's frame: its callers pass escaped blocks and their metadata",
    "minds_bot.render.audience_manage.text_input": "an input in the bot's words; its value is cut to its limit",
    "minds_bot.render.formations.formation_refused_view": "shows the gate's refusal, mrkdwn from render/access.py",
    "minds_bot.render.escape": "the escaping helper itself (property-tested below)",
    "minds_bot.render.unescape": "reads the bot's own mrkdwn back (property-tested below)",
    "minds_bot.render.mention": "builds <@…> from a Slack id (tested below)",
    "minds_bot.render.channel_mention": "builds <#…> from a Slack id (tested below)",
    "minds_bot.render.bars.draw_panels": "a PNG",
    "minds_bot.render.bars.use_cjk_font": "configuration, set once at start",
    "minds_bot.render.answers.distribution": "the result model behind text and chart",
    "minds_bot.render.runs.distribution": "the result model behind text and chart",
    "minds_bot.render.runs.uses_nps": "a yes or no: whether the run's method is NPS",
    "minds_bot.render.charts.result_chart": "a PNG",
    "minds_bot.render.charts.result_panel": "what a PNG draws",
    "minds_bot.render.results.build": "the result model behind text and chart",
    "minds_bot.render.results.picked": "the options one answer names",
    "minds_bot.render.results.is_nps_scale": "a yes or no: whether Minds' scale is 0–10",
    "minds_bot.render.results.csv_cells": "CSV cells of numbers only (scale value, option position)",
    "minds_bot.render.results.assumed_text": "plain text without Minds' words; its callers escape it",
    "minds_bot.render.results.nps_of": "numbers for an NPS top line",
    "minds_bot.render.results.nps_text": "plain text holding a number only",
    "minds_bot.render.results.base_text": "plain text holding a number only",
    "minds_bot.render.results.chart_base": "an axis label without Minds' words",
    "minds_bot.render.results.pct_text": "a number as a percentage",
    "minds_bot.render.results.summary": "plain text; render/answers.py and render/runs.py escape it",
    "minds_bot.render.results.scale_text": "plain text holding numbers only",
    "minds_bot.render.results.option_text": "plain text; summary's callers escape it",
    "minds_bot.render.results.audience_line": "takes the name its callers escaped (walked through runs and answers)",
    "minds_bot.render.stats.scale_summary": "numbers for a result's top line",
    "minds_bot.render.common.shorten": "a text helper; callers escape",
    "minds_bot.render.common.split_text": "a text helper; callers escape",
    "minds_bot.render.common.sections": "takes mrkdwn the caller escaped",
    "minds_bot.render.common.section": "takes mrkdwn the caller escaped",
    "minds_bot.render.common.context": "takes mrkdwn the caller escaped",
    "minds_bot.render.common.button": "plain_text label",
    "minds_bot.render.common.pager": "button values (state, not text)",
    "minds_bot.render.common.encode_value": "button value codec",
    "minds_bot.render.common.decode_value": "button value codec",
    "minds_bot.render.common.plain_value": "button value codec",
    "minds_bot.render.common.decode_metadata": "private_metadata codec",
    "minds_bot.render.common.rerun_value": "button value codec",
    "minds_bot.render.exports.export_value": "button value codec (None past Slack's 2,000 characters)",
    "minds_bot.render.study.plan_button_value": "button value codec",
    "minds_bot.render.study.parse_plan_button_value": "button value codec",
    "minds_bot.render.study.ask_button_value": "button value codec",
    "minds_bot.render.plan_questions.question_numbers": "data",
    "minds_bot.render.plan_gate.advanced_methods": "data",
    "minds_bot.render.plan_questions.response_label": "plain_text (the questionnaire as respondents read it)",
    "minds_bot.render.plan_questions.answer_format": "plain_text words; changes_since escapes them in mrkdwn",
    "minds_bot.render.plan_questions.ask_if_label": "plain_text (the questionnaire as respondents read it)",
    "minds_bot.render.plan_questions.question_text": "plain_text (the questionnaire as respondents read it)",
    "minds_bot.render.plan_questions.questionnaire_markdown": "the body of an attached Markdown file",
    "minds_bot.render.plan_history.answered_lines": "shown by render_plan (hostile: test_render_plan_history)",
    "minds_bot.render.plan_history.changes_since": "shown by render_plan (hostile: test_render_plan_history)",
    "minds_bot.render.plan_states.freeze": (
        "re-posts the bot's own blocks with a note from approved_note/discarded_note"
    ),
    "minds_bot.render.errors.user_message": "plain words; escaped where they reach mrkdwn (tested end to end)",
    "minds_bot.render.errors.minds_said": "plain words; escaped where they reach mrkdwn",
    "minds_bot.render.errors.minds_error_text": "plain words; shortened by user_message, escaped in mrkdwn",
    "minds_bot.render.common.lookup_explanation": "plain words; render_not_found escapes them",
    "minds_bot.render.errors.dialog_too_late": "a yes/no about Slack's refusal to open a dialog",
    "minds_bot.render.errors.slack_error": "Slack's error code of a failed call, not text for people",
    "minds_bot.render.errors.slack_unreadable": "a yes/no about a Slack reply that was not JSON",
    "minds_bot.render.audience.audience_value": "button value codec (None past Slack's 2,000 characters)",
    "minds_bot.render.heatmaps.heatmap_value": "button value codec (None past Slack's 2,000 characters)",
    "minds_bot.render.source_import.from_files_metadata": "private_metadata codec (None past 3,000 characters)",
    "minds_bot.render.ask_audience.wrapper_study_name": "the Study's name sent to Minds; escaped where it is shown",
    "minds_bot.render.drafts.has_saved_mark": "a yes/no about the bot's own blocks",
    "minds_bot.render.methods.matches": "a yes/no filter for /minds methods <query>",
    "minds_bot.render.plan_dialogs.answer_modal_refused": "a refusal the flow wrote as mrkdwn (input escaped there)",
    "minds_bot.render.templates.template_request": "planner input in the plan dialog's text box (plain_text)",
    "minds_bot.render.plan_models.connection_label": "plain words for the plain_text option; escaped in mrkdwn",
    "minds_bot.render.drafts.resumable": "a yes/no about a draft's saved state",
    "minds_bot.render.analytics.analytics_chart": "a PNG",
    "minds_bot.render.analytics.chart_panels": "numbers and labels for the chart",
    "minds_bot.render.heatmaps.heatmap_buttons": "fixed button labels; the value is heatmap_value's",
    "minds_bot.render.comparison.asked_in_run": "the result models a comparison is built from",
    "minds_bot.render.comparison.asked_in_output": "the result models a comparison is built from",
    "minds_bot.render.comparison.same_text": "a question's text folded for matching, never shown",
    "minds_bot.render.comparison.compare_runs": "the comparison model behind text and charts",
    "minds_bot.render.comparison.compare_audiences": "the comparison model behind text and charts",
    "minds_bot.render.compare.comparison_panel": "what a PNG draws",
    "minds_bot.render.compare.comparison_chart": "a PNG",
    "minds_bot.render.compare.signed": "a number with its sign",
    "minds_bot.render.compare.message_modal": "a refusal the flow wrote as mrkdwn (input escaped there)",
    "minds_bot.render.draft_dialogs.note_modal": "a refusal the flow wrote as mrkdwn (input escaped there)",
    "minds_bot.render.draft_dialogs.with_note": "a refusal the gate wrote as mrkdwn (input escaped there)",
    "minds_bot.render.run_names.run_label": "plain words for the plain_text option; escaped in mrkdwn",
}


# --- finding every renderer ----------------------------------------------------------------------------------


def public_functions() -> dict[str, Callable[..., Any]]:
    modules = [render_package] + [
        importlib.import_module(f"minds_bot.render.{m.name}") for m in pkgutil.iter_modules(render_package.__path__)
    ]
    found = {}
    for module in modules:
        for name, function in vars(module).items():
            if not name.startswith("_") and inspect.isfunction(function) and function.__module__ == module.__name__:
                found[f"{module.__name__}.{name}"] = function
    return found


RENDERERS = {name: f for name, f in public_functions().items() if name not in NOT_SLACK_TEXT}


def test_the_exclusions_name_real_functions_and_the_walk_covers_the_rest() -> None:
    assert set(NOT_SLACK_TEXT) <= set(public_functions())
    assert len(RENDERERS) > 60  # every renderer of every surface, not a handful


# --- hostile models ------------------------------------------------------------------------------------------


def _literal(annotation: Any) -> bool:
    """Literal fields are checked by the Minds client's models (or are the bot's own words): not Minds prose."""
    if typing.get_origin(annotation) is typing.Literal:
        return True
    return any(_literal(arg) for arg in typing.get_args(annotation))


def id_sized(name: str, hostile: str) -> str:
    """Ids (Slack's, Minds', the bot's) get the hostile words too, at the size of an id."""
    return HOSTILE if name == "id" or name.endswith("_id") or name == "metadata" else hostile


def poison(value: Any, hostile: str, copies: int = 1) -> Any:
    """``value`` with every free-text string replaced by ``hostile`` (dict keys and an output's ``type`` kept);
    with ``copies``, every short list repeated that often (many Audiences, answers, questions, runs)."""
    if isinstance(value, str):
        return hostile
    if isinstance(value, Message):  # the bot's own rendered mrkdwn: its renderer made the words inert
        return value
    if isinstance(value, BaseModel):
        hints = typing.get_type_hints(type(value))
        update = {
            name: poison(getattr(value, name), id_sized(name, hostile), copies)
            for name in type(value).model_fields
            if not _literal(hints.get(name))
        }
        return value.model_copy(update=update)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        hints = typing.get_type_hints(type(value))
        changes = {
            f.name: poison(getattr(value, f.name), id_sized(f.name, hostile), copies)
            for f in dataclasses.fields(value)
            if f.init and not _literal(hints.get(f.name))
        }
        return dataclasses.replace(value, **changes)
    if isinstance(value, Mapping):
        return {k: (v if k == "type" else poison(v, hostile, copies)) for k, v in value.items()}
    if isinstance(value, list | tuple):
        items = list(value) * copies if len(value) < SHORT_LIST else list(value)
        return type(value)(poison(v, hostile, copies) for v in items)
    return value


def _digest() -> Digest:
    return factories.digest().model_copy(update={"last_posted_at": datetime(2026, 12, 1, tzinfo=UTC)})


def _digest_content() -> DigestContent:
    runs = (
        RunNews(run_id="r1", status="partial", new=True, kind="research", question_titles=("Q?",), detail_error="x"),
        RunNews(run_id="r2", status="completed", new=False, kind="question", consistency="failed"),
    )
    studies = tuple(
        StudyNews(study_id=f"s{n}", name="Cups", runs=runs, summary_excerpt="Sum", summary_more=True, summary_note="n")
        for n in range(30)
    )
    return DigestContent(
        studies=studies,
        errors=(ReadError(what="Study s9", message="Minds did not answer"),),
        watermark=Watermark(),
        since=datetime(2026, 12, 1, tzinfo=UTC),
        unchecked_studies=2,
    )


def _study() -> Study:
    return Study.model_validate(samples.study(1))


def _browse_page(flag: bool) -> BrowsePage:
    if flag:
        return BrowsePage(kind="studies", items=[_study()], offset=0, total=30, query="cups", scanned=1000)
    minds = [MindSummary.model_validate(samples.mind(1))]
    return BrowsePage(kind="minds", items=minds, offset=10, total=11, query=None)


def _output(flag: bool) -> StudyOutput:
    return parse_output(samples.output_data("categorical" if flag else "qualitative"))


def _run() -> ResearchRun:
    flags = [{"questionId": "q1", "mindId": "m1", "withItem": 2, "reason": "r"}]
    artifacts = run_data("completed")["artifacts"]
    artifacts[0]["answerConsistency"] = {"flags": flags}
    artifacts[0]["outputData"]["responseCoverage"] = {"expected": 5, "received": 3, "missing": []}
    artifacts[0]["routing"] = {"questionId": "q1", "gateQuestionId": "q0", "askedCount": 2, "notAskedCount": 1}
    data = run_data("partial", artifacts=artifacts)
    data["answerConsistency"] = {"status": "incomplete", "flaggedMinds": 1, "checkedMinds": 3, "flagCount": 1}
    return ResearchRun.model_validate(data)


def _comparison(flag: bool) -> Comparison:
    """Two runs that asked the same questions, and one only the first asked. Already wide (5 questions, 6
    Audiences, 5 options: lists that long are not repeated by the many-items walk, which would otherwise nest
    thirty-fold three levels deep)."""
    kind, listed, ends = ("scale", [], [1, 5]) if flag else ("categorical", ["a", "b", "c", "d", "e"], None)
    values = ["1", "2", "3", "4", "5"] if flag else listed
    audiences = [(f"Aud {n}", values) for n in range(6)]
    questions = tuple(
        Asked(
            n, f"Q {n}", results.build(title=f"Q {n}", kind=kind, audiences=audiences, listed=listed, scale_range=ends)
        )
        for n in range(1, 6)
    )
    agent = AgentRun.model_validate(samples.agent_run("partial" if flag else "completed"))
    first = RunSide(run=agent, questions=(*questions, *asked_in_run(_run())))
    return compare_runs(first, RunSide(run=agent, questions=questions), study="Cups")


def _plan() -> ResearchPlan:
    data = plan_data(questions=5, advanced=True)
    data["questions"][0]["text"] = "Q " * 10
    return ResearchPlan.model_validate(data)


def _calculation(flag: bool) -> Any:
    """A calculation (the ``Calculation`` union is sampled by its first member): many items, or prices."""
    if flag:
        items = [{"item": f"Item {i}", "score": i} for i in range(30)]
        return parse_calculation({"methodId": "maxdiff", "n": 12, "audiences": [{"name": "A"}], "items": items})
    prices = {"currency": "EUR", "acceptableRange": [80, 140], "optimalPricePoint": 105}
    return parse_calculation({"methodId": "van-westendorp", "n": 12, "result": prices})


def _heatmap(flag: bool) -> Heatmap:
    body: dict[str, Any] = {"status": "completed" if flag else "failed", "assetKey": "k", "kind": "image"}
    if flag:
        body |= {"respondents": 12, "regions": [{"label": "Logo", "attention": 0.2}], "summary": "Eyes on the logo"}
    else:
        body |= {"error": "render failed", "queuePosition": 3}
    return Heatmap.model_validate(body)


def _spend(flag: bool) -> Spend:
    return Spend(
        team_id="T1",
        spend_id="s1",
        channel_id="C0001",
        user_id="U0001",
        action="ask" if flag else "heatmap",
        subject="Would you buy it?",
        command="ask s1 Would you buy it?",
        responses=28 if flag else None,
        cost=None if flag else "premium",
        outcome=SpendOutcome.STARTED if flag else SpendOutcome.DECLINED,
        decided_by="U0002",
        detail="run-1",
        created_at=datetime(2026, 12, 1, 9, 30, tzinfo=UTC),
    )


# One benign sample per type a renderer takes; ``flag`` picks between two shapes where that matters.
SAMPLES: dict[Any, Callable[[bool], Any]] = {
    datetime: lambda flag: datetime(2026, 12, 1, 9, 30, tzinfo=UTC),
    Message: lambda flag: note(HOSTILE) if flag else Message(text=escape(LONG_HOSTILE)),  # rendered: already inert
    StudyOutput: _output,
    BrowsePage: _browse_page,
    StudyDetail: lambda flag: StudyDetail.model_validate(samples.study_detail(shared=flag)),
    Study: lambda flag: _study(),
    AgentRun: lambda flag: AgentRun.model_validate(samples.agent_run("partial" if flag else "running")),
    Walked: lambda flag: Walked(
        items=[
            AgentRun.model_validate(samples.agent_run("completed", run_id=f"run-{n}", message_id=f"m-{n}"))
            for n in range(1, 13)
        ],
        complete=flag,
    ),
    StudyMessage: lambda flag: StudyMessage.model_validate(
        {
            "id": "m1",
            "role": "user" if flag else "assistant",
            "content": "1. First question?\n2. Second?",
            "createdAt": "2026-12-01T09:30:00Z",
            "metadata": {"runId": samples.RUN_ID, "outputData": {"responseCount": 12}},
        }
    ),
    ResearchRun: lambda flag: _run(),
    RunArtifact: lambda flag: _run().artifacts[0 if flag else 2],
    AnswerConsistency: lambda flag: _run().answer_consistency,
    ResearchPlan: lambda flag: _plan(),
    PlanQuestion: lambda flag: _plan().questions[1],
    PlanMethod: lambda flag: _plan().methods[0],
    PlanContext: lambda flag: CONTEXT,
    SemanticSummary: lambda flag: SemanticSummary(summary="# Head\n**bold** " * 900, is_generating=flag, revision=2),
    SharingState: lambda flag: SharingState(
        is_public=flag, is_link_sharing_enabled=flag, shared_study_url="https://getminds.ai/s/1?a=1&b=2"
    ),
    ExportStatus: lambda flag: ExportStatus(status="processing", progress=40.0, filename="cups.md"),
    ExportFailed: lambda flag: ExportFailed(error_code="EXPORT_FAILED", error="renderer crashed"),
    StudyDuplicate: lambda flag: StudyDuplicate.model_validate(
        {"study": study_data(), "replayed": flag, "workspaceUrl": "https://getminds.ai/w/1"}
    ),
    AudienceLimits: lambda flag: AudienceLimits.model_validate(
        {"perAudienceCap": 50, "modes": [{"mode": "auto", "automaticSizingCeiling": 40}]}
    ),
    FromBriefResult: lambda flag: FromBriefResult(id="a1", name="Commuters", mind_count=8, minds=[]),
    FromBriefJob: lambda flag: FromBriefJob.model_validate(
        {"jobId": "j1", "status": "processing" if flag else "queued", "progress": 40}
    ),
    HomeState: lambda flag: HomeState(
        connected=flag,
        awaiting=[HomePlan(study_name="Cups", channel_id="C0001", revision=2 if flag else None, requester_id="U1")],
        live=[HomeRun(study_name="Cups", channel_id="C0001", progress="Step 2 of 5" if flag else None)],
        studies=[HomeStudy(study_id="s1", name="Cups")],
        digests=[HomeDigest(digest_id="d1", channel_id="C0001", schedule="every day at 09:00 (UTC)", studies=2)],
        channels_read=flag,
        results=[_ended_run(flag)],
        run_dms_on=flag,
    ),
    EndedRun: lambda flag: _ended_run(flag),
    DigestContent: lambda flag: _digest_content(),
    Digest: lambda flag: _digest(),
    Candidate: lambda flag: Candidate(item=_study(), score=0.9),
    LookupResult: lambda flag: LookupResult(kind="not_found", query="cups", scanned=1000, exhaustive=False),
    Audience: lambda flag: Audience.model_validate(samples.audience(1)),
    Formation: lambda flag: Formation.model_validate(json.loads(formations_data().content)["data"][0]),
    AudienceProgress: lambda flag: AudienceProgress.model_validate(
        {"total": 12, "building": 3, "members": [{"id": "m1", "name": "Ana", "status": "training"}]}
    ),
    StudyAnalytics: lambda flag: StudyAnalytics.model_validate(analytics_document()),
    ChartPanel: lambda flag: ChartPanel(title="Buy?", options=["Yes", "No"], values=[75.0, 25.0], unit="answers"),
    Panel: lambda flag: Panel(title="Buy?", options=["Yes", "No"], values={"Aud": [75.0, 25.0]}, unit="answers"),
    AudienceDetail: lambda flag: AudienceDetail.model_validate(audience_detail_data(calibrating=flag)),
    AudienceDuplicate: lambda flag: AudienceDuplicate.model_validate(
        {"audience": audience_detail_data(), "replayed": flag, "audienceUrl": "https://getminds.ai/a/1"}
    ),
    MindDetail: lambda flag: MindDetail.model_validate(mind_detail(ready=flag)),
    TrainingStatus: lambda flag: TrainingStatus.model_validate(
        {"status": "running", "readyToChat": False, "message": "Collecting sources"}
        if flag
        else {"status": "failed", "readyToChat": False, "error": {"code": "TIMEOUT", "retryable": False}}
    ),
    KnowledgeItem: lambda flag: KnowledgeItem.model_validate(
        {
            "id": "k1",
            "description": "Survey",
            "link": "https://example.com/s" if flag else None,
            "filePath": None if flag else "portfolio/u/1_survey.pdf",
            "processing": {"status": "queued"} if flag else None,
        }
    ),
    MindDeletion: lambda flag: MindDeletion.model_validate(
        {"mindId": "m1", "deleted": flag, "error": None if flag else "Mind not found"}
    ),
    RegeneratedImage: lambda flag: RegeneratedImage.model_validate(
        {"mindId": "m1", "name": "Nora", "enqueued": flag, "skippedReason": None if flag else "image already set"}
    ),
    MindPattern: lambda flag: MindPattern.model_validate(
        {"id": 1, "aspect": "Openness", "subAspect": "Fantasy" if flag else None, "mind": "Likes bold ideas"}
    ),
    KnowledgePatterns: lambda flag: KnowledgePatterns.model_validate(
        {
            "mindId": "m1",
            "mindName": "Nora",
            "totalPatterns": 3,
            "frameworks": [
                {
                    "id": "ocean",
                    "name": "Big Five (OCEAN)",
                    "totalOccurrences": 3,
                    "aspects": [
                        {
                            "id": "ocean-O",
                            "name": "Openness",
                            "occurrences": 3,
                            "subAspects": [{"id": "ocean-O-1", "name": "Fantasy", "occurrences": 3}],
                        }
                    ],
                }
            ]
            if flag
            else [],
        }
    ),
    StudyDraft: lambda flag: StudyDraft.model_validate(
        draft_data(
            {"source": "minds-bot", "studyId": "s1", "draftPlanId": "p1"}, status="draft" if flag else "starting"
        )
    ),
    StudyTemplate: lambda flag: StudyTemplate.model_validate(template_data()),
    Heatmap: _heatmap,
    Comparison: _comparison,
    Block: lambda flag: compare_block(study_id="s1", run_id="r1"),  # the bot's own button closing a result
    QuestionComparison: lambda flag: _comparison(flag).questions[0],
    VanWestendorpCalculation: _calculation,
    InvitationResult: lambda flag: InvitationResult.model_validate(
        {"invited": ["ana@example.com"], "emailFailures": [{"email": "bo@x.invalid", "reason": "bounced"}]}
    ),
    ResearchMethod: lambda flag: ResearchMethod.model_validate(METHODS[0 if flag else 1]),
    Mapping: lambda flag: catalogue(),  # Minds' method catalogue by id
    ModelConnection: lambda flag: ModelConnection.model_validate(
        {"id": "mc1", "name": "House model", "provider": "openai", "model": "gpt", "revision": 2, "verifiedAt": "x"}
    ),
    PlanConnections: lambda flag: PlanConnections(
        [ModelConnection.model_validate({"id": "mc1", "name": "House", "revision": 2, "verifiedAt": "x"})]
        + [ModelConnection.model_validate({"id": "mc2", "name": "Draft", "revision": 1, "verifiedAt": None})],
        unreadable=None if flag else "Minds did not answer",
    ),
    Recalibration: lambda flag: Recalibration.model_validate(
        {"refreshedMembers": 1, "evolvedMembers": 2, "retrainingMembers": 4, "addedMembers": 0}
    ),
    Spend: _spend,
    SpendReport: lambda flag: SpendReport(
        days=7, until=datetime(2026, 12, 2, tzinfo=UTC), spends=[_spend(True), _spend(False)] if flag else []
    ),
    SpendTotals: lambda flag: SpendTotals(
        sent=3, responses=56, not_known=1, premium=1 if flag else 0, held=1, not_sent=2
    ),
    PolicyMode: lambda flag: PolicyMode.APPROVE if flag else PolicyMode.REFUSE,
    SpendOutcome: lambda flag: SpendOutcome.HELD if flag else SpendOutcome.WITHDRAWN,
    AudienceCreated: lambda flag: AudienceCreated.model_validate(
        {**audience_created(), "isLinkSharingEnabled": flag, "publicShareId": "sh1" if flag else None}
    ),
    SegmentationPreview: lambda flag: SegmentationPreview.model_validate(segmentation_preview()),
    MindSummary: lambda flag: MindSummary.model_validate(samples.mind(1, "Ana")),
    FormationPreview: lambda flag: FormationPreview.model_validate(
        {
            "memberCount": 60 if flag else 12,
            "softWarn": flag,
            "hardCapExceeded": False,
            "phase": "hypothesizing",
            "hypothesis": {
                "intent": "Audience by age",
                "subgroups": [{"id": f"g{i}", "label": f"Group {i}", "definition": f"Rule {i}"} for i in range(15)],
            },
        }
    ),
    ImagesRegeneration: lambda flag: ImagesRegeneration.model_validate(
        {"audienceId": "a1", "totalMembers": 12, "candidates": 12, "enqueued": 0 if flag else 12, "skipped": 0}
        | {"errors": 1 if flag else 0, "dry": flag, "sample": [{"id": "m1", "name": "Mia"}]}
    ),
    SourceImport: lambda flag: SourceImport.model_validate(
        {"files": [{"name": "a.csv", "url": "https://m/u/a.csv", "sha256": "ab", "size": 3}], "sourcePolicy": "x"}
    ),
}


def _ended_run(flag: bool) -> EndedRun:
    return EndedRun(
        study_name="Cups",
        channel_id="C0001",
        status="cancelled" if flag else "completed",
        revision=2 if flag else None,
        cancelled_by="U1" if flag else None,
        permalink="https://acme.slack.com/archives/C0001/p1700000000000100",
    )


def sample(annotation: Any, *, name: str, flag: bool, hostile: str, copies: int = 1) -> Any:
    """A hostile value of type ``annotation`` for the parameter ``name``."""
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin in (typing.Union, types.UnionType):
        return sample(
            next(a for a in args if a is not type(None)), name=name, flag=flag, hostile=hostile, copies=copies
        )
    if origin is typing.Literal:
        return args[0] if flag else args[-1]
    if annotation is str:
        return id_sized(name, hostile)
    if annotation is bool:
        return flag
    if annotation is int:
        return 0 if name == "page" else 2
    if name == "rerun":
        return lambda item_id: f"study {item_id}"
    if name == "numbers":
        return {hostile: 1, "q1": 1}
    if name == "hidden":  # runs of channels the person is not in (none of these: every renderer shows something)
        return {"run-elsewhere"}
    if name == "hidden_messages":  # answers of those runs
        return {"message-elsewhere"}
    if name == "studies" and annotation == Sequence[Any]:
        return [poison(_study(), hostile)] * 3 * copies
    if origin is tuple:
        return tuple(sample(a, name=name, flag=flag, hostile=hostile, copies=copies) for a in args)
    if origin in (list, Sequence, typing.Sequence) or origin is getattr(typing, "Sequence", None):
        return [sample(args[0], name=name, flag=flag, hostile=hostile, copies=copies)] * 2 * copies
    base = origin or annotation
    if base in SAMPLES:
        return poison(SAMPLES[base](flag), hostile, copies)
    raise AssertionError(f"no hostile sample for {annotation!r} ({name}): add one to SAMPLES")


def call_hostile(function: Callable[..., Any], *, flag: bool, hostile: str, copies: int = 1) -> Any:
    hints = typing.get_type_hints(function)
    kwargs = {
        name: sample(hints[name], name=name, flag=flag, hostile=hostile, copies=copies)
        for name, parameter in inspect.signature(function).parameters.items()
        if parameter.default is inspect.Parameter.empty or name not in ("limit", "size")
    }
    return function(**kwargs)


# --- what reaches Slack ---------------------------------------------------------------------------------------


def slack_texts(value: Any) -> Iterator[tuple[str, str]]:
    """(kind, text) for every piece of text Slack would show: mrkdwn (parsed) or plain_text (shown as is)."""
    if value is None or isinstance(value, bool | int | bytes):
        return
    if isinstance(value, str):
        yield "mrkdwn", value  # a message text, an initial_comment or a line built into mrkdwn
    elif isinstance(value, Message):
        yield "mrkdwn", value.text
        yield from slack_texts(value.as_kwargs()["blocks"])
    elif isinstance(value, ApprovalGate):
        for reason in value.reasons():
            yield "mrkdwn", reason  # shown on the plan message and said back to a refused Approve
    elif isinstance(value, RenderedPlan):
        yield from slack_texts(value.message)
        for page in value.pages:
            yield from slack_texts(page)
    elif isinstance(value, JsonObject):
        if isinstance(value, View):
            value.validate_json()
        yield from slack_texts(value.to_dict())
    elif isinstance(value, Mapping):
        assert value.get("max_length", 0) <= MAX_TEXT_INPUT, "Slack refuses a text input longer than 3,000"
        if value.get("type") in ("mrkdwn", "plain_text") and isinstance(value.get("text"), str):
            yield value["type"], value["text"]
        for item in value.values():
            if isinstance(item, Mapping | list | tuple):  # other strings are ids, values and settings
                yield from slack_texts(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from slack_texts(item)
    else:
        raise AssertionError(f"a renderer returned {type(value).__name__}: teach slack_texts what Slack shows of it")


def assert_inert(value: Any, *, allowed: Sequence[str] = ()) -> None:
    """No live markup the bot did not build (``allowed``: mentions it built from known Slack ids), no escaping
    shown twice, and mrkdwn that reads back as plain words."""
    seen = list(slack_texts(value))
    assert seen, "nothing to check"
    for kind, text in seen:
        if kind == "mrkdwn":
            for built in allowed:
                text = text.replace(built, "")
            assert not LIVE.search(text), f"live markup in {text[:300]!r}"
            assert not re.search(r"&amp;(lt|gt|amp);", text), f"escaped twice: {text[:300]!r}"
        else:
            assert not re.search(r"&(lt|gt|amp);", text), f"plain_text shows escaping: {text[:300]!r}"


@pytest.mark.parametrize("flag", [True, False], ids=["shape-a", "shape-b"])
@pytest.mark.parametrize("hostile", list(CORPUS.values()), ids=list(CORPUS))
@pytest.mark.parametrize("name", sorted(RENDERERS))
def test_every_renderer_keeps_hostile_text_inert_and_within_slacks_limits(name: str, hostile: str, flag: bool) -> None:
    rendered = call_hostile(RENDERERS[name], flag=flag, hostile=hostile)  # Message validates Slack's limits
    if rendered is not None:  # None: nothing to say for this shape (e.g. no coverage gap)
        assert_inert(rendered)


@pytest.mark.parametrize("flag", [True, False], ids=["shape-a", "shape-b"])
@pytest.mark.parametrize("name", sorted(RENDERERS))
def test_every_renderer_stays_within_slacks_limits_with_many_items(name: str, flag: bool) -> None:
    """Thirty times the Audiences, answers, questions, options and runs: paged, split or counted, never too big."""
    try:
        rendered = call_hostile(RENDERERS[name], flag=flag, hostile=HOSTILE, copies=MANY)
    except PlanTooLarge:  # the one refusal a caller handles: the whole plan is attached instead (flows/planning)
        assert name == "minds_bot.render.plan.render_plan"
        return
    if rendered is not None:
        assert_inert(rendered)


def test_the_hostile_corpus_does_reach_the_output() -> None:
    """The walk proves something: the hostile words arrive, escaped in mrkdwn and as written in plain_text."""
    card = call_hostile(RENDERERS["minds_bot.render.study.render_study_card"], flag=True, hostile=HOSTILE)
    texts = list(slack_texts(card))
    mrkdwn = " ".join(text for kind, text in texts if kind == "mrkdwn")
    plain = " ".join(text for kind, text in texts if kind == "plain_text")
    assert "&lt;!channel&gt;" in mrkdwn and "<!channel>" not in mrkdwn
    assert "<!channel>" in plain  # the header: Slack parses nothing in plain_text, so nothing is escaped there


# --- the helpers ------------------------------------------------------------------------------------------------


@given(st.text(), st.integers(min_value=2, max_value=400))
def test_escape_leaves_no_markup_reads_back_and_keeps_its_bound(text: str, limit: int) -> None:
    escaped = escape(text)
    assert "<" not in escaped and ">" not in escaped
    assert unescape(escaped) == text
    bounded = escape(text, limit=limit)
    assert len(bounded) <= limit
    assert bounded == escaped or (bounded.endswith("…") and not re.search(r"&[a-z]{0,3}…$", bounded))


@pytest.mark.parametrize(
    ("given_id", "shown"),
    [("U0123ABC", "<@U0123ABC>"), ("W0123", "<@W0123>"), ("<!channel>", "&lt;!channel&gt;"), ("u1", "u1"), ("", "")],
)
def test_a_mention_is_built_only_from_a_slack_user_id(given_id: str, shown: str) -> None:
    assert render_package.mention(given_id) == shown


def test_a_channel_link_is_built_only_from_a_slack_channel_id() -> None:
    assert render_package.channel_mention("C0123") == "<#C0123>"
    assert render_package.channel_mention("C1|x> <!here") == "C1|x&gt; &lt;!here"


# --- end to end through the real Bolt app -----------------------------------------------------------------------

STUDY_ID = "11111111-1111-4111-8111-111111111111"
REQUESTER = "UREQ"
EVIL_NAME = "<!channel> <!here> <@U123> <http://evil.example|click> Evil"


def _everything_said(bot: BotHarness) -> list[dict[str, Any]]:
    said = []
    for method in ("chat.postMessage", "chat.update", "chat.postEphemeral", "files.completeUploadExternal"):
        said += bot.slack.calls_to(method)
    return said


def _texts_of(call: dict[str, Any]) -> list[tuple[str, str]]:
    blocks = call.get("blocks") or []
    blocks = json.loads(blocks) if isinstance(blocks, str) else blocks
    texts = [("mrkdwn", call[key]) for key in ("text", "initial_comment") if isinstance(call.get(key), str)]
    return texts + list(slack_texts(blocks))


def assert_slack_saw_no_live_text(calls: list[dict[str, Any]]) -> None:
    assert calls
    for call in calls:
        for kind, text in _texts_of(call):
            assert_inert([{"type": kind, "text": text}], allowed=(f"<@{REQUESTER}>",))


@pytest.fixture
async def bot() -> AsyncIterator[BotHarness]:
    def download(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=b"report", headers={"content-type": "text/markdown"})

    async with bot_harness(unique_ts=True, user=REQUESTER, download=download) as harness:
        harness.minds_api.on("GET", f"/studies/{STUDY_ID}", ok({**study_data(), "name": EVIL_NAME}))
        yield harness


async def test_row_6_an_export_of_a_study_named_like_a_mass_mention_pings_nobody(bot: BotHarness) -> None:
    export = f"/studies/{STUDY_ID}/export"
    bot.minds_api.on("POST", export, ok({"kind": "full_report", "format": "md", "jobId": "job-1", "status": "queued"}))
    bot.minds_api.on(
        "GET", f"/studies/{STUDY_ID}/export-status", ok({"status": "completed", "filename": f"{EVIL_NAME}.md"})
    )
    bot.minds_api.on(
        "GET",
        f"/studies/{STUDY_ID}/export-download",
        httpx.Response(302, headers={"location": "https://files.test/signed/report.md"}),
    )
    await bot.command(f"export {STUDY_ID}")
    await bot.tracker.next_tracked(RunKind.EXPORT)
    (announced,) = bot.slack.calls_to("chat.postMessage")
    assert announced["channel"] == CHANNEL
    assert announced["text"].startswith(
        ":page_facing_up: Export of &lt;!channel&gt; &lt;!here&gt; &lt;@U123&gt; "
        "&lt;http://evil.example|click&gt; Evil: full report (md) requested by <@UREQ>."
    )
    await bot.tick()
    assert bot.slack.calls_to("files.completeUploadExternal"), "the report was attached"
    assert_slack_saw_no_live_text(_everything_said(bot))


async def test_row_6_the_plan_message_and_its_fallback_text_are_inert(bot: BotHarness) -> None:
    preview = f"/studies/{STUDY_ID}/research-plans/preview"
    data = plan_data(objective=HOSTILE, framingWarnings=[HOSTILE])
    data["confirmationQuestions"] = [{"id": "cq1", "text": HOSTILE, "options": [HOSTILE, "No"]}]
    bot.minds_api.on("POST", preview, ok(data))
    await bot.command(f"plan {STUDY_ID} {HOSTILE}")
    run = await bot.tracker.next_tracked(RunKind.PLAN)
    await bot.tick()
    (plan_message,) = [c for c in bot.slack.calls_to("chat.update") if c["ts"] == run.thread_ts]
    assert plan_message["text"].startswith("Research plan for &lt;!channel&gt; &lt;!here&gt; &lt;@U123&gt;")
    assert_slack_saw_no_live_text(_everything_said(bot))


@pytest.mark.parametrize(
    "typed",
    [
        f"studies {HOSTILE}",
        f"digest add weekly {EVIL_NAME.split()[0]} 09:00",
        "frobnicate<!channel>",
        f"digest now <!here>{'x' * 5}",
        "digest add daily <!here>",
    ],
    ids=["browse query", "digest weekday", "unknown word", "digest id", "digest time"],
)
async def test_a_persons_own_text_is_said_back_inert(bot: BotHarness, typed: str) -> None:
    bot.minds_api.on("GET", "/studies", page([], total=0, offset=0))
    await bot.command(typed)
    answer = await bot.reply()
    assert_slack_saw_no_live_text([answer])
    assert "&lt;!" in json.dumps(answer)  # said back, escaped — not dropped


async def test_minds_error_words_are_inert_in_the_error_reply(bot: BotHarness) -> None:
    bot.minds_api.on("GET", "/studies", envelope(400, message=f"{HOSTILE} {'x' * 5000}"))
    await bot.command("studies")
    answer = await bot.reply()
    assert answer["text"].startswith("Minds rejected the request: &lt;!channel&gt; &lt;!here&gt;")
    assert len(answer["text"]) < 1000  # Minds' 5,000-character reason is shortened, visibly
    assert answer["text"].endswith("…")
    assert_slack_saw_no_live_text([answer])
