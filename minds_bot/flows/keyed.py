"""A person's retry keeps the key (CATALOGUE §2 H.72–73): keyed requests people ask for from Slack.

Owns: saving a request with its idempotency key *before* it is sent (``begin``), noticing the same command
typed again for the same subject within ``KEY_WINDOW`` (then the person is asked whether they want a second one
instead of getting it silently), and finding the saved request again for **Try again** or **Make another**
(``saved_for``) — only for the person who asked, so a button grants nothing they could not type themselves.
A timed-out or network-failed call (``UNCERTAIN``) is never assumed to have failed or succeeded: Try again
re-sends the saved arguments with the saved key, so Minds makes at most one.
Must not touch: Block Kit, SQL, which Minds call a purpose makes (``flows/duplicates.py``, ``flows/audiences.py``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from minds_bot.flows.keys import derived_key
from minds_bot.flows.planning import Refused
from minds_bot.i18n import _
from minds_bot.minds import MindsTransportError, ServerError
from minds_bot.render.access import button_not_yours
from minds_bot.store import KeyedRequest

if TYPE_CHECKING:
    from minds_bot.flows.invocation import Invocation

# Minds keeps identical from-brief arguments idempotent for about six hours (§2 H.72); a repeat of the same
# command within that window is asked about rather than sent as a new request.
KEY_WINDOW = timedelta(hours=6)
UNCERTAIN = (MindsTransportError, ServerError)  # Minds may or may not have acted: only a same-key retry is safe


@dataclass(frozen=True)
class Repeat:
    """The same command was given within ``KEY_WINDOW``: ``earlier`` is that request; nothing was sent."""

    earlier: KeyedRequest


async def begin(
    invocation: Invocation, *, purpose: str, subject: str, arguments: dict[str, Any], again: bool
) -> KeyedRequest | Repeat:
    """Save a new request (key derived from this Slack request) unless one for ``subject`` is recent and the
    person did not confirm ``again``. A redelivery of the same Slack request gets its saved request back."""
    store, clock = invocation.services.store, invocation.services.clock
    key = derived_key(purpose=purpose, team_id=invocation.team_id, trigger_id=invocation.trigger_id)
    redelivered = await store.get_keyed_request(team_id=invocation.team_id, key=key)
    if redelivered is not None:
        return redelivered  # Slack sent the same request again: the same key, so Minds replays its answer
    if not again:
        since = clock() - KEY_WINDOW
        earlier = await store.latest_keyed_request(
            team_id=invocation.team_id, purpose=purpose, subject=subject, since=since
        )
        if earlier is not None:
            return Repeat(earlier)
    request = KeyedRequest(
        team_id=invocation.team_id,
        key=key,
        purpose=purpose,
        subject=subject,
        arguments=json.dumps(arguments, sort_keys=True),
        requester_id=invocation.user_id,
        channel_id=invocation.channel_id,
    )
    return await store.save_keyed_request(request)


async def saved_for(invocation: Invocation, *, key: str, purpose: str) -> KeyedRequest | Refused:
    """The saved request a button names, if the person pressing it is the one who asked."""
    request = await invocation.services.store.get_keyed_request(team_id=invocation.team_id, key=key)
    if request is None or request.purpose != purpose:
        return Refused(_("The bot no longer knows this request; type the command again."))
    if request.requester_id != invocation.user_id:
        return Refused(button_not_yours(requester_id=request.requester_id))
    return request


def arguments_of(request: KeyedRequest) -> dict[str, Any]:
    return dict(json.loads(request.arguments))
