"""The guided-research resource: research methods, plan preview and its observation (a 202 is observed with
the same body and key until it is ready or the wait ends), confirming a plan revision as a research run, reading
that run, and the model connections a run may be pinned to (``/research-methods``,
``/studies/{id}/research-plans/preview``, ``/studies/{id}/research-runs…``, ``/model-connections``).

Must not touch: Slack, the store.
"""

from __future__ import annotations

from collections.abc import Sequence

from minds_bot.minds.errors import MalformedResponse, RequestInfo, StaleRevision
from minds_bot.minds.models import (
    ModelConnection,
    ModelConnectionPage,
    PlanPending,
    PlanPreviewRequest,
    PlanReceipt,
    ResearchMethod,
    ResearchPlan,
    ResearchRun,
    ResearchRunStarted,
)
from minds_bot.minds.paging import CursorPage, walk_cursor
from minds_bot.minds.transport import (
    DEFAULT_PLAN_WAIT,
    Transport,
    _data,
    _DataList,
    _drop_none,
    _json,
    _key,
    _parse,
    _seg,
    _uuid,
)


class ResearchPlansApi(Transport):
    """Research methods, plans and guided research runs."""

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
        return await self._get_data(f"/studies/{_seg(study_id)}/research-runs/{_seg(run_id)}", ResearchRun)

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


MAX_CONNECTION_PAGES = 20


def _advance(pending: PlanPending, receipt: PlanReceipt) -> PlanPending:
    return pending.model_copy(
        update={
            "request_id": receipt.request_id,
            "operation_id": receipt.operation_id or pending.operation_id,
            "stage": receipt.stage,
        }
    )
