"""The ``/minds`` grammar: text in, a typed command or a usage message out. Pure; never raises on any input.

This module is the public face and the command table: the first word (``WORDS``, ``SYNONYMS``, "did you mean …"
for unknown words) picks a parser, and every parsed command is then held to the length limit of its arguments
(``FIELD_LIMITS``, ``COUNT_LIMITS``; the modals that ask for the same text share the constants): over-long input
gets a usage message that says the limit and is never echoed back whole (``too_long``, ``quote``). Everything the
grammar offers is importable from here.
The parts, by what they own:
- ``grammar_commands.py``: the command types (``Command``, ``StudyRef``, ``Usage``);
- ``grammar_tokens.py``: words and quotes, Study references (an id, a one-word name, or a "quoted name with
  spaces"; the rest of the text where the Study is the last argument), free text kept exactly as typed;
- ``grammar_study.py``, ``grammar_audience.py``, ``grammar_workspace.py``: each command family's arguments and
  usage messages; a missing argument is left empty so the listener can open a modal instead of refusing.
Must not touch: I/O of any kind. Free text (a question, a plan request, a brief) is kept exactly as typed.
"""

from __future__ import annotations

import difflib
from dataclasses import fields

from minds_bot.i18n import N_, _, format_number
from minds_bot.render.digest import MAX_DIGEST_ARGUMENT
from minds_bot.render.modals import MAX_QUESTION as MAX_ASKED_QUESTION
from minds_bot.render.plan_dialogs import MAX_PLAN_REQUEST
from minds_bot.slack.grammar_audience import (
    ASK_AUDIENCE_USAGE,
    AUDIENCE_NAME_TOO_LONG,
    DUPLICATE_AUDIENCE_USAGE,
    MAX_QUESTION,
    PROFILE_FORMATS,
    PROFILE_KINDS,
    PROFILE_USAGE,
    _audience,
    _methods,
    _recalibrate,
)
from minds_bot.slack.grammar_commands import (
    Activity,
    Analytics,
    Approvers,
    Ask,
    AskAudience,
    AudienceNew,
    Browse,
    Chat,
    Command,
    Compare,
    Connect,
    DigestAdd,
    DigestList,
    DigestNow,
    DigestRemove,
    Drafts,
    Duplicate,
    DuplicateAudience,
    Export,
    ExportProfile,
    Help,
    Invite,
    Methods,
    MindNew,
    Models,
    Plan,
    Policy,
    Recalibrate,
    Runs,
    Share,
    ShowAudience,
    ShowMind,
    ShowStudy,
    StudyDelete,
    StudyNew,
    StudyRef,
    Summary,
    Templates,
    Usage,
)
from minds_bot.slack.grammar_mind import MIND_USAGE, _mind
from minds_bot.slack.grammar_study import (
    ANALYTICS_USAGE,
    CHAT_USAGE,
    EMAIL,
    EXPORT_FORCE,
    EXPORT_FORMATS,
    EXPORT_KIND_ALIASES,
    EXPORT_KINDS,
    EXPORT_LENGTHS,
    EXPORT_ORIGINAL,
    EXPORT_USAGE,
    INVITE_ROLES,
    INVITE_USAGE,
    MAILTO,
    MAX_COMPARED_RUNS,
    MAX_EMAIL,
    MAX_INVITES,
    MAX_STUDY_NAME_CHARS,
    RUN_REF,
    STUDY_NEW_USAGE,
    SUMMARY_LENGTHS,
    _analytics,
    _ask,
    _chat,
    _compare,
    _duplicate,
    _export,
    _invite,
    _plan,
    _runs,
    _share,
    _study,
    _summary,
)
from minds_bot.slack.grammar_tokens import (
    MAX_NAME,
    MAX_QUERY,
    MAX_QUOTED,
    MAX_REF_CHARS,
    QUOTES,
    Token,
    _rest,
    quote,
    tokenize,
    too_long,
)
from minds_bot.slack.grammar_workspace import (
    ACTIVITY_DAYS,
    CHANNEL_MENTION,
    DIGEST_USAGE,
    MAX_APPROVERS,
    MAX_DIGEST_ID,
    MAX_DIGEST_STUDIES,
    SKIP_QUIET,
    TIME_OF_DAY,
    USER_MENTION,
    WEEKDAYS,
    _activity,
    _approvers,
    _digest,
)

