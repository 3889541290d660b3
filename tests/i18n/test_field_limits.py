"""Every language's translation of every length-limited Block Kit field fits Slack's limit (issue 34 row 15):
Slack cuts a checkbox or option text at 75 characters, a button at 75, a modal's title, submit and close at 24 —
so a German or Spanish consent checkbox must be written to fit, never cut. The fields are found in the code
(``View(title=_(…))``, ``Option(text=_(…))``, ``button(_(…))`` …) and each catalog's translation is measured."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from minds_bot import i18n
from minds_bot.i18n import catalogs

PACKAGE = Path(i18n.__file__).resolve().parents[2]  # the checkout: minds_bot/ is scanned
OPTION_TEXT = 75  # a checkbox, radio or select option's text (and description)
BUTTON_TEXT = 75
VIEW_TEXT = 24  # a modal's title, submit and close

# (callable name, keyword or positional index) → Slack's limit for that field
FIELDS: dict[tuple[str, str | int], int] = {
    ("View", "title"): VIEW_TEXT,
    ("View", "submit"): VIEW_TEXT,
    ("View", "close"): VIEW_TEXT,
    ("Option", "text"): OPTION_TEXT,
    ("Option", "label"): OPTION_TEXT,
    ("Option", "description"): OPTION_TEXT,
    ("ButtonElement", "text"): BUTTON_TEXT,
    ("button", 0): BUTTON_TEXT,
    ("button", "text"): BUTTON_TEXT,
}


def _message(node: ast.expr) -> str | None:
    """The message id of ``_("…")`` or ``_(CONSTANT)`` resolved later; None for anything else."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "_" and node.args:
        first = node.args[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            return first.value
    return None


def limited_messages() -> dict[str, tuple[int, str]]:
    """Message id → (Slack's limit, where it is used) for every literal message in a length-limited field."""
    found: dict[str, tuple[int, str]] = {}
    for path in sorted((PACKAGE / "minds_bot").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
            places: list[tuple[str | int, ast.expr]] = [(k.arg, k.value) for k in node.keywords if k.arg]
            places += list(enumerate(node.args))
            for place, value in places:
                limit = FIELDS.get((str(name), place))
                message = _message(value) if limit else None
                if limit and message:
                    where = f"{path.relative_to(PACKAGE)}:{node.lineno}"
                    found[message] = (min(limit, found.get(message, (limit, ""))[0]), where)
    return found


def test_the_scan_finds_the_consent_checkbox_and_the_modal_titles() -> None:
    found = limited_messages()
    assert found["I opt in to the advanced methods above"][0] == OPTION_TEXT
    assert found["Say in the channel how each run ended"][0] == OPTION_TEXT
    assert found["Connect Minds"][0] == VIEW_TEXT
    assert len(found) > 40


@pytest.mark.parametrize("language", list(i18n.LANGUAGES))
def test_every_translation_of_a_length_limited_field_fits(language: str) -> None:
    found = limited_messages()
    catalog = catalogs.read(catalogs.po_path(language), locale=language) if language != "en" else None
    too_long = []
    for message, (limit, where) in sorted(found.items()):
        said = message if catalog is None else (catalog.get(message).string if catalog.get(message) else "")
        shown = said
        for name in catalogs.placeholders(message):  # a placeholder counts as at least one character
            shown = shown.replace("{" + name + "}", "x")
        if len(shown) > limit:
            too_long.append(f"{where}: {len(shown)} > {limit}: {said!r}")
    assert not too_long, "\n".join(too_long)
