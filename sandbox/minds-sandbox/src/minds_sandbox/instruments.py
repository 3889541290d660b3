"""The sandbox planner's question banks: a free-text request read as a research brief, and the instrument
each common intent gets, written in the Study language.

Owns: ``read_brief`` (intent, topic, price, who is asked, options compared, a concept description, whether
recommending is asked; English here, German, Spanish, Chinese and Korean through ``reading``), ``instrument``
(questions with labelled scales and options, grouped in modules titled for what they ask), ``objective_for``
and ``confirmation_for`` (the one question to the requester that matters). The intents are price perception
and willingness to pay, concept or message test, awareness, preference between options and open reactions.

Coverage: each bank ranks its questions so that the first four chosen already cover the objective — pricing
judges the tested price, asks an open price point (the most they would pay, in the currency) and an open "why";
a concept test shows the concept's description (asked of the requester when the brief gives none) and asks
appeal and why. A screener is only planned with its follow-up, which carries ``askIf`` (asked only of those who
qualify). Every word comes from ``wording`` in the Study language; the topic is a short noun phrase from the
brief, never the request pasted whole. A question that asks a method's input carries ``methodInput`` (Van
Westendorp's role and currency; a Gabor-Granger ladder step's tested price, currency and the options that mean
"would buy"), so ``calculations`` computes the method from the answers to exactly those questions. Pure
functions over strings; the same request always gives the same instrument.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from minds_sandbox import reading
from minds_sandbox.wording import choices, language, phrase

TOPIC_MAX_WORDS = 7
TOPIC_MAX_CHARS = 60
WHO_MAX_WORDS = 9
INFLUENCES = ["Quality", "Brand reputation", "Sustainability", "Recommendations", "Price"]

_PRICE = reading.PRICE
_PRICE_WORDS = re.compile(
    r"\b(pric(?:e|es|ed|ing)|pay|willing(?:ness)? to pay|wtp|cost|costs|value for money|afford)\b", re.I
)
_AWARENESS_WORDS = re.compile(r"\b(aware|awareness|heard of|recogni[sz]e|recognition|familiar|know about)\b", re.I)
_CONCEPT_WORDS = re.compile(
    r"\b(concepts?|messages?|messaging|taglines?|slogans?|claims?|ads?|adverts?|campaigns?|ideas?|packaging|"
    r"designs?|names?|launch|features?|pitch)\b",
    re.I,
)
_VERSUS = re.compile(r"\s+(?:vs\.?|versus)\s+", re.I)
_BETWEEN = re.compile(r"\b(?:between|prefer)\s+(?P<a>.+?)\s+(?:and|or|over|to)\s+(?P<b>.+)$", re.I)
_WHO = re.compile(
    r"^(?:(?:how|what|which)\s+(?:\w+\s+)?)?(?:do|does|would|will|might|could|are|is)\s+(?P<who>.+?)\s+"
    r"(?:feel|think|react|respond|rate|judge|see|view|perceive|say|pay|prefer|like|want|know|aware)\b",
    re.I,
)
_QUOTED = re.compile(r"(?:^|\s)[\"“'‘](?P<q>[^\"”’']{3,80})[\"”’'](?=\s|$|[.,;:?!])")
_NAMED_THING = re.compile(
    r"\b(?P<noun>tagline|slogan|name|message|claim|headline|ad|advert|campaign|idea|concept)\s*$", re.I
)
_TOPIC_AFTER = (
    re.compile(r"\b(?:price|pricing|cost|pay)\s+(?:of|for)\s+(?P<x>.+)$", re.I),
    re.compile(r"\b(?:aware|heard)\s+of\s+(?P<x>.+)$", re.I),
    re.compile(r"\b(?:study|survey|research|test)\s+(?:of|on|about|into)\s+(?P<x>.+)$", re.I),
    re.compile(r"\b(?:launch|launching|release)\s+(?:of\s+)?(?P<x>.+)$", re.I),
    re.compile(r"\b(?:feel|think|react|respond|say)\s+(?:about|of|to)\s+(?P<x>.+)$", re.I),
    re.compile(
        r"\b(?:demand|appetite|awareness|perception|reactions?|appeal|interest|attitudes?)\s+(?:for|of|to|towards|in)\s+(?P<x>.+)$",
        re.I,
    ),
)
_LEAD_IN = re.compile(
    r"^(?:please\s+)?(?:(?:we|i)\s+(?:want|need|would like)\s+to\s+|help\s+(?:me|us)\s+|let'?s\s+)?"
    r"(?:find out|understand|test|check|explore|validate|measure|learn|see|know|gauge|assess)?\s*"
    r"(?:whether|if|how|what)?\s*",
    re.I,
)
_CLAUSE_END = re.compile(
    r"[,;:()\[\]!?…]|\.\s|\.$|\.\.\.|\s(?:and|but|because|so|which|that|who|when|if|among|with|compared|versus|vs)\s",
    re.I,
)
_COUNTED = re.compile(r"^(?:\d+|two|three|four|five|six|seven|eight|nine|ten)\s", re.I)
_OWN = re.compile(r"^(?:our|my|your|their|a|an|this|these|those)\s+", re.I)
_TRAILING_FILLER = {"a", "an", "the", "our", "of", "for", "to", "in", "on", "with", "at", "by", "and", "or", "is"}


@dataclass(frozen=True)
class Brief:
    """What a free-text request asks for, as a researcher would read it."""

    intent: str  # price | concept | awareness | preference | open
    topic: str  # "the new running shoe" ("" when the brief names none)
    price: str | None  # "140 EUR"
    who: str | None  # "Gen Z sneaker buyers in Germany"
    options: tuple[str, ...]  # the alternatives a preference request compares
    lang: str = "en"  # the language the brief is written in
    description: str | None = None  # the concept as the brief describes it ("Test our concept: …")
    recommend: bool = False  # the brief asks whether they would recommend it (or names NPS)
    price_method: str | None = None  # "van-westendorp" or "gabor-granger" when the brief names the method


def read_brief(request: str) -> Brief:
    """The brief a request states; every field comes from the words of the request."""
    text = _one_line(reading.without_count(request))
    lang = reading.brief_language(text)
    price = reading.price_of(text)
    extras: dict[str, Any] = {
        "lang": lang,
        "description": reading.description_of(request.strip()),
        "recommend": reading.asks_recommend(text),
        "price_method": reading.price_method(text),
    }
    if lang != "en":
        found = reading.read_foreign(text, lang)
        return Brief(
            intent=found.intent, topic=found.topic, price=price, who=found.who, options=found.options, **extras
        )
    options = _options(text)
    if len(options) >= 2:
        intent = "preference"
    elif price or _PRICE_WORDS.search(text):
        intent = "price"
    elif _AWARENESS_WORDS.search(text):
        intent = "awareness"
    elif _CONCEPT_WORDS.search(text):
        intent = "concept"
    else:
        intent = "open"
    return Brief(intent=intent, topic=topic_of(text), price=price, who=_who(text), options=options, **extras)


def _one_line(request: str) -> str:
    return re.sub(r"\s+", " ", request.replace("\u2019", "'")).strip().rstrip(".…?!？ ")


def _who(text: str) -> str | None:
    match = _WHO.match(text)
    if match is None:
        return None
    words = match["who"].split()
    return " ".join(words) if 0 < len(words) <= WHO_MAX_WORDS else None


def _options(text: str) -> tuple[str, ...]:
    parts = _VERSUS.split(text)
    if len(parts) == 2:
        left, right = parts
        left = re.split(r"[:,;]|\s(?:of|between|prefer|choose)\s", left)[-1]
        return _distinct(_short(left, last=True), _short(right))
    match = _BETWEEN.search(text)
    if match:
        return _distinct(_short(match["a"]), _short(match["b"]))
    return ()


def _distinct(first: str, second: str) -> tuple[str, ...]:
    """Two options a Mind can tell apart, or none (then the request is not a preference between options)."""
    names = {first.lower(), second.lower()}
    return (first, second) if first and second and len(names) == 2 and "no preference" not in names else ()


def _short(phrase: str, *, last: bool = False) -> str:
    """A phrase cut to its first clause (its last words when ``last``) and a few words, never mid-word."""
    words = phrase.strip(" \"'").split()
    words = words[-TOPIC_MAX_WORDS:] if last else _clause(" ".join(words)).split()[:TOPIC_MAX_WORDS]
    while words and words[-1].lower() in _TRAILING_FILLER:
        words.pop()
    return " ".join(words).strip(" \"'.,")


def _clause(phrase: str) -> str:
    match = _CLAUSE_END.search(phrase)
    return phrase[: match.start()] if match else phrase


def topic_of(request: str) -> str:
    """The thing a request is about, as a short noun phrase ("the new running shoe"); never the whole request."""
    text = _one_line(request)
    quoted = _quoted_topic(text)
    if quoted:
        return quoted
    candidate = ""
    for pattern in _TOPIC_AFTER:
        match = pattern.search(text)
        if match:
            candidate = match["x"]
            break
    if not candidate:
        candidate = _LEAD_IN.sub("", _clause(text), count=1)
    candidate = _PRICE.sub("", candidate)
    candidate = re.sub(r"^(?:a|an|the)?\s*(?:price|pricing|cost)\s+(?:of|for)\s+", "", candidate.strip(), flags=re.I)
    phrase = _fit(_short(candidate))
    if not re.search(r"[A-Za-z]", phrase):
        return "the idea"
    if text.startswith(phrase) and phrase.split()[0][1:].islower():
        phrase = phrase[0].lower() + phrase[1:]  # only capitalised because it began the request
    phrase = re.sub(r"(?<=\s)(?:our|my)\s+", "the ", phrase, flags=re.I)  # "taglines for our shoe" → "for the shoe"
    owned = _OWN.match(phrase)
    if owned:
        return "the " + phrase[owned.end() :]
    if phrase.lower().startswith("the "):
        return "the " + phrase[4:]
    if _COUNTED.match(phrase):
        return "the " + phrase  # "three taglines …" → "the three taglines …"
    return phrase


def _fit(phrase: str) -> str:
    """Whole words up to ``TOPIC_MAX_CHARS``; an over-long single word is not a topic."""
    kept: list[str] = []
    for word in phrase.split():
        if len(" ".join([*kept, word])) > TOPIC_MAX_CHARS:
            break
        kept.append(word)
    return " ".join(kept)


def _quoted_topic(text: str) -> str:
    """A quoted tagline or name, with the noun that introduces it ("the tagline \"Run further\"")."""
    match = _QUOTED.search(text)
    if match is None or len(match["q"].split()) < 2:
        return ""
    noun = _NAMED_THING.search(text[: match.start()].strip())
    quoted = f'"{match["q"].strip()}"'
    return f"the {noun['noun'].lower()} {quoted}" if noun else quoted


# ---------------------------------------------------------------- instruments

OPEN: dict[str, Any] = {"type": "qualitative"}
SCALE: dict[str, Any] = {"type": "scale", "scaleRange": [1, 5]}
NPS_SCALE: dict[str, Any] = {"type": "scale", "scaleRange": [0, 10]}
DESCRIBE_ID = "describe"  # the confirmation question asking the requester to describe the concept
_QUOTES = {"en": ('"', '"'), "de": ("„", "“"), "es": ("«", "»"), "zh": ("“", "”"), "ko": ("‘", "’")}
_ARTICLES = re.compile(r"^(?:the|den|die|das|der|dem|el|la|los|las)\s+", re.I)
_HOME_CURRENCY = {"en": "USD", "de": "EUR", "es": "EUR", "zh": "CNY", "ko": "KRW"}
_CURRENCY_NAMES = {
    "zh": {"EUR": "欧元", "USD": "美元", "GBP": "英镑", "CNY": "人民币", "KRW": "韩元"},
    "ko": {"EUR": "유로", "USD": "달러", "GBP": "파운드", "CNY": "위안", "KRW": "원"},
}


@dataclass(frozen=True)
class Item:
    """One question of a bank. ``rank``: how early it is planned (None: only together with the follow-up it
    routes); ``gate``: a screener later questions may route on; ``follows``: the answers to the nearest earlier
    gate that lead to this follow-up (asked only of those)."""

    text: str
    response: dict[str, Any]
    section: str  # the wording key of its module's title
    rank: float | None
    gate: bool = False
    follows: tuple[str, ...] = ()
    method_input: dict[str, Any] | None = None  # which input of a method it asks (``methodInput`` on the question)


@dataclass(frozen=True)
class Instrument:
    questions: list[dict[str, Any]]
    modules: list[dict[str, Any]]
    shown_id: str | None  # the question that shows the concept's description, when there is one


@dataclass(frozen=True)
class Words:
    """A brief's words as the Study language writes them."""

    locale: str
    topic: str
    who: str
    at: str  # " at 140 EUR", " zum Preis von 140 EUR", "" without a price


