"""The sandbox planner's instruments: a free-text request read as a research brief, and the instrument its study
type gets, written in the Study language.

Owns: ``read_brief`` (study type, topic, price, who is asked, options compared, a concept description, whether
recommending or a price is asked, a named pricing method; English here, German, Spanish, Chinese and Korean
through ``reading``; the study type in every language through ``study_types``), ``instrument`` (``count``
questions of the study type's bank in ``banks``, with labelled scales and options, grouped in modules titled for
what they ask, and each question's kind), ``objective_for`` and ``confirmation_for`` (the one question to the
requester that matters: a concept or message test whose brief does not give the stimulus asks for it).

A screener is only planned with its follow-up, which carries ``askIf`` (asked only of those who qualify). The
topic is a short noun phrase from the brief, never the request pasted whole and never the method it names ("use
Van Westendorp to find the acceptable price" is about "the product"). The request is shown to respondents only
when it describes the stimulus ("Test our concept: a shoe made from …"), never when it is a research question
("Concept test: how do young parents react to …?"). A question that asks a method's input carries
``methodInput``, so ``calculations`` computes the method from exactly those answers. Pure functions over
strings; the same request always gives the same instrument.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from minds_sandbox import reading, study_types
from minds_sandbox.banks import BANKS, Item, Words
from minds_sandbox.banks import VAN_WESTENDORP_ROLES as VAN_WESTENDORP_ROLES  # read by ``calculations``
from minds_sandbox.wording import choices, language, phrase

TOPIC_MAX_WORDS = 7
TOPIC_MAX_CHARS = 60
WHO_MAX_WORDS = 9
INFLUENCES = ["Quality", "Brand reputation", "Sustainability", "Recommendations", "Price"]  # the English options

_PRICE = reading.PRICE
_VERSUS = re.compile(r"\s+(?:vs\.?|versus)\s+", re.I)
_BETWEEN = re.compile(r"\b(?:between|prefer)\s+(?P<a>.+?)\s+(?:and|or|over|to)\s+(?P<b>.+)$", re.I)
_WHO = re.compile(
    r"^(?:(?:how|what|which)\s+(?:\w+\s+)?)?(?:do|does|would|will|might|could|are|is)\s+(?P<who>.+?)\s+"
    r"(?:feel|think|react|respond|rate|judge|see|view|perceive|say|pay|prefer|like|want|know|aware)\b",
    re.I,
)
# Who is asked, named at the end after "for" or "among" ("… of our new laptop dock for US IT procurement leads"):
# a group of people (its last word a plural), never the thing ("for our new dock") or a time ("for 3 months").
_TRAILING_WHO = re.compile(
    r"\s(?:for|among|with)\s+(?P<who>(?!(?:our|the|a|an|my|your|their|this|that|its)\b)[^,;:()]+?[a-z]s)$", re.I
)
_NOT_PEOPLE = frozenset({"days", "weeks", "months", "years", "hours", "minutes", "others", "less", "us", "yes"})
_QUOTED = re.compile(r"(?:^|\s)[\"“'‘](?P<q>[^\"”’']{3,80})[\"”’'](?=\s|$|[.,;:?!])")
_NAMED_THING = re.compile(
    r"\b(?P<noun>tagline|slogan|name|message|claim|headline|ad|advert|campaign|idea|concept)\s*$", re.I
)
_TOPIC_AFTER = (
    re.compile(r"^(?:is|are|does|do|would|will|can)\s+(?P<x>(?:our|the|this|these|a|an)\s+.+)$", re.I),
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
    r"[,;:()\[\]!?…]|\.\s|\.$|\.\.\.|\s(?:and|but|because|so|which|that|who|when|if|among|with|compared|versus|vs)\s"
    r"|\s(?:persuasive|memorable|appealing|believable|credible|convincing|clear|relevant)\b",
    re.I,
)
_COUNTED = re.compile(r"^(?:\d+|two|three|four|five|six|seven|eight|nine|ten)\s", re.I)
_OWN = re.compile(r"^(?:our|my|your|their|a|an|this|these|those)\s+", re.I)
_TRAILING_FILLER = {"a", "an", "the", "our", "of", "for", "to", "in", "on", "with", "at", "by", "and", "or", "is"}


@dataclass(frozen=True)
class Brief:
    """What a free-text request asks for, as a researcher would read it."""

    intent: str  # the study type: price | concept | message | awareness | preference | nps | open
    topic: str  # "the new running shoe" ("" when the brief names none)
    price: str | None  # "140 EUR"
    who: str | None  # "Gen Z sneaker buyers in Germany"
    options: tuple[str, ...]  # the alternatives a preference request compares
    lang: str = "en"  # the language the brief is written in
    description: str | None = None  # the stimulus as the brief describes it ("Test our concept: …")
    recommend: bool = False  # the brief asks whether they would recommend it (or names NPS)
    price_method: str | None = None  # "van-westendorp" or "gabor-granger" when the brief names the method
    asks_price: bool = False  # the brief asks about price (a concept, message or usage study then asks it too)


_GENERIC = re.compile(
    r"^(?:the|a|an|find|out|determine|identify|measure|test|acceptable|optimal|right|best|fair|ideal|price|prices|"
    r"pricing|points?|range|levels?|willingness|to|pay|study|survey|research|method|analysis|our|and|for|of|"
    r"nps|score)$",
    re.I,
)


def read_brief(request: str) -> Brief:
    """The brief a request states; every field comes from the words of the request (the methods it names are
    read, then taken out before its topic is read)."""
    text = _one_line(reading.without_count(request))
    lang = reading.brief_language(text)
    price = reading.price_of(text)
    core = study_types.without_methods(text) or text
    if lang != "en":
        found = reading.read_foreign(core, lang)
        topic, who, options = found.topic, found.who, found.options
    else:
        options = _options(core)
        who = _who(core)
        if who is None and (trailing := _trailing_who(core)) is not None:
            who, core = trailing, core[: -len(trailing)].rstrip().rsplit(" ", 1)[0]
        topic = topic_of(core)
        if all(_GENERIC.match(word) for word in topic.split()):
            topic = ""
    return Brief(
        intent=study_types.study_type(text, lang, options=len(options), price=bool(price)),
        topic=topic,
        price=price,
        who=who,
        options=options,
        lang=lang,
        description=reading.description_of(reading.without_count(request).strip()),
        recommend=study_types.asks_recommend(text),
        price_method=study_types.price_method(text),
        asks_price=bool(price) or study_types.asks_price(core, lang),
    )


def _one_line(request: str) -> str:
    return re.sub(r"\s+", " ", request.replace("\u2019", "'")).strip().rstrip(".…?!？ ")


def _who(text: str) -> str | None:
    match = _WHO.match(text)
    if match is None:
        return None
    words = match["who"].split()
    return " ".join(words) if 0 < len(words) <= WHO_MAX_WORDS else None


def _trailing_who(text: str) -> str | None:
    match = _TRAILING_WHO.search(text)
    if match is None:
        return None
    words = match["who"].split()
    if len(words) > WHO_MAX_WORDS or words[-1].lower() in _NOT_PEOPLE:
        return None
    return match["who"]


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

STIMULUS_TESTS = ("concept", "message")  # study types that show respondents a stimulus first
DESCRIBE_ID = "describe"  # the confirmation question asking the requester to describe the concept
_QUOTES = {"en": ('"', '"'), "de": ("„", "“"), "es": ("«", "»"), "zh": ("“", "”"), "ko": ("‘", "’")}
_ARTICLES = re.compile(r"^(?:the|den|die|das|der|dem|el|la|los|las)\s+", re.I)


@dataclass(frozen=True)
class Instrument:
    questions: list[dict[str, Any]]
    modules: list[dict[str, Any]]
    shown_id: str | None  # the question that shows the concept's description, when there is one
    kinds: dict[str, str]  # question id → what it asks (its wording key), for later wording and answers


def words_for(brief: Brief, locale: str) -> Words:
    return Words(
        locale=locale,
        topic=topic_in(brief, locale),
        who=brief.who or phrase(locale, "who_default"),
        at=phrase(locale, "at_price", price=brief.price) if brief.price else "",
    )


def topic_in(brief: Brief, locale: str) -> str:
    """The brief's topic for a question in the Study language: as the brief says it when the languages match,
    else its words quoted (no article of another language); a brief that names no topic gets "the product" (a
    study about a price, awareness or recommending) or "the idea"."""
    lang = language(locale)
    if not brief.topic or (brief.lang == "en" and brief.topic == "the idea"):
        thing = brief.intent in ("price", "awareness", "nps")
        return phrase(locale, "topic_product" if thing else "topic_default")
    if lang == brief.lang:
        return brief.topic
    bare = _ARTICLES.sub("", brief.topic)
    if bare[:1] in '"„«“‘':
        return bare
    open_quote, close_quote = _QUOTES[lang]
    return f"{open_quote}{bare}{close_quote}"


def instrument(brief: Brief, *, locale: str, count: int) -> Instrument:
    """``count`` questions of the study type's bank, most important first but asked in the bank's order; a
    follow-up always comes with its screener and routes on it (``askIf``); modules are titled for what they ask."""
    words = words_for(brief, locale)
    items = BANKS[brief.intent](brief, words)
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
    shown = ids.get(0) if brief.intent in STIMULUS_TESTS and 0 in ids else None
    kinds = {ids[index]: items[index].kind for index in chosen}
    return Instrument(questions=questions, modules=modules, shown_id=shown, kinds=kinds)


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
    """A concept or message test whose brief does not give the stimulus: the requester is asked to describe it.
    A quoted slogan is its own message; a quoted product name is no description of a concept."""
    if brief.intent not in STIMULUS_TESTS or brief.description:
        return False
    quoted = any(mark in brief.topic for mark in '"„«“‘’')
    return brief.intent == "concept" or not quoted


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
