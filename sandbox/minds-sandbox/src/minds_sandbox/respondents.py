"""Deterministic synthetic answers from the question and the persona, the per-question results built from them,
and the answer-consistency check.

Owns: ``answer_item``, ``output_data``, ``consistency_flags``, and the grammar of a spoken answer (``role``,
``with_article``). How a Mind answers:
- It agrees with its own earlier answers in the run (``consistency``; each answer keeps a ``basis`` the sandbox never
  sends): how positive it is about what the run tests (its stance) comes from its traits, the first such
  question's words and seeded noise, and every later such answer stays on the same side of neutral; it has one
  willingness to pay per category for the run (``topics``: the category's reference price and its
  ``priceSensitivity``), and a question that names a price is judged by that price against the amount it says it
  would pay — acceptable at or below it, too expensive above it; how often it buys the category, the brands it
  knows and uses, and an option it preferred are fixed, so its habits, awareness and preferences agree.
- An Audience whose field is not the question's topic (skincare enthusiasts asked about running shoes) leans
  neutral to "not for me" (``UNFIT_CENTRE``), picks fewer options and says so in words.
- A choice is read from the list's positive end (the last option when the list starts low, "Never …"); a list of
  price bands gets the band of the Mind's own price. A scale point is the affinity on the scale.
- Van Westendorp's four price questions (``methodInput`` on the question) get four rising amounts from the same
  willingness to pay (``VAN_WESTENDORP_FACTORS``), in any language; Gabor-Granger buys exactly up to it; a Mind
  that cannot name a price says so in words, with no number ("Needs to see it first") — ``calculations`` counts
  only answers that name an amount.
- An open answer (``voices``) says what the question asks for in the Mind's voice ("A clearly better price would
  … As a barista in Berlin, I compare prices before I buy anything."), and its theme is the one counted; a choice
  or scale point comes with a reason for the question and the direction chosen (``reasons``).
- An Audience's open summary (its ``value``) names every theme of its answers with its count ("Proven
  sustainability (5 of 12) · Only a bad experience (4 of 12) · …"), and its answers are listed one of each theme
  in turn, most frequent first, so the quotes a reader sees illustrate the themes named.
- Words are in the Study's language (``locale``, the run's ``studyLocale``; else the question's): answers,
  reasons, themes and the summary line ("(5 von 12)", "(12명 중 5명)", "Mittelwert 3,2"), from ``phrases_*``.
Pure functions over plain data: the same seed, Mind, question and earlier answers always give the same answer;
another question gives other answers. Every result carries the sandbox's mark ``simulated: true``.
Must not touch state, clocks or I/O.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import re
import statistics
from collections import Counter
from typing import Any

from minds_sandbox import answer_language, consistency, reasons, topics, voices

NEUTRAL = 0.5  # the affinity between leaning in and leaning out
STANCE_MARGIN = 0.02  # a Mind's stance keeps at least this far from neutral, so its answers lean one way
STANCE_NOISE = 0.06  # how far one answer moves from the Mind's stance (never across neutral)
USAGE_AFFINITY = (0.1, 0.45, 0.55, 0.75, 0.9)  # how an open answer about its habits leans, by ``usage``
NOISE = 0.18
DEFAULT_MAX_SELECTIONS = 3
PREVIEW_ANSWERS = 5
# Van Westendorp's four price points as shares of what the Mind would pay at most: too cheap, a bargain,
# getting expensive, too expensive (each Mind's four amounts rise in that order).
VAN_WESTENDORP_FACTORS = {"tooCheap": 0.45, "cheap": 0.7, "expensive": 1.0, "tooExpensive": 1.3}

_KEYWORD_TRAITS = (
    (("price", "cost", "pay", "afford", "expensive", "cheap"), "priceSensitivity", -0.5),
    (("sustainab", "recycl", "eco", "green", "planet"), "sustainabilityFocus", 0.5),
    (("brand", "logo", "trust"), "brandLoyalty", 0.35),
    (("new", "launch", "innovative", "first"), "noveltySeeking", 0.35),
)
_OPTION_TRAITS = {
    "price": "priceSensitivity",
    "sustainability": "sustainabilityFocus",
    "brand reputation": "brandLoyalty",
    "recommendations": "skepticism",
    "quality": "noveltySeeking",
}
# A list that starts at its low end ("Never", "Strongly disagree", "Not at all likely") is answered from the end.
_ASCENDING_FIRST = re.compile(
    r"^(?:never|not at all|strongly disagree|very unlikely|very dissatisfied|definitely not|none|no\b|0\b"
    r"|nie\b|niemals|überhaupt nicht|gar nicht|stimme überhaupt nicht|sehr unwahrscheinlich|keine?\b"
    r"|nunca|nada|en absoluto|totalmente en desacuerdo|muy improbable|ningun"
    r"|从不|从来不|完全不|非常不|没有|전혀|절대|매우 그렇지 않|없음)",
    re.IGNORECASE,
)
UNFIT_CENTRE = 0.4  # where a Mind whose field the topic is not leans: neutral to "not for me"
UNFIT_SPREAD = 0.35  # how much of its usual spread it keeps
UNFIT_WTP = 0.7  # what a Mind would pay for someone else's field, as a share of what its buyers would
UNKNOWN_REFERENCE_EUR = 120.0  # what a considered purchase of a category the sandbox does not know costs
AMOUNT_ASPECTS = ("van_westendorp", "price_point", "paid")  # questions that ask the Mind to name an amount
WTP_NOISE = 0.1  # how far two alike Minds' willingness to pay differs
PRICE_NOISE = 0.1
_VOWEL_SOUND_LETTERS = "AEFHILMNORSX"  # an acronym starting with one of these is read with a vowel sound
_CONSONANT_SOUND_PREFIXES = ("uni", "use", "usu", "eu", "one")


def _rng(*parts: object) -> random.Random:
    digest = hashlib.sha256("|".join(str(p) for p in parts).encode()).hexdigest()
    return random.Random(int(digest[:16], 16))


def answer_item(
    *,
    seed: int,
    mind: dict[str, Any],
    question: dict[str, Any],
    history: list[dict[str, Any]],
    locale: str | None = None,
    unpriced: bool = False,
) -> dict[str, Any]:
    """One Mind's answer to one item, given its own earlier answers in this run, in the Study's language
    (``locale``, else the question's: ``answer_language.language_of``). ``unpriced`` (the fault
    ``unpriced_categories``): asked for an amount of a category the sandbox does not know, it names none.

    ``mind`` may carry ``audienceName`` and ``audienceBrief`` (what its Audience is about) for the topic fit."""
    history_digest = hashlib.sha256(json.dumps([h["value"] for h in history]).encode()).hexdigest()[:12]
    rng = _rng(seed, mind["id"], question["id"], question["text"], history_digest)
    traits = mind["persona"]["traits"]
    topic = topics.question_topic(question)
    asks = consistency.aspect(question)
    earlier = [h.get("basis") or {} for h in history]
    if topic is None and asks in consistency.HABITS:  # "Which brands do you buy?" after questions about shoes
        named = next((b["topic"] for b in reversed(earlier) if b.get("topic")), None)
        topic = topics.topic_named(named) if named else None
    fitting = topics.fits(mind, topic)
    wtp = _willingness_to_pay(
        seed=seed, mind=mind, topic=topic, question=question, earlier=earlier, fitting=fitting, unpriced=unpriced
    )
    basis: dict[str, Any] = {"aspect": asks, "topic": topic.name if topic else None, "wtpEur": wtp}
    method_input = question.get("methodInput") or {}
    if wtp is not None and method_input.get("methodId") == "van-westendorp":
        wtp *= VAN_WESTENDORP_FACTORS.get(str(method_input.get("role")), 1.0)  # each price point its own amount
    stance = next((b["stance"] for b in reversed(earlier) if b.get("stance") is not None), None)
    affinity = _stance_affinity(question["text"], traits=traits, stance=stance, fitting=fitting, rng=rng)
    basis["stance"] = stance if stance is not None else affinity if asks in ("stance", None) else None
    affinity = _price_view(question, topic, affinity=affinity, wtp=wtp, rng=_rng(seed, mind["id"], question["text"]))
    habits = _Habits(seed=seed, mind=mind, topic=topic, earlier=earlier)
    response = question["response"]
    language = answer_language.language_of(locale, question["text"])
    value, text, theme = _value(
        response,
        affinity=affinity,
        mind=mind,
        rng=rng,
        question=question,
        wtp=wtp,
        fitting=fitting,
        language=language,
        asks=asks,
        habits=habits,
        topic=topic,
    )
    if asks == "prefer":
        basis["preferred"] = value
    answer = {
        "mindId": mind["id"],
        "mindName": mind["name"],
        "discipline": mind.get("discipline"),
        "audienceId": mind["audienceId"],
        "questionId": question["id"],
        "value": value,
        "text": text,
        "sentiment": sentiment(response, value, affinity=affinity),
        "basis": basis,  # the sandbox's own memory of what this answer stands on (never sent): later answers agree
    }
    if theme:
        answer["theme"] = theme
    return answer


def _stance_affinity(
    text: str, *, traits: dict[str, float], stance: float | None, fitting: bool, rng: random.Random
) -> float:
    """How positive the Mind is about what the run asks about. Its first such answer sets its stance (traits, the
    question's words, seeded noise); every later one stays on the same side of neutral (a Mind that found the
    concept appealing does not then say it would not buy it), with a little room either way."""
    if stance is None:
        affinity = _affinity(text, traits=traits, rng=rng)
        if not fitting:
            affinity = UNFIT_CENTRE + UNFIT_SPREAD * (affinity - 0.5)
        if abs(affinity - NEUTRAL) > STANCE_MARGIN:
            return affinity
        return NEUTRAL + math.copysign(STANCE_MARGIN, affinity - NEUTRAL)
    moved = stance + rng.gauss(0, STANCE_NOISE)
    if not fitting:  # someone else's field stays between neutral and "not for me", never enthusiastic
        moved = min(UNFIT_CENTRE + UNFIT_SPREAD / 2, max(UNFIT_CENTRE - UNFIT_SPREAD / 2, moved))
    if stance > NEUTRAL:
        return min(1.0, max(NEUTRAL + STANCE_MARGIN, moved))
    return max(0.0, min(NEUTRAL, moved))


def _affinity(text: str, *, traits: dict[str, float], rng: random.Random) -> float:
    lowered = text.lower()
    score = 0.5 + 0.3 * (traits["noveltySeeking"] - 0.5) - 0.3 * (traits["skepticism"] - 0.5)
    for keywords, trait, weight in _KEYWORD_TRAITS:
        if any(k in lowered for k in keywords):
            score += weight * (traits[trait] - 0.5)
    return min(1.0, max(0.0, score + rng.gauss(0, NOISE)))


def _willingness_to_pay(
    *,
    seed: int,
    mind: dict[str, Any],
    topic: topics.Topic | None,
    question: dict[str, Any],
    earlier: list[dict[str, Any]],
    fitting: bool,
    unpriced: bool = False,
) -> float | None:
    """The most this Mind would pay (EUR) for the question's category: the same for every question of it in the
    run (a category the sandbox does not know is anchored on the first price the run asked about, or, asked for an
    amount before any price, on ``UNKNOWN_REFERENCE_EUR``); less when the category is someone else's field
    (``UNFIT_WTP``)."""
    name = topic.name if topic else None
    known = next((b["wtpEur"] for b in earlier if b.get("topic") == name and b.get("wtpEur") is not None), None)
    if known is not None:
        return float(known)
    reference = topics.reference_eur(topic, topics.tested_price(question["text"], topic))
    if reference is None and not unpriced and consistency.aspect(question) in AMOUNT_ASPECTS:
        # asked for an amount of a category it does not know and no price yet: what a considered purchase costs
        reference = UNKNOWN_REFERENCE_EUR
    if reference is None:
        return None
    noise = _rng(seed, mind["id"], "wtp", reference).uniform(-WTP_NOISE, WTP_NOISE)
    sensitivity = mind["persona"]["traits"].get("priceSensitivity", 0.5)
    wtp = topics.willingness_to_pay(reference=reference, sensitivity=sensitivity, noise=noise)
    return wtp if fitting else wtp * UNFIT_WTP


def _price_view(
    question: dict[str, Any], topic: topics.Topic | None, *, affinity: float, wtp: float | None, rng: random.Random
) -> float:
    """A question that names a price is judged by that price against what the Mind says it would pay, not by
    mood: acceptable at or below it, too expensive above it (the noise never crosses that line)."""
    method = question.get("methodInput") or {}
    if method.get("methodId") == "gabor-granger" and method.get("price") is not None:
        tested: topics.Price | None = topics.Price(float(method["price"]), str(method.get("currency") or "EUR"))
    else:
        tested = topics.tested_price(question["text"], topic)
    if tested is None or wtp is None:
        return affinity
    view = topics.price_affinity(price=tested, wtp_eur=wtp) + rng.gauss(0, PRICE_NOISE)
    if topics.accepts(tested, wtp):
        return min(1.0, max(topics.POSITIVE_PRICE, view))
    return max(0.0, min(topics.NEGATIVE_PRICE, view))


class _Habits:
    """What this Mind does in the question's category: how often it buys it (``consistency.usage``), the brands it
    knows and uses, and the options it preferred earlier in the run."""

    def __init__(
        self, *, seed: int, mind: dict[str, Any], topic: topics.Topic | None, earlier: list[dict[str, Any]]
    ) -> None:
        self.seed, self.mind, self.topic = seed, mind, topic
        self.usage = consistency.usage(seed=seed, mind=mind, topic=topic)
        self.preferred = [b["preferred"] for b in earlier if b.get("preferred") is not None]

    def knows(self, brand: str) -> bool:
        return consistency.knows(seed=self.seed, mind=self.mind, brand=brand, topic=self.topic, used=self.usage)

    def named(self) -> tuple[str, ...]:
        return consistency.familiar(seed=self.seed, mind=self.mind, topic=self.topic) if self.topic else ()


def _value(
    response: dict[str, Any],
    *,
    affinity: float,
    mind: dict[str, Any],
    rng: random.Random,
    question: dict[str, Any],
    wtp: float | None,
    fitting: bool,
    language: str,
    asks: str | None,
    habits: _Habits,
    topic: topics.Topic | None,
) -> tuple[Any, str, str | None]:
    kind = response["type"]
    context: dict[str, Any] = {
        "question": question,
        "mind": mind,
        "wtp": wtp,
        "rng": rng,
        "language": language,
        "topic": topic,
    }
    if kind == "categorical":
        options = response["categoricalOptions"]
        choice = _habit_choice(options, asks=asks, habits=habits, question_text=question["text"])
        choice = choice or _choice(options, affinity=affinity, wtp=wtp)
        way = sentiment(response, choice, affinity=affinity)
        return choice, _closed(choice, response, choice=choice, affinity=affinity, way=way, **context), None
    if kind == "multiselect":
        chosen = _habit_selection(response["categoricalOptions"], asks=asks, habits=habits, rng=rng)
        if chosen is None:
            chosen = _multiselect(response, traits=mind["persona"]["traits"], rng=rng)
            chosen = chosen if fitting else chosen[:1]
        return chosen, _closed(", ".join(chosen), response, choice=chosen, affinity=affinity, way=None, **context), None
    if kind == "scale":
        low, high = response["scaleRange"]
        number = round(low + affinity * (high - low))
        way = sentiment(response, number, affinity=affinity)
        return number, _closed(str(number), response, choice=number, affinity=affinity, way=way, **context), None
    if asks in ("uses", "frequency"):
        affinity = USAGE_AFFINITY[habits.usage]
    brands: tuple[str, ...] | None = None
    if asks == "brands_used":
        brands = habits.named() if habits.usage else ()
    elif asks == "aware_unaided":
        brands = habits.named()
    currency = str((question.get("methodInput") or {}).get("currency") or "") or topics.currency_named(question["text"])
    said = voices.open_answer(
        question=question["text"],
        mind=mind,
        topic=topic,
        affinity=affinity,
        wtp_eur=wtp,
        rng=rng,
        role_phrase=with_article(role(mind["persona"]["occupation"])),
        language=language,
        method_input=question.get("methodInput"),
        asks={"price_point": "price", "van_westendorp": "price", "paid": "paid"}.get(asks or "")
        or ("brands" if brands is not None else None),
        currency=currency,
        brands=brands,
    )
    return said.text, said.text, said.theme


def _closed(
    said: str,
    response: dict[str, Any],
    *,
    choice: Any,
    affinity: float,
    way: float | None,
    question: dict[str, Any],
    mind: dict[str, Any],
    wtp: float | None,
    rng: random.Random,
    language: str,
    topic: topics.Topic | None,
) -> str:
    return reasons.closed_answer(
        question=question["text"],
        said=said,
        options=list(response.get("categoricalOptions") or []),
        mind=mind,
        topic=topic,
        sentiment=way,
        wtp_eur=wtp,
        rng=rng,
        language=language,
        method_input=question.get("methodInput"),
    )


def _choice(options: list[str], *, affinity: float, wtp: float | None) -> str:
    """The option this Mind picks: a price band by what it would pay; otherwise by how positive it is, read from
    the list's positive end (the first option, or the last when the list starts at its low end)."""
    if wtp is not None and all(topics.prices_in(o) for o in options):
        return min(options, key=lambda o: _band_distance(o, wtp))
    index = min(len(options) - 1, int((1 - affinity) * len(options)))
    return options[-1 - index] if _ASCENDING_FIRST.match(options[0].strip()) else options[index]


