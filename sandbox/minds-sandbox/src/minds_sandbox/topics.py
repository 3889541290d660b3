"""What a question is about, whether an Audience cares about it, and what its prices mean to a Mind.

Owns: the sandbox's small topic lexicon (``TOPICS``: keywords, how a Mind names the field, a plausible reference
price and the brands people of that field name), ``topic_of`` (a question's or message's topic), ``fit`` (how
much a Mind's Audience cares about that topic: 1.0 when it is its field or the question has no known topic,
``UNFIT`` when it is someone else's field), and the price arithmetic: ``prices_in`` (amounts a text names, read
exactly: "2,49 EUR", "2.49 €", "$189", "USD 1,299", "139,000원", "99元"), ``tested_price`` (the price a question
tests: an amount "more" or "extra" is added to the category's usual price), ``willingness_to_pay`` (what this
Mind would pay, from the category's reference price and its ``priceSensitivity``), ``price_point`` (that amount as
the Mind says it, in a currency, keeping the category's decimals), ``accepts`` and ``price_affinity`` (a tested
price at or below it is acceptable, above it too expensive), and the writing of amounts: ``format_amount(amount,
currency, locale)`` writes an amount exactly ("2,49 EUR" in de/es, "2.49 EUR" in en/zh/ko, won and yen without
decimals) and ``format_price(amount_eur, currency, locale)`` writes what a Mind would pay.
Pure functions over plain data; deterministic. Must not touch state, clocks or I/O.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

UNFIT = 0.2  # how much a Mind cares about a topic outside its Audience's field
POSITIVE_PRICE = 0.72  # a price a Mind accepts looks at least this good to it (0..1)
NEGATIVE_PRICE = 0.28  # a price above what it would pay looks at most this good
PRICE_SPAN = 0.3  # how far (as a share of what it would pay) a price goes from "just" to "clearly" good or bad
# What one unit of a currency is worth in EUR, and how many decimals its prices have (won and yen have none).
_TO_EUR = {"EUR": 1.0, "USD": 0.95, "GBP": 1.15, "CNY": 0.13, "KRW": 0.00068, "JPY": 0.0062}
DECIMALS = {"EUR": 2, "USD": 2, "GBP": 2, "CNY": 2, "KRW": 0, "JPY": 0}
_CURRENCY_CODES = {"€": "EUR", "$": "USD", "£": "GBP", "¥": "CNY", "₩": "KRW", "円": "JPY"}
_CURRENCY_CODES |= {"eur": "EUR", "euro": "EUR", "euros": "EUR", "欧元": "EUR", "유로": "EUR"}
_CURRENCY_CODES |= {"usd": "USD", "dollar": "USD", "dollars": "USD", "dólares": "USD", "dolares": "USD"}
_CURRENCY_CODES |= {"美元": "USD", "달러": "USD", "gbp": "GBP", "pound": "GBP", "pounds": "GBP", "pfund": "GBP"}
_CURRENCY_CODES |= {"英镑": "GBP", "파운드": "GBP", "cny": "CNY", "rmb": "CNY", "元": "CNY", "人民币": "CNY"}
_CURRENCY_CODES |= {"위안": "CNY", "krw": "KRW", "원": "KRW", "韩元": "KRW", "jpy": "JPY", "日元": "JPY", "엔": "JPY"}
# An amount: digits grouped in thousands ("1,299", "15.000", "1 299") with optional decimals, or plain digits with
# up to two decimals ("2,49", "189").
_NUMBER = r"\d{1,3}(?:[,.\u202f\u00a0 ]\d{3})+(?:[.,]\d{1,2})?(?!\d)|\d+(?:[.,]\d{1,2})?(?!\d)"
_WORD_CURRENCY = (
    r"euros?|eur|usd|dollars?|dólares|dolares|gbp|pounds?|pfund|cny|rmb|krw|jpy"
    r"|欧元|美元|英镑|人民币|韩元|日元|元|유로|달러|파운드|원|엔|円|€|\$|£|¥|₩"
)
_CURRENCY_WORD = re.compile(
    r"(?<![A-Za-z])(?:eur|usd|gbp|cny|krw|jpy|euros?|dollars?|dólares)(?![A-Za-z])|欧元|美元|英镑|人民币|韩元|日元|유로|달러|파운드"
    r"|위안|원\b|元|€|\$|£|¥|₩",
    re.IGNORECASE,
)
_PRICE = re.compile(
    rf"(?P<cur>[€$£¥₩])\s?(?P<num>{_NUMBER})"
    rf"|\b(?P<code>eur|usd|gbp|cny|krw|jpy)\s?(?P<num3>{_NUMBER})"
    rf"|(?P<num2>{_NUMBER})\s?(?P<cur2>{_WORD_CURRENCY})(?![A-Za-z])",
    re.IGNORECASE,
)

_MORE_AFTER = re.compile(r"\s*(?:more|extra|on top|additional)\b", re.IGNORECASE)
_MORE_BEFORE = re.compile(
    r"\b(?:an? extra|extra|an additional|additional|another|a premium of|a surcharge of)\s*$", re.IGNORECASE
)


@dataclass(frozen=True)
class Topic:
    name: str
    pattern: re.Pattern[str]
    field: str  # how a Mind names the field mid-sentence: "shoes", "skincare"
    reference_eur: float  # a plausible everyday price in the category
    brands: tuple[str, ...]
    related: tuple[str, ...] = ()


def _words(*stems: str, anywhere: tuple[str, ...] = ()) -> re.Pattern[str]:
    """Words that start with one of ``stems``, or contain one of ``anywhere`` (Chinese and Korean words, and
    German compounds, have no word boundary where the stem starts)."""
    alternatives = [r"\b(?:" + "|".join(stems) + ")"] + [re.escape(a) for a in anywhere]
    return re.compile("|".join(alternatives), re.IGNORECASE)


TOPICS = (
    Topic(
        name="footwear",
        pattern=_words(
            "shoe",
            "sneaker",
            "trainer",
            "running",
            "footwear",
            "boots?\\b",
            "insole",
            "zapat",
            "calzado",
            anywhere=("schuh", "鞋", "운동화", "신발", "스니커즈"),
        ),
        field="shoes",
        reference_eur=110,
        brands=("Nike", "Adidas", "New Balance", "Asics", "On", "Hoka", "Puma", "Veja"),
        related=("apparel",),
    ),
    Topic(
        name="apparel",
        pattern=_words("wear\\b", "wearing", "cloth", "apparel", "fashion", "jacket", "hoodie", "streetwear"),
        field="clothes",
        reference_eur=60,
        brands=("Uniqlo", "Zara", "H&M", "Carhartt", "Nike", "Adidas"),
        related=("footwear",),
    ),
    Topic(
        name="skincare",
        pattern=_words(
            "skin",
            "serum",
            "moistur",
            "sunscreen",
            "cosmetic",
            "beauty",
            "toner",
            "cleanser",
            "k-beauty",
            "piel",
            "cosmétic",
            anywhere=("hautpflege", "kosmetik", "护肤", "化妆品", "스킨케어", "화장품"),
        ),
        field="skincare",
        reference_eur=30,
        brands=("COSRX", "Laneige", "Innisfree", "Beauty of Joseon", "Sulwhasoo", "Round Lab"),
    ),
    Topic(
        name="software",
        pattern=_words(
            "software",
            "saas",
            "per seat",
            "seats?\\b",
            "apps?\\b",
            "collaboration",
            "licen",
            "vendor",
            "procurement",
            "cloud",
            "it tool",
            "platform",
        ),
        field="software",
        reference_eur=20,  # per seat per month
        brands=("Microsoft", "Atlassian", "Slack", "Google Workspace", "Zoom", "ServiceNow"),
    ),
    Topic(
        name="food",
        pattern=_words("coffee", "drink", "snack", "food", "beverage", "tea\\b", "beer", "groceries"),
        field="food and drink",
        reference_eur=5,
        brands=("Nespresso", "Starbucks", "Lavazza", "Oatly"),
    ),
)
_BY_NAME = {t.name: t for t in TOPICS}


@functools.lru_cache(maxsize=8192)
def topic_of(text: str) -> Topic | None:
    """The topic a text is about: the one whose words it uses most (the first listed on a tie); None if none."""
    counts = [(len(t.pattern.findall(text)), -i, t) for i, t in enumerate(TOPICS)]
    count, _, topic = max(counts, key=lambda c: (c[0], c[1]))
    return topic if count else None


def question_topic(question: dict[str, Any]) -> Topic | None:
    options = question.get("response", {}).get("categoricalOptions") or []
    return topic_of(" ".join([question["text"], *options]))


def mind_topics(mind: dict[str, Any]) -> set[str]:
    """The fields a Mind's Audience (its name, brief and tags) and its occupation are about."""
    said = " ".join(
        [
            str(mind.get("audienceName") or ""),
            str(mind.get("audienceBrief") or ""),
            *map(str, mind.get("tags") or []),
            str(mind.get("persona", {}).get("occupation") or ""),
        ]
    )
    return {t.name for t in TOPICS if t.pattern.search(said)}


