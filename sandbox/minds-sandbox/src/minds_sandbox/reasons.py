"""Why a Mind chose what it chose: the reason that comes with a choice or a scale point.

Owns: ``closed_answer`` and reading what a closed question asks (``closed_kind``: where one hears about things,
credibility of a claim or label, recommending, having bought or used something, having heard of it, how often,
a preference between options, agreement, satisfaction, how different it is, buying or trying it, how appealing,
else an opinion; a question naming a price is judged as a price first). The reason speaks to the question and to
the direction of the chosen option (positive, negative, neutral — from its sentiment), in the Mind's voice (its
strongest trait gives the second half: what draws it, what would decide it, what puts it off, or for a habit who
it is): "Yes — an independent label is something I can check; a claim the brand makes about itself I take with a
pinch of salt." A list of alternatives (no ladder) gets why that one fits. A Yes/No answer leads
with the word a person would say ("Yes —", "No —"); any other option or scale point is never repeated (the
result shows it beside the reason), and a reason is never just the option. A question naming a price is
answered against what the Mind would pay ("I would pay about 95 EUR; I'd never pay 140 EUR for shoes.").
Pure functions over plain data and a seeded ``random.Random``; the same inputs always give the same words.
Must not touch state, clocks or I/O.
"""

from __future__ import annotations

import random
import re
from typing import Any

from minds_sandbox import topics, voices
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
_NO_PREFERENCE = re.compile(r"no preference|keine präferenz|sin preferencia|没有偏好|선호 없음|neither|either", re.I)

# credibility → trait → (positive, negative): every one names the label or the claim it is about
_CREDIBLE: dict[str, tuple[str, str]] = {
    "skepticism": (
        "an independent label is something I can check; a claim the brand makes about itself I take with a pinch "
        "of salt",
        "a label alone doesn't convince me; I have seen too many claims like that fall apart",
    ),
    "sustainabilityFocus": (
        "a label from a certifier I recognise means someone outside the company has looked at how it is made",
        "I'd still want to see how it is made; a label alone doesn't tell me that",
    ),
    "brandLoyalty": (
        "a label on top of a brand I already trust makes the claim easier to believe",
        "I trust the company behind the product more than any label it puts on the box",
    ),
    "priceSensitivity": (
        "a checked label makes the claim worth something, as long as it doesn't push the price up",
        "a label mostly looks like a reason to charge more; it doesn't make the claim more believable to me",
    ),
    "noveltySeeking": (
        "a label that says in one line what was checked and by whom makes the claim concrete",
        "a label is just one more logo to me; I'd need to know what exactly it checks before I believe the claim",
    ),
}
# a second wording for each, so two alike Minds do not say the same words
_CREDIBLE_TOO: dict[str, tuple[str, str]] = {
    "skepticism": (
        "if someone independent checked it, the claim is more than the brand talking about itself",
        "labels like that are easy to buy; the claim would need real numbers behind it",
    ),
    "sustainabilityFocus": (
        "a third-party label tells me the claim was looked at by someone who knows how things are made",
        "a label doesn't show me where the materials come from, so the claim stays vague",
    ),
    "brandLoyalty": (
        "from a brand I know, a checked label would settle it; the claim would be easy to believe",
        "whether I believe the claim depends on the brand, not on a label",
    ),
    "priceSensitivity": (
        "a label somebody else checked makes the claim believable, if the price stays the same",
        "I'd suspect the label is there to justify a higher price, so the claim doesn't gain much",
    ),
    "noveltySeeking": (
        "a label from someone independent makes the claim feel real, and I'd look it up",
        "one more label on the box won't make the claim believable; I'd want to know what was measured",
    ),
}
_CREDIBLE_UNSURE = "it depends on who is behind the label; some I would believe, some I wouldn't"

# kind → (positive, neutral, negative): what the question asks, said for the direction of the choice
_SAYS: dict[str, tuple[str, str, str]] = {
    "recommend": (
        "I'd tell my friends about {field} like this",
        "I might mention it, but I wouldn't push anyone to buy it",
        "I wouldn't put my name behind it to a friend",
    ),
    "bought": (
        "I buy {field} regularly, so I know what is out there",
        "now and then, when I need new {field}",
        "I haven't bought {field} like this recently",
    ),
    "heard": (
        "I have come across it before and know roughly what it is",
        "the name rings a bell, but I couldn't say much about it",
        "this is the first I have heard of it",
    ),
    "frequency": (
        "{field} are something I buy and use a lot",
        "I buy {field} when I need them, not more than that",
        "{field} are not something I spend much on",
    ),
    "agree": (
        "that matches how I see it",
        "I partly see it that way, partly not",
        "that is not how I see it",
    ),
    "satisfied": (
        "it does what I need, and I have had no reason to complain",
        "it is fine, though nothing special",
        "it has let me down more than once",
    ),
    "different": (
        "it feels like something I haven't seen before",
        "it is a bit different, but not by much",
        "it looks much like what I already have",
    ),
    "intent": (
        "I'd buy it if I came across it",
        "I might, but I'd want to see it in person first",
        "I don't see myself buying it",
    ),
    "appeal": (
        "it speaks to me",
        "it is okay, but it doesn't excite me",
        "it doesn't do much for me",
    ),
    "opinion": (
        "I feel good about it",
        "I have mixed feelings about it",
        "I'm not keen on it",
    ),
}
_FACTUAL = frozenset({"bought", "heard", "frequency"})  # about the Mind's own habits, not a judgement
# trait → what draws a Mind leaning in
_DRAWS = {
    "priceSensitivity": "it seems fairly priced for what it is",
    "sustainabilityFocus": "I like what it is made of",
    "brandLoyalty": "the brand behind it is one I would trust",
    "noveltySeeking": "it feels new, and I like being early",
    "skepticism": "what it promises sounds like something I could check",
}
# trait → what would decide it for a Mind in two minds
_WOULD_DECIDE = {
    "priceSensitivity": "the price would decide it",
    "sustainabilityFocus": "how it is made would decide it",
    "brandLoyalty": "who makes it would decide it",
    "noveltySeeking": "whether it is really new would decide it",
    "skepticism": "a test I trust would decide it",
}
# trait → what a Mind leaning out says about itself
_PUTS_OFF = {
    "priceSensitivity": "I'd rather keep my money for something I know is worth it",
    "sustainabilityFocus": "I don't know enough about how it is made",
    "brandLoyalty": "I'd rather stay with the names I know",
    "noveltySeeking": "it feels like more of the same",
    "skepticism": "I haven't seen proof that it does what it says",
}