def _band_distance(option: str, wtp: float) -> float:
    """How far a price band ("More than 161 EUR", "140–161 EUR", "Less than 119 EUR") is from a price."""
    currency = topics.prices_in(option)[0].currency
    amounts = [topics.Price(n, currency).eur for n in topics.numbers_in(option)]
    lowered = option.lower()
    if lowered.startswith(("more than", "over", "above")):
        return max(0.0, amounts[0] - wtp)
    if lowered.startswith(("less than", "under", "below", "up to")):
        return max(0.0, wtp - amounts[0])
    low, high = min(amounts), max(amounts)
    return 0.0 if low <= wtp <= high else min(abs(wtp - low), abs(wtp - high))


def _habit_choice(options: list[str], *, asks: str | None, habits: _Habits, question_text: str) -> str | None:
    """The option a habit, a brand the Mind knows or an earlier preference decides (None: decided otherwise)."""
    if asks == "prefer":
        return next((o for o in reversed(habits.preferred) if o in options), None)
    if asks == "uses":
        return _choice(options, affinity=0.9 if habits.usage else 0.0, wtp=None)
    if asks == "frequency":
        return _frequency(options, habits.usage)
    if asks == "aware_aided":
        named = consistency.brands_in(question_text, habits.topic.brands if habits.topic else ())
        if not named:
            return None  # "Have you heard of this brand?" about the run's own product: decided by its stance
        return _choice(options, affinity=0.9 if habits.knows(named[0]) else 0.0, wtp=None)
    if asks == "brands_used":
        known = [o for o in options if not consistency.is_none_option(o) and habits.knows(o)]
        none = [o for o in options if consistency.is_none_option(o)]
        if not habits.usage:
            return none[0] if none else None
        return known[0] if known else None
    return None