def words_for(brief: Brief, locale: str) -> Words:
    return Words(
        locale=locale,
        topic=topic_in(brief, locale),
        who=brief.who or phrase(locale, "who_default"),
        at=phrase(locale, "at_price", price=brief.price) if brief.price else "",
    )


def topic_in(brief: Brief, locale: str) -> str:
    """The brief's topic for a question in the Study language: as the brief says it when the languages match,
    else its words quoted (no article of another language)."""
    lang = language(locale)
    if not brief.topic or (brief.lang == "en" and brief.topic == "the idea"):
        return phrase(locale, "topic_default")
    if lang == brief.lang:
        return brief.topic
    bare = _ARTICLES.sub("", brief.topic)
    if bare[:1] in '"„«“‘':
        return bare
    open_quote, close_quote = _QUOTES[lang]
    return f"{open_quote}{bare}{close_quote}"


def _scaled(locale: str, text: str, low: str, high: str) -> str:
    return phrase(locale, "scale_ends", text=text, low=phrase(locale, low), high=phrase(locale, high))


def _pick(*options: str, multi: int = 0) -> dict[str, Any]:
    response: dict[str, Any] = {"type": "multiselect" if multi else "categorical", "categoricalOptions": list(options)}
    if multi:
        response["maxSelections"] = multi
    return response


