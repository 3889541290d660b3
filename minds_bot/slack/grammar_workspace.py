"""The channel and workspace commands of ``/minds``: ``digest add|list|remove|now`` (schedules, times of day,
weekdays, timezones, the Studies a digest follows), ``approvers add|remove|list`` and ``activity [days]``.

Owns: their argument shapes (channel and user mentions, ``HH:MM``, weekday names, ``skip-quiet``) and usage
messages. Must not touch: tokenizing (``grammar_tokens.py``), the command table and the limits every field is held
to (``grammar.py``), scheduling or storing a digest (``flows/``), I/O of any kind.
"""

from __future__ import annotations

import re

from minds_bot.i18n import N_, _, format_number
from minds_bot.render.digest import MAX_DIGEST_ARGUMENT
from minds_bot.slack.grammar_commands import (
    Activity,
    Approvers,
    Command,
    DigestAdd,
    DigestList,
    DigestNow,
    DigestRemove,
    StudyRef,
    Usage,
)
from minds_bot.slack.grammar_tokens import Token, quote, too_long

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
USER_MENTION = re.compile(r"^<@([UW][A-Z0-9]+)(?:\|[^>]*)?>$")
CHANNEL_MENTION = re.compile(r"^<#([CGD][A-Z0-9]+)(?:\|([^>]*))?>$")
TIME_OF_DAY = re.compile(r"^([01]?\d|2[0-3]):([0-5]\d)$")


MAX_DIGEST_STUDIES = 20
MAX_DIGEST_ID = 40
MAX_APPROVERS = 25  # people named in one `approvers add|remove`


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
