"""Finds words meant for people that do not go through the catalogs (``_``, ``_n``, ``N_`` of ``minds_bot.i18n``).

A string in the code is prose when it holds two words of two or more letters in a row. Prose is allowed only
as a message id (the first arguments of ``_``/``_n``/``N_``), as a docstring, in a log call, in the message of
a built-in exception (``ValueError`` and the like: for developers), in a ``Literal[...]`` annotation, or on a
line whose comment ends with ``verbatim`` (``# verbatim``, ``# for logs, verbatim``: command syntax such as
``/minds plan <study> <request>``, product names, text only operators read).
A mark Babel cannot extract (an f-string message, a ``_()`` inside an f-string) is reported too.

Fragments (``fragments()``) are the other way words bypass the catalogs: no prose, but numbers and symbols that each
language writes its own way, assembled in code — an f-string whose literal parts hold no letters yet put a ``%``
after a value, brackets around one, a list separator or a bare space between two values (``f"{tip} {caveat}"``:
Chinese puts no space between sentences), or a number format spec (``{mean:.1f}``: English decimals); and a
``", ".join(…)``, ``" · ".join(…)``, ``"; ".join(…)`` or ``" / ".join(…)`` of things people read. They go through
``minds_bot.i18n`` instead (``format_share``, ``format_decimal``, ``join_list``, ``annotate``/``bracket``,
``separated``, ``sentences``) or into a message, where a translator picks the punctuation — but not a ``%`` after
a placeholder in a message (``"{share}%"``): the share is formatted whole by ``format_share``. The exemptions of prose
apply (docstrings, logs, developer errors, ``# verbatim``), and so does one more: a pattern for ``re``.
Run it as ``python tests/i18n/bypass.py minds_bot/render/help.py …`` to list what is left in some modules.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

PROSE = re.compile(r"[A-Za-z]{2,}[,;:.!?'’]?\s+[A-Za-z]{2,}")
COMMAND = "/minds "  # command syntax is the same in every language
MARKERS = {"_", "_n", "N_"}
VERBATIM = re.compile(r"#[^#\n]*\bverbatim\s*$")  # "# verbatim", or "# command syntax, verbatim"
LOG_NAMES = {"log", "logger", "logging"}
DEVELOPER_ERRORS = {
    "ValueError",
    "TypeError",
    "RuntimeError",
    "KeyError",
    "AssertionError",
    "NotImplementedError",
    "LookupError",
    "AttributeError",
}


def _call_name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _exempt_nodes(tree: ast.AST) -> set[int]:
    exempt: set[int] = set()

    def cover(node: ast.AST) -> None:
        exempt.update(id(n) for n in ast.walk(node))

    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (
            isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
        ):
            cover(body[0])
        if isinstance(node, ast.Call):
            name = _call_name(node.func)
            owner = node.func.value if isinstance(node.func, ast.Attribute) else None
            if name in MARKERS:
                for arg in node.args[:2]:
                    cover(arg)
            elif isinstance(owner, ast.Name) and owner.id in LOG_NAMES or name in DEVELOPER_ERRORS:
                cover(node)
        if isinstance(node, ast.Subscript) and _call_name(node.value) == "Literal":
            cover(node)
        if isinstance(node, ast.AnnAssign | ast.arg) and getattr(node, "annotation", None) is not None:
            cover(node.annotation)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.returns is not None:
            cover(node.returns)
    return exempt


def bypasses(path: Path) -> list[tuple[int, str]]:
    """``(line, text)`` of each piece of prose in ``path`` that bypasses the catalogs."""
    source = path.read_text()
    lines = source.splitlines()
    tree = ast.parse(source)
    exempt = _exempt_nodes(tree)
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if id(node) in exempt:
            continue
        if isinstance(node, ast.JoinedStr):  # an f-string: its words around the {values}
            text = "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
            exempt.update(id(v) for v in node.values)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
        else:
            continue
        if not PROSE.search(text.replace("{}", "")) or text.lstrip("`").startswith(COMMAND):
            continue
        end = getattr(node, "end_lineno", node.lineno) or node.lineno
        if any(VERBATIM.search(lines[n - 1]) for n in range(node.lineno, end + 1)):
            continue
        found.append((node.lineno, text))
    found += _unextractable(tree)
    return sorted(found)


def _unextractable(tree: ast.AST) -> list[tuple[int, str]]:
    """Marks Babel cannot extract: a message built with an f-string, or a ``_("…")`` inside an f-string's
    ``{…}`` — either would show English whatever the language."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        marker = isinstance(node, ast.Call) and _call_name(node.func) in MARKERS and node.args
        if marker and isinstance(node.args[0], ast.JoinedStr):  # type: ignore[attr-defined]
            found.append((node.lineno, "a message built with an f-string"))
        if isinstance(node, ast.JoinedStr):
            for value in node.values:
                for inner in ast.walk(value):
                    literal = isinstance(inner, ast.Call) and inner.args and isinstance(inner.args[0], ast.Constant)
                    if literal and _call_name(inner.func) in MARKERS:  # type: ignore[union-attr]
                        found.append((inner.lineno, "a message marked inside an f-string"))
    return found


