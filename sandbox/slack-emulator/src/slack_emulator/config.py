"""Configuration of the local Slack emulator: the workspace it pretends to be and where the bot listens.

Owns the demo workspace defaults (team, users, channels). Must not touch runtime state or the network.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

DEFAULT_PORT = 3300
# Slack gives an app 3 seconds to acknowledge an interaction before the user sees an error.
ACK_TIMEOUT_SECONDS = 3.0
# A trigger_id may open a modal only within 3 seconds of the interaction that issued it.
TRIGGER_TTL_SECONDS = 3.0


@dataclass(frozen=True)
class DemoUser:
    """A workspace member the person at the browser (or a test) can act as."""

    id: str
    name: str
    real_name: str
    locale: str
    tz: str
    is_admin: bool = False
    is_owner: bool = False


@dataclass(frozen=True)
class DemoChannel:
    """A channel of the emulated workspace: public, or private when ``private_members`` names who is in it
    (user ids; only they see it, and the bot only when ``bot_is_member``)."""

    id: str
    name: str
    topic: str = ""
    bot_is_member: bool = True
    private_members: tuple[str, ...] | None = None


def default_users() -> tuple[DemoUser, ...]:
    return (
        DemoUser(
            id="U01ADA0001",
            name="ada",
            real_name="Ada Lovelace",
            locale="en-GB",
            tz="Europe/London",
            is_admin=True,
            is_owner=True,
        ),
        DemoUser(id="U01BEN0002", name="ben", real_name="Ben Okafor", locale="en-US", tz="America/New_York"),
        DemoUser(id="U01CHL0003", name="chloe", real_name="Chloé Martin", locale="fr-FR", tz="Europe/Paris"),
    )


def default_channels() -> tuple[DemoChannel, ...]:
    return (
        DemoChannel(id="C01GEN0001", name="general", topic="Company-wide announcements"),
        DemoChannel(id="C01RES0002", name="research", topic="Market research with Minds"),
        DemoChannel(id="C01BRA0003", name="brand", topic="Brand and creative"),
        # Private channels: one the bot was invited to, one it was not (Chloé is in neither).
        DemoChannel(
            id="C01LEA0004",
            name="leadership",
            topic="Private: pricing decisions",
            private_members=("U01ADA0001", "U01BEN0002"),
        ),
        DemoChannel(
            id="C01PEO0005",
            name="people-team",
            topic="Private: without the app",
            bot_is_member=False,
            private_members=("U01ADA0001",),
        ),
    )


@dataclass(frozen=True)
class EmulatorConfig:
    """Everything the emulator needs; pass one object down, read nothing from the environment.

    ``ratelimited_methods`` maps a Web API method to the Retry-After seconds it answers with on every call
    (a standing 429), e.g. ``{"chat.postMessage": 2}``; the control endpoint adds counted ones at runtime.
    """

    host: str = "127.0.0.1"
    port: int = DEFAULT_PORT
    # Obviously fake defaults: the emulator only ever talks to a bot on this machine.
    signing_secret: str = "emulator-signing-secret"  # noqa: S105
    bot_token: str = "xoxb-emu"  # noqa: S105 - the local stand-in's, not a Slack token
    bot_events_url: str = "http://127.0.0.1:3000/slack/events"
    team_id: str = "T01EMU0000"
    team_name: str = "Minds Demo"
    team_domain: str = "minds-demo"
    # The workspace's language as Slack gives it for its channels (conversations.info with include_locale);
    # an admin changes it on the page. Each person's own locale is ``DemoUser.locale``.
    team_locale: str = "en-US"
    app_id: str = "A01EMU0000"
    bot_user_id: str = "U01BOT0000"
    bot_id: str = "B01BOT0000"
    bot_name: str = "minds"
    verification_token: str = "emulator-verification-token"  # noqa: S105
    users: tuple[DemoUser, ...] = field(default_factory=default_users)
    channels: tuple[DemoChannel, ...] = field(default_factory=default_channels)
    ratelimited_methods: Mapping[str, int] = field(default_factory=dict)
    # Slack's own limits, enforced with 429s (``pace.SlackPace``): off by default so a demo is never slowed.
    slack_limits: bool = False
    # More installs of the app sharing these channels: bot token -> team id (each its own workspace's limits).
    installs: Mapping[str, str] = field(default_factory=dict)
    # The channel (by name) the page opens in when its address names none; the first channel when None.
    start_channel: str | None = None
    # A sentence the page shows above every screen (the demo says its answers are simulated); none when None.
    notice: str | None = None
    ack_timeout: float = ACK_TIMEOUT_SECONDS
    trigger_ttl: float = TRIGGER_TTL_SECONDS
    clock: Callable[[], float] | None = None