def _currency(brief: Brief, locale: str) -> str:
    lang = language(locale)
    code = brief.price.split()[1] if brief.price else _HOME_CURRENCY[lang]
    return _CURRENCY_NAMES.get(lang, {}).get(code, code)


def _recommend_rank(brief: Brief, otherwise: float) -> float:
    return 3.5 if brief.recommend else otherwise


def _price_bank(b: Brief, w: Words) -> list[Item]:
    loc, t = w.locale, w.topic
    yes_no = choices(loc, "yes_no")
    paid = phrase(loc, "price_paid", price=b.price) if b.price else phrase(loc, "price_paid_open")
    return [
        Item(phrase(loc, "price_screen", topic=t), _pick(*yes_no), "module_habits", None, gate=True),
        Item(paid, OPEN, "module_habits", 4, follows=(yes_no[0],)),
        Item(
            _scaled(loc, phrase(loc, "price_rate", topic=t, at=w.at), "price_rate_low", "price_rate_high"),
            SCALE,
            "module_price",
            1,
        ),
        *_willingness_to_pay(b, w),
        Item(phrase(loc, "price_why_points" if b.price_method else "price_why", topic=t), OPEN, "module_price", 3),
        Item(
            phrase(loc, "price_describe", topic=t, at=w.at),
            _pick(*choices(loc, "price_describe")),
            "module_price",
            7,
        ),
        Item(phrase(loc, "price_worth", topic=t), _pick(*choices(loc, "influences"), multi=2), "module_price", 8),
        Item(
            _scaled(loc, phrase(loc, "price_likely", topic=t, at=w.at), "likely_low", "likely_high"),
            SCALE,
            "module_intent",
            5,
        ),
        Item(phrase(loc, "recommend", topic=t), NPS_SCALE, "module_intent", _recommend_rank(b, 9)),
        Item(phrase(loc, "price_barrier", topic=t, at=w.at), OPEN, "module_intent", 6),
    ]


