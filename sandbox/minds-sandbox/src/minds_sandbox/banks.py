"""The sandbox planner's question banks, one per study type, written in the Study language.

Owns: ``BANKS`` (study type → the questions a researcher would ask, each with its ``kind``, its rank and its
module) and the willingness-to-pay measure a pricing plan uses. The study types and what each asks:

- **concept test**: the concept shown as described (or the first reaction to it until the requester describes
  it), appeal, believability, likes and dislikes, uniqueness, relevance to their needs, purchase intent;
- **message test**: the message shown, its main takeaway (comprehension), persuasion, memorability,
  believability, fit with the brand, what convinces and what does not, interest it creates — never a price;
- **awareness and usage**: unaided awareness (brands that come to mind), aided awareness (a screener), how often
  they use it (asked of those who know it), brands used, satisfaction and why, associations, sources;
- **preference** between two options; **pricing** (the tested price judged, an open price point in the
  currency or the named method's questions carrying ``methodInput``, why); **NPS** (0–10 recommend and why);
  **open reactions**.

A brief that asks about recommending gets the 0–10 recommend question and its why in any study type; a concept,
message or usage brief that asks about price gets an open price point. Ranks: the lowest are planned first, so the
first questions chosen already cover the study; ``CORE`` is how many a study type needs to cover its objective
when the request names no count. Every word comes from ``wording`` in the Study language. Pure functions.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from minds_sandbox.wording import choices, language, phrase

if TYPE_CHECKING:
    from minds_sandbox.instruments import Brief

OPEN: dict[str, Any] = {"type": "qualitative"}
SCALE: dict[str, Any] = {"type": "scale", "scaleRange": [1, 5]}
NPS_SCALE: dict[str, Any] = {"type": "scale", "scaleRange": [0, 10]}
HOME_CURRENCY = {"en": "USD", "de": "EUR", "es": "EUR", "zh": "CNY", "ko": "KRW"}
_CURRENCY_NAMES = {
    "zh": {"EUR": "欧元", "USD": "美元", "GBP": "英镑", "CNY": "人民币", "KRW": "韩元"},
    "ko": {"EUR": "유로", "USD": "달러", "GBP": "파운드", "CNY": "위안", "KRW": "원"},
}
GABOR_GRANGER_STEPS = (-0.15, 0.0, 0.15)  # the price ladder around the tested price, lowest first
VAN_WESTENDORP_ROLES = ("tooCheap", "cheap", "expensive", "tooExpensive")
WOULD_BUY = 2  # the first two options of the buying-likelihood list ("definitely/probably would buy") buy
CORE = {"concept": 7, "message": 7, "awareness": 6, "nps": 4, "price": 4, "preference": 4, "open": 4}
PRICE_METHOD_QUESTIONS = 6  # Van Westendorp (4 price points) or Gabor-Granger (3) with the judgement and the why
NPS_QUESTIONS = 2  # the 0–10 recommend question and its why


@dataclass(frozen=True)
class Item:
    """One question of a bank. ``kind``: what it asks (its wording key: ``concept_appeal``, ``msg_persuasive``);
    ``rank``: how early it is planned (None: only together with the follow-up it routes); ``gate``: a screener
    later questions may route on; ``follows``: the answers to the nearest earlier gate that lead to this
    follow-up (asked only of those)."""

    kind: str
    text: str
    response: dict[str, Any]
    section: str  # the wording key of its module's title
    rank: float | None
    gate: bool = False
    follows: tuple[str, ...] = ()
    method_input: dict[str, Any] | None = None  # which input of a method it asks (``methodInput`` on the question)


@dataclass(frozen=True)
class Words:
    """A brief's words as the Study language writes them."""

    locale: str
    topic: str
    who: str
    at: str  # " at 140 EUR", " zum Preis von 140 EUR", "" without a price


def _scaled(locale: str, text: str, low: str, high: str) -> str:
    return phrase(locale, "scale_ends", text=text, low=phrase(locale, low), high=phrase(locale, high))


def _pick(*options: str, multi: int = 0) -> dict[str, Any]:
    response: dict[str, Any] = {"type": "multiselect" if multi else "categorical", "categoricalOptions": list(options)}
    if multi:
        response["maxSelections"] = multi
    return response


