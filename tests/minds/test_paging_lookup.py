"""Offset paging, malformed lists as errors, and name lookup within the newest 1,000 items."""

from __future__ import annotations

from dataclasses import dataclass

import httpx
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from minds_bot.minds import MalformedResponse, resolve
from minds_bot.render.common import lookup_explanation
from tests.fakes.minds_http import page, raw
from tests.minds.samples import STUDY_ID, audience, mind, study, study_detail, uid


def studies_pages(total: int, names: dict[int, str] | None = None):
    """A responder serving ``total`` Studies at whatever offset/limit is asked."""
    names = names or {}

    def reply(request: httpx.Request) -> httpx.Response:
        offset, limit = int(request.url.params["offset"]), int(request.url.params["limit"])
        items = [study(n, names.get(n)) for n in range(offset, min(total, offset + limit))]
        return page(items, total=total, offset=offset, limit=limit)

    return reply


async def test_iterates_every_page_in_order(api, client):
    api.on("GET", "/studies", studies_pages(250))
    names = [s.name async for s in client.iter_studies()]
    assert names == [f"Study {n}" for n in range(250)]
    assert [(s.params["offset"], s.params["limit"]) for s in api.sent] == [
        ("0", "100"),
        ("100", "100"),
        ("200", "100"),
    ]


async def test_valid_empty_list_is_empty(api, client):
    api.on("GET", "/audiences", page([], total=0, offset=0))
    assert [a async for a in client.iter_audiences()] == []


@pytest.mark.parametrize(
    "reply",
    [
        raw({"data": [study(1)]}),  # no pagination
        raw({"pagination": {"total": 1, "limit": 100, "offset": 0}}),  # no data
        raw({"data": {"id": "x"}, "pagination": {"total": 1, "limit": 100, "offset": 0}}),  # data not a list
        page([], total=5, offset=0),  # empty page while items remain
        page([study(1)], total=5, offset=3),  # a page for another offset
        page([{"id": uid(1)}], total=1, offset=0),  # an item without its required fields
        httpx.Response(200, text="<html>oops</html>"),  # not JSON
    ],
    ids=["no-pagination", "no-data", "data-object", "empty-page", "wrong-offset", "bad-item", "not-json"],
)
async def test_malformed_list_raises_instead_of_returning_empty(api, client, reply):
    api.on("GET", "/studies", reply)
    with pytest.raises(MalformedResponse):
        _ = [s async for s in client.iter_studies()]


async def test_non_advancing_second_page_raises(api, client):
    api.on(
        "GET",
        "/studies",
        page([study(n) for n in range(100)], total=150, offset=0),
        page([], total=150, offset=100),
    )
    with pytest.raises(MalformedResponse, match="empty page"):
        _ = [s async for s in client.iter_studies()]


async def test_name_lookup_scans_only_newest_thousand(api, client):
    api.on("GET", "/studies", studies_pages(5000, {4500: "Ancient study"}))
    result = await client.find_study("Ancient study")
    assert result.kind == "not_found"
    assert result.scanned == 1000 and not result.exhaustive
    assert "exact id" in lookup_explanation(result) and "1000" in lookup_explanation(result)
    assert len(api.sent) == 10


async def test_name_lookup_finds_fuzzy_match(api, client):
    api.on("GET", "/studies", studies_pages(30, {12: "Launch positioning Q3"}))
    result = await client.find_study("launch positioning")
    assert result.kind == "fuzzy" and result.match.name == "Launch positioning Q3"


async def test_lookup_by_exact_id_reads_the_item(api, client):
    api.on("GET", f"/studies/{STUDY_ID}", raw({"data": study_detail()}))
    result = await client.find_study(STUDY_ID)
    assert result.kind == "exact" and result.match.id == STUDY_ID
    assert [s.path for s in api.sent] == [f"/studies/{STUDY_ID}"]


async def test_mind_lookup_uses_server_search(api, client):
    api.on("GET", "/minds", page([mind(1, "Ana Lopez")], total=1, offset=0))
    result = await client.find_mind("ana lopez")
    assert result.kind == "exact"
    assert api.sent[0].params["search"] == "ana lopez"


async def test_audience_lookup_offers_ranked_candidates(api, client):
    items = [audience(1, "Parents UK"), audience(2, "Parents US"), audience(3, "Gamers")]
    api.on("GET", "/audiences", page(items, total=3, offset=0))
    result = await client.find_audience("parents")
    assert result.kind == "ambiguous"
    assert {c.item.name for c in result.candidates} == {"Parents UK", "Parents US"}
    assert result.exhaustive


# --- the pure resolver --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Item:
    id: str
    name: str


TABLE = [
    ("by id", "id-2", ["Alpha", "Beta"], "exact", "Beta"),
    ("case-insensitive name", "  beta ", ["Alpha", "Beta"], "exact", "Beta"),
    ("one fuzzy", "alpah", ["Alpha", "Gamma"], "fuzzy", "Alpha"),
    ("substring", "launch", ["Q3 Launch test", "Pricing"], "fuzzy", "Q3 Launch test"),
    ("same name twice", "Beta", ["Beta", "beta"], "ambiguous", None),
    ("nothing close", "zebra", ["Alpha", "Beta"], "not_found", None),
    ("empty list", "Alpha", [], "not_found", None),
]


@pytest.mark.parametrize(("label", "query", "names", "kind", "match"), TABLE, ids=[t[0] for t in TABLE])
def test_resolver_table(label, query, names, kind, match):
    items = [Item(f"id-{i + 1}", n) for i, n in enumerate(names)]
    result = resolve(query, items, exhaustive=True)
    assert result.kind == kind
    assert (result.match.name if result.match else None) == match


names = st.text(alphabet=st.characters(codec="utf-8", categories=["L", "N", "Zs"]), min_size=1, max_size=20)


@given(st.lists(names, min_size=1, max_size=15), st.data())
def test_resolver_id_always_wins(all_names, data):
    items = [Item(f"id-{i}", n) for i, n in enumerate(all_names)]
    target = data.draw(st.sampled_from(items))
    result = resolve(target.id, items, exhaustive=True)
    assert result.kind == "exact" and result.match == target


@given(st.lists(names, min_size=1, max_size=15, unique_by=lambda n: n.strip().casefold()), st.data())
def test_resolver_unique_name_in_any_case_is_exact(all_names, data):
    items = [Item(f"id-{i}", n) for i, n in enumerate(all_names)]
    target = data.draw(st.sampled_from(items))
    query = target.name.upper()
    assume(target.name.strip() and query.strip().casefold() == target.name.strip().casefold())
    result = resolve(query, items, exhaustive=True)
    assert result.kind == "exact" and result.match == target


@given(st.lists(names, max_size=15), names, st.booleans())
def test_resolver_only_returns_listed_items_best_first(all_names, query, exhaustive):
    items = [Item(f"id-{i}", n) for i, n in enumerate(all_names)]
    result = resolve(query, items, exhaustive=exhaustive)
    assert result.scanned == len(items)
    if result.match is not None:
        assert result.match in items
    scores = [c.score for c in result.candidates]
    assert scores == sorted(scores, reverse=True)
    assert all(c.item in items for c in result.candidates)
    assert (result.kind == "not_found") == (result.match is None and not result.candidates)
    assert bool(lookup_explanation(result)) == (result.kind == "not_found")
