"""Request parsing and response building shared by the sandbox route modules.

Owns: JSON body reading with clear 400s, paging parameters, the list body (and its malformed-list fault) and
lookups that 404. Must not hold state of its own.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, TypeVar

from aiohttp import web
from pydantic import BaseModel, ValidationError

from minds_sandbox.errors import ApiError, bad_request, not_found
from minds_sandbox.runtime import RUNTIME, Runtime
from minds_sandbox.state import Record

M = TypeVar("M", bound=BaseModel)
MAX_BODY_BYTES = 1024 * 1024
MAX_PAGE = 100
MAX_IDEMPOTENCY_KEY = 200


def runtime(request: web.Request) -> Runtime:
    return request.app[RUNTIME]


async def read_json(request: web.Request, *, max_bytes: int = MAX_BODY_BYTES, required: bool = True) -> dict[str, Any]:
    raw = b""
    while len(raw) <= max_bytes:  # one read may return less than asked for: read on until the end or the limit
        chunk = await request.content.read(max_bytes + 1 - len(raw))
        if not chunk:
            break
        raw += chunk
    if len(raw) > max_bytes:
        raise ApiError(413, f"Request body is larger than {max_bytes} bytes", code="PAYLOAD_TOO_LARGE")
    if not raw.strip():
        if required:
            raise bad_request("Request body is required")
        return {}
    try:
        body = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise bad_request("Request body is not valid JSON", code="INVALID_JSON") from exc
    if not isinstance(body, dict):
        raise bad_request("Request body must be a JSON object")
    return body


def parse(model: type[M], body: dict[str, Any]) -> M:
    try:
        return model.model_validate(body)
    except ValidationError as exc:
        issues = "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'body'}: {e['msg']}" for e in exc.errors())
        raise bad_request(f"Invalid request: {issues}", code="VALIDATION_ERROR") from exc


def body_hash(body: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def idempotency_key(request: web.Request, body_key: object = None) -> str | None:
    """The header wins over the body field; blank is absent; longer than 200 characters is an error."""
    key = request.headers.get("Idempotency-Key") or (body_key if isinstance(body_key, str) else None)
    if key is None or not key.strip():
        return None
    if len(key) > MAX_IDEMPOTENCY_KEY:
        raise bad_request(f"Idempotency-Key must be at most {MAX_IDEMPOTENCY_KEY} characters")
    return key


def ok(data: Any, *, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    return web.json_response({"data": data}, status=status, headers=headers)


def _int_param(request: web.Request, name: str, *, default: int, low: int, high: int) -> int:
    raw = request.query.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError as exc:
        raise bad_request(f"{name} must be an integer") from exc
    if not low <= value <= high:
        raise bad_request(f"{name} must be between {low} and {high}")
    return value


def page_params(request: web.Request, *, default_limit: int = MAX_PAGE) -> tuple[int, int]:
    limit = _int_param(request, "limit", default=default_limit, low=1, high=MAX_PAGE)
    offset = _int_param(request, "offset", default=0, low=0, high=10**9)
    return limit, offset


def paged(request: web.Request, items: list[Any]) -> web.Response:
    limit, offset = page_params(request)
    return list_response(
        request,
        items[offset : offset + limit],
        pagination={"total": len(items), "limit": limit, "offset": offset},
    )


def list_response(request: web.Request, items: list[Any], *, pagination: dict[str, Any] | None) -> web.Response:
    """A ``{data: [...]}`` list, broken on purpose when the malformed-lists fault is on."""
    mode = runtime(request).faults.malformed_lists
    body: dict[str, Any] = {"data": items}
    if pagination is not None:
        body["pagination"] = pagination
    if mode == "missing_pagination":
        body.pop("pagination", None)
        body["data"] = items
    elif mode == "data_not_list":
        body["data"] = {"items": items}
    elif mode == "empty_page":
        body["data"] = []
        if pagination is not None:
            body["pagination"] = {**pagination, "total": max(pagination["total"], pagination["offset"] + 1)}
    return web.json_response(body)


def lookup(collection: dict[str, Record], key: str, what: str) -> Record:
    record = collection.get(key)
    if record is None:
        raise not_found(what)
    return record


def study_of(request: web.Request) -> Record:
    return lookup(runtime(request).state.studies, request.match_info["study_id"], "Study")


def origin(request: web.Request) -> str:
    return f"{request.scheme}://{request.host}"


def newest_first(records: list[Record]) -> list[Record]:
    """Newest first; records created in the same instant keep their creation order, reversed."""
    ordered = sorted(enumerate(records), key=lambda pair: (pair[1]["createdAt"], pair[0]), reverse=True)
    return [record for _, record in ordered]
