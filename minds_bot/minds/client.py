"""``MindsClient``: the bot's only way to talk to the Minds v1 REST API — one object, composed by resource.

Owns: the client's construction (``create``: one httpx client for the API, one plain one for signed URLs), its
lifetime (``async with`` / ``aclose``) and the composition itself. Every endpoint lives with its resource, the place
to add one is the module its URL names::

    minds_bot.minds.transport            Transport: one HTTP exchange with bounded retries, the rate limiter,
                                         paging, lookups, idempotency keys, parsing at the boundary, metrics
    minds_bot.minds.downloads            Downloads: an export's file, never fetched with the Minds key
    minds_bot.minds.resources.account    AccountApi        /auth/me
    minds_bot.minds.resources.studies    StudiesApi        /studies, sharing, analytics, summary, invitations
    minds_bot.minds.resources.audiences  AudiencesApi      /audiences, from-brief, progress, Formations, recalibrate,
                                                           source-import
    minds_bot.minds.resources.audience_design  AudienceDesignApi  POST /audiences (from Minds), a dataset's
                                                           segmentation preview
    minds_bot.minds.resources.audience_manage  AudienceManageApi  rename/delete/follow an Audience, its members
                                                           and portraits, Formation preview/create/recompute/delete
    minds_bot.minds.resources.minds      MindsApi          /minds (the personas): create, training, edit, retrain,
                                                           delete, and their knowledge
    minds_bot.minds.resources.chat       ChatApi           /chats
    minds_bot.minds.resources.runs       RunsApi           direct runs, a Study's run list, a message's answers
    minds_bot.minds.resources.research   ResearchPlansApi  research methods, plans, research runs, model connections
    minds_bot.minds.resources.drafts     DraftsApi         /study-drafts, /study-templates
    minds_bot.minds.resources.exports    ExportsApi        Study exports, Audience and Mind profile exports
    minds_bot.minds.resources.heatmaps   HeatmapsApi       heatmaps and their export

Must not touch: Slack, the store, or any module-level client/clock. The key never appears in repr, logs or
errors; it is sent only to the Minds API host, never to a signed download URL.
"""

from __future__ import annotations

import asyncio
import time
from types import TracebackType
from typing import TYPE_CHECKING

from minds_bot.lazy import LazyModule
from minds_bot.minds.policy import Clock, RateLimiter, RetryPolicy, Sleep
from minds_bot.minds.resources.account import AccountApi
from minds_bot.minds.resources.audience_design import AudienceDesignApi
from minds_bot.minds.resources.audience_manage import AudienceManageApi
from minds_bot.minds.resources.audiences import AudiencesApi
from minds_bot.minds.resources.chat import ChatApi
from minds_bot.minds.resources.drafts import DraftsApi
from minds_bot.minds.resources.exports import ExportsApi
from minds_bot.minds.resources.heatmaps import HeatmapsApi
from minds_bot.minds.resources.minds import MindsApi
from minds_bot.minds.resources.research import ResearchPlansApi
from minds_bot.minds.resources.runs import RunsApi
from minds_bot.minds.resources.studies import StudiesApi
from minds_bot.minds.transport import DEFAULT_BASE_URL, DEFAULT_TIMEOUT, _operation, user_agent

if TYPE_CHECKING:
    import httpx
else:
    httpx = LazyModule("httpx")  # imported on first use: start-up does not need it

__all__ = ["DEFAULT_BASE_URL", "DEFAULT_TIMEOUT", "MindsClient", "_operation", "user_agent"]


class MindsClient(
    AccountApi,
    StudiesApi,
    AudiencesApi,
    AudienceDesignApi,
    AudienceManageApi,
    MindsApi,
    ChatApi,
    RunsApi,
    ResearchPlansApi,
    DraftsApi,
    ExportsApi,
    HeatmapsApi,
):
    """One instance per workspace key; use as ``async with MindsClient.create(api_key=...) as minds:``."""

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

    async def __aenter__(self) -> MindsClient:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()
