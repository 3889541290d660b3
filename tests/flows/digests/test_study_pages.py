"""Issue 34 row 10 for a digest of every Study: the Study list is read to the end over several pages (at most the
newest 1,000), so the 15 most recently updated Studies are picked from all of them and the footer says exactly how
many were not checked; at the bound it says "At least"."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from minds_bot.flows.digests.content import STUDY_SCAN
from minds_bot.flows.digests.flow import DigestFlow
from minds_bot.store import Store
from tests.fakes.minds_http import FakeMindsAPI, page
from tests.fakes.slack_web import FakeSlack
from tests.flows.digests.conftest import Clock, digest, serve_study, study_payload, uid
from tests.flows.digests.test_flow import MONDAY_0900_BERLIN, posts, text_of

UPDATED = datetime(2025, 3, 1, 10, 0, tzinfo=UTC)


def studies(count: int) -> list[dict[str, Any]]:
    """``count`` Studies, newest created first; the oldest-created are the most recently updated."""
    listed = []
    for n in range(count):
        study = study_payload(uid(5000 + n), f"Study {n:04d}")
        study["updatedAt"] = (UPDATED + timedelta(minutes=n)).isoformat().replace("+00:00", "Z")
        listed.append(study)
    return listed


def serve_pages(api: FakeMindsAPI, listed: list[dict[str, Any]]) -> None:
    def reply(request: Any) -> Any:
        offset, limit = int(request.url.params["offset"]), int(request.url.params["limit"])
        return page(listed[offset : offset + limit], total=len(listed), offset=offset, limit=limit)

    api.set("GET", "/studies", reply)
    for study in listed:
        serve_study(api, study["id"], study["name"], runs=[])


async def test_every_page_of_studies_is_read_and_the_rest_counted_exactly(
    flow: DigestFlow, store: Store, api: FakeMindsAPI, slack: FakeSlack, clock: Clock
) -> None:
    await store.save_digest(digest(studies=()))
    serve_pages(api, studies(250))  # three pages of 100
    clock.set(MONDAY_0900_BERLIN)
    await flow.run_due("dg-1")
    body = text_of(posts(slack)[0])
    assert "235 less recently updated Studies were not checked" in body and "At least" not in body
    assert len(api.to("GET", "/studies")) == 3
    checked = {s.path.split("/")[2] for s in api.sent if s.path.endswith("/runs")}
    assert checked == {uid(5000 + n) for n in range(235, 250)}, "the 15 most recently updated, from every page"


async def test_at_the_bound_the_unchecked_count_is_at_least(
    flow: DigestFlow, store: Store, api: FakeMindsAPI, slack: FakeSlack, clock: Clock
) -> None:
    await store.save_digest(digest(studies=()))
    serve_pages(api, studies(STUDY_SCAN + 20))
    clock.set(MONDAY_0900_BERLIN)
    await flow.run_due("dg-1")
    body = text_of(posts(slack)[0])
    assert f"At least {STUDY_SCAN - 15:,} less recently updated Studies were not checked" in body
