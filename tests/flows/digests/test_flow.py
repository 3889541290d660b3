"""Posting digests: what they say for each run state, what changed since the watermark, quiet periods, Minds
errors said out loud, one post after downtime, one post with two bot processes, and the block budget."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from slack_sdk.errors import SlackApiError

from minds_bot.flows.digests.flow import DigestFlow, Outcome
from minds_bot.minds import MindsClient
from minds_bot.render import MAX_BLOCKS_PER_MESSAGE
from minds_bot.render.digest_news import Watermark
from minds_bot.services import NotConnected
from minds_bot.store import SecretBox, Store
from tests.fakes.minds_http import FakeMindsAPI, envelope, page, raw
from tests.fakes.slack_web import FakeSlack
from tests.flows.digests.conftest import (
    CHANNEL,
    LAUNCH,
    PRICING,
    Clock,
    build_flow,
    digest,
    open_sqlite,
    research_run,
    run_uid,
    serve_study,
    study_payload,
    uid,
)
from tests.store.conftest import SQL_ENGINES, open_sql, sql_database

MONDAY_0900_BERLIN = datetime(2025, 3, 24, 8, 0, tzinfo=UTC)
TUESDAY_0900_BERLIN = datetime(2025, 3, 25, 8, 0, tzinfo=UTC)
R1, R2, R3, R4, R5, R6 = (run_uid(n) for n in range(501, 507))


def posts(slack: FakeSlack) -> list[dict[str, Any]]:
    return slack.calls_to("chat.postMessage")


def text_of(post: dict[str, Any]) -> str:
    return json.dumps(post["blocks"], ensure_ascii=False)


def serve_pricing(api: FakeMindsAPI, runs: list[tuple[str, str]], details: dict[str, dict[str, Any]]) -> None:
    serve_study(api, PRICING, "Pricing pulse", runs=runs, details=details)


def every_state() -> tuple[list[tuple[str, str]], dict[str, dict[str, Any]]]:
    runs = [(R5, "running"), (R4, "failed"), (R3, "completed"), (R2, "completed"), (R1, "completed")]
    details = {
        R1: research_run(R1, "completed", flags=3),
        R2: research_run(R2, "partial", partial=1, coverage=(21, 24)),
        R3: research_run(R3, "plan_limited", settled=2, completed=2),
        R4: research_run(R4, "failed", settled=0),
        R5: research_run(R5, "running", settled=1),
    }
    return runs, details


async def test_a_first_digest_reports_every_run_state_in_minds_words(
    flow: DigestFlow, store: Store, api: FakeMindsAPI, slack: FakeSlack, clock: Clock
) -> None:
    await store.save_digest(digest())
    runs, details = every_state()
    serve_pricing(api, runs, details)
    clock.set(MONDAY_0900_BERLIN)

    assert await flow.run_due("dg-1") is Outcome.POSTED

    [post] = posts(slack)
    assert post["channel"] == CHANNEL
    lines = {line for line in text_of(post).split("\\n")}
    by_run = {run: next(line for line in lines if f"{run[:8]}” (" in line) for run in (R1, R2, R3, R4, R5)}
    assert "*completed* — 3 questions" in by_run[R1]
    assert "*partial*" in by_run[R2] and "21 of 24 answers received" in by_run[R2]
    assert "1 of 3 questions with missing answers" in by_run[R2] and "Not complete evidence" in by_run[R2]
    assert "*plan limit reached*" in by_run[R3]
    assert "after 2 of 3 questions; upgrade before a follow-up run" in by_run[R3]
    assert "*failed*" in by_run[R4]
    assert "*running*" in by_run[R5] and "(started)" in by_run[R5]
    assert "completed" not in by_run[R2] + by_run[R3]  # partial and plan_limited are never called complete
    body = text_of(post)
    assert "3 answer-consistency flags across 1 Minds to review" in body
    assert f"Asked: “Price fairness {R1[:8]}”, “Willingness to pay” and 1 more" in body
    assert f"• Research run “Price fairness {R1[:8]}” (started and finished): *completed*" in body
    assert "*Summary*\\nPrices above 20 € meet resistance" in body
    assert "first digest for this Study" in body


async def test_the_next_digest_tells_only_what_changed_and_the_watermark_moves_after_the_post(
    flow: DigestFlow, store: Store, api: FakeMindsAPI, slack: FakeSlack, clock: Clock
) -> None:
    await store.save_digest(digest())
    runs, details = every_state()
    serve_pricing(api, runs, details)
    clock.set(MONDAY_0900_BERLIN)
    await flow.run_due("dg-1")
    posted = await store.get_digest("dg-1")
    assert posted is not None and posted.last_posted_at is not None
    assert Watermark.loads(posted.watermark).runs[PRICING][R5] == "running"

    details[R5] = research_run(R5, "completed")
    details[R6] = research_run(R6, "queued", settled=0)
    serve_pricing(api, [(R6, "queued"), (R5, "completed"), *runs[1:]], details)
    clock.set(TUESDAY_0900_BERLIN)
    assert await flow.run_due("dg-1") is Outcome.POSTED

    second = text_of(posts(slack)[1])
    assert f"{R5[:8]}” (finished): *completed*" in second
    assert f"{R6[:8]}” (started): *queued*" in second
    assert all(f"{r[:8]}”" not in second for r in (R1, R2, R3, R4))
    assert "News since the last digest" in second


async def test_a_quiet_period_is_said_once_then_kept_silent_until_there_is_news(
    flow: DigestFlow, store: Store, api: FakeMindsAPI, slack: FakeSlack, clock: Clock
) -> None:
    await store.save_digest(digest())
    serve_pricing(api, [(R1, "completed")], {R1: research_run(R1, "completed")})
    clock.set(MONDAY_0900_BERLIN)
    await flow.run_due("dg-1")

    clock.set(TUESDAY_0900_BERLIN)
    assert await flow.run_due("dg-1") is Outcome.POSTED
    assert "No research news in Pricing pulse since the last digest." in text_of(posts(slack)[1])

    clock.advance(timedelta(days=1))
    assert await flow.run_due("dg-1") is Outcome.QUIET_SKIPPED
    assert len(posts(slack)) == 2

    serve_pricing(api, [(R2, "running"), (R1, "completed")], {R2: research_run(R2, "running", settled=0)})
    clock.advance(timedelta(days=1))
    assert await flow.run_due("dg-1") is Outcome.POSTED
    assert f"{R2[:8]}” (started)" in text_of(posts(slack)[2])


async def test_a_digest_set_to_skip_quiet_periods_posts_nothing_without_news(
    flow: DigestFlow, store: Store, api: FakeMindsAPI, slack: FakeSlack, clock: Clock
) -> None:
    await store.save_digest(digest(skip_quiet=True))
    serve_pricing(api, [(R1, "completed")], {R1: research_run(R1, "completed")})
    clock.set(MONDAY_0900_BERLIN)
    await flow.run_due("dg-1")
    clock.set(TUESDAY_0900_BERLIN)
    assert await flow.run_due("dg-1") is Outcome.QUIET_SKIPPED
    assert len(posts(slack)) == 1


def timeout(request: httpx.Request) -> httpx.Response:
    raise httpx.ReadTimeout("no answer", request=request)


async def test_a_study_minds_cannot_read_is_named_in_the_digest_and_reported_once_it_answers(
    flow: DigestFlow, store: Store, api: FakeMindsAPI, slack: FakeSlack, clock: Clock
) -> None:
    await store.save_digest(digest(studies=(PRICING, LAUNCH)))
    serve_pricing(api, [(R1, "completed")], {R1: research_run(R1, "completed")})
    serve_study(api, LAUNCH, "Launch message", runs=[(R2, "completed")], details={R2: research_run(R2, "completed")})
    clock.set(MONDAY_0900_BERLIN)
    await flow.run_due("dg-1")

    serve_pricing(api, [(R3, "completed"), (R1, "completed")], {R3: research_run(R3, "completed")})
    api.set("GET", f"/studies/{PRICING}/runs", timeout)
    clock.set(TUESDAY_0900_BERLIN)
    assert await flow.run_due("dg-1") is Outcome.POSTED
    second = text_of(posts(slack)[1])
    assert "Could not read Pricing pulse: Minds did not answer in time." in second
    assert "No research news" not in second

    serve_pricing(api, [(R3, "completed"), (R1, "completed")], {R3: research_run(R3, "completed")})
    clock.advance(timedelta(days=1))
    await flow.run_due("dg-1")
    assert f"{R3[:8]}” (started and finished): *completed*" in text_of(posts(slack)[2])


async def test_a_malformed_runs_list_is_an_error_never_no_news(
    flow: DigestFlow, store: Store, api: FakeMindsAPI, slack: FakeSlack, clock: Clock
) -> None:
    await store.save_digest(digest())
    serve_pricing(api, [], {})
    api.set("GET", f"/studies/{PRICING}/runs", raw({"runs": []}))
    clock.set(MONDAY_0900_BERLIN)
    await flow.run_due("dg-1")
    body = text_of(posts(slack)[0])
    assert "Could not read Pricing pulse: Minds sent a reply the bot could not read" in body
    assert "No research news" not in body


async def test_a_study_minds_no_longer_has_is_reported_not_skipped(
    flow: DigestFlow, store: Store, api: FakeMindsAPI, slack: FakeSlack, clock: Clock
) -> None:
    await store.save_digest(digest())
    api.set("GET", f"/studies/{PRICING}", envelope(404, message="Study not found"))
    clock.set(MONDAY_0900_BERLIN)
    await flow.run_due("dg-1")
    assert f"Could not read Study {PRICING}" in text_of(posts(slack)[0])


async def test_without_a_minds_key_the_digest_says_minds_could_not_be_read(
    store: Store, minds: MindsClient, slack: FakeSlack, clock: Clock
) -> None:
    flow = build_flow(store, minds=minds, slack=slack, clock=clock)

    async def not_connected(team_id: str) -> MindsClient:
        raise NotConnected()

    flow.minds = not_connected
    await store.save_digest(digest())
    clock.set(MONDAY_0900_BERLIN)
    assert await flow.run_due("dg-1") is Outcome.POSTED
    assert "Could not read Minds: This workspace is not connected to Minds yet" in text_of(posts(slack)[0])


async def test_after_downtime_one_digest_is_posted_not_a_burst(
    flow: DigestFlow, store: Store, api: FakeMindsAPI, slack: FakeSlack, clock: Clock
) -> None:
    await store.save_digest(digest())
    serve_pricing(api, [(R1, "completed")], {R1: research_run(R1, "completed")})
    clock.set(MONDAY_0900_BERLIN)
    await flow.run_due("dg-1")

    clock.set(datetime(2025, 4, 1, 10, 0, tzinfo=UTC))  # a week later, across the DST switch
    outcomes = [await flow.run_due("dg-1") for _ in range(3)]
    assert outcomes == [Outcome.POSTED, Outcome.NOT_DUE, Outcome.NOT_DUE]
    assert len(posts(slack)) == 2
    serve_pricing(api, [(R2, "queued"), (R1, "completed")], {R2: research_run(R2, "queued", settled=0)})
    clock.set(datetime(2025, 4, 2, 6, 59, tzinfo=UTC))
    assert await flow.run_due("dg-1") is Outcome.NOT_DUE
    clock.set(datetime(2025, 4, 2, 7, 0, tzinfo=UTC))  # 09:00 CEST
    assert await flow.run_due("dg-1") is Outcome.POSTED
    assert len(posts(slack)) == 3


async def test_a_digest_created_after_todays_fire_waits_for_tomorrow(
    flow: DigestFlow, store: Store, api: FakeMindsAPI, slack: FakeSlack, clock: Clock
) -> None:
    clock.set(MONDAY_0900_BERLIN + timedelta(minutes=5))
    await store.save_digest(digest())
    serve_pricing(api, [(R1, "completed")], {R1: research_run(R1, "completed")})
    clock.advance(timedelta(hours=3))
    assert await flow.run_due("dg-1") is Outcome.NOT_DUE
    clock.set(TUESDAY_0900_BERLIN)
    assert await flow.run_due("dg-1") is Outcome.POSTED


@pytest.mark.parametrize("engine", SQL_ENGINES)
async def test_two_bot_processes_on_one_database_post_a_digest_once(
    engine: str,
    request: pytest.FixtureRequest,
    sqlite_path: str,
    box: SecretBox,
    api: FakeMindsAPI,
    minds: MindsClient,
    slack: FakeSlack,
    clock: Clock,
) -> None:
    async with sql_database(request, engine, sqlite_path) as where:
        first = await open_sql(engine, where, box=box, clock=clock)  # type: ignore[arg-type]
        second = await open_sql(engine, where, box=box, clock=clock)  # type: ignore[arg-type]
        await _post_once_from_two(first, second, api=api, minds=minds, slack=slack, clock=clock)


async def _post_once_from_two(
    first: Store, second: Store, *, api: FakeMindsAPI, minds: MindsClient, slack: FakeSlack, clock: Clock
) -> None:
    try:
        await first.save_digest(digest())
        serve_pricing(api, [(R1, "completed")], {R1: research_run(R1, "completed")})
        clock.set(MONDAY_0900_BERLIN)
        flows = [build_flow(s, minds=minds, slack=slack, clock=clock) for s in (first, second)]
        outcomes = await asyncio.gather(*(f.run_due("dg-1") for f in flows))
        assert sorted(outcomes) == sorted([Outcome.POSTED, Outcome.TAKEN])
        assert len(posts(slack)) == 1
        assert [await f.run_due("dg-1") for f in flows] == [Outcome.NOT_DUE, Outcome.NOT_DUE]
    finally:
        await first.close()
        await second.close()


async def test_a_failed_post_releases_the_window_and_keeps_the_watermark(
    flow: DigestFlow, store: Store, api: FakeMindsAPI, slack: FakeSlack, clock: Clock
) -> None:
    await store.save_digest(digest())
    serve_pricing(api, [(R1, "completed")], {R1: research_run(R1, "completed")})
    clock.set(MONDAY_0900_BERLIN)
    slack.replies["chat.postMessage"] = {"ok": False, "error": "ratelimited"}
    with pytest.raises(SlackApiError):
        await flow.run_due("dg-1")
    unposted = await store.get_digest("dg-1")
    assert unposted is not None and unposted.watermark is None and unposted.last_posted_at is None

    del slack.replies["chat.postMessage"]
    clock.advance(timedelta(minutes=5))
    assert await flow.run_due("dg-1") is Outcome.POSTED
    assert f"{R1[:8]}”" in text_of(posts(slack)[-1])


async def test_posting_now_on_request_posts_even_a_quiet_digest_once_per_request(
    flow: DigestFlow, store: Store, api: FakeMindsAPI, slack: FakeSlack, clock: Clock
) -> None:
    stored = await store.save_digest(digest(skip_quiet=True))
    serve_pricing(api, [], {})
    assert await flow.run_now(stored, request_key="k1", requested_by="U0002") is Outcome.POSTED
    assert await flow.run_now(stored, request_key="k1", requested_by="U0002") is Outcome.TAKEN
    [post] = posts(slack)
    assert "Posted now at <@U0002>'s request" in text_of(post)
    assert "No research news in Pricing pulse" in text_of(post)


async def test_a_removed_digest_is_not_posted(flow: DigestFlow, store: Store, clock: Clock, slack: FakeSlack) -> None:
    await store.save_digest(digest())
    await store.delete_digest("dg-1")
    clock.set(MONDAY_0900_BERLIN)
    assert await flow.run_due("dg-1") is Outcome.GONE
    assert posts(slack) == []


async def test_a_busy_digest_stays_within_fifty_blocks_and_says_how_much_more_there_is(
    flow: DigestFlow, store: Store, api: FakeMindsAPI, slack: FakeSlack, clock: Clock
) -> None:
    ids = tuple(uid(2000 + n) for n in range(30))
    await store.save_digest(digest(studies=ids))
    for n, study_id in enumerate(ids):
        runs = [(run_uid(3000 + n * 100 + k), "running") for k in range(12 if n == 0 else 1)]
        details = {r: research_run(r, "running", settled=0) for r, _ in runs}
        serve_study(api, study_id, f"Study {n:02d}", runs=runs, details=details)
    clock.set(MONDAY_0900_BERLIN)
    # A watermark that has seen each Study makes every run "new" news instead of a first digest.
    await store.save_digest(
        digest(studies=ids).model_copy(update={"watermark": Watermark(runs={s: {} for s in ids}).dumps()})
    )
    await flow.run_due("dg-1")
    [post] = posts(slack)
    assert len(post["blocks"]) <= MAX_BLOCKS_PER_MESSAGE
    body = text_of(post)
    assert '…and 4 more runs: `/minds runs \\"Study 00\\"`' in body
    # "<study>" is escaped on the wire, so Slack shows it as written instead of parsing it as a link
    assert "…and 7 more Studies with news: Study 23," in body and "See `/minds runs &lt;study&gt;`" in body


async def test_a_digest_of_all_studies_reads_the_most_recently_updated_ones(
    flow: DigestFlow, store: Store, api: FakeMindsAPI, slack: FakeSlack, clock: Clock
) -> None:
    await store.save_digest(digest(studies=()))
    listed = [study_payload(PRICING, "Pricing pulse"), study_payload(LAUNCH, "Launch message")]
    api.set("GET", "/studies", page(listed, total=2, offset=0))
    serve_pricing(api, [(R1, "completed")], {R1: research_run(R1, "completed")})
    serve_study(api, LAUNCH, "Launch message", runs=[(R2, "failed")], details={R2: research_run(R2, "failed")})
    clock.set(MONDAY_0900_BERLIN)
    await flow.run_due("dg-1")
    body = text_of(posts(slack)[0])
    assert "*Pricing pulse*" in body and "*Launch message*" in body


async def test_a_malformed_studies_list_is_an_error_never_no_news(
    flow: DigestFlow, store: Store, api: FakeMindsAPI, slack: FakeSlack, clock: Clock
) -> None:
    await store.save_digest(digest(studies=()))
    api.set("GET", "/studies", raw({"data": [study_payload(PRICING, "Pricing pulse")]}))  # no pagination
    clock.set(MONDAY_0900_BERLIN)
    await flow.run_due("dg-1")
    body = text_of(posts(slack)[0])
    assert "Could not read your Studies: Minds sent a reply the bot could not read" in body
    assert "No research news" not in body


async def test_the_quiet_setting_survives_the_sqlite_store(sqlite_path: str, box: SecretBox, clock: Clock) -> None:
    store = await open_sqlite(sqlite_path, box, clock)
    try:
        await store.save_digest(digest(skip_quiet=True))
        stored = await store.get_digest("dg-1")
        assert stored is not None and stored.skip_quiet is True
    finally:
        await store.close()


async def test_digests_of_one_workspace_due_together_share_their_minds_reads_and_each_posts_once(
    flow: DigestFlow, store: Store, api: FakeMindsAPI, slack: FakeSlack, clock: Clock
) -> None:
    """Fifty digests due at 09:00 would read Pricing pulse fifty times (and spend a minute's Minds allowance in
    no time); they read it once between them, and each still diffs against its own watermark."""
    for n in range(50):
        await store.save_digest(digest(digest_id=f"dg-{n}"))
    serve_pricing(api, [(R1, "completed")], {R1: research_run(R1, "completed")})
    clock.set(MONDAY_0900_BERLIN)

    outcomes = await asyncio.gather(*(flow.run_due(f"dg-{n}") for n in range(50)))

    assert set(outcomes) == {Outcome.POSTED} and len(posts(slack)) == 50
    assert all(f"{R1[:8]}”" in text_of(p) for p in posts(slack))
    for path in (f"/studies/{PRICING}", f"/studies/{PRICING}/runs", f"/studies/{PRICING}/research-runs/{R1}"):
        assert len(api.to("GET", path)) == 1, path

    # The next morning is a new wave: Minds is read again, and a run that ended overnight is news.
    serve_pricing(api, [(R2, "completed"), (R1, "completed")], {R2: research_run(R2, "completed")})
    clock.set(TUESDAY_0900_BERLIN)
    await asyncio.gather(*(flow.run_due(f"dg-{n}") for n in range(50)))
    assert len(api.to("GET", f"/studies/{PRICING}/runs")) == 2
    assert all(f"{R2[:8]}” (started and finished)" in text_of(p) for p in posts(slack)[50:])


async def test_a_digest_posted_on_request_reads_minds_for_itself(
    flow: DigestFlow, store: Store, api: FakeMindsAPI, slack: FakeSlack, clock: Clock
) -> None:
    stored = await store.save_digest(digest())
    serve_pricing(api, [(R1, "completed")], {R1: research_run(R1, "completed")})
    clock.set(MONDAY_0900_BERLIN)
    await flow.run_due("dg-1")
    serve_pricing(api, [(R2, "running"), (R1, "completed")], {R2: research_run(R2, "running", settled=1)})
    await flow.run_now(stored, request_key="k1", requested_by="U0002")
    assert f"{R2[:8]}”" in text_of(posts(slack)[1]), "a run started a moment ago is in the digest asked for now"
