"""The Minds v1 REST client — the bot's only way to talk to Minds. Imports nothing from Slack or the store.

Public API (see each docstring for details)::

    MindsClient.create(*, api_key, base_url=DEFAULT_BASE_URL, timeout=30.0, limiter=None, retry=None,
                       clock=time.monotonic, sleep=asyncio.sleep) -> MindsClient
    MindsClient(http, *, api_key, download_http, limiter=None, retry=None, clock, sleep, rng=None)
        async with ... / await aclose()
      me() -> Me
      iter_studies(*, max_items=None) -> AsyncIterator[Study]       get_study(id) -> StudyDetail
      studies_page / audiences_page(*, offset=0, limit=20) / minds_page(*, offset, limit, search=None) -> Page
      find_study(query) -> LookupResult
      create_study(*, name, audience_ids=(), link_sharing=None) -> StudyCreated
      duplicate_study(id, *, idempotency_key, name=None) -> StudyDuplicate
      set_sharing(id, *, enabled) -> SharingState                    get_analytics(id) -> StudyAnalytics
      get_summary(id) / refresh_summary(id, *, force=False, length=None) -> SemanticSummary
      iter_audiences(*, max_items=None)   get_audience(id)   find_audience(query)   audience_limits()
      duplicate_audience(id, *, idempotency_key, name=None) -> AudienceDuplicate
      create_audience_from_brief(*, text, idempotency_key, name=None, member_count=None)
          -> FromBriefJob | FromBriefResult
      get_audience_job(job_id) / wait_audience_job(job_id, *, wait_seconds) -> FromBriefJob
      iter_minds(*, search=None, max_items=None)   find_mind(query)   get_mind(id) -> MindDetail
      create_chat(*, mind_id, name=None) -> ChatCreated
      start_profile_export(kind, id, *, format, force=None) / profile_export_status(kind, id, *, job_id, format)
          / wait_profile_export(kind, id, export, *, format, wait_seconds) -> ProfileExport   (kind audiences|minds)
      send_chat_message(chat_id, *, content, end_user_name=None) -> ChatReply
      start_direct_run(study_id, *, question, client_request_id, audience_ids=None, history_mode=None,
                       route_research_brief=True) -> DirectRunAccepted | PlanningRequired
      get_run(run_id) -> AgentRun    cancel_run(run_id) -> RunCancellation
      list_study_runs(study_id, *, limit=20) -> list[AgentRun]
      get_message_answers(study_id, message_id) -> MessageAnswers
      research_methods() -> list[ResearchMethod]
      audience_progress(id) -> AudienceProgress    list_formations(id) -> list[Formation]
      recalibrate_audience(id, *, instruction=None, allow_shared_minds=None) -> Recalibration
      model_connections() -> list[ModelConnection]   (404: disabled on this server)
      invite_to_study(id, *, emails, role="member") -> InvitationResult
      import_audience_sources([(name, text), …]) -> SourceImport   (count, order and SHA-256 verified)
      get_heatmap / start_heatmap(study_id, message_id, *, asset_key) -> Heatmap
      export_heatmap(study_id, message_id, *, wait_seconds) -> DownloadedFile | HeatmapExportStatus (unfinished)
      preview_plan(study_id, PlanPreviewRequest, *, idempotency_key, wait_seconds=60)
          -> ResearchPlan | PlanPending
      resume_plan(PlanPending, *, wait_seconds=60) -> ResearchPlan | PlanPending
      start_research_run(study_id, *, draft_plan_id, revision, idempotency_key, advanced_method_opt_in=None,
                         audience_ids=None, model_connection=None) -> ResearchRunStarted
      get_research_run(study_id, run_id) -> ResearchRun
      list_study_drafts() -> list[StudyDraft]    list_study_templates() -> list[StudyTemplate]
      create_study_draft(*, name, state, idempotency_key) -> StudyDraft    delete_study_draft(id) -> None
      consume_study_draft(id, *, expected_revision, study_id=None) -> StudyDraft
      save_study_template(*, name, configuration, request_id) -> StudyTemplate
      use_study_template(id, *, expected_revision, request_id) -> StudyDraft
      start_export(study_id, *, kind, format, length=None, force=None) -> ExportJob
      export_status(study_id, job) / wait_export(study_id, job, *, wait_seconds) -> ExportStatus
      download_export(study_id, job, *, status=None, dest_dir=None, max_bytes=...) -> DownloadedFile
    RateLimiter(*, requests_per_minute=300, window=60.0, clock, sleep, ledger=None, budget='')
    RetryPolicy(max_attempts, base_delay, ...)
    BudgetLedger (protocol: budget_take, budget_recent)    MemoryLedger(clock)    budget_name(api_key)
    resolve(query, items, *, exhaustive) -> LookupResult      (pure name resolver)
    parse_output(outputData, *, request=None) -> StudyOutput     (a question's answers; malformed raises)
    errors: MindsError and its tree (see minds_bot.minds.errors)
"""

