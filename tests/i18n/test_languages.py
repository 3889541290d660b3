"""Who hears which language, through the real Bolt app: the person's Slack locale for what only they see, the
workspace's language (set in ``/minds connect``) for the channel and as the fallback, English last."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from pydantic import SecretStr

from minds_bot import i18n
from minds_bot.render.help import INTRO
from minds_bot.store import RunKind, WorkspaceSettings
from tests.fakes.bot import TEAM, USER, BotHarness, bot_harness


def _in(language: str, message: str) -> str:
    with i18n.speaking(language):
        return i18n._(message)


async def _help_text(bot: BotHarness) -> str:
    await bot.command("help")
    reply = await bot.reply()
    return json.dumps(reply["blocks"], ensure_ascii=False)  # as a person reads it (str() would escape U+200B)


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


async def test_a_plan_is_requested_in_the_persons_language_and_posted_in_the_workspaces() -> None:
    """A German speaker in a Korean workspace: Minds plans a German study; the channel's plan message is Korean."""
    from tests.fakes.minds_http import ok
    from tests.slack.plan_samples import plan_data, study_data

    study = "11111111-1111-4111-8111-111111111111"
    preview = f"/studies/{study}/research-plans/preview"
    async with bot_harness(unique_ts=True) as bot:
        await _workspace_speaks(bot, "ko")
        bot.slack.users[USER] = {"id": USER, "locale": "de-DE"}
        bot.minds_api.on("GET", f"/studies/{study}", ok(study_data()))
        bot.minds_api.set("POST", preview, ok(plan_data()))
        await bot.command(f"plan {study} Welche Botschaft wirkt am besten?")
        run = await bot.tracker.next_tracked(RunKind.PLAN)
        await bot.tick()
        (sent,) = [s for s in bot.minds_api.sent if s.path.endswith("/research-plans/preview")][:1]
        assert sent.json()["studyLocale"] == "de"
        posted = [c for c in bot.slack.calls_to("chat.update") if c["ts"] == run.thread_ts]
        assert posted and _in("ko", "Research plan: {study}").split("{study}")[0] in str(posted[-1]["blocks"])


INSTALLER = "UINSTALL"


async def _installed_by(bot: BotHarness, user_id: str, locale: str) -> None:
    """The app was installed (OAuth) by ``user_id``, whose Slack speaks ``locale``; no language saved yet."""
    from minds_bot.store import InstallationRecord

    bot.slack.users[user_id] = {"id": user_id, "locale": locale}
    await bot.store.save_installation(
        InstallationRecord(team_id=TEAM, user_id=user_id, installed_at=datetime(2026, 1, 1, tzinfo=UTC))
    )


async def test_before_connect_saves_a_language_the_channel_hears_the_installers_slack_locale() -> None:
    """Issue 34 row 12: a German admin installed the app; an English speaker's plan is posted in German."""
    from tests.fakes.minds_http import ok
    from tests.slack.plan_samples import plan_data, study_data

    study = "11111111-1111-4111-8111-111111111111"
    async with bot_harness(unique_ts=True) as bot:
        await _installed_by(bot, INSTALLER, "de-DE")
        bot.slack.users[USER] = {"id": USER, "locale": "en-US"}
        bot.minds_api.on("GET", f"/studies/{study}", ok(study_data()))
        bot.minds_api.set("POST", f"/studies/{study}/research-plans/preview", ok(plan_data()))
        await bot.command(f"plan {study} Which message works best?")
        run = await bot.tracker.next_tracked(RunKind.PLAN)
        await bot.tick()
        posted = [c for c in bot.slack.calls_to("chat.update") if c["ts"] == run.thread_ts]
        assert posted and _in("de", "Research plan: {study}").split("{study}")[0] in str(posted[-1]["blocks"])
        assert "Research plan: " not in str(posted[-1]["blocks"])
        assert await bot.services.languages.of_workspace(TEAM) == "de"  # remembered for what runs later
        assert INTRO in await _help_text(bot)  # the English speaker still hears English


async def test_a_saved_workspace_language_wins_over_the_installers_locale() -> None:
    async with bot_harness() as bot:
        await _installed_by(bot, INSTALLER, "de-DE")
        await _workspace_speaks(bot, "es")
        bot.slack.users[USER] = {"id": USER, "locale": "fr-FR"}
        assert _in("es", INTRO) in await _help_text(bot)


async def test_without_an_installer_or_a_locale_the_bot_speaks_the_channel_english() -> None:
    async with bot_harness() as bot:
        bot.slack.users[USER] = {"id": USER, "locale": "fr-FR"}
        assert INTRO in await _help_text(bot)
        await _installed_by(bot, INSTALLER, "fr-FR")  # a locale the bot does not speak
        bot.services.languages.forget_workspace(TEAM)
        assert INTRO in await _help_text(bot)
        assert await bot.services.languages.of_workspace(TEAM) == "en"


async def test_work_without_a_request_keeps_the_installers_language_after_the_caches_expire() -> None:
    """A digest or a run's end has no request to ask Slack with: the installer's language as last learned."""
    async with bot_harness() as bot:
        await _installed_by(bot, INSTALLER, "ko-KR")
        await _help_text(bot)  # a request: the installer's locale is learned
        languages = bot.services.languages
        later = languages._clock() + 3600
        languages._clock = lambda: later  # an hour on: every cache has expired
        assert await languages.of_workspace(TEAM) == "ko"
