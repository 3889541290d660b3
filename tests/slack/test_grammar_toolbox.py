"""The /minds grammar for the rest of the toolbox (chat, …): table tests, length bounds stated in the usage
message, and a property test that no input to these words breaks the parser."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minds_bot.slack.grammar import MAX_REF_CHARS, Chat, Usage, parse_command

TABLE = [
    ("chat Mia", Chat("Mia")),
    ("chat Mia Novak", Chat("Mia Novak")),
    ('chat "Mia Novak"', Chat("Mia Novak")),
    ("chat “Mia Novak”", Chat("Mia Novak")),
    ("CHAT 00000000-0000-0000-0000-000000000031", Chat("00000000-0000-0000-0000-000000000031")),
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
