"""``/minds connect``: a workspace admin (or the installer) sets the workspace's Minds API key.

Owns: opening the modal, checking who may set the key (server-side), checking the key with ``GET /auth/me``
within Slack's 3-second window for modal answers, storing it encrypted, and answering "connected as <account>";
the workspace language the dialog offers first (the saved one, else the installer's Slack locale, else the
connecting admin's).
The key is never echoed, logged or shown again. Also forgets a workspace's secrets when the app is
uninstalled or its tokens are revoked.
Must not touch: Minds wire shapes beyond ``me()``.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from minds_bot import i18n
from minds_bot.flows.access import may_manage_workspace
from minds_bot.flows.invocation import Invocation
from minds_bot.i18n import N_, _
from minds_bot.minds import AuthenticationError, Me, MindsError
from minds_bot.render.common import MAX_PRIVATE_METADATA, plain_value
from minds_bot.render.connect import (
    CONNECT_CALLBACK,
    KEY_ACTION,
    KEY_BLOCK,
    LANGUAGE_ACTION,
    LANGUAGE_BLOCK,
    OUTCOME_ACTION,
    OUTCOME_BLOCK,
    OUTCOME_VALUE,
    connected_text,
    render_connect_modal,
    settings_saved_text,
)
from minds_bot.render.errors import user_message
from minds_bot.settings import MINDS_KEY_PATTERN
from minds_bot.slack.context import services_of
from minds_bot.slack.grammar import Connect
from minds_bot.store import WorkspaceSettings

if TYPE_CHECKING:
    from slack_bolt.context.ack.async_ack import AsyncAck
    from slack_bolt.context.async_context import AsyncBoltContext
    from slack_sdk.web.async_client import AsyncWebClient

    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface

log = logging.getLogger(__name__)

# Slack closes a modal's submit after 3 s; leave room for our own answer.
KEY_CHECK_SECONDS = 2.3
NOT_ALLOWED = N_("Only workspace admins, owners or the person who installed Minds can connect it to a Minds account.")


async def handle_connect(command: Connect, invocation: Invocation) -> None:
    services = invocation.services
    allowed = await may_manage_workspace(
        services, invocation.client, team_id=invocation.team_id, user_id=invocation.user_id
    )
    if not allowed:
        await invocation.say_text(_(NOT_ALLOWED))
        return
    workspace = await services.store.get_workspace(invocation.team_id)
    view = render_connect_modal(
        channel_id=invocation.channel_id,
        current_account=(workspace.account_label or "Minds") if workspace else None,
        outcome=workspace.outcome_in_channel if workspace else services.settings.minds_outcome_in_channel,
        language=await _offered_language(services, invocation, saved=workspace is not None),
    )
    await invocation.client.views_open(trigger_id=invocation.trigger_id, view=view.to_dict())


async def _offered_language(services: Services, invocation: Invocation, *, saved: bool) -> str:
    """The language the dialog offers first: the one saved, else the installer's Slack locale, else the Slack
    locale of the admin connecting (the language they are spoken to in), else English."""
    if saved:
        return await services.languages.of_workspace(invocation.team_id)
    installer = await services.languages.of_installer(invocation.client, invocation.team_id)
    return installer or i18n.spoken()


COMMANDS = {Connect: handle_connect}


async def check_key(services: Services, key: str) -> Me:
    """The account the key belongs to; raises ``MindsError`` when Minds refuses it or cannot answer in time."""
    async with services.minds.build(key) as client:
        return await asyncio.wait_for(client.me(), KEY_CHECK_SECONDS)


def _key_error(exc: BaseException) -> str:
    if isinstance(exc, AuthenticationError):
        return _("Minds did not accept this key. Check that you copied all of it and that it is not revoked.")
    if isinstance(exc, TimeoutError):
        return _("Minds did not answer in time; nothing was saved. Please try again.")
    return user_message(exc)


async def connect_submitted(
    ack: AsyncAck, body: dict[str, Any], view: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext
) -> None:
    services = services_of(context)
    team_id = (body.get("team") or {}).get("id", "")
    user_id = (body.get("user") or {}).get("id", "")
    values = view["state"]["values"]
    key = (values.get(KEY_BLOCK, {}).get(KEY_ACTION, {}).get("value") or "").strip()
    picked = values.get(OUTCOME_BLOCK, {}).get(OUTCOME_ACTION, {}).get("selected_options") or []
    outcome = any(option.get("value") == OUTCOME_VALUE for option in picked)
    chosen = (values.get(LANGUAGE_BLOCK, {}).get(LANGUAGE_ACTION, {}).get("selected_option") or {}).get("value")
    language = i18n.language_of(chosen if isinstance(chosen, str) else None) or i18n.SOURCE_LANGUAGE
    bad_key = {KEY_BLOCK: _("A Minds key looks like minds_ and 48 hex characters.")}
    if key and not MINDS_KEY_PATTERN.match(key):
        await ack(response_action="errors", errors=bad_key)
        return
    current = None if key else await services.store.get_workspace(team_id)  # no key: keep the one saved
    if not key and current is None:
        await ack(response_action="errors", errors=bad_key)
        return
    if not await may_manage_workspace(services, client, team_id=team_id, user_id=user_id):
        await ack(response_action="errors", errors={KEY_BLOCK: _(NOT_ALLOWED)})
        return
    if current is not None:  # only the settings change
        settings = {"outcome_in_channel": outcome, "default_language": language, "updated_at": services.clock()}
        await services.store.save_workspace(current.model_copy(update=settings))
        said = settings_saved_text()
    else:
        try:
            me = await check_key(services, key)
        except (MindsError, TimeoutError) as exc:
            await ack(response_action="errors", errors={KEY_BLOCK: _key_error(exc)})
            return
        await services.store.save_workspace(
            WorkspaceSettings(
                team_id=team_id,
                minds_key=key,
                account_label=me.label or me.id,
                outcome_in_channel=outcome,
                default_language=language,
                connected_by=user_id,
                connected_at=services.clock(),
            )
        )
        await services.minds.forget(team_id)
        log.info("workspace connected to Minds", extra={"fields": {"account": me.id}})
        said = connected_text(me.label)
    services.languages.forget_workspace(team_id)
    await ack(response_action="clear")
    channel = plain_value(view.get("private_metadata"), limit=MAX_PRIVATE_METADATA) or user_id
    await client.chat_postEphemeral(channel=channel, user=user_id, text=said)


async def uninstalled(body: dict[str, Any], context: AsyncBoltContext) -> None:
    await forget_workspace(services_of(context), team_id=body.get("team_id", ""))


async def tokens_revoked(body: dict[str, Any], event: dict[str, Any], context: AsyncBoltContext) -> None:
    if (event.get("tokens") or {}).get("bot"):
        await forget_workspace(services_of(context), team_id=body.get("team_id", ""))


def register(surface: Surface, services: Services) -> None:
    surface.router.add(COMMANDS)
    surface.view(CONNECT_CALLBACK)(connect_submitted)
    surface.event("app_uninstalled")(uninstalled)
    surface.event("tokens_revoked")(tokens_revoked)


async def forget_workspace(services: Services, *, team_id: str) -> None:
    """The app is gone from a workspace: drop its bot token and its Minds key."""
    await services.store.delete_bot(enterprise_id=None, team_id=team_id)
    await services.store.delete_workspace(team_id)
    await services.minds.forget(team_id)
    log.info("forgot a workspace's secrets after uninstall", extra={"fields": {"team": team_id}})
