"""The Studies resource: listing, finding, creating, duplicating and deleting Studies, their sharing, analytics,
summary and invitations (``/studies``, ``/studies/{id}``, ``…/duplicate``, ``…/sharing``, ``…/analytics``,
``…/summary``, ``…/invitations``).

Must not touch: Slack, the store; a Study's runs, plans, exports and heatmaps have resources of their own.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import Literal

from minds_bot.minds.errors import MalformedResponse, SummarySuperseded
from minds_bot.minds.lookup import LookupResult
from minds_bot.minds.models import (
    InvitationResult,
    SemanticSummary,
    SharingState,
    Study,
    StudyAnalytics,
    StudyCreated,
    StudyDetail,
    StudyDuplicate,
)
from minds_bot.minds.paging import LOOKUP_WINDOW, Page
from minds_bot.minds.transport import Transport, _data, _data_of, _drop_none, _get, _json, _key, _parse, _seg


class StudiesApi(Transport):
    """``/studies`` and a Study's own settings, figures and members."""

    def iter_studies(self, *, max_items: int | None = None) -> AsyncIterator[Study]:
        """Owned Studies, newest first, across pages."""
        return self._iter("/studies", Study, max_items=max_items)

    async def studies_page(self, *, offset: int = 0, limit: int = 20) -> Page[Study]:
        """One page of owned Studies, newest first, with ``pagination.total`` (for browsing)."""
        return await self._one_page("/studies", Study, offset=offset, limit=limit)

    async def get_study(self, study_id: str) -> StudyDetail:
        return await self._get_data(f"/studies/{_seg(study_id)}", StudyDetail)

    async def find_study(self, query: str) -> LookupResult[Study | StudyDetail]:
        """Exact id (then ``match`` is the ``StudyDetail``), or a name among the newest 1,000 Studies."""
        return await self._find(query, self._iter("/studies", Study, max_items=LOOKUP_WINDOW), self.get_study)

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

    async def delete_study(self, study_id: str) -> None:
        """``DELETE /studies/{id}`` (owner only: 403 otherwise): success is ``204`` with no body; anything else is
        no proof of a delete. Never retried: after an uncertain outcome, read the Study before deleting again."""
        resp, info = await self._call("DELETE", f"/studies/{_seg(study_id)}")
        if resp.status_code != 204 and resp.content.strip():
            detail = "a Study delete answered with a body instead of an empty reply"  # verbatim
            raise MalformedResponse(detail, request=info)

    async def set_sharing(self, study_id: str, *, enabled: bool) -> SharingState:
        """``PUT /studies/{id}/sharing``. Only call after the user explicitly asked for a public link."""
        resp, info = await self._call(
            "PUT", f"/studies/{_seg(study_id)}/sharing", json_body={"isLinkSharingEnabled": enabled}
        )
        return _parse(SharingState, _data(resp, info), info)

    async def get_analytics(self, study_id: str) -> StudyAnalytics:
        return await self._get_data(f"/studies/{_seg(study_id)}/analytics", StudyAnalytics)

    async def get_summary(self, study_id: str) -> SemanticSummary:
        return await self._get_data(f"/studies/{_seg(study_id)}/summary", SemanticSummary)

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

    async def invite_to_study(
        self, study_id: str, *, emails: Sequence[str], role: Literal["member", "admin"] = "member"
    ) -> InvitationResult:
        """``POST /studies/{id}/invitations`` (owner only: 404 otherwise). Never retried: a repeat could send
        the emails twice. The result names each address Minds could not deliver to."""
        body = {"emails": list(emails), "role": role}
        resp, info = await self._call("POST", f"/studies/{_seg(study_id)}/invitations", json_body=body)
        return _parse(InvitationResult, _data(resp, info), info)
