"""Digest schedules: fire times at the right UTC instant on both sides of a DST change, crontab weekdays as
crontab means them, the one window to post after downtime, and a precise message for every bad schedule."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from minds_bot.flows.digests.schedule import (
    ScheduleError,
    describe,
    latest_fire,
    next_fire,
    parse_schedule,
    schedule_of,
    window_key,
)
from minds_bot.store import Digest, ScheduleKind


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


def fires(schedule, *, after: datetime, count: int) -> list[datetime]:
    found, moment = [], after
    for _ in range(count):
        moment = next_fire(schedule, after=moment)
        found.append(moment)
    return found


# --- DST: Europe/Berlin switches on the last Sunday of March (30 Mar 2025) and October (26 Oct 2025) ---------


def test_daily_0900_berlin_fires_at_0800_utc_before_and_0700_utc_after_spring_forward() -> None:
    daily = parse_schedule("daily", time="09:00", tz="Europe/Berlin")
    assert fires(daily, after=utc(2025, 3, 28, 12), count=3) == [
        utc(2025, 3, 29, 8),  # Saturday, CET (UTC+1)
        utc(2025, 3, 30, 7),  # the switch day itself, CEST (UTC+2)
        utc(2025, 3, 31, 7),
    ]


def test_daily_0900_berlin_fires_at_0700_utc_before_and_0800_utc_after_fall_back() -> None:
    daily = parse_schedule("daily", time="09:00", tz="Europe/Berlin")
    assert fires(daily, after=utc(2025, 10, 24, 12), count=3) == [
        utc(2025, 10, 25, 7),
        utc(2025, 10, 26, 8),
        utc(2025, 10, 27, 8),
    ]


def test_weekly_sunday_digest_follows_local_time_across_both_switches() -> None:
    weekly = parse_schedule("weekly", weekday="sunday", time="09:00", tz="Europe/Berlin")
    assert fires(weekly, after=utc(2025, 3, 20), count=2) == [utc(2025, 3, 23, 8), utc(2025, 3, 30, 7)]
    assert fires(weekly, after=utc(2025, 10, 20), count=2) == [utc(2025, 10, 26, 8), utc(2025, 11, 2, 8)]


def test_cron_digest_in_new_york_keeps_local_time_across_us_dst() -> None:
    # US clocks spring forward on 9 March 2025: 09:00 EST is 14:00 UTC, 09:00 EDT is 13:00 UTC.
    cron = parse_schedule("cron", cron="0 9 * * 1-5", tz="America/New_York")
    assert fires(cron, after=utc(2025, 3, 7, 15), count=2) == [utc(2025, 3, 10, 13), utc(2025, 3, 11, 13)]


# --- crontab meaning -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("expr", "weekday"),
    [("0 9 * * 1", 0), ("0 9 * * 0", 6), ("0 9 * * 7", 6), ("0 9 * * 5", 4), ("0 9 * * fri", 4)],
)
def test_cron_weekday_numbers_mean_what_crontab_means(expr: str, weekday: int) -> None:
    schedule = parse_schedule("cron", cron=expr, tz="UTC")
    fire = next_fire(schedule, after=utc(2025, 6, 1))  # a Sunday
    assert fire is not None and fire.weekday() == weekday and fire.hour == 9


def test_cron_weekday_range_and_step_cover_the_days_crontab_would() -> None:
    weekdays = parse_schedule("cron", cron="30 8 * * 1-5", tz="UTC")
    days = {f.weekday() for f in fires(weekdays, after=utc(2025, 6, 1), count=10)}
    assert days == {0, 1, 2, 3, 4}
    every_other = parse_schedule("cron", cron="0 9 * * */2", tz="UTC")  # Sun, Tue, Thu, Sat
    days = {f.weekday() for f in fires(every_other, after=utc(2025, 6, 1), count=8)}
    assert days == {6, 1, 3, 5}


# --- bad schedules get precise messages ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        ({"kind": "daily", "time": "25:00", "tz": "UTC"}, "“25:00” is not a time of day"),
        ({"kind": "daily", "time": "9.30", "tz": "UTC"}, "use HH:MM"),
        ({"kind": "weekly", "weekday": "mondy", "time": "09:00", "tz": "UTC"}, "“mondy” is not a day of the week"),
        ({"kind": "weekly", "time": "09:00", "tz": "UTC"}, "needs a day of the week"),
        ({"kind": "cron", "cron": "61 9 * * 1", "tz": "UTC"}, "Cron field 1 (minute) “61” is invalid"),
        ({"kind": "cron", "cron": "0 25 * * 1", "tz": "UTC"}, "Cron field 2 (hour) “25”"),
        ({"kind": "cron", "cron": "0 9 32 * *", "tz": "UTC"}, "Cron field 3 (day of month)"),
        ({"kind": "cron", "cron": "0 9 * 13 *", "tz": "UTC"}, "Cron field 4 (month)"),
        ({"kind": "cron", "cron": "0 9 * * 8", "tz": "UTC"}, "Cron field 5 (day of week) “8”"),
        ({"kind": "cron", "cron": "0 9 * * funday", "tz": "UTC"}, "Cron field 5 (day of week)"),
        ({"kind": "cron", "cron": "0 9 * *", "tz": "UTC"}, "has 4"),
        ({"kind": "cron", "cron": "0 9 31 2 *", "tz": "UTC"}, "never fires"),
        ({"kind": "daily", "time": "09:00", "tz": "Europe/Berln"}, "Did you mean Europe/Berlin?"),
        ({"kind": "daily", "time": "09:00", "tz": "Mars/Olympus"}, "“Mars/Olympus” is not a timezone"),
    ],
)
def test_bad_schedules_say_exactly_what_is_wrong(kwargs: dict, expected: str) -> None:
    kind = kwargs.pop("kind")
    with pytest.raises(ScheduleError) as caught:
        parse_schedule(kind, **kwargs)
    assert expected in str(caught.value)


def test_valid_schedules_are_normalised_and_described() -> None:
    assert parse_schedule("daily", time="9:05", tz="utc").spec == "09:05"
    weekly = parse_schedule("weekly", weekday="Monday", time="09:00", tz="Europe/Berlin")
    assert (weekly.spec, weekly.tz) == ("mon 09:00", "Europe/Berlin")
    assert describe(weekly) == "every Monday at 09:00 (Europe/Berlin)"
    cron = parse_schedule("cron", cron=" 0  9 * * 1 ", tz="UTC")
    assert cron.spec == "0 9 * * 1" and describe(cron) == "cron “0 9 * * 1” (UTC)"


def test_a_stored_digest_schedule_is_read_back_the_same() -> None:
    digest = Digest(
        digest_id="dg-1",
        team_id="T1",
        channel_id="C1",
        schedule_kind=ScheduleKind.WEEKLY,
        spec="fri 17:30",
        tz="Asia/Tokyo",
        created_by="U1",
    )
    schedule = schedule_of(digest)
    assert next_fire(schedule, after=utc(2025, 6, 1)) == utc(2025, 6, 6, 8, 30)


# --- the window after downtime -------------------------------------------------------------------------------


def test_after_days_of_downtime_only_the_latest_missed_fire_is_due() -> None:
    daily = parse_schedule("daily", time="09:00", tz="Europe/Berlin")
    since = utc(2025, 3, 27, 8, 0, 5)  # Thursday's digest was posted
    now = utc(2025, 4, 1, 10)  # back after five missed mornings, one of them across the DST switch
    assert latest_fire(daily, now=now, since=since) == utc(2025, 4, 1, 7)


def test_nothing_is_due_before_the_next_fire() -> None:
    daily = parse_schedule("daily", time="09:00", tz="Europe/Berlin")
    assert latest_fire(daily, now=utc(2025, 3, 30, 6, 59), since=utc(2025, 3, 29, 8, 0, 1)) is None
    assert latest_fire(daily, now=utc(2025, 3, 30, 7, 0), since=utc(2025, 3, 29, 8, 0, 1)) == utc(2025, 3, 30, 7)


def test_a_rare_schedule_missed_long_ago_is_still_found() -> None:
    yearly = parse_schedule("cron", cron="0 9 1 1 *", tz="UTC")
    assert latest_fire(yearly, now=utc(2025, 11, 1), since=utc(2024, 6, 1)) == utc(2025, 1, 1, 9)


@given(
    start=st.datetimes(min_value=datetime(2024, 1, 1), max_value=datetime(2026, 12, 31)),
    hours=st.integers(min_value=0, max_value=24 * 40),
    minute=st.integers(min_value=0, max_value=59),
)
def test_latest_fire_is_a_fire_in_the_span_and_none_comes_after_it(start: datetime, hours: int, minute: int) -> None:
    schedule = parse_schedule("cron", cron=f"{minute} 9,18 * * 1,4", tz="Europe/Berlin")
    since = start.replace(tzinfo=UTC)
    now = since + timedelta(hours=hours)
    latest = latest_fire(schedule, now=now, since=since)
    following = next_fire(schedule, after=latest or since)
    assert following is not None and following > now
    if latest is not None:
        assert since < latest <= now
        assert next_fire(schedule, after=latest - timedelta(minutes=1)) == latest


def test_window_keys_name_the_utc_minute_so_every_process_agrees() -> None:
    from zoneinfo import ZoneInfo

    local = datetime(2025, 3, 30, 9, 0, tzinfo=ZoneInfo("Europe/Berlin"))
    assert window_key(local) == window_key(utc(2025, 3, 30, 7)) == "2025-03-30T07:00Z"
