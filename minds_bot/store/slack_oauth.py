"""Bolt's OAuth storage interfaces, backed by a `Store` (its installations section, `InstallStore`).

Owns the translation between slack_sdk's `Installation` / `Bot` objects and the store's records, and the
lookup rules Bolt expects (an org-wide install is found by enterprise alone; a per-user installation borrows
the workspace's latest bot token). Tokens stay encrypted at rest because the `Store` seals them. Every call is
async on the store: nothing blocks the event loop. Must not call Slack.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from secrets import token_urlsafe
from typing import Any, TypeVar

from pydantic import SecretStr
from slack_sdk.oauth.installation_store.async_installation_store import AsyncInstallationStore
from slack_sdk.oauth.installation_store.models.bot import Bot
from slack_sdk.oauth.installation_store.models.installation import Installation
from slack_sdk.oauth.state_store.async_state_store import AsyncOAuthStateStore

from minds_bot.store.installs import InstallStore
from minds_bot.store.records import BotRecord, Clock, InstallationRecord, Record, utc_now

R = TypeVar("R", bound=Record)

DEFAULT_STATE_EXPIRATION = timedelta(minutes=10)
_STATE_BYTES = 32

# Fields filled from the workspace's bot when a user installation lacks them.
_BOT_FIELDS = (
    "bot_token",
    "bot_refresh_token",
    "bot_token_expires_at",
    "bot_id",
    "bot_user_id",
    "bot_scopes",
)


class StoreInstallationStore(AsyncInstallationStore):
    """`AsyncInstallationStore` for Bolt's `AsyncOAuthSettings(installation_store=...)`."""

    def __init__(self, store: InstallStore, *, logger: logging.Logger | None = None) -> None:
        self._store = store
        self._logger = logger or logging.getLogger(__name__)

    @property
    def logger(self) -> logging.Logger:
        return self._logger

    async def async_save(self, installation: Installation) -> None:
        await self._store.save_installation(_record(InstallationRecord, installation))

    async def async_save_bot(self, bot: Bot) -> None:
        await self._store.save_bot(_record(BotRecord, bot))

    async def async_find_bot(
        self, *, enterprise_id: str | None, team_id: str | None, is_enterprise_install: bool | None = False
    ) -> Bot | None:
        record = await self._store.find_bot(
            enterprise_id=enterprise_id, team_id=_team_key(team_id, is_enterprise_install)
        )
        return None if record is None else Bot(**_slack_kwargs(record))

    async def async_find_installation(
        self,
        *,
        enterprise_id: str | None,
        team_id: str | None,
        user_id: str | None = None,
        is_enterprise_install: bool | None = False,
    ) -> Installation | None:
        team = _team_key(team_id, is_enterprise_install)
        record = await self._store.find_installation(enterprise_id=enterprise_id, team_id=team, user_id=user_id)
        if record is None:
            return None
        if user_id is not None or record.bot_token is None:
            # A user's own installation may predate a reinstall: the workspace bot token is the current one.
            bot = await self._store.find_bot(enterprise_id=enterprise_id, team_id=team)
            if bot is not None:
                record = record.model_copy(update={name: getattr(bot, name) for name in _BOT_FIELDS})
        return Installation(**_slack_kwargs(record))

    async def async_delete_bot(self, *, enterprise_id: str | None, team_id: str | None) -> None:
        await self._store.delete_bot(enterprise_id=enterprise_id, team_id=team_id)

    async def async_delete_installation(
        self, *, enterprise_id: str | None, team_id: str | None, user_id: str | None = None
    ) -> None:
        await self._store.delete_installation(enterprise_id=enterprise_id, team_id=team_id, user_id=user_id)

    async def async_delete_all(self, *, enterprise_id: str | None, team_id: str | None) -> None:
        await self.async_delete_bot(enterprise_id=enterprise_id, team_id=team_id)
        await self.async_delete_installation(enterprise_id=enterprise_id, team_id=team_id)


class StoreOAuthStateStore(AsyncOAuthStateStore):
    """`AsyncOAuthStateStore`: random single-use states that expire after `expiration` on the given clock."""

    def __init__(
        self,
        store: InstallStore,
        *,
        expiration: timedelta = DEFAULT_STATE_EXPIRATION,
        clock: Clock = utc_now,
        logger: logging.Logger | None = None,
    ) -> None:
        self._store = store
        self._expiration = expiration
        self._clock = clock
        self._logger = logger or logging.getLogger(__name__)

    @property
    def logger(self) -> logging.Logger:
        return self._logger

    async def async_issue(self, *args: Any, **kwargs: Any) -> str:
        state = token_urlsafe(_STATE_BYTES)
        await self._store.issue_oauth_state(state, expires_at=self._clock() + self._expiration)
        return state

    async def async_consume(self, state: str) -> bool:
        return await self._store.consume_oauth_state(state, now=self._clock())


def _team_key(team_id: str | None, is_enterprise_install: bool | None) -> str | None:
    # An org-wide install is stored without a team: every workspace of the org resolves to it.
    return None if is_enterprise_install else team_id


def _record(model: type[R], source: Installation | Bot) -> R:
    values = {name: getattr(source, name, None) for name in model.model_fields}
    for name in ("bot_scopes", "user_scopes"):
        if name in values:
            values[name] = tuple(values[name] or ())
    # slack_sdk keeps times as Unix seconds; pydantic reads numbers as UTC timestamps.
    return model.model_validate({name: value for name, value in values.items() if value is not None})


def _slack_kwargs(record: Record) -> dict[str, Any]:
    kwargs: dict[str, Any] = {}
    for name in type(record).model_fields:
        value = getattr(record, name)
        if isinstance(value, SecretStr):
            value = value.get_secret_value()
        elif isinstance(value, datetime):
            value = value.timestamp()
        elif isinstance(value, tuple):
            value = list(value)
        kwargs[name] = value
    for name in ("bot_token_expires_at", "user_token_expires_at"):
        if kwargs.get(name) is not None:
            kwargs[name] = int(kwargs[name])
    return kwargs
