"""Issue #17 row 10: one person's flood of commands cannot hold up another person's command. A person may have
three commands running in a workspace and use half of its Minds window; beyond that they are told when to try
again, and the workspace's rate limiter serves people round robin. Driven in process through the real Bolt
app (production's ack-first mode); progress is read from counts and order, time from controlled clocks."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from datetime import UTC, datetime

import httpx

from minds_bot.minds import MindsClient, RateLimiter
from minds_bot.minds.policy import caller
from minds_bot.services import MAX_IN_FLIGHT_PER_PERSON, FairShare
from tests.fakes.bot import TEAM, BotHarness, bot_harness
from tests.fakes.minds_http import BASE_URL, FakeMindsAPI, fake_key, page
from tests.fakes.slack_web import WAIT_SECONDS

FLOODER, OTHER = "UFLOOD", "UOTHER"
FLOOD, BATCH = 500, 50


class HeldMinds:
    """The fake Minds, except that every request waits until the test releases them; arrivals are noted with
    the person each call was made for."""

    def __init__(self, api: FakeMindsAPI) -> None:
        self.api = api
        self.release = asyncio.Event()
        self.arrivals: list[str] = []
        self._arrived = asyncio.Condition()

    async def handle(self, request: httpx.Request) -> httpx.Response:
        async with self._arrived:
            self.arrivals.append(caller.get())
            self._arrived.notify_all()
        await self.release.wait()
        return self.api.handler(request)

    async def until(self, count: int) -> None:
        async with asyncio.timeout(WAIT_SECONDS), self._arrived:
            await self._arrived.wait_for(lambda: len(self.arrivals) >= count)

    def builder(self) -> Callable[..., MindsClient]:
        def build(api_key: str, limiter: RateLimiter | None = None) -> MindsClient:
            clock = self.api.clock
            return MindsClient(
                httpx.AsyncClient(base_url=BASE_URL, transport=httpx.MockTransport(self.handle)),
                api_key=fake_key(),
                download_http=httpx.AsyncClient(transport=httpx.MockTransport(self.handle)),
                limiter=RateLimiter(clock=clock, sleep=clock.sleep),
                clock=clock,
                sleep=clock.sleep,
                rng=random.Random(7),
            )

        return build


def who(user: str) -> str:
    return f"{TEAM}:{user}"


async def busy_notes(bot: BotHarness, count: int) -> list[str]:
    """The next ``count`` "try again" notes (progress notes of the running commands are skipped)."""
    notes: list[str] = []
    while len(notes) < count:
        answer = await bot.reply()
        if "try again in about" in str(answer.get("text")):
            notes.append(answer["text"])
    return notes


async def test_a_flood_from_one_person_leaves_at_most_three_calls_ahead_of_another_persons() -> None:
    async with bot_harness() as bot:
        bot.minds_api.on("GET", "/studies", page([], total=0, offset=0))
        held = HeldMinds(bot.minds_api)
        bot.services.minds.build = held.builder()  # type: ignore[method-assign]
        for _ in range(FLOOD // BATCH):  # 2,000 in the report; 500 here, 50 at a time
            acks = await asyncio.gather(*(bot.command("studies", user=FLOODER) for _ in range(BATCH)))
            assert all(ack.status == 200 for ack in acks)  # every one acknowledged within Slack's 3 seconds
        notes = await busy_notes(bot, FLOOD - MAX_IN_FLIGHT_PER_PERSON)
        assert set(notes) == {"You have 3 requests in progress; try again in about 10 seconds."}
        await held.until(MAX_IN_FLIGHT_PER_PERSON)

        await bot.command("studies zebra", user=OTHER)
        await held.until(MAX_IN_FLIGHT_PER_PERSON + 1)
        assert held.arrivals == [who(FLOODER)] * MAX_IN_FLIGHT_PER_PERSON + [who(OTHER)]
        held.release.set()
        await bot.reply_containing("zebra")  # the other person's answer
        assert len(held.arrivals) == MAX_IN_FLIGHT_PER_PERSON + 1  # the 497 refused never reached Minds


async def test_a_person_who_used_half_the_minds_window_waits_and_others_do_not() -> None:
    async with bot_harness(wait_for_listeners=True) as bot:
        bot.minds_api.on("GET", "/studies", page([], total=0, offset=0))
        share = 150  # half of the workspace's 300 requests a minute
        for _ in range(share):
            await bot.command("studies", user=FLOODER)
        assert len(bot.minds_api.to("GET", "/studies")) == share
        while not bot.slack.responses.empty():
            bot.slack.responses.get_nowait()

        await bot.command("studies", user=FLOODER)
        [note] = await busy_notes(bot, 1)
        assert note == (
            "You have used your share of this workspace's Minds requests for the minute; try again in about 60 seconds."
        )
        await bot.command("studies zebra", user=OTHER)
        await bot.reply_containing("zebra")
        assert len(bot.minds_api.to("GET", "/studies")) == share + 1  # the other's call, not the flooder's

        bot.minds_api.clock.now += 61  # the window moved on
        await bot.command("studies zebra", user=FLOODER)
        await bot.reply_containing("zebra")
        assert len(bot.minds_api.to("GET", "/studies")) == share + 2


class TurningClock:
    """Controlled time for the limiter whose ``sleep`` lets the other waiting tasks run, then moves time on."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(0)  # a yield, so others can queue up behind the sleeper; no real time passes
        self.now += seconds


async def test_the_limiter_serves_a_newcomer_after_at_most_two_of_a_flooders_queued_calls() -> None:
    clock = TurningClock()
    limiter = RateLimiter(requests_per_minute=2, clock=clock, sleep=clock.sleep)
    order: list[str] = []

    async def call(person: str) -> None:
        caller.set(person)  # each task has its own context
        await limiter.acquire()
        order.append(person)

    await asyncio.gather(*(call("flooder") for _ in range(10)), call("other"))
    # Two calls fit the window; the third waits for it, the fourth is next in line when "other" arrives.
    assert order.index("other") == 4  # first come, first served would make it the eleventh
    assert order.count("flooder") == 10


async def test_work_that_asks_from_inside_itself_is_not_counted_against_itself() -> None:
    """The gate asks again from inside a command (or a button's work) before it spends: the asking work is one of the
    person's three, so two others under way leave it free, and three others make it wait."""
    fair = FairShare(clock=lambda: datetime(2026, 12, 7, tzinfo=UTC))
    who = {"team_id": "T1", "user_id": "U1"}
    async with fair.running(**who), fair.running(**who):
        async with fair.running(**who):
            assert await fair.busy(**who, limiter=None) is None, "two others and itself"
            assert fair.counts_current(**who) and not fair.counts_current(team_id="T1", user_id="U2")
        assert await fair.busy(**who, limiter=None) is None  # back in the second: one other under way
        async with fair.running(**who), fair.running(**who):
            busy = await fair.busy(**who, limiter=None)
            assert busy is not None and busy.in_flight == MAX_IN_FLIGHT_PER_PERSON, "three others and itself"
