"""Where a Study's runs belong in Slack, and links to their threads, for lists that name runs (Study card,
``/minds runs``, ``/minds compare``, "Compare with…").

Owns: which channel a run belongs to — the channel whose thread the bot posted it in (the tracked run, or, once
that is pruned, the recorded end of a research run); a run the bot never posted belongs to its Study, no
channel — which runs a person may not see in a list (those of channels they are not in now, asked through the
gate's ``access.visible``), and the permalink of each thread (``chat.getPermalink``) the person may see. A run
the bot did not post, one of a channel the person is not in, or a link Slack will not give simply has no link.
Must not touch: rendering, Minds calls, deciding membership itself (``flows/access.py``).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping

from slack_sdk.errors import SlackApiError

from minds_bot.flows import access
from minds_bot.flows.invocation import Invocation
from minds_bot.render.errors import slack_error
from minds_bot.services import Services

log = logging.getLogger(__name__)


async def run_channel(services: Services, *, team_id: str, run_id: str) -> str | None:
    """The channel whose thread the bot posted the run in; None: the bot never posted it (the Study's)."""
    tracked = await services.store.get_tracked_run(team_id=team_id, run_id=run_id)
    if tracked is not None:
        return tracked.channel_id
    ended = await services.store.get_run_result(team_id=team_id, run_id=run_id)
    return ended.channel_id if ended is not None else None


async def run_channels(services: Services, *, team_id: str, run_ids: Iterable[str]) -> dict[str, str | None]:
    """Run id → its channel (None: the Study's), for each of ``run_ids``."""
    return {run_id: await run_channel(services, team_id=team_id, run_id=run_id) for run_id in dict.fromkeys(run_ids)}


async def hidden_runs(invocation: Invocation, channels: Mapping[str, str | None]) -> frozenset[str]:
    """Of ``channels`` (run id → channel), the runs of channels the person is not in now: a list leaves them out
    and only counts them."""
    seen = await access.visible(
        invocation.services,
        invocation.client,
        team_id=invocation.team_id,
        user_id=invocation.user_id,
        channels=channels.values(),
    )
    return frozenset(run_id for run_id, channel in channels.items() if channel not in seen)


async def thread_links(invocation: Invocation, run_ids: Iterable[str]) -> dict[str, str]:
    """Run id → permalink of the Slack thread the bot posted that run in, for the threads of channels the person
    is in now."""
    links: dict[str, str] = {}
    store = invocation.services.store
    tracked_runs = []
    for run_id in run_ids:
        tracked = await store.get_tracked_run(team_id=invocation.team_id, run_id=run_id)
        if tracked is not None and (tracked.thread_ts or tracked.progress_ts):
            tracked_runs.append(tracked)
    hidden = await hidden_runs(invocation, {run.run_id: run.channel_id for run in tracked_runs})
    for tracked in tracked_runs:
        if tracked.run_id in hidden:
            continue
        ts = tracked.thread_ts or tracked.progress_ts or ""
        try:
            reply = await invocation.client.chat_getPermalink(channel=tracked.channel_id, message_ts=ts)
        except SlackApiError as exc:
            log.info("no permalink for a run's thread", extra={"fields": {"error": slack_error(exc)}})
            continue
        link = reply.get("permalink")
        if isinstance(link, str) and link.startswith(("https://", "http://")):
            links[tracked.run_id] = link
    return links