def fits(mind: dict[str, Any], topic: Topic | None) -> bool:
    """Whether the topic is this Mind's field (an unknown topic, or a Mind of no known field, always fits)."""
    own = mind_topics(mind)
    return topic is None or not own or topic.name in own or any(r in own for r in topic.related)


def fit(mind: dict[str, Any], topic: Topic | None) -> float:
    return 1.0 if fits(mind, topic) else UNFIT


def own_topic(mind: dict[str, Any]) -> Topic | None:
    """The Mind's own field (the first listed of its Audience's topics), if it has one."""
    own = mind_topics(mind)
    return next((t for t in TOPICS if t.name in own), None)


# ---------------------------------------------------------------- prices


@dataclass(frozen=True)
class Price:
    amount: float
    currency: str
    extra: float | None = None  # for "20 EUR more": the 20, ``amount`` being the usual price plus it

    @property
    def eur(self) -> float:
        return self.amount * _TO_EUR[self.currency]

    @property
    def extra_eur(self) -> float | None:
        return None if self.extra is None else self.extra * _TO_EUR[self.currency]


def prices_in(text: str) -> list[Price]:
    """Every amount a text names with its currency, read exactly ("2,49 EUR", "2.49 €", "189 USD", "$189",
    "USD 1,299", "15,000원", "99元"): decimals kept, thousands separators read as such."""
    return [_price(match) for match in _PRICE.finditer(text)]