SEPARATORS = {", ", "; ", " · ", " / ", " | ", "、"}
# Decimals, grouping, percent, float formats; not "02d" (a clock's padding) nor a strftime spec ("%H:%M").
NUMBER_SPEC = re.compile(r"^(?!.*%[a-zA-Z])(.*[.,_%]|.*[eg]$)")
LETTER = re.compile(r"[^\W\d_]")
# Brackets, a percent sign, a list separator, a colon before a space (Chinese "："), a middle dot or slash between
# spaces ("<{url}|{label}>" is Slack's, "{team}:{user}" a key).
NEEDS_LOCALE = re.compile(r"[(（)）%、]|[,;](\s|$)|:\s|\s[·/|]|[·/|]\s")
PERCENT_IN_MESSAGE = re.compile(r"\}\s?%")  # "{share}%": German wants "75 %", which only Babel writes right
REGEX_CALLS = {"compile", "match", "fullmatch", "search", "sub", "split", "findall", "finditer"}


def fragments(path: Path) -> list[tuple[int, str]]:
    """``(line, what)`` of each place in ``path`` that assembles numbers and symbols people read without the
    spoken language's formatting (see the module docstring)."""
    source = path.read_text()
    lines = source.splitlines()
    tree = ast.parse(source)
    exempt = _exempt_nodes(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _call_name(node.func) in REGEX_CALLS:
            exempt.update(id(n) for arg in node.args[:1] for n in ast.walk(arg))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if id(node) in exempt or not hasattr(node, "lineno"):
            continue
        what = _fragment(node)
        end = getattr(node, "end_lineno", node.lineno) or node.lineno
        if what and not any(VERBATIM.search(lines[n - 1]) for n in range(node.lineno, end + 1)):
            found.append((node.lineno, what))
    return sorted(set(found))


def _fragment(node: ast.AST) -> str | None:
    if isinstance(node, ast.Call) and _call_name(node.func) in MARKERS and node.args:
        message = [a.value for a in node.args[:2] if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        if any(PERCENT_IN_MESSAGE.search(text) for text in message):
            return "a percent sign after a placeholder in a message: pass the value through i18n.format_share"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "join":
        separator = node.func.value
        if isinstance(separator, ast.Constant) and separator.value in SEPARATORS:
            return f"a list joined with {separator.value!r}: i18n.join_list or i18n.separated"
    if not isinstance(node, ast.JoinedStr):
        return None
    for value in node.values:
        spec = value.format_spec if isinstance(value, ast.FormattedValue) else None
        if isinstance(spec, ast.JoinedStr):
            text = "".join(v.value for v in spec.values if isinstance(v, ast.Constant))
            if NUMBER_SPEC.search(text):
                return f"a number formatted with {{:{text}}}: i18n.format_number/format_decimal/format_share"
    literal = [v.value for v in node.values if isinstance(v, ast.Constant)]
    placed = sum(isinstance(v, ast.FormattedValue) for v in node.values)
    if not placed or any(LETTER.search(text) for text in literal):
        return None  # words: the prose check's business
    if isinstance(node.values[0], ast.Constant) and node.values[0].value.startswith("^"):
        return None  # a regular expression
    if any(NEEDS_LOCALE.search(text) for text in literal):
        return "values joined with symbols a language writes its own way: i18n helpers or a message"
    values = node.values
    for before, between, after in zip(values, values[1:], values[2:], strict=False):
        spaced = isinstance(between, ast.Constant) and between.value == " "
        if spaced and isinstance(before, ast.FormattedValue) and isinstance(after, ast.FormattedValue):
            return "two values joined with a space: i18n.sentences or a message"
    return None


if __name__ == "__main__":
    for name in sys.argv[1:]:
        for line, text in bypasses(Path(name)) + fragments(Path(name)):
            print(f"{name}:{line}: {text[:100]!r}")