from minds_bot.minds.client import DEFAULT_BASE_URL, MindsClient, user_agent
from minds_bot.minds.errors import (
    AudienceJobFailed,
    AuthenticationError,
    Conflict,
    DownloadFailed,
    ExportFailed,
    InvalidRequest,
    MalformedResponse,
    MindNotReady,
    MindsAPIError,
    MindsConnectionError,
    MindsError,
    MindsTimeout,
    MindsTransportError,
    NotFound,
    NotReadyMind,
    PanelMindsNotReady,
    PermissionDenied,
    PlanLimitError,
    RateLimited,
    RequestInfo,
    ServerError,
    ServiceUnavailable,
    StaleRevision,
    StudyRunInProgress,
    SummarySuperseded,
)
from minds_bot.minds.lookup import Candidate, LookupResult, resolve
from minds_bot.minds.models import (
    AgentRun,
    Audience,
    AudienceDetail,
    AudienceDuplicate,
    AudienceLimits,
    AudienceProgress,
    AudienceSource,
    CalibrationState,
    ChatCreated,
    ChatMind,
    ChatReply,
    ConfirmationQuestion,
    DimensionCoverage,
    DirectRunAccepted,
    DownloadedFile,
    EmailFailure,
    ExportJob,
    ExportStatus,
    Formation,
    FormationSubgroup,
    FromBriefJob,
    FromBriefResult,
    Heatmap,
    HeatmapExportStatus,
    ImportedSource,
    InvitationResult,
    Me,
    MemberProgress,
    MessageAnswers,
    MindDetail,
    MindSummary,
    ModelConnection,
    PlanAttachment,
    PlanModule,
    PlanningRequired,
    PlanPending,
    PlanPreviewRequest,
    PlanQuestion,
    ProfileExport,
    QuestionAnalytics,
    Recalibration,
    ResearchMethod,
    ResearchPlan,
    ResearchRun,
    ResearchRunStarted,
    ResearchState,
    RunArtifact,
    RunCancellation,
    SemanticSummary,
    SharingState,
    SourceImport,
    Study,
    StudyAnalytics,
    StudyCreated,
    StudyDetail,
    StudyDraft,
    StudyDuplicate,
    StudyTemplate,
)
from minds_bot.minds.output import OutputAnswer, OutputAsset, OutputAudience, StudyOutput, parse_output
from minds_bot.minds.paging import LOOKUP_WINDOW, Page
from minds_bot.minds.policy import BudgetLedger, MemoryLedger, RateLimiter, RetryPolicy, budget_name

__all__ = [
    "AudienceProgress",
    "AudienceSource",
    "CalibrationState",
    "DimensionCoverage",
    "EmailFailure",
    "Formation",
    "FormationSubgroup",
    "InvitationResult",
    "MemberProgress",
    "ModelConnection",
    "Recalibration",
    "ResearchState",
    "AgentRun",
    "LOOKUP_WINDOW",
    "OutputAnswer",
    "OutputAudience",
    "Page",
    "StudyOutput",
    "parse_output",
    "Audience",
    "AudienceDetail",
    "AudienceDuplicate",
    "HeatmapExportStatus",
    "ImportedSource",
    "Heatmap",
    "OutputAsset",
    "SourceImport",
    "AudienceJobFailed",
    "AudienceLimits",
    "ChatCreated",
    "ChatMind",
    "ChatReply",
    "AuthenticationError",
    "Candidate",
    "ConfirmationQuestion",
    "Conflict",
    "DEFAULT_BASE_URL",
    "DirectRunAccepted",
    "DownloadFailed",
    "DownloadedFile",
    "ExportFailed",
    "ExportJob",
    "ExportStatus",
    "FromBriefJob",
    "FromBriefResult",
    "InvalidRequest",
    "LookupResult",
    "MalformedResponse",
    "Me",
    "MessageAnswers",
    "MindDetail",
    "MindSummary",
    "MindsAPIError",
    "MindsClient",
    "MindsConnectionError",
    "MindsError",
    "MindsTimeout",
    "MindsTransportError",
    "NotFound",
    "MindNotReady",
    "NotReadyMind",
    "PanelMindsNotReady",
    "PermissionDenied",
    "PlanLimitError",
    "PlanModule",
    "PlanPending",
    "PlanPreviewRequest",
    "PlanAttachment",
    "PlanQuestion",
    "ProfileExport",
    "QuestionAnalytics",
    "PlanningRequired",
    "RateLimited",
    "RateLimiter",
    "BudgetLedger",
    "MemoryLedger",
    "budget_name",
    "RequestInfo",
    "ResearchMethod",
    "ResearchPlan",
    "ResearchRun",
    "ResearchRunStarted",
    "RetryPolicy",
    "RunArtifact",
    "RunCancellation",
    "SemanticSummary",
    "ServerError",
    "ServiceUnavailable",
    "SharingState",
    "StaleRevision",
    "Study",
    "StudyAnalytics",
    "StudyCreated",
    "StudyDetail",
    "StudyDraft",
    "StudyDuplicate",
    "StudyRunInProgress",
    "StudyTemplate",
    "SummarySuperseded",
    "resolve",
    "user_agent",
]
