"""The bot's five languages: message catalogs (gettext, managed with Babel) and locale-aware formatting.

Owns: ``_``, ``_n`` and ``N_`` (look a message up in the language being spoken, then fill its ``{named}``
placeholders), ``speaking``/``speak``/``in_channel`` (the language for a block or the rest of a task — the
person's, or the channel's for what everyone there reads — held in context variables, so renderers need no extra
parameter), ``language_of`` (a Slack locale such as ``de-DE`` → one of ``LANGUAGES`` or None), the Babel
formatters for numbers, percentages, decimals, signed scores and dates in the spoken language (times people read are
Slack ``<!date>`` tokens, which Slack shows in each reader's own format: ``render.common.slack_date``), and the
punctuation the bot puts around words it did not write (names, options from Minds): ``join_list`` (", " or
Chinese "、"; "and"/"or" lists from Babel's list patterns), ``bracket``/``annotate`` (full-width brackets in
Chinese, with no space before them), ``separated`` (the " · " between figures) and ``sentences`` — each keeps bold
renderable (``markup.renderable``) where it joins. A renderer never joins fragments people read with literal
separators, brackets or ``%``: ``tests/i18n/bypass.py`` finds them.
English is the source language: a message's id is its English text, so English needs no catalog. The other
catalogs are ``locales/<lang>/LC_MESSAGES/messages.po``, read and compiled in memory the first time their
language is spoken (English-only processes never load one). ``python -m minds_bot.i18n.catalogs`` re-extracts
``locales/messages.pot`` from the code and merges it into each catalog; tests keep all of them in step.
Placeholders are ``{name}`` (``str.format``): a value is inserted after translation, so a translator can move it.
A Korean translation may give a placeholder a particle as its format spec — ``{study:을}``, ``{count:이}``,
``{name:은}``, ``{audience:과}``, ``{revision:으로}`` (either form of a pair names it) — and gets the form the
value's last syllable takes ("Study를", "수정본 2가", "3이"; ``minds_bot.i18n.korean``); never "을(를)" after a
placeholder. Where a mark closes between the value and its particle, ``~`` gives the particle alone:
``“{query}”{query:~과}`` → “가격”과, ``*{account}*{account:~으로}`` → *Acme*로. After a literal word a
translation writes the right particle itself.
Every message ``_``/``_n`` return goes through ``markup.renderable`` after its values are filled in: a ``*bold*``
or ``_italic_`` span whose outer side touches Hangul or CJK gets a zero-width space there, so Slack renders it
(renderers that put markup around text outside a message call ``renderable`` themselves).
The house terms of each language (Minds' own words: Study, Audience, Mind, revision, approve, run, digest,
summary, recalibrate, members, coverage …) are ``glossary.TERMS``; a test holds every catalog to them.
Must not touch: Slack, Minds, the store — this sits at the bottom of the layers.
"""

from __future__ import annotations

import contextvars
import gettext
import io
import string
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import date, datetime
from functools import cache
from pathlib import Path
from typing import Any

from minds_bot.i18n.korean import PARTICLES, particle
from minds_bot.i18n.markup import renderable

LOCALES_DIR = Path(__file__).parent / "locales"
DOMAIN = "messages"
SOURCE_LANGUAGE = "en"
# The languages the bot speaks, each named as its speakers name it (for pickers).
LANGUAGES: dict[str, str] = {
    "en": "English",
    "de": "Deutsch",
    "es": "Español",
    "zh": "简体中文",
    "ko": "한국어",
}
# Babel's locale for each language: the region whose conventions a team most likely expects by default (English
# as the bot always wrote it: "1 January 2027", 24-hour times).
_BABEL_LOCALES = {"en": "en_GB", "de": "de_DE", "es": "es_ES", "zh": "zh_Hans_CN", "ko": "ko_KR"}

# The punctuation around words the bot did not write. Languages not named use the English ones.
LIST_SEPARATORS = {"zh": "、"}
CLAUSE_SEPARATORS = {"zh": "；"}
BRACKETS = {"zh": ("（", "）")}
FIGURE_SEPARATOR = " · "
CHOICE_SEPARATOR = " / "
MINUS = "−"  # U+2212: a negative score is written with a true minus in every language, never a hyphen

