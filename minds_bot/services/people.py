"""What the bot keeps about people between requests: their fair share of a workspace's Minds work, Slack's recent
answers about channel membership, and the languages people and workspaces speak.

Owns: ``FairShare`` (bounds what one person may have running in a workspace, so one person's flood cannot hold up
everyone else's commands), ``Memberships`` (the gate's recent answers, kept seconds) and ``Languages``.
Must not touch: deciding who may act (``flows/access.py``), rendering, listener registration.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from minds_bot import i18n
from minds_bot.minds.policy import RateLimiter, caller
from minds_bot.store import Store

log = logging.getLogger(__name__)


MAX_IN_FLIGHT_PER_PERSON = 3  # commands one person may have running in one workspace at once
TYPICAL_COMMAND_SECONDS = 10.0  # the guess of how long a command takes until some have finished
WAIT_STEP_SECONDS = 5  # "try again in about N seconds" is said in steps of this many seconds
_RECENT_WEIGHT = 0.3  # how much the latest command's duration moves the typical one


@dataclass(frozen=True)
class Busy:
    """Why a person's command is not started now, and about when to try again."""

    reason: Literal["in_flight", "share"]
    in_flight: int
    seconds: int


# The ``running`` entry the current work is counted as (a fresh object per entry), so that ``busy`` asked from
# inside that work does not count it against itself.
_counted_as: ContextVar[object | None] = ContextVar("fair_share_counted_as", default=None)


@dataclass
class FairShare:
    """Per-workspace Minds work queued per person, with a bound.

    A person may have ``MAX_IN_FLIGHT_PER_PERSON`` commands running at once, and use at most the Minds
    limiter's caller share of the key's window (``RateLimiter.share_wait``, counted across replicas); beyond that
    ``busy`` says how long to wait. Inside ``running`` every Minds call is made for that person, so the limiter serves
    people round robin. ``busy`` asked from inside a person's own ``running`` work (the gate, before a command or a
    button spends) does not count that work itself: it is the one asking."""

    clock: Callable[[], datetime]
    _running: dict[tuple[str, str], list[datetime]] = field(default_factory=dict)
    _live: dict[object, tuple[str, str]] = field(default_factory=dict)  # running entry → whose
    _typical: float = TYPICAL_COMMAND_SECONDS

    @staticmethod
    def caller_for(*, team_id: str, user_id: str) -> str:
        return f"{team_id}:{user_id}"

    async def busy(self, *, team_id: str, user_id: str, limiter: RateLimiter | None) -> Busy | None:
        """None when the person may start one more command now."""
        running = self._running.get((team_id, user_id), [])
        itself = 1 if self.counts_current(team_id=team_id, user_id=user_id) else 0
        if len(running) - itself >= MAX_IN_FLIGHT_PER_PERSON:
            age = (self.clock() - running[0]).total_seconds()
            return Busy("in_flight", len(running) - itself, _about(self._typical - age))
        share_wait = await limiter.share_wait(self.caller_for(team_id=team_id, user_id=user_id)) if limiter else 0.0
        if share_wait > 0:
            return Busy("share", len(running), _about(share_wait))
        return None

    def counts_current(self, *, team_id: str, user_id: str) -> bool:
        """Whether the work asking already runs as this person's (inside their ``running``)."""
        return self._live.get(_counted_as.get()) == (team_id, user_id)

    @asynccontextmanager
    async def running(self, *, team_id: str, user_id: str) -> AsyncIterator[None]:
        """Count one command as running for the person, its Minds calls made on their behalf."""
        key, started, entry = (team_id, user_id), self.clock(), object()
        self._running.setdefault(key, []).append(started)
        self._live[entry] = key
        token, counted = caller.set(self.caller_for(team_id=team_id, user_id=user_id)), _counted_as.set(entry)
        try:
            yield
        finally:
            caller.reset(token)
            _counted_as.reset(counted)
            del self._live[entry]
            self._running[key].remove(started)
            if not self._running[key]:
                del self._running[key]
            took = (self.clock() - started).total_seconds()
            self._typical += _RECENT_WEIGHT * (took - self._typical)


def _about(seconds: float) -> int:
    return max(WAIT_STEP_SECONDS, math.ceil(seconds / WAIT_STEP_SECONDS) * WAIT_STEP_SECONDS)


MEMBERSHIP_SECONDS = 10.0  # how long "is this person in that channel" is trusted for what is only shown
MAX_MEMBERSHIPS = 50_000  # answers kept; beyond, the cache starts again


class Memberships:
    """Slack's recent answers to "is this person in that channel" (and "is that channel private"), kept
    ``MEMBERSHIP_SECONDS`` so a list or a Home does not ask Slack once per line; the gate (``flows/access.py``)
    asks again before anything is posted, decided or spent. Keys are the gate's own tuples."""

    def __init__(self, *, seconds: float = MEMBERSHIP_SECONDS, clock: Callable[[], float] = time.monotonic) -> None:
        self._seconds, self._clock = seconds, clock
        self._known: dict[tuple[str, ...], tuple[float, bool]] = {}

    def get(self, key: tuple[str, ...]) -> bool | None:
        found = self._known.get(key)
        if found is None or self._clock() - found[0] >= self._seconds:
            return None
        return found[1]

    def put(self, key: tuple[str, ...], value: bool) -> None:
        if len(self._known) >= MAX_MEMBERSHIPS:
            self._known.clear()
        self._known[key] = (self._clock(), value)


