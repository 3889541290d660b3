"""What a question is about, whether an Audience cares about it, and what its prices mean to a Mind.

Owns: the sandbox's small topic lexicon (``TOPICS``: keywords, how a Mind names the field, a plausible reference
price and the brands people of that field name), ``topic_of`` (a question's or message's topic), ``fit`` (how
much a Mind's Audience cares about that topic: 1.0 when it is its field or the question has no known topic,
``UNFIT`` when it is someone else's field), and the price arithmetic: ``prices_in`` (amounts a text names),
``tested_price`` (the price a question tests: an amount "more" or "extra" is added to the category's usual price),
``willingness_to_pay`` (what this Mind would pay, from the category's reference price and its
``priceSensitivity``) and ``price_affinity`` (how good a tested price looks to it).
Pure functions over plain data; deterministic. Must not touch state, clocks or I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

UNFIT = 0.2  # how much a Mind cares about a topic outside its Audience's field
PRICE_SLOPE = 0.8  # how fast a price above what a Mind would pay turns its view negative
_TO_EUR = {"EUR": 1.0, "USD": 0.95, "GBP": 1.15}
_CURRENCY_CODES = {"€": "EUR", "$": "USD", "£": "GBP", "eur": "EUR", "euro": "EUR", "euros": "EUR"}
_CURRENCY_CODES |= {"usd": "USD", "dollar": "USD", "dollars": "USD", "gbp": "GBP", "pound": "GBP", "pounds": "GBP"}
_PRICE = re.compile(
    r"(?P<cur>[€$£])\s?(?P<num>\d+(?:[.,]\d{1,2})?)"
    r"|(?P<num2>\d+(?:[.,]\d{1,2})?)\s?(?P<cur2>eur|euros?|usd|dollars?|gbp|pounds?|€|\$|£)(?![a-z])",
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
    return [_price(match) for match in _PRICE.finditer(text)]


def _price(match: re.Match[str]) -> Price:
    number = (match["num"] or match["num2"]).replace(",", ".")
    symbol = (match["cur"] or match["cur2"]).lower()
    return Price(float(number), _CURRENCY_CODES.get(symbol, "EUR"))


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
    return [float(n.replace(",", ".")) for n in re.findall(r"\d+(?:[.,]\d+)?", text)]


def reference_eur(topic: Topic | None, tested: Price | None) -> float | None:
    """What the category usually costs: the topic's reference, else (unknown category) the tested price itself."""
    if topic is not None:
        return topic.reference_eur
    return tested.eur if tested else None


def willingness_to_pay(*, reference: float, sensitivity: float, noise: float) -> float:
    """The most this Mind would pay (EUR): well above the reference when price matters little to it, well below
    when it matters a lot; ``noise`` (about ±0.1) keeps two alike Minds apart."""
    return reference * (1.35 - 0.7 * sensitivity) * (1 + noise)


def price_affinity(*, price_eur: float, wtp_eur: float) -> float:
    """0..1: how good the price looks (0.5 = exactly what the Mind would pay; lower when it is above that)."""
    return min(1.0, max(0.0, 0.5 - PRICE_SLOPE * (price_eur / wtp_eur - 1)))


def in_currency(price: Price, currency: str) -> float:
    """``price`` converted to ``currency`` (an unknown code is taken as EUR)."""
    return price.eur / _TO_EUR.get(currency, 1.0)


def format_price(amount_eur: float, currency: str) -> str:
    """A price as a person says it, rounded the way shops price (to 5 above 50, to 1 below)."""
    amount = amount_eur / _TO_EUR[currency]
    rounded = round(amount / 5) * 5 if amount >= 50 else max(1, round(amount))
    return f"{rounded} {currency}"


def topic_named(name: str) -> Topic:
    return _BY_NAME[name]
