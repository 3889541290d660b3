"""``MindsClient``: the bot's only way to talk to the Minds v1 REST API.

Owns: building requests (paths relative to the base URL, which already ends in ``/api/v1``), the bearer key,
bounded retries of GETs and keyed calls, the per-workspace rate limiter, parsing replies into models at the
boundary, plan-preparation observation, and export downloads. ``_exchange`` is the one place a request is sent:
it counts and times each attempt by operation (ids as ``{id}``) and status, and the wait for the budget, in
``minds_bot.metrics``.
Must not touch: Slack, the store, or any module-level client/clock. The key never appears in repr, logs or
errors; it is sent only to the Minds API host, never to a signed download URL.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import random
import re
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ValidationError

from minds_bot import __version__, metrics
from minds_bot.i18n import _
from minds_bot.lazy import LazyModule
from minds_bot.minds.errors import (
    AudienceJobFailed,
    Conflict,
    DownloadFailed,
    ExportFailed,
    MalformedResponse,
    MindsConnectionError,
    MindsError,
    MindsTimeout,
    MindsTransportError,
    NotFound,
    RateLimited,
    RequestInfo,
    ServerError,
    StaleRevision,
    SummarySuperseded,
    error_from_response,
)
from minds_bot.minds.lookup import LookupResult, resolve
from minds_bot.minds.models import (
    AgentRun,
    Audience,
    AudienceDetail,
    AudienceDuplicate,
    AudienceLimits,
    AudienceProgress,
    ChatCreated,
    ChatReply,
    DirectRunAccepted,
    DownloadedFile,
    ExportFormat,
    ExportJob,
    ExportKind,
    ExportStatus,
    Formation,
    FromBriefJob,
    FromBriefResult,
    Heatmap,
    HeatmapExportStatus,
    ImportedSource,
    InvitationResult,
    Me,
    MessageAnswers,
    MindDetail,
    MindsModel,
    MindSummary,
    ModelConnection,
    ModelConnectionPage,
    Pagination,
    PlanningRequired,
    PlanPending,
    PlanPreviewRequest,
    PlanReceipt,
    ProfileExport,
    ProfileExportKind,
    ProfileFormat,
    Recalibration,
    ResearchMethod,
    ResearchPlan,
    ResearchRun,
    ResearchRunStarted,
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
from minds_bot.minds.paging import (
    LOOKUP_WINDOW,
    MAX_CURSOR_PAGES,
    PAGE_SIZE,
    CursorPage,
    Page,
    Walked,
    check_page,
    iter_offset,
    walk_cursor,
)
from minds_bot.minds.policy import Clock, RateLimiter, RetryPolicy, Sleep, parse_retry_after, poll_delay

if TYPE_CHECKING:
    import httpx
else:
    httpx = LazyModule("httpx")  # imported on first use: start-up does not need it

log = logging.getLogger(__name__)

DEFAULT_BASE_URL = "https://getminds.ai/api/v1"
DEFAULT_TIMEOUT = 30.0
DEFAULT_PLAN_WAIT = 60.0
DEFAULT_EXPORT_WAIT = 120.0
DEFAULT_AUDIENCE_WAIT = 120.0
MAX_IDEMPOTENCY_KEY = 200
MAX_EXPORT_BYTES = 200 * 1024 * 1024
DOWNLOAD_CHUNK = 64 * 1024
REDIRECTS = frozenset({301, 302, 303, 307, 308})
MAX_FORMATION_PAGES = 10
FORMATION_PAGE = 100
MAX_CONNECTION_PAGES = 20

M = TypeVar("M", bound=BaseModel)


class _ListEnvelope(BaseModel, Generic[M]):
    data: list[M]
    pagination: Pagination


class _DataList(BaseModel, Generic[M]):
    data: list[M]


class _CursorPagination(MindsModel):
    has_more: bool
    next_cursor: str | None = None


class _CursorList(BaseModel, Generic[M]):
    data: list[M]
    pagination: _CursorPagination | None = None  # absent: Minds' one and only page


class MindsClient:
    """One instance per workspace key; use as ``async with MindsClient.create(api_key=...) as minds:``."""

    def __init__(
        self,
        http: httpx.AsyncClient,
        *,
        api_key: str,
        download_http: httpx.AsyncClient,
        limiter: RateLimiter | None = None,
        retry: RetryPolicy | None = None,
        clock: Clock = time.monotonic,
        sleep: Sleep = asyncio.sleep,
        rng: random.Random | None = None,
    ) -> None:
        if not api_key.strip():
            raise ValueError("a Minds API key is required")
        self._http = http
        self._download_http = download_http
        self._auth = f"Bearer {api_key.strip()}"
        self._clock = clock
        self._sleep = sleep
        self._retry = retry or RetryPolicy()
        self._limiter = limiter or RateLimiter(clock=clock, sleep=sleep)
        self._rng = rng or random.Random()  # noqa: S311 — jitter, not security

    @classmethod
    def create(
        cls,
        *,
        api_key: str,
        base_url: str = DEFAULT_BASE_URL,
        timeout: float = DEFAULT_TIMEOUT,
        limiter: RateLimiter | None = None,
        retry: RetryPolicy | None = None,
        clock: Clock = time.monotonic,
        sleep: Sleep = asyncio.sleep,
    ) -> MindsClient:
        """Build a client with its own httpx clients (one for the API, one plain one for signed URLs)."""
        http = httpx.AsyncClient(base_url=base_url, timeout=timeout, follow_redirects=False)
        download = httpx.AsyncClient(timeout=timeout, follow_redirects=True)
        return cls(
            http,
            api_key=api_key,
            download_http=download,
            limiter=limiter,
            retry=retry,
            clock=clock,
            sleep=sleep,
        )

    def __repr__(self) -> str:
        return f"MindsClient(base_url={str(self._http.base_url)!r})"

    @property
    def limiter(self) -> RateLimiter:
        """The workspace's rate limiter this client waits on (shared by every client for the same key)."""
        return self._limiter

    async def __aenter__(self) -> MindsClient:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()
        await self._download_http.aclose()

    # --- account -----------------------------------------------------------------------------------

    async def me(self) -> Me:
        """``GET /auth/me``: checks the key."""
        resp, info = await self._call("GET", "/auth/me")
        return _parse(Me, _json(resp, info), info)

    # --- Studies -----------------------------------------------------------------------------------

    def iter_studies(self, *, max_items: int | None = None) -> AsyncIterator[Study]:
        """Owned Studies, newest first, across pages."""
        return self._iter("/studies", Study, max_items=max_items)

    async def studies_page(self, *, offset: int = 0, limit: int = 20) -> Page[Study]:
        """One page of owned Studies, newest first, with ``pagination.total`` (for browsing)."""
        return await self._one_page("/studies", Study, offset=offset, limit=limit)

    async def get_study(self, study_id: str) -> StudyDetail:
        resp, info = await self._call("GET", f"/studies/{_seg(study_id)}")
        return _parse(StudyDetail, _data(resp, info), info)

    async def find_study(self, query: str) -> LookupResult[Study | StudyDetail]:
        """Exact id (then ``match`` is the ``StudyDetail``), or a name among the newest 1,000 Studies."""
        return await self._find(query, self._iter("/studies", Study, max_items=LOOKUP_WINDOW), "/studies")

    async def create_study(
        self, *, name: str, audience_ids: Sequence[str] = (), link_sharing: bool | None = None
    ) -> StudyCreated:
        """``POST /studies`` (no idempotency key exists for it, so it is never retried)."""
        body = _drop_none(
            {"name": name, "audienceIds": list(audience_ids) or None, "isLinkSharingEnabled": link_sharing}
        )
        resp, info = await self._call("POST", "/studies", json_body=body)
        return _parse(StudyCreated, _data(resp, info), info)

    async def duplicate_study(self, study_id: str, *, idempotency_key: str, name: str | None = None) -> StudyDuplicate:
        """``POST /studies/{id}/duplicate``: 201 a new copy, 200 the copy this key already made."""
        resp, info = await self._call(
            "POST",
            f"/studies/{_seg(study_id)}/duplicate",
            json_body=_drop_none({"name": name}),
            headers={"Idempotency-Key": _key(idempotency_key)},
            retryable=True,
        )
        payload = _json(resp, info)
        wrapped = {
            "study": _data_of(payload, info),
            "replayed": resp.status_code == 200,
            "workspaceUrl": _get(payload, "workspaceUrl"),
        }
        return _parse(StudyDuplicate, wrapped, info)

    async def set_sharing(self, study_id: str, *, enabled: bool) -> SharingState:
        """``PUT /studies/{id}/sharing``. Only call after the user explicitly asked for a public link."""
        resp, info = await self._call(
            "PUT", f"/studies/{_seg(study_id)}/sharing", json_body={"isLinkSharingEnabled": enabled}
        )
        return _parse(SharingState, _data(resp, info), info)

    async def get_analytics(self, study_id: str) -> StudyAnalytics:
        resp, info = await self._call("GET", f"/studies/{_seg(study_id)}/analytics")
        return _parse(StudyAnalytics, _data(resp, info), info)

    async def get_summary(self, study_id: str) -> SemanticSummary:
        resp, info = await self._call("GET", f"/studies/{_seg(study_id)}/summary")
        return _parse(SemanticSummary, _data(resp, info), info)

    async def refresh_summary(
        self,
        study_id: str,
        *,
        force: bool = False,
        length: Literal["short", "standard", "detailed"] | None = None,
    ) -> SemanticSummary:
        """``POST /studies/{id}/summary``; 409 (superseded) raises ``SummarySuperseded``: reload, retry."""
        resp, info = await self._call(
            "POST",
            f"/studies/{_seg(study_id)}/summary",
            json_body=_drop_none({"force": force, "length": length}),
            conflict_class=SummarySuperseded,
        )
        return _parse(SemanticSummary, _data(resp, info), info)

    # --- Audiences and Minds -----------------------------------------------------------------------

    def iter_audiences(self, *, max_items: int | None = None) -> AsyncIterator[Audience]:
        return self._iter("/audiences", Audience, max_items=max_items)

    async def audiences_page(self, *, offset: int = 0, limit: int = 20) -> Page[Audience]:
        """One page of Audiences, newest first, with ``pagination.total``."""
        return await self._one_page("/audiences", Audience, offset=offset, limit=limit)

    async def get_audience(self, audience_id: str) -> AudienceDetail:
        resp, info = await self._call("GET", f"/audiences/{_seg(audience_id)}")
        return _parse(AudienceDetail, _data(resp, info), info)

    async def find_audience(self, query: str) -> LookupResult[Audience | AudienceDetail]:
        return await self._find(query, self._iter("/audiences", Audience, max_items=LOOKUP_WINDOW), "/audiences")

    async def audience_limits(self) -> AudienceLimits:
        resp, info = await self._call("GET", "/audiences/limits")
        return _parse(AudienceLimits, _data(resp, info), info)

    async def duplicate_audience(
        self, audience_id: str, *, idempotency_key: str, name: str | None = None
    ) -> AudienceDuplicate:
        resp, info = await self._call(
            "POST",
            f"/audiences/{_seg(audience_id)}/duplicate",
            json_body=_drop_none({"name": name}),
            headers={"Idempotency-Key": _key(idempotency_key)},
            retryable=True,
        )
        payload = _json(resp, info)
        data = _data_of(payload, info)
        url = _get(payload, "audienceUrl") or _get(data, "audienceUrl")
        wrapped = {"audience": data, "replayed": resp.status_code == 200, "audienceUrl": url}
        return _parse(AudienceDuplicate, wrapped, info)

    async def create_audience_from_brief(
        self,
        *,
        text: str,
        idempotency_key: str,
        name: str | None = None,
        member_count: int | None = None,
        files: Sequence[ImportedSource] | None = None,
    ) -> FromBriefJob | FromBriefResult:
        """``POST /audiences/from-brief``: usually a 202 job to poll; a replay may return the Audience.
        ``files``: sources from ``import_audience_sources``, passed on exactly as Minds returned them."""
        sources = [{"name": f.name, "url": f.url} for f in files] if files else None
        body = _drop_none({"text": text, "name": name, "memberCount": member_count, "files": sources})
        resp, info = await self._call(
            "POST",
            "/audiences/from-brief",
            json_body=body,
            headers={"Idempotency-Key": _key(idempotency_key)},
            retryable=True,
        )
        data = _data(resp, info)
        if resp.status_code == 202:
            return _parse(FromBriefJob, data, info)
        return _parse(FromBriefResult, data, info)

    async def get_audience_job(self, job_id: str) -> FromBriefJob:
        """One poll of a from-brief job; ``failed`` raises ``AudienceJobFailed``."""
        resp, info = await self._call("GET", f"/audiences/from-brief/jobs/{_seg(job_id)}")
        job = _parse(FromBriefJob, _data(resp, info), info)
        if job.status == "failed":
            raise AudienceJobFailed(job_id=job.job_id, error=job.error, request=info)
        return job

    async def wait_audience_job(self, job_id: str, *, wait_seconds: float = DEFAULT_AUDIENCE_WAIT) -> FromBriefJob:
        """Poll until completed; at the deadline return the last (unfinished) state — never resubmit."""
        deadline = self._clock() + wait_seconds
        job = await self.get_audience_job(job_id)
        attempt = 0
        while job.status != "completed":
            attempt += 1
            if not await self._pause(attempt, deadline):
                return job
            job = await self.get_audience_job(job_id)
        return job

    def iter_minds(self, *, search: str | None = None, max_items: int | None = None) -> AsyncIterator[MindSummary]:
        return self._iter("/minds", MindSummary, params=_drop_none({"search": search}), max_items=max_items)

    async def minds_page(self, *, offset: int = 0, limit: int = 20, search: str | None = None) -> Page[MindSummary]:
        """One page of Minds (server-side ``search`` when given), with ``pagination.total``."""
        params = _drop_none({"search": search})
        return await self._one_page("/minds", MindSummary, offset=offset, limit=limit, params=params)

    async def find_mind(self, query: str) -> LookupResult[MindSummary]:
        """Minds support server-side ``search``; the same 1,000-item window applies."""
        items = self._iter("/minds", MindSummary, params={"search": query.strip()}, max_items=LOOKUP_WINDOW)
        return await self._find(query, items, "/minds")

    # --- talking to a Mind -------------------------------------------------------------------------

    async def get_mind(self, mind_id: str) -> MindDetail:
        """Who the Mind is and ``ready_to_chat`` (a Mind still training answers 409 ``SPARK_NOT_READY``)."""
        resp, info = await self._call("GET", f"/minds/{_seg(mind_id)}")
        return _parse(MindDetail, _data(resp, info), info)

    async def create_chat(self, *, mind_id: str, name: str | None = None) -> ChatCreated:
        """``POST /chats`` for a 1:1 chat whose history Minds keeps. Not repeated on failure (no key)."""
        body = _drop_none({"mindId": mind_id, "name": name})
        resp, info = await self._call("POST", "/chats", json_body=body)
        return _parse(ChatCreated, _data(resp, info), info)

    async def send_chat_message(self, chat_id: str, *, content: str, end_user_name: str | None = None) -> ChatReply:
        """One turn in a stateful chat: only the new message is sent. Not repeated on failure (no key)."""
        body = _drop_none({"content": content, "endUserName": end_user_name})
        resp, info = await self._call("POST", f"/chats/{_seg(chat_id)}/messages", json_body=body)
        return _parse(ChatReply, _json(resp, info), info)

    # --- Audience and Mind profile exports -----------------------------------------------------------

    async def start_profile_export(
        self,
        kind: ProfileExportKind,
        item_id: str,
        *,
        format: ProfileFormat,
        force: bool | None = None,  # noqa: A002
    ) -> ProfileExport:
        """``POST /{kind}/{id}/export``: a cached artifact at once, or a job to follow. Not retried (no key)."""
        body = _drop_none({"format": format, "force": force})
        resp, info = await self._call("POST", f"/{kind}/{_seg(item_id)}/export", json_body=body)
        return _parse(ProfileExport, _data(resp, info), info)

    async def profile_export_status(
        self,
        kind: ProfileExportKind,
        item_id: str,
        *,
        job_id: str,
        format: ProfileFormat,  # noqa: A002
    ) -> ProfileExport:
        params = {"jobId": job_id, "format": format}
        resp, info = await self._call("GET", f"/{kind}/{_seg(item_id)}/export-status", params=params)
        return _parse(ProfileExport, _data(resp, info), info)

    async def wait_profile_export(
        self,
        kind: ProfileExportKind,
        item_id: str,
        export: ProfileExport,
        *,
        format: ProfileFormat,  # noqa: A002
        wait_seconds: float = DEFAULT_EXPORT_WAIT,
    ) -> ProfileExport:
        """Poll the original job (never a new export) until it is completed or failed; raises ``ExportFailed``
        for ``failed``, for a job Minds no longer knows (``idle``) and when ``wait_seconds`` pass unfinished."""
        deadline = self._clock() + wait_seconds
        attempt = 0
        while export.status in ("queued", "processing"):
            if export.job_id is None:
                raise MalformedResponse("an unfinished export carries no jobId")  # verbatim
            if not await self._pause(attempt, deadline):
                late = _("it did not finish in time; ask again later (Minds serves a finished file from its cache)")
                raise ExportFailed(error_code=None, error=late)
            attempt += 1
            export = await self.profile_export_status(kind, item_id, job_id=export.job_id, format=format)
        if export.status == "failed":
            raise ExportFailed(error_code=None, error=export.error)
        if export.status == "idle":
            gone = _("Minds no longer knows this export job; ask for it again")
            raise ExportFailed(error_code=None, error=gone)
        return export

    # --- direct runs -------------------------------------------------------------------------------

    async def start_direct_run(
        self,
        study_id: str,
        *,
        question: str,
        client_request_id: str,
        audience_ids: Sequence[str] | None = None,
        history_mode: Literal["last5", "followup_only", "none"] | None = None,
        route_research_brief: bool = True,
        attachments: Sequence[Mapping[str, str]] | None = None,
    ) -> DirectRunAccepted | PlanningRequired:
        """``POST /studies/{id}/runs`` for one standalone question; 200 ``planning_required`` means no run.
        ``attachments``: files Minds fetches itself and shows every Mind with the question (``{url, name, type}``,
        the OpenAPI's StudyAttachment)."""
        body = _drop_none(
            {
                "question": question,
                "attachments": [dict(a) for a in attachments] if attachments else None,
                "clientRequestId": _uuid(client_request_id),
                "audienceIds": list(audience_ids) if audience_ids is not None else None,
                "historyMode": history_mode,
                "routeResearchBrief": route_research_brief,
            }
        )
        resp, info = await self._call("POST", f"/studies/{_seg(study_id)}/runs", json_body=body, retryable=True)
        data = _data(resp, info)
        if resp.status_code == 200:
            return _parse(PlanningRequired, data, info)
        return _parse(DirectRunAccepted, data, info)

    async def get_run(self, run_id: str) -> AgentRun:
        resp, info = await self._call("GET", f"/runs/{_seg(run_id)}")
        return _parse(AgentRun, _data(resp, info), info)

    async def cancel_run(self, run_id: str) -> RunCancellation:
        resp, info = await self._call("POST", f"/runs/{_seg(run_id)}/cancel")
        return _parse(RunCancellation, _data(resp, info), info)

    async def list_study_runs(self, study_id: str, *, limit: int = 20) -> list[AgentRun]:
        """Recent runs, newest first (one page; ``limit`` 1–100)."""
        resp, info = await self._call("GET", f"/studies/{_seg(study_id)}/runs", params={"limit": limit})
        return _parse(_DataList[AgentRun], _json(resp, info), info).data

    async def study_runs_page(
        self, study_id: str, *, before: str | None = None, limit: int = PAGE_SIZE
    ) -> CursorPage[AgentRun]:
        """One page of a Study's runs, newest first, continuing after ``before`` (a ``nextCursor``)."""
        params: dict[str, Any] = {"limit": limit}
        if before is not None:
            params["before"] = before
        resp, info = await self._call("GET", f"/studies/{_seg(study_id)}/runs", params=params)
        listed = _parse(_CursorList[AgentRun], _json(resp, info), info)
        paging = listed.pagination
        return CursorPage(
            items=list(listed.data),
            has_more=paging.has_more if paging else False,
            next_cursor=paging.next_cursor if paging else None,
            request=info,
        )

    async def all_study_runs(self, study_id: str, *, max_pages: int = MAX_CURSOR_PAGES) -> Walked[AgentRun]:
        """A Study's runs, newest first, paged to the end (catalogue rule 16) or to ``max_pages`` pages of 100
        (``complete`` False then: Minds has more). Malformed continuation raises ``MalformedResponse``."""

        async def fetch(cursor: str | None) -> CursorPage[AgentRun]:
            return await self.study_runs_page(study_id, before=cursor)

        return await walk_cursor(fetch, max_pages=max_pages)

    async def get_message_answers(self, study_id: str, message_id: str) -> MessageAnswers:
        """Individual answers (asked Minds only). A ``not_asked`` item has none: 404."""
        resp, info = await self._call("GET", f"/studies/{_seg(study_id)}/messages/{_seg(message_id)}/answers")
        return _parse(MessageAnswers, _json(resp, info), info)

    # --- guided research ---------------------------------------------------------------------------

    async def research_methods(self) -> list[ResearchMethod]:
        resp, info = await self._call("GET", "/research-methods")
        return _parse(_DataList[ResearchMethod], _json(resp, info), info).data

    async def preview_plan(
        self,
        study_id: str,
        request: PlanPreviewRequest,
        *,
        idempotency_key: str,
        wait_seconds: float = DEFAULT_PLAN_WAIT,
    ) -> ResearchPlan | PlanPending:
        """Create, revise or reload a plan. A 202 is observed (same body, same key) until ``wait_seconds``;
        then a ``PlanPending`` comes back for ``resume_plan``. Preparation is never cancelled by stopping."""
        body, key = request.to_body(), _key(idempotency_key)
        deadline = self._clock() + wait_seconds
        outcome = await self._plan_post(study_id, body, key, receipt=None, revising=request.draft_plan_id is not None)
        if isinstance(outcome, ResearchPlan):
            return outcome
        pending = PlanPending(
            study_id=study_id,
            idempotency_key=key,
            body=body.decode(),
            request_id=outcome.request_id,
            operation_id=outcome.operation_id,
            stage=outcome.stage,
        )
        return await self._observe_plan(pending, deadline)

    async def resume_plan(
        self, pending: PlanPending, *, wait_seconds: float = DEFAULT_PLAN_WAIT
    ) -> ResearchPlan | PlanPending:
        """Keep observing a pending preparation with its original key and body (never a new key)."""
        deadline = self._clock() + wait_seconds
        outcome = await self._plan_post(
            pending.study_id, pending.body.encode(), pending.idempotency_key, receipt=pending, revising=True
        )
        if isinstance(outcome, ResearchPlan):
            return outcome
        return await self._observe_plan(_advance(pending, outcome), deadline)

    async def start_research_run(
        self,
        study_id: str,
        *,
        draft_plan_id: str,
        revision: int,
        idempotency_key: str,
        advanced_method_opt_in: bool | None = None,
        audience_ids: Sequence[str] | None = None,
        model_connection: tuple[str, int] | None = None,
    ) -> ResearchRunStarted:
        """Confirm one exact plan revision. ``PlanLimitError``: nothing started (an upgrade is needed).
        ``model_connection``: a verified connection's (id, revision), pinned at confirmation; a retry sends the
        same one (Minds' own models when None)."""
        confirmation = _drop_none({"accepted": True, "advancedMethodOptIn": advanced_method_opt_in})
        body = _drop_none(
            {
                "draftPlanId": draft_plan_id,
                "revision": revision,
                "confirmation": confirmation,
                "idempotencyKey": _uuid(idempotency_key),
                "audienceIds": list(audience_ids) if audience_ids is not None else None,
                "modelConnection": (
                    {"id": model_connection[0], "revision": model_connection[1]} if model_connection else None
                ),
            }
        )
        resp, info = await self._call(
            "POST", f"/studies/{_seg(study_id)}/research-runs", json_body=body, retryable=True
        )
        return _parse(ResearchRunStarted, _data(resp, info), info)

    async def get_research_run(self, study_id: str, run_id: str) -> ResearchRun:
        resp, info = await self._call("GET", f"/studies/{_seg(study_id)}/research-runs/{_seg(run_id)}")
        return _parse(ResearchRun, _data(resp, info), info)

    async def list_study_drafts(self) -> list[StudyDraft]:
        resp, info = await self._call("GET", "/study-drafts")
        return _parse(_DataList[StudyDraft], _json(resp, info), info).data

    async def create_study_draft(self, *, name: str, state: Mapping[str, Any], idempotency_key: str) -> StudyDraft:
        """``POST /study-drafts``: a resumable planning snapshot (never starts research). The key (1–200
        characters) makes a retry return the same draft, so it is safe to repeat."""
        body = {
            "name": name,
            "mode": "custom",
            "currentStep": "questions",
            "payload": {"version": 1, "state": dict(state)},
            "idempotencyKey": _key(idempotency_key),
        }
        resp, info = await self._call("POST", "/study-drafts", json_body=body, retryable=True)
        return _parse(StudyDraft, _data(resp, info), info)

    async def delete_study_draft(self, draft_id: str) -> None:
        """``DELETE /study-drafts/{id}``: success is an empty reply; anything else is not proof of a delete."""
        resp, info = await self._call("DELETE", f"/study-drafts/{_seg(draft_id)}")
        if resp.status_code != 204 and resp.content.strip():
            detail = "a draft delete answered with a body instead of an empty reply"  # verbatim
            raise MalformedResponse(detail, request=info)

    async def consume_study_draft(
        self, draft_id: str, *, expected_revision: int, study_id: str | None = None
    ) -> StudyDraft:
        """``POST /study-drafts/{id}/consume``: closes the planning state once research started; a repeat returns
        the existing record. The reply must be this draft with status ``consumed``."""
        body = _drop_none({"expectedRevision": expected_revision, "studyId": study_id})
        resp, info = await self._call("POST", f"/study-drafts/{_seg(draft_id)}/consume", json_body=body)
        draft = _parse(StudyDraft, _data(resp, info), info)
        if draft.id != draft_id or draft.status != "consumed":
            raise MalformedResponse("the consume reply is not this draft, consumed", request=info)  # verbatim
        return draft

    async def list_study_templates(self) -> list[StudyTemplate]:
        resp, info = await self._call("GET", "/study-templates")
        return _parse(_DataList[StudyTemplate], _json(resp, info), info).data

    async def save_study_template(
        self, *, name: str, configuration: Mapping[str, Any], request_id: str
    ) -> StudyTemplate:
        """``POST /study-templates`` (``request_id``: a UUID reused only to retry this save). The reply must be
        the full template just saved — same name, same number of questions — or it is no proof of a save."""
        body = {"requestId": _uuid(request_id), "name": name, "configuration": dict(configuration)}
        resp, info = await self._call("POST", "/study-templates", json_body=body, retryable=True)
        template = _parse(StudyTemplate, _data(resp, info), info)
        if template.name != name or len(template.configuration.questions) != len(configuration["questions"]):
            raise MalformedResponse("the saved template does not match what was sent", request=info)  # verbatim
        return template

    async def use_study_template(self, template_id: str, *, expected_revision: int, request_id: str) -> StudyDraft:
        """Instantiate a template as a Study draft (never starts research); ``request_id``: UUID per draft."""
        body = {"expectedRevision": expected_revision, "requestId": _uuid(request_id)}
        resp, info = await self._call(
            "POST", f"/study-templates/{_seg(template_id)}/use", json_body=body, retryable=True
        )
        return _parse(StudyDraft, _data(resp, info), info)

    # --- exports -----------------------------------------------------------------------------------

    async def start_export(
        self,
        study_id: str,
        *,
        kind: ExportKind,
        format: ExportFormat,  # noqa: A002 — the wire name
        length: Literal["short", "standard", "detailed"] | None = None,
        force: bool | None = None,
    ) -> ExportJob:
        body = _drop_none({"kind": kind, "format": format, "length": length, "force": force})
        resp, info = await self._call("POST", f"/studies/{_seg(study_id)}/export", json_body=body)
        return _parse(ExportJob, _data(resp, info), info)

    async def export_status(self, study_id: str, job: ExportJob) -> ExportStatus:
        """One poll; ``failed`` raises ``ExportFailed`` with Minds' errorCode and text."""
        params = {"jobId": job.job_id, "kind": job.kind, "format": job.format}
        resp, info = await self._call("GET", f"/studies/{_seg(study_id)}/export-status", params=params)
        status = _parse(ExportStatus, _data(resp, info), info)
        if status.status == "failed":
            raise ExportFailed(error_code=status.error_code, error=status.error, request=info)
        return status

    async def cached_export(
        self,
        study_id: str,
        *,
        kind: ExportKind,
        format: ExportFormat,  # noqa: A002 — the wire name
    ) -> ExportStatus:
        """``GET …/export-status`` without a job: the cached artifact for ``kind``/``format`` (``generatedAt`` says
        how old it is), or ``idle`` when there is none. A failed one is returned, not raised."""
        params = {"kind": kind, "format": format}
        resp, info = await self._call("GET", f"/studies/{_seg(study_id)}/export-status", params=params)
        return _parse(ExportStatus, _data(resp, info), info)

    async def wait_export(
        self, study_id: str, job: ExportJob, *, wait_seconds: float = DEFAULT_EXPORT_WAIT
    ) -> ExportStatus:
        """Poll until completed; at the deadline return the last state (check later, never re-export)."""
        deadline = self._clock() + wait_seconds
        status = await self.export_status(study_id, job)
        attempt = 0
        while status.status != "completed":
            attempt += 1
            if not await self._pause(attempt, deadline):
                return status
            status = await self.export_status(study_id, job)
        return status

    async def download_export(
        self,
        study_id: str,
        job: ExportJob,
        *,
        status: ExportStatus | None = None,
        dest_dir: Path | None = None,
        max_bytes: int = MAX_EXPORT_BYTES,
    ) -> DownloadedFile:
        """Fetch a completed export to a temporary file. The 302's signed URL is fetched with a plain client
        that never carries the Minds key."""
        resp, info = await self._call("GET", f"/studies/{_seg(study_id)}/export-download", params={"jobId": job.job_id})
        if resp.status_code not in REDIRECTS:
            detail = f"expected a redirect to the file, got HTTP {resp.status_code}"  # verbatim
            raise MalformedResponse(detail, request=info)
        location = resp.headers.get("location")
        if not location:
            raise MalformedResponse("redirect without a Location", request=info)  # verbatim
        target = resp.request.url.join(location)
        fallback_name = f"{study_id}-{job.kind}.{job.format}"
        return await self._stream_to_file(
            target,
            filename=(status.filename if status else None) or fallback_name,
            mime_type=status.mime_type if status else None,
            dest_dir=dest_dir,
            max_bytes=max_bytes,
        )

    # --- research tools: Audience card, recalibration, model connections, invitations ----------------

    async def audience_progress(self, audience_id: str) -> AudienceProgress:
        """``GET /audiences/{id}/progress``: members still being built or retrained."""
        resp, info = await self._call("GET", f"/audiences/{_seg(audience_id)}/progress")
        return _parse(AudienceProgress, _data(resp, info), info)

    async def list_formations(self, audience_id: str) -> list[Formation]:
        """Every visible Formation. The first page is the server's default (max 100); further pages follow
        ``pagination.nextOffset`` while ``hasMore`` (seeds), and a continuation that does not advance or
        returns nothing is an error — never presented as the complete list."""
        path = f"/audiences/{_seg(audience_id)}/formations"
        formations: list[Formation] = []
        params: dict[str, int] | None = None
        for _page in range(MAX_FORMATION_PAGES):
            resp, info = await self._call("GET", path, params=params)
            payload = _json(resp, info)
            page = _parse(_DataList[Formation], payload, info).data
            formations += page
            next_offset = _next_offset(_get(payload, "pagination"), seen=len(formations), info=info)
            if next_offset is None:
                return formations
            if not page:
                detail = "a Formations page was empty while more were promised"  # verbatim
                raise MalformedResponse(detail, request=info)
            params = {"limit": FORMATION_PAGE, "offset": next_offset}
        raise MalformedResponse("too many Formation pages", request=RequestInfo(method="GET", path=path))  # verbatim

    async def recalibrate_audience(
        self, audience_id: str, *, instruction: str | None = None, allow_shared_minds: bool | None = None
    ) -> Recalibration:
        """``POST /audiences/{id}/recalibrate`` (owner only; synchronous for the grounding, retraining goes on
        in the background). No idempotency key exists for it, so it is never retried."""
        body = _drop_none({"instruction": instruction, "allowSharedMinds": allow_shared_minds})
        resp, info = await self._call(
            "POST", f"/audiences/{_seg(audience_id)}/recalibrate", json_body=body, retryable=False
        )
        return _parse(Recalibration, _data(resp, info), info)

    async def model_connections(self) -> list[ModelConnection]:
        """``GET /model-connections``, every page by ``pagination.nextCursor`` (``walk_cursor``: a cursor that does
        not advance is an error, and so are more than ``MAX_CONNECTION_PAGES`` pages). 404 means model connections
        are disabled on this server (``NotFound``)."""

        async def fetch(cursor: str | None) -> CursorPage[ModelConnection]:
            resp, info = await self._call("GET", "/model-connections", params={"cursor": cursor} if cursor else None)
            page = _parse(ModelConnectionPage, _json(resp, info), info)
            return CursorPage(
                items=list(page.data), has_more=page.next_cursor is not None, next_cursor=page.next_cursor, request=info
            )

        walked = await walk_cursor(fetch, max_pages=MAX_CONNECTION_PAGES)
        if not walked.complete:
            detail = "too many model-connection pages"  # verbatim
            raise MalformedResponse(detail, request=RequestInfo("GET", "/model-connections"))
        return walked.items

    async def invite_to_study(
        self, study_id: str, *, emails: Sequence[str], role: Literal["member", "admin"] = "member"
    ) -> InvitationResult:
        """``POST /studies/{id}/invitations`` (owner only: 404 otherwise). Never retried: a repeat could send
        the emails twice. The result names each address Minds could not deliver to."""
        body = {"emails": list(emails), "role": role}
        resp, info = await self._call("POST", f"/studies/{_seg(study_id)}/invitations", json_body=body)
        return _parse(InvitationResult, _data(resp, info), info)

    async def import_audience_sources(self, files: Sequence[tuple[str, str]]) -> SourceImport:
        """``POST /audiences/source-import`` with ``(name, UTF-8 text)`` pairs. Retried like a keyed call: the
        uploads are content-addressed, so repeating the same import is safe (seeds). Success is reported only
        after the reply lists the same files in the same order with matching SHA-256 checksums."""
        body = {"files": [{"name": name, "content": content} for name, content in files]}
        resp, info = await self._call("POST", "/audiences/source-import", json_body=body, retryable=True)
        imported = _parse(SourceImport, _data(resp, info), info)
        _verify_import(files, imported, info)
        return imported

    async def get_heatmap(self, study_id: str, message_id: str, *, asset_key: str) -> Heatmap:
        """``GET /studies/{id}/heatmaps/{messageId}?assetKey=``: a saved analysis or its queue state."""
        path = f"/studies/{_seg(study_id)}/heatmaps/{_seg(message_id)}"
        resp, info = await self._call("GET", path, params={"assetKey": asset_key})
        return _parse(Heatmap, _data(resp, info), info)

    async def start_heatmap(self, study_id: str, message_id: str, *, asset_key: str) -> Heatmap:
        """``POST`` the same path: starts an analysis (Premium; one response per Mind) or reuses a finished one.
        No idempotency key exists for it, so it is never retried."""
        path = f"/studies/{_seg(study_id)}/heatmaps/{_seg(message_id)}"
        resp, info = await self._call("POST", path, json_body={"assetKey": asset_key}, retryable=False)
        return _parse(Heatmap, _data(resp, info), info)

    async def export_heatmap(
        self, study_id: str, message_id: str, *, wait_seconds: float = DEFAULT_EXPORT_WAIT, dest_dir: Path | None = None
    ) -> DownloadedFile | HeatmapExportStatus:
        """Start (or reuse) the heatmap ZIP export, poll it for a bounded time, then download it. An export that
        is not finished by then comes back as its last status — check again later, never ``force``."""
        base = f"/studies/{_seg(study_id)}/heatmaps/{_seg(message_id)}"
        resp, info = await self._call("POST", f"{base}/export")
        status = _unless_failed(_parse(HeatmapExportStatus, _data(resp, info), info), info)
        deadline = self._clock() + wait_seconds
        attempt = 0
        while status.status != "completed":
            attempt += 1
            if not await self._pause(attempt, deadline):
                return status
            resp, info = await self._call("GET", f"{base}/export-status")
            status = _unless_failed(_parse(HeatmapExportStatus, _data(resp, info), info), info)
        return await self._download_artifact(
            f"{base}/export-download", status=status, dest_dir=dest_dir, fallback=f"heatmap-{message_id}.zip"
        )

    async def _download_artifact(
        self, path: str, *, status: HeatmapExportStatus, dest_dir: Path | None, fallback: str
    ) -> DownloadedFile:
        """An export artifact served by Minds itself (read with the key) or by a signed redirect (without it)."""
        resp, info = await self._call("GET", path)
        filename = status.filename or fallback
        if resp.status_code in REDIRECTS and resp.headers.get("location"):
            target = resp.request.url.join(resp.headers["location"])
            return await self._stream_to_file(
                target, filename=filename, mime_type=status.mime_type, dest_dir=dest_dir, max_bytes=MAX_EXPORT_BYTES
            )
        if resp.status_code != 200 or not resp.content:
            raise MalformedResponse(f"expected the export file, got HTTP {resp.status_code}", request=info)  # verbatim
        return await _save_bytes(resp, filename=filename, mime_type=status.mime_type, dest_dir=dest_dir)

    # --- internals: plan observation ---------------------------------------------------------------

    async def _plan_post(
        self, study_id: str, body: bytes, key: str, *, receipt: PlanPending | None, revising: bool
    ) -> ResearchPlan | PlanReceipt:
        headers = {"Idempotency-Key": key}
        if receipt is not None:
            headers["x-minds-study-plan-request-id"] = receipt.request_id
            if receipt.operation_id:
                headers["x-minds-study-plan-operation-id"] = receipt.operation_id
        resp, info = await self._call(
            "POST",
            f"/studies/{_seg(study_id)}/research-plans/preview",
            raw_body=body,
            headers=headers,
            retryable=True,
            conflict_class=StaleRevision if revising else None,
        )
        data = _data(resp, info)
        if resp.status_code == 202:
            return _parse(PlanReceipt, data, info)
        return _parse(ResearchPlan, data, info)

    async def _observe_plan(self, pending: PlanPending, deadline: float) -> ResearchPlan | PlanPending:
        attempt = 0
        while True:
            attempt += 1
            if not await self._pause(attempt, deadline):
                return pending
            outcome = await self._plan_post(
                pending.study_id,
                pending.body.encode(),
                pending.idempotency_key,
                receipt=pending,
                revising=True,
            )
            if isinstance(outcome, ResearchPlan):
                return outcome
            pending = _advance(pending, outcome)

    async def _pause(self, attempt: int, deadline: float) -> bool:
        """Sleep one polling interval if it ends before the deadline; False when time is up."""
        delay = poll_delay(attempt, self._rng)
        if self._clock() + delay > deadline:
            return False
        await self._sleep(delay)
        return True

    # --- internals: lists and lookups --------------------------------------------------------------

    def _iter(
        self,
        path: str,
        model: type[M],
        *,
        params: Mapping[str, Any] | None = None,
        max_items: int | None = None,
    ) -> AsyncIterator[M]:
        async def fetch(offset: int, limit: int) -> Page[M]:
            return await self._fetch_page(path, model, offset=offset, limit=limit, params=params)

        return iter_offset(fetch, page_size=PAGE_SIZE, max_items=max_items)

    async def _fetch_page(
        self, path: str, model: type[M], *, offset: int, limit: int, params: Mapping[str, Any] | None = None
    ) -> Page[M]:
        query = {**(params or {}), "limit": limit, "offset": offset}
        resp, info = await self._call("GET", path, params=query)
        envelope = _parse(_ListEnvelope[model], _json(resp, info), info)  # type: ignore[valid-type]
        return Page(items=list(envelope.data), pagination=envelope.pagination, request=info)

    async def _one_page(
        self, path: str, model: type[M], *, offset: int, limit: int, params: Mapping[str, Any] | None = None
    ) -> Page[M]:
        page = await self._fetch_page(path, model, offset=offset, limit=limit, params=params)
        check_page(page, requested_offset=offset)
        return page

    async def _find(self, query: str, items: AsyncIterator[M], path: str) -> LookupResult[Any]:
        text = query.strip()
        if _is_uuid(text):
            direct = await self._by_id(path, text)
            if direct is not None:
                return LookupResult(kind="exact", query=text, scanned=0, exhaustive=False, match=direct)
        scanned = [item async for item in items]
        return resolve(text, scanned, exhaustive=len(scanned) < LOOKUP_WINDOW)

    async def _by_id(self, path: str, item_id: str) -> Any:
        getters = {"/studies": self.get_study, "/audiences": self.get_audience}
        getter = getters.get(path)
        if getter is None:
            return None
        try:
            return await getter(item_id)
        except NotFound:
            return None

    # --- internals: one HTTP exchange with retries -------------------------------------------------

    async def _call(
        self,
        method: str,
        path: str,
        *,
        params: Mapping[str, Any] | None = None,
        json_body: Any = None,
        raw_body: bytes | None = None,
        headers: Mapping[str, str] | None = None,
        retryable: bool | None = None,
        conflict_class: type[Conflict] | None = None,
    ) -> tuple[httpx.Response, RequestInfo]:
        """Send one logical request; only GETs and keyed calls (``retryable=True``) are ever repeated, and a
        repeat sends the byte-identical body and the same key."""
        info = RequestInfo(method=method, path=path)
        body = raw_body if raw_body is not None else _encode(json_body)
        may_retry = method == "GET" if retryable is None else retryable
        attempt = 0
        while True:
            attempt += 1
            outcome = await self._exchange(
                info, params=params, body=body, headers=headers, conflict_class=conflict_class
            )
            if isinstance(outcome, httpx.Response):
                return outcome, info
            delay = self._delay_after(outcome, attempt) if may_retry else None
            if delay is None:
                raise outcome
            log.info("minds %s: retry %d in %.2fs after %s", info, attempt, delay, type(outcome).__name__)
            await self._sleep(delay)

    async def _exchange(
        self,
        info: RequestInfo,
        *,
        params: Mapping[str, Any] | None,
        body: bytes | None,
        headers: Mapping[str, str] | None,
        conflict_class: type[Conflict] | None,
    ) -> httpx.Response | MindsError:
        with metrics.MINDS_QUEUES.waiting(self._limiter), metrics.minds_budget_wait_seconds.time():
            await self._limiter.acquire()
        operation, sent = _operation(info), time.perf_counter()
        try:
            resp = await self._http.request(
                info.method,
                info.path,
                params=params,
                content=body,
                headers=self._headers(headers, has_body=body is not None),
                follow_redirects=False,
            )
        except httpx.TimeoutException as exc:
            _count(operation, "timeout", sent)
            return _chain(MindsTimeout(request=info), exc)
        except httpx.TransportError as exc:
            _count(operation, "connection_error", sent)
            return _chain(MindsConnectionError(request=info), exc)
        _count(operation, str(resp.status_code), sent)
        await self._limiter.observe(status_code=resp.status_code, headers=resp.headers)
        log.debug("minds %s -> %d", info, resp.status_code)
        if resp.status_code < 400:
            return resp
        return error_from_response(
            status_code=resp.status_code,
            body=resp.content,
            retry_after=parse_retry_after(resp.headers),
            request=info,
            conflict_class=conflict_class,
        )

    def _delay_after(self, error: MindsError, attempt: int) -> float | None:
        if isinstance(error, MindsTransportError | ServerError | RateLimited):
            retry_after = getattr(error, "retry_after", None)
            return self._retry.delay_for(attempt=attempt, retry_after=retry_after, rng=self._rng)
        return None

    def _headers(self, extra: Mapping[str, str] | None, *, has_body: bool) -> dict[str, str]:
        headers = {"Authorization": self._auth, "User-Agent": user_agent(), "Accept": "application/json"}
        if has_body:
            headers["Content-Type"] = "application/json"
        return {**headers, **(extra or {})}

    # --- internals: downloads ----------------------------------------------------------------------

    async def _stream_to_file(
        self, url: httpx.URL, *, filename: str, mime_type: str | None, dest_dir: Path | None, max_bytes: int
    ) -> DownloadedFile:
        # Deliberately no Authorization: the signed URL is its own credential and lives on another host.
        headers = {"User-Agent": user_agent()}
        try:
            async with self._download_http.stream("GET", url, headers=headers) as resp:
                if resp.status_code != 200:
                    raise DownloadFailed(
                        _("The export file could not be downloaded (HTTP {status}).", status=resp.status_code),
                        status_code=resp.status_code,
                    )
                path, size, digest = await _write_stream(resp, dest_dir=dest_dir, max_bytes=max_bytes)
                content_type = resp.headers.get("content-type", "application/octet-stream")
        except httpx.TimeoutException as exc:
            raise DownloadFailed(_("The export download timed out.")) from exc
        except httpx.TransportError as exc:
            raise DownloadFailed(_("The export file host could not be reached.")) from exc
        return DownloadedFile(
            path=str(path),
            filename=_safe_filename(filename),
            size=size,
            sha256=digest,
            mime_type=mime_type or content_type.split(";")[0].strip(),
        )


