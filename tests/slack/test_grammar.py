"""The /minds grammar: table tests for what people type, and a property test that no input breaks it."""

from __future__ import annotations

import typing

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minds_bot.slack.grammar import (
    Approvers,
    Ask,
    AudienceNew,
    Browse,
    Command,
    Compare,
    Connect,
    DigestAdd,
    DigestList,
    DigestNow,
    DigestRemove,
    Duplicate,
    Export,
    Help,
    Plan,
    Runs,
    Share,
    ShowStudy,
    StudyRef,
    Summary,
    Usage,
    parse_command,
)

S = StudyRef

TABLE = [
    ("", Help()),
    ("   ", Help()),
    ("help", Help()),
    ("HELP plan", Help(topic="plan")),
    ("studies", Browse("studies")),
    ("studies launch  pos", Browse("studies", "launch  pos")),
    ("audiences gen z", Browse("audiences", "gen z")),
    ("minds sneaker", Browse("minds", "sneaker")),
    ("study", ShowStudy(None)),
    ("study Launch positioning", ShowStudy(S("Launch positioning"))),
    ('study "Launch positioning"', ShowStudy(S("Launch positioning"))),
    ("study “Launch positioning”", ShowStudy(S("Launch positioning"))),
    ("study 4f1c2a9e-0000-4000-8000-000000000001", ShowStudy(S("4f1c2a9e-0000-4000-8000-000000000001"))),
    ("ask", Ask(None, None)),
    ("ask pricing", Ask(S("pricing"), None)),
    ("ask pricing Would you pay $12 a month?", Ask(S("pricing"), "Would you pay $12 a month?")),
    ('ask "Pricing pulse" Would you pay $12?', Ask(S("Pricing pulse"), "Would you pay $12?")),
    ('ask "Pricing pulse', Ask(S("Pricing pulse"), None)),
    ("plan launch Test three taglines\nfor Gen Z", Plan(S("launch"), "Test three taglines\nfor Gen Z")),
    ("plan", Plan(None, None)),
    ("runs Pricing pulse", Runs(S("Pricing pulse"))),
    ("compare", Compare(None)),
    ("compare Pricing pulse", Compare(S("Pricing pulse"))),
    ("compare Launch positioning 1", Compare(S("Launch positioning"), runs=("1",))),
    ("compare Launch positioning #3 1", Compare(S("Launch positioning"), runs=("3", "1"))),
    ('compare "Wave 2"', Compare(S("Wave 2"))),  # a quoted name that ends with a number is a name
    ('compare "Wave 2" 2', Compare(S("Wave 2"), runs=("2",))),
    (
        "compare launch 4f1c2a9e-0000-4000-8000-000000000001",
        Compare(S("launch"), runs=("4f1c2a9e-0000-4000-8000-000000000001",)),
    ),
    ("summary Pricing pulse", Summary(S("Pricing pulse"))),
    ("summary Pricing pulse refresh", Summary(S("Pricing pulse"), refresh=True)),
    ("summary refresh", Summary(S("refresh"))),
    ("summary Pricing pulse refresh force", Summary(S("Pricing pulse"), refresh=True, force=True)),
    ("summary Pricing pulse refresh short", Summary(S("Pricing pulse"), refresh=True, length="short")),
    (
        "summary Pricing pulse refresh detailed force",
        Summary(S("Pricing pulse"), refresh=True, force=True, length="detailed"),
    ),
    ("summary Pricing pulse short", Summary(S("Pricing pulse short"))),  # options count only after refresh
    ('summary "Force majeure" refresh', Summary(S("Force majeure"), refresh=True)),
    ("export launch", Export(S("launch"))),
    ("export launch pdf", Export(S("launch"), format="pdf")),
    ("export Launch positioning csv raw", Export(S("Launch positioning"), format="csv", kind="raw_data")),
    ("export launch pdf brief short", Export(S("launch"), format="pdf", kind="executive_brief", length="short")),
    ('export "pdf" md', Export(S("pdf"), format="md")),
    ('export "Launch positioning" pdf force', Export(S("Launch positioning"), format="pdf", force=True)),
    ("export Launch positioning force pdf", Export(S("Launch positioning"), format="pdf", force=True)),
    ("share launch on", Share(S("launch"), enable=True)),
    ("share Launch positioning OFF", Share(S("Launch positioning"), enable=False)),
    ("duplicate Pricing pulse", Duplicate(S("Pricing pulse"))),
    ("audience new Gen Z sneaker buyers in Germany", AudienceNew("Gen Z sneaker buyers in Germany")),
    ("audience new", AudienceNew(None)),
    ("connect", Connect()),
    ("approvers", Approvers("list")),
    ("approvers list", Approvers("list")),
    ("approvers add <@U123|ana> <@U456>", Approvers("add", ("U123", "U456"))),
    ("approvers remove <@U123> <@U123>", Approvers("remove", ("U123",))),
    ("digest", DigestList()),
    ("digest list", DigestList()),
    ("digest remove d1", DigestRemove("d1")),
    ("digest now d1", DigestNow("d1")),
    ("digest add daily 9:05", DigestAdd(None, "daily", time="09:05")),
    (
        "digest add <#C123|research> weekly Monday 09:00 Europe/Berlin launch pricing",
        DigestAdd(
            "C123",
            "weekly",
            time="09:00",
            weekday="monday",
            timezone="Europe/Berlin",
            studies=(S("launch"), S("pricing")),
        ),
    ),
    ('digest add cron "0 9 * * 1" UTC all', DigestAdd(None, "cron", cron="0 9 * * 1", timezone="UTC")),
    (
        "digest add weekly fri 17:00 Europe/Berlin skip-quiet",
        DigestAdd(None, "weekly", time="17:00", weekday="friday", timezone="Europe/Berlin", skip_quiet=True),
    ),
    (
        'digest add daily 08:30 "Launch positioning"',
        DigestAdd(None, "daily", time="08:30", studies=(S("Launch positioning"),)),
    ),
]


