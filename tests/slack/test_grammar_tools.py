"""The research tools' grammar, table-tested: methods, the Audience card, asking an Audience, recalibration,
invitations and models — including every length limit, whose usage message states the limit."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from minds_bot.slack.grammar import (
    MAX_INVITES,
    MAX_NAME,
    MAX_QUERY,
    MAX_QUESTION,
    Analytics,
    Ask,
    AskAudience,
    AudienceNew,
    Chat,
    Drafts,
    Duplicate,
    DuplicateAudience,
    Export,
    ExportProfile,
    Invite,
    Methods,
    Models,
    Recalibrate,
    ShowAudience,
    ShowStudy,
    StudyNew,
    StudyRef,
    Templates,
    Usage,
    parse_command,
)

TABLE = [
    ("methods", Methods(None)),
    ("method pricing", Methods("pricing")),
    ("methods van westendorp", Methods("van westendorp")),
    ("audience Gen Z sneaker buyers", ShowAudience("Gen Z sneaker buyers")),
    ('audience "Gen Z sneaker buyers"', ShowAudience("Gen Z sneaker buyers")),
    ('audience "new"', ShowAudience("new")),
    ("audience new Parents in Leeds", AudienceNew("Parents in Leeds")),
    ('ask audience "Gen Z" Why do you buy?', AskAudience("Gen Z", "Why do you buy?")),
    ("ask audience Parents Why?\nReally", AskAudience("Parents", "Why?\nReally")),
    ("ask audience", AskAudience(None, None)),
    ("ask audience Parents", AskAudience("Parents", None)),
    ('ask "audience" Why?', None),  # a Study named "audience", quoted: the ordinary ask
    ("recalibrate Gen Z", Recalibrate("Gen Z")),
    ("recalibrate", Recalibrate(None)),
    ("invite Launch a@b.co", Invite(StudyRef("Launch"), ("a@b.co",), "member")),
    (
        '"invite" "Launch positioning" <mailto:a@b.co|a@b.co> c@d.io admin',
        Invite(StudyRef("Launch positioning"), ("a@b.co", "c@d.io"), "admin"),
    ),
    ("invite Launch a@b.co a@b.co", Invite(StudyRef("Launch"), ("a@b.co",), "member")),
    ("models", Models()),
    ("model", Models()),
]


@pytest.mark.parametrize(("text", "expected"), TABLE, ids=[t for t, _ in TABLE])
def test_table(text: str, expected: object) -> None:
    parsed = parse_command(text)
    if expected is None:
        assert type(parsed).__name__ == "Ask"
    else:
        assert parsed == expected


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("methods " + "x" * (MAX_QUERY + 1), f"at most {MAX_QUERY:,} characters"),
        ("audience " + "x" * (MAX_NAME + 1), f"at most {MAX_NAME:,} characters"),
        ("ask audience Parents " + "x" * MAX_QUESTION + "?", f"at most {MAX_QUESTION:,} characters"),
        ("recalibrate " + "x" * (MAX_NAME + 1), f"at most {MAX_NAME:,} characters"),
        ("invite " + "x" * (MAX_NAME + 1) + " a@b.co", f"at most {MAX_NAME:,} characters"),
        ("invite Launch", "/minds invite <study>"),
        ("invite Launch ana", "“ana” is not an email address"),
        ("invite Launch " + " ".join(f"p{i}@x.io" for i in range(MAX_INVITES + 1)), f"At most {MAX_INVITES} people"),
        ("audience", "/minds audience <name>"),
    ],
)
def test_usage_states_the_limit(text: str, fragment: str) -> None:
    parsed = parse_command(text)
    assert isinstance(parsed, Usage) and fragment in parsed.message


def test_one_hundred_invitations_are_allowed() -> None:
    parsed = parse_command("invite Launch " + " ".join(f"p{i}@x.io" for i in range(MAX_INVITES)))
    assert isinstance(parsed, Invite) and len(parsed.emails) == MAX_INVITES


@given(st.text(max_size=300))
def test_the_new_words_never_raise(rest: str) -> None:
    for word in ("methods", "audience", "ask audience", "recalibrate", "invite", "models"):
        parse_command(f"{word} {rest}")


# Every side's commands together (issue 14's toolbox, issue 18's research tools and what came before): each
# first word and each second word that picks a sub-command parses to its own command, none shadowing another.
MERGED = [
    ("audience Parents", ShowAudience("Parents")),
    ("audience new Parents in Leeds", AudienceNew("Parents in Leeds")),
    ("export audience Parents", ExportProfile("audience", StudyRef("Parents"), None)),
    ("export mind Mia pdf", ExportProfile("mind", StudyRef("Mia"), "pdf")),
    ("export Launch", Export(StudyRef("Launch"))),
    ("duplicate audience Parents", DuplicateAudience(StudyRef("Parents"))),
    ("duplicate Launch", Duplicate(StudyRef("Launch"))),
    ("study new Launch", StudyNew("Launch")),
    ("study Launch", ShowStudy(StudyRef("Launch"))),
    ("ask audience Parents Why?", AskAudience("Parents", "Why?")),
    ("ask Launch Why?", Ask(StudyRef("Launch"), "Why?")),
    ("chat Mia", Chat("Mia")),
    ("analytics Launch", Analytics(StudyRef("Launch"))),
    ("drafts", Drafts()),
    ("templates", Templates()),
    ("invite Launch ana@example.com", Invite(StudyRef("Launch"), ("ana@example.com",))),
    ("recalibrate Parents", Recalibrate("Parents")),
    ("methods", Methods(None)),
    ("models", Models()),
]


@pytest.mark.parametrize(("text", "expected"), MERGED, ids=[text for text, _ in MERGED])
def test_every_command_of_every_side_parses(text: str, expected: object) -> None:
    assert parse_command(text) == expected


def test_help_lists_every_research_tool_and_each_section_fits_in_slack() -> None:
    from minds_bot.render.help import MAX_SECTION_TEXT, render_help

    blocks = [b.to_dict() for b in render_help().blocks]
    shown = str(blocks)
    for usage in ("/minds methods", "/minds audience &lt;name&gt;", "/minds ask audience", "/minds recalibrate"):
        assert usage in shown, usage
    for usage in ("/minds invite", "/minds models", "/minds chat", "/minds drafts", "Audience from files"):
        assert usage in shown, usage
    texts = [b["text"]["text"] for b in blocks if b["type"] == "section"]
    assert all(len(text) <= MAX_SECTION_TEXT for text in texts)
    headers = [b["text"]["text"] for b in blocks if b["type"] == "header"]
    assert len([t for t in texts if t.startswith("`/minds")]) == len(headers) - 1, "one section per group of commands"