def currency_named(text: str) -> str | None:
    """The currency a text names, with or without an amount ("Please give an amount in EUR", "원 기준"), if any."""
    if named := prices_in(text):
        return named[0].currency
    match = _CURRENCY_WORD.search(text)
    return _CURRENCY_CODES.get(match[0].lower()) if match else None


def amount_of(written: str) -> float:
    """A written amount as a number: "2,49" and "2.49" → 2.49; "1,299", "1.299" and "15 000" → thousands;
    "1.299,50" → 1299.5 (a separator followed by one or two digits at the end is the decimal mark)."""
    digits = re.sub(r"[\s\u202f\u00a0]", "", written)
    decimal = re.search(r"[.,](\d{1,2})$", digits)
    if decimal:
        return float(re.sub(r"[.,]", "", digits[: decimal.start()]) + "." + decimal[1])
    return float(re.sub(r"[.,]", "", digits))


def _price(match: re.Match[str]) -> Price:
    written = match["num"] or match["num2"] or match["num3"]
    symbol = (match["cur"] or match["cur2"] or match["code"]).lower()
    return Price(amount_of(written), _CURRENCY_CODES.get(symbol, "EUR"))


def tested_price(text: str, topic: Topic | None) -> Price | None:
    """The price a question tests: the first amount it names or, for an amount "more" or "extra" ("20 euros
    more", "an extra 20 EUR"), the category's usual price plus that amount — None when the category, and so its
    usual price, is unknown (a premium on nothing known cannot be judged)."""
    match = _PRICE.search(text)
    if match is None:
        return None
    named = _price(match)
    if not (_MORE_AFTER.match(text, match.end()) or _MORE_BEFORE.search(text, 0, match.start())):
        return named
    if topic is None:
        return None
    usual = topic.reference_eur / _TO_EUR[named.currency]
    return Price(usual + named.amount, named.currency, extra=named.amount)


