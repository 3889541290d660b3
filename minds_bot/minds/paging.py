"""Offset paging over Minds lists (``{data: [...], pagination: {total, limit, offset}}``).

Owns: walking pages newest first, and refusing malformed continuation (an empty or non-advancing page while
items remain, a page for another offset) — such a list raises ``MalformedResponse``, never "nothing found".
Must not touch: HTTP details (a page fetcher is passed in), Slack, the store.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from minds_bot.minds.errors import MalformedResponse, RequestInfo
from minds_bot.minds.models import Pagination

T = TypeVar("T")

PAGE_SIZE = 100
LOOKUP_WINDOW = 1000  # name lookups scan only the newest 1,000 items (10 pages of 100)


@dataclass(frozen=True)
class Page(Generic[T]):
    items: list[T]
    pagination: Pagination
    request: RequestInfo


PageFetcher = Callable[[int, int], Awaitable[Page[T]]]


async def iter_offset(
    fetch: PageFetcher[T], *, page_size: int = PAGE_SIZE, max_items: int | None = None
) -> AsyncIterator[T]:
    """Yield items across pages until ``pagination.total`` (or ``max_items``) is reached."""
    offset, yielded = 0, 0
    while max_items is None or yielded < max_items:
        page = await fetch(offset, page_size)
        check_page(page, requested_offset=offset)
        for item in page.items:
            if max_items is not None and yielded >= max_items:
                return
            yield item
            yielded += 1
        offset += len(page.items)
        if offset >= page.pagination.total:
            return


def check_page(page: Page[T], *, requested_offset: int) -> None:
    """Raise ``MalformedResponse`` for continuation data that cannot be trusted."""
    if page.pagination.offset != requested_offset:
        detail = f"asked for offset {requested_offset}, got offset {page.pagination.offset}"  # verbatim
        raise MalformedResponse(detail, request=page.request)
    if not page.items and requested_offset < page.pagination.total:
        detail = f"empty page at offset {requested_offset} of {page.pagination.total}"  # verbatim
        raise MalformedResponse(detail, request=page.request)
