"""Posting one digest: decide the window, claim it, read Minds, post to the channel, move the watermark.

Owns: the once-per-window guarantee (``store.claim_digest_run`` before anything is read or posted, released
when posting fails, completed — which moves the watermark — only after Slack accepted the post), coalescing
after downtime (``run_due`` posts only the latest missed fire: one post, never a burst), the quiet-period rule
(said once, or skipped when the digest says so) and creating digests from a validated schedule.
Must not touch: APScheduler (``scheduler.py`` only calls ``run_due``), Block Kit details, listener code.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import StrEnum
from typing import TYPE_CHECKING

from slack_sdk.web.async_client import AsyncWebClient

from minds_bot import i18n
from minds_bot.flows.digests.content import gather, unreadable
from minds_bot.flows.digests.schedule import Schedule, describe, latest_fire, schedule_of, window_key
from minds_bot.flows.digests.shared import SharedReads
from minds_bot.minds import MindsClient, MindsError
from minds_bot.render.digest import render_digest
from minds_bot.render.digest_news import DigestContent, ReadError, Watermark, WatermarkError
from minds_bot.render.errors import user_message
from minds_bot.store import Digest, Store

if TYPE_CHECKING:
    from minds_bot.services import Services

log = logging.getLogger(__name__)

MANUAL_PREFIX = "manual:"


class Outcome(StrEnum):
    POSTED = "posted"
    QUIET_SKIPPED = "quiet_skipped"  # nothing new, and the digest skips quiet periods (or said so already)
    NOT_DUE = "not_due"  # no fire since the last post
    TAKEN = "taken"  # another process (or an earlier delivery) holds or finished this window
    GONE = "gone"  # the digest was removed


@dataclass
class DigestFlow:
    """Posts digests. Clients are looked up per workspace; the clock decides which window is due; digests of
    one workspace firing together share their Minds reads (``shared``)."""

    store: Store
    minds: Callable[[str], Awaitable[MindsClient]]
    slack: Callable[[str], Awaitable[AsyncWebClient]]
    clock: Callable[[], datetime]
    shared: SharedReads = field(default_factory=SharedReads)
    language: Callable[[str], Awaitable[str]] | None = None  # a workspace's language: what its digests speak

    @classmethod
    def from_services(cls, services: Services) -> DigestFlow:
        return cls(
            store=services.store,
            minds=services.minds.client_for,
            slack=services.slack.client_for,
            clock=services.clock,
            language=services.languages.of_workspace,
        )

    async def run_due(self, digest_id: str) -> Outcome:
        """Post the digest for its latest scheduled fire not yet covered, if any. Safe to call any time, from
        any process, as often as wanted: a window is claimed once."""
        digest = await self.store.get_digest(digest_id)
        if digest is None:
            return Outcome.GONE
        fire = due_fire(digest, schedule_of(digest), now=self.clock())
        if fire is None:
            return Outcome.NOT_DUE
        return await self._run(digest, window_key(fire), requested_by=None)

    async def run_now(self, digest: Digest, *, request_key: str, requested_by: str) -> Outcome:
        """Post now on someone's request. ``request_key`` is derived from the request, so a redelivered
        request finds its window taken instead of posting twice."""
        return await self._run(digest, MANUAL_PREFIX + request_key, requested_by=requested_by)

    async def _run(self, digest: Digest, window: str, *, requested_by: str | None) -> Outcome:
        if not await self.store.claim_digest_run(digest_id=digest.digest_id, window_key=window):
            return Outcome.TAKEN
        try:
            return await self._post(digest, window, requested_by=requested_by)
        except BaseException:
            await self.store.release_digest_run(digest_id=digest.digest_id, window_key=window)
            raise

    async def _post(self, digest: Digest, window: str, *, requested_by: str | None) -> Outcome:
        """In the workspace's language: a channel reads it, whoever asked for it now."""
        language = await self.language(digest.team_id) if self.language is not None else None
        with i18n.speaking(language):
            return await self._post_in_language(digest, window, requested_by=requested_by)

    async def _post_in_language(self, digest: Digest, window: str, *, requested_by: str | None) -> Outcome:
        previous = _previous(digest)
        content = await self._content(digest, previous, window)
        if content.quiet and requested_by is None and (digest.skip_quiet or previous.quiet_said):
            await self._complete(digest, window, previous)
            return Outcome.QUIET_SKIPPED
        message = render_digest(content, schedule=describe(schedule_of(digest)), requested_by=requested_by)
        client = await self.slack(digest.team_id)
        await client.chat_postMessage(channel=digest.channel_id, unfurl_links=False, **message.as_kwargs())
        posted = replace(content.watermark, quiet_said=content.quiet, posted_at=self.clock())
        await self._complete(digest, window, posted)
        log.info("digest posted", extra={"fields": {"digest": digest.digest_id, "window": window}})
        return Outcome.POSTED

    async def _content(self, digest: Digest, previous: Watermark, window: str) -> DigestContent:
        try:
            client = await self.minds(digest.team_id)
        except MindsError as exc:
            return unreadable(previous, ReadError(what="Minds", message=user_message(exc)))
        if window.startswith(MANUAL_PREFIX):  # asked for now: read for itself
            return await gather(client, digest, previous)
        return await gather(self.shared.reader(client, team_id=digest.team_id, wave=window), digest, previous)

    async def _complete(self, digest: Digest, window: str, watermark: Watermark) -> None:
        await self.store.complete_digest_run(digest_id=digest.digest_id, window_key=window, watermark=watermark.dumps())


def due_fire(digest: Digest, schedule: Schedule, *, now: datetime) -> datetime | None:
    """The scheduled fire to post now: the latest one after the digest was created and last posted."""
    marks = [t for t in (digest.created_at, digest.last_posted_at) if t is not None]
    since = max(marks) if marks else now
    return latest_fire(schedule, now=now, since=since)


def _previous(digest: Digest) -> Watermark:
    try:
        return Watermark.loads(digest.watermark)
    except WatermarkError:
        # Start afresh rather than never posting again; the digest then shows each Study's latest runs.
        log.warning("digest watermark unreadable; starting afresh", extra={"fields": {"digest": digest.digest_id}})
        return Watermark()


def new_digest(
    *,
    team_id: str,
    channel_id: str,
    schedule: Schedule,
    study_ids: Sequence[str],
    created_by: str,
    skip_quiet: bool = False,
) -> Digest:
    """A new digest record with a short id people can type (``/minds digest remove dg-1a2b3c4d``)."""
    return Digest(
        digest_id=f"dg-{uuid.uuid4().hex[:8]}",
        team_id=team_id,
        channel_id=channel_id,
        schedule_kind=schedule.kind,
        spec=schedule.spec,
        tz=schedule.tz,
        study_ids=tuple(dict.fromkeys(study_ids)),
        created_by=created_by,
        skip_quiet=skip_quiet,
    )