_spoken: contextvars.ContextVar[str] = contextvars.ContextVar("minds_bot_language", default=SOURCE_LANGUAGE)
# What a message posted to a channel speaks while a person's request is handled: the workspace's language.
_channel: contextvars.ContextVar[str] = contextvars.ContextVar("minds_bot_channel_language", default=SOURCE_LANGUAGE)


def language_of(locale: str | None) -> str | None:
    """One of ``LANGUAGES`` for a Slack or BCP 47 locale (``de-DE``, ``zh-CN``, ``ko``, ``es_419``); None when the
    bot does not speak it. Traditional Chinese (``zh-TW``, ``zh-HK``, ``zh-Hant``) is not Simplified: None."""
    if not isinstance(locale, str) or not locale.strip():
        return None
    parts = locale.strip().replace("_", "-").lower().split("-")
    if parts[0] == "zh" and any(p in ("tw", "hk", "mo", "hant") for p in parts[1:]):
        return None
    return parts[0] if parts[0] in LANGUAGES else None


def spoken() -> str:
    """The language being spoken now (English unless ``speaking`` says otherwise)."""
    return _spoken.get()


@contextmanager
def speaking(language: str | None) -> Iterator[str]:
    """Speak ``language`` (English when None or not one of ours) inside the block."""
    token = _spoken.set(language if language in LANGUAGES else SOURCE_LANGUAGE)
    try:
        yield _spoken.get()
    finally:
        _spoken.reset(token)


def speak(language: str | None, *, channel: str | None = None) -> None:
    """Speak ``language`` for the rest of the current task (a Bolt listener's, a tracker run's), and ``channel``
    (default: the same) in what ``in_channel`` renders."""
    _spoken.set(language if language in LANGUAGES else SOURCE_LANGUAGE)
    _channel.set(channel if channel in LANGUAGES else _spoken.get())


@contextmanager
def in_channel() -> Iterator[str]:
    """Speak the channel's language (the workspace's) inside the block: for messages everyone in it reads."""
    with speaking(_channel.get()) as language:
        yield language


def _(message: str, /, **values: Any) -> str:
    """``message`` in the spoken language, its ``{placeholders}`` filled from ``values``."""
    text = _translations(_spoken.get()).gettext(message)
    return renderable(_FORMATTER.vformat(text, (), values) if values else text)


def sentences(*parts: str | None) -> str:
    """Whole sentences one after the other, as the spoken language writes them: Chinese puts none of the spaces
    the others put between them (so a bold sentence end meeting the next gets ``renderable``'s space)."""
    return renderable(("" if _spoken.get() == "zh" else " ").join(part for part in parts if part))


def join_list(items: Iterable[str], *, style: str = "list") -> str:
    """Items one after the other as the spoken language lists them. ``style="list"``: a plain enumeration
    ("A, B, C"; Chinese "A、B、C"), for names and options that may be followed by "and 3 more"; ``"clauses"``:
    phrases that each say something ("2 questions with missing answers; 9 of 12 answers received"; Chinese "；");
    ``"choices"``: alternatives to pick from ("Yes / No", the same slash in every language); ``"and"``/``"or"``:
    a closed list with the last item joined by the language's word ("A, B and C", "A、B和C"), from Babel."""
    shown = [item for item in items if item]
    if style == "clauses":
        return renderable(CLAUSE_SEPARATORS.get(_spoken.get(), "; ").join(shown))
    if style == "choices":
        return renderable(CHOICE_SEPARATOR.join(shown))
    if style == "list" or len(shown) < 2:
        return renderable(LIST_SEPARATORS.get(_spoken.get(), ", ").join(shown))
    from babel.lists import format_list

    return renderable(format_list(shown, style="standard" if style == "and" else "or", locale=babel_locale()))


def bracket(text: str) -> str:
    """``text`` in round brackets as the spoken language writes them: "(text)", Chinese "（text）"."""
    left, right = BRACKETS.get(_spoken.get(), ("(", ")"))
    return f"{left}{text}{right}"


def annotate(head: str, note: str | None) -> str:
    """``head`` followed by ``note`` in brackets: "Gen Z (2)", Chinese "Z世代（2）" (no space before a full-width
    bracket); ``head`` alone when there is no note."""
    if not note:
        return head
    space = "" if _spoken.get() in BRACKETS else " "
    return renderable(f"{head}{space}{bracket(note)}")  # "*Gen Z*（…）": bold that touches "（" needs its space