# Every fixed word of a Minds API path; any other segment is an id and is counted as ``{id}``, so an operation
# label never carries an id and their number stays bounded.
_PATH_WORDS = frozenset(
    {
        "analytics", "answers", "audiences", "auth", "cancel", "chats", "consume", "duplicate", "export",
        "export-download", "export-status", "formations", "from-brief", "heatmaps", "invitations", "jobs",
        "limits", "me", "messages", "minds", "model-connections", "preview", "progress", "recalibrate",
        "research-methods", "research-plans", "research-runs", "runs", "sharing", "source-import", "studies",
        "study-drafts", "study-templates", "summary", "use",
    }
)  # fmt: skip


def _operation(info: RequestInfo) -> str:
    """``GET /studies/{id}/research-runs/{id}``: the operation a request is counted under (no ids in it)."""
    segments = (s if s in _PATH_WORDS else "{id}" for s in info.path.strip("/").split("/") if s)
    return f"{info.method} /{'/'.join(segments)}"  # a metric label for operators, verbatim


def _count(operation: str, status: str, sent: float) -> None:
    metrics.minds_requests.inc(operation, status)
    metrics.minds_request_seconds.observe(time.perf_counter() - sent, operation)
    if status == "429":
        metrics.minds_rate_limited.inc(operation)


