"""Who hears which language, through the real Bolt app: the person's Slack locale for what only they see, the
workspace's language (set in ``/minds connect``) for the channel and as the fallback, English last."""

from __future__ import annotations

from datetime import UTC, datetime

from pydantic import SecretStr

from minds_bot import i18n
from minds_bot.render.help import INTRO
from minds_bot.store import WorkspaceSettings
from tests.fakes.bot import TEAM, USER, BotHarness, bot_harness


def _in(language: str, message: str) -> str:
    with i18n.speaking(language):
        return i18n._(message)


async def _help_text(bot: BotHarness) -> str:
    await bot.command("help")
    reply = await bot.reply()
    return str(reply["blocks"])


async def _workspace_speaks(bot: BotHarness, language: str) -> None:
    await bot.store.save_workspace(
        WorkspaceSettings(
            team_id=TEAM,
            minds_key=SecretStr("mk_" + "a" * 40),
            default_language=language,
            connected_by=USER,
            connected_at=datetime(2026, 1, 1, tzinfo=UTC),
        )
    )
    bot.services.languages.forget_workspace(TEAM)


async def test_a_private_reply_speaks_the_persons_slack_locale() -> None:
    async with bot_harness() as bot:
        bot.slack.users[USER] = {"id": USER, "locale": "de-DE"}
        assert _in("de", INTRO) in await _help_text(bot)
        assert _in("de", INTRO) != INTRO


async def test_a_locale_the_bot_does_not_speak_falls_back_to_the_workspace_then_english() -> None:
    async with bot_harness() as bot:
        bot.slack.users[USER] = {"id": USER, "locale": "fr-FR"}
        assert INTRO in await _help_text(bot)
        await _workspace_speaks(bot, "ko")
        assert _in("ko", INTRO) in await _help_text(bot)


async def test_a_changed_locale_is_heard_after_slack_says_the_profile_changed() -> None:
    async with bot_harness(wait_for_listeners=True) as bot:  # the event is handled when its dispatch returns
        bot.slack.users[USER] = {"id": USER, "locale": "es-ES"}
        assert _in("es", INTRO) in await _help_text(bot)
        bot.slack.users[USER] = {"id": USER, "locale": "zh-CN"}
        assert _in("es", INTRO) in await _help_text(bot)  # remembered for ten minutes…
        await bot.event({"type": "user_change", "user": {"id": USER, "locale": "zh-CN"}}, event_id="Ev9")
        assert _in("zh", INTRO) in await _help_text(bot)  # …unless Slack says it changed


async def test_users_info_failing_gives_the_workspace_language_and_is_asked_again() -> None:
    async with bot_harness() as bot:
        await _workspace_speaks(bot, "de")
        bot.slack.replies["users.info"] = {"ok": False, "error": "ratelimited"}
        assert _in("de", INTRO) in await _help_text(bot)
        del bot.slack.replies["users.info"]
        bot.slack.users[USER] = {"id": USER, "locale": "ko-KR"}
        assert _in("ko", INTRO) in await _help_text(bot)
