"""HTTP mode while the store cannot be reached. ``GET /healthz`` answers 503, saying so, and 200 again once it
answers; the store is pinged at most once a second however often a load balancer asks. In OAuth mode, where Bolt
looks the workspace's install up in the store before any of the bot's middleware, a slash command is still
acknowledged with the sentence (``/minds help`` with the help). The real bot serving HTTP on a SQLite file, its
store switched off in process (tests/fakes/outage.py); PostgreSQL stopped under a running bot is
tests/durability/test_store_outage.py's."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from minds_bot.app import STORE_UNREACHABLE, HttpServer, open_bot, start_http
from minds_bot.settings import Settings
from minds_bot.store import SecretBox
from minds_bot.store.health import StoreHealth
from tests.fakes.bot import bot_settings
from tests.fakes.outage import WAIT_SECONDS, switchable
from tests.fakes.slack_requests import command_body, signed_headers
from tests.fakes.slack_web import FakeSlack

SENTENCE = "minds-bot cannot reach its database right now; nothing was done; try again in a minute."
HELP_NOTE = (
    "minds-bot cannot reach its database right now: other commands do nothing until it answers; try again in a minute."
)
OAUTH_SIGNING_SECRET = "signing-secret-for-tests"  # a test's


class Seconds:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def server(slack: FakeSlack, tmp_path: Path) -> AsyncIterator[HttpServer]:
    settings = bot_settings(
        slack=slack, secret_key=SecretBox.generate_key(), minds_key=None, db=str(tmp_path / "bot.sqlite3")
    )
    started = await start_http(settings, host="127.0.0.1", port=0)
    yield started
    await started.stop()


async def test_healthz_is_503_while_the_store_cannot_be_reached_and_200_once_it_answers(server: HttpServer) -> None:
    clock = Seconds()
    server.bot.health = StoreHealth(server.bot.services.store, clock=clock)
    switch = switchable(server.bot.services.store)
    async with httpx.AsyncClient(base_url=server.base_url) as http:
        assert (await http.get("/healthz")).status_code == 200

        switch.down = True
        assert (await http.get("/healthz")).status_code == 200  # the answer of this second still holds
        clock.now += 1.0
        answers = [await http.get("/healthz") for _ in range(5)]
        assert [a.status_code for a in answers] == [503] * 5
        assert answers[0].json() == {"status": "unavailable", "store": STORE_UNREACHABLE}
        assert switch.total("ping") == 1  # five questions within the second, one ping

        switch.down = False
        clock.now += 1.0
        back = await http.get("/healthz")
    assert back.status_code == 200 and back.json()["status"] == "ok"


async def test_background_work_waits_for_a_store_down_at_start_up_and_starts_once_it_answers(
    slack: FakeSlack, tmp_path: Path
) -> None:
    settings = bot_settings(
        slack=slack, secret_key=SecretBox.generate_key(), minds_key=None, db=str(tmp_path / "bot.sqlite3")
    )
    bot = await open_bot(settings)
    try:
        switch = switchable(bot.services.store)
        switch.down = True  # the database goes away between the migrations and the background work's start
        bot.start_warming()
        await bot.listeners_registered()
        await switch.refused_at_least(1, "list_digests")  # the digest scheduler asked and was refused
        assert not bot.background_started.is_set() and bot.ready, "it waits; it neither gives up nor goes on"

        switch.down = False
        async with asyncio.timeout(WAIT_SECONDS):
            await bot.background_started.wait()
        assert bot.ready and bot.warming is not None and bot.warming.exception() is None
    finally:
        await bot.stop()


async def test_in_oauth_mode_a_command_is_acknowledged_with_the_sentence_when_the_install_cannot_be_read(
    slack: FakeSlack, tmp_path: Path
) -> None:
    settings = Settings(
        slack_client_id="111.222",
        slack_client_secret="client-secret-for-tests",
        slack_signing_secret=OAUTH_SIGNING_SECRET,
        slack_api_url=slack.api_url,
        minds_bot_db=str(tmp_path / "bot.sqlite3"),
        minds_bot_secret_key=SecretBox.generate_key(),
    )
    server = await start_http(settings, host="127.0.0.1", port=0)
    switch = switchable(server.bot.services.store)
    try:
        await server.bot.warm()
        switch.down = True
        replies = []
        for text, trigger in (("studies", "1"), ("help", "2")):
            body = command_body(
                text=text,
                team="T0001",
                channel="C0001",
                user="U0001",
                response_url=slack.response_url(),
                trigger=trigger,
            )
            async with httpx.AsyncClient(base_url=server.base_url) as http:
                reply = await http.post(
                    "/slack/events", content=body, headers=signed_headers(body, secret=OAUTH_SIGNING_SECRET)
                )
            assert reply.status_code == 200
            replies.append(reply.json())
        assert replies[0] == {"response_type": "ephemeral", "text": SENTENCE}
        assert replies[1]["blocks"][0]["text"]["text"] == HELP_NOTE  # help needs no store: answered with a note
        assert switch.total("find_installation", "find_bot") >= 1  # Bolt's authorization met the outage first
    finally:
        switch.down = False  # the store closes as usual
        await server.stop()
