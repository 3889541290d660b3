"""Research-method facts from Minds (``GET /research-methods``): a small reader other flows can call.

Owns: ``read_methods`` (the whole catalogue; a malformed catalogue raises, never reads as empty),
``mentioned_methods`` (which named methods a request asks for — pure), ``lookup_mentions`` (each mention with
its catalogue entry, or None when Minds does not list it) and ``post_method_hint`` (a private note after a plan
request that names MaxDiff, NPS, Kano, TURF, Conjoint, Van Westendorp or Gabor-Granger: only
``executable: true`` is presented as runnable). No caching here: a per-workspace cached lookup for plan
approval can wrap ``read_methods`` without changing its callers.
Must not touch: Block Kit (``render/methods.py``) or SQL.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from minds_bot.minds import MindsClient, MindsError, ResearchMethod
from minds_bot.render.errors import user_message
from minds_bot.render.methods import render_method_hint, render_methods_unreadable

log = logging.getLogger(__name__)

# The methods people ask for by name (the seeds' list), each with the spellings that mean it.
NAMED_METHODS: dict[str, tuple[str, ...]] = {
    "MaxDiff": ("maxdiff", "max diff", "max-diff", "best-worst", "best worst scaling"),
    "NPS": ("nps", "net promoter"),
    "Kano": ("kano",),
    "TURF": ("turf",),
    "Conjoint": ("conjoint",),
    "Van Westendorp": ("van westendorp", "westendorp", "price sensitivity meter"),
    "Gabor-Granger": ("gabor-granger", "gabor granger", "gabor"),
}


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


async def read_methods(minds: MindsClient) -> list[ResearchMethod]:
    """Minds' catalogue as Minds reports it (raises ``MindsError``; malformed is ``MalformedResponse``)."""
    return await minds.research_methods()


async def post_method_hint(minds: MindsClient, slack: Any, *, channel_id: str, user_id: str, request: str) -> bool:
    """After a plan request: when it names methods, tell the requester privately which of them Minds can run.
    A catalogue that cannot be read is said so (nothing promised). Returns whether a note was posted."""
    if not mentioned_methods(request):
        return False
    try:
        methods = await read_methods(minds)
    except MindsError as exc:
        log.info("method catalogue unreadable for a hint", extra={"fields": {"error": type(exc).__name__}})
        message = render_methods_unreadable(user_message(exc))
    else:
        message = render_method_hint(lookup_mentions(request, methods), methods=methods)
    await slack.chat_postEphemeral(channel=channel_id, user=user_id, **message.as_kwargs())
    return True
