"""The demo end to end: the real bot in HTTP mode, signed requests from the local Slack emulator, the
embedded Minds sandbox behind it — what a new user sees in the first minute."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest

from minds_bot.demo import Demo, running_demo

ADA = "U01ADA0000"


@pytest.fixture
async def demo(tmp_path) -> AsyncIterator[Demo]:
    async with running_demo(page_port=0, workdir=tmp_path) as running:
        yield running


def user_id(demo: Demo, name: str) -> str:
    return next(u.id for u in demo.emulator.config.users if u.name.lower().startswith(name))


def research_channel(demo: Demo) -> str:
    return next(c.id for c in demo.emulator.config.channels if c.name == "research")


async def test_help_answers_privately_through_a_signed_command(demo: Demo) -> None:
    ada, channel = user_id(demo, "ada"), research_channel(demo)
    since = demo.emulator.mark()
    delivery = await demo.emulator.send_slash_command(user=ada, channel=channel, text="help")
    assert delivery.status == 200 and delivery.error is None
    message = await demo.emulator.wait_for_ephemeral(ada, since=since)
    assert "/minds plan" in str(message)


async def test_the_bot_is_healthy_and_refuses_unsigned_requests(demo: Demo) -> None:
    async with httpx.AsyncClient(base_url=demo.bot_url) as http:
        assert (await http.get("/healthz")).status_code == 200
        forged = await http.post("/slack/events", content="command=%2Fminds&text=help")
        assert forged.status_code == 401


async def test_the_minds_sandbox_answers_with_the_demo_key(demo: Demo) -> None:
    key = demo.bot.bot.services.settings.minds_api_key
    assert key is not None
    async with httpx.AsyncClient(base_url=demo.minds_url) as http:
        reply = await http.get("/studies", headers={"Authorization": f"Bearer {key.get_secret_value()}"})
    names = {s["name"] for s in reply.json()["data"]}
    assert {"Launch positioning", "Pricing pulse"} <= names
