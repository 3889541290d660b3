"""Browsing Minds lists for ``/minds studies|audiences|minds [query]``.

Owns: which page to fetch — a plain page with Minds' own total; Minds' server-side search for Minds; and for
Studies and Audiences (no server search) the newest 1,000 matched by name locally, best match first, with how
many were scanned so the reply can say older items were not searched. A malformed list raises
``MalformedResponse`` (from the client) and is never shown as "nothing found".
Must not touch: Slack.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from minds_bot.minds import LOOKUP_WINDOW, MindsClient
from minds_bot.minds.lookup import FUZZY_THRESHOLD, score
from minds_bot.render.browse import BROWSE_PAGE_SIZE, BrowseKind, BrowsePage

if TYPE_CHECKING:
    from minds_bot.minds import Audience, MindSummary, Page, Study


def rank_by_name(query: str, items: Sequence[Any]) -> list[Any]:
    """Items whose name matches ``query`` well enough, best first (newest first among equals)."""
    scored = [(score(query, item.name), index, item) for index, item in enumerate(items)]
    good = [entry for entry in scored if entry[0] >= FUZZY_THRESHOLD or entry[2].id == query.strip()]
    return [item for _, _, item in sorted(good, key=lambda e: (-e[0], e[1]))]


async def browse(minds: MindsClient, *, kind: BrowseKind, query: str | None, offset: int) -> BrowsePage:
    offset = max(0, offset)
    if query is None or kind == "minds":
        return await _server_page(minds, kind=kind, query=query, offset=offset)
    listing = minds.iter_studies if kind == "studies" else minds.iter_audiences
    scanned = [item async for item in listing(max_items=LOOKUP_WINDOW)]
    matches = rank_by_name(query, scanned)
    return BrowsePage(
        kind=kind,
        items=matches[offset : offset + BROWSE_PAGE_SIZE],
        offset=offset,
        total=len(matches),
        query=query,
        scanned=len(scanned),
        exhaustive=len(scanned) < LOOKUP_WINDOW,
    )


async def _server_page(minds: MindsClient, *, kind: BrowseKind, query: str | None, offset: int) -> BrowsePage:
    page: Page[Study] | Page[Audience] | Page[MindSummary]
    if kind == "studies":
        page = await minds.studies_page(offset=offset, limit=BROWSE_PAGE_SIZE)
    elif kind == "audiences":
        page = await minds.audiences_page(offset=offset, limit=BROWSE_PAGE_SIZE)
    else:
        page = await minds.minds_page(offset=offset, limit=BROWSE_PAGE_SIZE, search=query)
    return BrowsePage(kind=kind, items=page.items, offset=offset, total=page.pagination.total, query=query)
