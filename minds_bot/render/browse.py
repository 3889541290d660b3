"""Browsing lists: ``/minds studies|audiences|minds [query]`` as pages with counts and Previous/Next buttons.

Owns: one page of Studies, Audiences or Minds as blocks, the "11–20 of 134" count (Minds' ``pagination.total``,
or the number of matches among the newest items scanned for a query), Audience Mind counts, an Open button per
Study, and an honest empty state: a valid empty list is "none yet"; no match for a query explains that only the
newest 1,000 were searched. Must not touch: I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from slack_sdk.models.blocks import Block, DividerBlock

from minds_bot.minds import LookupResult, Study
from minds_bot.render import MAX_NAME_SHOWN, MAX_SECTION_TEXT, Message, escape
from minds_bot.render.common import (
    MAX_QUERY_SHOWN,
    RERUN_ACTION,
    button,
    context,
    pager,
    rerun_value,
    section,
    shorten,
)

BrowseKind = Literal["studies", "audiences", "minds"]
BROWSE_PAGE_SIZE = 10
BROWSE_PREV_ACTION = "browse_prev"
BROWSE_NEXT_ACTION = "browse_next"
NOUNS = {"studies": ("Study", "Studies"), "audiences": ("Audience", "Audiences"), "minds": ("Mind", "Minds")}
MAX_AUDIENCES_PER_STUDY_LINE = 4


@dataclass(frozen=True)
class BrowsePage:
    """One page to show. ``scanned``/``exhaustive`` are set when a query was matched locally against the newest
    items (Studies and Audiences have no server-side search)."""

    kind: BrowseKind
    items: Sequence[Any]
    offset: int
    total: int
    query: str | None = None
    scanned: int | None = None
    exhaustive: bool = True


def minds_label(count: int) -> str:
    return f"{count} Mind" if count == 1 else f"{count} Minds"


def _study_line(study: Study) -> str:
    audiences = [f"{escape(a.name, limit=MAX_NAME_SHOWN)} ({minds_label(_mind_count(a))})" for a in study.audiences]
    shown = ", ".join(audiences[:MAX_AUDIENCES_PER_STUDY_LINE])
    if len(audiences) > MAX_AUDIENCES_PER_STUDY_LINE:
        shown += f" and {len(audiences) - MAX_AUDIENCES_PER_STUDY_LINE} more"
    questions = "1 message" if study.message_count == 1 else f"{study.message_count} messages"
    return f"*{escape(study.name, limit=MAX_NAME_SHOWN)}*\n{questions} · {shown or 'no Audiences attached'}"


def _mind_count(audience: Any) -> int:
    count = getattr(audience, "mind_count", None)
    return count if count is not None else len(audience.minds)


def _row(kind: BrowseKind, item: Any) -> Block:
    if kind == "studies":
        row = section(_study_line(item))
        value = rerun_value(f"study {item.id}")
        if value is not None:
            row.accessory = button("Open", action_id=f"{RERUN_ACTION}:{item.id}", value=value)
        return row
    if kind == "audiences":
        return section(f"*{escape(item.name, limit=MAX_NAME_SHOWN)}* — {minds_label(item.mind_count)}")
    details = [d for d in (item.discipline, ", ".join(item.tags[:5]) if item.tags else None) if d]
    about = f" — {escape(' · '.join(details), limit=MAX_SECTION_TEXT // 2)}" if details else ""
    row = section(f"*{escape(item.name, limit=MAX_NAME_SHOWN)}*{about}")
    chat = rerun_value(f"chat {item.id}")
    if chat is not None:  # re-enters /minds chat <id> as the person who clicked
        row.accessory = button("Chat", action_id=f"{RERUN_ACTION}:chat:{item.id}", value=chat)
    return row


def _count_line(page: BrowsePage) -> str:
    singular, plural = NOUNS[page.kind]
    first, last = page.offset + 1, page.offset + len(page.items)
    noun = singular if page.total == 1 else plural
    if page.query is None:
        return f"{plural} {first}–{last} of {page.total}"
    where = ""
    if page.scanned is not None and not page.exhaustive:
        where = f" among the newest {page.scanned}"
    return f"{page.total} {noun} match “{escape(page.query, limit=MAX_QUERY_SHOWN)}”{where} · showing {first}–{last}"


def _empty(page: BrowsePage) -> Message:
    singular, plural = NOUNS[page.kind]
    if page.query is None:
        text = f"There are no {plural} in this Minds account yet."
        return Message(text=text, blocks=[section(text)])
    if page.scanned is not None:
        result = LookupResult(kind="not_found", query=page.query, scanned=page.scanned, exhaustive=page.exhaustive)
        text = result.explanation.replace("items", plural)
    else:
        text = f"No {singular} matches “{page.query}”."
    text = escape(text, limit=MAX_SECTION_TEXT)
    return Message(text=text, blocks=[section(text), context("An exact id always works.")])


def _state(page: BrowsePage, offset: int) -> dict[str, Any]:
    state: dict[str, Any] = {"k": page.kind, "o": offset}
    if page.query is not None:
        state["q"] = page.query
    return state


def render_browse(page: BrowsePage) -> Message:
    """One page, its count, and Previous/Next where there is more."""
    if not page.items:
        return _empty(page)
    blocks: list[Block] = [context(_count_line(page)), DividerBlock()]
    blocks += [_row(page.kind, item) for item in page.items]
    previous = _state(page, max(0, page.offset - BROWSE_PAGE_SIZE)) if page.offset > 0 else None
    more = page.offset + len(page.items) < page.total
    following = _state(page, page.offset + len(page.items)) if more else None
    blocks += pager(prev_id=BROWSE_PREV_ACTION, next_id=BROWSE_NEXT_ACTION, prev_state=previous, next_state=following)
    names = escape(", ".join(shorten(getattr(i, "name", ""), 40) for i in page.items[:5]))
    return Message(text=f"{_count_line(page)}: {names}", blocks=blocks)