def numbers_in(text: str) -> list[float]:
    return [amount_of(n) for n in re.findall(_NUMBER, text)]


def reference_eur(topic: Topic | None, tested: Price | None) -> float | None:
    """What the category usually costs: the topic's reference, else (unknown category) the tested price itself."""
    if topic is not None:
        return topic.reference_eur
    return tested.eur if tested else None


def willingness_to_pay(*, reference: float, sensitivity: float, noise: float) -> float:
    """The most this Mind would pay (EUR): well above the reference when price matters little to it, well below
    when it matters a lot; ``noise`` (about ±0.1) keeps two alike Minds apart."""
    return reference * (1.35 - 0.7 * sensitivity) * (1 + noise)


def price_point(amount_eur: float, currency: str) -> float:
    """What a Mind says it would pay, in ``currency``: the amount rounded the way shops price, never to whole units
    where the category's prices have decimals (5s above 50, whole units from 10, halves from 5, tenths below:
    "2.60 EUR", not "3 EUR"; won and yen to two significant figures)."""
    amount = amount_eur / _TO_EUR.get(currency, 1.0)
    if DECIMALS.get(currency, 2) == 0:
        step = 10.0 ** max(0, len(str(int(amount))) - 2)
    else:
        step = 5.0 if amount >= 50 else 1.0 if amount >= 10 else 0.5 if amount >= 5 else 0.1
    return max(step, round(round(amount / step) * step, DECIMALS.get(currency, 2)))


def accepts(price: Price, wtp_eur: float) -> bool:
    """Whether a Mind finds ``price`` acceptable: at or below the amount it says it would pay in that currency."""
    return price.amount <= price_point(wtp_eur, price.currency) + 1e-9


def price_affinity(*, price: Price, wtp_eur: float) -> float:
    """0..1: how good the price looks: above ``POSITIVE_PRICE`` when it is at or below what the Mind says it would
    pay (the further below, the better), under ``NEGATIVE_PRICE`` when it is above it (never in between: a price is
    acceptable to a Mind or it is not)."""
    stated = price_point(wtp_eur, price.currency)
    gap = (price.amount - stated) / stated
    if gap <= 1e-9:
        return POSITIVE_PRICE + (1 - POSITIVE_PRICE) * min(1.0, -gap / PRICE_SPAN)
    return NEGATIVE_PRICE * (1 - min(1.0, gap / PRICE_SPAN))


def in_currency(price: Price, currency: str) -> float:
    """``price`` converted to ``currency`` (an unknown code is taken as EUR)."""
    return price.eur / _TO_EUR.get(currency, 1.0)


def format_amount(amount: float, currency: str, locale: str = "en") -> str:
    """An amount exactly as a person of ``locale`` writes it, with its currency code: decimals kept where the
    currency has them and the amount is not whole ("2,49 EUR" in de and es, "2.49 EUR" in en, zh and ko; "189 USD";
    "15,000 KRW" / "15.000 KRW"; won and yen never with decimals)."""
    decimals = DECIMALS.get(currency, 2)
    value = round(amount, decimals)
    shown = decimals if decimals and abs(value - round(value)) > 1e-9 else 0
    text = f"{value:,.{shown}f}"
    if locale[:2].lower() in ("de", "es"):
        text = text.translate(str.maketrans(",.", ".,"))
    return f"{text} {currency}"


def format_price(amount_eur: float, currency: str, locale: str = "en") -> str:
    """What a Mind would pay (``amount_eur``), as it says it: its ``price_point`` in ``currency``, written exactly
    (a tested price is written with ``format_amount`` of its own amount, never converted)."""
    return format_amount(price_point(amount_eur, currency), currency, locale)


def topic_named(name: str) -> Topic:
    return _BY_NAME[name]
