"""The Minds v1 REST client — the bot's only way to talk to Minds. Imports nothing from Slack or the store.
Every name below loads its module on first use (``__getattr__``), so a process pays for the client and its ~130
models only once something uses them (the bot serves first, see ``app.Bot``).

``MindsClient`` is one object composed by resource (``minds_bot.minds.resources``: studies, audiences, minds, chat,
runs, research plans, drafts, exports, heatmaps) over one transport (``minds_bot.minds.transport``); its models are
one module per resource in ``minds_bot.minds.models``. The map is in ``minds_bot.minds.client``.

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
      create_audience_from_brief(*, text, idempotency_key, name=None, member_count=None, files=None, links=None,
          keywords=None, include_web_search=None, creation_mode=None, dataset_segmentation=None,
          link_sharing=None) -> FromBriefJob | FromBriefResult
      create_audience(*, name, mind_ids, idempotency_key, link_sharing=None) -> AudienceCreated
      preview_dataset_segmentation(*, name, url, columns=None) -> SegmentationPreview
      get_audience_job(job_id) / wait_audience_job(job_id, *, wait_seconds) -> FromBriefJob
      iter_minds(*, search=None, max_items=None)   find_mind(query)   get_mind(id) -> MindDetail
      create_mind(*, name, discipline, mode, idempotency_key, …) -> CreatedMind   mind_training(id) -> TrainingStatus
      update_mind(id, *, name=None, description=None, discipline=None) -> MindSummary   delete_mind(id) -> None
      retrain_mind(id) -> TrainingStatus   regenerate_mind_prompt(id) -> RegeneratedPrompt
      list_mind_knowledge(id) -> KnowledgeList
      add_mind_knowledge(id, *, description, link=None, file=None) -> KnowledgeItem
      mind_knowledge_status(id, item_id) -> KnowledgeStatus   delete_mind_knowledge(id, item_id) -> None
      update_mind_knowledge(id, item_id, *, description) -> KnowledgeItem
      enrich_mind_knowledge(id, *, keywords, regenerate_prompt=True) -> KnowledgeEnrichment   (1-15 keywords)
      mind_knowledge_patterns(id) -> KnowledgePatterns   mind_patterns(id) -> list[MindPattern]
      regenerate_mind_image(id, *, force=False, persona_context=None) -> RegeneratedImage
      regenerate_mind_embeddings(id) -> None   (202 only)   delete_minds(ids) -> MindsDeleted   (1-100, each reported)
      create_chat(*, mind_id, name=None) -> ChatCreated
      start_profile_export(kind, id, *, format, force=None) / profile_export_status(kind, id, *, job_id, format)
          / wait_profile_export(kind, id, export, *, format, wait_seconds) -> ProfileExport   (kind audiences|minds)
      send_chat_message(chat_id, *, content, end_user_name=None) -> ChatReply
      start_direct_run(study_id, *, question, client_request_id, audience_ids=None, history_mode=None,
                       route_research_brief=True) -> DirectRunAccepted | PlanningRequired
      get_run(run_id) -> AgentRun    cancel_run(run_id) -> RunCancellation
      list_study_runs(study_id, *, limit=20) -> list[AgentRun]
      study_runs_page(study_id, *, before=None, limit=100) -> CursorPage[AgentRun]
      all_study_runs(study_id, *, max_pages=10) -> Walked[AgentRun]   (to the end; ``complete`` False at the bound)
      get_message_answers(study_id, message_id) -> MessageAnswers
      research_methods() -> list[ResearchMethod]
      audience_progress(id) -> AudienceProgress    list_formations(id) -> list[Formation]
      recalibrate_audience(id, *, instruction=None, allow_shared_minds=None, query=None,
                           requested_distribution=None, links=(), keywords=(),
                           distributions=None) -> Recalibration   (distributions: selection mode)
      update_audience(id, *, name, shared_with_team=None) -> Audience    delete_audience(id)   (empty reply only)
      follow_audience(id) / unfollow_audience(id)    regenerate_audience_images(id, *, force, limit, dry)
      add_audience_members(id, mind_ids) -> MembersAdded    remove_audience_member(id, mind_id)
      preview_formation(id, *, user_input=None, prior=None) -> FormationPreview   (nothing saved)
      create_formation(id, *, hypothesis, name=None) / recompute_formation(id, fid) -> FormationBuild
      get_formation(id, fid) -> FormationDetail    delete_formation(id, fid)   (models.audience_manage)
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

from __future__ import annotations

from typing import TYPE_CHECKING

from minds_bot.lazy import lazy_names

if TYPE_CHECKING:  # the names as mypy and readers see them; at run time __getattr__ finds each
    from minds_bot.minds.client import (
        DEFAULT_BASE_URL as DEFAULT_BASE_URL,
    )
    from minds_bot.minds.client import (
        MindsClient as MindsClient,
    )
    from minds_bot.minds.client import (
        user_agent as user_agent,
    )
    from minds_bot.minds.errors import (
        AudienceJobFailed as AudienceJobFailed,
    )
    from minds_bot.minds.errors import (
        AuthenticationError as AuthenticationError,
    )
    from minds_bot.minds.errors import (
        Conflict as Conflict,
    )
    from minds_bot.minds.errors import (
        DownloadFailed as DownloadFailed,
    )
    from minds_bot.minds.errors import (
        ExportFailed as ExportFailed,
    )
    from minds_bot.minds.errors import (
        InvalidRequest as InvalidRequest,
    )
    from minds_bot.minds.errors import (
        MalformedResponse as MalformedResponse,
    )
    from minds_bot.minds.errors import (
        MindNotReady as MindNotReady,
    )
    from minds_bot.minds.errors import (
        MindsAPIError as MindsAPIError,
    )
    from minds_bot.minds.errors import (
        MindsConnectionError as MindsConnectionError,
    )
    from minds_bot.minds.errors import (
        MindsError as MindsError,
    )
    from minds_bot.minds.errors import (
        MindsTimeout as MindsTimeout,
    )
    from minds_bot.minds.errors import (
        MindsTransportError as MindsTransportError,
    )
    from minds_bot.minds.errors import (
        NotFound as NotFound,
    )
    from minds_bot.minds.errors import (
        NotReadyMind as NotReadyMind,
    )
    from minds_bot.minds.errors import (
        PanelMindsNotReady as PanelMindsNotReady,
    )
    from minds_bot.minds.errors import (
        PermissionDenied as PermissionDenied,
    )
    from minds_bot.minds.errors import (
        PlanLimitError as PlanLimitError,
    )
    from minds_bot.minds.errors import (
        RateLimited as RateLimited,
    )
    from minds_bot.minds.errors import (
        RequestInfo as RequestInfo,
    )
    from minds_bot.minds.errors import (
        ServerError as ServerError,
    )
    from minds_bot.minds.errors import (
        ServiceUnavailable as ServiceUnavailable,
    )
    from minds_bot.minds.errors import (
        StaleRevision as StaleRevision,
    )
    from minds_bot.minds.errors import (
        StudyRunInProgress as StudyRunInProgress,
    )
    from minds_bot.minds.errors import (
        SummarySuperseded as SummarySuperseded,
    )
    from minds_bot.minds.lookup import (
        Candidate as Candidate,
    )
    from minds_bot.minds.lookup import (
        LookupResult as LookupResult,
    )
    from minds_bot.minds.lookup import (
        resolve as resolve,
    )
    from minds_bot.minds.models import (
        AgentRun as AgentRun,
    )
    from minds_bot.minds.models import (
        Audience as Audience,
    )
    from minds_bot.minds.models import (
        AudienceCreated as AudienceCreated,
    )
    from minds_bot.minds.models import (
        AudienceDetail as AudienceDetail,
    )
    from minds_bot.minds.models import (
        AudienceDuplicate as AudienceDuplicate,
    )
    from minds_bot.minds.models import (
        AudienceLimits as AudienceLimits,
    )
    from minds_bot.minds.models import (
        AudienceProgress as AudienceProgress,
    )
    from minds_bot.minds.models import (
        AudienceSource as AudienceSource,
    )
    from minds_bot.minds.models import (
        CalibrationState as CalibrationState,
    )
    from minds_bot.minds.models import (
        ChatCreated as ChatCreated,
    )
    from minds_bot.minds.models import (
        ChatMind as ChatMind,
    )
    from minds_bot.minds.models import (
        ChatReply as ChatReply,
    )
    from minds_bot.minds.models import (
        ConfirmationQuestion as ConfirmationQuestion,
    )
    from minds_bot.minds.models import (
        CreatedMind as CreatedMind,
    )
    from minds_bot.minds.models import (
        DatasetVariable as DatasetVariable,
    )
    from minds_bot.minds.models import (
        DimensionCoverage as DimensionCoverage,
    )
    from minds_bot.minds.models import (
        DirectRunAccepted as DirectRunAccepted,
    )
    from minds_bot.minds.models import (
        DownloadedFile as DownloadedFile,
    )
    from minds_bot.minds.models import (
        EmailFailure as EmailFailure,
    )
    from minds_bot.minds.models import (
        ExportJob as ExportJob,
    )
    from minds_bot.minds.models import (
        ExportStatus as ExportStatus,
    )
    from minds_bot.minds.models import (
        Formation as Formation,
    )
    from minds_bot.minds.models import (
        FormationSubgroup as FormationSubgroup,
    )
    from minds_bot.minds.models import (
        FromBriefJob as FromBriefJob,
    )
    from minds_bot.minds.models import (
        FromBriefResult as FromBriefResult,
    )
    from minds_bot.minds.models import (
        GroundingDistribution as GroundingDistribution,
    )
    from minds_bot.minds.models import (
        Heatmap as Heatmap,
    )
    from minds_bot.minds.models import (
        HeatmapExportStatus as HeatmapExportStatus,
    )
    from minds_bot.minds.models import (
        ImportedSource as ImportedSource,
    )
    from minds_bot.minds.models import (
        InvitationResult as InvitationResult,
    )
    from minds_bot.minds.models import (
        KnowledgeEnrichment as KnowledgeEnrichment,
    )
    from minds_bot.minds.models import (
        KnowledgeItem as KnowledgeItem,
    )
    from minds_bot.minds.models import (
        KnowledgeList as KnowledgeList,
    )
    from minds_bot.minds.models import (
        KnowledgePatterns as KnowledgePatterns,
    )
    from minds_bot.minds.models import (
        KnowledgeStatus as KnowledgeStatus,
    )
    from minds_bot.minds.models import (
        Me as Me,
    )
    from minds_bot.minds.models import (
        MemberProgress as MemberProgress,
    )
    from minds_bot.minds.models import (
        MessageAnswers as MessageAnswers,
    )
    from minds_bot.minds.models import (
        MindDeletion as MindDeletion,
    )
    from minds_bot.minds.models import (
        MindDetail as MindDetail,
    )
    from minds_bot.minds.models import (
        MindPattern as MindPattern,
    )
    from minds_bot.minds.models import (
        MindsDeleted as MindsDeleted,
    )
    from minds_bot.minds.models import (
        MindSummary as MindSummary,
    )
    from minds_bot.minds.models import (
        ModelConnection as ModelConnection,
    )
    from minds_bot.minds.models import (
        PatternAspect as PatternAspect,
    )
    from minds_bot.minds.models import (
        PatternFramework as PatternFramework,
    )
    from minds_bot.minds.models import (
        PatternSubAspect as PatternSubAspect,
    )
    from minds_bot.minds.models import (
        PlanAttachment as PlanAttachment,
    )
    from minds_bot.minds.models import (
        PlanModule as PlanModule,
    )
    from minds_bot.minds.models import (
        PlanningRequired as PlanningRequired,
    )
    from minds_bot.minds.models import (
        PlanPending as PlanPending,
    )
    from minds_bot.minds.models import (
        PlanPreviewRequest as PlanPreviewRequest,
    )
    from minds_bot.minds.models import (
        PlanQuestion as PlanQuestion,
    )
    from minds_bot.minds.models import (
        ProfileExport as ProfileExport,
    )
    from minds_bot.minds.models import (
        QuestionAnalytics as QuestionAnalytics,
    )
    from minds_bot.minds.models import (
        Recalibration as Recalibration,
    )
    from minds_bot.minds.models import (
        RegeneratedImage as RegeneratedImage,
    )
    from minds_bot.minds.models import (
        RegeneratedPrompt as RegeneratedPrompt,
    )
    from minds_bot.minds.models import (
        ResearchMethod as ResearchMethod,
    )
    from minds_bot.minds.models import (
        ResearchPlan as ResearchPlan,
    )
    from minds_bot.minds.models import (
        ResearchRun as ResearchRun,
    )
    from minds_bot.minds.models import (
        ResearchRunStarted as ResearchRunStarted,
    )
    from minds_bot.minds.models import (
        ResearchState as ResearchState,
    )
    from minds_bot.minds.models import (
        RunArtifact as RunArtifact,
    )
    from minds_bot.minds.models import (
        RunCancellation as RunCancellation,
    )
    from minds_bot.minds.models import (
        SegmentationPreview as SegmentationPreview,
    )
    from minds_bot.minds.models import (
        SemanticSummary as SemanticSummary,
    )
    from minds_bot.minds.models import (
        SharingState as SharingState,
    )
    from minds_bot.minds.models import (
        SourceImport as SourceImport,
    )
    from minds_bot.minds.models import (
        Study as Study,
    )
    from minds_bot.minds.models import (
        StudyAnalytics as StudyAnalytics,
    )
    from minds_bot.minds.models import (
        StudyCreated as StudyCreated,
    )
    from minds_bot.minds.models import (
        StudyDetail as StudyDetail,
    )
    from minds_bot.minds.models import (
        StudyDraft as StudyDraft,
    )
    from minds_bot.minds.models import (
        StudyDuplicate as StudyDuplicate,
    )
    from minds_bot.minds.models import (
        StudyTemplate as StudyTemplate,
    )
    from minds_bot.minds.models import (
        TrainingStatus as TrainingStatus,
    )
    from minds_bot.minds.output import (
        OutputAnswer as OutputAnswer,
    )
    from minds_bot.minds.output import (
        OutputAsset as OutputAsset,
    )
    from minds_bot.minds.output import (
        OutputAudience as OutputAudience,
    )
    from minds_bot.minds.output import (
        StudyOutput as StudyOutput,
    )
    from minds_bot.minds.output import (
        parse_output as parse_output,
    )
    from minds_bot.minds.paging import (
        LOOKUP_WINDOW as LOOKUP_WINDOW,
    )
    from minds_bot.minds.paging import (
        Page as Page,
    )
    from minds_bot.minds.paging import (
        Walked as Walked,
    )
    from minds_bot.minds.policy import (
        BudgetLedger as BudgetLedger,
    )
    from minds_bot.minds.policy import (
        MemoryLedger as MemoryLedger,
    )
    from minds_bot.minds.policy import (
        RateLimiter as RateLimiter,
    )
    from minds_bot.minds.policy import (
        RetryPolicy as RetryPolicy,
    )
    from minds_bot.minds.policy import (
        budget_name as budget_name,
    )

# Each name's module, imported on first use (PEP 562): a process that has not talked to Minds yet has not paid
# for building its ~130 models (the bot serves sooner; see app.py).
_WHERE = {
    "DEFAULT_BASE_URL": "client",
    "MindsClient": "client",
    "user_agent": "client",
    "AudienceJobFailed": "errors",
    "AuthenticationError": "errors",
    "Conflict": "errors",
    "DownloadFailed": "errors",
    "ExportFailed": "errors",
    "InvalidRequest": "errors",
    "MalformedResponse": "errors",
    "MindNotReady": "errors",
    "MindsAPIError": "errors",
    "MindsConnectionError": "errors",
    "MindsError": "errors",
    "MindsTimeout": "errors",
    "MindsTransportError": "errors",
    "NotFound": "errors",
    "NotReadyMind": "errors",
    "PanelMindsNotReady": "errors",
    "PermissionDenied": "errors",
    "PlanLimitError": "errors",
    "RateLimited": "errors",
    "RequestInfo": "errors",
    "ServerError": "errors",
    "ServiceUnavailable": "errors",
    "StaleRevision": "errors",
    "StudyRunInProgress": "errors",
    "SummarySuperseded": "errors",
    "Candidate": "lookup",
    "LookupResult": "lookup",
    "resolve": "lookup",
    "AgentRun": "models",
    "Audience": "models",
    "AudienceDetail": "models",
    "GroundingDistribution": "models",
    "AudienceDuplicate": "models",
    "AudienceLimits": "models",
    "AudienceProgress": "models",
    "AudienceSource": "models",
    "CalibrationState": "models",
    "ChatCreated": "models",
    "ChatMind": "models",
    "ChatReply": "models",
    "ConfirmationQuestion": "models",
    "DimensionCoverage": "models",
    "DirectRunAccepted": "models",
    "DownloadedFile": "models",
    "EmailFailure": "models",
    "ExportJob": "models",
    "ExportStatus": "models",
    "Formation": "models",
    "FormationSubgroup": "models",
    "FromBriefJob": "models",
    "AudienceCreated": "models",
    "SegmentationPreview": "models",
    "DatasetVariable": "models",
    "FromBriefResult": "models",
    "Heatmap": "models",
    "HeatmapExportStatus": "models",
    "ImportedSource": "models",
    "InvitationResult": "models",
    "Me": "models",
    "MemberProgress": "models",
    "MessageAnswers": "models",
    "CreatedMind": "models",
    "KnowledgeItem": "models",
    "KnowledgeList": "models",
    "KnowledgeStatus": "models",
    "TrainingStatus": "models",
    "MindDetail": "models",
    "RegeneratedPrompt": "models",
    "RegeneratedImage": "models",
    "MindPattern": "models",
    "PatternSubAspect": "models",
    "PatternAspect": "models",
    "PatternFramework": "models",
    "KnowledgePatterns": "models",
    "KnowledgeEnrichment": "models",
    "MindDeletion": "models",
    "MindsDeleted": "models",
    "MindSummary": "models",
    "ModelConnection": "models",
    "PlanAttachment": "models",
    "PlanModule": "models",
    "PlanningRequired": "models",
    "PlanPending": "models",
    "PlanPreviewRequest": "models",
    "PlanQuestion": "models",
    "ProfileExport": "models",
    "QuestionAnalytics": "models",
    "Recalibration": "models",
    "ResearchMethod": "models",
    "ResearchPlan": "models",
    "ResearchRun": "models",
    "ResearchRunStarted": "models",
    "ResearchState": "models",
    "RunArtifact": "models",
    "RunCancellation": "models",
    "SemanticSummary": "models",
    "SharingState": "models",
    "SourceImport": "models",
    "Study": "models",
    "StudyAnalytics": "models",
    "StudyCreated": "models",
    "StudyDetail": "models",
    "StudyDraft": "models",
    "StudyDuplicate": "models",
    "StudyTemplate": "models",
    "OutputAnswer": "output",
    "OutputAsset": "output",
    "OutputAudience": "output",
    "StudyOutput": "output",
    "parse_output": "output",
    "LOOKUP_WINDOW": "paging",
    "Page": "paging",
    "Walked": "paging",
    "BudgetLedger": "policy",
    "MemoryLedger": "policy",
    "RateLimiter": "policy",
    "RetryPolicy": "policy",
    "budget_name": "policy",
}

__getattr__ = lazy_names(__name__, _WHERE, globals())


def __dir__() -> list[str]:
    return sorted([*globals(), *_WHERE])
