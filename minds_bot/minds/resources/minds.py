"""The Minds (personas) resource: listing, searching, reading, creating, editing, retraining and deleting Minds
(``/minds``, ``/minds/{id}``, ``/minds/{id}/training``, ``/minds/{id}/retrain``) and a Mind's knowledge
(``/minds/{id}/knowledge…``).

Creating a Mind carries an ``Idempotency-Key`` (a UUID the caller chose before the first try and reuses for every
retry of the same Mind, catalogue rule 71), so it is the one write here that is repeated after a timeout; every
other write is sent once. A delete succeeds only with an empty reply; a knowledge list whose ``total`` is not its
items is malformed, never a shorter list.
Must not touch: Slack, the store.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from minds_bot.minds.errors import MalformedResponse, RequestInfo
from minds_bot.minds.lookup import LookupResult
from minds_bot.minds.models import (
    CreatedMind,
    KnowledgeEnrichment,
    KnowledgeItem,
    KnowledgeList,
    KnowledgePatterns,
    KnowledgeStatus,
    MindDetail,
    MindPattern,
    MindsDeleted,
    MindSummary,
    RegeneratedImage,
    RegeneratedPrompt,
    TrainingStatus,
)
from minds_bot.minds.paging import LOOKUP_WINDOW, Page
from minds_bot.minds.transport import Transport, _data, _drop_none, _json, _parse, _seg, _uuid

MIND_MODES = ("keywords", "clone", "link", "manual")
MAX_DELETE_MANY = 100  # mindIds per DELETE /minds (catalogue §2 I)
MAX_PERSONA_CONTEXT = 16_000  # a portrait's personaContext, after trimming
MAX_ENRICH_KEYWORDS = 15  # Minds drops the rest silently; the bot refuses them instead
MIND_TYPES = ("creative", "expert", "user")


class MindsApi(Transport):
    """``/minds`` and ``/minds/{id}…``."""

    def iter_minds(self, *, search: str | None = None, max_items: int | None = None) -> AsyncIterator[MindSummary]:
        return self._iter("/minds", MindSummary, params=_drop_none({"search": search}), max_items=max_items)

    async def minds_page(self, *, offset: int = 0, limit: int = 20, search: str | None = None) -> Page[MindSummary]:
        """One page of Minds (server-side ``search`` when given), with ``pagination.total``."""
        params = _drop_none({"search": search})
        return await self._one_page("/minds", MindSummary, offset=offset, limit=limit, params=params)

    async def find_mind(self, query: str) -> LookupResult[MindSummary]:
        """Minds support server-side ``search``; the same 1,000-item window applies."""
        items = self._iter("/minds", MindSummary, params={"search": query.strip()}, max_items=LOOKUP_WINDOW)
        return await self._find(query, items)

    async def get_mind(self, mind_id: str) -> MindDetail:
        """Who the Mind is and ``ready_to_chat`` (a Mind still training answers 409 ``SPARK_NOT_READY``)."""
        return await self._get_data(f"/minds/{_seg(mind_id)}", MindDetail)

    async def create_mind(
        self,
        *,
        name: str,
        discipline: str,
        mode: str,
        idempotency_key: str,
        description: str | None = None,
        mind_type: str | None = None,
        keywords: list[str] | None = None,
        persona_context: str | None = None,
        context_link: str | None = None,
        include_web_search: bool | None = None,
    ) -> CreatedMind:
        """``POST /minds`` (201): the Mind and its first training block. ``idempotency_key``: a UUID chosen before
        the first try and reused with the same inputs for every retry (a fresh one for another Mind)."""
        if mode not in MIND_MODES:
            raise ValueError(f"a Mind's mode is one of {', '.join(MIND_MODES)}")
        body = _drop_none(
            {
                "name": name,
                "discipline": discipline,
                "mode": mode,
                "description": description,
                "type": mind_type,
                "keywords": keywords,
                "personaContext": persona_context,
                "contextLink": context_link,
                "includeWebSearch": include_web_search,
            }
        )
        headers = {"Idempotency-Key": _uuid(idempotency_key)}
        resp, info = await self._call("POST", "/minds", json_body=body, headers=headers, retryable=True)
        return _parse(CreatedMind, _json(resp, info), info)

    async def mind_training(self, mind_id: str) -> TrainingStatus:
        """``GET /minds/{id}/training``: queued, running, completed or failed, and ``ready_to_chat``."""
        resp, info = await self._call("GET", f"/minds/{_seg(mind_id)}/training")
        return _parse(TrainingStatus, _json(resp, info), info)

    async def update_mind(
        self,
        mind_id: str,
        *,
        name: str | None = None,
        description: str | None = None,
        discipline: str | None = None,
    ) -> MindSummary:
        """``PUT /minds/{id}`` with only the fields to change (at least one); the reply is the Mind as saved."""
        body = _drop_none({"name": name, "description": description, "discipline": discipline})
        if not body:
            raise ValueError("an update changes at least one field")
        resp, info = await self._call("PUT", f"/minds/{_seg(mind_id)}", json_body=body)
        return _parse(MindSummary, _data(resp, info), info)

    async def delete_mind(self, mind_id: str) -> None:
        """``DELETE /minds/{id}``: the Mind, its knowledge, patterns and chats, for good. Success is an empty
        reply; anything else is no proof of a delete."""
        resp, info = await self._call("DELETE", f"/minds/{_seg(mind_id)}")
        _empty(resp.status_code, resp.content, info, what="a Mind delete")  # verbatim

    async def retrain_mind(self, mind_id: str) -> TrainingStatus:
        """``POST /minds/{id}/retrain``: queues training again with a full rebuild of its knowledge index (409
        while it is still queued or running). Sent once: it has no idempotency key."""
        resp, info = await self._call("POST", f"/minds/{_seg(mind_id)}/retrain")
        return _parse(TrainingStatus, _json(resp, info), info)

    async def regenerate_mind_prompt(self, mind_id: str) -> RegeneratedPrompt:
        """``POST /minds/{id}/regenerate-prompt``: rebuild the system prompt from the Mind's knowledge (replacing
        manual edits), synchronously; a Mind without a prompt is never ready. Sent once: it has no key."""
        resp, info = await self._call("POST", f"/minds/{_seg(mind_id)}/regenerate-prompt", json_body={})
        return _parse(RegeneratedPrompt, _data(resp, info), info)

    async def delete_minds(self, mind_ids: list[str]) -> MindsDeleted:
        """``DELETE /minds`` with ``{mindIds}`` (1–100, each once): Minds deletes each it owns and reports each
        outcome on its own. A reply without an outcome for every Mind asked for is no proof of anything. Sent
        once."""
        wanted = list(dict.fromkeys(mind_ids))
        if not 1 <= len(wanted) <= MAX_DELETE_MANY:
            raise ValueError(f"delete 1 to {MAX_DELETE_MANY} Minds at a time")
        resp, info = await self._call("DELETE", "/minds", json_body={"mindIds": [_seg(m) for m in wanted]})
        deleted = _parse(MindsDeleted, _data(resp, info), info)
        if sorted(r.mind_id for r in deleted.results) != sorted(wanted):
            raise MalformedResponse("the batch delete did not report every Mind asked for", request=info)  # verbatim
        return deleted

    async def regenerate_mind_image(
        self, mind_id: str, *, force: bool = False, persona_context: str | None = None
    ) -> RegeneratedImage:
        """``POST /minds/{id}/regenerate-image``: queue a new portrait; a Mind that has one is skipped (with the
        reason) unless ``force``. ``persona_context`` (1–16,000 characters after trimming) steers the picture
        without changing the prompt. Sent once."""
        context = (persona_context or "").strip() or None
        if context is not None and len(context) > MAX_PERSONA_CONTEXT:
            raise ValueError(f"a portrait's persona context is at most {MAX_PERSONA_CONTEXT} characters")
        body = _drop_none({"force": force or None, "personaContext": context})
        resp, info = await self._call("POST", f"/minds/{_seg(mind_id)}/regenerate-image", json_body=body)
        return _parse(RegeneratedImage, _data(resp, info), info)

    async def regenerate_mind_embeddings(self, mind_id: str) -> None:
        """``POST /minds/{id}/regenerate-embeddings`` (202): queue a rebuild of every knowledge item's vectors.
        Only a 202 is an acceptance; it says nothing about when the rebuild ends. Sent once."""
        resp, info = await self._call("POST", f"/minds/{_seg(mind_id)}/regenerate-embeddings")
        if resp.status_code != 202:
            raise MalformedResponse("the embeddings rebuild was not accepted with 202", request=info)  # verbatim

    async def mind_patterns(self, mind_id: str) -> list[MindPattern]:
        """``GET /minds/{id}/patterns``: the raw pattern rows, newest first (a reply without a ``data`` list is
        malformed, never "no patterns")."""
        resp, info = await self._call("GET", f"/minds/{_seg(mind_id)}/patterns")
        rows = _data(resp, info)
        if not isinstance(rows, list):
            raise MalformedResponse("the pattern list is not a list", request=info)  # verbatim
        return [_parse(MindPattern, row, info) for row in rows]

    async def list_mind_knowledge(self, mind_id: str) -> KnowledgeList:
        """``GET /minds/{id}/knowledge``: every item, newest first, in one reply."""
        resp, info = await self._call("GET", f"/minds/{_seg(mind_id)}/knowledge")
        listed = _parse(KnowledgeList, _data(resp, info), info)
        if listed.total != len(listed.items):
            raise MalformedResponse("the knowledge list's total is not its number of items", request=info)  # verbatim
        return listed

    async def add_mind_knowledge(
        self,
        mind_id: str,
        *,
        description: str,
        link: str | None = None,
        file: dict[str, Any] | None = None,
    ) -> KnowledgeItem:
        """``POST /minds/{id}/knowledge`` (202): a link, or a file as ``{name, url, type?}`` whose URL Minds can
        fetch (no base64). Ingestion is queued; the item's ``processing`` says how far it got."""
        if (link is None) == (file is None):
            raise ValueError("add one link or one file")
        body = _drop_none({"description": description, "link": link, "file": file})
        resp, info = await self._call("POST", f"/minds/{_seg(mind_id)}/knowledge", json_body=body)
        return _parse(KnowledgeItem, _data(resp, info), info)

    async def mind_knowledge_status(self, mind_id: str, item_id: str) -> KnowledgeStatus:
        resp, info = await self._call("GET", f"/minds/{_seg(mind_id)}/knowledge/{_seg(item_id)}/status")
        return _parse(KnowledgeStatus, _data(resp, info), info)

    async def update_mind_knowledge(self, mind_id: str, item_id: str, *, description: str) -> KnowledgeItem:
        """``PUT /minds/{id}/knowledge/{itemId}``: a new description (the one field Minds updates; trimmed, not
        empty). Ingestion is not run again."""
        said = description.strip()
        if not said:
            raise ValueError("a knowledge item's description must not be empty")
        path = f"/minds/{_seg(mind_id)}/knowledge/{_seg(item_id)}"
        resp, info = await self._call("PUT", path, json_body={"description": said})
        return _parse(KnowledgeItem, _data(resp, info), info)

    async def enrich_mind_knowledge(
        self, mind_id: str, *, keywords: list[str], regenerate_prompt: bool = True
    ) -> KnowledgeEnrichment:
        """``POST /minds/{id}/knowledge/enrich`` (202): Minds searches the web for ``keywords`` (1–15) in the
        background and adds what it finds; the reply names the keywords it queued. Sent once."""
        wanted = [k.strip() for k in keywords if k.strip()]
        if not 1 <= len(wanted) <= MAX_ENRICH_KEYWORDS:
            raise ValueError(f"enrich with 1 to {MAX_ENRICH_KEYWORDS} keywords")
        body = {"keywords": wanted, "regeneratePrompt": regenerate_prompt}
        resp, info = await self._call("POST", f"/minds/{_seg(mind_id)}/knowledge/enrich", json_body=body)
        return _parse(KnowledgeEnrichment, _data(resp, info), info)

    async def mind_knowledge_patterns(self, mind_id: str) -> KnowledgePatterns:
        """``GET /minds/{id}/knowledge/patterns``: the thinking patterns grouped by framework."""
        resp, info = await self._call("GET", f"/minds/{_seg(mind_id)}/knowledge/patterns")
        return _parse(KnowledgePatterns, _data(resp, info), info)

    async def delete_mind_knowledge(self, mind_id: str, item_id: str) -> None:
        """``DELETE /minds/{id}/knowledge/{itemId}``: success is an empty reply."""
        resp, info = await self._call("DELETE", f"/minds/{_seg(mind_id)}/knowledge/{_seg(item_id)}")
        _empty(resp.status_code, resp.content, info, what="a knowledge delete")  # verbatim


def _empty(status: int, content: bytes, info: RequestInfo, *, what: str) -> None:
    if status != 204 and content.strip():
        raise MalformedResponse(f"{what} answered with a body instead of an empty reply", request=info)  # verbatim