def _ask(w: Words, kind: str, response: dict[str, Any], section: str, rank: float | None, **more: Any) -> Item:
    """A question whose text is the wording entry ``kind`` about the brief's topic."""
    return Item(kind, phrase(w.locale, kind, topic=w.topic), response, section, rank, **more)


def _rate(w: Words, kind: str, low: str, high: str, section: str, rank: float | None, **values: str) -> Item:
    """A 1–5 scale question with its labelled ends."""
    text = phrase(w.locale, kind, **({"topic": w.topic} | values))
    return Item(kind, _scaled(w.locale, text, low, high), SCALE, section, rank)


def currency(brief: Brief, locale: str) -> str:
    """The currency a price question names: the brief's, else the Study language's home currency."""
    lang = language(locale)
    code = brief.price.split()[1] if brief.price else HOME_CURRENCY[lang]
    return _CURRENCY_NAMES.get(lang, {}).get(code, code)


def _recommending(b: Brief, w: Words, section: str, rank: float) -> list[Item]:
    """The 0–10 recommend question (an NPS: Minds computes it from the 0–10 answers) and, right after it, why."""
    return [
        _ask(w, "recommend", NPS_SCALE, section, rank),
        _ask(w, "nps_why", OPEN, section, rank + 0.05),
    ]


def _price_asked(b: Brief, w: Words, section: str, rank: float) -> list[Item]:
    """A concept, message or usage brief that asks about price: the tested price judged, an open price point."""
    items = [
        Item(
            "price_wtp",
            phrase(w.locale, "price_wtp", topic=w.topic, currency=currency(b, w.locale)),
            OPEN,
            section,
            rank + 0.05,
        )
    ]
    if b.price:
        items.insert(0, _rate(w, "price_rate", "price_rate_low", "price_rate_high", section, rank, at=w.at))
    return items


def _extras(b: Brief, w: Words, section: str, *, recommend_rank: float, price_rank: float) -> list[Item]:
    items = _recommending(b, w, section, recommend_rank) if b.recommend else []
    return items + (_price_asked(b, w, section, price_rank) if b.asks_price else [])


# ---------------------------------------------------------------- pricing


def _price_bank(b: Brief, w: Words) -> list[Item]:
    loc, t = w.locale, w.topic
    yes_no = choices(loc, "yes_no")
    paid = phrase(loc, "price_paid", price=b.price) if b.price else phrase(loc, "price_paid_open")
    return [
        _ask(w, "price_screen", _pick(*yes_no), "module_habits", None, gate=True),
        Item("price_paid", paid, OPEN, "module_habits", 4, follows=(yes_no[0],)),
        _rate(w, "price_rate", "price_rate_low", "price_rate_high", "module_price", 1, at=w.at),
        *_willingness_to_pay(b, w),
        _ask(w, "price_why_points" if b.price_method else "price_why", OPEN, "module_price", 3),
        Item(
            "price_describe",
            phrase(loc, "price_describe", topic=t, at=w.at),
            _pick(*choices(loc, "price_describe")),
            "module_price",
            7,
        ),
        _ask(w, "price_worth", _pick(*choices(loc, "influences"), multi=2), "module_price", 8),
        _rate(w, "price_likely", "likely_low", "likely_high", "module_intent", 5, at=w.at),
        *(
            _recommending(b, w, "module_intent", 3.5)
            if b.recommend
            else [_ask(w, "recommend", NPS_SCALE, "module_intent", 9)]
        ),
        Item("price_barrier", phrase(loc, "price_barrier", topic=t, at=w.at), OPEN, "module_intent", 6),
    ]


