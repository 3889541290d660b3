"""Bolt's OAuth storage interfaces on top of every Store."""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from slack_bolt.authorization.async_authorize import AsyncInstallationStoreAuthorize
from slack_bolt.context.async_context import AsyncBoltContext
from slack_bolt.oauth.async_oauth_settings import AsyncOAuthSettings
from slack_sdk.oauth.installation_store.async_installation_store import AsyncInstallationStore
from slack_sdk.oauth.installation_store.models.bot import Bot
from slack_sdk.oauth.installation_store.models.installation import Installation
from slack_sdk.oauth.state_store.async_state_store import AsyncOAuthStateStore

from minds_bot.store import Store, StoreInstallationStore, StoreOAuthStateStore
from tests.store.conftest import START, FakeClock

BOT_TOKEN = "xoxb-" + "0" * 24
NEW_BOT_TOKEN = "xoxb-" + "9" * 24


def _installation(**overrides: Any) -> Installation:
    values: dict[str, Any] = {
        "app_id": "A1",
        "team_id": "T1",
        "team_name": "Acme",
        "user_id": "U_INSTALLER",
        "bot_token": BOT_TOKEN,
        "bot_id": "B1",
        "bot_user_id": "U_BOT",
        "bot_scopes": ["chat:write", "commands"],
        "installed_at": START.timestamp(),
    }
    return Installation(**{**values, **overrides})


class _FakeSlackClient:
    """Answers auth.test for the token Bolt authorizes with, as Slack would."""

    def __init__(self) -> None:
        self.tokens: list[str] = []

    async def auth_test(self, *, token: str) -> dict[str, str]:
        self.tokens.append(token)
        return {"team_id": "T1", "user_id": "U_BOT", "bot_id": "B1", "team": "Acme"}


async def test_saved_installation_is_found_with_its_tokens(store: Store) -> None:
    adapter = StoreInstallationStore(store)
    await adapter.async_save(_installation(user_token="xoxp-" + "1" * 24, user_scopes="search:read"))
    found = await adapter.async_find_installation(enterprise_id=None, team_id="T1")
    assert found is not None
    assert (found.bot_token, found.bot_id, found.bot_user_id, found.user_id) == (
        BOT_TOKEN,
        "B1",
        "U_BOT",
        "U_INSTALLER",
    )
    assert list(found.bot_scopes or []) == ["chat:write", "commands"]
    assert found.user_token == "xoxp-" + "1" * 24 and list(found.user_scopes or []) == ["search:read"]
    assert found.installed_at == START.timestamp() and found.is_enterprise_install is False
    bot = await adapter.async_find_bot(enterprise_id=None, team_id="T1")
    assert bot is not None and (bot.bot_token, bot.app_id, bot.team_name) == (BOT_TOKEN, "A1", "Acme")
    assert await adapter.async_find_installation(enterprise_id=None, team_id="T2") is None


async def test_a_reinstall_replaces_the_bot_and_user_lookups_borrow_it(store: Store, clock: FakeClock) -> None:
    adapter = StoreInstallationStore(store)
    await adapter.async_save(_installation(user_id="U_OLD"))
    await adapter.async_save(
        _installation(user_id="U_NEW", bot_token=NEW_BOT_TOKEN, installed_at=(START + timedelta(days=1)).timestamp())
    )
    latest = await adapter.async_find_installation(enterprise_id=None, team_id="T1")
    assert latest is not None and latest.user_id == "U_NEW"
    older_user = await adapter.async_find_installation(enterprise_id=None, team_id="T1", user_id="U_OLD")
    assert older_user is not None and older_user.user_id == "U_OLD" and older_user.bot_token == NEW_BOT_TOKEN


async def test_org_wide_install_is_found_from_any_workspace(store: Store) -> None:
    adapter = StoreInstallationStore(store)
    await adapter.async_save(_installation(enterprise_id="E1", team_id=None, is_enterprise_install=True))
    found = await adapter.async_find_installation(enterprise_id="E1", team_id="T_ANY", is_enterprise_install=True)
    assert found is not None and found.enterprise_id == "E1" and found.is_enterprise_install
    bot = await adapter.async_find_bot(enterprise_id="E1", team_id="T_ANY", is_enterprise_install=True)
    assert bot is not None and bot.bot_token == BOT_TOKEN


