"""In which language a Mind answers, which planned question it was asked, and prices as that language writes them.

Owns: ``language_of`` (the Study's language — ``studyLocale`` of the plan revision the run confirmed — when the
sandbox writes it: de, es, zh, ko; else the language the question itself is written in; else English),
``phrases_for`` (that language's table, ``phrases``), ``planned_key`` (which of the planner's question wordings
a question is, in any of the five languages: ``question_wording.QUESTION_TEXT``, so its kind is read from what the
planner asked rather than from words), and the two ways an amount is said: ``quoted`` (a price the question
names, exactly as it names it: "2,49 EUR" stays "2,49 EUR", 189 USD stays 189 USD) and ``money`` (an amount a Mind
names itself, rounded the way people say prices, with the currency's decimals below 10 and the language's decimal
mark: "2,70 EUR" in German and Spanish, "2.70 EUR" in English, Chinese and Korean).
Pure functions over strings; deterministic. Must not touch state, clocks or I/O.
"""

from __future__ import annotations

import re
from functools import cache

from minds_sandbox import phrases_de, phrases_en, phrases_es, phrases_ko, phrases_zh, reading, topics, wording
from minds_sandbox.phrases import Phrases
from minds_sandbox.question_wording import QUESTION_TEXT

_TABLES = {
    "en": phrases_en.PHRASES,
    "de": phrases_de.PHRASES,
    "es": phrases_es.PHRASES,
    "zh": phrases_zh.PHRASES,
    "ko": phrases_ko.PHRASES,
}
DECIMAL_COMMA = frozenset({"de", "es"})
NO_DECIMALS = frozenset({"JPY", "KRW"})  # currencies without minor units
MIN_KEY_MATCH = 12  # characters of a wording's fixed words a question must contain to count as that wording
_PLACEHOLDER = re.compile(r"\{[a-z_]+\}")
_KO_PARTICLE = re.compile(r"^(?:을|은|이|과|으로)\((?:를|는|가|와|로)\)")
_ES_ARTICLE_END = re.compile(r"\s(?:de|a)$")  # "de {topic}" may read "del …" once the topic starts with "el"
_AMOUNT = re.compile(
    r"(?P<cur>[€$£])\s?(?P<num>\d+(?:[.,]\d{1,2})?)"
    r"|(?P<num2>\d+(?:[.,]\d{1,2})?)\s?(?P<cur2>eur|euros?|usd|dollars?|gbp|pounds?|€|\$|£)(?![a-z])",
    re.IGNORECASE,
)


def phrases_for(lang: str) -> Phrases:
    return _TABLES.get(lang, phrases_en.PHRASES)


def language_of(locale: str | None, text: str = "") -> str:
    """The language a Mind answers in: the Study's (``locale``) when the sandbox writes it (English for fr, ja, tr,
    ar); for a Study in English or of no language, the language the question is written in (a German question is
    answered in German)."""
    base = (locale or "").split("-")[0].split("_")[0].lower()
    if base in _TABLES and base != wording.DEFAULT_LANGUAGE:
        return base
    if base and base not in _TABLES:
        return wording.DEFAULT_LANGUAGE  # a Study language the sandbox does not write (fr, ja, tr, ar)
    spoken = reading.brief_language(text) if text else wording.DEFAULT_LANGUAGE
    return spoken if spoken in _TABLES else wording.DEFAULT_LANGUAGE


# ---------------------------------------------------------------- the planner's wordings


@cache
def _wordings() -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Every planned question wording (not scale anchors) in every language, as its fixed words in order."""
    found = []
    for key, texts in QUESTION_TEXT.items():
        if "?" not in texts.get("en", ""):
            continue  # an anchor or label, not a question
        for text in texts.values():
            chunks = []
            for part in _PLACEHOLDER.split(text):
                part = _ES_ARTICLE_END.sub("", _KO_PARTICLE.sub("", part.strip())).strip()
                if part:
                    chunks.append(part.lower())
            found.append((key, tuple(chunks)))
    return tuple(found)


def planned_key(text: str) -> str | None:
    """The planner's wording key of a question ("price_wtp", "concept_why"), in whichever of the five languages it
    is written; None for a question the planner did not word (typed by a person)."""
    lowered = " ".join(text.lower().split())
    best: tuple[int, str] | None = None
    for key, chunks in _wordings():
        at, matched = 0, 0
        for chunk in chunks:
            found = lowered.find(chunk, at)
            if found < 0:
                break
            at, matched = found + len(chunk), matched + len(chunk)
        else:
            if matched >= MIN_KEY_MATCH and (best is None or matched > best[0]):
                best = (matched, key)
    return best[1] if best else None


def english_wording(key: str) -> str:
    """The English wording of a planned question, its blanks filled with "it" (read for its kind)."""
    return _PLACEHOLDER.sub("it", QUESTION_TEXT[key]["en"])


# ---------------------------------------------------------------- amounts


def quoted(text: str, price: topics.Price, lang: str) -> str:
    """A price the question names, exactly as it names it ("2,49 EUR", "189 USD", "€2.49" → "2.49 EUR"); an
    amount it does not name is said as ``money``."""
    for match in _AMOUNT.finditer(text):
        number = match["num"] or match["num2"]
        if abs(float(number.replace(",", ".")) - price.amount) < 0.005:
            return f"{number} {price.currency}"
    return money(price.eur, price.currency, lang)


def quoted_extra(text: str, price: topics.Price, lang: str) -> str:
    """The amount "more" a question names ("20 EUR more"), exactly as it names it."""
    extra = price.extra if price.extra is not None else price.amount
    return quoted(text, topics.Price(extra, price.currency), lang)


def money(amount_eur: float, currency: str, lang: str) -> str:
    """An amount a Mind names itself, the one it says everywhere in the run (``topics.price_point``: 5s above 50,
    whole units from 10, the currency's decimals below: "2,70 EUR" in German), in the language's decimal mark."""
    return topics.format_price(amount_eur, currency, lang)


def number(value: float, lang: str) -> str:
    """A figure as the language writes it: "42.5" in English, Chinese and Korean, "42,5" in German and Spanish."""
    text = str(value)
    return text.replace(".", ",") if lang in DECIMAL_COMMA else text
