"""Keeping the catalogs in step with the code: ``python -m minds_bot.i18n.catalogs``.

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
from collections.abc import Iterable
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from minds_bot.i18n import DOMAIN, LANGUAGES, LOCALES_DIR, SOURCE_LANGUAGE

PACKAGE_DIR = LOCALES_DIR.parent.parent
TEMPLATE = LOCALES_DIR / f"{DOMAIN}.pot"
KEYWORDS = {"_": None, "_n": (1, 2), "N_": None}
METHODS = [("**.py", "python")]
_PLACEHOLDER = re.compile(r"(?<!\{)\{([a-zA-Z_][a-zA-Z0-9_]*)(?::[^{}]*)?\}(?!\})")


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


def merge(translations: list[dict[str, object]]) -> list[str]:
    """Fill the catalogs from ``[{"id": …, "plural"?: …, "de": str | [forms], …}]`` (translations written
    outside the .po files); a translation that loses or adds a placeholder is refused and said."""
    problems: list[str] = []
    for language in LANGUAGES:
        if language == SOURCE_LANGUAGE:
            continue
        path = po_path(language)
        catalog = read(path, locale=language)
        for entry in translations:
            message_id = str(entry["id"]) if "plural" not in entry else (str(entry["id"]), str(entry["plural"]))
            message = catalog.get(message_id)
            given = entry.get(language)
            if message is None or given is None:
                if message is None:
                    problems.append(f"{language}: not in the catalog: {str(entry['id'])[:60]!r}")
                continue
            if isinstance(given, str):
                forms: list[object] = [given]
            elif isinstance(given, Iterable):
                forms = list(given)
            else:
                raise TypeError(f"{language}: a translation is a string or a list of forms, not {given!r}")
            if not _same_placeholders(entry, [str(form) for form in forms]):
                problems.append(f"{language}: placeholders differ: {str(entry['id'])[:60]!r}")
                continue
            if isinstance(message.id, tuple):
                count = catalog.num_plurals
                forms = (forms + forms[-1:] * count)[:count]
                message.string = tuple(str(f) for f in forms)
            else:
                message.string = str(forms[0])
        _write(path, catalog)
    return problems


def _same_placeholders(entry: dict[str, object], forms: list[str]) -> bool:
    """A singular message's translation has exactly its placeholders; a plural's forms use only the message's
    (a form for one may say "one" instead of ``{count}``), and its last form has all of the plural's."""
    if "plural" not in entry:
        return all(placeholders(form) == placeholders(str(entry["id"])) for form in forms)
    plural = placeholders(str(entry["plural"]))
    allowed = placeholders(str(entry["id"])) | plural | {"count"}
    return all(placeholders(form) <= allowed for form in forms) and placeholders(forms[-1]) == plural


def _translated(string: object) -> bool:
    if isinstance(string, tuple | list):
        return all(bool(s) for s in string)
    return bool(string)


if __name__ == "__main__":
    said = update()
    if sys.argv[1:2] == ["--merge"]:  # then JSON files of translations: see ``merge``
        import json

        entries = [entry for name in sys.argv[2:] for entry in json.loads(Path(name).read_text())]
        print("\n".join(merge(entries)) or f"merged {len(entries)} messages")
        said = update()
    print("\n".join(said))
