"""What listeners, flows and background work share, created once at start and passed down.

Owns: ``Services`` (settings, store, clock, the per-workspace Minds and Slack clients, background work, and the
roles the composition plugs in — ``minds_bot.composition``). What it holds lives next to it, by what each owns:
``minds_keys`` (``MindsDirectory``, ``NotConnected``), ``slack_web`` (``SlackDirectory``, ``ChannelPacer``,
``PacedWebClient``), ``people`` (``FairShare``, ``Memberships``, ``Languages``), ``background`` (``Background``,
``Periodic``, ``Resume``, ``Followups``) and ``roles`` (the protocols of the run tracker, run handlers, Home tabs
and stimulus shelf). Every name is importable from ``minds_bot.services``.
Must not touch: Slack rendering or listener registration.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from minds_bot.services.background import Background, Followups, Periodic, Resume
from minds_bot.services.minds_keys import MindsDirectory, NotConnected
from minds_bot.services.people import MAX_IN_FLIGHT_PER_PERSON, Busy, FairShare, Languages, Memberships
from minds_bot.services.roles import Composed, HomeTabs, Observation, RunHandler, RunTracking, StimulusShelf, TellsEnds
from minds_bot.services.slack_web import (
    SLACK_RATE_LIMIT_RETRIES,
    ChannelPacer,
    NotInstalled,
    PacedWebClient,
    SlackDirectory,
    paced,
    slack_web_client,
)
from minds_bot.settings import Settings
from minds_bot.store import RunKind, Store, new_holder_id, utc_now

__all__ = [
    "MAX_IN_FLIGHT_PER_PERSON",
    "SLACK_RATE_LIMIT_RETRIES",
    "Background",
    "Busy",
    "ChannelPacer",
    "Composed",
    "FairShare",
    "Followups",
    "HomeTabs",
    "Languages",
    "Memberships",
    "MindsDirectory",
    "NotConnected",
    "NotInstalled",
    "Observation",
    "PacedWebClient",
    "Periodic",
    "Resume",
    "RunHandler",
    "RunTracking",
    "Services",
    "SlackDirectory",
    "StimulusShelf",
    "TellsEnds",
    "paced",
    "slack_web_client",
]


@dataclass
class Services:
    """Shared by every listener and flow; built once in ``app.open_bot`` (and by tests), its roles plugged in by
    ``minds_bot.composition.compose`` (the run handlers, the tracker, the Home tabs, the stimulus shelf and the
    background work) before any listener runs."""

    settings: Settings
    store: Store
    minds: MindsDirectory
    slack: SlackDirectory
    clock: Callable[[], datetime] = utc_now
    background: list[Background] = field(default_factory=list)  # started in order, stopped in reverse
    run_handlers: dict[RunKind, RunHandler] = field(default_factory=dict)  # read by the tracker
    followups: Followups = field(default_factory=Followups)  # charts and reports after a posted result
    method_catalogues: dict[str, Any] = field(default_factory=dict)  # per workspace; see flows/methods.py
    connection_lists: dict[str, Any] = field(default_factory=dict)  # per workspace; flows/model_connections
    replica: str = field(default_factory=new_holder_id)  # this process's name in the store's leases
    workspace_urls: dict[str, str] = field(default_factory=dict)  # team id -> auth.test's url (flows/stimulus_link)
    fair: FairShare = field(init=False)
    languages: Languages = field(init=False)
    memberships: Memberships = field(default_factory=Memberships)  # the gate's recent answers (flows/access.py)
    composed: bool = False  # the roles below are plugged in (minds_bot.composition.compose)
    # Plugged in by the composition; reading one before is an error that says so.
    tracker = Composed[RunTracking]()  # follows started runs (flows/tracking.py)
    home = Composed[HomeTabs]()  # the App Home tabs (flows/home.py)
    stimuli = Composed[StimulusShelf]()  # files Minds fetches for "Ask Minds about this" (flows/stimulus.py)

    def __post_init__(self) -> None:
        self.fair = FairShare(clock=self.clock)
        self.languages = Languages(self.store)

    def home_changed(self, record: Any) -> None:
        """A plan post, tracked run or digest changed: the Home tabs that show it are refreshed (paced)."""
        if self.composed:
            self.home.changed(record)

    async def outcome_in_channel(self, team_id: str) -> bool:
        """Whether the closing line a run leaves in the channel says how it ended (else only that it ended)."""
        workspace = await self.store.get_workspace(team_id)
        return workspace.outcome_in_channel if workspace else self.settings.minds_outcome_in_channel

    @classmethod
    def build(cls, settings: Settings, store: Store, *, clock: Callable[[], datetime] = utc_now) -> Services:
        slack = SlackDirectory(settings, store)
        return cls(
            settings=settings,
            store=store,
            minds=MindsDirectory(settings, store, served_teams=slack.served_teams),
            slack=slack,
            clock=clock,
        )
