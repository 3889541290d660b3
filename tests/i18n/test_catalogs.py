"""The five languages: the catalogs match the code, every language says every message with the same
placeholders, nothing people read bypasses the catalogs, and long German and CJK text stays within Slack's limits."""

from __future__ import annotations

from pathlib import Path

import pytest

from minds_bot import i18n
from minds_bot.i18n import catalogs
from tests.i18n.bypass import bypasses, fragments

PACKAGE = Path(i18n.__file__).parent.parent
TRANSLATED = [language for language in i18n.LANGUAGES if language != i18n.SOURCE_LANGUAGE]
# Modules whose words are not for the people using the bot in Slack: HTTP answers to Slack's servers before a
# request is verified, the manifest (Slack shows an app's manifest texts in the language it was written in), and
# the operator's console (command line, start-up checks, settings errors, logs).
NOT_FOR_SLACK_USERS = {
    "app.py",
    "checks.py",
    "cli.py",
    "demo.py",
    "log.py",
    "settings.py",
    "i18n/catalogs.py",
    "slack/gate.py",
    "slack/refusals.py",
    "slack/manifest.py",
    "slack/surface.py",
}
SCANNED_PACKAGES = ("render", "slack", "flows", "minds")


def _scanned() -> list[Path]:
    files = sorted((PACKAGE / "services").rglob("*.py"))
    for package in SCANNED_PACKAGES:
        files += sorted((PACKAGE / package).rglob("*.py"))
    return [f for f in files if str(f.relative_to(PACKAGE)) not in NOT_FOR_SLACK_USERS]


def _ids(catalog: object) -> set[object]:
    return {message.id for message in catalog if message.id}  # type: ignore[attr-defined]


def test_the_template_lists_exactly_the_messages_the_code_marks() -> None:
    """Fails when someone marks or changes a message without running ``scripts/catalogs``."""
    committed = catalogs.read(catalogs.TEMPLATE)
    assert _ids(catalogs.extract()) == _ids(committed)


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_is_translated_with_the_same_placeholders(language: str) -> None:
    template = catalogs.read(catalogs.TEMPLATE)
    catalog = catalogs.read(catalogs.po_path(language), locale=language)
    missing, fuzzy, broken = [], [], []
    for source in template:
        if not source.id:
            continue
        message = catalog.get(source.id)
        if message is None or not catalogs._translated(message.string):
            missing.append(source.id)
            continue
        if message.fuzzy:
            fuzzy.append(source.id)
        entry = {"id": source.id[0], "plural": source.id[1]} if isinstance(source.id, tuple) else {"id": source.id}
        forms = list(message.string) if isinstance(message.string, tuple) else [message.string]
        if not catalogs._same_placeholders(entry, forms):
            broken.append(source.id)
    assert not missing, f"{len(missing)} untranslated, e.g. {missing[:3]}"
    assert not fuzzy, f"{len(fuzzy)} fuzzy, e.g. {fuzzy[:3]}"
    assert not broken, f"placeholders differ: {broken[:3]}"


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_translation_can_be_filled_in(language: str) -> None:
    """A stray brace or a misspelt placeholder would raise when the message is shown; each is filled here."""
    template = catalogs.read(catalogs.TEMPLATE)
    with i18n.speaking(language):
        for source in template:
            if not source.id:
                continue
            if isinstance(source.id, tuple):
                names = catalogs.placeholders(source.id[0]) | catalogs.placeholders(source.id[1])
                for count in (1, 2, 5, 21):
                    i18n._n(source.id[0], source.id[1], count, **{n: "x" for n in names - {"count"}})
            else:
                names = catalogs.placeholders(source.id)
                if names:
                    i18n._(source.id, **{n: "x" for n in names})


