"""Paging over Minds lists: offset lists (``{data: [...], pagination: {total, limit, offset}}``) and cursor lists
(a Study's runs: ``{data: [...], pagination: {hasMore, nextCursor}}``, continued with ``before=nextCursor``).

Owns: walking pages newest first to the end or to a stated bound (``walk_cursor`` says whether it reached the end,
so a reader can say "the newest 1,000" instead of stopping silently), and refusing malformed continuation (an
empty or non-advancing page while items remain, a page for another offset, ``hasMore`` without a cursor, a cursor
seen before) — such a list raises ``MalformedResponse``, never "nothing found" or a shorter list.
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
MAX_CURSOR_PAGES = 10  # a Study's runs are read to the end, at most 10 pages of 100: the newest 1,000


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


@dataclass(frozen=True)
class CursorPage(Generic[T]):
    """One page of a cursor list: ``has_more`` and ``next_cursor`` as Minds sent them (``pagination`` absent:
    Minds' one and only page)."""

    items: list[T]
    has_more: bool
    next_cursor: str | None
    request: RequestInfo


@dataclass(frozen=True)
class Walked(Generic[T]):
    """Every item read, newest first. ``complete`` False: the page bound was reached while Minds had more (the
    items are then the newest ``len(items)``, and a reader must say so)."""

    items: list[T]
    complete: bool


CursorFetcher = Callable[[str | None], Awaitable[CursorPage[T]]]


async def walk_cursor(fetch: CursorFetcher[T], *, max_pages: int = MAX_CURSOR_PAGES) -> Walked[T]:
    """Follow ``nextCursor`` while ``hasMore``, at most ``max_pages`` pages."""
    cursor: str | None = None
    seen: set[str] = set()
    items: list[T] = []
    for _ in range(max_pages):
        page = await fetch(cursor)
        items += page.items
        if not page.has_more:
            return Walked(items=items, complete=True)
        cursor = check_cursor(page, seen=seen)
    return Walked(items=items, complete=False)


def check_cursor(page: CursorPage[T], *, seen: set[str]) -> str:
    """The cursor to continue with after a page that says ``hasMore``; ``MalformedResponse`` when it cannot be
    trusted (missing, repeated, or after an empty page). ``seen`` collects the cursors followed."""
    if not page.next_cursor:
        raise MalformedResponse("hasMore without a nextCursor", request=page.request)  # verbatim
    if not page.items:
        raise MalformedResponse("an empty page that says hasMore", request=page.request)  # verbatim
    if page.next_cursor in seen:
        raise MalformedResponse(f"the cursor {page.next_cursor!r} does not advance", request=page.request)  # verbatim
    seen.add(page.next_cursor)
    return page.next_cursor