def _habit_selection(options: list[str], *, asks: str | None, habits: _Habits, rng: random.Random) -> list[str] | None:
    """A list of brands: the ones this Mind knows (aided awareness) or uses (none when it never buys the
    category) — the brands it names unaided always among them."""
    if asks not in ("aware_aided", "brands_used"):
        return None
    none = [o for o in options if consistency.is_none_option(o)]
    known = [o for o in options if not consistency.is_none_option(o) and habits.knows(o)]
    if asks == "brands_used":
        if not habits.usage:
            return none[:1]
        named = [o for o in known if o in habits.named()]
        others = [o for o in known if o not in named]
        return named + others[: max(0, habits.usage - len(named))] or none[:1]
    return known or none[:1]


def _frequency(options: list[str], usage: int) -> str:
    """How often, on a list from "Never" up (or down to it): never for a Mind that never buys the category, else
    a later step the more it buys."""
    ascending = not consistency.is_never_option(options[-1])
    ordered = options if ascending else list(reversed(options))
    if not consistency.is_never_option(ordered[0]):
        index = round(usage / (consistency.USAGE_LEVELS - 1) * (len(ordered) - 1))
        return ordered[index]
    if usage == 0:
        return ordered[0]
    index = 1 + round((usage - 1) / (consistency.USAGE_LEVELS - 2) * (len(ordered) - 2))
    return ordered[min(index, len(ordered) - 1)]


