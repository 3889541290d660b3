"""PostgreSQL stopped under two running bot replicas (issue #33, row 9), then started again.

A real PostgreSQL server of this test's own (tests/pg_server.py: never the session's shared one), the real bots
(``start_http``, two replicas on one database, the second following runs only), the Slack emulator and the Minds
sandbox. While the database is down: ``/minds ask …``, a button, a dialog, the App Home and a Workflow step are
each acknowledged (HTTP 200 within Slack's three seconds) and the person is told once, "minds-bot cannot reach its
database right now; nothing was done; try again in a minute."; ``/minds help``, which needs no store, answers the
help with a note that the database cannot be reached; nothing reaches Minds; ``/healthz``
answers 503; each background loop logs one line when the outage starts, however many attempts fail, and no
traceback. Once it is back: ``/healthz`` 200, each loop logs one line that the outage ended (with the count), and the
question that was being followed when the database went down has its result posted exactly once.

Every wait is on an event or a bounded condition; the back-off is shortened (its growth and cap are
tests/store/test_health.py's).
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import re
import secrets
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from minds_bot.app import STORE_UNREACHABLE, HttpServer, start_http
from minds_bot.demo import step_specs
from minds_bot.settings import Settings
from minds_bot.store import SecretBox, TrackedRun
from minds_bot.store.health import OUTAGE_ENDED, OUTAGE_STARTED, Outage, StoreHealth
from minds_sandbox import ManualClock, RunningSandbox, SandboxConfig, running_sandbox
from slack_emulator import Emulator, EmulatorConfig, running_emulator
from slack_emulator.ids import ts_key
from slack_emulator.state import Message
from tests.fakes.bot import Clock
from tests.fakes.outage import outage_ends
from tests.pg_server import PgServer, PgUnavailable, start_own_server

SENTENCE = "minds-bot cannot reach its database right now; nothing was done; try again in a minute."
HELP_NOTE = (
    "minds-bot cannot reach its database right now: other commands do nothing until it answers; try again in a minute."
)
STUDY = "Launch positioning"
QUESTION = "Would you wear these shoes to work?"
WAIT = 30.0  # a bound on awaited events, never a timing
LEASE = 2.0  # seconds: short leases, as in a busy deployment
LATER = 120.0  # seconds of bot time: past any poll interval and lease
FAILED_CLAIMS = 8  # attempts each replica's tracker makes while the database is down: one line would be many
REPLICAS = 2


@pytest.fixture
def own_pg() -> Iterator[PgServer]:
    try:
        server = start_own_server()
    except PgUnavailable as exc:
        pytest.fail(f"PostgreSQL is required for this test: {exc}", pytrace=False)
    try:
        yield server
    finally:
        server.stop()


class Pauses:
    """An ``Outage`` sleep that counts the pauses (an event to await), each one short."""

    def __init__(self) -> None:
        self.count = 0
        self._changed = asyncio.Event()

    async def __call__(self, seconds: float) -> None:
        self.count += 1
        self._changed.set()
        await asyncio.sleep(min(seconds, 0.2))

    async def reached(self, count: int) -> None:
        async with asyncio.timeout(WAIT):
            while self.count < count:
                self._changed.clear()
                await self._changed.wait()


@dataclass
class World:
    pg: PgServer
    minds: RunningSandbox
    emu: Emulator
    settings: Settings
    clock: Clock
    bots: list[HttpServer]
    health_clock: list[float]

    def user(self, name: str) -> str:
        return next(u.id for u in self.emu.config.users if u.name == name)

    def channel(self, name: str) -> str:
        return next(c.id for c in self.emu.config.channels if c.name == name)

    def finish_runs(self, *, max_steps: int = 200) -> None:
        step = self.minds.runtime.engine.step
        for _ in range(max_steps):
            runs = self.minds.runtime.state.runs.values()
            if runs and all(r["status"] not in ("queued", "running") for r in runs):
                return
            self.minds.advance(step)
        raise AssertionError(f"the sandbox runs did not finish within {max_steps} steps")

    async def healthz(self, bot: HttpServer) -> httpx.Response:
        self.health_clock[0] += 1.0  # a second later: the health check asks the store again
        async with httpx.AsyncClient(base_url=bot.base_url) as http:
            return await http.get("/healthz")

    async def metrics(self) -> str:
        async with httpx.AsyncClient(base_url=self.bots[0].base_url) as http:
            return (await http.get("/metrics")).text


async def start_bot(settings: Settings, clock: Clock, health_clock: list[float]) -> HttpServer:
    server = await start_http(settings, host="127.0.0.1", port=0, clock=clock)
    await server.bot.warm()
    server.bot.health = StoreHealth(server.bot.services.store, clock=lambda: health_clock[0])
    return server


def shorten_back_offs(bot: HttpServer, pauses: Pauses) -> None:
    """Every loop of the replica backs off briefly (the test's patience, not the bot's)."""
    tracker = bot.bot.services.tracker
    tracker.outage = Outage("run tracker", first=0.05, cap=0.2, sleep=pauses, rng=random.Random(1))
    tracker.renewal_outage = Outage("run lease renewal", first=0.05, cap=0.2)
    for work in bot.bot.services.background:
        known: Outage | None = getattr(work, "outage", None)
        if known is not None and work is not tracker:
            work.outage = Outage(known.name, first=0.05, cap=0.2)  # type: ignore[attr-defined]


@asynccontextmanager
async def world(pg: PgServer) -> AsyncIterator[World]:
    signing_secret = secrets.token_hex(16)
    bot_token = "xoxb-outage-" + secrets.token_hex(8)
    emulator_config = EmulatorConfig(host="127.0.0.1", port=0, signing_secret=signing_secret, bot_token=bot_token)
    url = await pg.new_database()
    async with (
        running_sandbox(SandboxConfig(), clock=ManualClock()) as minds,
        running_emulator(emulator_config) as emu,
    ):
        settings = Settings(
            slack_bot_token=bot_token,
            slack_signing_secret=signing_secret,
            slack_api_url=emu.api_url,
            minds_api_url=minds.base_url,
            minds_api_key=minds.demo_key,
            minds_bot_database_url=url,
            minds_bot_lease_seconds=LEASE,
            minds_bot_secret_key=SecretBox.generate_key(),
        )
        clock, health_clock = Clock(), [0.0]
        bots = [await start_bot(settings, clock, health_clock) for _ in range(REPLICAS)]
        try:
            surface = await bots[0].bot.listeners_registered()
            emu.connect_bot(f"{bots[0].base_url}/slack/events", steps=step_specs(surface))  # the other follows runs
            yield World(pg, minds, emu, settings, clock, bots, health_clock)
        finally:
            for bot in bots:
                await bot.stop()


def minds_writes(metrics_text: str) -> float:
    """Minds requests that change something (POST, PUT, PATCH, DELETE) the bot has sent, from its /metrics."""
    pattern = re.compile(r'^minds_bot_minds_requests_total\{operation="(POST|PUT|PATCH|DELETE) [^"]*"[^}]*\} (\S+)$')
    return sum(float(m.group(2)) for line in metrics_text.splitlines() if (m := pattern.match(line)))


def action_ids(message: Message) -> list[str]:
    found = []
    for block in message.blocks:
        found += [e.get("action_id", "") for e in block.get("elements", []) if isinstance(e, dict)]
        accessory = block.get("accessory") or {}
        found += [accessory["action_id"]] if accessory.get("action_id") else []
    return found


def results(w: World, channel: str, thread_ts: str) -> list[Message]:
    """The question's result in its thread (the message that offers its answers)."""
    return [m for m in w.emu.state.replies(channel, thread_ts) if "answers_show" in action_ids(m)]