def closed_kind(question: str) -> str:
    """Which kind of closed question this is (the first matching kind in ``_CLOSED_KINDS``), else "opinion"."""
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
) -> str:
    """Why a Mind chose ``said`` (an option, several joined by ", ", or a scale point): one or two full
    sentences about what the question asks, for the direction of the choice, in the Mind's voice; unsure outside
    its field."""
    field = voices.field_of(topic)
    if not topics.fits(mind, topic):
        return f"I don't know much about {field}, so I have no strong view."
    way = direction(sentiment)
    tested = topics.tested_price(question, topic)
    named = tested or next(iter(topics.prices_in(said)), None)
    lead = _lead(said, options)
    if named is not None and wtp_eur is not None:
        return _sentence(lead, _price_reason(wtp_eur=wtp_eur, tested=tested, named=named, way=way, field=field))
    trait = voices.driver(mind["persona"]["traits"], rng)
    if not said:
        return "None of these matter much to me."
    if sentiment is None:  # a multiselect: one or several options chosen
        these = "Those are" if ", " in said else "That is"
        return f"{these} what I look at first, because {voices.ABOUT_ME[trait]}."
    kind = closed_kind(question)
    if kind == "source":
        return _sentence(lead, f"that is where I notice new {field} most, because {voices.ABOUT_ME[trait]}")
    if kind == "prefer" or not _is_ordered(options, kind):
        return _sentence(lead, _preference(said, trait=trait, field=field))
    if kind == "credibility":
        positive, negative = (_CREDIBLE_TOO if rng.random() < 0.5 else _CREDIBLE)[trait]
        return _sentence(lead, positive if way == "positive" else negative if way == "negative" else _CREDIBLE_UNSURE)
    yes, unsure, no = _SAYS[kind]
    says = {"positive": yes, "neutral": unsure, "negative": no}[way].format(field=field)
    if kind in _FACTUAL:  # a habit: who is speaking, when it says something about the answer
        about_me = way == "positive" or (way == "negative" and trait in ("priceSensitivity", "brandLoyalty"))
        return _sentence(lead, f"{says}; {voices.ABOUT_ME[trait]}" if about_me else says)
    why = {"positive": _DRAWS, "neutral": _WOULD_DECIDE, "negative": _PUTS_OFF}[way][trait]
    return _sentence(lead, f"{says}; {why}")


def _lead(said: str, options: list[str]) -> str:
    """ "Yes — " / "No — " for a Yes/No list (how a person answers it); otherwise nothing (the option is shown
    beside the reason, so it is not repeated)."""
    if not any(_YES.match(o) for o in options):
        return ""
    if _YES.match(said):
        return "Yes — "
    if _NO.match(said):
        return "No — "
    return "Maybe — "


def _sentence(lead: str, body: str) -> str:
    return f"{lead}{body if lead else body[:1].upper() + body[1:]}."


def _is_ordered(options: list[str], kind: str) -> bool:
    """Whether the options run from one end to the other (Yes/No, likely/unlikely, a scale), not a set of
    alternatives to pick from."""
    return not options or kind != "opinion" or len(options) <= 2 or any(_YES.match(o) or _NO.match(o) for o in options)


def _preference(said: str, *, trait: str, field: str) -> str:
    if _NO_PREFERENCE.search(said):
        return f"neither stands out for me; with {field}, other things decide it"
    return f"that one fits me better, because {voices.ABOUT_ME[trait]}"


def _price_reason(*, wtp_eur: float, tested: topics.Price | None, named: topics.Price, way: str, field: str) -> str:
    mine = topics.format_price(wtp_eur, named.currency)
    if tested is None:  # a band or an amount among the options: what the Mind would pay is the reason
        return f"I would pay about {mine} for {field}"
    if tested.extra_eur is not None:  # "20 EUR more": judged as the usual price plus that amount
        extra = topics.format_amount(tested.extra or 0.0, tested.currency)
        # What the Mind would pay covers the usual price and the extra (the amount it says, exactly).
        within = topics.accepts(tested, wtp_eur)
        if way == "positive":
            if within:
                return f"I would pay about {mine} for {field}, so {extra} more is fine with me"
            return f"{extra} more takes {field} a little over the {mine} I'd pay, but I'd pay it"
        if way == "negative":
            if within:
                return f"I would pay about {mine} for {field}, but {extra} more isn't worth it to me"
            return f"I would pay about {mine} for {field}; {extra} more is too much"
        return f"I would pay about {mine} for {field}, so {extra} more is a stretch"
    asked = topics.format_amount(tested.amount, tested.currency)
    if way == "positive":
        return f"I would pay about {mine}, so I'd happily pay {asked} for {field}"
    if way == "negative":
        return f"I would pay about {mine}; I'd never pay {asked} for {field}"
    return f"I would pay about {mine}, so it's a stretch to pay {asked} for {field}"
