"""Issue 34 row 10 (catalogue rule 16): a Study's runs are read newest first to the end, ``before = nextCursor``
while ``hasMore``, with ``limit`` 100, at most ten pages (then ``complete`` is False, never a silent stop);
continuation Minds cannot stand behind (``hasMore`` without a cursor, an empty page that says ``hasMore``, a
cursor that does not advance) is ``MalformedResponse``, never a shorter list."""

from __future__ import annotations

from typing import Any

import pytest

from minds_bot.minds import MalformedResponse
from tests.fakes.minds_http import cursor_pages, raw
from tests.minds.samples import STUDY_ID

PATH = f"/studies/{STUDY_ID}/runs"


def runs(count: int) -> list[dict[str, Any]]:
    return [{"runId": f"run-{n:04d}", "status": "completed"} for n in range(1, count + 1)]


def page(items: list[dict[str, Any]], *, more: bool, cursor: str | None) -> Any:
    return raw({"data": items, "pagination": {"limit": 100, "hasMore": more, "nextCursor": cursor}})


async def test_every_page_is_read_to_the_end(api, client):
    api.on("GET", PATH, cursor_pages(runs(250)))
    history = await client.all_study_runs(STUDY_ID)
    assert len(history.items) == 250 and history.complete
    assert [r.run_id for r in history.items[:2]] == ["run-0001", "run-0002"]
    assert [s.params for s in api.to("GET", PATH)] == [
        {"limit": "100"},
        {"limit": "100", "before": "run-0100"},
        {"limit": "100", "before": "run-0200"},
    ]


async def test_the_page_bound_says_the_list_is_not_complete(api, client):
    api.on("GET", PATH, cursor_pages(runs(1001)))
    history = await client.all_study_runs(STUDY_ID)
    assert len(history.items) == 1000 and not history.complete
    assert len(api.to("GET", PATH)) == 10


async def test_a_list_without_pagination_is_minds_only_page(api, client):
    api.on("GET", PATH, raw({"data": runs(3)}))
    history = await client.all_study_runs(STUDY_ID)
    assert len(history.items) == 3 and history.complete


@pytest.mark.parametrize(
    "replies",
    [
        [page(runs(2), more=True, cursor=None)],  # hasMore without a cursor
        [page([], more=True, cursor="run-0002")],  # an empty page that says there is more
        [page(runs(2), more=True, cursor="run-0002"), page(runs(2), more=True, cursor="run-0002")],  # no advance
    ],
)
async def test_continuation_minds_cannot_stand_behind_is_malformed(api, client, replies):
    api.on("GET", PATH, *replies)
    with pytest.raises(MalformedResponse):
        await client.all_study_runs(STUDY_ID)
