"""Row 11 of issue 33: a Slack Web API reply that is not a JSON object (an HTML error page, plain text, broken
JSON) never crashes a handler. The bot's Slack client reads it as Slack's usual refusal, error
``invalid_response``, and a person whose request it stops is told so in plain words, privately."""

from __future__ import annotations

import pytest
from slack_sdk.errors import SlackApiError

from minds_bot.services import ChannelPacer, slack_web_client
from tests.fakes.bot import bot_harness
from tests.fakes.slack_web import fake_slack

NOT_JSON = {
    "html": (200, "text/html", "<html><body>502 Bad Gateway</body></html>"),
    "html-502": (502, "text/html", "<html><body>502 Bad Gateway</body></html>"),
    "plain-text": (200, "text/plain", "upstream connect error"),
    "broken-json": (200, "application/json", '{"ok": tru'),
    "json-list": (200, "application/json", "[1, 2]"),
}


@pytest.mark.parametrize("reply", list(NOT_JSON.values()), ids=list(NOT_JSON))
async def test_a_reply_that_is_not_a_json_object_is_a_slack_refusal_with_an_error_code(
    reply: tuple[int, str, str],
) -> None:
    async with fake_slack() as slack:
        slack.unreadable["chat.postMessage"] = reply
        client = slack_web_client("xoxb-test", base_url=slack.api_url, pacer=ChannelPacer())
        with pytest.raises(SlackApiError) as raised:
            await client.chat_postMessage(channel="C0001", text="hello")
        assert raised.value.response.get("error") == "invalid_response"


async def test_a_command_whose_slack_call_gets_an_html_page_is_answered_privately_not_crashed() -> None:
    async with bot_harness() as bot:
        bot.slack.unreadable["conversations.members"] = NOT_JSON["html"]
        ack = await bot.command("digest add <#C0NEW> daily 09:00 all")
        assert ack.status == 200
        said = await bot.refusal()
        assert said == (
            "Slack answered with something the bot could not read, so nothing more was done. Please try again."
        )
        assert await bot.store.list_digests(team_id="T0001") == []
