"""The ``/minds`` grammar: text in, a typed command or a usage message out. Pure; never raises on any input.

Owns: words, argument shapes, Study references (an id, a one-word name, or a "quoted name with spaces"; the
rest of the text where the Study is the last argument), "did you mean …" for unknown words, which missing
arguments are left empty so the listener can open a modal instead of refusing, and the length limit of every
argument (``FIELD_LIMITS``; the modals that ask for the same text share the constants): over-long input gets a
usage message that says the limit and is never echoed back whole (``too_long``, ``quote``).
Must not touch: I/O of any kind. Free text (a question, a plan request, a brief) is kept exactly as typed.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field, fields

from minds_bot.i18n import N_, _, format_number, sentences
from minds_bot.render.digest import MAX_DIGEST_ARGUMENT
from minds_bot.render.modals import MAX_QUESTION
from minds_bot.render.plan_dialogs import MAX_PLAN_REQUEST

QUOTES = {'"': '"', "“": "”", "„": "“", "«": "»"}
EXPORT_FORMATS = ("pdf", "md", "docx", "pptx", "csv", "xls", "sav")
EXPORT_KINDS = ("executive_brief", "full_report", "raw_data")
EXPORT_KIND_ALIASES = {"brief": "executive_brief", "report": "full_report", "raw": "raw_data", "data": "raw_data"}
EXPORT_LENGTHS = ("short", "standard", "detailed")
EXPORT_ORIGINAL = "original"
EXPORT_FORCE = "force"
EXPORT_USAGE = N_(
    'Say `/minds export "<study>" [pdf|md|docx|pptx|csv|xls|sav] [brief|report|raw] [short|standard|detailed] '
    "[original] [force]` (a Study name with spaces in quotes, or its id; `force` makes a new file)."
)
SUMMARY_LENGTHS = ("short", "standard", "detailed")  # POST /studies/{id}/summary `length` (CATALOGUE §3.11)
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
USER_MENTION = re.compile(r"^<@([UW][A-Z0-9]+)(?:\|[^>]*)?>$")
CHANNEL_MENTION = re.compile(r"^<#([CGD][A-Z0-9]+)(?:\|([^>]*))?>$")
TIME_OF_DAY = re.compile(r"^([01]?\d|2[0-3]):([0-5]\d)$")
MAX_QUERY = 200  # a browse query (Minds' own name search takes at most 200 characters)
MAX_STUDY_REF = 200  # a Study id or name as someone types it
MAX_BRIEF = 20_000  # an Audience brief (Minds takes more; nobody types more into a slash command)
MAX_DIGEST_STUDIES = 20
MAX_DIGEST_ID = 40
MAX_APPROVERS = 25  # people named in one `approvers add|remove`
MAX_QUOTED = 40  # of someone's word, said back in a usage message


# --- results -----------------------------------------------------------------------------------------------


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
    | AudienceNew
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


# --- tokens ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Token:
    value: str
    start: int
    end: int
    quoted: bool = field(default=False, compare=False)


def tokenize(text: str) -> list[Token]:
    """Whitespace-separated words; a quoted run (straight or typographic quotes) is one token without its quotes.
    An unclosed quote runs to the end of the text, as people mean it."""
    tokens: list[Token] = []
    i, n = 0, len(text)
    while i < n:
        if text[i].isspace():
            i += 1
            continue
        if text[i] in QUOTES:
            close = text.find(QUOTES[text[i]], i + 1)
            if close == -1 and text[i] == "„":
                close = text.find('"', i + 1)
            end = n if close == -1 else close
            tokens.append(Token(text[i + 1 : end].strip(), i, min(end + 1, n), quoted=True))
            i = end + 1
            continue
        j = i
        while j < n and not text[j].isspace():
            j += 1
        tokens.append(Token(text[i:j], i, j))
        i = j
    return tokens


def _rest(text: str, tokens: list[Token], index: int) -> str | None:
    """The text from token ``index`` on, exactly as typed (spacing and newlines kept)."""
    if index >= len(tokens):
        return None
    rest = text[tokens[index].start :].strip()
    return rest or None


def _study_and_rest(text: str, tokens: list[Token], index: int) -> tuple[StudyRef | None, str | None]:
    """``<study> <free text…>``: the study is one word or one quoted run; the rest is free text."""
    if index >= len(tokens) or not tokens[index].value:
        return None, _rest(text, tokens, index + 1)
    return StudyRef(tokens[index].value, quoted=tokens[index].quoted), _rest(text, tokens, index + 1)


def _study_tail(tokens: list[Token], text: str, index: int, stop: int | None = None) -> StudyRef | None:
    """``<study>`` as the last argument: a quoted run, or every remaining word (names have spaces)."""
    end = len(tokens) if stop is None else stop
    if index >= end:
        return None
    if tokens[index].quoted and end == index + 1:
        return StudyRef(tokens[index].value, quoted=True) if tokens[index].value else None
    name = text[tokens[index].start : tokens[end - 1].end].strip()
    quoted = False
    for opening, closing in QUOTES.items():
        if name.startswith(opening) and name.endswith(closing) and len(name) > 1:
            name, quoted = name[1:-1].strip(), True
    return StudyRef(name, quoted=quoted) if name else None


# --- commands ----------------------------------------------------------------------------------------------

WORDS = (
    "help",
    "studies",
    "audiences",
    "minds",
    "study",
    "ask",
    "plan",
    "runs",
    "compare",
    "summary",
    "export",
    "share",
    "duplicate",
    "audience",
    "digest",
    "approvers",
    "connect",
    "chat",
    "analytics",
    "drafts",
    "templates",
    "methods",
    "recalibrate",
    "invite",
    "models",
    "policy",
    "activity",
)
SYNONYMS = {
    "?": "help",
    "list": "studies",
    "audiences": "audiences",
    "approver": "approvers",
    "digests": "digest",
    "method": "methods",
    "model": "models",
    "policies": "policy",
    "spending": "activity",
}


def parse_command(text: str) -> Command | Usage:
    """Parse the text after ``/minds``. Never raises."""
    tokens = tokenize(text or "")
    if not tokens:
        return Help()
    word = tokens[0].value.lower()
    word = SYNONYMS.get(word, word)
    parser = _PARSERS.get(word)
    if parser is None:
        return _unknown(word)
    parsed = parser(text, tokens)
    return parsed if isinstance(parsed, Usage) else _within_limits(parsed)


def too_long(what: str, *, limit: int, length: int) -> str:
    """The usage message for over-long input: the limit and the length, never the text itself. ``what`` (the
    sentence's subject: "A question") is a message id marked with ``N_`` or text already translated."""
    # i18n: {what} is what was typed, as the sentence's subject: "A question", "A search", "A digest id"…
    return _(
        "{what} can be at most {limit} characters (yours has {length}).",
        what=_(what),
        limit=format_number(limit),
        length=format_number(length),
    )


def quote(word: str) -> str:
    """Someone's word said back in a message: shortened, so a 40,000-character word is not echoed whole."""
    return word if len(word) <= MAX_QUOTED else word[: MAX_QUOTED - 1] + "…"


# Field name → (what it is, in words, a message id for ``too_long``; the most characters it may have). One table
# for every command; every word of `digest …` is first held to MAX_DIGEST_ARGUMENT (its time, day, timezone, cron
# and Study names).
FIELD_LIMITS: dict[str, tuple[str, int]] = {
    "question": (N_("A question"), MAX_QUESTION),
    "request": (N_("A plan request"), MAX_PLAN_REQUEST),
    "query": (N_("A search"), MAX_QUERY),
    "study": (N_("A Study name or id"), MAX_STUDY_REF),
    "brief": (N_("An Audience brief"), MAX_BRIEF),
    "digest_id": (N_("A digest id"), MAX_DIGEST_ID),
}
# Field name → (the sentence, a message id with {limit} and {count}; the most items it may have).
COUNT_LIMITS: dict[str, tuple[str, int]] = {
    "studies": (N_("A digest can follow at most {limit} Studies (you named {count})."), MAX_DIGEST_STUDIES),
    "users": (N_("Name at most {limit} people at a time (you named {count})."), MAX_APPROVERS),
}


def _within_limits(command: Command) -> Command | Usage:
    for item in fields(command):
        value = getattr(command, item.name)
        counted = COUNT_LIMITS.get(item.name)
        if counted is not None and len(value) > counted[1]:
            return Usage(_(counted[0], limit=format_number(counted[1]), count=format_number(len(value))))
        limit = FIELD_LIMITS.get(item.name)
        texts = value if isinstance(value, tuple) else (value,)
        for text in texts:
            text = text.text if isinstance(text, StudyRef) else text
            if limit is not None and isinstance(text, str) and len(text) > limit[1]:
                return Usage(too_long(limit[0], limit=limit[1], length=len(text)))
    return command


def _unknown(word: str) -> Usage:
    close = difflib.get_close_matches(word, WORDS, n=1, cutoff=0.6) if len(word) <= MAX_QUOTED else []
    if close:
        said = _("I don't know `{word}`. Did you mean `/minds {command}`?", word=quote(word), command=close[0])
        return Usage(said, suggestion=close[0])
    return Usage(_("I don't know `{word}`. Try `/minds help` for the list of commands.", word=quote(word)))


def _help(text: str, tokens: list[Token]) -> Command | Usage:
    return Help(topic=tokens[1].value.lower() if len(tokens) > 1 else None)


def _browse(text: str, tokens: list[Token]) -> Command | Usage:
    return Browse(kind=SYNONYMS.get(tokens[0].value.lower(), tokens[0].value.lower()), query=_rest(text, tokens, 1))


def _study(text: str, tokens: list[Token]) -> Command | Usage:
    if len(tokens) > 1 and not tokens[1].quoted and tokens[1].value.lower() == "new":
        return _study_new(text, tokens)
    return ShowStudy(_study_tail(tokens, text, 1))


def _ask(text: str, tokens: list[Token]) -> Command | Usage:
    if len(tokens) >= 2 and not tokens[1].quoted and tokens[1].value.lower() == "audience":
        return _ask_audience(text, tokens)
    study, question = _study_and_rest(text, tokens, 1)
    return Ask(study, question)


def _plan(text: str, tokens: list[Token]) -> Command | Usage:
    study, request = _study_and_rest(text, tokens, 1)
    return Plan(study, request)


def _runs(text: str, tokens: list[Token]) -> Command | Usage:
    return Runs(_study_tail(tokens, text, 1))


RUN_REF = re.compile(r"^#?\d{1,3}$|^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", re.IGNORECASE)
MAX_COMPARED_RUNS = 2


def _compare(text: str, tokens: list[Token]) -> Command | Usage:
    """``compare <study> [run] [run]``: up to two trailing run references (a number or a run id); the words
    before them name the Study (quote a Study name that ends with a number)."""
    end = len(tokens)
    while end > 2 and len(tokens) - end < MAX_COMPARED_RUNS and not tokens[end - 1].quoted:  # noqa: PLR2004
        if not RUN_REF.match(tokens[end - 1].value):
            break
        end -= 1
    runs = tuple(t.value.lstrip("#") for t in tokens[end:])
    return Compare(_study_tail(tokens, text, 1, stop=end), runs=runs)


def _summary(text: str, tokens: list[Token]) -> Command | Usage:
    """``summary <study> [refresh [force] [short|standard|detailed]]``: options count only after ``refresh``."""
    options: dict[str, str] = {}
    stop = len(tokens)
    while stop > 3 and not tokens[stop - 1].quoted:
        word = tokens[stop - 1].value.lower()
        slot = "force" if word == "force" else "length" if word in SUMMARY_LENGTHS else None
        if slot is None or slot in options:
            break
        options[slot] = word
        stop -= 1
    refresh = stop > 2 and not tokens[stop - 1].quoted and tokens[stop - 1].value.lower() == "refresh"
    if not refresh:
        last_is_refresh = len(tokens) > 2 and not tokens[-1].quoted and tokens[-1].value.lower() == "refresh"
        end = len(tokens) - 1 if last_is_refresh else None
        return Summary(_study_tail(tokens, text, 1, end), refresh=last_is_refresh)
    return Summary(
        _study_tail(tokens, text, 1, stop - 1), refresh=True, force="force" in options, length=options.get("length")
    )


def _export(text: str, tokens: list[Token]) -> Command | Usage:
    """``export <study> [format] [kind] [length] [original] [force]``: the options are the trailing known words;
    a word the grammar does not know is refused with the usage, never folded into the Study name — after a quoted
    name every word must be an option, and an unquoted name cannot hold an option word (quote such a name)."""
    if len(tokens) > 1 and not tokens[1].quoted and tokens[1].value.lower() in PROFILE_KINDS:
        return _export_profile(text, tokens)
    options: dict[str, str] = {}
    stop = len(tokens)
    while stop > 2 and not tokens[stop - 1].quoted:
        word = tokens[stop - 1].value.lower()
        slot, value = _export_option(word)
        if slot is None or slot in options:
            break
        options[slot] = value
        stop -= 1
    unknown = _export_unknown(tokens, stop)
    if unknown is not None:
        said = _("I don't know `{word}` in `/minds export`.", word=quote(unknown))
        return Usage(sentences(said, _(EXPORT_USAGE)))
    study = _study_tail(tokens, text, 1, stop)
    return Export(
        study,
        format=options.get("format"),
        kind=options.get("kind"),
        length=options.get("length"),
        original="original" in options,
        force="force" in options,
    )


def _export_unknown(tokens: list[Token], stop: int) -> str | None:
    """The first word before the trailing options that cannot be part of the Study's name: any word after a
    quoted name, or the word after an option word inside an unquoted name (``pdf please``)."""
    if stop <= 2:  # noqa: PLR2004 - the command word and one name token
        return None
    if tokens[1].quoted:
        return tokens[stop - 1].value  # the word the trailing options stopped at
    for before, word in zip(tokens[1 : stop - 1], tokens[2:stop], strict=True):
        if _export_option(before.value.lower())[0] is not None or word.quoted:
            return word.value
    return None


def _export_option(word: str) -> tuple[str | None, str]:
    if word in EXPORT_FORMATS:
        return "format", word
    if word in EXPORT_KINDS or word in EXPORT_KIND_ALIASES:
        return "kind", EXPORT_KIND_ALIASES.get(word, word)
    if word in EXPORT_LENGTHS:
        return "length", word
    if word == EXPORT_ORIGINAL:
        return "original", word
    if word == EXPORT_FORCE:
        return "force", word
    return None, word


def _share(text: str, tokens: list[Token]) -> Command | Usage:
    last = tokens[-1].value.lower() if len(tokens) > 2 and not tokens[-1].quoted else ""
    if last not in ("on", "off"):
        return Usage(_("Say `/minds share <study> on` to turn on the public link, or `… off` to turn it off."))
    return Share(_study_tail(tokens, text, 1, len(tokens) - 1), enable=last == "on")


def _duplicate(text: str, tokens: list[Token]) -> Command | Usage:
    if len(tokens) > 1 and not tokens[1].quoted and tokens[1].value.lower() == "audience":
        return _duplicate_audience(text, tokens)
    return Duplicate(_study_tail(tokens, text, 1))


def _audience(text: str, tokens: list[Token]) -> Command | Usage:
    if len(tokens) < 2:
        return Usage(
            _(
                "Say `/minds audience <name>` for an Audience's card, `/minds audience new <brief>` to create one "
                "from a brief, or `/minds audiences` to browse them."
            ),
            suggestion="audiences",
        )
    if tokens[1].value.lower() == "new" and not tokens[1].quoted:
        return AudienceNew(_rest(text, tokens, 2))
    return _show_audience(text, tokens)


def _connect(text: str, tokens: list[Token]) -> Command | Usage:
    return Connect()


def _approvers(text: str, tokens: list[Token]) -> Command | Usage:
    action = tokens[1].value.lower() if len(tokens) > 1 else "list"
    if action not in ("add", "remove", "list"):
        return Usage(
            _("Say `/minds approvers add @someone`, `/minds approvers remove @someone` or `/minds approvers list`.")
        )
    if action == "list":
        return Approvers("list")
    users: list[str] = []
    bad: list[str] = []
    for token in tokens[2:]:
        match = USER_MENTION.match(token.value)
        (users if match else bad).append(match.group(1) if match else token.value)
    if bad or not users:
        return Usage(_("Name people with @mentions, e.g. `/minds approvers {action} @ana @ben`.", action=action))
    return Approvers(action, tuple(dict.fromkeys(users)))


SKIP_QUIET = "skip-quiet"
DIGEST_USAGE = N_(
    "Digest commands: `/minds digest add [#channel] daily 09:00 [timezone] [study…|all] [skip-quiet]`, "
    '`… weekly monday 09:00 …`, `… cron "0 9 * * 1" …`, `/minds digest list`, '
    "`/minds digest remove <id>`, `/minds digest now <id>`."
)


def _digest(text: str, tokens: list[Token]) -> Command | Usage:
    action = tokens[1].value.lower() if len(tokens) > 1 else "list"
    if action == "list":
        return DigestList()
    longest = max(tokens[2:], key=lambda t: len(t.value), default=None)
    if longest is not None and len(longest.value) > MAX_DIGEST_ARGUMENT:
        return Usage(too_long(N_("A digest argument"), limit=MAX_DIGEST_ARGUMENT, length=len(longest.value)))
    if action in ("remove", "now"):
        if len(tokens) != 3:
            return Usage(_("Say `/minds digest {action} <id>`; `/minds digest list` shows the ids.", action=action))
        return DigestRemove(tokens[2].value) if action == "remove" else DigestNow(tokens[2].value)
    if action != "add":
        return Usage(_(DIGEST_USAGE))
    return _digest_add(tokens[2:])


def _digest_add(tokens: list[Token]) -> Command | Usage:
    channel = None
    if tokens and (match := CHANNEL_MENTION.match(tokens[0].value)):
        channel, tokens = match.group(1), tokens[1:]
    if not tokens:
        return Usage(_(DIGEST_USAGE))
    schedule = tokens[0].value.lower()
    if schedule == "daily":
        return _digest_timed(channel, tokens[1:], schedule="daily", weekday=None)
    if schedule == "weekly":
        day = _weekday(tokens[1].value) if len(tokens) > 1 else None
        if day is None and len(tokens) > 1:
            return Usage(
                _(
                    "“{word}” is not a day of the week. A weekly digest needs a day, e.g. "
                    "`/minds digest add weekly monday 09:00`.",
                    word=quote(tokens[1].value),
                )
            )
        if day is None:
            return Usage(_("A weekly digest needs a day, e.g. `/minds digest add weekly monday 09:00`."))
        return _digest_timed(channel, tokens[2:], schedule="weekly", weekday=day)
    if schedule == "cron":
        if len(tokens) < 2 or not tokens[1].quoted or len(tokens[1].value.split()) != 5:
            return Usage(_('A cron digest needs five quoted fields, e.g. `/minds digest add cron "0 9 * * 1"`.'))
        timezone, studies, quiet = _tz_and_studies(tokens[2:])
        return DigestAdd(channel, "cron", cron=tokens[1].value, timezone=timezone, studies=studies, skip_quiet=quiet)
    return Usage(_(DIGEST_USAGE))


def _weekday(word: str) -> str | None:
    """A day name or its first three letters, as the full name."""
    word = word.lower()
    return next((day for day in WEEKDAYS if word in (day, day[:3])), None)


def _digest_timed(channel: str | None, tokens: list[Token], *, schedule: str, weekday: str | None) -> Command | Usage:
    if not tokens or not TIME_OF_DAY.match(tokens[0].value):
        return Usage(_no_time(schedule, quote(tokens[0].value) if tokens else None))
    hour, minute = TIME_OF_DAY.match(tokens[0].value).groups()  # type: ignore[union-attr]
    timezone, studies, quiet = _tz_and_studies(tokens[1:])
    return DigestAdd(
        channel,
        schedule,
        time=f"{int(hour):02d}:{minute}",
        weekday=weekday,
        timezone=timezone,
        studies=studies,
        skip_quiet=quiet,
    )


def _no_time(schedule: str, given: str | None) -> str:
    """Why a daily or weekly digest was refused: its time is missing (``given`` None) or not a time of day."""
    if given is None:
        if schedule == "weekly":
            return _("A weekly digest needs a time as HH:MM (24-hour), e.g. 09:00.")
        return _("A daily digest needs a time as HH:MM (24-hour), e.g. 09:00.")
    if schedule == "weekly":
        return _(
            "“{word}” is not a time of day. A weekly digest needs a time as HH:MM (24-hour), e.g. 09:00.", word=given
        )
    return _("“{word}” is not a time of day. A daily digest needs a time as HH:MM (24-hour), e.g. 09:00.", word=given)


def _tz_and_studies(tokens: list[Token]) -> tuple[str | None, tuple[StudyRef, ...], bool]:
    quiet = bool(tokens) and not tokens[-1].quoted and tokens[-1].value.lower() == SKIP_QUIET
    if quiet:
        tokens = tokens[:-1]
    timezone = None
    if tokens and not tokens[0].quoted and ("/" in tokens[0].value or tokens[0].value.upper() == "UTC"):
        timezone, tokens = tokens[0].value, tokens[1:]
    if len(tokens) == 1 and not tokens[0].quoted and tokens[0].value.lower() == "all":
        return timezone, (), quiet
    return timezone, tuple(StudyRef(t.value) for t in tokens if t.value), quiet


MAX_REF_CHARS = 200  # a Study's or Mind's id or name; longer text is not a name anyone typed on purpose
CHAT_USAGE = N_("Say `/minds chat <mind>` with a Mind's name or id (`/minds minds` lists them).")


def _chat(text: str, tokens: list[Token]) -> Command | Usage:
    ref = _study_tail(tokens, text, 1)
    if ref is None:
        return Usage(_(CHAT_USAGE))
    if len(ref.text) > MAX_REF_CHARS:
        return Usage(
            _("A Mind's name or id is at most {limit} characters. {usage}", limit=MAX_REF_CHARS, usage=_(CHAT_USAGE))
        )
    return Chat(ref.text)


ANALYTICS_USAGE = N_("Say `/minds analytics <study>` (or press Analytics on a Study card).")


def _analytics(text: str, tokens: list[Token]) -> Command | Usage:
    ref = _study_tail(tokens, text, 1)
    if ref is None:
        return Usage(_(ANALYTICS_USAGE))
    if len(ref.text) > MAX_REF_CHARS:
        usage = _(ANALYTICS_USAGE)
        return Usage(_("A Study's name or id is at most {limit} characters. {usage}", limit=MAX_REF_CHARS, usage=usage))
    return Analytics(ref)


MAX_STUDY_NAME_CHARS = 200
STUDY_NEW_USAGE = N_(  # {limit}: MAX_STUDY_NAME_CHARS
    "Say `/minds study new <name>` (at most {limit} characters); a dialog then asks for its "
    'Audiences. To open a Study whose name starts with "new", quote it: `/minds study "New …"`.'
)


def _study_new(text: str, tokens: list[Token]) -> Command | Usage:
    ref = _study_tail(tokens, text, 2)
    if ref is None:
        return StudyNew(None)
    if len(ref.text) > MAX_STUDY_NAME_CHARS:
        return Usage(
            _(
                "That name is {length} characters; a Study name is at most {limit}. {usage}",
                length=len(ref.text),
                limit=MAX_STUDY_NAME_CHARS,
                usage=_(STUDY_NEW_USAGE, limit=MAX_STUDY_NAME_CHARS),
            )
        )
    return StudyNew(ref.text)


PROFILE_KINDS = ("audience", "mind")
PROFILE_FORMATS = ("pdf", "md", "docx", "pptx")
# Message ids with {limit}: MAX_REF_CHARS.
PROFILE_USAGE = N_(
    "Say `/minds export audience <name> [pdf|md|docx|pptx]` or `/minds export mind <name> [format]` "
    "(a name or id of at most {limit} characters). To export a Study whose name starts with "
    '"audience" or "mind", quote its name.'
)
DUPLICATE_AUDIENCE_USAGE = N_("Say `/minds duplicate audience <name>` (a name or id of at most {limit} characters).")


def _bounded(ref: StudyRef | None, usage: str) -> StudyRef | Usage:
    """``ref`` when it is short enough; otherwise ``usage`` (a message id with {limit}) and why."""
    said = _(usage, limit=MAX_REF_CHARS)
    if ref is None:
        return Usage(said)
    if len(ref.text) > MAX_REF_CHARS:
        return Usage(
            _(
                "That name is {length} characters; at most {limit}. {usage}",
                length=len(ref.text),
                limit=MAX_REF_CHARS,
                usage=said,
            )
        )
    return ref


def _export_profile(text: str, tokens: list[Token]) -> Command | Usage:
    kind = tokens[1].value.lower()
    last = tokens[-1]
    fmt = last.value.lower() if len(tokens) > 3 and not last.quoted and last.value.lower() in PROFILE_FORMATS else None
    ref = _bounded(_study_tail(tokens, text, 2, len(tokens) - 1 if fmt else None), PROFILE_USAGE)
    return ref if isinstance(ref, Usage) else ExportProfile(kind, ref, fmt)


def _duplicate_audience(text: str, tokens: list[Token]) -> Command | Usage:
    ref = _bounded(_study_tail(tokens, text, 2), DUPLICATE_AUDIENCE_USAGE)
    return ref if isinstance(ref, Usage) else DuplicateAudience(ref)


# --- research tools: methods, the Audience card, asking an Audience, recalibration, invitations, models ------

MAX_QUERY = 200  # a search over names
MAX_NAME = 200  # an Audience or Study name (or id)
MAX_QUESTION = 3000  # one respondent-visible question (as the Ask dialog allows)
MAX_INVITES = 100  # Minds takes 1-100 emails per invitation
MAX_EMAIL = 254
EMAIL = re.compile(r"^[^@\s<>|]+@[^@\s<>|]+\.[^@\s<>|]+$")
MAILTO = re.compile(r"^<mailto:([^|>]+)(?:\|[^>]*)?>$")
INVITE_ROLES = ("member", "admin")
INVITE_USAGE = N_(  # {limit}: MAX_INVITES
    "Say `/minds invite <study> someone@example.com … [admin]` to invite up to "
    "{limit} people to a Study (role member unless you add `admin`)."
)


def _too_long(message: str, limit: int, usage: str) -> Usage:
    """``message`` (a message id with {limit} and {usage}: "The search is too long: …") filled in."""
    return Usage(_(message, limit=format_number(limit), usage=usage))


def _methods(text: str, tokens: list[Token]) -> Command | Usage:
    query = _rest(text, tokens, 1)
    if query is not None and len(query) > MAX_QUERY:
        return _too_long(
            N_("The search is too long: at most {limit} characters. {usage}"),
            MAX_QUERY,
            _("Say `/minds methods [query]`, e.g. `/minds methods pricing`."),
        )
    return Methods(query)


AUDIENCE_NAME_TOO_LONG = N_("The Audience name is too long: at most {limit} characters. {usage}")


def _audience_name(text: str, tokens: list[Token], index: int) -> str | None:
    ref = _study_tail(tokens, text, index)
    return ref.text if ref else None


def _show_audience(text: str, tokens: list[Token]) -> Command | Usage:
    name = _audience_name(text, tokens, 1)
    if name is None:
        return Usage(_("Say `/minds audience <name>` for an Audience's card."))
    if len(name) > MAX_NAME:
        return _too_long(AUDIENCE_NAME_TOO_LONG, MAX_NAME, _("Say `/minds audience <name>`."))
    return ShowAudience(name)


ASK_AUDIENCE_USAGE = N_('Say `/minds ask audience <name> <question>`, e.g. `/minds ask audience "Gen Z" Why…?`.')


def _ask_audience(text: str, tokens: list[Token]) -> Command | Usage:
    name, question = _study_and_rest(text, tokens, 2)
    if name is not None and len(name.text) > MAX_NAME:
        return _too_long(AUDIENCE_NAME_TOO_LONG, MAX_NAME, _(ASK_AUDIENCE_USAGE))
    if question is not None and len(question) > MAX_QUESTION:
        return _too_long(
            N_("The question is too long: at most {limit} characters. {usage}"), MAX_QUESTION, _(ASK_AUDIENCE_USAGE)
        )
    return AskAudience(name.text if name else None, question, quoted=name.quoted if name else False)


def _recalibrate(text: str, tokens: list[Token]) -> Command | Usage:
    name = _audience_name(text, tokens, 1)
    if name is not None and len(name) > MAX_NAME:
        return _too_long(AUDIENCE_NAME_TOO_LONG, MAX_NAME, _("Say `/minds recalibrate <audience>`."))
    return Recalibrate(name)


def _invite(text: str, tokens: list[Token]) -> Command | Usage:
    usage = _(INVITE_USAGE, limit=MAX_INVITES)
    if len(tokens) < 3 or not tokens[1].value:
        return Usage(usage)
    if len(tokens[1].value) > MAX_NAME:
        return _too_long(N_("The Study name is too long: at most {limit} characters. {usage}"), MAX_NAME, usage)
    words = [t.value for t in tokens[2:]]
    role = "member"
    if words and words[-1].lower() in INVITE_ROLES:
        role = words.pop().lower()
    emails = [_email(w) for w in words]
    bad = [w for w, e in zip(words, emails, strict=True) if e is None]
    if bad:
        return Usage(_("“{word}” is not an email address. {usage}", word=bad[0][:MAX_EMAIL], usage=usage))
    if not emails:
        return Usage(usage)
    unique = tuple(dict.fromkeys(e for e in emails if e))
    if len(unique) > MAX_INVITES:
        return Usage(
            _(
                "At most {limit} people per invitation; you named {count}. {usage}",
                limit=MAX_INVITES,
                count=len(unique),
                usage=usage,
            )
        )
    return Invite(StudyRef(tokens[1].value), unique, role)


def _email(word: str) -> str | None:
    """An address as typed, or as Slack formats it (``<mailto:a@b.c|a@b.c>``); None when it is not one."""
    match = MAILTO.match(word)
    address = (match.group(1) if match else word).strip()
    return address if len(address) <= MAX_EMAIL and EMAIL.match(address) else None


ACTIVITY_DAYS = (1, 90)  # the period `/minds activity` lists, in days


def _activity(text: str, tokens: list[Token]) -> Command | Usage:
    if len(tokens) == 1:
        return Activity()
    word = tokens[1].value
    low, high = ACTIVITY_DAYS
    if len(tokens) == 2 and word.isascii() and word.isdigit() and len(word) <= 3 and low <= int(word) <= high:
        return Activity(days=int(word))
    return Usage(
        _(
            "Say `/minds activity` for the last 7 days, or `/minds activity <days>` with a number of days from "
            "{low} to {high}.",
            low=format_number(low),
            high=format_number(high),
        )
    )


def _models(text: str, tokens: list[Token]) -> Command | Usage:
    return Models()


_PARSERS = {
    "help": _help,
    "studies": _browse,
    "audiences": _browse,
    "minds": _browse,
    "study": _study,
    "ask": _ask,
    "plan": _plan,
    "runs": _runs,
    "compare": _compare,
    "summary": _summary,
    "export": _export,
    "share": _share,
    "duplicate": _duplicate,
    "audience": _audience,
    "digest": _digest,
    "approvers": _approvers,
    "connect": _connect,
    "chat": _chat,
    "analytics": _analytics,
    "drafts": lambda text, tokens: Drafts(),
    "templates": lambda text, tokens: Templates(),
    "methods": _methods,
    "recalibrate": _recalibrate,
    "invite": _invite,
    "models": _models,
    "policy": lambda text, tokens: Policy(),
    "activity": _activity,
}