_MESSAGE_WORDS = re.compile(
    r"tagline|slogan|claim|message|headline|\bname\b|\bads?\b|campaign|botschaft|eslogan|lema|mensaje|口号|标语|广告语|"
    r"슬로건|문구|카피|메시지",
    re.I,
)


GABOR_GRANGER_STEPS = (-0.15, 0.0, 0.15)  # the price ladder around the tested price, lowest first
VAN_WESTENDORP_ROLES = ("tooCheap", "cheap", "expensive", "tooExpensive")
WOULD_BUY = 2  # the first two options of the buying-likelihood list ("definitely/probably would buy") buy


def _willingness_to_pay(b: Brief, w: Words) -> list[Item]:
    """The plan's willingness-to-pay measure: an open price point; Van Westendorp's four price points, or a
    Gabor-Granger ladder around the tested price, when the brief names that method (the catalogue runs both)."""
    loc, t, currency = w.locale, w.topic, _currency(b, w.locale)
    if b.price_method == "van-westendorp":
        keys = ("vw_too_cheap", "vw_cheap", "vw_expensive", "vw_too_expensive")
        code = b.price.split()[1] if b.price else _HOME_CURRENCY[language(loc)]
        return [
            Item(
                phrase(loc, key, topic=t, currency=currency),
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
    return [Item(phrase(loc, "price_wtp", topic=t, currency=currency), OPEN, "module_price", 2)]


def _concept_bank(b: Brief, w: Words) -> list[Item]:
    """A product concept, or a message (tagline, slogan, claim): a message is not something one buys or uses, so
    it gets no consideration screener and no purchase drivers."""
    loc, t = w.locale, w.topic
    message = bool(_MESSAGE_WORDS.search(b.topic))
    yes_maybe_no = choices(loc, "yes_maybe_no")
    shown = (
        phrase(loc, "concept_shown", topic=t, description=b.description)
        if b.description
        else phrase(loc, "concept_reaction", topic=t)
    )
    return [
        Item(shown, OPEN, "module_reaction", 1),
        Item(
            _scaled(loc, phrase(loc, "concept_appeal", topic=t), "appeal_low", "appeal_high"), SCALE, "module_appeal", 2
        ),
        Item(phrase(loc, "concept_why", topic=t), OPEN, "module_appeal", 3),
        Item(
            _scaled(loc, phrase(loc, "concept_believe", topic=t), "believe_low", "believe_high"),
            SCALE,
            "module_appeal",
            5,
        ),
        Item(phrase(loc, "concept_different", topic=t), _pick(*choices(loc, "different")), "module_appeal", 8),
        Item(phrase(loc, "concept_consider", topic=t), _pick(*yes_maybe_no), "module_consider", None, gate=True),
        Item(
            phrase(loc, "concept_use", topic=t),
            OPEN,
            "module_consider",
            None if message else 6,
            follows=tuple(yes_maybe_no[:2]),
        ),
        Item(phrase(loc, "concept_barrier", topic=t), OPEN, "module_consider", 4),
        Item(
            phrase(loc, "influence", topic=t),
            _pick(*choices(loc, "influences"), multi=2),
            "module_consider",
            None if message else 7,
        ),
        Item(phrase(loc, "recommend", topic=t), NPS_SCALE, "module_consider", _recommend_rank(b, 9)),
    ]


def _awareness_bank(b: Brief, w: Words) -> list[Item]:
    loc, t = w.locale, w.topic
    yes_no = choices(loc, "yes_no")
    return [
        Item(phrase(loc, "aware_heard", topic=t), _pick(*yes_no), "module_awareness", 1, gate=True),
        Item(phrase(loc, "aware_where", topic=t), OPEN, "module_awareness", 2, follows=(yes_no[0],)),
        Item(phrase(loc, "aware_familiar", topic=t), _pick(*choices(loc, "familiar")), "module_awareness", 6),
        Item(phrase(loc, "aware_assoc", topic=t), OPEN, "module_image", 3),
        Item(_scaled(loc, phrase(loc, "aware_impression", topic=t), "negative", "positive"), SCALE, "module_image", 4),
        Item(phrase(loc, "recommend", topic=t), NPS_SCALE, "module_image", _recommend_rank(b, 9)),
        Item(phrase(loc, "aware_channels"), _pick(*choices(loc, "channels"), multi=2), "module_sources", 7),
    ]


def _preference_bank(b: Brief, w: Words) -> list[Item]:
    loc = w.locale
    first, second = b.options[0], b.options[1]
    none = choices(loc, "no_preference")[0]
    return [
        Item(
            phrase(loc, "pref_choice", first=first, second=second),
            _pick(first, second, none),
            "module_choice",
            1,
            gate=True,
        ),
        Item(phrase(loc, "pref_none"), OPEN, "module_choice", 4, follows=(none,)),
        Item(_scaled(loc, phrase(loc, "pref_strength"), "pref_low", "pref_high"), SCALE, "module_choice", 3),
        Item(phrase(loc, "pref_why"), OPEN, "module_reasons", 2),
        Item(
            _scaled(loc, phrase(loc, "pref_appeal", option=first), "appeal_low", "appeal_high"),
            SCALE,
            "module_options",
            5,
        ),
        Item(
            _scaled(loc, phrase(loc, "pref_appeal", option=second), "appeal_low", "appeal_high"),
            SCALE,
            "module_options",
            5.5,
        ),
    ]


def _open_bank(b: Brief, w: Words) -> list[Item]:
    loc, t = w.locale, w.topic
    yes_no = choices(loc, "yes_no")
    return [
        Item(phrase(loc, "concept_reaction", topic=t), OPEN, "module_reaction", 1),
        Item(_scaled(loc, phrase(loc, "open_feel", topic=t), "negative", "positive"), SCALE, "module_reaction", 2),
        Item(phrase(loc, "open_used", topic=t), _pick(*yes_no), "module_experience", None, gate=True),
        Item(phrase(loc, "open_compare"), OPEN, "module_experience", 5, follows=(yes_no[0],)),
        Item(phrase(loc, "open_why", topic=t), OPEN, "module_likes", 3),
        Item(phrase(loc, "influence", topic=t), _pick(*choices(loc, "influences"), multi=2), "module_likes", 6),
        Item(phrase(loc, "recommend", topic=t), NPS_SCALE, "module_likes", _recommend_rank(b, 4)),
    ]


_BANKS = {
    "price": _price_bank,
    "concept": _concept_bank,
    "awareness": _awareness_bank,
    "preference": _preference_bank,
    "open": _open_bank,
}


def instrument(brief: Brief, *, locale: str, count: int) -> Instrument:
    """``count`` questions of the intent's bank, most important first but asked in the bank's order; a follow-up
    always comes with its screener and routes on it (``askIf``); modules are titled for what they ask."""
    words = words_for(brief, locale)
    items = _BANKS[brief.intent](brief, words)
    chosen = _choose(items, count)
    ids = {index: f"q{n}" for n, index in enumerate(chosen, 1)}
    questions: list[dict[str, Any]] = []
    sections: dict[str, str] = {}
    for index in chosen:
        item = items[index]
        module_id = sections.setdefault(item.section, f"m{len(sections) + 1}")
        question: dict[str, Any] = {"id": ids[index], "moduleId": module_id, "text": item.text}
        question["response"] = dict(item.response)
        if item.method_input:
            question["methodInput"] = dict(item.method_input)
        if item.follows:
            question["askIf"] = {"questionId": ids[_gate_of(items, index)], "answerIn": list(item.follows)}
        questions.append(question)
    modules = []
    for section, module_id in sections.items():
        members = [q["id"] for q in questions if q["moduleId"] == module_id]
        purpose = (
            phrase(locale, "purpose_one") if len(members) == 1 else phrase(locale, "purpose_many", count=len(members))
        )
        modules.append({"id": module_id, "title": phrase(locale, section), "purpose": purpose, "questionIds": members})
    shown = ids.get(0) if brief.intent == "concept" and 0 in ids else None
    return Instrument(questions=questions, modules=modules, shown_id=shown)


def _gate_of(items: list[Item], index: int) -> int:
    return next(i for i in range(index - 1, -1, -1) if items[i].gate)


def _choose(items: list[Item], count: int) -> list[int]:
    chosen: set[int] = set()
    ranked = sorted((i for i, item in enumerate(items) if item.rank is not None), key=lambda i: items[i].rank or 0)
    for index in ranked:
        needed = {index, _gate_of(items, index)} if items[index].follows else {index}
        needed -= chosen
        if len(chosen) + len(needed) <= count:
            chosen |= needed
    return sorted(chosen)


def objective_for(brief: Brief, *, locale: str) -> str:
    """The plan's objective as one full sentence in the Study language."""
    w = words_for(brief, locale)
    if brief.intent == "price":
        if brief.price:
            return phrase(locale, "objective_price", who=w.who, price=brief.price, topic=w.topic)
        return phrase(locale, "objective_price_open", who=w.who, topic=w.topic)
    if brief.intent == "preference":
        return phrase(locale, "objective_preference", who=w.who, first=brief.options[0], second=brief.options[1])
    return phrase(locale, f"objective_{brief.intent}", who=w.who, topic=w.topic)


def needs_description(brief: Brief) -> bool:
    """A concept test whose brief does not say what the concept is: the requester is asked to describe it."""
    quoted = any(mark in brief.topic for mark in '"„«“‘')  # a quoted slogan or name is its own description
    return brief.intent == "concept" and not brief.description and not quoted


def describe_question(brief: Brief, *, locale: str) -> dict[str, Any]:
    """The free-text confirmation question asking the requester for the concept's description."""
    return {"id": DESCRIBE_ID, "text": phrase(locale, "confirm_describe", topic=topic_in(brief, locale))}


def described(*, locale: str, topic: str, description: str) -> str:
    """The question that shows the concept as the requester described it."""
    return phrase(locale, "concept_shown", topic=topic, description=description.strip())


def confirmation_for(brief: Brief, *, locale: str) -> dict[str, Any]:
    """The one question to the requester whose answer changes the study (yes/no unless it asks for words)."""
    if needs_description(brief):
        return describe_question(brief, locale=locale)
    t = topic_in(brief, locale)
    if brief.intent == "price" and brief.price:
        tax = "tax_vat" if brief.price.split()[1] in ("EUR", "GBP") else "tax_any"
        text = phrase(locale, "confirm_price", price=brief.price, topic=t, tax=phrase(locale, tax))
    elif brief.intent == "price":
        text = phrase(locale, "confirm_price_open", topic=t)
    elif brief.intent == "preference":
        text = phrase(locale, "confirm_preference", first=brief.options[0], second=brief.options[1])
    else:
        text = phrase(locale, f"confirm_{brief.intent}", topic=t)
    return {"id": "cq1", "text": text, "options": choices(locale, "yes_no")}