def test_a_translation_is_used_and_english_is_the_source() -> None:
    with i18n.speaking("de"):
        assert i18n._("Refresh") == "Aktualisieren"
        assert i18n._n("{count} Study", "{count} Studies", 1200) == "1.200 Studies"
    with i18n.speaking("ko"):
        assert i18n._("Refresh") == "새로 고침"
    assert i18n._("Refresh") == "Refresh"
    with i18n.speaking("fr"):  # not one of ours: English
        assert i18n._("Refresh") == "Refresh"


@pytest.mark.parametrize("path", _scanned(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_words_for_people_bypass_the_catalogs(path: Path) -> None:
    found = bypasses(path) + fragments(path)
    assert not found, "\n".join(f"{path.name}:{line}: {text[:80]!r}" for line, text in found)


def test_the_bypass_check_finds_an_unmarked_message(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        '"""A docstring is fine."""\n'
        "from minds_bot.i18n import _\n"
        "log.info('logs are for operators')\n"
        "ok = _('Plan research')\n"
        "command = '/minds plan <study> <request>'\n"
        "name = 'Acme Research'  # verbatim\n"
        "bad = f'Run {name} finished'\n"
        "worse = 'Nothing was sent to Minds'\n"
    )
    assert [line for line, _text in bypasses(sample)] == [7, 8]


def test_the_bypass_check_finds_numbers_and_symbols_assembled_in_code(tmp_path: Path) -> None:
    """Fragments with no words in them still read English: "75%", "3.9", "(Gen Z)", "A, B", "tip caveat"."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from minds_bot.i18n import _, join_list\n"
        "share = f'{value}%'\n"
        "mean = f'{mean:.1f}'\n"
        "named = f'{line} ({name})'\n"
        "listed = ', '.join(names)\n"
        "figures = ' · '.join(parts)\n"
        "both = f'{tip} {caveat}'\n"
        "fine = join_list(names) + f'*{title}*\\n{body}' + f'<{url}|{label}>' + f'{hour:02d}:{minute}'\n"
        "pattern = re.compile(rf'^({first}|{second})$')\n"
        "logged = f'{method} {path}'  # for logs, verbatim\n"
        "progress = _('Building: {status} ({progress}%)', status=s, progress=p)\n"
        "labelled = f'{label}: {text}'\n"
        "key = f'{team}:{user}'\n"
    )
    assert [line for line, _text in fragments(sample)] == [2, 3, 4, 5, 6, 7, 11, 12]


@pytest.mark.parametrize(
    ("locale", "language"),
    [
        ("de-DE", "de"),
        ("de_AT", "de"),
        ("es-LA", "es"),
        ("zh-CN", "zh"),
        ("zh-Hans", "zh"),
        ("zh-TW", None),  # Traditional Chinese is not Simplified
        ("ko-KR", "ko"),
        ("en-GB", "en"),
        ("fr-FR", None),
        ("", None),
        (None, None),
    ],
)
def test_slack_locales_map_to_the_bots_languages(locale: str | None, language: str | None) -> None:
    assert i18n.language_of(locale) == language


def test_numbers_and_percentages_follow_the_language() -> None:
    expected = {
        "en": ("1,234,567.5", "42%"),
        "de": ("1.234.567,5", "42\xa0%"),  # a no-break space, as German and Spanish write it
        "es": ("1.234.567,5", "42\xa0%"),
        "ko": ("1,234,567.5", "42%"),
    }
    for language, (number, percent) in expected.items():
        with i18n.speaking(language):
            assert (i18n.format_number(1234567.5), i18n.format_percent(0.42)) == (number, percent)


def test_sentences_follow_each_other_as_the_language_writes_them() -> None:
    with i18n.speaking("zh"):
        assert i18n.sentences("没有新的修订版。", None, "上面的计划未变。") == "没有新的修订版。上面的计划未变。"
    with i18n.speaking("ko"):
        joined = i18n.sentences("새 수정본이 없습니다.", "", "계획은 그대로입니다.")
        assert joined == "새 수정본이 없습니다. 계획은 그대로입니다."