@pytest.mark.parametrize(("text", "expected"), TABLE, ids=[t or "<empty>" for t, _ in TABLE])
def test_table(text: str, expected: object) -> None:
    assert parse_command(text) == expected


@pytest.mark.parametrize(
    ("text", "fragment", "suggestion"),
    [
        ("stuides", "Did you mean `/minds studies`?", "studies"),
        ("sumary launch", "Did you mean `/minds summary`?", "summary"),
        ("frobnicate", "/minds help", None),
        ("share launch", "`/minds share <study> on`", None),
        ("audience", "audience new", "audiences"),
        ("approvers add ana", "@mentions", None),
        ("approvers purge", "approvers add", None),
        ("digest add hourly", "digest add", None),
        ("digest add daily 25:00", "HH:MM", None),
        ("digest add daily 9.30", "“9.30” is not a time of day", None),
        ("digest add weekly mondy 09:00", "“mondy” is not a day of the week", None),
        ("digest add weekly 09:00", "needs a day", None),
        ("digest add cron 0 9 * * 1", "five quoted fields", None),
        ("digest remove", "digest list", None),
    ],
)
def test_mistakes_get_a_usage_message(text: str, fragment: str, suggestion: str | None) -> None:
    result = parse_command(text)
    assert isinstance(result, Usage)
    assert fragment in result.message
    assert result.suggestion == suggestion


EXPORT_USAGE_WORDS = (
    'Say `/minds export "<study>" [pdf|md|docx|pptx|csv|xls|sav] [brief|report|raw] [short|standard|detailed] '
    "[original] [force]` (a Study name with spaces in quotes, or its id; `force` makes a new file)."
)


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ('export "Launch positioning" pdf please', "please"),
        ('export "Launch positioning" now pdf force', "now"),
        ("export Launch positioning pdf forcefully", "forcefully"),
        ("export Launch positioning pdf please force", "please"),
        ('export Launch "positioning" pdf', "positioning"),
    ],
)
def test_a_word_export_does_not_know_is_refused_with_the_usage(text: str, word: str) -> None:
    """Row 11: an unknown word is never folded into the Study name (which the lookup would then match loosely)."""
    assert parse_command(text) == Usage(f"I don't know `{word}` in `/minds export`. {EXPORT_USAGE_WORDS}")


def test_a_quoted_name_is_marked_quoted_and_an_unquoted_one_is_not() -> None:
    quoted, bare = parse_command('ask "Launch positioning" Why?'), parse_command("ask Launch positioning Why?")
    assert isinstance(quoted, Ask) and isinstance(bare, Ask)
    assert quoted.study is not None and quoted.study.quoted and quoted.question == "Why?"
    assert bare.study is not None and not bare.study.quoted and bare.question == "positioning Why?"
    exported = parse_command("export “Launch positioning” pdf")
    assert isinstance(exported, Export) and exported.study is not None and exported.study.quoted


def test_free_text_is_kept_exactly_as_typed() -> None:
    question = "On a scale of 1–5, how “premium” does  this feel?\n(Be honest.)"
    result = parse_command(f'ask "Launch positioning" {question}')
    assert result == Ask(S("Launch positioning"), question)


ALPHABET = st.sampled_from(list('abc "“”„«» \n\t<>@#|:*/-_0123456789') + ["ask", "plan", "export", "share", "digest"])
WORDS = st.sampled_from(
    [
        "help",
        "studies",
        "study",
        "ask",
        "plan",
        "runs",
        "summary",
        "export",
        "share",
        "duplicate",
        "audience",
        "digest",
        "approvers",
        "connect",
        "minds",
        "xyz",
        "",
    ]
)


@settings(max_examples=10_000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(word=WORDS, rest=st.one_of(st.text(max_size=80), st.lists(ALPHABET, max_size=30).map("".join)))
def test_any_input_parses_to_a_command_or_a_usage_message(word: str, rest: str) -> None:
    result = parse_command(f"{word} {rest}")
    assert isinstance(result, (Usage, *typing.get_args(Command)))
    if isinstance(result, Usage):
        assert result.message.strip()