def _multiselect(response: dict[str, Any], *, traits: dict[str, float], rng: random.Random) -> list[str]:
    options = response["categoricalOptions"]
    limit = response.get("maxSelections", DEFAULT_MAX_SELECTIONS)
    scored = sorted(
        options,
        key=lambda o: -(traits.get(_OPTION_TRAITS.get(o.lower(), ""), 0.4) + rng.uniform(0, 0.35)),
    )
    return scored[: rng.randint(0, limit)] if rng.random() < 0.08 else scored[: rng.randint(1, limit)]


def role(occupation: str) -> str:
    """An occupation as it reads mid-sentence: "University student" → "university student", "IT director" kept."""
    first, _, rest = occupation.strip().partition(" ")
    if first[1:].islower() or len(first) == 1:
        first = first.lower()
    return f"{first} {rest}".strip()


def with_article(phrase: str) -> str:
    """The phrase with "a" or "an" by how it is read ("an IT director", "a university student")."""
    first = phrase.split(" ", 1)[0]
    if first.isupper() and len(first) > 1:
        vowel = first[0] in _VOWEL_SOUND_LETTERS
    else:
        vowel = first[:1].lower() in "aeiou" and not first.lower().startswith(_CONSONANT_SOUND_PREFIXES)
    return f"{'an' if vowel else 'a'} {phrase}"


