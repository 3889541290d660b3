"""The Study commands of ``/minds``: ``study`` (and ``study new``), ``ask``, ``plan``, ``runs``, ``compare``,
``summary``, ``export``, ``share``, ``duplicate``, ``chat``, ``analytics`` and ``invite``: their options, the
trailing words that are options rather than part of a Study's name, and their usage messages.

Owns: the export and summary option words, run references, the invitation's addresses and roles. Must not touch:
tokenizing (``grammar_tokens.py``), the command table and the limits every field is held to (``grammar.py``),
Audience commands (``grammar_audience.py``), I/O of any kind.
"""

from __future__ import annotations

import re

from minds_bot.i18n import N_, _, sentences
from minds_bot.slack.grammar_audience import PROFILE_KINDS, _ask_audience, _duplicate_audience, _export_profile
from minds_bot.slack.grammar_commands import (
    Analytics,
    Ask,
    Chat,
    Command,
    Compare,
    Duplicate,
    Export,
    Invite,
    Plan,
    Runs,
    Share,
    ShowStudy,
    StudyDelete,
    StudyNew,
    StudyRef,
    Summary,
    Usage,
)
from minds_bot.slack.grammar_tokens import (
    MAX_NAME,
    MAX_REF_CHARS,
    QUOTES,
    Token,
    _rest,
    _study_and_rest,
    _study_tail,
    _too_long,
    quote,
    too_long,
)

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


def _study(text: str, tokens: list[Token]) -> Command | Usage:
    if len(tokens) > 1 and not tokens[1].quoted and tokens[1].value.lower() == "new":
        return _study_new(text, tokens)
    if len(tokens) > 1 and not tokens[1].quoted and tokens[1].value.lower() == "delete":
        return StudyDelete(_study_tail(tokens, text, 2))
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
    while end > 2 and len(tokens) - end < MAX_COMPARED_RUNS and not tokens[end - 1].quoted:
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
    if stop <= 2:  # the command word and one name token
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


MAX_COPY_NAME = 200  # Minds' limit on a copy's name
DUPLICATE_USAGE = N_(
    'Say `/minds duplicate <study>` to make a private copy of a Study, or `/minds duplicate <study> as "<name>"` to '
    "name the copy (quote a Study name that holds the word “as”)."
)


def _duplicate(text: str, tokens: list[Token]) -> Command | Usage:
    if len(tokens) > 1 and not tokens[1].quoted and tokens[1].value.lower() == "audience":
        return _duplicate_audience(text, tokens)
    named = next((i for i, t in enumerate(tokens) if i >= 2 and not t.quoted and t.value.lower() == "as"), None)
    if named is None:
        return Duplicate(_study_tail(tokens, text, 1))
    name = _copy_name(_rest(text, tokens, named + 1))
    if not name:
        return Usage(_(DUPLICATE_USAGE))
    if len(name) > MAX_COPY_NAME:
        return Usage(too_long(N_("A copy's name"), limit=MAX_COPY_NAME, length=len(name)))
    return Duplicate(_study_tail(tokens, text, 1, named), name=name)


def _copy_name(typed: str | None) -> str:
    """The copy's name as typed, without the quotes around it."""
    name = (typed or "").strip()
    for opening, closing in QUOTES.items():
        if len(name) > 1 and name.startswith(opening) and name.endswith(closing):
            return name[1:-1].strip()
    return name


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


MAX_INVITES = 100  # Minds takes 1-100 emails per invitation
MAX_EMAIL = 254
EMAIL = re.compile(r"^[^@\s<>|]+@[^@\s<>|]+\.[^@\s<>|]+$")
MAILTO = re.compile(r"^<mailto:([^|>]+)(?:\|[^>]*)?>$")
INVITE_ROLES = ("member", "admin")
INVITE_USAGE = N_(  # {limit}: MAX_INVITES
    "Say `/minds invite <study> someone@example.com … [admin]` to invite up to "
    "{limit} people to a Study (role member unless you add `admin`)."
)


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
