"""Minds' research-method catalogue (``GET /research-methods``) as the bot knows it, per workspace.

Owns: ``read_methods`` (the one reader: the whole catalogue; a malformed catalogue is Minds' error, never an
empty catalogue), ``method_catalogue`` (the one way flows read it: by method id, read through ``read_methods``
and kept for ``CATALOGUE_TTL`` per workspace on the services' clock — tests move it — so every plan message,
every Approve, ``/minds methods`` and the method hint decide from what Minds says a method can do, CATALOGUE
§2 E.42–43, never from a guess), ``mentioned_methods`` (which named methods a request asks for — pure),
``catalogue_entry`` / ``lookup_mentions`` (each mention with its catalogue entry, or None when Minds does not
list it) and ``post_method_hint`` (a private note after a plan request that names MaxDiff, NPS, Kano, TURF,
Conjoint, Van Westendorp or Gabor-Granger: only ``executable: true`` is presented as runnable).
Must not touch: Block Kit (``render/methods.py``) or SQL.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from minds_bot.minds import MindsClient, MindsError, ResearchMethod
from minds_bot.render.errors import user_message
from minds_bot.render.methods import render_method_hint, render_methods_unreadable

if TYPE_CHECKING:
    from minds_bot.services import Services

log = logging.getLogger(__name__)

CATALOGUE_TTL = timedelta(minutes=10)

# The methods people ask for by name (the seeds' list), each with the spellings that mean it: method names and
# the words matched in a request (English, as Minds and researchers name them), never translated.
NAMED_METHODS: dict[str, tuple[str, ...]] = {
    "MaxDiff": ("maxdiff", "max diff", "max-diff", "best-worst", "best worst scaling"),  # verbatim
    "NPS": ("nps", "net promoter"),  # verbatim
    "Kano": ("kano",),
    "TURF": ("turf",),
    "Conjoint": ("conjoint",),
    "Van Westendorp": ("van westendorp", "westendorp", "price sensitivity meter"),  # verbatim
    "Gabor-Granger": ("gabor-granger", "gabor granger", "gabor"),  # verbatim
}


@dataclass(frozen=True)
class CachedCatalogue:
    read_at: datetime
    methods: dict[str, ResearchMethod]


async def read_methods(minds: MindsClient) -> list[ResearchMethod]:
    """Minds' catalogue as Minds reports it (raises ``MindsError``; malformed is ``MalformedResponse``)."""
    return await minds.research_methods()


async def method_catalogue(services: Services, team_id: str) -> dict[str, ResearchMethod]:
    """The workspace's method catalogue by id, in Minds' order; read again once ``CATALOGUE_TTL`` has passed.
    A failed read is never cached."""
    now = services.clock()
    cached = services.method_catalogues.get(team_id)
    if cached is not None and now - cached.read_at < CATALOGUE_TTL:
        return cached.methods
    minds = await services.minds.client_for(team_id)
    methods = {method.id: method for method in await read_methods(minds)}
    services.method_catalogues[team_id] = CachedCatalogue(read_at=now, methods=methods)
    return methods


def _norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", text.lower())


def mentioned_methods(text: str) -> list[str]:
    """The named methods ``text`` asks for, in ``NAMED_METHODS`` order, each once. Whole words only."""
    lowered = f" {re.sub(r'[^a-z0-9]+', ' ', text.lower())} "
    found = []
    for label, spellings in NAMED_METHODS.items():
        if any(f" {re.sub(r'[^a-z0-9]+', ' ', s).strip()} " in lowered for s in spellings):
            found.append(label)
    return found


def catalogue_entry(label: str, methods: list[ResearchMethod]) -> ResearchMethod | None:
    """The catalogue entry for a named method, matched on its id or name (``nps`` ↔ "Net Promoter Score")."""
    keys = {_norm(s) for s in NAMED_METHODS.get(label, (label,))}
    for method in methods:
        names = [n for n in (_norm(method.id), _norm(method.name or "")) if n]
        if any(k == n or (len(k) > 3 and k in n) for k in keys for n in names):
            return method
    return None


def lookup_mentions(text: str, methods: list[ResearchMethod]) -> list[tuple[str, ResearchMethod | None]]:
    return [(label, catalogue_entry(label, methods)) for label in mentioned_methods(text)]


async def post_method_hint(
    services: Services, slack: Any, *, team_id: str, channel_id: str, user_id: str, request: str
) -> bool:
    """After a plan request: when it names methods, tell the requester privately which of them Minds can run.
    A catalogue that cannot be read is said so (nothing promised). Returns whether a note was posted."""
    if not mentioned_methods(request):
        return False
    try:
        methods = list((await method_catalogue(services, team_id)).values())
    except MindsError as exc:
        log.info("method catalogue unreadable for a hint", extra={"fields": {"error": type(exc).__name__}})
        message = render_methods_unreadable(user_message(exc))
    else:
        message = render_method_hint(lookup_mentions(request, methods), methods=methods)
    await slack.chat_postEphemeral(channel=channel_id, user=user_id, **message.as_kwargs())
    return True
