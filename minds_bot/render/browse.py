"""Browsing lists: ``/minds studies|audiences|minds [query]`` as pages with counts and Previous/Next buttons.

Owns: one page of Studies, Audiences or Minds as blocks, the "11–20 of 134" count (Minds' ``pagination.total``,
or the number of matches among the newest items scanned for a query), Audience Mind counts, an Open button per
Study, **New Audience from these Minds** and **Delete several…** under a page of Minds, and an honest empty
state: a valid empty list is "none yet"; no match for a query explains that only the newest 1,000 were searched.
Must not touch: I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from slack_sdk.models.blocks import ActionsBlock, Block, DividerBlock

from minds_bot.i18n import N_, _, _n, annotate, format_number, join_list, separated
from minds_bot.minds import Study
from minds_bot.render import MAX_NAME_SHOWN, MAX_SECTION_TEXT, Message, escape
from minds_bot.render.common import (
    MAX_QUERY_SHOWN,
    RERUN_ACTION,
    button,
    context,
    encode_value,
    pager,
    rerun_value,
    section,
    shorten,
)

BrowseKind = Literal["studies", "audiences", "minds"]
BROWSE_PAGE_SIZE = 10
BROWSE_PREV_ACTION = "browse_prev"
BROWSE_NEXT_ACTION = "browse_next"
BROWSE_KINDS: tuple[BrowseKind, ...] = ("studies", "audiences", "minds")
COUNT_LINES = {
    "studies": N_("Studies {first}–{last} of {total}"),
    "audiences": N_("Audiences {first}–{last} of {total}"),
    "minds": N_("Minds {first}–{last} of {total}"),
}
NONE_YET = {
    "studies": N_("There are no Studies in this Minds account yet."),
    "audiences": N_("There are no Audiences in this Minds account yet."),
    "minds": N_("There are no Minds in this Minds account yet."),
}
NOTHING_AMONG_ALL = {
    "studies": N_("Nothing named “{query}” among all {scanned} Studies."),
    "audiences": N_("Nothing named “{query}” among all {scanned} Audiences."),
    "minds": N_("Nothing named “{query}” among all {scanned} Minds."),
}
NOTHING_AMONG_NEWEST = {
    "studies": N_(
        "Nothing named “{query}” among the newest {scanned} Studies. Older Studies can only be opened by their "
        "exact id."
    ),
    "audiences": N_(
        "Nothing named “{query}” among the newest {scanned} Audiences. Older Audiences can only be opened by their "
        "exact id."
    ),
    "minds": N_(
        "Nothing named “{query}” among the newest {scanned} Minds. Older Minds can only be opened by their exact id."
    ),
}
NO_MATCH = {
    "studies": N_("No Study matches “{query}”."),
    "audiences": N_("No Audience matches “{query}”."),
    "minds": N_("No Mind matches “{query}”."),
}
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
    return _n("{count} Mind", "{count} Minds", count)


def _study_line(study: Study) -> str:
    audiences = [annotate(escape(a.name, limit=MAX_NAME_SHOWN), minds_label(_mind_count(a))) for a in study.audiences]
    shown = join_list(audiences[:MAX_AUDIENCES_PER_STUDY_LINE])
    if len(audiences) > MAX_AUDIENCES_PER_STUDY_LINE:
        more = len(audiences) - MAX_AUDIENCES_PER_STUDY_LINE
        shown = _n("{names} and {count} more", "{names} and {count} more", more, names=shown)
    questions = (
        _n("{count} question asked", "{count} questions asked", study.question_count)
        if study.question_count is not None
        # i18n: Minds counts a Study's messages: the questions asked and Minds' answers together.
        else _n(
            "{count} message (questions and answers)", "{count} messages (questions and answers)", study.message_count
        )
    )
    attached = shown or _("no Audiences attached")
    return f"*{escape(study.name, limit=MAX_NAME_SHOWN)}*\n{separated([questions, attached])}"


def _mind_count(audience: Any) -> int:
    count = getattr(audience, "mind_count", None)
    return count if count is not None else len(audience.minds)


def _row(kind: BrowseKind, item: Any) -> Block:
    if kind == "studies":
        row = section(_study_line(item))
        value = rerun_value(f"study {item.id}")
        if value is not None:
            row.accessory = button(_("Open"), action_id=f"{RERUN_ACTION}:{item.id}", value=value)
        return row
    if kind == "audiences":
        return section(f"*{escape(item.name, limit=MAX_NAME_SHOWN)}* — {minds_label(item.mind_count)}")
    details = [d for d in (item.discipline, join_list(item.tags[:5]) if item.tags else None) if d]
    about = f" — {escape(separated(details), limit=MAX_SECTION_TEXT // 2)}" if details else ""
    row = section(f"*{escape(item.name, limit=MAX_NAME_SHOWN)}*{about}")
    chat = rerun_value(f"chat {item.id}")
    if chat is not None:  # re-enters /minds chat <id> as the person who clicked
        row.accessory = button(_("Chat"), action_id=f"{RERUN_ACTION}:chat:{item.id}", value=chat)
    return row


def _count_line(page: BrowsePage) -> str:
    first, last = format_number(page.offset + 1), format_number(page.offset + len(page.items))
    if page.query is None:
        return _(COUNT_LINES[page.kind], first=first, last=last, total=format_number(page.total))
    query = escape(page.query, limit=MAX_QUERY_SHOWN)
    if page.scanned is not None and not page.exhaustive:
        scanned = format_number(page.scanned)
        return _newest_matches(page.kind, page.total, query=query, scanned=scanned, first=first, last=last)
    return _matches(page.kind, page.total, query=query, first=first, last=last)


def _matches(kind: BrowseKind, total: int, **values: object) -> str:
    """How many items match a query (the whole list was searched), and which of them this page shows."""
    if kind == "studies":
        return _n(
            "{count} Study match “{query}” · showing {first}–{last}",
            "{count} Studies match “{query}” · showing {first}–{last}",
            total,
            **values,
        )
    if kind == "audiences":
        return _n(
            "{count} Audience match “{query}” · showing {first}–{last}",
            "{count} Audiences match “{query}” · showing {first}–{last}",
            total,
            **values,
        )
    return _n(
        "{count} Mind match “{query}” · showing {first}–{last}",
        "{count} Minds match “{query}” · showing {first}–{last}",
        total,
        **values,
    )


def _newest_matches(kind: BrowseKind, total: int, **values: object) -> str:
    """How many of the newest ``scanned`` items match a query, and which of them this page shows."""
    if kind == "studies":
        return _n(
            "{count} Study match “{query}” among the newest {scanned} · showing {first}–{last}",
            "{count} Studies match “{query}” among the newest {scanned} · showing {first}–{last}",
            total,
            **values,
        )
    if kind == "audiences":
        return _n(
            "{count} Audience match “{query}” among the newest {scanned} · showing {first}–{last}",
            "{count} Audiences match “{query}” among the newest {scanned} · showing {first}–{last}",
            total,
            **values,
        )
    return _n(
        "{count} Mind match “{query}” among the newest {scanned} · showing {first}–{last}",
        "{count} Minds match “{query}” among the newest {scanned} · showing {first}–{last}",
        total,
        **values,
    )


def _empty(page: BrowsePage) -> Message:
    if page.query is None:
        text = _(NONE_YET[page.kind])
        return Message(text=text, blocks=[section(text)])
    if page.scanned is not None:
        among = NOTHING_AMONG_ALL if page.exhaustive else NOTHING_AMONG_NEWEST
        text = _(among[page.kind], query=page.query, scanned=format_number(page.scanned))
    else:
        text = _(NO_MATCH[page.kind], query=page.query)
    text = escape(text, limit=MAX_SECTION_TEXT)
    return Message(text=text, blocks=[section(text), context(_("An exact id always works."))])


def _state(page: BrowsePage, offset: int) -> dict[str, Any]:
    state: dict[str, Any] = {"k": page.kind, "o": offset}
    if page.query is not None:
        state["q"] = page.query
    return state


FROM_MINDS_ACTION = "audience_from_minds"  # opens the New Audience dialog (slack/audience_new.py)
DELETE_MANY_ACTION = "minds_delete_many"  # opens the pick of Minds to delete (slack/minds_delete.py)


def _from_these_minds(items: Sequence[Any]) -> list[Block]:
    """**New Audience from these Minds**: the page's Minds, chosen in the dialog it opens (names shortened until
    the button's value fits; left out when even ids alone would not)."""
    for limit in (60, 20, 0):
        value = encode_value({"m": [[m.id, shorten(m.name, limit) if limit else ""] for m in items]})
        if value is not None:
            label = _("New Audience from these Minds")
            several = button(_("Delete several…"), action_id=DELETE_MANY_ACTION, value=value, style="danger")
            return [ActionsBlock(elements=[button(label, action_id=FROM_MINDS_ACTION, value=value), several])]
    return []


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
    if page.kind == "minds":
        blocks += _from_these_minds(page.items)
    names = escape(join_list(shorten(getattr(i, "name", ""), 40) for i in page.items[:5]))
    return Message(text=_("{label}: {text}", label=_count_line(page), text=names), blocks=blocks)