__all__ = [
    "ACTIVITY_DAYS",
    "ANALYTICS_USAGE",
    "ASK_AUDIENCE_USAGE",
    "AUDIENCE_NAME_TOO_LONG",
    "CHANNEL_MENTION",
    "CHAT_USAGE",
    "COUNT_LIMITS",
    "DIGEST_USAGE",
    "DUPLICATE_AUDIENCE_USAGE",
    "EMAIL",
    "EXPORT_FORCE",
    "EXPORT_FORMATS",
    "EXPORT_KINDS",
    "EXPORT_KIND_ALIASES",
    "EXPORT_LENGTHS",
    "EXPORT_ORIGINAL",
    "EXPORT_USAGE",
    "FIELD_LIMITS",
    "INVITE_ROLES",
    "INVITE_USAGE",
    "MAILTO",
    "MAX_APPROVERS",
    "MAX_BRIEF",
    "MAX_COMPARED_RUNS",
    "MAX_DIGEST_ARGUMENT",
    "MAX_DIGEST_ID",
    "MAX_DIGEST_STUDIES",
    "MAX_EMAIL",
    "MAX_INVITES",
    "MAX_NAME",
    "MAX_QUERY",
    "MAX_QUESTION",
    "MAX_QUOTED",
    "MAX_REF_CHARS",
    "MAX_STUDY_NAME_CHARS",
    "MAX_STUDY_REF",
    "MIND_USAGE",
    "PROFILE_FORMATS",
    "PROFILE_KINDS",
    "PROFILE_USAGE",
    "QUOTES",
    "RUN_REF",
    "SKIP_QUIET",
    "STUDY_NEW_USAGE",
    "SUMMARY_LENGTHS",
    "SYNONYMS",
    "TIME_OF_DAY",
    "USER_MENTION",
    "WEEKDAYS",
    "WORDS",
    "Activity",
    "Analytics",
    "Approvers",
    "Ask",
    "AskAudience",
    "AudienceNew",
    "Browse",
    "Chat",
    "Command",
    "Compare",
    "Connect",
    "DigestAdd",
    "DigestList",
    "DigestNow",
    "DigestRemove",
    "Drafts",
    "Duplicate",
    "DuplicateAudience",
    "Export",
    "ExportProfile",
    "Help",
    "Invite",
    "Methods",
    "MindNew",
    "Models",
    "Plan",
    "Policy",
    "Recalibrate",
    "Runs",
    "Share",
    "ShowAudience",
    "ShowMind",
    "ShowStudy",
    "StudyDelete",
    "StudyNew",
    "StudyRef",
    "Summary",
    "Templates",
    "Token",
    "Usage",
    "parse_command",
    "quote",
    "tokenize",
    "too_long",
]

MAX_STUDY_REF = 200  # a Study id or name as someone types it
MAX_BRIEF = 20_000  # an Audience brief (Minds takes more; nobody types more into a slash command)


# --- the command table -------------------------------------------------------------------------------------

WORDS = (
    "help",
    "studies",
    "audiences",
    "minds",
    "mind",
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


# Field name → (what it is, in words, a message id for ``too_long``; the most characters it may have). One table
# for every command; every word of `digest …` is first held to MAX_DIGEST_ARGUMENT (its time, day, timezone, cron
# and Study names).
FIELD_LIMITS: dict[str, tuple[str, int]] = {
    "question": (N_("A question"), MAX_ASKED_QUESTION),  # the Ask dialog's limit, for `ask audience` too
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


def _connect(text: str, tokens: list[Token]) -> Command | Usage:
    return Connect()


def _models(text: str, tokens: list[Token]) -> Command | Usage:
    return Models()


_PARSERS = {
    "help": _help,
    "studies": _browse,
    "audiences": _browse,
    "minds": _browse,
    "mind": _mind,
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
