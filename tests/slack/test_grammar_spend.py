"""The grammar of `/minds policy` and `/minds activity [days]`: days default to 7, stay within 1–90, and anything
else gets a usage message that says what to type."""

from __future__ import annotations

import pytest

from minds_bot.slack.grammar import Activity, Policy, Usage, parse_command

USAGE = "Say `/minds activity` for the last 7 days, or `/minds activity <days>` with a number of days from 1 to 90."


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("policy", Policy()),
        ("activity", Activity(days=7)),
        ("activity 1", Activity(days=1)),
        ("activity 90", Activity(days=90)),
        ("spending 30", Activity(days=30)),
    ],
)
def test_policy_and_activity_parse(text: str, expected: object) -> None:
    assert parse_command(text) == expected


@pytest.mark.parametrize(
    "text", ["activity 0", "activity 91", "activity week", "activity 7 days", "activity ²", "activity -3"]
)
def test_bad_days_get_the_usage(text: str) -> None:
    assert parse_command(text) == Usage(USAGE)
