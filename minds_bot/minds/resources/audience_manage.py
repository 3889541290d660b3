"""Managing an existing Audience (``manage_audience``, ``manage_formation``): rename it, delete it, follow it, add
and remove its members, regenerate its portraits; preview, create, read, recompute and delete its Formations.

Deletes succeed only on an empty reply (anything else is no proof of a delete); a preview or a detail that does
not hold the declared fields is ``MalformedResponse`` (the seeds: never a guessed success). None of these has an
idempotency key, so only the GETs and the idempotent member add are ever retried.
Must not touch: Slack, the store.
"""

from __future__ import annotations

from collections.abc import Sequence

import httpx

from minds_bot.minds.errors import MalformedResponse, RequestInfo
from minds_bot.minds.models import Audience
from minds_bot.minds.models.audience_manage import (
    FormationBuild,
    FormationDetail,
    FormationHypothesis,
    FormationPreview,
    ImagesRegeneration,
    MembersAdded,
)
from minds_bot.minds.transport import Transport, _data, _drop_none, _json, _parse, _seg

MAX_PREVIEW_INPUT = 2000  # the seeds: the preview's text is trimmed to 2000 characters


def _empty(resp: httpx.Response, info: RequestInfo, *, what: str) -> None:
    if resp.status_code != 204 and resp.content.strip():
        detail = f"{what} answered with a body instead of an empty reply"  # verbatim
        raise MalformedResponse(detail, request=info)


class AudienceManageApi(Transport):
    """``/audiences/{id}`` (PUT, DELETE), ``…/follow``, ``…/members``, ``…/regenerate-images`` and
    ``…/formations…``."""

    async def update_audience(self, audience_id: str, *, name: str, shared_with_team: bool | None = None) -> Audience:
        """``PUT /audiences/{id}``: ``name`` is required on every call; the public flag is never sent from here
        (a public listing is turned on only where someone asks for exactly that)."""
        body = _drop_none({"name": name, "isSharedWithTeam": shared_with_team})
        resp, info = await self._call("PUT", f"/audiences/{_seg(audience_id)}", json_body=body)
        return _parse(Audience, _data(resp, info), info)

    async def delete_audience(self, audience_id: str) -> None:
        """``DELETE /audiences/{id}`` (owner only): also deletes the member Minds the account owns that belong to
        no other Audience."""
        resp, info = await self._call("DELETE", f"/audiences/{_seg(audience_id)}")
        _empty(resp, info, what="an Audience delete")  # verbatim

    async def follow_audience(self, audience_id: str) -> None:
        await self._call("POST", f"/audiences/{_seg(audience_id)}/follow")

    async def unfollow_audience(self, audience_id: str) -> None:
        await self._call("DELETE", f"/audiences/{_seg(audience_id)}/follow")

    async def add_audience_members(self, audience_id: str, mind_ids: Sequence[str]) -> MembersAdded:
        """``POST /audiences/{id}/members`` with ``mindIds``: members already in are ignored, so a repeat is
        harmless and the call is retried like a keyed one."""
        body = {"mindIds": list(dict.fromkeys(mind_ids))}
        resp, info = await self._call("POST", f"/audiences/{_seg(audience_id)}/members", json_body=body, retryable=True)
        return _parse(MembersAdded, _data(resp, info), info)

    async def remove_audience_member(self, audience_id: str, mind_id: str) -> None:
        """``DELETE /audiences/{id}/members/{mindId}``: the Mind itself is kept."""
        resp, info = await self._call("DELETE", f"/audiences/{_seg(audience_id)}/members/{_seg(mind_id)}")
        _empty(resp, info, what="a member removal")  # verbatim

    async def regenerate_audience_images(
        self, audience_id: str, *, force: bool | None = None, limit: int | None = None, dry: bool | None = None
    ) -> ImagesRegeneration:
        body = _drop_none({"force": force, "limit": limit, "dry": dry})
        resp, info = await self._call("POST", f"/audiences/{_seg(audience_id)}/regenerate-images", json_body=body)
        return _parse(ImagesRegeneration, _data(resp, info), info)

    async def preview_formation(
        self, audience_id: str, *, user_input: str | None = None, prior: FormationHypothesis | None = None
    ) -> FormationPreview:
        """``POST …/formations/preview`` asking for one JSON document; nothing is saved."""
        text = (user_input or "").strip()[:MAX_PREVIEW_INPUT] or None
        prior_body = prior.model_dump(by_alias=True) if prior is not None else None
        body = _drop_none({"userInput": text, "priorHypothesis": prior_body})
        resp, info = await self._call(
            "POST",
            f"/audiences/{_seg(audience_id)}/formations/preview",
            json_body=body,
            headers={"Accept": "application/json"},
        )
        payload = _json(resp, info)
        if not isinstance(payload, dict) or payload.get("success") is not True:
            raise MalformedResponse("the Formation preview did not say it succeeded", request=info)  # verbatim
        return _parse(FormationPreview, payload.get("data"), info)

    async def create_formation(
        self, audience_id: str, *, hypothesis: FormationHypothesis, name: str | None = None
    ) -> FormationBuild:
        body = _drop_none({"hypothesis": hypothesis.model_dump(by_alias=True), "name": name})
        resp, info = await self._call("POST", f"/audiences/{_seg(audience_id)}/formations", json_body=body)
        return _parse(FormationBuild, _data(resp, info), info)

    async def get_formation(self, audience_id: str, formation_id: str) -> FormationDetail:
        """One Formation; a reply about another Formation is malformed (the seeds)."""
        resp, info = await self._call("GET", f"/audiences/{_seg(audience_id)}/formations/{_seg(formation_id)}")
        detail = _parse(FormationDetail, _data(resp, info), info)
        if detail.id != formation_id:
            raise MalformedResponse("the Formation read is not the one asked for", request=info)  # verbatim
        return detail

    async def recompute_formation(self, audience_id: str, formation_id: str) -> FormationBuild:
        resp, info = await self._call(
            "POST", f"/audiences/{_seg(audience_id)}/formations/{_seg(formation_id)}/recompute"
        )
        return _parse(FormationBuild, _data(resp, info), info)

    async def delete_formation(self, audience_id: str, formation_id: str) -> None:
        resp, info = await self._call("DELETE", f"/audiences/{_seg(audience_id)}/formations/{_seg(formation_id)}")
        _empty(resp, info, what="a Formation delete")  # verbatim