def _willingness_to_pay(b: Brief, w: Words) -> list[Item]:
    """The plan's willingness-to-pay measure: an open price point; Van Westendorp's four price points, or a
    Gabor-Granger ladder around the tested price, when the brief names that method (the catalogue runs both)."""
    loc, t, named = w.locale, w.topic, currency(b, w.locale)
    if b.price_method == "van-westendorp":
        keys = ("vw_too_cheap", "vw_cheap", "vw_expensive", "vw_too_expensive")
        code = b.price.split()[1] if b.price else HOME_CURRENCY[language(loc)]
        return [
            Item(
                key,
                phrase(loc, key, topic=t, currency=named),
                OPEN,
                "module_price",
                1.5 + n / 10,
                method_input={"methodId": "van-westendorp", "role": role, "currency": code},
            )
            for n, (key, role) in enumerate(zip(keys, VAN_WESTENDORP_ROLES, strict=True))
        ]
    if b.price_method == "gabor-granger" and b.price:
        number, code = b.price.split()
        base = float(number.replace(",", "."))
        ladder = [round(base * (1 + step)) for step in GABOR_GRANGER_STEPS]
        options = choices(loc, "buy_likelihood")
        return [
            Item(
                "gg_buy",
                phrase(loc, "gg_buy", topic=t, price=f"{price} {code}"),
                _pick(*options),
                "module_price",
                1.5 + n / 10,
                method_input={
                    "methodId": "gabor-granger",
                    "role": "buy",
                    "price": price,
                    "currency": code,
                    "wouldBuy": list(options[:WOULD_BUY]),
                },
            )
            for n, price in enumerate(ladder)
        ]
    return [Item("price_wtp", phrase(loc, "price_wtp", topic=t, currency=named), OPEN, "module_price", 2)]


# ---------------------------------------------------------------- concept and message tests


def _shown(b: Brief, w: Words, kind: str, section: str) -> Item:
    """The first question: the stimulus as the brief describes it, else the first reaction to it (the
    requester is asked for the description, which then replaces this question's text)."""
    text = (
        phrase(w.locale, "concept_shown", topic=w.topic, description=b.description)
        if b.description
        else phrase(w.locale, "concept_reaction", topic=w.topic)
    )
    return Item(kind, text, OPEN, section, 1)


def _concept_bank(b: Brief, w: Words) -> list[Item]:
    loc = w.locale
    return [
        _shown(b, w, "concept_shown", "module_reaction"),
        _rate(w, "concept_appeal", "appeal_low", "appeal_high", "module_appeal", 2),
        _ask(w, "concept_why", OPEN, "module_appeal", 8),
        _rate(w, "concept_believe", "believe_low", "believe_high", "module_appeal", 3),
        _ask(w, "concept_likes", OPEN, "module_appeal", 4),
        _ask(w, "concept_different", _pick(*choices(loc, "different")), "module_fit", 5),
        _rate(w, "concept_relevance", "fit_low", "fit_high", "module_fit", 6),
        _rate(w, "concept_intent", "likely_low", "likely_high", "module_fit", 7),
        *_extras(b, w, "module_fit", recommend_rank=3.5, price_rank=4.5),
    ]


def _message_bank(b: Brief, w: Words) -> list[Item]:
    return [
        _shown(b, w, "message_shown", "module_understanding"),
        _ask(w, "msg_takeaway", OPEN, "module_understanding", 2),
        _rate(w, "msg_persuasive", "persuasive_low", "persuasive_high", "module_impact", 3),
        _rate(w, "msg_memorable", "memorable_low", "memorable_high", "module_impact", 4),
        _rate(w, "concept_believe", "believe_low", "believe_high", "module_impact", 5),
        _rate(w, "msg_brand_fit", "fit_low", "fit_high", "module_brand", 6),
        _ask(w, "msg_why", OPEN, "module_brand", 7),
        _rate(w, "msg_interest", "interest_low", "interest_high", "module_brand", 8),
        *_extras(b, w, "module_brand", recommend_rank=4.5, price_rank=5.5),
    ]


# ---------------------------------------------------------------- awareness and usage, NPS


def _awareness_bank(b: Brief, w: Words) -> list[Item]:
    loc = w.locale
    yes_no = choices(loc, "yes_no")
    return [
        _ask(w, "aware_unaided", OPEN, "module_awareness", 1),
        _ask(w, "aware_heard", _pick(*yes_no), "module_awareness", None, gate=True),
        _ask(w, "usage_frequency", _pick(*choices(loc, "frequency")), "module_awareness", 2, follows=(yes_no[0],)),
        _ask(w, "usage_brands", OPEN, "module_usage", 3),
        _rate(w, "usage_satisfaction", "satisfied_low", "satisfied_high", "module_usage", 4),
        _ask(w, "usage_satisfaction_why", OPEN, "module_usage", 5),
        _ask(w, "aware_assoc", OPEN, "module_image", 6),
        *_extras(b, w, "module_image", recommend_rank=4.5, price_rank=5.5),
        Item(
            "aware_channels",
            phrase(loc, "aware_channels"),
            _pick(*choices(loc, "channels"), multi=2),
            "module_image",
            7,
        ),
    ]


