"""The Minds (personas) resource: listing, searching and reading Minds (``/minds``, ``/minds/{id}``).

Must not touch: Slack, the store.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from minds_bot.minds.lookup import LookupResult
from minds_bot.minds.models import MindDetail, MindSummary
from minds_bot.minds.paging import LOOKUP_WINDOW, Page
from minds_bot.minds.transport import Transport, _drop_none, _seg


class MindsApi(Transport):
    """``/minds`` and ``/minds/{id}``."""

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