async def test_save_bot_and_delete_all(store: Store) -> None:
    adapter = StoreInstallationStore(store)
    await adapter.async_save(_installation())
    await adapter.async_save_bot(
        Bot(
            team_id="T2",
            bot_token=NEW_BOT_TOKEN,
            bot_id="B2",
            bot_user_id="U_B2",
            installed_at=START.timestamp(),
        )
    )
    bot = await adapter.async_find_bot(enterprise_id=None, team_id="T2")
    assert bot is not None and bot.bot_token == NEW_BOT_TOKEN
    await adapter.async_delete_all(enterprise_id=None, team_id="T1")
    assert await adapter.async_find_installation(enterprise_id=None, team_id="T1") is None
    assert await adapter.async_find_bot(enterprise_id=None, team_id="T1") is None
    assert await adapter.async_find_bot(enterprise_id=None, team_id="T2") is not None


async def test_delete_one_users_installation_keeps_the_others(store: Store) -> None:
    adapter = StoreInstallationStore(store)
    await adapter.async_save(_installation(user_id="U1"))
    await adapter.async_save(_installation(user_id="U2"))
    await adapter.async_delete_installation(enterprise_id=None, team_id="T1", user_id="U1")
    assert await adapter.async_find_installation(enterprise_id=None, team_id="T1", user_id="U1") is None
    assert await adapter.async_find_installation(enterprise_id=None, team_id="T1", user_id="U2") is not None


async def test_bolt_authorizes_requests_from_the_store(store: Store) -> None:
    await StoreInstallationStore(store).async_save(_installation())
    authorize = AsyncInstallationStoreAuthorize(
        logger=logging.getLogger("test"), installation_store=StoreInstallationStore(store)
    )
    client = _FakeSlackClient()
    context = AsyncBoltContext({"client": client})
    result = await authorize(context=context, enterprise_id=None, team_id="T1", user_id="U_SOMEONE")
    assert result is not None and result.bot_token == BOT_TOKEN and result.bot_user_id == "U_BOT"
    assert client.tokens == [BOT_TOKEN]
    assert await authorize(context=context, enterprise_id=None, team_id="T_UNKNOWN", user_id="U1") is None


async def test_oauth_state_is_single_use_and_expires(store: Store, clock: FakeClock) -> None:
    states = StoreOAuthStateStore(store, expiration=timedelta(minutes=10), clock=clock)
    first, second = await states.async_issue(), await states.async_issue()
    assert first != second and len(first) >= 32
    assert await states.async_consume(first) is True
    assert await states.async_consume(first) is False
    assert await states.async_consume("never-issued") is False
    clock.advance(timedelta(minutes=10))
    assert await states.async_consume(second) is False  # expired exactly at its deadline


def test_bolt_accepts_the_adapters_in_its_oauth_settings(store: Store) -> None:
    installations, states = StoreInstallationStore(store), StoreOAuthStateStore(store)
    assert isinstance(installations, AsyncInstallationStore) and isinstance(states, AsyncOAuthStateStore)
    settings = AsyncOAuthSettings(
        client_id="111.222",
        client_secret="fake-secret",  # obviously fake
        scopes=["commands", "chat:write"],
        installation_store=installations,
        state_store=states,
    )
    assert settings.authorize.installation_store is installations  # type: ignore[attr-defined]
    assert settings.state_store is states


async def test_stored_installation_records_do_not_show_tokens(store: Store) -> None:
    await StoreInstallationStore(store).async_save(_installation(user_token="xoxp-" + "1" * 24))
    installation = await store.find_installation(enterprise_id=None, team_id="T1")
    bot = await store.find_bot(enterprise_id=None, team_id="T1")
    shown = repr(installation) + repr(bot) + str(installation) + str(bot)
    assert "U_INSTALLER" in shown
    assert BOT_TOKEN not in shown and "xoxp-" not in shown
