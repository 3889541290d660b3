"""Digest schedules: parsing and validating them, and computing their fire times. Pure; no I/O, no clock.

Owns: the meaning of ``Digest.spec`` for each ``ScheduleKind`` (daily ``"09:00"``, weekly ``"mon 09:00"``, cron
``"0 9 * * 1"`` with standard crontab weekdays: 0 and 7 are Sunday), timezone names (IANA, via ``zoneinfo``),
the precise message for every bad schedule, fire times (APScheduler's ``CronTrigger`` in the digest's timezone,
so a 09:00 digest stays at 09:00 local across daylight-saving changes) and the window key that names one fire.
Must not touch: the store, Slack, Minds, or the running scheduler.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from minds_bot.i18n import N_, _, _n
from minds_bot.render.common import shorten
from minds_bot.render.digest import WEEKDAY_LABELS
from minds_bot.store import Digest, ScheduleKind

if TYPE_CHECKING:
    from apscheduler.triggers.cron import CronTrigger

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
DAY_ABBREVIATIONS = tuple(day[:3] for day in WEEKDAYS)
# ``describe`` names each day as the digest dialog does (render.digest.WEEKDAY_LABELS, in the order of WEEKDAYS);
# typed schedules stay in English: ``monday``, ``mon``.
# Crontab numbering: 0 (and 7) is Sunday. APScheduler 3 numbers Monday 0, so numbers are turned into names.
CRON_DAY_NAMES = ("sun", "mon", "tue", "wed", "thu", "fri", "sat", "sun")
CRON_FIELDS = (N_("minute"), N_("hour"), N_("day of month"), N_("month"), N_("day of week"))
_TRIGGER_FIELDS = ("minute", "hour", "day", "month", "day_of_week")
TIME_OF_DAY = re.compile(r"^([01]?\d|2[0-3]):([0-5]\d)$")
_NUMERIC_DAYS = re.compile(r"^(\*|\d+|\d+-\d+)(?:/(\d+))?$")
# What a message says back of a person's input: a forged dialog can send 40,000 characters as a time or a day.
MAX_SAID_BACK = 40
# How far back ``latest_fire`` looks, growing, so frequent schedules stay cheap and rare ones are still found.
LOOKBACKS = (timedelta(hours=1), timedelta(days=1), timedelta(days=8), timedelta(days=32), timedelta(days=367))
MAX_FIRES_SCANNED = 20_000


class ScheduleError(ValueError):
    """A schedule the bot cannot use; ``str(error)`` says exactly what is wrong, for the user (in the language
    spoken when it was raised), and ``field`` which part of it: ``tz``, ``time``, ``weekday`` or ``cron``."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class Schedule:
    """A validated schedule: what ``Digest`` stores as (schedule_kind, spec, tz)."""

    kind: ScheduleKind
    spec: str
    tz: str

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.tz)


# --- parsing -----------------------------------------------------------------------------------------------


def said_back(text: str) -> str:
    """A person's input quoted in a message: at most ``MAX_SAID_BACK`` characters, a visible "…" when cut."""
    return shorten(text, MAX_SAID_BACK)


def parse_timezone(name: str) -> str:
    """An IANA timezone name (``UTC`` accepted in any case); raises ``ScheduleError`` naming close matches."""
    text = name.strip()
    if text.upper() == "UTC":
        return "UTC"
    try:
        ZoneInfo(text)
    except (ZoneInfoNotFoundError, ValueError):
        close = difflib.get_close_matches(text, sorted(_zone_names()), n=1, cutoff=0.7)
        if close:
            message = _(
                "“{text}” is not a timezone I know. Did you mean {suggestion}?",
                text=said_back(text),
                suggestion=close[0],
            )
        else:
            message = _(
                "“{text}” is not a timezone I know. Use an IANA name such as Europe/Berlin or America/New_York.",
                text=said_back(text),
            )
        raise ScheduleError(message, field="tz") from None
    return text


@cache
def _zone_names() -> frozenset[str]:
    return frozenset(available_timezones())


def parse_time(text: str) -> str:
    """``H:MM`` or ``HH:MM`` (24-hour) → ``HH:MM``."""
    match = TIME_OF_DAY.match(text.strip())
    if match is None:
        raise ScheduleError(
            _("“{text}” is not a time of day; use HH:MM in 24-hour time, e.g. 09:00 or 17:30.", text=said_back(text)),
            field="time",
        )
    return f"{int(match.group(1)):02d}:{match.group(2)}"