def sentiment(response: dict[str, Any], value: Any, *, affinity: float) -> float | None:
    """Where an answer sits between -1 (negative) and 1 (positive); None when it has no direction."""
    kind = response["type"]
    if kind == "categorical":
        options = response["categoricalOptions"]
        position = options.index(value) / (len(options) - 1)
        if _ASCENDING_FIRST.match(options[0].strip()):  # "Never … Always": the positive end is the last option
            position = 1 - position
        return round(1 - 2 * position, 3)
    if kind == "scale":
        low, high = response["scaleRange"]
        return round(2 * (value - low) / (high - low) - 1, 3)
    if kind == "qualitative":
        return 1.0 if affinity > 0.66 else 0.0 if affinity > 0.4 else -1.0
    return None


# ---------------------------------------------------------------- results


def output_data(
    *,
    question: dict[str, Any],
    answers: list[dict[str, Any]],
    missing: list[dict[str, str]],
    audience_names: dict[str, str],
    locale: str | None = None,
) -> dict[str, Any]:
    """Per-question results over the asked Minds only: the declared ``StudyOutputData`` (title, type,
    classification, per-Audience aggregate with the individual answers) plus the sandbox's aggregates and its
    mark ``simulated: true`` (an extension Minds never sends: the bot labels such a result as simulated locally)."""
    kind = question["response"]["type"]
    data: dict[str, Any] = {
        "title": question["text"],
        "type": kind,
        "classification": _classification(question["response"]),
        "audiences": _by_audience(
            question["response"], answers, audience_names, answer_language.language_of(locale, question["text"])
        ),
        "questionId": question["id"],
        "responseCount": len(answers),
        "simulated": True,  # the sandbox's own mark: these answers were simulated on this machine, not by Minds
        "responseCoverage": {
            "expected": len(answers) + len(missing),
            "received": len(answers),
            "missing": missing,
        },
    }
    if kind in ("categorical", "multiselect"):
        data["distribution"] = _distribution(question, answers)
    elif kind == "scale":
        data.update(_scale_stats(question, answers))
    else:
        data["themes"] = _themes(answers)
    return data