def lines(caplog: pytest.LogCaptureFixture, message: str) -> dict[str, int]:
    counted: dict[str, int] = {}
    for record in caplog.records:
        if record.getMessage() == message:
            loop = record.fields["loop"]  # type: ignore[attr-defined]
            counted[loop] = counted.get(loop, 0) + 1
    return counted


async def until(w: World, found: Callable[[], Any]) -> Any:
    return await w.emu.wait_for(found, timeout=WAIT)


async def before_the_outage(w: World) -> tuple[str, Message, Message, Any]:
    """A question being followed (its thread), a plan with buttons, a dialog left open: (channel, the question's
    message, the plan, the dialog)."""
    ben, research = w.user("ben"), w.channel("research")
    since = w.emu.mark()
    assert (await w.emu.send_slash_command(user=ben, channel=research, text=f'ask "{STUDY}" {QUESTION}')).ok
    asked = await w.emu.wait_for_message(research, lambda m: QUESTION in m.text, since=since, timeout=WAIT)

    def queued() -> Message | None:
        replies = [m for m in w.emu.state.messages(research, include_replies=True) if m.is_reply]
        return next((m for m in replies if "Queued at Minds" in m.text and ts_key(m.ts) > ts_key(since)), None)

    await until(w, queued)  # Minds took the question; the bots follow it

    since = w.emu.mark()
    request = f'plan "{STUDY}" Test three taglines with Gen Z buyers: Run further, Made to last, Light on the planet'
    assert (await w.emu.send_slash_command(user=ben, channel=research, text=request)).ok
    plan = await w.emu.wait_for_message(research, lambda m: "Research plan" in m.text, since=since, timeout=WAIT)

    assert (await w.emu.send_slash_command(user=ben, channel=research, text=f'ask "{STUDY}"')).ok
    dialog = await w.emu.wait_for_modal(ben, timeout=WAIT)  # "Ask Minds a question", waiting for the question
    return research, asked, plan, dialog


