"""The /minds grammar for the rest of the toolbox (chat, …): table tests, length bounds stated in the usage
message, and a property test that no input to these words breaks the parser."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minds_bot.slack.grammar import (
    MAX_REF_CHARS,
    MAX_STUDY_NAME_CHARS,
    Analytics,
    Chat,
    Drafts,
    Duplicate,
    DuplicateAudience,
    Export,
    ExportProfile,
    ShowStudy,
    StudyNew,
    StudyRef,
    Templates,
    Usage,
    parse_command,
)

TABLE = [
    ("chat Mia", Chat("Mia")),
    ("chat Mia Novak", Chat("Mia Novak")),
    ('chat "Mia Novak"', Chat("Mia Novak")),
    ("chat “Mia Novak”", Chat("Mia Novak")),
    ("CHAT 00000000-0000-0000-0000-000000000031", Chat("00000000-0000-0000-0000-000000000031")),
    ("analytics Launch positioning", Analytics(StudyRef("Launch positioning"))),
    ('analytics "Pricing pulse"', Analytics(StudyRef("Pricing pulse"))),
    ("study new Autumn sneakers", StudyNew("Autumn sneakers")),
    ('study NEW "Autumn sneakers"', StudyNew("Autumn sneakers")),
    ("study new", StudyNew(None)),
    ('study "New formula"', ShowStudy(StudyRef("New formula"))),
    ("study Newcastle panel", ShowStudy(StudyRef("Newcastle panel"))),
    ("export audience Gen Z buyers", ExportProfile("audience", StudyRef("Gen Z buyers"))),
    ("export audience Gen Z buyers pdf", ExportProfile("audience", StudyRef("Gen Z buyers"), "pdf")),
    ('export mind "Mia Novak" docx', ExportProfile("mind", StudyRef("Mia Novak"), "docx")),
    ("export MIND pdf", ExportProfile("mind", StudyRef("pdf"))),
    ('export "audience research" pdf', Export(StudyRef("audience research"), format="pdf")),
    ("duplicate audience Gen Z buyers", DuplicateAudience(StudyRef("Gen Z buyers"))),
    ('duplicate "audience research"', Duplicate(StudyRef("audience research"))),
    ("drafts", Drafts()),
    ("templates", Templates()),
]


@pytest.mark.parametrize(("text", "expected"), TABLE)
def test_what_people_type(text: str, expected: object) -> None:
    assert parse_command(text) == expected


@pytest.mark.parametrize("text", ["chat", "chat   ", 'chat ""'])
def test_chat_without_a_mind_says_how(text: str) -> None:
    result = parse_command(text)
    assert isinstance(result, Usage) and "/minds chat <mind>" in result.message


def test_a_too_long_mind_name_is_refused_with_the_limit() -> None:
    assert parse_command("chat " + "m" * MAX_REF_CHARS) == Chat("m" * MAX_REF_CHARS)
    result = parse_command("chat " + "m" * (MAX_REF_CHARS + 1))
    assert isinstance(result, Usage) and f"at most {MAX_REF_CHARS} characters" in result.message


def test_a_typo_suggests_chat() -> None:
    result = parse_command("chta Mia")
    assert isinstance(result, Usage) and result.suggestion == "chat"


@settings(max_examples=2_000, deadline=None)
@given(rest=st.text(max_size=300))
def test_any_chat_input_parses_to_a_chat_or_a_usage(rest: str) -> None:
    result = parse_command(f"chat {rest}")
    assert isinstance(result, (Chat, Usage))
    if isinstance(result, Chat):
        assert 0 < len(result.mind) <= MAX_REF_CHARS
    else:
        assert result.message.strip()


def test_analytics_needs_a_study() -> None:
    result = parse_command("analytics")
    assert isinstance(result, Usage) and "/minds analytics <study>" in result.message


def test_a_too_long_study_name_is_refused_with_the_limit() -> None:
    assert parse_command("study new " + "s" * MAX_STUDY_NAME_CHARS) == StudyNew("s" * MAX_STUDY_NAME_CHARS)
    result = parse_command("study new " + "s" * (MAX_STUDY_NAME_CHARS + 1))
    assert isinstance(result, Usage) and f"at most {MAX_STUDY_NAME_CHARS}" in result.message


@settings(max_examples=2_000, deadline=None)
@given(word=st.sampled_from(["analytics", "study new"]), rest=st.text(max_size=300))
def test_any_input_to_the_new_words_parses_or_explains(word: str, rest: str) -> None:
    result = parse_command(f"{word} {rest}")
    assert isinstance(result, (Analytics, StudyNew, ShowStudy, Usage))
    if isinstance(result, Usage):
        assert result.message.strip()
    if isinstance(result, StudyNew) and result.name is not None:
        assert 0 < len(result.name) <= MAX_STUDY_NAME_CHARS


@pytest.mark.parametrize(
    ("text", "limit_word"),
    [("export audience", "export audience"), ("export mind", "export mind"), ("duplicate audience", "duplicate")],
)
def test_profile_commands_without_a_name_say_how(text: str, limit_word: str) -> None:
    result = parse_command(text)
    assert isinstance(result, Usage) and f"/minds {limit_word}" in result.message
    long = parse_command(f"{text} " + "n" * (MAX_REF_CHARS + 1))
    assert isinstance(long, Usage) and f"at most {MAX_REF_CHARS}" in long.message


@settings(max_examples=2_000, deadline=None)
@given(word=st.sampled_from(["export audience", "export mind", "duplicate audience"]), rest=st.text(max_size=300))
def test_any_profile_input_parses_or_explains(word: str, rest: str) -> None:
    result = parse_command(f"{word} {rest}")
    assert isinstance(result, (ExportProfile, DuplicateAudience, Usage))
    if isinstance(result, ExportProfile):
        assert 0 < len(result.ref.text) <= MAX_REF_CHARS and result.format in (None, "pdf", "md", "docx", "pptx")


def test_help_lists_every_toolbox_command() -> None:
    from minds_bot.render.help import render_help

    shown = str([b.to_dict() for b in render_help().blocks])
    for usage in (
        "/minds chat &lt;mind&gt;",
        "/minds analytics &lt;study&gt;",
        "/minds study new &lt;name&gt;",
        "/minds export audience|mind &lt;name&gt; [format]",
        "/minds duplicate audience &lt;name&gt;",
        "/minds drafts",
        "/minds templates",
    ):
        assert usage in shown, usage
    for usage in ("chat Mia", "analytics x", "study new x", "export mind x", "duplicate audience x", "drafts"):
        assert not isinstance(parse_command(usage), Usage), usage
