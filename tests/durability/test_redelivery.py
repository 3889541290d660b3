"""Slack redelivers an event it thinks went unanswered (same event_id, ``X-Slack-Retry-Num``): the bot handles
it once, also when the redelivery reaches a process started afresh on the same SQLite file."""

from __future__ import annotations

from pathlib import Path

from minds_bot.store import SecretBox
from tests.durability.inprocess import close_process, open_process
from tests.fakes.bot import Clock
from tests.fakes.minds_http import FakeMindsAPI, fake_key
from tests.fakes.slack_web import fake_slack

TEAM = "T0001"
HOME_OPENED = {"type": "app_home_opened", "user": "UREQ", "channel": "D0001", "tab": "home", "event_ts": "1.2"}


async def test_a_redelivered_event_is_handled_once_across_a_restart(tmp_path: Path) -> None:
    key, clock, path, api = SecretBox.generate_key(), Clock(), tmp_path / "bot.sqlite3", FakeMindsAPI()
    async with fake_slack() as slack:

        async def process():
            return await open_process(path, slack=slack, secret_key=key, clock=clock, api=api, minds_key=fake_key())

        first = await process()
        assert (await first.event(HOME_OPENED, team=TEAM, event_id="Ev1")).status == 200
        assert (await first.event(HOME_OPENED, team=TEAM, event_id="Ev1", retry=1)).status == 200
        assert len(slack.calls_to("views.publish")) == 1
        await close_process(first)

        second = await process()
        try:
            assert (await second.event(HOME_OPENED, team=TEAM, event_id="Ev1", retry=2)).status == 200
            assert len(slack.calls_to("views.publish")) == 1  # the new process remembers it was handled
            await second.event(HOME_OPENED, team=TEAM, event_id="Ev2")
            assert len(slack.calls_to("views.publish")) == 2  # a new event is still handled
        finally:
            await close_process(second)