async def test_postgres_down_every_request_is_answered_nothing_is_done_and_the_followed_run_ends_once(
    own_pg: PgServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    async with world(own_pg) as w:
        ben = w.user("ben")
        research, asked, plan, dialog = await before_the_outage(w)
        assert (await w.healthz(w.bots[0])).status_code == 200
        pauses = [Pauses() for _ in w.bots]
        for bot, paused in zip(w.bots, pauses, strict=True):
            shorten_back_offs(bot, paused)
        writes_before = minds_writes(await w.metrics())
        runs_before = len(w.minds.runtime.state.runs)

        own_pg.halt()  # --------------------------------------------------------------- the database is down
        with outage_ends() as ends:
            await answered_while_down(w, ben=ben, research=research, plan=plan, dialog=dialog)
            unhealthy = await w.healthz(w.bots[0])
            assert unhealthy.status_code == 503
            assert unhealthy.json() == {"status": "unavailable", "store": STORE_UNREACHABLE}
            for paused in pauses:
                await paused.reached(FAILED_CLAIMS)
            assert minds_writes(await w.metrics()) == writes_before, "nothing reached Minds"
            assert len(w.minds.runtime.state.runs) == runs_before
            started = lines(caplog, OUTAGE_STARTED)
            assert started["run tracker"] == REPLICAS, started  # one line per loop and replica, not one per attempt
            assert all(count <= REPLICAS for count in started.values()), started
            assert [r.getMessage() for r in caplog.records if r.exc_info] == [], "no traceback"
            w.finish_runs()  # Minds answers the question meanwhile

            own_pg.resume()  # ----------------------------------------------------------- the database is back
            assert (await w.healthz(w.bots[0])).status_code == 200
            w.clock.advance(LATER)  # the question is due again, and any lease the outage left has run out
            await until(w, lambda: results(w, research, asked.ts))  # the result, posted by one replica
            for loop in started:
                await ends.of(loop)
        await posted_once_only(w, research=research, asked=asked)

    ended = lines(caplog, OUTAGE_ENDED)
    assert ended == lines(caplog, OUTAGE_STARTED), ended  # every outage line has its end line
    counts = [r.fields for r in caplog.records if r.getMessage() == OUTAGE_ENDED]  # type: ignore[attr-defined]
    tracker_counts = [f["failed_attempts"] for f in counts if f["loop"] == "run tracker"]
    assert len(tracker_counts) == REPLICAS and min(tracker_counts) >= FAILED_CLAIMS
    assert [r.getMessage() for r in caplog.records if r.exc_info] == [], "no traceback"


async def answered_while_down(w: World, *, ben: str, research: str, plan: Message, dialog: Any) -> None:
    """Each kind of request, acknowledged at once, the sentence shown once where the person looks."""
    since = w.emu.mark()
    delivery = await w.emu.send_slash_command(user=ben, channel=research, text=f'ask "{STUDY}" Is twelve euros fair?')
    assert delivery.ok and delivery.status == 200, delivery
    assert delivery.body == {"response_type": "ephemeral", "text": SENTENCE}
    await w.emu.wait_for_ephemeral(ben, lambda e: e.text == SENTENCE, since=since, timeout=WAIT)

    since = w.emu.mark()  # help needs no store: the help, with a note that the database cannot be reached
    delivery = await w.emu.send_slash_command(user=ben, channel=research, text="help")
    assert delivery.ok and delivery.status == 200 and isinstance(delivery.body, dict), delivery
    assert delivery.body["blocks"][0]["text"]["text"] == HELP_NOTE and "/minds plan" in json.dumps(delivery.body)
    await w.emu.wait_for_ephemeral(ben, lambda e: HELP_NOTE in json.dumps(e.blocks), since=since, timeout=WAIT)

    since = w.emu.mark()
    button = next(a for a in action_ids(plan) if a.startswith(("plan_answer:", "plan_approve")))
    delivery = await w.emu.click_button(user=ben, action_id=button, channel=research, ts=plan.ts)
    assert delivery.ok and delivery.status == 200, delivery
    await w.emu.wait_for_ephemeral(ben, lambda e: e.text == SENTENCE, since=since, timeout=WAIT)

    first_input = next(b["block_id"] for b in dialog.payload["blocks"] if b.get("type") == "input")
    delivery = await w.emu.submit_view(user=ben, view_id=dialog.id, inputs={"question_input": "Why blue?"})
    assert delivery.ok and delivery.body == {"response_action": "errors", "errors": {first_input: SENTENCE}}
    assert w.emu.state.modal_stack(ben)[-1].errors == {first_input: SENTENCE}  # still open, with what was typed

    assert (await w.emu.open_home(user=ben)).ok
    await until(w, lambda: (home := w.emu.state.home(ben)) is not None and SENTENCE in json.dumps(home.payload))

    inputs = {"study": STUDY, "question": "Do you like the new logo?", "channel": research}
    execution, delivery = await w.emu.run_function(callback_id="minds_ask_question", inputs=inputs, user=ben)
    assert delivery.ok and delivery.status == 200, delivery
    step = await w.emu.wait_for_function(execution.id, timeout=WAIT)
    assert step.status == "failed" and step.error == SENTENCE


async def posted_once_only(w: World, *, research: str, asked: Message) -> None:
    """More passes of both replicas' trackers, with both clocks moving: the result stays one."""
    for _ in range(3):
        w.clock.advance(LATER)
        w.minds.advance(w.minds.runtime.engine.step)
        for bot in w.bots:
            await bot.bot.services.tracker.tick()
    assert len(results(w, research, asked.ts)) == 1
    runs: list[TrackedRun] = await w.bots[0].bot.services.store.unfinished_runs()
    assert runs == [] or all(r.terminal_posted for r in runs)
