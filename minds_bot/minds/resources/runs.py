"""The direct-runs resource: a standalone question's run, its state, cancellation, a Study's run list and a
message's individual answers (``/studies/{id}/runs``, ``/runs/{id}``, ``/studies/{id}/messages/{id}/answers``).

Must not touch: Slack, the store.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from minds_bot.minds.models import AgentRun, DirectRunAccepted, MessageAnswers, PlanningRequired, RunCancellation
from minds_bot.minds.paging import MAX_CURSOR_PAGES, PAGE_SIZE, CursorPage, Walked, walk_cursor
from minds_bot.minds.transport import Transport, _CursorList, _data, _DataList, _drop_none, _json, _parse, _seg, _uuid


class RunsApi(Transport):
    """Direct runs and a Study's run list."""

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
        return await self._get_data(f"/runs/{_seg(run_id)}", AgentRun)

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
