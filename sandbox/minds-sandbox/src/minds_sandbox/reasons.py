"""Why a Mind chose what it chose: the reason that comes with a choice or a scale point.

Owns: ``closed_answer`` and reading what a closed question asks (``closed_kind``: where one hears about things,
credibility of a claim or label, recommending, having bought or used something, having heard of it, how often,
a preference between options, agreement, satisfaction, how different it is, buying or trying it, how appealing,
else an opinion; a Gabor-Granger step or a planned question is read by its structure and the planner's wording in
any of the five languages, others by their words; a question naming a price is judged as a price first). The
reason is written in the Study's language (``phrases_*``: "Ja — …", "네 — …") and speaks to the question and to
the direction of the chosen option (positive, negative, neutral — from its sentiment), in the Mind's voice (its
strongest trait gives the second half: what draws it, what would decide it, what puts it off, or for a habit who
it is): "Yes — an independent label is something I can check; a claim the brand makes about itself I take with a
pinch of salt." A list of alternatives (no ladder) gets why that one fits. A Yes/No answer leads
with the word a person would say ("Yes —", "No —"); any other option or scale point is never repeated (the
result shows it beside the reason), and a reason is never just the option. A question naming a price is
answered against what the Mind would pay ("I would pay about 95 EUR; I'd never pay 140 EUR for shoes."), the
price quoted exactly as the question gives it ("139,99 EUR"), and the words never contradict the numbers (a Mind
that would pay more never finds the price "a stretch").
Pure functions over plain data and a seeded ``random.Random``; the same inputs always give the same words.
Must not touch state, clocks or I/O.
"""

from __future__ import annotations

import random
import re
from functools import cache
from typing import Any

from minds_sandbox import answer_language, phrases_en, topics, voices
from minds_sandbox.phrases import Phrases
from minds_sandbox.topics import Topic

LEANS = 0.3  # sentiment beyond which an answer counts as positive or negative (the 2nd of 4 options leans)

_CLOSED_KINDS = (
    ("source", r"where (?:do|did|would) you|hear about|come across|wo (?:haben|hören) Sie|dónde|在哪|어디"),
    ("credibility", r"credib|believ|\btrust|\blabel|\bclaims?\b|certif|convinc|glaubw|creíb|可信|믿을|신뢰"),
    ("recommend", r"recommend|empfehl|recomiend|推荐|추천"),
    (
        "bought",
        r"have you (?:bought|used|tried)|did you (?:buy|use)|in the past \d+ months|gekauft|verwendet|"
        r"has comprado|has usado|买过|用过|구매한 적|사용한 적",
    ),
    ("heard", r"heard of|familiar|aware of|kannten|kennen|oído|conoces|听说|听过|了解|들어 본|알고"),
    ("frequency", r"how often|how many|how frequently|wie oft|häufig|con qué frecuencia|cuánt|多久|多少次|자주|몇"),
    ("prefer", r"prefer|bevorzug|prefier|更喜欢|偏好|선호"),
    ("agree", r"\bagree|zustimm|de acuerdo|同意|동의"),
    ("satisfied", r"satisf|zufrieden|satisfech|满意|만족"),
    ("different", r"different|unterschied|diferen|不同|다르|다릅"),
    (
        "intent",
        r"\bbuy\b|\bpurchase|\bconsider|\bwould you (?:try|use|wear|choose|order)|\bchoose\b|kaufen|"
        r"in betracht|compr|plantear|购买|会买|考虑|구매|고려",
    ),
    (
        "appeal",
        r"appeal|interest|(?:do|would) you like|impression|feel about|ansprechend|eindruck|interés|吸引|印象|매력|인상",
    ),
)
_CLOSED_PATTERNS = tuple((kind, re.compile(pattern, re.IGNORECASE)) for kind, pattern in _CLOSED_KINDS)
_YES = re.compile(r"^(?:yes|ja|sí|si|是|예|네)\b", re.IGNORECASE)
_NO = re.compile(r"^(?:no|nein|否|아니요)\b", re.IGNORECASE)
_LABEL = re.compile(  # what a credibility reason talks about: a label or a claim
    r"label|claim|certif|siegel|zertifi|aussage|behauptung|etiqueta|sello|afirmaci|标签|认证|说法|宣称|라벨|인증|주장",
    re.IGNORECASE,
)
_NO_PREFERENCE = re.compile(r"no preference|keine präferenz|sin preferencia|没有偏好|선호 없음|neither|either", re.I)

_SAYS = phrases_en.PHRASES.says  # kind → (positive, neutral, negative) in English
_FACTUAL = frozenset({"bought", "heard", "frequency"})  # about the Mind's own habits, not a judgement
PRICE_TOLERANCE = 0.97  # what a Mind would pay covers a price within the rounding of the amount it says


def closed_kind(question: str, method_input: dict[str, Any] | None = None) -> str:
    """Which kind of closed question this is: a Gabor-Granger step asks whether one would buy; a question the
    planner worded (in any of the five languages) is the kind its English wording reads as; else the first kind in
    ``_CLOSED_KINDS`` whose words it uses; else "opinion"."""
    if method_input and method_input.get("methodId") == "gabor-granger":
        return "intent"
    key = answer_language.planned_key(question)
    return _key_kind(key) if key else _word_kind(question)


@cache
def _key_kind(key: str) -> str:
    return _word_kind(answer_language.english_wording(key))


def _word_kind(question: str) -> str:
    return next((kind for kind, pattern in _CLOSED_PATTERNS if pattern.search(question)), "opinion")


