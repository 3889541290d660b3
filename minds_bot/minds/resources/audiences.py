"""The Audiences resource: listing, finding, duplicating and building Audiences from a brief (and its job),
their size limits, build progress, Formations, recalibration and source imports (``/audiences…``).

Must not touch: Slack, the store.
"""

from __future__ import annotations

import hashlib
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any, Literal

from minds_bot.minds.errors import AudienceJobFailed, MalformedResponse, RequestInfo
from minds_bot.minds.lookup import LookupResult
from minds_bot.minds.models import (
    Audience,
    AudienceDetail,
    AudienceDuplicate,
    AudienceLimits,
    AudienceProgress,
    Formation,
    FromBriefJob,
    FromBriefResult,
    GroundingDistribution,
    ImportedSource,
    Recalibration,
    SourceImport,
)
from minds_bot.minds.paging import LOOKUP_WINDOW, Page
from minds_bot.minds.transport import (
    DEFAULT_AUDIENCE_WAIT,
    Transport,
    _data,
    _data_of,
    _DataList,
    _drop_none,
    _get,
    _json,
    _key,
    _parse,
    _seg,
)

CreationMode = Literal["balanced", "segment_coverage", "benchmark_depth"]


class AudiencesApi(Transport):
    """``/audiences…``."""

    def iter_audiences(self, *, max_items: int | None = None) -> AsyncIterator[Audience]:
        return self._iter("/audiences", Audience, max_items=max_items)

    async def audiences_page(self, *, offset: int = 0, limit: int = 20) -> Page[Audience]:
        """One page of Audiences, newest first, with ``pagination.total``."""
        return await self._one_page("/audiences", Audience, offset=offset, limit=limit)

    async def get_audience(self, audience_id: str) -> AudienceDetail:
        return await self._get_data(f"/audiences/{_seg(audience_id)}", AudienceDetail)

    async def find_audience(self, query: str) -> LookupResult[Audience | AudienceDetail]:
        return await self._find(query, self._iter("/audiences", Audience, max_items=LOOKUP_WINDOW), self.get_audience)

    async def audience_limits(self) -> AudienceLimits:
        return await self._get_data("/audiences/limits", AudienceLimits)

    async def duplicate_audience(
        self, audience_id: str, *, idempotency_key: str, name: str | None = None
    ) -> AudienceDuplicate:
        resp, info = await self._call(
            "POST",
            f"/audiences/{_seg(audience_id)}/duplicate",
            json_body=_drop_none({"name": name}),
            headers={"Idempotency-Key": _key(idempotency_key)},
            retryable=True,
        )
        payload = _json(resp, info)
        data = _data_of(payload, info)
        url = _get(payload, "audienceUrl") or _get(data, "audienceUrl")
        wrapped = {"audience": data, "replayed": resp.status_code == 200, "audienceUrl": url}
        return _parse(AudienceDuplicate, wrapped, info)

    async def create_audience_from_brief(
        self,
        *,
        text: str,
        idempotency_key: str,
        name: str | None = None,
        member_count: int | None = None,
        files: Sequence[ImportedSource] | None = None,
        links: Sequence[str] | None = None,
        keywords: Sequence[str] | None = None,
        include_web_search: bool | None = None,
        creation_mode: CreationMode | None = None,
        dataset_segmentation: Mapping[str, Any] | None = None,
        link_sharing: bool | None = None,
    ) -> FromBriefJob | FromBriefResult:
        """``POST /audiences/from-brief``: usually a 202 job to poll; a replay may return the Audience.
        ``files``: sources from ``import_audience_sources``, passed on exactly as Minds returned them;
        ``dataset_segmentation``: a reviewed ``SegmentationPreview.reviewed()``, unchanged; ``link_sharing`` only
        on an explicit request for a public link (CATALOGUE §2 D.33). Options left None are not sent, so Minds
        sizes and grounds the Audience itself."""
        sources = [{"name": f.name, "url": f.url} for f in files] if files else None
        body = _drop_none(
            {
                "text": text,
                "name": name,
                "memberCount": member_count,
                "files": sources,
                "links": list(links) if links else None,
                "keywords": list(keywords) if keywords else None,
                "includeWebSearch": include_web_search,
                "audienceCreationMode": creation_mode,
                "datasetSegmentation": dict(dataset_segmentation) if dataset_segmentation else None,
                "isLinkSharingEnabled": link_sharing,
            }
        )
        resp, info = await self._call(
            "POST",
            "/audiences/from-brief",
            json_body=body,
            headers={"Idempotency-Key": _key(idempotency_key)},
            retryable=True,
        )
        data = _data(resp, info)
        if resp.status_code == 202:
            return _parse(FromBriefJob, data, info)
        return _parse(FromBriefResult, data, info)

    async def get_audience_job(self, job_id: str) -> FromBriefJob:
        """One poll of a from-brief job; ``failed`` raises ``AudienceJobFailed``."""
        resp, info = await self._call("GET", f"/audiences/from-brief/jobs/{_seg(job_id)}")
        job = _parse(FromBriefJob, _data(resp, info), info)
        if job.status == "failed":
            raise AudienceJobFailed(job_id=job.job_id, error=job.error, request=info)
        return job

    async def wait_audience_job(self, job_id: str, *, wait_seconds: float = DEFAULT_AUDIENCE_WAIT) -> FromBriefJob:
        """Poll until completed; at the deadline return the last (unfinished) state — never resubmit."""
        deadline = self._clock() + wait_seconds
        job = await self.get_audience_job(job_id)
        attempt = 0
        while job.status != "completed":
            attempt += 1
            if not await self._pause(attempt, deadline):
                return job
            job = await self.get_audience_job(job_id)
        return job

    async def audience_progress(self, audience_id: str) -> AudienceProgress:
        """``GET /audiences/{id}/progress``: members still being built or retrained."""
        return await self._get_data(f"/audiences/{_seg(audience_id)}/progress", AudienceProgress)

    async def list_formations(self, audience_id: str) -> list[Formation]:
        """Every visible Formation. The first page is the server's default (max 100); further pages follow
        ``pagination.nextOffset`` while ``hasMore`` (seeds), and a continuation that does not advance or
        returns nothing is an error — never presented as the complete list."""
        path = f"/audiences/{_seg(audience_id)}/formations"
        formations: list[Formation] = []
        params: dict[str, int] | None = None
        for _page in range(MAX_FORMATION_PAGES):
            resp, info = await self._call("GET", path, params=params)
            payload = _json(resp, info)
            page = _parse(_DataList[Formation], payload, info).data
            formations += page
            next_offset = _next_offset(_get(payload, "pagination"), seen=len(formations), info=info)
            if next_offset is None:
                return formations
            if not page:
                detail = "a Formations page was empty while more were promised"  # verbatim
                raise MalformedResponse(detail, request=info)
            params = {"limit": FORMATION_PAGE, "offset": next_offset}
        raise MalformedResponse("too many Formation pages", request=RequestInfo(method="GET", path=path))  # verbatim

    async def recalibrate_audience(
        self,
        audience_id: str,
        *,
        instruction: str | None = None,
        allow_shared_minds: bool | None = None,
        query: str | None = None,
        requested_distribution: str | None = None,
        links: Sequence[str] = (),
        keywords: Sequence[str] = (),
        distributions: Sequence[GroundingDistribution] | None = None,
    ) -> Recalibration:
        """``POST /audiences/{id}/recalibrate`` (owner only; synchronous for the grounding, retraining goes on
        in the background) in research mode: an ``instruction`` on top of the brief, or a ``query`` replacing it;
        one ``requested_distribution`` to add; extra ``links``/``keywords`` as sources. Or in selection mode:
        ``distributions`` (even empty) is the complete active set, entries of the Audience's review universe sent
        exactly as Minds gave them; research fields are not sent with it. No idempotency key exists for it, so it
        is never retried."""
        if distributions is not None and (instruction or query or requested_distribution or links or keywords):
            raise ValueError("selection mode (distributions) takes no research-mode fields")
        sources = _drop_none({"links": list(links) or None, "keywords": list(keywords) or None}) or None
        body = _drop_none(
            {
                "instruction": instruction,
                "query": query,
                "requestedDistribution": requested_distribution,
                "sources": sources,
                "distributions": None if distributions is None else [d.wire for d in distributions],
                "allowSharedMinds": allow_shared_minds,
            }
        )
        resp, info = await self._call(
            "POST", f"/audiences/{_seg(audience_id)}/recalibrate", json_body=body, retryable=False
        )
        return _parse(Recalibration, _data(resp, info), info)

    async def import_audience_sources(self, files: Sequence[tuple[str, str]]) -> SourceImport:
        """``POST /audiences/source-import`` with ``(name, UTF-8 text)`` pairs. Retried like a keyed call: the
        uploads are content-addressed, so repeating the same import is safe (seeds). Success is reported only
        after the reply lists the same files in the same order with matching SHA-256 checksums."""
        body = {"files": [{"name": name, "content": content} for name, content in files]}
        resp, info = await self._call("POST", "/audiences/source-import", json_body=body, retryable=True)
        imported = _parse(SourceImport, _data(resp, info), info)
        _verify_import(files, imported, info)
        return imported


