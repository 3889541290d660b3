"""Link unfurls through the real Bolt app: a workspace without a Minds key reveals nothing and asks Minds nothing."""

from __future__ import annotations

from tests.fakes.bot import CHANNEL, USER, bot_harness


async def test_a_minds_link_in_a_workspace_without_a_key_unfurls_nothing_and_asks_minds_nothing() -> None:
    async with bot_harness(minds_key=None, wait_for_listeners=True) as bot:
        link = "https://getminds.ai/studies/11111111-1111-4111-8111-111111111111"
        event = {
            "type": "link_shared",
            "channel": CHANNEL,
            "user": USER,
            "message_ts": "1.1",
            "unfurl_id": "C1",
            "source": "conversations_history",
            "links": [{"domain": "getminds.ai", "url": link}],
        }
        assert (await bot.event(event, event_id="EvLink")).status == 200
        assert bot.slack.calls_to("chat.unfurl") == []
        assert bot.minds_api.sent == []


async def test_a_link_shared_by_someone_the_gate_does_not_find_in_the_channel_unfurls_nothing() -> None:
    async with bot_harness(wait_for_listeners=True) as bot:
        bot.slack.channel_members["G0SECRET"] = ["UADA", "UBOT"]
        link = "https://getminds.ai/studies/11111111-1111-4111-8111-111111111111"
        event = {
            "type": "link_shared",
            "channel": "G0SECRET",
            "user": "UBEN",
            "message_ts": "1.1",
            "unfurl_id": "C1",
            "source": "conversations_history",
            "links": [{"domain": "getminds.ai", "url": link}],
        }
        assert (await bot.event(event, event_id="EvLink")).status == 200
        assert bot.slack.calls_to("conversations.members"), "the gate asked Slack who is in the channel"
        assert bot.slack.calls_to("chat.unfurl") == []
        assert bot.minds_api.sent == []