def user_agent() -> str:
    return f"minds-bot/{__version__}"


async def _write_stream(resp: httpx.Response, *, dest_dir: Path | None, max_bytes: int) -> tuple[Path, int, str]:
    fd, name = await asyncio.to_thread(tempfile.mkstemp, prefix="minds-export-", dir=dest_dir)
    path = Path(name)
    digest, size = hashlib.sha256(), 0
    handle = os.fdopen(fd, "wb")
    try:
        async for chunk in resp.aiter_bytes(DOWNLOAD_CHUNK):
            size += len(chunk)
            if size > max_bytes:
                raise DownloadFailed(_too_large(max_bytes))
            digest.update(chunk)
            await asyncio.to_thread(handle.write, chunk)
    except BaseException:
        await asyncio.to_thread(handle.close)
        await asyncio.to_thread(path.unlink, True)
        raise
    await asyncio.to_thread(handle.close)
    return path, size, digest.hexdigest()


def _too_large(max_bytes: int) -> str:
    return _("The export is larger than the {limit} MiB limit.", limit=max_bytes // (1024 * 1024))


def _safe_filename(name: str) -> str:
    base = name.replace("\\", "/").rsplit("/", 1)[-1]
    cleaned = re.sub(r"[^\w.\- ]+", "_", base).strip(" .")
    return cleaned or "export"


def _advance(pending: PlanPending, receipt: PlanReceipt) -> PlanPending:
    return pending.model_copy(
        update={
            "request_id": receipt.request_id,
            "operation_id": receipt.operation_id or pending.operation_id,
            "stage": receipt.stage,
        }
    )


def _verify_import(sent: Sequence[tuple[str, str]], imported: SourceImport, info: RequestInfo) -> None:
    if [name for name, _content in sent] != [f.name for f in imported.files]:
        detail = "the import lists other files, or in another order, than were sent"  # verbatim
        raise MalformedResponse(detail, request=info)
    for (name, content), item in zip(sent, imported.files, strict=True):
        if hashlib.sha256(content.encode()).hexdigest() != item.sha256.lower():
            raise MalformedResponse(f"the checksum of {name} does not match what was sent", request=info)  # verbatim
    if imported.snapshot is not None and imported.snapshot_sha256 is None:
        raise MalformedResponse("a grounding snapshot came without its checksum", request=info)  # verbatim


def _unless_failed(status: HeatmapExportStatus, info: RequestInfo) -> HeatmapExportStatus:
    if status.status == "failed":
        raise ExportFailed(error_code=None, error=status.error, request=info)
    return status


async def _save_bytes(
    resp: httpx.Response, *, filename: str, mime_type: str | None, dest_dir: Path | None
) -> DownloadedFile:
    content = resp.content
    if len(content) > MAX_EXPORT_BYTES:
        raise DownloadFailed(_too_large(MAX_EXPORT_BYTES))
    fd, name = await asyncio.to_thread(tempfile.mkstemp, prefix="minds-export-", dir=dest_dir)
    await asyncio.to_thread(_write_all, fd, content)
    content_type = resp.headers.get("content-type", "application/octet-stream")
    return DownloadedFile(
        path=name,
        filename=_safe_filename(filename),
        size=len(content),
        sha256=hashlib.sha256(content).hexdigest(),
        mime_type=mime_type or content_type.split(";")[0].strip(),
    )


def _write_all(fd: int, content: bytes) -> None:
    with os.fdopen(fd, "wb") as handle:
        handle.write(content)


def _next_offset(pagination: Any, *, seen: int, info: RequestInfo) -> int | None:
    """The next Formation offset, or None at the end. ``hasMore`` without a forward ``nextOffset`` is an error."""
    if pagination is None:
        return None
    if not isinstance(pagination, dict) or not isinstance(pagination.get("hasMore", False), bool):
        raise MalformedResponse("malformed Formation pagination", request=info)  # verbatim
    if not pagination.get("hasMore"):
        return None
    offset = pagination.get("nextOffset")
    if not isinstance(offset, int) or offset < seen:
        raise MalformedResponse("Formation pagination does not advance", request=info)  # verbatim
    return offset


def _chain(error: MindsError, cause: BaseException) -> MindsError:
    error.__cause__ = cause
    return error


def _encode(body: Any) -> bytes | None:
    if body is None:
        return None
    return json.dumps(body, separators=(",", ":")).encode()


def _json(resp: httpx.Response, info: RequestInfo) -> Any:
    try:
        return resp.json()
    except ValueError:
        raise MalformedResponse("the reply is not JSON", request=info) from None  # verbatim


def _data_of(payload: Any, info: RequestInfo) -> Any:
    if not isinstance(payload, dict) or "data" not in payload:
        raise MalformedResponse("the reply has no data", request=info)  # verbatim
    return payload["data"]


def _data(resp: httpx.Response, info: RequestInfo) -> Any:
    return _data_of(_json(resp, info), info)


def _get(payload: Any, key: str) -> Any:
    return payload.get(key) if isinstance(payload, dict) else None


def _parse(model: type[M], value: Any, info: RequestInfo) -> M:
    try:
        return model.model_validate(value)
    except ValidationError as exc:
        raise MalformedResponse(_describe(exc), request=info) from None


def _describe(exc: ValidationError) -> str:
    """Where and what is wrong, without echoing values (they may be large or private)."""
    parts = []
    for err in exc.errors()[:3]:
        where = ".".join(str(p) for p in err["loc"]) or "reply"
        parts.append(f"{where}: {err['msg']}")  # pydantic's words for developers, verbatim
    more = exc.error_count() - len(parts)
    return "; ".join(parts) + (f"; and {more} more" if more > 0 else "")  # verbatim


def _drop_none(values: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in values.items() if v is not None}


def _seg(value: str) -> str:
    """A path segment; ids never contain '/', so anything that would change the path is refused."""
    if not value or "/" in value or value in (".", ".."):
        raise ValueError("not a valid Minds id")
    return value


def _key(value: str) -> str:
    key = value.strip()
    if not key or len(key) > MAX_IDEMPOTENCY_KEY:
        raise ValueError("an idempotency key must be 1-200 characters")
    return key


def _uuid(value: str) -> str:
    if not _is_uuid(value):
        raise ValueError("this idempotency key must be a UUID")
    return value


def _is_uuid(value: str) -> bool:
    try:
        uuid.UUID(value)
    except ValueError:
        return False
    return True
