"""What ``/minds`` text parses into: one frozen dataclass per command (``Command``, their union), ``StudyRef`` (how
someone named a Study) and ``Usage`` (not a command: what to tell them instead).

Owns: the fields of every command, as the listeners read them. Must not touch: parsing (``grammar_tokens.py`` and
the command families' modules do that), limits, wording, I/O of any kind.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class StudyRef:
    """How the user named a Study: resolved later against Minds (exact id, exact name, fuzzy match). ``quoted``:
    the name was typed in quotes (or is the whole rest of the command), so no word of a question or an option
    can be part of it; an unquoted name followed by more words must match exactly (``slack/resolve.py``)."""

    text: str
    quoted: bool = field(default=False, compare=False)


@dataclass(frozen=True)
class Usage:
    """Not a command: what to tell the user instead."""

    message: str
    suggestion: str | None = None


@dataclass(frozen=True)
class Help:
    topic: str | None = None


@dataclass(frozen=True)
class Browse:
    kind: str  # "studies" | "audiences" | "minds"
    query: str | None = None


@dataclass(frozen=True)
class ShowStudy:
    study: StudyRef | None


@dataclass(frozen=True)
class Ask:
    study: StudyRef | None
    question: str | None


@dataclass(frozen=True)
class Plan:
    study: StudyRef | None
    request: str | None


@dataclass(frozen=True)
class Runs:
    study: StudyRef | None


@dataclass(frozen=True)
class Compare:
    study: StudyRef | None
    runs: tuple[str, ...] = ()  # as typed: a number in `/minds runs` (1 = newest, "#2" too) or a run id


@dataclass(frozen=True)
class Summary:
    study: StudyRef | None
    refresh: bool = False
    force: bool = False  # regenerate even when the saved summary still matches (only with refresh)
    length: str | None = None  # short | standard | detailed (only with refresh)


@dataclass(frozen=True)
class Export:
    study: StudyRef | None
    format: str | None = None
    kind: str | None = None
    length: str | None = None
    original: bool = False  # "original": a CSV exactly as Minds sent it, formula-like cells included
    force: bool = False  # "force": Minds generates the file anew instead of serving its cached one


@dataclass(frozen=True)
class Share:
    study: StudyRef | None
    enable: bool


@dataclass(frozen=True)
class Duplicate:
    """``duplicate <study> [as <name>]``: ``name`` None lets Minds name the copy (``<name> (copy)``)."""

    study: StudyRef | None
    name: str | None = None


@dataclass(frozen=True)
class StudyDelete:
    """``study delete <study>``: a confirmation dialog names the Study and what goes with it."""

    study: StudyRef | None


@dataclass(frozen=True)
class AudienceNew:
    brief: str | None


@dataclass(frozen=True)
class DigestAdd:
    channel: str | None  # channel id from a <#C…> mention; None = the current channel
    schedule: str  # "daily" | "weekly" | "cron"
    time: str | None = None  # "HH:MM" for daily/weekly
    weekday: str | None = None  # for weekly
    cron: str | None = None  # for cron
    timezone: str | None = None  # IANA name; None = the creator's Slack timezone
    studies: tuple[StudyRef, ...] = ()  # empty = all
    skip_quiet: bool = False  # "skip-quiet": post nothing for a period without news


@dataclass(frozen=True)
class DigestList:
    pass


@dataclass(frozen=True)
class DigestRemove:
    digest_id: str


@dataclass(frozen=True)
class DigestNow:
    digest_id: str


@dataclass(frozen=True)
class Approvers:
    action: str  # "add" | "remove" | "list"
    users: tuple[str, ...] = field(default=())


@dataclass(frozen=True)
class Connect:
    pass


@dataclass(frozen=True)
class StudyNew:
    """``study new [name]``: None opens the dialog with an empty name."""

    name: str | None


@dataclass(frozen=True)
class ExportProfile:
    """``export audience|mind <name> [format]``: an Audience brief or a Mind's persona profile."""

    kind: str  # "audience" | "mind"
    ref: StudyRef
    format: str | None = None


@dataclass(frozen=True)
class DuplicateAudience:
    audience: StudyRef


@dataclass(frozen=True)
class Drafts:
    pass


@dataclass(frozen=True)
class Templates:
    pass


@dataclass(frozen=True)
class Analytics:
    study: StudyRef


@dataclass(frozen=True)
class Chat:
    """Talk to one Mind in a thread: its id or name (spaces allowed, quotes optional)."""

    mind: str


@dataclass(frozen=True)
class Methods:
    query: str | None = None


@dataclass(frozen=True)
class ShowAudience:
    audience: str


@dataclass(frozen=True)
class AskAudience:
    audience: str | None
    question: str | None
    quoted: bool = field(default=False, compare=False)  # the name was quoted: no word of the question is in it


@dataclass(frozen=True)
class Recalibrate:
    audience: str | None


@dataclass(frozen=True)
class Invite:
    study: StudyRef
    emails: tuple[str, ...]
    role: str = "member"


@dataclass(frozen=True)
class Models:
    pass


@dataclass(frozen=True)
class Policy:
    """``/minds policy``: the channel's spend policy (``flows/spend.py``)."""


@dataclass(frozen=True)
class Activity:
    """``/minds activity [days]``: the channel's spends of the last ``days`` days."""

    days: int = 7


@dataclass(frozen=True)
class MindNew:
    """``mind new``: the dialog that creates a Mind."""


@dataclass(frozen=True)
class ShowMind:
    """``mind <name or id>``: a Mind's card (training, knowledge and what can be done with it)."""

    mind: str


Command = (
    Help
    | Browse
    | ShowStudy
    | Ask
    | Plan
    | Runs
    | Compare
    | Summary
    | Export
    | Share
    | Duplicate
    | StudyDelete
    | AudienceNew
    | MindNew
    | ShowMind
    | DigestAdd
    | DigestList
    | DigestRemove
    | DigestNow
    | Approvers
    | Connect
    | Chat
    | Analytics
    | StudyNew
    | ExportProfile
    | DuplicateAudience
    | Drafts
    | Templates
    | Methods
    | ShowAudience
    | AskAudience
    | Recalibrate
    | Invite
    | Models
    | Policy
    | Activity
)
