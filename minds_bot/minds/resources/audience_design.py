"""Designing an Audience's sample: an Audience from chosen Minds (``POST /audiences``) and a respondent dataset's
segmentation preview (``POST /audiences/from-brief/segmentation-preview``). Building from a brief with its options
is ``AudiencesApi.create_audience_from_brief``.

Owns: those two requests. ``create_audience`` carries the ``x-minds-idempotency-key`` header (chosen before the
first request, reused on every retry, so a timeout never makes a second Audience); public link sharing is sent only
when the caller says so (``link_sharing``: an explicit request, CATALOGUE §2 D.33). The preview creates nothing and
is read-only, so it is retried like a GET; its reply is reconciled by the model (``SegmentationPreview``).
Must not touch: Slack, the store.
"""

from __future__ import annotations

from collections.abc import Sequence

from minds_bot.minds.models import AudienceCreated, SegmentationPreview
from minds_bot.minds.transport import Transport, _data, _drop_none, _parse

CREATE_KEY_MAX = 128  # POST /audiences ignores longer keys (OpenAPI), so none is sent longer


class AudienceDesignApi(Transport):
    """``POST /audiences`` and ``POST /audiences/from-brief/segmentation-preview``."""

    async def create_audience(
        self, *, name: str, mind_ids: Sequence[str], idempotency_key: str, link_sharing: bool | None = None
    ) -> AudienceCreated:
        """A saved Audience of existing Minds (deduplicated, in order). 201 new, 200 a replay of the key."""
        key = idempotency_key.strip()
        if not key or len(key) > CREATE_KEY_MAX:
            raise ValueError("an Audience's idempotency key is 1 to 128 characters")
        body = _drop_none(
            {"name": name, "mindIds": list(dict.fromkeys(mind_ids)), "isLinkSharingEnabled": link_sharing}
        )
        resp, info = await self._call(
            "POST", "/audiences", json_body=body, headers={"x-minds-idempotency-key": key}, retryable=True
        )
        created = _parse(AudienceCreated, _data(resp, info), info)
        return created.model_copy(update={"replayed": resp.status_code == 200})

    async def preview_dataset_segmentation(
        self, *, name: str, url: str, columns: Sequence[str] | None = None
    ) -> SegmentationPreview:
        """How Minds would segment a CSV, XLS or XLSX respondent dataset at ``url`` (public, signed or a Minds
        workspace upload). ``columns``: reviewed column keys of an earlier preview."""
        body = _drop_none({"file": {"name": name, "url": url}, "segmentationColumns": list(columns or []) or None})
        resp, info = await self._call(
            "POST", "/audiences/from-brief/segmentation-preview", json_body=body, retryable=True
        )
        return _parse(SegmentationPreview, _data(resp, info), info)
