"""The Minds client's one error tree and the single status -> class map.

Owns: turning a Minds error envelope (``{statusCode, statusMessage, message, url, error, data?}``) or a
transport failure into a typed exception with a short, user-presentable ``message`` and structured fields.
A class's ``default_message`` is a message id (``N_``), translated each time ``message`` is read, so it speaks the
language of whoever reads it; a ``message`` passed in is already in the language being spoken (or Minds' own
words). ``str(error)`` (for logs) is English.
Must not touch: Slack, the store, or the API key (no error here ever holds a header).

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
from typing import Any

from minds_bot.i18n import N_, _, speaking


@dataclass(frozen=True)
class RequestInfo:
    """What we may say about a request in errors and logs: never headers, never the body."""

    method: str
    path: str

    def __str__(self) -> str:
        return f"{self.method} {self.path}"  # for logs, verbatim


class MindsError(Exception):
    """Base of every error the Minds client raises. ``message`` is short and safe to show a user."""

    default_message = N_("Minds could not complete the request.")

    def __init__(self, message: str | None = None, *, request: RequestInfo | None = None) -> None:
        self._message = message or None
        self.request = request
        with speaking(None):
            english = self.message
        super().__init__(english if request is None else f"{english} ({request})")  # for logs, verbatim

    @property
    def message(self) -> str:
        """What to tell a person, in the language spoken now."""
        return self._message or _(self.default_message)


class MalformedResponse(MindsError):
    default_message = N_("Minds sent a reply the bot could not read, so nothing is assumed.")

    def __init__(self, detail: str, *, request: RequestInfo | None = None) -> None:
        self.detail = detail  # for developers: said as it is, in brackets
        super().__init__(request=request)

    @property
    def message(self) -> str:
        return f"{_(self.default_message)} [{self.detail}]"


class ExportFailed(MindsError):
    def __init__(self, *, error_code: str | None, error: str | None, request: RequestInfo | None = None):
        self.error_code = error_code
        self.error = error  # Minds' own words, or the bot's already in the language being spoken
        super().__init__(request=request)

    @property
    def message(self) -> str:
        reason = self.error or self.error_code
        if not reason:
            return _("Minds could not build the export: no reason given.")
        return _("Minds could not build the export: {reason}.", reason=reason)


class AudienceJobFailed(MindsError):
    def __init__(self, *, job_id: str, error: str | None, request: RequestInfo | None = None) -> None:
        self.job_id = job_id
        self.error = error
        super().__init__(request=request)

    @property
    def message(self) -> str:
        if not self.error:
            return _("Minds could not build the Audience: no reason given.")
        return _("Minds could not build the Audience: {reason}.", reason=self.error)


class DownloadFailed(MindsError):
    default_message = N_("The export file could not be downloaded.")

    def __init__(self, message: str | None = None, *, status_code: int | None = None) -> None:
        self.status_code = status_code
        # The signed URL is a bearer credential for the file, so it is never part of the error.
        super().__init__(message)


class MindsTransportError(MindsError):
    default_message = N_("Minds could not be reached.")


class MindsTimeout(MindsTransportError):
    default_message = N_("Minds did not answer in time.")


class MindsConnectionError(MindsTransportError):
    default_message = N_("Could not connect to Minds.")


class MindsAPIError(MindsError):
    """An HTTP error reply. ``code`` is ``data.code``; ``server_message`` is Minds' own (unstable) wording."""

    default_message = N_("Minds refused the request.")

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


class AuthenticationError(MindsAPIError):
    default_message = N_("Minds did not accept this workspace's API key (missing, invalid or revoked).")


class PermissionDenied(MindsAPIError):
    default_message = N_("This Minds account is not allowed to do that.")


class PlanLimitError(PermissionDenied):
    default_message = N_("The Minds plan allowance is used up; an upgrade is required. Nothing was started.")

    def __init__(self, message: str | None = None, **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.limit_type: str | None = _str(self.data.get("limitType"))
        self.current_plan: str | None = _str(self.data.get("currentPlan"))
        self.limit: int | None = _int(self.data.get("limit"))
        self.current: int | None = _int(self.data.get("current"))
        self.period_end: str | None = _str(self.data.get("periodEnd"))


class NotFound(MindsAPIError):
    default_message = N_("Minds has no such item, or this account cannot see it.")


class Conflict(MindsAPIError):
    default_message = N_("The item changed on Minds; reload it before trying again.")


@dataclass(frozen=True)
class NotReadyMind:
    mind_id: str | None
    name: str | None
    audience_id: str | None
    training_status: str | None


class PanelMindsNotReady(Conflict):
    default_message = N_("Some Minds in this Study are still training; try again when they are ready.")

    def __init__(self, message: str | None = None, **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        raw = self.data.get("notReady")
        items = raw if isinstance(raw, list) else []
        self.not_ready = [_not_ready(item) for item in items if isinstance(item, Mapping)]


class StudyRunInProgress(Conflict):
    default_message = N_("This Study has a run in progress; wait for it to finish or cancel it first.")


class StaleRevision(Conflict):
    default_message = N_("This plan revision is no longer the latest; reload the plan before changing it.")


class SummarySuperseded(Conflict):
    default_message = N_("A newer summary replaced this one; reload the summary before retrying.")


class MindNotReady(Conflict):
    default_message = N_("This Mind is still training; it can chat once its training is finished.")


class InvalidRequest(MindsAPIError):
    default_message = N_("Minds rejected the request as invalid.")


class RateLimited(MindsAPIError):
    default_message = N_("Minds is rate limiting this workspace; try again shortly.")

    def __init__(self, message: str | None = None, *, retry_after: float | None = None, **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.retry_after = retry_after


class ServerError(MindsAPIError):
    default_message = N_("Minds had an internal problem.")


class ServiceUnavailable(ServerError):
    default_message = N_("Minds is temporarily unavailable; nothing was charged. Try again later.")

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
