"""Slack retries and repeated action payloads are processed once, across restarts of the bot."""

from __future__ import annotations

from minds_bot.app import build_app
from minds_bot.slack.middleware import delivery_key
from tests.fakes.bot import bot_harness


async def test_a_retried_event_is_processed_once() -> None:
    async with bot_harness(minds_key=None) as bot:
        home = {"type": "app_home_opened", "user": "U0001", "tab": "home"}
        for _ in range(3):
            response = await bot.event(home, event_id="Ev42")
            assert response.status == 200
        await bot.slack.wait_for("views.publish")
        assert [c for c, _ in bot.slack.calls].count("views.publish") == 1
        await bot.event(home, event_id="Ev43")
        await bot.slack.wait_for("views.publish", count=2)


async def test_the_record_survives_a_restart_of_the_app() -> None:
    async with bot_harness(minds_key=None) as bot:
        home = {"type": "app_home_opened", "user": "U0001", "tab": "home"}
        await bot.event(home, event_id="Ev7")
        await bot.slack.wait_for("views.publish")
        bot.app, _ = build_app(bot.services)  # a new app instance over the same store
        await bot.event(home, event_id="Ev7")
        await bot.event(home, event_id="Ev8")
        await bot.slack.wait_for("views.publish", count=2)
        assert [c for c, _ in bot.slack.calls].count("views.publish") == 2


def test_delivery_keys() -> None:
    assert delivery_key({"type": "event_callback", "event_id": "Ev1"}) == "event:Ev1"
    action = {
        "type": "block_actions",
        "user": {"id": "U1"},
        "actions": [{"action_id": "approve", "action_ts": "1.2"}],
    }
    assert delivery_key(action) == "action:approve:U1:1.2"
    command = {"command": "/minds", "text": "studies", "trigger_id": "1.2"}
    assert delivery_key(command) == delivery_key(dict(command))  # a replay of the same command
    assert delivery_key(command) != delivery_key({**command, "trigger_id": "1.3"})  # Slack's next command
    assert delivery_key({"type": "view_submission", "view": {"id": "V1"}}, raw="payload=a").startswith("view:V1:")
    assert delivery_key({"type": "block_suggestion"}) is None  # options requests are answered every time