MAX_FORMATION_PAGES = 10
FORMATION_PAGE = 100


def _verify_import(sent: Sequence[tuple[str, str]], imported: SourceImport, info: RequestInfo) -> None:
    if [name for name, _content in sent] != [f.name for f in imported.files]:
        detail = "the import lists other files, or in another order, than were sent"  # verbatim
        raise MalformedResponse(detail, request=info)
    for (name, content), item in zip(sent, imported.files, strict=True):
        if hashlib.sha256(content.encode()).hexdigest() != item.sha256.lower():
            raise MalformedResponse(f"the checksum of {name} does not match what was sent", request=info)  # verbatim
    if imported.snapshot is not None and imported.snapshot_sha256 is None:
        raise MalformedResponse("a grounding snapshot came without its checksum", request=info)  # verbatim


def _next_offset(pagination: Any, *, seen: int, info: RequestInfo) -> int | None:
    """The next Formation offset, or None at the end. ``hasMore`` without a forward ``nextOffset`` is an error."""
    if pagination is None:
        return None
    if not isinstance(pagination, dict) or not isinstance(pagination.get("hasMore", False), bool):
        raise MalformedResponse("malformed Formation pagination", request=info)  # verbatim
    if not pagination.get("hasMore"):
        return None
    offset = pagination.get("nextOffset")
    if not isinstance(offset, int) or offset < seen:
        raise MalformedResponse("Formation pagination does not advance", request=info)  # verbatim
    return offset