def _classification(response: dict[str, Any]) -> dict[str, Any]:
    classification: dict[str, Any] = {"type": response["type"]}
    if response.get("categoricalOptions"):
        classification["options"] = list(response["categoricalOptions"])
    if response.get("scaleRange"):
        classification["scaleRange"] = list(response["scaleRange"])
    return classification


def _coded(value: Any) -> str:
    """The declared answer ``value`` is a string; a multiselect answer is its options joined by "; "."""
    return "; ".join(str(v) for v in value) if isinstance(value, list) else str(value)


def _aggregate(response: dict[str, Any], answers: list[dict[str, Any]], language: str) -> str:
    """An Audience's answers in one line, in the language they were given in: the mean, every theme with its count
    ("Proven sustainability (5 of 12)", "Nachweisbare Nachhaltigkeit (5 von 12)", "입증된 지속가능성 (12명 중
    5명)"), or the most chosen option."""
    line = answer_language.phrases_for(language).line
    if not answers:
        return line["no_answers"]
    if response["type"] == "scale":
        mean = f"{statistics.fmean(a['value'] for a in answers):.1f}"
        return line["mean"].format(mean=mean.replace(".", ",") if language in answer_language.DECIMAL_COMMA else mean)
    if response["type"] == "qualitative":
        themes = Counter(a.get("theme", line["theme_other"]) for a in answers)
        return " · ".join(
            line["theme_count"].format(theme=theme, count=count, total=len(answers))
            for theme, count in themes.most_common()
        )
    counts: Counter[str] = Counter()
    for answer in answers:
        counts.update(answer["value"] if isinstance(answer["value"], list) else [answer["value"]])
    option, count = counts.most_common(1)[0]
    return f"{option} ({round(100 * count / len(answers))}%)"