USER_LANGUAGE_SECONDS = 600.0  # how long a person's Slack locale is trusted before users.info is asked again
WORKSPACE_LANGUAGE_SECONDS = 60.0  # another replica's /minds connect reaches this one within this long
USER_LOOKUP_SECONDS = 1.0  # users.info slower than this: the workspace's language this time


class Languages:
    """Which of the bot's languages a person and a workspace speak.

    A person speaks their Slack locale (``users.info`` with ``include_locale``, kept ``USER_LANGUAGE_SECONDS``)
    when the bot speaks it; otherwise, and for everything posted to a channel, the workspace's language from
    ``/minds connect``; before a language was saved there, the Slack locale of the person who installed the app
    (the OAuth installation's installer, asked with the ``client`` of the request at first use and remembered);
    otherwise English. A failed or slow lookup is not remembered. While the store cannot be reached,
    ``of_person_without_store`` answers from Slack and what was last read (``slack/outage.py``).
    """

    def __init__(self, store: Store, *, clock: Callable[[], float] = time.monotonic) -> None:
        self._store = store
        self._clock = clock
        self._people: dict[tuple[str, str], tuple[float, str | None]] = {}
        self._workspaces: dict[str, tuple[float, str]] = {}
        self._installers: dict[str, str] = {}  # the installer's language as last learned, for work without a request

    async def of_workspace(self, team_id: str, client: Any = None) -> str:
        """The language of what is posted to the workspace's channels: the one ``/minds connect`` saved, else the
        installer's Slack locale (asked with ``client`` when it is not known yet), else English."""
        now = self._clock()
        cached = self._workspaces.get(team_id)
        if cached is not None and now - cached[0] < WORKSPACE_LANGUAGE_SECONDS:
            return cached[1]
        workspace = await self._store.get_workspace(team_id) if team_id else None
        if workspace is not None:
            language = i18n.language_of(workspace.default_language) or i18n.SOURCE_LANGUAGE
        else:
            installer = await self._installer(team_id)
            known = self._people.get((team_id, installer)) if installer else None
            if installer is None:
                language = i18n.SOURCE_LANGUAGE
            elif known is not None and now - known[0] < USER_LANGUAGE_SECONDS:
                language = known[1] or i18n.SOURCE_LANGUAGE
            elif client is None:  # nobody's request to ask Slack with (a digest, a run's end): as last learned
                return self._installers.get(team_id, i18n.SOURCE_LANGUAGE)
            else:
                language = await self._person_locale(client, team_id, installer) or i18n.SOURCE_LANGUAGE
            self._installers[team_id] = language
        self._workspaces[team_id] = (now, language)
        return language

    async def of_installer(self, client: Any, team_id: str) -> str | None:
        """The Slack locale of the person who installed the app in ``team_id`` (its latest OAuth installation)
        when the bot speaks it: the first language a workspace is offered. None without an installation or such
        a locale."""
        installer = await self._installer(team_id)
        return await self._person_locale(client, team_id, installer) if installer and client is not None else None

    async def _installer(self, team_id: str) -> str | None:
        if not team_id:
            return None
        installation = await self._store.find_installation(enterprise_id=None, team_id=team_id)
        return installation.user_id if installation is not None and installation.user_id else None

    async def of_person(self, client: Any, *, team_id: str, user_id: str) -> str:
        """The person's language, else the workspace's."""
        return await self._person_locale(client, team_id, user_id) or await self.of_workspace(team_id)

    async def of_person_without_store(self, client: Any, *, team_id: str, user_id: str | None) -> str:
        """The person's language while the store cannot be reached: their Slack locale, else the workspace's
        language as last read (however long ago), else English. Never asks the store."""
        if user_id and client is not None and (language := await self._person_locale(client, team_id, user_id)):
            return language
        known = self._workspaces.get(team_id)
        return known[1] if known is not None else i18n.SOURCE_LANGUAGE

    async def _person_locale(self, client: Any, team_id: str, user_id: str) -> str | None:
        now = self._clock()
        cached = self._people.get((team_id, user_id))
        if cached is not None and now - cached[0] < USER_LANGUAGE_SECONDS:
            return cached[1]
        try:
            async with asyncio.timeout(USER_LOOKUP_SECONDS):
                reply = await client.users_info(user=user_id, include_locale=True)
        except Exception as exc:  # noqa: BLE001 - any failure: the workspace's language now, asked again next time
            log.info("users.info for the person's language failed: %s", type(exc).__name__)
            return None
        user = reply.get("user") if hasattr(reply, "get") else None
        language = i18n.language_of(user.get("locale")) if isinstance(user, dict) else None
        if len(self._people) > 50_000:
            self._people.clear()
        self._people[(team_id, user_id)] = (now, language)
        return language

    def forget_person(self, *, team_id: str, user_id: str) -> None:
        """After Slack said the person's profile changed: their locale is read again next time."""
        self._people.pop((team_id, user_id), None)

    def forget_workspace(self, team_id: str) -> None:
        """After ``/minds connect`` saved a new language."""
        self._workspaces.pop(team_id, None)