def direction(sentiment: float | None) -> str:
    if sentiment is None:
        return "neutral"
    return "positive" if sentiment > LEANS else "negative" if sentiment < -LEANS else "neutral"


def closed_answer(
    *,
    question: str,
    said: str,
    options: list[str],
    mind: dict[str, Any],
    topic: Topic | None,
    sentiment: float | None,
    wtp_eur: float | None,
    rng: random.Random,
    language: str = "en",
    method_input: dict[str, Any] | None = None,
) -> str:
    """Why a Mind chose ``said`` (an option, several joined by ", ", or a scale point): one or two full
    sentences in ``language`` about what the question asks, for the direction of the choice, in the Mind's voice;
    unsure outside its field."""
    p = answer_language.phrases_for(language)
    line = p.line
    field = voices.field_of(topic, p.lang)
    if not topics.fits(mind, topic):
        return line["closed_unfit"].format(field=field)
    way = direction(sentiment)
    tested = topics.tested_price(question, topic)
    named = tested or next(iter(topics.prices_in(said)), None)
    lead = _lead(p, said, options)
    if named is not None and wtp_eur is not None:
        reason = _price_reason(p, question=question, wtp_eur=wtp_eur, tested=tested, named=named, way=way, field=field)
        return _sentence(p, lead, reason)
    trait = voices.driver(mind["persona"]["traits"], rng)
    me = p.about_me[trait]
    if not said:
        return line["closed_none"]
    if sentiment is None:  # a multiselect: one or several options chosen
        return line["closed_several" if ", " in said else "closed_one"].format(me=me)
    kind = closed_kind(question, method_input)
    if kind == "source":
        return _sentence(p, lead, line["closed_source"].format(field=field, me=me))
    if kind == "prefer" or not _is_ordered(options, kind):
        return _sentence(p, lead, _preference(p, said, me=me, field=field))
    if kind == "credibility" and not _LABEL.search(question):  # how believable the thing itself is
        kind = "believable"
    if kind == "credibility":
        positive, negative = (p.credible_too if rng.random() < 0.5 else p.credible)[trait]
        return _sentence(
            p, lead, positive if way == "positive" else negative if way == "negative" else line["closed_unsure"]
        )
    yes, unsure, no = p.says[kind]
    says = {"positive": yes, "neutral": unsure, "negative": no}[way].format(field=field)
    if kind in _FACTUAL:  # a habit: who is speaking, when it says something about the answer
        about_me = way == "positive" or (way == "negative" and trait in ("priceSensitivity", "brandLoyalty"))
        return _sentence(p, lead, line["closed_habit"].format(says=says, me=me) if about_me else says)
    why = {"positive": p.draws, "neutral": p.would_decide, "negative": p.puts_off}[way][trait]
    return _sentence(p, lead, line["closed_why"].format(says=says, why=why))


def _lead(p: Phrases, said: str, options: list[str]) -> str:
    """ "Yes — " / "No — " for a Yes/No list (how a person answers it, in the language); otherwise nothing (the
    option is shown beside the reason, so it is not repeated)."""
    if not any(_YES.match(o) for o in options):
        return ""
    if _YES.match(said):
        return p.line["lead_yes"]
    if _NO.match(said):
        return p.line["lead_no"]
    return p.line["lead_maybe"]


def _sentence(p: Phrases, lead: str, body: str) -> str:
    return f"{lead}{body if lead else body[:1].upper() + body[1:]}{p.line['end']}"


def _is_ordered(options: list[str], kind: str) -> bool:
    """Whether the options run from one end to the other (Yes/No, likely/unlikely, a scale), not a set of
    alternatives to pick from."""
    return not options or kind != "opinion" or len(options) <= 2 or any(_YES.match(o) or _NO.match(o) for o in options)


def _preference(p: Phrases, said: str, *, me: str, field: str) -> str:
    if _NO_PREFERENCE.search(said):
        return p.line["closed_neither"].format(field=field)
    return p.line["closed_fits"].format(me=me)


def _price_reason(
    p: Phrases,
    *,
    question: str,
    wtp_eur: float,
    tested: topics.Price | None,
    named: topics.Price,
    way: str,
    field: str,
) -> str:
    """What the Mind would pay, against the price the question names (quoted exactly as it names it); the words
    never contradict the numbers: a Mind that would pay more than the price never finds it a stretch."""
    line, lang = p.line, p.lang
    mine = answer_language.money(wtp_eur, named.currency, lang)
    if tested is None:  # a band or an amount among the options: what the Mind would pay is the reason
        return line["pay_band"].format(mine=mine, field=field)
    within = topics.accepts(tested, wtp_eur)  # at or below the amount the Mind says, exactly
    if tested.extra_eur is not None:  # "20 EUR more": judged as the usual price plus that amount
        extra = answer_language.quoted_extra(question, tested, lang)
        if way == "positive":
            key = "pay_extra_fine" if within else "pay_extra_over"
        elif way == "negative":
            key = "pay_extra_not_worth" if within else "pay_extra_too_much"
        else:
            key = "pay_extra_stretch"
        return line[key].format(mine=mine, field=field, extra=extra)
    asked = answer_language.quoted(question, tested, lang)
    if way == "positive":
        key = "pay_happily" if within else "pay_over_but"
    elif way == "negative":
        key = "pay_could_but" if within else "pay_never"
    else:
        key = "pay_within" if within else "pay_stretch"
    return line[key].format(mine=mine, field=field, asked=asked)
