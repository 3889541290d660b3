"""Link unfurls: Slack's ``link_shared`` event for links on the Minds web host, answered with ``chat.unfurl``.

Owns: the listener (registered for the host of ``MINDS_WEB_URL``, which also puts the domain, the event and the
``links:read``/``links:write`` scopes in the manifest). A card is shown in the channel only for a person the gate
(``flows/access.py``) finds in that channel now; what is read and shown is ``flows/unfurls.py``.
Must not touch: Minds wire shapes or SQL.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from minds_bot.flows import access
from minds_bot.flows.unfurls import minds_links, unfurl_cards
from minds_bot.slack.context import services_of

if TYPE_CHECKING:
    from slack_bolt.context.async_context import AsyncBoltContext
    from slack_sdk.web.async_client import AsyncWebClient

    from minds_bot.services import Services
    from minds_bot.settings import Settings
    from minds_bot.slack.surface import Surface


def minds_host(settings: Settings) -> str:
    """The Minds web host whose links are unfurled (``MINDS_WEB_URL``'s), or "" when there is none."""
    return (urlsplit(settings.minds_web_url).hostname or "").lower()


async def link_shared(event: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext) -> None:
    services = services_of(context)
    host = minds_host(services.settings)
    shared = event.get("links")
    urls = [link.get("url") for link in shared if isinstance(link, dict)] if isinstance(shared, list) else []
    links = minds_links(urls, host=host)
    channel, user, team = event.get("channel"), event.get("user"), context.get("team_id") or ""
    if not links or not isinstance(channel, str) or not isinstance(user, str):
        return
    decision = await access.check(services, client, team_id=team, user_id=user, act=access.Act.SHOW, channel_id=channel)
    if decision.refused:  # a card is the channel's: only for someone in it (an event has nobody to tell)
        return
    cards = await unfurl_cards(services, team, links)
    if cards:
        unfurls = {url: {"blocks": blocks} for url, blocks in cards.items()}
        await client.chat_unfurl(channel=event.get("channel"), ts=event.get("message_ts"), unfurls=unfurls)


def register(surface: Surface, services: Services) -> None:
    host = minds_host(services.settings)
    if host:
        surface.unfurl(host)(link_shared)