def parse_weekday(text: str) -> str:
    """A day name or its first three letters → the three-letter abbreviation (``mon``)."""
    word = text.strip().lower()
    for day, short in zip(WEEKDAYS, DAY_ABBREVIATIONS, strict=True):
        if word in (day, short):
            return short
    raise ScheduleError(
        _("“{text}” is not a day of the week; use monday … sunday (or mon … sun).", text=said_back(text)),
        field="weekday",
    )


def parse_cron(expr: str) -> str:
    """Five crontab fields, validated one by one so the message names the field that is wrong."""
    fields = expr.split()
    if len(fields) != 5:
        raise ScheduleError(
            _n(
                "A cron schedule has five fields (minute hour day-of-month month day-of-week); “{expr}” has {count}.",
                "A cron schedule has five fields (minute hour day-of-month month day-of-week); “{expr}” has {count}.",
                len(fields),
                expr=said_back(expr),
            ),
            field="cron",
        )
    for position, (label, name, value) in enumerate(zip(CRON_FIELDS, _TRIGGER_FIELDS, fields, strict=True), 1):
        try:
            _cron_trigger(**{name: _cron_weekdays(value) if name == "day_of_week" else value}, timezone=UTC)
        except ValueError as exc:
            message = _(
                "Cron field {position} ({field}) “{value}” is invalid: {reason}.",
                position=position,
                field=_(label),
                value=said_back(value),
                reason=_reason(exc),
            )
            raise ScheduleError(message, field="cron") from None
    return " ".join(fields)


def _cron_trigger(**fields: Any) -> CronTrigger:
    """APScheduler's cron trigger, imported on first use: loading APScheduler reads every installed package's
    metadata, which start-up does not need."""
    from apscheduler.triggers.cron import CronTrigger

    return CronTrigger(**fields)


def _cron_weekdays(value: str) -> str:
    """Crontab weekdays (0/7 = Sunday) as names, which APScheduler reads the same way crontab does."""
    days: set[int] = set()
    for part in value.lower().split(","):
        match = _NUMERIC_DAYS.match(part)
        if match is None:
            return value  # names (mon-fri) mean the same to both; anything else gets APScheduler's message
        span, step = match.group(1), int(match.group(2) or 1)
        low, high = (0, 6) if span == "*" else (int(span.split("-")[0]), int(span.split("-")[-1]))
        if high > 7 or low > high or step == 0:
            raise ValueError(_("{part} is outside 0-7 (0 and 7 are Sunday)", part=part))  # said in parse_cron
        days.update(n % 7 for n in range(low, high + 1, step))
    if value == "*":
        return value
    return ",".join(CRON_DAY_NAMES[n] for n in sorted(days, key=lambda n: (n - 1) % 7))


def _reason(exc: ValueError) -> str:
    text = str(exc).rstrip(".")
    return text[0].lower() + text[1:] if text else _("not a cron value")


def parse_schedule(
    kind: ScheduleKind | str,
    *,
    tz: str,
    time: str | None = None,
    weekday: str | None = None,
    cron: str | None = None,
) -> Schedule:
    """Validate what a user gave (slash command or modal) into a ``Schedule``; raises ``ScheduleError``."""
    try:
        kind = ScheduleKind(kind)
    except ValueError:
        message = _("“{text}” is not a kind of schedule; use daily, weekly or cron.", text=said_back(str(kind)))
        raise ScheduleError(message, field="kind") from None
    zone = parse_timezone(tz)
    if kind is ScheduleKind.DAILY:
        spec = parse_time(_required(time, N_("A daily digest needs a time as HH:MM, e.g. 09:00."), field="time"))
    elif kind is ScheduleKind.WEEKLY:
        day = parse_weekday(
            _required(weekday, N_("A weekly digest needs a day of the week, e.g. monday."), field="weekday")
        )
        time = _required(time, N_("A weekly digest needs a time as HH:MM, e.g. 09:00."), field="time")
        spec = f"{day} {parse_time(time)}"  # the stored spec, verbatim
    else:
        spec = parse_cron(_required(cron, N_('A cron digest needs an expression, e.g. "0 9 * * 1".'), field="cron"))
    schedule = Schedule(kind=kind, spec=spec, tz=zone)
    if trigger(schedule).get_next_fire_time(None, datetime(2000, 1, 1, tzinfo=UTC)) is None:
        raise ScheduleError(_("The cron schedule “{spec}” never fires (no such date).", spec=spec), field="cron")
    return schedule


