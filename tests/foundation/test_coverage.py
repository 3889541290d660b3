"""The coverage page and the README's coverage line are the generated ones (``minds_bot/coverage.py``), so they
cannot drift from the code: every tool of the catalogue has a row, every surface a row names exists, every client
method a row names is one the Slack layers call, and every request the client sends is read from its source."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from minds_bot import coverage
from minds_bot.minds.client import MindsClient
from minds_bot.render.help import GROUPS
from minds_bot.slack.grammar import WORDS

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
PAGE = ROOT / "docs" / "coverage.md"


def test_the_committed_page_and_readme_line_are_the_generated_ones() -> None:
    assert PAGE.read_text(encoding="utf-8") == coverage.render_page(), "run python -m minds_bot.coverage"
    text = README.read_text(encoding="utf-8")
    assert coverage.render_summary() in text, "README.md is out of date: run python -m minds_bot.coverage"
    assert coverage.replace_block(text) == text
    assert coverage.main(["--check"]) == 0


def test_every_catalogue_tool_has_exactly_one_row() -> None:
    tools = coverage.catalogue_tools()
    assert len(tools) == 43
    declared = [tool.tool for tool in coverage.TOOLS]
    assert sorted(declared) == sorted(tools), set(declared) ^ set(tools)
    page = coverage.render_page()
    for name in tools:
        assert len(re.findall(rf"^\| `{name}` \|", page, re.MULTILINE)) == 1, name


def test_a_tool_is_reachable_or_says_what_is_missing() -> None:
    for tool in coverage.TOOLS:
        assert tool.reachable == bool(tool.methods), tool.tool
        assert tool.reachable or tool.missing, tool.tool


def test_every_named_method_exists_and_is_called_from_slack() -> None:
    reached = coverage.slack_methods()
    for tool in coverage.TOOLS:
        for method in tool.methods:
            assert callable(getattr(MindsClient, method, None)), (tool.tool, method)
            assert method in reached, (tool.tool, method)


def test_every_named_surface_exists() -> None:
    helped = {line.command for group in GROUPS for line in group.lines if line.command}
    shortcuts = {line.shortcut for group in GROUPS for line in group.lines if line.shortcut}
    for tool in coverage.TOOLS:
        for surface in tool.surfaces:
            if surface.kind == "command":
                assert surface.name in helped, (tool.tool, surface.name)  # as `/minds help` lists it
                assert surface.name.split()[1] in WORDS
            if surface.kind == "shortcut":
                assert surface.name in shortcuts, (tool.tool, surface.name)


def test_the_counts_match_the_tables() -> None:
    counts = coverage.counts()
    page = coverage.render_page()
    assert f"## Tools: {counts.reachable} of {counts.tools} reachable from Slack" in page
    assert f"## Operations: the client calls {counts.called} of {counts.operations}" in page
    rows = [line for line in page.splitlines() if line.startswith("| `") and line.split("`")[1].split()[0].isupper()]
    assert len(rows) == counts.operations
    assert sum(1 for row in rows if row.endswith("| yes |")) == counts.from_slack
    assert counts.from_slack <= counts.called <= counts.operations


def test_the_client_calls_are_read_from_its_source() -> None:
    calls = coverage.client_calls()
    assert coverage.Call("POST", "/studies/{id}/heatmaps/{id}/export") in calls["export_heatmap"]
    # a Literal parameter becomes each of its values
    assert {c.path for c in calls["start_profile_export"]} == {"/audiences/{id}/export", "/minds/{id}/export"}
    # calls through the client's own methods count
    assert coverage.Call("GET", "/studies/{id}") in calls["find_study"]
    assert coverage.Call("GET", "/studies/{id}/runs").label == "GET /studies/{id}/runs"


def test_an_operation_matches_by_method_and_literal_segments() -> None:
    op = coverage.Operation("GET", "/audiences/{audienceId}", "getAudience")
    assert op.matches(coverage.Call("GET", "/audiences/{id}"))
    assert not op.matches(coverage.Call("GET", "/audiences/limits"))
    assert not op.matches(coverage.Call("POST", "/audiences/{id}"))


def test_the_generator_rewrites_stale_files_and_checks(tmp_path: Path) -> None:
    readme, page = tmp_path / "README.md", tmp_path / "coverage.md"
    readme.write_text(f"# x\n\n{coverage.START}\nold\n{coverage.END}\n\nafter\n", encoding="utf-8")
    page.write_text("old\n", encoding="utf-8")
    assert coverage.main(["--check", str(readme), str(page)]) == 1
    assert coverage.main([str(readme), str(page)]) == 0
    assert coverage.main(["--check", str(readme), str(page)]) == 0
    assert readme.read_text(encoding="utf-8").endswith(f"{coverage.END}\n\nafter\n")


def test_a_readme_without_markers_is_refused() -> None:
    with pytest.raises(coverage.OutOfDate):
        coverage.replace_block("# no markers\n")
