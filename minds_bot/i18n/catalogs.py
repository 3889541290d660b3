"""Keeping the catalogs in step with the code: ``python -m minds_bot.i18n.catalogs`` (or ``scripts/catalogs``).

Owns: extracting every ``_("…")`` and ``_n("…", "…", n)`` message of the bot (the sandbox servers are not the
bot and speak English) into ``locales/messages.pot``, and merging that template into each language's
``messages.po``: new messages arrive untranslated (English until someone translates them — the catalog test
fails on them), removed ones are dropped, existing translations are kept. ``placeholders`` names the ``{name}``
fields of a message, which every translation must keep exactly.
Must not touch: anything at run time — the bot only reads the ``.po`` files (``minds_bot.i18n``).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from minds_bot.i18n import DOMAIN, LANGUAGES, LOCALES_DIR, SOURCE_LANGUAGE

PACKAGE_DIR = LOCALES_DIR.parent.parent
TEMPLATE = LOCALES_DIR / f"{DOMAIN}.pot"
KEYWORDS = {"_": None, "_n": (1, 2), "N_": None}
METHODS = [("sandbox/**.py", "ignore"), ("**.py", "python")]
_PLACEHOLDER = re.compile(r"(?<!\{)\{([a-zA-Z_][a-zA-Z0-9_]*)\}(?!\})")


def placeholders(text: str) -> set[str]:
    """The ``{name}`` fields of a message (``{{`` and ``}}`` are literal braces)."""
    return set(_PLACEHOLDER.findall(text))


def extract() -> Catalog:
    """Every message the code marks, with where it is used."""
    catalog = Catalog(project="minds-bot", version="", copyright_holder="minds-bot", charset="utf-8", fuzzy=False)
    for filename, lineno, message, comments, context in extract_from_dir(
        str(PACKAGE_DIR), method_map=METHODS, keywords=KEYWORDS, comment_tags=("i18n:",), strip_comment_tags=True
    ):
        catalog.add(message, None, [(f"minds_bot/{filename}", lineno)], auto_comments=comments, context=context)
    return catalog


def po_path(language: str) -> Path:
    return LOCALES_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def read(path: Path, *, locale: str | None = None) -> Catalog:
    with path.open("rb") as file:
        return read_po(file, locale=locale)


def _write(path: Path, catalog: Catalog) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as file:
        write_po(file, catalog, width=116, include_lineno=False, include_previous=False)


def update() -> list[str]:
    """Write the template and merge it into every translated language; returns what changed, per file."""
    template = extract()
    _write(TEMPLATE, template)
    said = [f"{TEMPLATE.name}: {len(template)} messages"]
    for language in LANGUAGES:
        if language == SOURCE_LANGUAGE:
            continue
        path = po_path(language)
        catalog = read(path, locale=language) if path.exists() else Catalog(locale=language, project="minds-bot")
        catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
        catalog.obsolete.clear()
        _write(path, catalog)
        missing = sum(1 for m in catalog if m.id and not _translated(m.string))
        said.append(f"{language}: {len(catalog) - 1} messages, {missing} untranslated")
    return said


def _translated(string: object) -> bool:
    if isinstance(string, tuple | list):
        return all(bool(s) for s in string)
    return bool(string)


if __name__ == "__main__":
    print("\n".join(update()))
    sys.exit(0)