def _required(value: object, message: str, *, field: str) -> str:
    """``value``, or a ``ScheduleError`` saying ``message`` (marked with ``N_``, translated here) when it is empty."""
    if not isinstance(value, str) or not value.strip():  # a forged dialog may send anything here
        raise ScheduleError(_(message), field=field)
    return value


def schedule_of(digest: Digest) -> Schedule:
    """The stored schedule, validated again (a hand-edited row gets a ``ScheduleError``, not a crash)."""
    if digest.schedule_kind is ScheduleKind.DAILY:
        return parse_schedule(digest.schedule_kind, tz=digest.tz, time=digest.spec)
    if digest.schedule_kind is ScheduleKind.WEEKLY:
        day, _space, time = digest.spec.partition(" ")
        return parse_schedule(digest.schedule_kind, tz=digest.tz, weekday=day, time=time)
    return parse_schedule(digest.schedule_kind, tz=digest.tz, cron=digest.spec)


# --- fire times --------------------------------------------------------------------------------------------


def trigger(schedule: Schedule) -> CronTrigger:
    """The APScheduler trigger for a validated schedule, in the schedule's own timezone."""
    zone = schedule.zone
    if schedule.kind is ScheduleKind.DAILY:
        hour, minute = schedule.spec.split(":")
        return _cron_trigger(hour=int(hour), minute=int(minute), timezone=zone)
    if schedule.kind is ScheduleKind.WEEKLY:
        day, time = schedule.spec.split(" ")
        hour, minute = time.split(":")
        return _cron_trigger(day_of_week=day, hour=int(hour), minute=int(minute), timezone=zone)
    values = dict(zip(_TRIGGER_FIELDS, schedule.spec.split(), strict=True))
    values["day_of_week"] = _cron_weekdays(values["day_of_week"])
    return _cron_trigger(**values, timezone=zone)


def next_fire(schedule: Schedule, *, after: datetime) -> datetime | None:
    """The first fire time strictly after ``after`` (aware), in UTC."""
    fire = trigger(schedule).get_next_fire_time(None, after + timedelta(seconds=1))
    return None if fire is None else fire.astimezone(UTC)


def latest_fire(schedule: Schedule, *, now: datetime, since: datetime) -> datetime | None:
    """The latest fire time in ``(since, now]``, in UTC; None when the schedule did not fire in that span.

    After downtime this is the one window to post (every earlier missed fire is folded into it).
    """
    for lookback in LOOKBACKS:
        start = max(since, now - lookback)
        found = _last_between(schedule, start=start, end=now)
        if found is not None or start == since:
            return found
    return None


def _last_between(schedule: Schedule, *, start: datetime, end: datetime) -> datetime | None:
    latest = None
    fire = next_fire(schedule, after=start)
    for _scanned in range(MAX_FIRES_SCANNED):
        if fire is None or fire > end:
            break
        latest = fire
        fire = next_fire(schedule, after=fire)
    return latest


def window_key(fire: datetime) -> str:
    """Names one scheduled fire, identically in every bot process: the UTC instant to the minute."""
    return fire.astimezone(UTC).strftime("%Y-%m-%dT%H:%MZ")


# --- words -------------------------------------------------------------------------------------------------


def describe(schedule: Schedule) -> str:
    """``every day at 09:00 (Europe/Berlin)``, ``every Monday at 09:00 (UTC)``, ``cron “0 9 * * 1” (UTC)``."""
    if schedule.kind is ScheduleKind.DAILY:
        return _("every day at {time} ({timezone})", time=schedule.spec, timezone=schedule.tz)
    if schedule.kind is ScheduleKind.WEEKLY:
        day, time = schedule.spec.split(" ")
        weekday = _(WEEKDAY_LABELS[DAY_ABBREVIATIONS.index(day)])
        # i18n: {weekday} is one of the day names (Monday … Sunday), {time} HH:MM, {timezone} an IANA name.
        return _("every {weekday} at {time} ({timezone})", weekday=weekday, time=time, timezone=schedule.tz)
    return _("cron “{spec}” ({timezone})", spec=schedule.spec, timezone=schedule.tz)
