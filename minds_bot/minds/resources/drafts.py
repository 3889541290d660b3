"""The Study drafts and templates resource (``/study-drafts…``, ``/study-templates…``): resumable planning
snapshots and reusable question sets; none of these calls ever starts research.

Must not touch: Slack, the store.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from minds_bot.minds.errors import MalformedResponse
from minds_bot.minds.models import StudyDraft, StudyTemplate
from minds_bot.minds.transport import Transport, _data, _DataList, _drop_none, _json, _key, _parse, _seg, _uuid


class DraftsApi(Transport):
    """``/study-drafts`` and ``/study-templates``."""

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

    async def get_study_draft(self, draft_id: str) -> StudyDraft:
        """``GET /study-drafts/{id}``: the complete planning state; the reply must be this very draft."""
        resp, info = await self._call("GET", f"/study-drafts/{_seg(draft_id)}")
        draft = _parse(StudyDraft, _data(resp, info), info)
        if draft.id != draft_id:
            raise MalformedResponse("the draft read is not the draft asked for", request=info)  # verbatim
        return draft

    async def update_study_draft(
        self,
        draft_id: str,
        *,
        expected_revision: int,
        name: str | None = None,
        mode: Literal["quick", "custom"] | None = None,
        current_step: str | None = None,
    ) -> StudyDraft:
        """``PATCH /study-drafts/{id}`` (compare-and-swap on ``expected_revision``: a stale one is 409). Not
        repeated on failure: read the draft again before retrying. The reply must be this draft; an unchanged
        state keeps its revision, a change raises it."""
        body = _drop_none(
            {"expectedRevision": expected_revision, "name": name, "mode": mode, "currentStep": current_step}
        )
        resp, info = await self._call("PATCH", f"/study-drafts/{_seg(draft_id)}", json_body=body)
        draft = _parse(StudyDraft, _data(resp, info), info)
        if draft.id != draft_id or draft.revision < expected_revision:
            raise MalformedResponse("the draft update reply is not this draft's saved state", request=info)  # verbatim
        return draft

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

    async def get_study_template(self, template_id: str) -> StudyTemplate:
        """``GET /study-templates/{id}``: the template with its revision and stored configuration; a read by id
        must return that same template."""
        resp, info = await self._call("GET", f"/study-templates/{_seg(template_id)}")
        template = _parse(StudyTemplate, _data(resp, info), info)
        if template.id != template_id:
            raise MalformedResponse("the template read is not the template asked for", request=info)  # verbatim
        return template

    async def update_study_template(
        self,
        template_id: str,
        *,
        expected_revision: int,
        name: str | None = None,
        configuration: Mapping[str, Any] | None = None,
        shared_with_team: bool | None = None,
    ) -> StudyTemplate:
        """``PATCH /study-templates/{id}`` (owner only; the current revision, else 409). Not repeated on failure.
        The reply must be the complete template, this one, as sent."""
        body = _drop_none(
            {
                "expectedRevision": expected_revision,
                "name": name,
                "configuration": dict(configuration) if configuration is not None else None,
                "isSharedWithTeam": shared_with_team,
            }
        )
        resp, info = await self._call("PATCH", f"/study-templates/{_seg(template_id)}", json_body=body)
        template = _parse(StudyTemplate, _data(resp, info), info)
        sent_name = name is None or template.name == name
        if template.id != template_id or not sent_name or template.revision <= expected_revision:
            raise MalformedResponse("the template update reply does not match what was sent", request=info)  # verbatim
        return template

    async def delete_study_template(self, template_id: str) -> None:
        """``DELETE /study-templates/{id}`` (owner only): success is ``{"success": true}``; anything else is no
        proof of a delete."""
        resp, info = await self._call("DELETE", f"/study-templates/{_seg(template_id)}")
        payload = _json(resp, info)
        if not (isinstance(payload, dict) and payload.get("success") is True):
            raise MalformedResponse("a template delete did not answer success: true", request=info)  # verbatim

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