def separated(parts: Iterable[str | None]) -> str:
    """Figures or facts side by side ("mean 3.9 · top-2-box 75%"): the middle dot the bot uses between them,
    which every language it speaks reads the same way (Chinese and Korean included); empty parts are left out."""
    return renderable(FIGURE_SEPARATOR.join(part for part in parts if part))


def N_(message: str, /) -> str:  # gettext's name for it
    """Marks a message for the catalogs where it is defined (a module constant); translate it where it is used,
    ``_(CONSTANT)``, so it speaks the language of the moment."""
    return message


def _n(singular: str, plural: str, count: int, /, **values: Any) -> str:
    """The form of a message for ``count`` (``{count}`` is always available to it), in the spoken language."""
    text = _translations(_spoken.get()).ngettext(singular, plural, count)
    return renderable(_FORMATTER.vformat(text, (), {"count": format_number(count), **values}))


class _Formatter(string.Formatter):
    """``str.format``, plus a Korean particle as a format spec: ``{name:을}`` → the value and 을 or 를;
    ``{name:~을}`` → only 을 or 를 (for a particle after a quote or bold that closes around the value)."""

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec in PARTICLES:
            text = format(value, "")
            return text + particle(text, format_spec)
        if format_spec[:1] == "~" and format_spec[1:] in PARTICLES:  # the particle alone, after a closing mark
            return particle(format(value, ""), format_spec[1:])
        return str(super().format_field(value, format_spec))


_FORMATTER = _Formatter()


@cache
def _translations(language: str) -> Any:
    """The compiled catalog of ``language``; English (the source) and a missing catalog translate to themselves."""
    po = LOCALES_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    if language == SOURCE_LANGUAGE or not po.exists():
        return gettext.NullTranslations()
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as file:
        catalog = read_po(file, locale=_BABEL_LOCALES[language])
    compiled = io.BytesIO()
    write_mo(compiled, catalog)  # untranslated and fuzzy entries are left out: they fall back to English
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


# --- formatting for the spoken language ----------------------------------------------------------------------


def babel_locale() -> str:
    return _BABEL_LOCALES[_spoken.get()]


def format_number(value: float) -> str:
    """``1,234`` / ``1.234`` / ``1,234`` … with the spoken language's separators."""
    from babel.numbers import format_decimal

    return format_decimal(value, locale=babel_locale())


def format_percent(fraction: float, *, digits: int = 0) -> str:
    """``0.42`` → ``42%`` / ``42 %`` / ``42%`` … as the spoken language writes it; ``digits`` decimals at most."""
    from babel.numbers import format_percent as babel_percent

    return babel_percent(round(fraction, digits + 2), locale=babel_locale(), decimal_quantization=False)


def format_decimal(value: float, *, digits: int = 1) -> str:
    """``3.94`` → ``3.9`` / ``3,9`` …: exactly ``digits`` decimals (a mean of 4 reads "4.0"), the spoken
    language's separators."""
    from copy import copy

    from babel import Locale

    locale = Locale.parse(babel_locale())
    pattern = copy(locale.decimal_formats[None])  # the language's own grouping (Spanish groups from 10 000)
    pattern.frac_prec = (digits, digits)
    return pattern.apply(round(value, digits), locale)


def format_share(percent: float, *, digits: int = 0) -> str:
    """A share given in percent (0–100): ``92.4`` → ``92%`` / ``92 %`` (German and Spanish put a no-break space
    before the sign, as Babel does); ``digits`` decimals at most."""
    return format_percent(round(percent, digits) / 100, digits=digits)


def format_signed(value: float) -> str:
    """A score with its sign, as the results write an NPS: ``+12``, ``−42`` (a true minus), ``0``; the digits in
    the spoken language's format."""
    sign = "+" if value > 0 else MINUS if value < 0 else ""
    return f"{sign}{format_number(abs(value))}"


def format_date(day: date | datetime) -> str:
    """``1 January 2027`` / ``1. Januar 2027`` / ``2027年1月1日`` … as the spoken language writes a date."""
    from babel.dates import format_date as babel_date

    return babel_date(day, format="long", locale=babel_locale())
