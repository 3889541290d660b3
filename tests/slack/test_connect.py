"""/minds connect: only admins or the installer set the key; Minds must accept it; it is stored encrypted and
never shown again; uninstalling forgets it."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import pytest

from minds_bot import i18n
from minds_bot.render.connect import CONNECT_CALLBACK, KEY_ACTION, KEY_BLOCK, LANGUAGE_ACTION, LANGUAGE_BLOCK
from minds_bot.slack.connect import NOT_ALLOWED
from tests.fakes.bot import TEAM, BotHarness, bot_harness
from tests.fakes.minds_http import envelope, raw

GOOD_KEY = "minds_" + "1a" * 24
ADMIN = "UADMIN"
ACCOUNT = "550e8400-e29b-41d4-a716-446655440000"


@pytest.fixture
async def bot() -> AsyncIterator[BotHarness]:
    async with bot_harness(minds_key=None) as harness:
        harness.slack.users[ADMIN] = {"id": ADMIN, "is_admin": True}
        harness.slack.users["UPLAIN"] = {"id": "UPLAIN"}
        yield harness


def key_values(key: str) -> dict:
    return {KEY_BLOCK: {KEY_ACTION: {"type": "plain_text_input", "value": key}}}


def ack_body(response) -> dict:
    return json.loads(response.body) if response.body else {}


async def test_an_admin_gets_the_modal_and_others_are_refused(bot: BotHarness) -> None:
    await bot.command("connect", user=ADMIN)
    (opened,) = await bot.slack.wait_for("views.open")
    view = json.loads(opened["view"]) if isinstance(opened["view"], str) else opened["view"]
    assert view["callback_id"] == CONNECT_CALLBACK
    await bot.command("connect", user="UPLAIN")
    answer = await bot.slack.responses.get()
    assert "Only workspace admins" in answer["text"]
    assert len([c for c, _ in bot.slack.calls if c == "views.open"]) == 1


def with_language(values: dict, language: str) -> dict:
    picked = {"type": "static_select", "selected_option": {"value": language}}
    return {**values, LANGUAGE_BLOCK: {LANGUAGE_ACTION: picked}}


async def test_the_workspace_language_is_chosen_with_the_key_and_changed_without_it(bot: BotHarness) -> None:
    """The language chosen in the dialog is what channels hear; once connected, the key may be left empty."""
    bot.minds_api.on("GET", "/auth/me", raw({"id": ACCOUNT}))
    await bot.submit({"callback_id": CONNECT_CALLBACK}, with_language(key_values(GOOD_KEY), "ko"), user=ADMIN)
    assert await bot.services.languages.of_workspace(TEAM) == "ko"

    await bot.command("connect", user=ADMIN)
    (opened,) = await bot.slack.wait_for("views.open")
    view = json.loads(opened["view"]) if isinstance(opened["view"], str) else opened["view"]
    language = next(b for b in view["blocks"] if b.get("block_id") == LANGUAGE_BLOCK)
    assert language["element"]["initial_option"]["value"] == "ko"
    assert [o["text"]["text"] for o in language["element"]["options"]] == list(i18n.LANGUAGES.values())
    key_block = next(b for b in view["blocks"] if b.get("block_id") == KEY_BLOCK)
    assert key_block["optional"] is True  # connected: the key may stay as it is

    response = await bot.submit({"callback_id": CONNECT_CALLBACK}, with_language(key_values(""), "de"), user=ADMIN)
    assert ack_body(response) == {"response_action": "clear"}
    workspace = await bot.store.get_workspace(TEAM)
    assert workspace is not None and workspace.default_language == "de"
    assert workspace.minds_key.get_secret_value() == GOOD_KEY
    assert await bot.services.languages.of_workspace(TEAM) == "de"

    refused = await bot.submit({"callback_id": CONNECT_CALLBACK}, with_language(key_values(""), "es"), user="UPLAIN")
    with i18n.speaking("de"):  # UPLAIN's Slack language is unknown: the workspace's
        assert ack_body(refused)["errors"][KEY_BLOCK] == i18n._(NOT_ALLOWED)
    assert await bot.services.languages.of_workspace(TEAM) == "de"


async def test_a_good_key_is_checked_stored_encrypted_and_never_echoed(bot: BotHarness) -> None:
    bot.minds_api.on("GET", "/auth/me", raw({"id": ACCOUNT}))
    response = await bot.submit(
        {"callback_id": CONNECT_CALLBACK, "private_metadata": "C0001"}, key_values(GOOD_KEY), user=ADMIN
    )
    assert response.status == 200 and ack_body(response) == {"response_action": "clear"}
    (note,) = await bot.slack.wait_for("chat.postEphemeral")
    assert note["text"] == "Minds is connected. Minds did not say the account's name or email. Try `/minds studies`."
    assert ACCOUNT not in note["text"] and GOOD_KEY not in json.dumps(bot.slack.calls)
    workspace = await bot.store.get_workspace(TEAM)
    assert workspace is not None and workspace.minds_key.get_secret_value() == GOOD_KEY
    assert GOOD_KEY not in repr(workspace)
    assert await bot.services.minds.key_for(TEAM) == GOOD_KEY


@pytest.mark.parametrize(
    ("key", "reply", "fragment"),
    [
        ("not-a-key", None, "48 hex characters"),
        ("", None, "48 hex characters"),  # no key, and none saved to keep
        (GOOD_KEY, envelope(401, message="Unauthorized"), "did not accept this key"),
        (GOOD_KEY, envelope(503, code="USAGE_METERING_UNAVAILABLE"), "temporarily unavailable"),
    ],
)
async def test_a_bad_key_is_refused_inline_and_nothing_is_saved(
    bot: BotHarness, key: str, reply: object, fragment: str
) -> None:
    if reply is not None:
        bot.minds_api.on("GET", "/auth/me", reply)
    response = await bot.submit({"callback_id": CONNECT_CALLBACK}, key_values(key), user=ADMIN)
    body = ack_body(response)
    assert body["response_action"] == "errors"
    assert fragment in body["errors"][KEY_BLOCK]
    assert key not in body["errors"][KEY_BLOCK] or key in ("not-a-key", "")  # the key is never echoed
    assert await bot.store.get_workspace(TEAM) is None


async def test_a_non_admin_submission_is_refused_on_the_server(bot: BotHarness) -> None:
    response = await bot.submit({"callback_id": CONNECT_CALLBACK}, key_values(GOOD_KEY), user="UPLAIN")
    assert "Only workspace admins" in ack_body(response)["errors"][KEY_BLOCK]
    assert bot.minds_api.sent == [] and await bot.store.get_workspace(TEAM) is None


async def test_commands_without_a_key_explain_how_to_connect(bot: BotHarness) -> None:
    from minds_bot.render.errors import minds_error_text
    from minds_bot.services import NotConnected

    with pytest.raises(NotConnected) as caught:
        await bot.services.minds.client_for(TEAM)
    assert "/minds connect" in minds_error_text(caught.value)


async def test_uninstalling_forgets_the_workspace_key() -> None:
    async with bot_harness(minds_key=None, wait_for_listeners=True) as bot:
        bot.slack.users[ADMIN] = {"id": ADMIN, "is_admin": True}
        bot.minds_api.on("GET", "/auth/me", raw({"id": ACCOUNT}))
        await bot.submit({"callback_id": CONNECT_CALLBACK}, key_values(GOOD_KEY), user=ADMIN)
        assert await bot.store.get_workspace(TEAM) is not None
        await bot.event({"type": "app_uninstalled"}, event_id="EvUninstall")
        assert await bot.store.get_workspace(TEAM) is None


async def test_an_account_minds_names_is_shown_by_its_name_or_email(bot: BotHarness) -> None:
    bot.minds_api.on("GET", "/auth/me", raw({"id": ACCOUNT, "email": "ada@example.test"}))
    await bot.submit({"callback_id": CONNECT_CALLBACK, "private_metadata": "C0001"}, key_values(GOOD_KEY), user=ADMIN)
    (note,) = await bot.slack.wait_for("chat.postEphemeral")
    assert note["text"] == "Minds is connected as *ada@example.test*. Try `/minds studies`."


def _offered(opened: dict) -> str:
    view = json.loads(opened["view"]) if isinstance(opened["view"], str) else opened["view"]
    language = next(b for b in view["blocks"] if b.get("block_id") == LANGUAGE_BLOCK)
    return language["element"]["initial_option"]["value"]


async def test_the_first_language_offered_is_the_installers_slack_locale(bot: BotHarness) -> None:
    """Issue 34 row 12: a German installer; the admin who connects has no locale the bot speaks."""
    from datetime import UTC, datetime

    from minds_bot.store import InstallationRecord

    bot.slack.users["UINSTALL"] = {"id": "UINSTALL", "locale": "de-DE"}
    bot.slack.users[ADMIN] = {"id": ADMIN, "is_admin": True, "locale": "fr-FR"}
    await bot.store.save_installation(
        InstallationRecord(team_id=TEAM, user_id="UINSTALL", installed_at=datetime(2026, 1, 1, tzinfo=UTC))
    )
    await bot.command("connect", user=ADMIN)
    (opened,) = await bot.slack.wait_for("views.open")
    assert _offered(opened) == "de"


async def test_without_an_installation_the_connecting_admins_locale_is_offered_first(bot: BotHarness) -> None:
    bot.slack.users[ADMIN] = {"id": ADMIN, "is_admin": True, "locale": "ko-KR"}
    await bot.command("connect", user=ADMIN)
    (opened,) = await bot.slack.wait_for("views.open")
    assert _offered(opened) == "ko"