def _by_audience(
    response: dict[str, Any], answers: list[dict[str, Any]], names: dict[str, str], language: str = "en"
) -> list[dict[str, Any]]:
    groups: dict[str, list[dict[str, Any]]] = {}
    for answer in answers:
        groups.setdefault(answer["audienceId"], []).append(answer)
    return [
        {
            "audience": names.get(audience_id, audience_id),
            "value": _aggregate(response, group, language),
            "answers": [
                {
                    "value": _coded(a["value"]),
                    "persona": a["mindName"],
                    "discipline": a.get("discipline"),
                    "message": a["text"],
                }
                for a in (_by_theme(group) if response["type"] == "qualitative" else group)
            ],
        }
        for audience_id, group in groups.items()
    ]


def _by_theme(answers: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """An Audience's open answers, one of each theme in turn (the most frequent theme first), so the first few —
    the ones a reader sees quoted — illustrate the leading themes its summary names."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for answer in answers:
        groups.setdefault(answer.get("theme", "Other"), []).append(answer)
    ranked = [groups[theme] for theme, _count in Counter(a.get("theme", "Other") for a in answers).most_common()]
    return [group[depth] for depth in range(max(map(len, ranked), default=0)) for group in ranked if depth < len(group)]


def _distribution(question: dict[str, Any], answers: list[dict[str, Any]]) -> list[dict[str, Any]]:
    counts: Counter[str] = Counter()
    for answer in answers:
        counts.update(answer["value"] if isinstance(answer["value"], list) else [answer["value"]])
    total = len(answers) or 1
    return [
        {"option": option, "count": counts[option], "pct": round(100 * counts[option] / total, 1)}
        for option in question["response"]["categoricalOptions"]
    ]


def _scale_stats(question: dict[str, Any], answers: list[dict[str, Any]]) -> dict[str, Any]:
    values = [a["value"] for a in answers]
    low, high = question["response"]["scaleRange"]
    if not values:
        return {"scaleRange": [low, high], "mean": None, "median": None}
    return {
        "scaleRange": [low, high],
        "mean": round(statistics.fmean(values), 2),
        "median": statistics.median(values),
        "min": min(values),
        "max": max(values),
    }


def _themes(answers: list[dict[str, Any]]) -> list[dict[str, Any]]:
    counts = Counter(a.get("theme", "Other") for a in answers)
    return [
        {
            "theme": theme,
            "count": count,
            "examples": [a["text"] for a in answers if a.get("theme") == theme][:2],
        }
        for theme, count in counts.most_common()
    ]


def with_answers(data: dict[str, Any], answers: list[dict[str, Any]], *, preview: bool) -> dict[str, Any]:
    """outputData plus the individual answers, as the answers endpoint returns it."""
    shown = answers[:PREVIEW_ANSWERS] if preview else answers
    rows = [{k: a[k] for k in ("mindId", "mindName", "audienceId", "value", "text")} for a in shown]
    audiences = data.get("audiences", [])
    if preview:
        audiences = [{**a, "answers": a["answers"][:PREVIEW_ANSWERS]} for a in audiences]
    return {**data, "audiences": audiences, "answers": rows}


def consistency_flags(items: list[dict[str, Any]], questions: list[dict[str, Any]]) -> dict[int, list[dict[str, Any]]]:
    """Contradicting answer pairs per run item index (``consistency.flags``); each pair is flagged on both."""
    return consistency.flags(items, {q["id"]: q for q in questions})


def minds_checked(items: list[dict[str, Any]]) -> set[str]:
    """Minds that answered at least two items (only they are checked)."""
    counts = Counter(a["mindId"] for item in items for a in item.get("answers", []))
    return {mind for mind, n in counts.items() if n >= 2}
