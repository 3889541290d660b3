"""The Minds client's one error tree and the single status -> class map.

Owns: turning a Minds error envelope (``{statusCode, statusMessage, message, url, error, data?}``) or a
transport failure into a typed exception with structured fields (status, code, Minds' own words, why an export or a
download failed). What a person reads is not here: ``minds_bot.render.errors.minds_error_text`` words each class
(and ``said``, words a caller already chose, in the language being spoken, or Minds' own). ``str(error)`` is the
machine facts, for logs.
Must not touch: Slack, the store, the words people read, or the API key (no error here ever holds a header).

::

    MindsError
     +-- MalformedResponse          a reply without a required piece (never "empty")
     +-- ExportFailed               export status ``failed`` (errorCode, error text)
     +-- AudienceJobFailed          from-brief job ``failed``
     +-- DownloadFailed             the signed export URL refused us / the file is over the cap
     +-- MindsTransportError        no HTTP reply at all (request attached)
     |    +-- MindsTimeout
     |    +-- MindsConnectionError
     +-- MindsAPIError              an HTTP error reply (status_code, code, request)
          +-- AuthenticationError   401
          +-- PermissionDenied      403
          |    +-- PlanLimitError   403 + PLAN_LIMIT
          +-- NotFound              404
          +-- Conflict              409 (code)
          |    +-- PanelMindsNotReady    PANEL_MINDS_NOT_READY (not_ready)
          |    +-- StudyRunInProgress    STUDY_RUN_IN_PROGRESS
          |    +-- StaleRevision         plan preview 409
          |    +-- SummarySuperseded     summary refresh 409
          |    +-- MindNotReady          SPARK_NOT_READY (the Mind is still training)
          +-- InvalidRequest        400 / 422
          +-- RateLimited           429 (retry_after)
          +-- ServerError           5xx
               +-- ServiceUnavailable 503 (retry_after)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal


@dataclass(frozen=True)
class RequestInfo:
    """What we may say about a request in errors and logs: never headers, never the body."""

    method: str
    path: str

    def __str__(self) -> str:
        return f"{self.method} {self.path}"  # for logs, verbatim


class MindsError(Exception):
    """Base of every error the Minds client raises. ``said``: words already meant for a person (a caller's, in the
    language being spoken, or Minds' own), or None: then ``minds_bot.render.errors`` words the class.
    ``default_message``: a message id (``N_``) a subclass outside ``minds/`` may give for its own words."""

    default_message: ClassVar[str | None] = None

    def __init__(self, message: str | None = None, *, request: RequestInfo | None = None) -> None:
        self.said = message or None
        self.request = request
        super().__init__(self._log_text())

    def facts(self) -> list[str]:
        """What this error knows, for logs (never a header, never the key)."""
        return [self.said] if self.said else []

    def _log_text(self) -> str:
        facts = ", ".join(self.facts())  # for logs, verbatim
        text = f"{type(self).__name__}: {facts}" if facts else type(self).__name__  # for logs, verbatim
        return text if self.request is None else f"{text} ({self.request})"  # for logs, verbatim


class MalformedResponse(MindsError):
    def __init__(self, detail: str, *, request: RequestInfo | None = None) -> None:
        self.detail = detail  # for developers: said as it is, in brackets
        super().__init__(request=request)

    def facts(self) -> list[str]:
        return [f"[{self.detail}]"]  # verbatim


# Why an export is not there: Minds said it failed, it did not finish within the wait, or Minds no longer knows
# the job (an ``idle`` status for it).
ExportTrouble = Literal["failed", "late", "unknown_job"]


class ExportFailed(MindsError):
    def __init__(
        self,
        *,
        error_code: str | None,
        error: str | None,
        request: RequestInfo | None = None,
        trouble: ExportTrouble = "failed",
    ):
        self.error_code = error_code
        self.error = error  # Minds' own words
        self.trouble: ExportTrouble = trouble
        super().__init__(request=request)

    def facts(self) -> list[str]:
        return [fact for fact in (self.trouble, self.error_code, self.error) if fact]


class AudienceJobFailed(MindsError):
    def __init__(self, *, job_id: str, error: str | None, request: RequestInfo | None = None) -> None:
        self.job_id = job_id
        self.error = error
        super().__init__(request=request)

    def facts(self) -> list[str]:
        return [fact for fact in (self.job_id, self.error) if fact]


# Why a download failed: the file host answered another status, did not answer in time, could not be reached, or
# the file is larger than ``limit_bytes``.
DownloadTrouble = Literal["refused", "timeout", "unreachable", "too_large"]


class DownloadFailed(MindsError):
    def __init__(
        self,
        trouble: DownloadTrouble | None = None,
        *,
        status_code: int | None = None,
        limit_bytes: int | None = None,
    ) -> None:
        self.trouble = trouble
        self.status_code = status_code
        self.limit_bytes = limit_bytes
        # The signed URL is a bearer credential for the file, so it is never part of the error.
        super().__init__()

    def facts(self) -> list[str]:
        status = f"HTTP {self.status_code}" if self.status_code is not None else None
        limit = f"limit {self.limit_bytes} bytes" if self.limit_bytes is not None else None  # verbatim
        return [fact for fact in (self.trouble, status, limit) if fact]


class MindsTransportError(MindsError):
    """No HTTP reply at all."""


class MindsTimeout(MindsTransportError):
    """Minds did not answer within the timeout."""


class MindsConnectionError(MindsTransportError):
    """No connection to Minds."""


class MindsAPIError(MindsError):
    """An HTTP error reply. ``code`` is ``data.code``; ``server_message`` is Minds' own (unstable) wording."""

    def __init__(
        self,
        message: str | None = None,
        *,
        status_code: int,
        request: RequestInfo | None = None,
        code: str | None = None,
        server_message: str | None = None,
        data: Mapping[str, Any] | None = None,
    ) -> None:
        self.status_code = status_code
        self.code = code
        self.server_message = server_message
        self.data: Mapping[str, Any] = data or {}
        super().__init__(message, request=request)

    def facts(self) -> list[str]:
        return [f"HTTP {self.status_code}", *(fact for fact in (self.code, self.said) if fact)]  # verbatim


class AuthenticationError(MindsAPIError):
    """401: the key is missing, invalid or revoked."""


class PermissionDenied(MindsAPIError):
    """403."""


class PlanLimitError(PermissionDenied):
    """403 ``PLAN_LIMIT``: the plan allowance is used up (``data``: limitType, currentPlan, limit, current,
    periodEnd); nothing was started."""

    def __init__(self, message: str | None = None, **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.limit_type: str | None = _str(self.data.get("limitType"))
        self.current_plan: str | None = _str(self.data.get("currentPlan"))
        self.limit: int | None = _int(self.data.get("limit"))
        self.current: int | None = _int(self.data.get("current"))
        self.period_end: str | None = _str(self.data.get("periodEnd"))


class NotFound(MindsAPIError):
    """404: no such item, or this account cannot see it."""


class Conflict(MindsAPIError):
    """409: the item changed on Minds (``code`` says how, where Minds defines one)."""


@dataclass(frozen=True)
class NotReadyMind:
    mind_id: str | None
    name: str | None
    audience_id: str | None
    training_status: str | None


class PanelMindsNotReady(Conflict):
    """409 ``PANEL_MINDS_NOT_READY``: Minds still training (``not_ready``)."""

    def __init__(self, message: str | None = None, **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        raw = self.data.get("notReady")
        items = raw if isinstance(raw, list) else []
        self.not_ready = [_not_ready(item) for item in items if isinstance(item, Mapping)]


class StudyRunInProgress(Conflict):
    """409 ``STUDY_RUN_IN_PROGRESS``."""


class StaleRevision(Conflict):
    """409 from a plan preview: the revision is no longer the latest."""


class SummarySuperseded(Conflict):
    """409 from a summary refresh: a newer summary replaced it."""


class MindNotReady(Conflict):
    """409 ``SPARK_NOT_READY``: the Mind is still training."""


class InvalidRequest(MindsAPIError):
    """400 or 422."""


class RateLimited(MindsAPIError):
    """429 (``retry_after``: Minds' ``Retry-After`` in seconds, when sent)."""

    def __init__(self, message: str | None = None, *, retry_after: float | None = None, **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.retry_after = retry_after


class ServerError(MindsAPIError):
    """5xx."""


class ServiceUnavailable(ServerError):
    """503 (``retry_after`` as for ``RateLimited``)."""

    def __init__(self, message: str | None = None, *, retry_after: float | None = None, **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.retry_after = retry_after


_STATUS_CLASSES: dict[int, type[MindsAPIError]] = {
    400: InvalidRequest,
    401: AuthenticationError,
    403: PermissionDenied,
    404: NotFound,
    409: Conflict,
    422: InvalidRequest,
    429: RateLimited,
    503: ServiceUnavailable,
}

_CODE_CLASSES: dict[tuple[int, str], type[MindsAPIError]] = {
    (403, "PLAN_LIMIT"): PlanLimitError,
    (409, "PANEL_MINDS_NOT_READY"): PanelMindsNotReady,
    (409, "STUDY_RUN_IN_PROGRESS"): StudyRunInProgress,
    (409, "SPARK_NOT_READY"): MindNotReady,
}


def error_class_for(status_code: int, code: str | None) -> type[MindsAPIError]:
    """The one status -> class map; ``data.code`` refines it where Minds defines a code."""
    if code is not None and (status_code, code) in _CODE_CLASSES:
        return _CODE_CLASSES[(status_code, code)]
    if status_code in _STATUS_CLASSES:
        return _STATUS_CLASSES[status_code]
    return ServerError if status_code >= 500 else MindsAPIError


# 409 codes about the request itself (a key reused with another body, an observation hint that does not match),
# never about the state of the thing: they keep the plain ``Conflict`` even where a call expects a stale revision.
REQUEST_CONFLICTS = frozenset({"IDEMPOTENCY_KEY_REUSED", "IDEMPOTENCY_KEY_IN_PROGRESS", "OPERATION_MISMATCH"})


def error_from_response(
    *,
    status_code: int,
    body: bytes,
    retry_after: float | None,
    request: RequestInfo,
    conflict_class: type[Conflict] | None = None,
) -> MindsAPIError:
    """Build the typed error for an HTTP error reply; bodies that are not the envelope still map by status."""
    envelope = _envelope(body)
    data = envelope.get("data")
    if not isinstance(data, Mapping):
        data = {}
    code = _str(data.get("code"))
    cls = error_class_for(status_code, code)
    if cls is Conflict and conflict_class is not None and code not in REQUEST_CONFLICTS:
        cls = conflict_class
    kwargs: dict[str, Any] = {
        "status_code": status_code,
        "request": request,
        "code": code,
        "server_message": _str(envelope.get("message")),
        "data": data,
    }
    if issubclass(cls, RateLimited | ServiceUnavailable):
        kwargs["retry_after"] = retry_after
    return cls(**kwargs)


def _envelope(body: bytes) -> Mapping[str, Any]:
    try:
        parsed = json.loads(body)
    except ValueError:
        return {}
    return parsed if isinstance(parsed, Mapping) else {}


def _not_ready(item: Mapping[str, Any]) -> NotReadyMind:
    return NotReadyMind(
        mind_id=_str(item.get("mindId")),
        name=_str(item.get("name")),
        audience_id=_str(item.get("audienceId")),
        training_status=_str(item.get("trainingStatus")),
    )


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None
