"""The README's command cheat-sheet is the generated one (``minds_bot/cheatsheet.py``), so it cannot drift from the
grammar and ``/minds help``: every word the grammar knows has a line, and the README's block is exactly what the
generator writes. The README stays a front door (at most 250 lines) and its links into ``docs/`` lead somewhere."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from minds_bot import cheatsheet
from minds_bot.slack.grammar import SYNONYMS, WORDS

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
MAX_README_LINES = 250


def test_the_readme_holds_the_generated_cheatsheet() -> None:
    text = README.read_text(encoding="utf-8")
    assert cheatsheet.render_cheatsheet() in text, "README.md is out of date: run python -m minds_bot.cheatsheet"
    assert cheatsheet.replace_block(text) == text


def test_every_word_of_the_grammar_has_a_line() -> None:
    commands = re.findall(r"`(/minds [^`]+)`", cheatsheet.render_cheatsheet())
    typed = {command.split()[1] for command in commands}
    assert set(WORDS) <= typed, set(WORDS) - typed
    for alias, word in SYNONYMS.items():
        assert alias == word or f"`/minds {alias}` = `/minds {word}`" in cheatsheet.render_cheatsheet()


def test_the_table_escapes_pipes_and_speaks_markdown() -> None:
    block = cheatsheet.render_cheatsheet()
    rows = [line for line in block.splitlines() if line.startswith("| ")]
    assert all(len(re.split(r"(?<!\\)\|", row)) == 5 for row in rows), "a cell holds an unescaped |"
    assert "`/minds share <study> on\\|off`" in block
    assert "**Approve & run**" in block  # Slack's *bold* became Markdown's **bold**


def test_the_generator_rewrites_a_stale_block_and_checks(tmp_path: Path) -> None:
    stale = tmp_path / "README.md"
    stale.write_text(f"# x\n\n{cheatsheet.START}\n| old |\n{cheatsheet.END}\n\nafter\n", encoding="utf-8")
    assert cheatsheet.main(["--check", str(stale)]) == 1
    assert cheatsheet.main([str(stale)]) == 0
    assert cheatsheet.main(["--check", str(stale)]) == 0
    assert stale.read_text(encoding="utf-8").endswith(f"{cheatsheet.END}\n\nafter\n")


def test_a_readme_without_markers_is_refused() -> None:
    with pytest.raises(cheatsheet.OutOfDate):
        cheatsheet.replace_block("# no markers\n")


def test_the_readme_is_a_front_door() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= MAX_README_LINES
    assert re.search(r"^scripts/run\b", text, re.MULTILINE) and re.search(r"^scripts/test\b", text, re.MULTILINE)
    for target in re.findall(r"\]\((docs/[^)#]+)", text):
        assert (ROOT / target).is_file(), target
