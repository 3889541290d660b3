"""Link unfurls: a Minds Study or Audience link posted in Slack becomes a compact card, read with the key of
the workspace it was posted in.

Owns: recognising Minds links (``…/studies/<uuid>`` and ``…/audiences/<uuid>`` on the configured web host, at
most ``MAX_LINKS`` a message), reading each with GETs only, and deciding what is shown. A link that workspace's
key cannot read — not connected, not found, forbidden, a timeout or any other error — unfurls nothing: a failed
lookup never reveals whether research exists, and another account's research never reaches the channel.
Must not touch: Block Kit (``render.unfurls``) or listener code.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import urlsplit

from minds_bot.minds import MindsError
from minds_bot.render.unfurls import render_audience_unfurl, render_study_unfurl

if TYPE_CHECKING:
    from minds_bot.services import Services

log = logging.getLogger(__name__)

MAX_LINKS = 5  # links unfurled from one message; Slack itself sends only a handful
MAX_URL = 2_000
_RESOURCE = re.compile(r"(?:^|/)(studies|audiences)/([0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12})(?:/|$)")


@dataclass(frozen=True)
class MindsLink:
    url: str
    kind: Literal["study", "audience"]
    id: str


def minds_links(urls: list[Any], *, host: str) -> list[MindsLink]:
    """The Study and Audience links among ``urls`` on ``host`` (or a subdomain of it), each once, in order."""
    found: dict[str, MindsLink] = {}
    for url in urls:
        if not isinstance(url, str) or len(url) > MAX_URL or url in found:
            continue
        parts = urlsplit(url)
        name = (parts.hostname or "").lower()
        if parts.scheme not in ("http", "https") or not (name == host or name.endswith("." + host)):
            continue
        match = _RESOURCE.search(parts.path)
        if match is not None:
            found[url] = MindsLink(url=url, kind="study" if match[1] == "studies" else "audience", id=match[2].lower())
    return list(found.values())[:MAX_LINKS]


async def unfurl_cards(services: Services, team_id: str, links: list[MindsLink]) -> dict[str, list[dict[str, Any]]]:
    """url -> card blocks for every link this workspace's Minds key can read; the others are left out."""
    if not links or not await services.minds.is_connected(team_id):
        return {}
    minds = await services.minds.client_for(team_id)
    cards: dict[str, list[dict[str, Any]]] = {}
    for link in links:
        try:
            if link.kind == "study":
                study = await minds.get_study(link.id)
                runs = await minds.list_study_runs(link.id, limit=1)
                cards[link.url] = render_study_unfurl(study, latest=runs[0] if runs else None)
            else:
                cards[link.url] = render_audience_unfurl(await minds.get_audience(link.id))
        except MindsError as exc:
            log.info(
                "a Minds link was not unfurled", extra={"fields": {"kind": link.kind, "error": type(exc).__name__}}
            )
    return cards
