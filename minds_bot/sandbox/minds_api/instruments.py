"""The sandbox planner's question banks: a free-text request read as a research brief, and the instrument
each common intent gets.

Owns: ``read_brief`` (intent, topic, price, who is asked, options compared) and ``instrument`` (objective
sentence, questions with labelled scales and options, the one confirmation question that matters). The
intents are price perception and willingness to pay, concept or message test, awareness, preference between
options and open reactions. The topic is a short noun phrase cut at a word and clause boundary, never the
request pasted whole. Pure functions over strings; the same request always gives the same instrument.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

TOPIC_MAX_WORDS = 7
TOPIC_MAX_CHARS = 60
WHO_MAX_WORDS = 9
FOLLOW_UP_SLOT = 7  # the 7th question is a follow-up routed on the first (askIf), as before
INFLUENCES = ["Quality", "Brand reputation", "Sustainability", "Recommendations", "Price"]

_PRICE = re.compile(
    r"(?P<cur>[€$£])\s?(?P<num>\d+(?:[.,]\d{1,2})?)|(?P<num2>\d+(?:[.,]\d{1,2})?)\s?(?P<cur2>eur|euros?|usd|dollars?|gbp|pounds?|€|\$|£)\b",
    re.IGNORECASE,
)
_PRICE_WORDS = re.compile(
    r"\b(pric(?:e|es|ed|ing)|pay|willing(?:ness)? to pay|wtp|cost|costs|value for money|afford)\b", re.I
)
_AWARENESS_WORDS = re.compile(r"\b(aware|awareness|heard of|recogni[sz]e|recognition|familiar|know about)\b", re.I)
_CONCEPT_WORDS = re.compile(
    r"\b(concept|message|messaging|tagline|slogan|claim|ad|advert|campaign|idea|packaging|design|name|launch|"
    r"feature|pitch)\b",
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
    r"[,;:()\[\]!?…]|\.\s|\.$|\.\.\.|\s(?:and|but|because|so|which|that|who|when|if|among|compared|versus|vs)\s",
    re.I,
)
_OWN = re.compile(r"^(?:our|my|your|their|a|an|this|these|those)\s+", re.I)
_TRAILING_FILLER = {"a", "an", "the", "our", "of", "for", "to", "in", "on", "with", "at", "by", "and", "or", "is"}


@dataclass(frozen=True)
class Brief:
    """What a free-text request asks for, as a researcher would read it."""

    intent: str  # price | concept | awareness | preference | open
    topic: str  # "the new running shoe"
    price: str | None  # "140 EUR"
    who: str | None  # "Gen Z sneaker buyers in Germany"
    options: tuple[str, ...]  # the alternatives a preference request compares


def read_brief(request: str) -> Brief:
    """The brief a request states; every field comes from the words of the request."""
    text = _one_line(request)
    options = _options(text)
    price = _price(text)
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
    return Brief(intent=intent, topic=topic_of(text), price=price, who=_who(text), options=options)


def _one_line(request: str) -> str:
    return re.sub(r"\s+", " ", request.replace("\u2019", "'")).strip().rstrip(".…?! ")


def _price(text: str) -> str | None:
    match = _PRICE.search(text)
    if match is None:
        return None
    number = match["num"] or match["num2"]
    currency = (match["cur"] or match["cur2"]).lower()
    code = {"€": "EUR", "$": "USD", "£": "GBP"}.get(currency) or {"e": "EUR", "u": "USD", "d": "USD"}.get(
        currency[0], "GBP"
    )
    return f"{number} {code}"


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
    owned = _OWN.match(phrase)
    if owned:
        return "the " + phrase[owned.end() :]
    if phrase.lower().startswith("the "):
        return "the " + phrase[4:]
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


def _q(text: str, response: dict[str, Any]) -> dict[str, Any]:
    return {"text": text, "response": response}


def _scaled(text: str, *, low: str, high: str) -> dict[str, Any]:
    """A 1–5 scale whose ends are named in the question, as respondents read it."""
    return _q(f"{text} (1 = {low}, 5 = {high})", {"type": "scale", "scaleRange": [1, 5]})


def _pick(*options: str, multi: int = 0) -> dict[str, Any]:
    response: dict[str, Any] = {"type": "multiselect" if multi else "categorical", "categoricalOptions": list(options)}
    if multi:
        response["maxSelections"] = multi
    return response


_OPEN: dict[str, Any] = {"type": "qualitative"}


def _price_band(price: str) -> list[str]:
    """Willingness-to-pay bands around the tested price, most generous first."""
    number_text, code = price.split(" ")
    number = float(number_text.replace(",", "."))
    step = max(1, round(number * 0.15))
    base = round(number)
    if base - step < 1:
        return []  # too small a price to band; the question is asked open instead
    return [
        f"More than {base + step} {code}",
        f"{base}–{base + step} {code}",
        f"{base - step}–{base - 1} {code}",
        f"Less than {base - step} {code}",
    ]


def _price_bank(b: Brief) -> list[dict[str, Any]]:
    t = b.topic
    at = f" at {b.price}" if b.price else ""
    bands = _price_band(b.price) if b.price else []
    most = (
        _q(f"What is the most you would pay for {t}?", _pick(*bands))
        if bands
        else _q(f"What price would feel fair for {t}, and why?", _OPEN)
    )
    return [
        _q(f"In the past 12 months, have you bought anything like {t}?", _pick("Yes", "No")),
        _scaled(f"How would you rate the price of {t}{at}?", low="far too expensive", high="very good value"),
        _q(
            f"Which best describes the price of {t}{at}?",
            _pick("A bargain", "About right", "Expensive but worth it", "Too expensive"),
        ),
        _scaled(f"How likely would you be to buy {t}{at}?", low="definitely would not", high="definitely would"),
        most,
        _q(f"Which of these would make {t} worth its price to you?", _pick(*INFLUENCES, multi=2)),
        _q("You bought something similar recently. What did you pay, and how did it compare?", _OPEN),
        _q(f"What, if anything, would stop you from buying {t}{at}?", _OPEN),
    ]


def _concept_bank(b: Brief) -> list[dict[str, Any]]:
    t = b.topic
    return [
        _q(f"Is {t} something you would consider for yourself?", _pick("Yes", "Maybe", "No")),
        _scaled(f"How appealing is {t} to you?", low="not at all appealing", high="very appealing"),
        _q(f"In a sentence or two, what is your first reaction to {t}?", _OPEN),
        _scaled(f"How believable is {t}?", low="not at all believable", high="completely believable"),
        _q(
            f"How different is {t} from what is available today?",
            _pick("Very different", "Somewhat different", "Slightly different", "Not different"),
        ),
        _q(f"Which of these would most influence whether you choose {t}?", _pick(*INFLUENCES, multi=2)),
        _q(f"You said you would consider {t}. What would you use it for first?", _OPEN),
        _q(f"What, if anything, would stop you from choosing {t}?", _OPEN),
    ]


def _awareness_bank(b: Brief) -> list[dict[str, Any]]:
    t = b.topic
    return [
        _q(f"Before today, had you heard of {t}?", _pick("Yes", "No")),
        _q(
            f"How familiar are you with {t}?",
            _pick("I know it well", "I know a little", "I know the name only", "Not at all"),
        ),
        _q(f"What, if anything, comes to mind when you think of {t}?", _OPEN),
        _scaled(f"What is your overall impression of {t}?", low="very negative", high="very positive"),
        _q(
            "Where do you usually hear about new products like this?",
            _pick("Friends and family", "Social media", "Online reviews", "In stores", "Advertising", multi=2),
        ),
        _scaled(f"How likely are you to look for more information about {t}?", low="very unlikely", high="very likely"),
        _q(f"You had heard of {t}. Where did you first come across it?", _OPEN),
        _q(f"What would make you want to learn more about {t}?", _OPEN),
    ]


def _preference_bank(b: Brief) -> list[dict[str, Any]]:
    first, second = b.options[0], b.options[1]
    return [
        _q(f"Which do you prefer: {first} or {second}?", _pick(first, second, "No preference")),
        _q("What is the main reason for your choice?", _OPEN),
        _scaled("How strongly do you prefer your choice?", low="only slightly", high="very strongly"),
        _scaled(f"How appealing is {first} to you?", low="not at all appealing", high="very appealing"),
        _scaled(f"How appealing is {second} to you?", low="not at all appealing", high="very appealing"),
        _q(f"What matters most when you choose between {first} and {second}?", _pick(*INFLUENCES, multi=2)),
        _q("You had no preference. What would make you choose one over the other?", _OPEN),
        _q("What would you change about the option you did not choose?", _OPEN),
    ]


def _open_bank(b: Brief) -> list[dict[str, Any]]:
    t = b.topic
    return [
        _q(f"Have you used anything like {t} before?", _pick("Yes", "No")),
        _q(f"In a sentence or two, what is your first reaction to {t}?", _OPEN),
        _scaled(f"Overall, how do you feel about {t}?", low="very negative", high="very positive"),
        _q(f"Which of these would most influence whether you choose {t}?", _pick(*INFLUENCES, multi=2)),
        _q(f"What do you like most about {t}?", _OPEN),
        _q(f"How likely are you to recommend {t} to a friend or colleague?", {"type": "scale", "scaleRange": [0, 10]}),
        _q("You have used something similar. What was it, and how did it compare?", _OPEN),
        _q(f"What, if anything, would put you off {t}?", _OPEN),
    ]


_BANKS = {
    "price": _price_bank,
    "concept": _concept_bank,
    "awareness": _awareness_bank,
    "preference": _preference_bank,
    "open": _open_bank,
}
_FOLLOW_UP_GATE = {  # the first question's answers that lead to the follow-up
    "price": ["Yes"],
    "concept": ["Yes", "Maybe"],
    "awareness": ["Yes"],
    "preference": ["No preference"],
    "open": ["Yes"],
}


def questions_for(brief: Brief, *, count: int) -> list[dict[str, Any]]:
    """The first ``count`` questions of the intent's instrument, with ids and the follow-up's routing."""
    questions = []
    for index, question in enumerate(_BANKS[brief.intent](brief)[:count], 1):
        question = {"id": f"q{index}", **question}
        if index == FOLLOW_UP_SLOT:
            question["askIf"] = {"questionId": "q1", "answerIn": list(_FOLLOW_UP_GATE[brief.intent])}
        questions.append(question)
    return questions


def objective_for(brief: Brief) -> str:
    """The plan's objective as one full sentence."""
    who = brief.who or "the Minds"
    t = brief.topic
    if brief.intent == "price":
        tested = f"a price of {brief.price} for {t}" if brief.price else f"the price of {t}"
        return f"Find out how {who} judge {tested}, and what they would be willing to pay."
    if brief.intent == "preference":
        return f"Find out whether {who} prefer {brief.options[0]} or {brief.options[1]}, and why."
    if brief.intent == "awareness":
        return f"Measure how well {who} know {t}, and what they associate with it."
    if brief.intent == "concept":
        return f"Test how appealing and believable {who} find {t}, and what would stop them choosing it."
    return f"Understand how {who} react to {t}: first impressions, likes and what would put them off."


def confirmation_for(brief: Brief) -> str:
    """The yes/no question whose answer changes how the Minds are asked."""
    t = brief.topic
    if brief.intent == "price":
        if brief.price:
            return f"Should the Minds judge {brief.price} as the final shelf price for {t}, including tax?"
        return f"Should the Minds see a price for {t} before they judge its value?"
    if brief.intent == "preference":
        return "Should each Mind see the options in a different, random order?"
    if brief.intent == "awareness":
        return f"Should {t} be named in the first question (prompted awareness)?"
    if brief.intent == "concept":
        return f"Should the Minds see {t} without any brand name?"
    return "Should every Mind in the attached Audience answer every question?"
