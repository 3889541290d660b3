"""The transport every Minds resource shares: one HTTP exchange with bounded retries, paging, lookups by name,
idempotency keys and parsing replies into models at the boundary.

Owns: building requests (paths relative to the base URL, which already ends in ``/api/v1``), the bearer key,
bounded retries of GETs and keyed calls, the per-workspace rate limiter, and the polling pause. ``_exchange`` is the
one place a request is sent: it counts and times each attempt by operation (ids as ``{id}``) and status, and the
wait for the budget, in ``minds_bot.metrics``. The helpers named with a leading underscore are for the resource
modules (``minds_bot.minds.resources``) and nothing else.
Must not touch: Slack, the store, or any module-level client/clock. The key never appears in repr, logs or
errors.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pydantic import BaseModel, ValidationError

from minds_bot import __version__, metrics
from minds_bot.lazy import LazyModule
from minds_bot.minds.errors import (
    Conflict,
    MalformedResponse,
    MindsConnectionError,
    MindsError,
    MindsTimeout,
    MindsTransportError,
    NotFound,
    RateLimited,
    RequestInfo,
    ServerError,
    error_from_response,
)
from minds_bot.minds.lookup import LookupResult, resolve
from minds_bot.minds.models import MindsModel, Pagination
from minds_bot.minds.paging import LOOKUP_WINDOW, PAGE_SIZE, Page, check_page, iter_offset
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


class Transport:
    """What every resource class builds on: one instance per workspace key (see ``MindsClient``)."""

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
        self._rng = rng or random.Random()  # jitter, not security

    @property
    def limiter(self) -> RateLimiter:
        """The workspace's rate limiter this client waits on (shared by every client for the same key)."""
        return self._limiter

    async def aclose(self) -> None:
        await self._http.aclose()
        await self._download_http.aclose()

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

    async def _pause(self, attempt: int, deadline: float) -> bool:
        """Sleep one polling interval if it ends before the deadline; False when time is up."""
        delay = poll_delay(attempt, self._rng)
        if self._clock() + delay > deadline:
            return False
        await self._sleep(delay)
        return True

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

    async def _get_data(self, path: str, model: type[M], *, params: Mapping[str, Any] | None = None) -> M:
        """``GET path``: its ``data`` as ``model`` (a reply without ``data`` is malformed)."""
        resp, info = await self._call("GET", path, params=params)
        return _parse(model, _data(resp, info), info)

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

    async def _find(
        self, query: str, items: AsyncIterator[M], by_id: Callable[[str], Awaitable[Any]] | None = None
    ) -> LookupResult[Any]:
        """An exact id read directly by ``by_id`` (a 404 falls back to names), else a name among ``items``."""
        text = query.strip()
        if by_id is not None and _is_uuid(text):
            direct = await _or_none(by_id, text)
            if direct is not None:
                return LookupResult(kind="exact", query=text, scanned=0, exhaustive=False, match=direct)
        scanned = [item async for item in items]
        return resolve(text, scanned, exhaustive=len(scanned) < LOOKUP_WINDOW)


# Every fixed word of a Minds API path; any other segment is an id and is counted as ``{id}``, so an operation
# label never carries an id and their number stays bounded.
_PATH_WORDS = frozenset(
    {
        "analytics", "answers", "audiences", "auth", "cancel", "chats", "consume", "duplicate", "export",
        "export-download", "export-status", "formations", "from-brief", "heatmaps", "invitations", "jobs",
        "knowledge", "limits", "me", "messages", "minds", "model-connections", "preview", "progress", "recalibrate",
        "regenerate-prompt", "research-methods", "research-plans", "research-runs", "retrain", "runs", "sharing",
        "source-import", "status", "studies", "study-drafts", "study-templates", "summary", "training", "use",
    }
)  # fmt: skip


async def _or_none(getter: Callable[[str], Awaitable[Any]], item_id: str) -> Any:
    try:
        return await getter(item_id)
    except NotFound:
        return None


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
