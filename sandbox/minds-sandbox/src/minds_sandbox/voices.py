"""What a Mind says in words: its open (qualitative) answer to a question and its reply in a one-Mind chat.

Owns: reading what kind of question was asked (``kind_of``: switching triggers, brands, price, what one used
before, what one likes most, credibility, barriers, improvements, usage, whether one would buy it, first
reaction, a plain "why", or an opinion), and the sentences a Mind answers it with — in full sentences, about the
question's topic, in the Mind's voice (its strongest traits drive the reason it gives, its occupation and city
say who is speaking) — together with the theme that answer belongs to (the themes of a result are counted from
these). A Mind whose Audience does not fit the topic says so, briefly ("Honestly, I don't know much about shoes
…") instead of answering as an expert. A price question gets a price, a brands question gets brands, in answers
and in chat alike (the reason that comes with a choice or a scale point is ``reasons``).
Pure functions over plain data and a seeded ``random.Random``; the same inputs always give the same words.
Must not touch state, clocks or I/O.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

from minds_sandbox import topics
from minds_sandbox.topics import Topic

POSITIVE = 0.66  # affinity above which a Mind leans in
NEGATIVE = 0.4  # affinity below which it leans out
DRIVER_JITTER = 0.25  # how far a weaker trait may still win as the reason a Mind gives

_KINDS = (
    (
        "switch",
        r"\bswitch|\bchange (?:your |to (?:a |an )?(?:other|another|new) )?brand|make you change|"
        r"try (?:a |an )?(?:other|another|different) brand|move away",
    ),
    ("brands", r"\b(?:which|what) brands?\b|\bbrands? (?:do|did|would) you\b"),
    (
        "price",
        r"\bwhat price|\bhow much|\bmost you would pay|\bdid you pay|\bfair price|\bwilling to pay|"
        r"\bwould you pay|\bprice would",
    ),
    ("experience", r"\bwhat was it\b|\bhave used something|\bused something similar|\bwhat did you use\b"),
    ("likes", r"\blike (?:most|best)\b|\bfavou?rite\b|\bmost appealing\b"),
    ("credibility", r"credib|\btrust|believ|\blabel|certif|\bclaims?\b|convinc"),
    ("barrier", r"stop you|put you off|hold you back|would you change|concern|worr|hesita|downside"),
    ("improve", r"\bimprove|\bmissing\b|\bwish\b|change about|\bbetter\b"),
    ("usage", r"\bhow often\b|\bwhen do you\b|\bhow do you (?:use|choose|buy)|\broutine\b|\busually\b"),
    ("intent", r"\b(?:would|will|could) you (?:buy|try|use|wear|choose|order)\b|\binterested in\b"),
    ("reaction", r"reaction|impression|think (?:of|about)|feel about|opinion|appeal|\blike about\b"),
    ("why", r"\bwhy\b"),
)
_KIND_PATTERNS = tuple((kind, re.compile(pattern, re.IGNORECASE)) for kind, pattern in _KINDS)

# trait → what the Mind says about itself (the second sentence of a fitting answer)
_ABOUT_ME = {
    "priceSensitivity": "I compare prices before I buy anything",
    "sustainabilityFocus": "I look closely at what things are made of",
    "brandLoyalty": "I tend to stay with names I know",
    "noveltySeeking": "I am usually among the first to try something new",
    "skepticism": "I have seen plenty of promises that did not hold up",
}
ABOUT_ME = _ABOUT_ME
# kind → trait → (theme, the sentence that carries it); {field} is the topic as the Mind names it
_REASONS: dict[str, dict[str, tuple[str, str]]] = {
    "switch": {
        "priceSensitivity": (
            "A better price",
            "A clearly better price would: the same quality for about a fifth less and I would switch",
        ),
        "brandLoyalty": (
            "Only a bad experience",
            "Only being let down: unless the quality of my current brand dropped, I would stay",
        ),
        "noveltySeeking": (
            "Something genuinely new",
            "Something genuinely new would: a technology or design nobody else has yet",
        ),
        "sustainabilityFocus": (
            "Proven sustainability",
            "A brand that can prove it is more sustainable, with "
            "recycled materials and a take-back offer, would win me over",
        ),
        "skepticism": (
            "Independent proof",
            "Independent tests showing it really performs better would; advertising alone would not move me",
        ),
    },
    "credibility": {
        "skepticism": (
            "Only if independently verified",
            "Only if an independent body checks the numbers; a label the company made up itself would make me "
            "trust the claim less",
        ),
        "sustainabilityFocus": (
            "A certifier I recognise",
            "It helps when the label comes from a certifier I recognise, because then the claim is more than marketing",
        ),
        "brandLoyalty": (
            "The brand matters more",
            "I trust the company behind the product more than any label on it",
        ),
        "priceSensitivity": (
            "Not if it costs more",
            "It would help, but not if the label becomes an excuse to charge more",
        ),
        "noveltySeeking": (
            "A clear explanation",
            "It helps when the label says in one line what was checked and by whom",
        ),
    },
    "why": {
        "priceSensitivity": (
            "Price and value",
            "Mostly the price: with {field} I look at what I get for the money, and it has to feel fair",
        ),
        "sustainabilityFocus": (
            "Sustainability",
            "Mostly how it is made: I care whether {field} use recycled or responsibly made materials",
        ),
        "brandLoyalty": ("Brand trust", "Mostly trust: I stay with the brands that have not let me down"),
        "noveltySeeking": ("Novelty", "Mostly curiosity: I like trying new {field} before everyone else has them"),
        "skepticism": (
            "Proof it works",
            "Mostly whether it works: I believe claims about {field} only once I have seen proof",
        ),
    },
    "barrier": {
        "priceSensitivity": ("The price", "a price that does not feel fair for what it is"),
        "sustainabilityFocus": ("Unclear sourcing", "not knowing how and where it is made"),
        "brandLoyalty": ("An unknown brand", "a brand I have never heard of"),
        "noveltySeeking": ("More of the same", "it feeling like more of the same"),
        "skepticism": ("No proof", "promises without proof that it actually works"),
    },
    "improve": {
        "priceSensitivity": ("A lower price", "Bring the price down, or offer a simpler, cheaper version"),
        "sustainabilityFocus": ("Greener materials", "Use more recycled materials and say plainly how it is made"),
        "brandLoyalty": ("Consistent quality", "Keep the quality consistent; that is what keeps me coming back"),
        "noveltySeeking": ("A fresh design", "Add something I have not seen elsewhere, a design or a feature"),
        "skepticism": ("Honest claims", "Back every claim with an independent test"),
    },
    "likes": {
        "priceSensitivity": ("A fair price", "What I like most is that it seems fairly priced for what it is"),
        "sustainabilityFocus": (
            "The materials",
            "What I like most is what it is made of, if the recycled part is real",
        ),
        "brandLoyalty": ("The brand behind it", "What I like most is the brand behind it, which I already know"),
        "noveltySeeking": ("Feels new", "What I like most is that it feels new and different from what I have"),
        "skepticism": ("Nothing until proven", "Nothing yet, honestly; I would need to see it hold up first"),
    },
    "reaction": {
        "priceSensitivity": ("Value for money", "as long as the price feels fair"),
        "sustainabilityFocus": ("Better for the planet", "if it is genuinely better for the planet"),
        "brandLoyalty": ("Who is behind it", "because it matters to me which brand stands behind it"),
        "noveltySeeking": ("Feels new", "because I like being early to new things"),
        "skepticism": ("Needs proof", "but I would want proof that it works first"),
    },
    "opinion": {
        "priceSensitivity": ("Price first", "For me it comes down to the price and whether it is worth it"),
        "sustainabilityFocus": ("How it is made", "For me it comes down to how responsibly it is made"),
        "brandLoyalty": ("Trusted names", "For me it comes down to whether I know and trust the brand"),
        "noveltySeeking": ("Something new", "For me it comes down to whether it brings something new"),
        "skepticism": ("Evidence", "For me it comes down to evidence that it does what it says"),
    },
}
_USAGE = (  # (minimum affinity, theme, sentence)
    (POSITIVE, "Regularly", "I buy new {field} several times a year and keep an eye on what comes out"),
    (NEGATIVE, "Now and then", "I buy new {field} about once a year, when the old ones are worn out"),
    (0.0, "Rarely", "I rarely buy {field}; I use what I have until it falls apart"),
)
_BRAND_HABIT = {
    "priceSensitivity": "I buy whichever of them is on sale",
    "sustainabilityFocus": "I pick the one that is more open about its materials",
    "brandLoyalty": "I have stayed with them for years",
    "noveltySeeking": "though I keep trying smaller labels too",
    "skepticism": "because reviews I trust keep rating them well",
}


@dataclass(frozen=True)
class Said:
    text: str
    theme: str


def kind_of(text: str) -> str:
    """Which kind of question this is (the first matching kind in ``_KINDS``; one that only names a price, "And at
    120 euros?", asks about the price), else "opinion"."""
    kind = next((kind for kind, pattern in _KIND_PATTERNS if pattern.search(text)), None)
    return kind or ("price" if topics.prices_in(text) else "opinion")


def driver(traits: dict[str, float], rng: random.Random) -> str:
    """The trait that gives this answer its reason: mostly the Mind's strongest, sometimes a close second."""
    return max(_ABOUT_ME, key=lambda t: traits.get(t, 0.0) + rng.uniform(0, DRIVER_JITTER))


def field_of(topic: Topic | None) -> str:
    return topic.field if topic else "products like this"


def speaker(mind: dict[str, Any], role_phrase: str) -> str:
    return f"As {role_phrase} in {mind['persona']['location']}"


def open_answer(
    *,
    question: str,
    mind: dict[str, Any],
    topic: Topic | None,
    affinity: float,
    wtp_eur: float | None,
    rng: random.Random,
    role_phrase: str,
    asks: str | None = None,
    currency: str | None = None,
    brands: tuple[str, ...] | None = None,
) -> Said:
    """A Mind's open answer: what the question asks for, then who is speaking (and why, in its own terms).

    ``asks`` ("price", "paid" or "brands"), ``currency`` and ``brands`` come from ``respondents`` when it knows
    them: what the question asks in any language, the currency it asks for, and the brands this Mind names (the
    ones it knows and uses, so its answers agree with each other; ``()`` when it buys none)."""
    if not topics.fits(mind, topic):
        return _not_my_field(question=question, mind=mind, topic=topic, wtp_eur=wtp_eur, role_phrase=role_phrase)
    traits = mind["persona"]["traits"]
    trait = driver(traits, rng)
    kind = "price" if asks in ("price", "paid") else "brands" if asks == "brands" else kind_of(question)
    field = field_of(topic)
    if kind == "price":
        said = _price(question, topic=topic, wtp_eur=wtp_eur, trait=trait, paid=asks == "paid", currency=currency)
    elif kind == "brands" and brands == ():
        said = Said(f"I don't buy any {field} at the moment, so no brand in particular.", "None")
    elif kind == "brands":
        said = _brands(topic or topics.own_topic(mind), trait=trait, rng=rng, named=brands)
    elif kind == "experience":
        said = _experience(topic or topics.own_topic(mind), affinity=affinity, rng=rng)
    elif kind == "usage":
        said = next(Said(s.format(field=field), theme) for low, theme, s in _USAGE if affinity >= low)
    else:
        said = _reasoned(kind, trait=trait, affinity=affinity, field=field)
    who = f"{speaker(mind, role_phrase)}, {_ABOUT_ME[trait]}."
    return Said(f"{said.text} {who}", said.theme)


def _reasoned(kind: str, *, trait: str, affinity: float, field: str) -> Said:
    if kind == "intent":
        theme, reason = _REASONS["why"][trait]
        lead = "Yes, I would." if affinity > POSITIVE else "Maybe." if affinity > NEGATIVE else "Probably not."
        return Said(f"{lead} {reason.format(field=field)}.", theme)
    theme, reason = _REASONS[kind][trait]
    reason = reason.format(field=field)
    if kind == "switch":
        lead = (
            "I switch quite easily. " if affinity > POSITIVE else "It would take a lot. " if affinity < NEGATIVE else ""
        )
        return Said(f"{lead}{reason}.", theme)
    if kind == "credibility":
        lead = "Yes, it would." if affinity > POSITIVE else "Somewhat." if affinity > NEGATIVE else "Not by itself."
        return Said(f"{lead} {reason}.", theme)
    if kind == "barrier":
        if affinity > POSITIVE:
            return Said(f"Not much would stop me. At most {reason}.", theme)
        return Said(f"The main thing would be {reason}.", theme)
    if kind == "reaction":
        opener = (
            "I really like this"
            if affinity > POSITIVE
            else "I'm open to it"
            if affinity > NEGATIVE
            else ("I'm not convinced")
        )
        return Said(f"{opener}, {reason}.", theme)
    return Said(f"{reason}.", theme)


def _price(
    question: str,
    *,
    topic: Topic | None,
    wtp_eur: float | None,
    trait: str,
    paid: bool = False,
    currency: str | None = None,
) -> Said:
    tested = topics.tested_price(question, topic)
    currency = tested.currency if tested else currency or ("USD" if topic and topic.name == "software" else "EUR")
    if wtp_eur is None:
        return Said("I would need to see it before I could name a price.", "Needs to see it first")
    mine = topics.format_price(wtp_eur, currency)
    if paid or "did you pay" in question.lower():
        spent = topics.format_price(wtp_eur * 0.9, currency)
        return Said(
            f"I paid about {spent} for my last {field_of(topic)}, which felt about right.",
            _band(wtp_eur, topic, currency),
        )
    if tested is not None:
        accepted = topics.accepts(tested, wtp_eur)  # at or below the amount it says, exactly
        verdict = "would be fine for me" if accepted else "is more than I would spend"
        asked = topics.format_amount(tested.amount, tested.currency)
        if tested.extra is not None:  # "20 EUR more": more than what the category usually costs
            extra, usual = (
                topics.format_amount(amount, tested.currency) for amount in (tested.extra, tested.amount - tested.extra)
            )
            asked = f"{extra} more than the usual {usual}"
        return Said(
            f"I would pay up to about {mine}; {asked} {verdict}.",
            "The asked price or more" if accepted else "Less than the asked price",
        )
    reason = "because I always compare prices" if trait == "priceSensitivity" else "because I would use it a lot"
    return Said(f"About {mine} would feel fair to me, {reason}.", _band(wtp_eur, topic, currency))


def _band(wtp_eur: float, topic: Topic | None, currency: str) -> str:
    reference = topic.reference_eur if topic else wtp_eur
    low, high = topics.format_price(0.8 * reference, currency), topics.format_price(1.2 * reference, currency)
    if wtp_eur < 0.8 * reference:
        return f"Under {low}"
    return f"Over {high}" if wtp_eur > 1.2 * reference else f"{low} to {high}"


def _experience(topic: Topic | None, *, affinity: float, rng: random.Random) -> Said:
    """What the Mind used before, and how this compares, by how it leans."""
    used = f"{rng.choice(topic.brands)} {topic.field}" if topic else "something from a brand I already knew"
    if affinity > POSITIVE:
        return Said(f"I had {used}; this sounds better to me.", "Sounds better than what they had")
    if affinity > NEGATIVE:
        return Said(f"I had {used}; this sounds about the same.", "About the same")
    return Said(f"I had {used}, and I would rather stick with that.", "Prefers what they had")


def _brands(topic: Topic | None, *, trait: str, rng: random.Random, named: tuple[str, ...] | None = None) -> Said:
    if topic is None:
        return Said("I don't stick to particular brands; I buy what does the job.", "No particular brand")
    first, second = named if named and len(named) >= 2 else rng.sample(topic.brands, 2)
    return Said(f"Mostly {first} and {second}; {_BRAND_HABIT[trait]}.", first)


def _not_my_field(
    *, question: str, mind: dict[str, Any], topic: Topic | None, wtp_eur: float | None, role_phrase: str
) -> Said:
    """Short, honest and unexpert: the topic is someone else's field."""
    field = field_of(topic)
    own = topics.own_topic(mind)
    spends = f", I spend my money on {own.field}, not {field}" if own else ""
    kind = kind_of(question)
    if kind == "price" and wtp_eur is not None and topic is not None:
        guess = topics.format_price(wtp_eur, "EUR")  # respondents lowers it for a field not the Mind's own
        view = f"I don't really know what {field} cost; I would guess around {guess}."
    elif kind == "brands":
        view = f"I don't follow {field} brands; I just use whatever I have."
    else:
        view = f"Honestly, I don't know much about {field}, so I have no strong view."
    return Said(f"{view} {speaker(mind, role_phrase)}{spends}.", "Not my field")


# ---------------------------------------------------------------- chat


def chat_reply(
    *, mind: dict[str, Any], message: str, rng: random.Random, role_phrase: str, earlier: tuple[str, ...] = ()
) -> str:
    """A reply that answers the message: brands for a brands question, a price for a price question, a reason for
    a why, and otherwise the Mind's view on what was asked — about the topic of the message, else of the chat's
    ``earlier`` messages (latest first), else the Mind's own field."""
    asked = next((t for t in map(topics.topic_of, (message, *reversed(earlier))) if t is not None), None)
    topic = asked or topics.own_topic(mind)
    if asked is not None and topics.own_topic(mind) is not None and not topics.fits(mind, asked):
        return _not_my_field(question=message, mind=mind, topic=asked, wtp_eur=None, role_phrase=role_phrase).text
    traits = mind["persona"]["traits"]
    trait = driver(traits, rng)
    kind = kind_of(message)
    if kind == "brands":
        said = _brands(topics.own_topic(mind) if asked in (None, *_related(mind)) else asked, trait=trait, rng=rng)
        return f"{said.text} {speaker(mind, role_phrase)}, {_ABOUT_ME[trait]}."
    if kind == "price":
        reference = topics.reference_eur(topic, topics.tested_price(message, topic))
        sensitivity = traits.get("priceSensitivity", 0.5)
        wtp = (
            topics.willingness_to_pay(reference=reference, sensitivity=sensitivity, noise=0.0)
            if reference is not None
            else None
        )
        return _price(message, topic=topic, wtp_eur=wtp, trait=trait).text
    affinity = 0.5 + 0.3 * (traits.get("noveltySeeking", 0.5) - traits.get("skepticism", 0.5))
    said = _reasoned(
        kind if kind in (*_REASONS, "intent") else "opinion", trait=trait, affinity=affinity, field=field_of(topic)
    )
    return f"{said.text} {speaker(mind, role_phrase)}, {_ABOUT_ME[trait]}."


def _related(mind: dict[str, Any]) -> list[Topic]:
    own = topics.mind_topics(mind)
    return [t for t in topics.TOPICS if t.name in own or any(r in own for r in t.related)]
