"""Cross-cutting request handling: the error envelope, clock ticks and saves, API-key auth, the per-key rate
limit and injected faults.

Owns: every middleware of the sandbox app. Must not contain endpoint logic. Keys are checked and fingerprinted
here and never logged or echoed.
"""

from __future__ import annotations

import logging

from aiohttp import web
from aiohttp.typedefs import Handler

from minds_sandbox.errors import ApiError, envelope
from minds_sandbox.ids import is_well_formed_key, key_fingerprint
from minds_sandbox.runtime import RUNTIME

log = logging.getLogger(__name__)
API_PREFIX = "/api/v1"
KEY_FP: web.RequestKey[str] = web.RequestKey("minds_key_fingerprint", str)


@web.middleware
async def error_envelope(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Every failure leaves as the Minds envelope; nothing a client sends can crash the server."""
    try:
        return await handler(request)
    except ApiError as exc:
        return _error(request, status=exc.status, message=exc.message, data=exc.data, headers=exc.headers)
    except web.HTTPException as exc:
        if exc.status < 400:
            raise
        message = "Route not found" if exc.status == 404 else exc.reason
        return _error(request, status=exc.status, message=message, data=None, headers={})
    except Exception:
        log.exception("sandbox handler failed for %s %s", request.method, request.path)
        return _error(request, status=500, message="Internal sandbox error", data={"code": "INTERNAL"}, headers={})


def _error(
    request: web.Request, *, status: int, message: str, data: dict | None, headers: dict[str, str]
) -> web.Response:
    body = envelope(status=status, message=message, url=request.path, data=data)
    return web.json_response(body, status=status, headers=headers)


@web.middleware
async def tick_and_save(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Bring runs up to the clock before answering, and persist whatever the request changed."""
    runtime = request.app[RUNTIME]
    runtime.engine.tick()
    try:
        return await handler(request)
    finally:
        if runtime.store is not None:
            await runtime.store.save_if_changed(runtime.state)


@web.middleware
async def api_gate(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Auth, rate limit and faults for ``/api/v1`` only; control and file routes bypass them."""
    if not request.path.startswith(API_PREFIX):
        return await handler(request)
    request[KEY_FP] = _authenticate(request)
    headers = _rate_headers(request)
    try:
        await _inject_faults(request)
        response = await handler(request)
        _lose_reply(request, response)
    except ApiError as exc:
        exc.headers = {**headers, **exc.headers}
        raise
    response.headers.update(headers)
    return response


def _authenticate(request: web.Request) -> str:
    scheme, _, key = request.headers.get("Authorization", "").partition(" ")
    allowed = request.app[RUNTIME].config.allowed_keys
    if scheme.lower() != "bearer" or not is_well_formed_key(key) or (allowed is not None and key not in allowed):
        # One generic answer for missing, malformed and unknown keys, as Minds does.
        raise ApiError(401, "Invalid or missing API key", code="UNAUTHORIZED")
    return key_fingerprint(key)


def _rate_headers(request: web.Request) -> dict[str, str]:
    counted = request.app[RUNTIME].count_request(request[KEY_FP])
    if counted is None:
        return {}
    limit, remaining, reset = counted
    headers = {"RateLimit-Limit": str(limit), "RateLimit-Remaining": str(max(0, remaining))}
    if remaining < 0:
        request.app[RUNTIME].note_throttled(request[KEY_FP])
        raise ApiError(
            429,
            "Too many requests; retry after the window resets",
            code="RATE_LIMITED",
            headers={**headers, "Retry-After": str(reset)},
        )
    return headers


def _lose_reply(request: web.Request, response: web.StreamResponse) -> None:
    """The request was carried out, but its answer is "lost on the way" (a gateway timeout): a client cannot
    tell whether it worked, and only a retry with the same key is safe."""
    runtime = request.app[RUNTIME]
    rate = runtime.faults.lost_reply_rate_for(request.method, request.path)
    if response.status < 400 and rate > 0 and runtime.fault_rng.random() < rate:
        raise ApiError(504, "Injected sandbox failure: the reply was lost after the work was done", code="LOST_REPLY")


async def _inject_faults(request: web.Request) -> None:
    runtime = request.app[RUNTIME]
    faults = runtime.faults
    if faults.latency_ms > 0:
        await runtime.sleep(faults.latency_ms / 1000)
    if faults.throttle_rate > 0 and runtime.fault_rng.random() < faults.throttle_rate:
        runtime.note_throttled(request[KEY_FP])
        raise ApiError(
            429,
            "Too many requests (sandbox fault)",
            code="RATE_LIMITED",
            headers={"Retry-After": str(faults.retry_after_seconds)},
        )
    rate = faults.error_rate_for(request.method, request.path)
    if rate > 0 and runtime.fault_rng.random() < rate:
        raise ApiError(faults.error_status, "Injected sandbox failure", code="SANDBOX_FAULT")
