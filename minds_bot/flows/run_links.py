"""Links to the Slack threads the bot posted runs in, for lists that name runs (Study card, ``/minds runs``).

Owns: looking up which of a Study's runs the bot tracked (the store knows their channel and thread) and asking
Slack for each thread's permalink (``chat.getPermalink``). A run the bot did not post, or a link Slack will not
give, simply has no link. Must not touch: rendering, Minds calls.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from slack_sdk.errors import SlackApiError

from minds_bot.flows.invocation import Invocation

log = logging.getLogger(__name__)


async def thread_links(invocation: Invocation, run_ids: Iterable[str]) -> dict[str, str]:
    """Run id → permalink of the Slack thread the bot posted that run in."""
    links: dict[str, str] = {}
    store = invocation.services.store
    for run_id in run_ids:
        tracked = await store.get_tracked_run(team_id=invocation.team_id, run_id=run_id)
        ts = tracked and (tracked.thread_ts or tracked.progress_ts)
        if not tracked or not ts:
            continue
        try:
            reply = await invocation.client.chat_getPermalink(channel=tracked.channel_id, message_ts=ts)
        except SlackApiError as exc:
            log.info("no permalink for a run's thread", extra={"fields": {"error": exc.response.get("error")}})
            continue
        link = reply.get("permalink")
        if isinstance(link, str) and link.startswith(("https://", "http://")):
            links[run_id] = link
    return links