def _nps_bank(b: Brief, w: Words) -> list[Item]:
    """A study of whether they would recommend it: the 0–10 question and its why are planned first and asked
    last, after the reactions that explain them."""
    loc = w.locale
    yes_no = choices(loc, "yes_no")
    return [
        _ask(w, "concept_reaction", OPEN, "module_reaction", 3),
        _rate(w, "open_feel", "negative", "positive", "module_reaction", 4),
        _ask(w, "open_used", _pick(*yes_no), "module_experience", None, gate=True),
        Item("open_compare", phrase(loc, "open_compare"), OPEN, "module_experience", 6, follows=(yes_no[0],)),
        _ask(w, "open_why", OPEN, "module_likes", 5),
        _ask(w, "influence", _pick(*choices(loc, "influences"), multi=2), "module_likes", 7),
        *_recommending(b, w, "module_likes", 1),
    ]


# ---------------------------------------------------------------- preference, open reactions


def _preference_bank(b: Brief, w: Words) -> list[Item]:
    loc = w.locale
    first, second = b.options[0], b.options[1]
    none = choices(loc, "no_preference")[0]
    return [
        Item(
            "pref_choice",
            phrase(loc, "pref_choice", first=first, second=second),
            _pick(first, second, none),
            "module_choice",
            1,
            gate=True,
        ),
        Item("pref_none", phrase(loc, "pref_none"), OPEN, "module_choice", 4, follows=(none,)),
        Item(
            "pref_strength",
            _scaled(loc, phrase(loc, "pref_strength"), "pref_low", "pref_high"),
            SCALE,
            "module_choice",
            3,
        ),
        Item("pref_why", phrase(loc, "pref_why"), OPEN, "module_reasons", 2),
        _rate(w, "pref_appeal", "appeal_low", "appeal_high", "module_options", 5, option=first),
        _rate(w, "pref_appeal", "appeal_low", "appeal_high", "module_options", 5.5, option=second),
        *_extras(b, w, "module_reasons", recommend_rank=6, price_rank=6.5),
    ]


def _open_bank(b: Brief, w: Words) -> list[Item]:
    loc = w.locale
    yes_no = choices(loc, "yes_no")
    return [
        _ask(w, "concept_reaction", OPEN, "module_reaction", 1),
        _rate(w, "open_feel", "negative", "positive", "module_reaction", 2),
        _ask(w, "open_used", _pick(*yes_no), "module_experience", None, gate=True),
        Item("open_compare", phrase(loc, "open_compare"), OPEN, "module_experience", 5, follows=(yes_no[0],)),
        _ask(w, "open_why", OPEN, "module_likes", 3),
        *(
            _recommending(b, w, "module_likes", 3.5)
            if b.recommend
            else [_ask(w, "recommend", NPS_SCALE, "module_likes", 4)]
        ),
        _ask(w, "influence", _pick(*choices(loc, "influences"), multi=2), "module_likes", 6),
        *(_price_asked(b, w, "module_likes", 4.5) if b.asks_price else []),
    ]


BANKS: dict[str, Callable[[Brief, Words], list[Item]]] = {
    "price": _price_bank,
    "concept": _concept_bank,
    "message": _message_bank,
    "awareness": _awareness_bank,
    "nps": _nps_bank,
    "preference": _preference_bank,
    "open": _open_bank,
}


def core_count(brief: Brief) -> int:
    """How many questions cover a study type's objective (with the method's questions and the NPS pair it names)."""
    core = CORE[brief.intent]
    if brief.intent == "price" and brief.price_method:
        core = PRICE_METHOD_QUESTIONS
    if brief.recommend and brief.intent != "nps" and (brief.intent != "price" or brief.price_method):
        core += NPS_QUESTIONS
    return core
