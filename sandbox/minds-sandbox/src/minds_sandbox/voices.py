"""What a Mind says in words: its open (qualitative) answer to a question and its reply in a one-Mind chat.

Owns: reading what kind of question was asked (``kind_of``: switching triggers, brands, price, what one used
before, what one likes most, credibility, barriers, improvements, usage, what one would use it for first,
whether one would buy it, first reaction, a plain "why", or an opinion — from a method's price point, else from
the planner's wording of the question in any of the five languages, else from its words in English, German,
Spanish, Chinese or Korean), and the sentences a Mind answers it with — in the Study's language (``phrases_*``
tables: German in the "ich" voice, Korean in the polite 요 style), in full sentences, about the question's topic,
in the Mind's voice (its strongest traits drive the reason it gives, its occupation and city say who is
speaking) — together with the theme that answer belongs to (the themes of a result are counted from these). A
Mind whose Audience does not fit the topic says so, briefly ("Honestly, I don't know much about shoes …")
instead of answering as an expert. A price question gets a price (the price the question names quoted exactly as
it names it, the Mind's own amount with the currency's decimals: ``answer_language``), a brands question gets
brands, in answers and in chat alike (the reason that comes with a choice or a scale point is ``reasons``).
Pure functions over plain data and a seeded ``random.Random``; the same inputs always give the same words.
Must not touch state, clocks or I/O.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from minds_sandbox import answer_language, phrases_en, topics
from minds_sandbox.phrases import Phrases
from minds_sandbox.topics import Topic

POSITIVE = 0.66  # affinity above which a Mind leans in
NEGATIVE = 0.4  # affinity below which it leans out
DRIVER_JITTER = 0.25  # how far a weaker trait may still win as the reason a Mind gives

_KINDS = (  # English, German, Spanish, Chinese and Korean words for each kind, in the order they are tried
    (
        "switch",
        r"\bswitch|\bchange (?:your |to (?:a |an )?(?:other|another|new) )?brand|make you change|"
        r"try (?:a |an )?(?:other|another|different) brand|move away|"
        r"\bwechseln|umsteigen|andere marke|cambiar(?:ías|te)? de marca|换品牌|换成别的|换掉|바꾸|갈아타",
    ),
    (
        "brands",
        r"\b(?:which|what) brands?\b|\bbrands? (?:do|did|would) you\b|"
        r"\bwelche marken?\b|\bqué marcas?\b|哪些品牌|什么品牌|哪个品牌|어떤 브랜드|어느 브랜드",
    ),
    (
        "price",
        r"\bwhat price|\bhow much|\bmost you would pay|\bdid you pay|\bfair price|\bwilling to pay|"
        r"\bwould you pay|\bprice would|"
        r"\bwie viel (?:würden|haben|wären|sind)|\bhöchstens\b|\b(?:zu|ab) welchem preis|\bwelchen preis|"
        r"zahlungsbereit|\bbezahlt\b|\bcuánto (?:pagar|es lo máximo|pagaste|estarías)|\bpagarías|\bpagaste|"
        r"\bqué precio|precio justo|多少钱|什么价格|愿意(?:支付|付)|花了多少|价格.{0,6}(?:便宜|划算|贵)|"
        r"얼마(?!나)|지불",
    ),
    (
        "experience",
        r"\bwhat was it\b|\bhave used something|\bused something similar|\bwhat did you use\b|"
        r"\bwas war es\b|\bqué era\b|是什么产品|那是什么|무엇이었",
    ),
    (
        "likes",
        r"\blike (?:most|best)\b|\bfavou?rite\b|\bmost appealing\b|"
        r"am (?:meisten|besten) gefällt|\blieblings|más te gusta|\bfavorit|最喜欢|가장 마음에|가장 좋아",
    ),
    (
        "credibility",
        r"credib|\btrust|believ|\blabel|certif|\bclaims?\b|convinc|"
        r"glaubw|vertrau|\bsiegel|zertifi|überzeug|creíb|confí|confianza|etiqueta|\bsello|certific|convenc|"
        r"可信|信任|相信|标签|认证|说服|믿|신뢰|라벨|인증|설득",
    ),
    (
        "barrier",
        r"stop you|put you off|hold you back|would you change|concern|worr|hesita|downside|"
        r"abhalten|abschreck|spricht .{0,40}dagegen|bedenken|zöger|impediría|frenaría|echaría para atrás|preocup|"
        r"阻止|顾虑|担心|犹豫|망설|걱정|막을|막는|꺼리|우려",
    ),
    (
        "improve",
        r"\bimprove|\bmissing\b|\bwish\b|change about|\bbetter\b|"
        r"verbesser|\bfehlt|\bwünschen|\bmejorar|\bfalta|改进|改善|缺少|개선|부족|아쉬운",
    ),
    (
        "usage",
        r"\bhow often\b|\bwhen do you\b|\bhow do you (?:use|choose|buy)|\broutine\b|\busually\b|"
        r"\bwie oft\b|normalerweise|gewöhnlich|con qué frecuencia|cada cuánto|\bnormalmente|\bsueles|"
        r"多久|多常|通常|平时|얼마나 자주|보통|평소",
    ),
    (
        "use",
        r"\buse it for\b|\bwofür\b|para qué (?:lo|la|los|las) usarías|用来做什么|用在什么|"
        r"무엇에 (?:쓰|사용)|어디에 (?:쓰|사용)",
    ),
    (
        "intent",
        r"\b(?:would|will|could) you (?:buy|try|use|wear|choose|order)\b|\binterested in\b|"
        r"würden sie .{0,40}(?:kaufen|ausprobieren|nutzen|verwenden|tragen|bestellen|in betracht)|interessier|"
        r"comprarías|probarías|usarías|elegirías|te interesa|considerarías|会(?:买|购买|尝试|使用|考虑)|感兴趣|"
        r"구매하시겠|사용하시겠|써 보시겠|고려하시겠|관심",
    ),
    (
        "reaction",
        r"reaction|impression|think (?:of|about)|feel about|opinion|appeal|\blike about\b|"
        r"reaktion|eindruck|denken sie|halten sie|meinung|ansprechend|wie finden sie|reacción|impresión|"
        r"qué piensas|opinas|opinión|atractiv|反应|印象|怎么看|看法|觉得|吸引|반응|인상|어떻게 생각|의견|느낌|매력",
    ),
    ("why", r"\bwhy\b|\bwarum\b|\bwieso\b|\bweshalb\b|por qué|为什么|为何|왜|이유"),
)
_KIND_PATTERNS = tuple((kind, re.compile(pattern, re.IGNORECASE)) for kind, pattern in _KINDS)
_PAID = re.compile(
    r"did you pay|haben sie .{0,30}(?:bezahlt|gezahlt)|pagaste|has pagado|花了多少|付了多少|지불하셨|내셨",
    re.IGNORECASE,
)
_PAID_KEYS = frozenset({"price_paid", "price_paid_open"})
PRICE_METHODS = frozenset({"van-westendorp", "gabor-granger"})
_ABOUT_ME = phrases_en.PHRASES.about_me
ABOUT_ME = _ABOUT_ME  # what an English-speaking Mind says about itself, by trait
_REASONS = phrases_en.PHRASES.reasons  # kind → trait → (theme, sentence), in English


@dataclass(frozen=True)
class Said:
    text: str
    theme: str


def kind_of(text: str, method_input: dict[str, Any] | None = None) -> str:
    """Which kind of question this is: a method's price point is a price; a question the planner worded
    (``answer_language.planned_key``, in any of the five languages) is the kind its English wording reads as;
    else the first kind in ``_KINDS`` whose words it uses (English, German, Spanish, Chinese, Korean); one that
    only names a price, "And at 120 euros?", asks about the price; else "opinion"."""
    if method_input and method_input.get("methodId") in PRICE_METHODS:
        return "price"
    key = answer_language.planned_key(text)
    return _key_kind(key) if key else _word_kind(text)


@cache
def _key_kind(key: str) -> str:
    return _word_kind(answer_language.english_wording(key))


def _word_kind(text: str) -> str:
    kind = next((kind for kind, pattern in _KIND_PATTERNS if pattern.search(text)), None)
    return kind or ("price" if topics.prices_in(text) else "opinion")


def asks_paid(text: str) -> bool:
    """Whether a price question asks what the Mind paid (not what it would pay)."""
    return answer_language.planned_key(text) in _PAID_KEYS or bool(_PAID.search(text))


def driver(traits: dict[str, float], rng: random.Random) -> str:
    """The trait that gives this answer its reason: mostly the Mind's strongest, sometimes a close second."""
    return max(_ABOUT_ME, key=lambda t: traits.get(t, 0.0) + rng.uniform(0, DRIVER_JITTER))


def field_of(topic: Topic | None, language: str = "en") -> str:
    """The topic's field as a Mind names it in ``language`` ("shoes", "Schuhe", "鞋")."""
    fields = answer_language.phrases_for(language).fields
    return fields.get(topic.name, topic.field) if topic else fields[""]


def speaker(mind: dict[str, Any], role_phrase: str) -> str:
    return f"As {role_phrase} in {mind['persona']['location']}"


def _role(p: Phrases, mind: dict[str, Any], role_phrase: str) -> str:
    """Who is speaking: "a barista" in English; the occupation as the Mind's record has it in other languages."""
    return role_phrase if p.lang == "en" else str(mind["persona"]["occupation"])


def _who(p: Phrases, mind: dict[str, Any], role_phrase: str, said: str, trait: str) -> str:
    """The answer, then who is speaking and what it says about itself."""
    city = mind["persona"]["location"]
    return p.line["who"].format(said=said, role=_role(p, mind, role_phrase), city=city, me=p.after_speaker[trait])


def open_answer(
    *,
    question: str,
    mind: dict[str, Any],
    topic: Topic | None,
    affinity: float,
    wtp_eur: float | None,
    rng: random.Random,
    role_phrase: str,
    language: str = "en",
    method_input: dict[str, Any] | None = None,
    asks: str | None = None,
    currency: str | None = None,
    brands: tuple[str, ...] | None = None,
) -> Said:
    """A Mind's open answer in ``language``: what the question asks for, then who is speaking (and why, in its own
    terms).

    ``asks`` ("price", "paid" or "brands"), ``currency`` and ``brands`` come from ``respondents`` when it knows
    them: what the question asks in any language, the currency it asks for, and the brands this Mind names (the
    ones it knows and uses, so its answers agree with each other; ``()`` when it buys none)."""
    p = answer_language.phrases_for(language)
    if not topics.fits(mind, topic):
        return _not_my_field(
            p, question=question, mind=mind, topic=topic, wtp_eur=wtp_eur, role_phrase=role_phrase, method=method_input
        )
    traits = mind["persona"]["traits"]
    trait = driver(traits, rng)
    kind = "price" if asks in ("price", "paid") else "brands" if asks == "brands" else kind_of(question, method_input)
    field = field_of(topic, p.lang)
    if kind == "price":
        said = _price(p, question, topic=topic, wtp_eur=wtp_eur, trait=trait, paid=asks == "paid", currency=currency)
    elif kind == "brands" and brands == ():
        said = Said(p.line["brands_none_bought"].format(field=field), p.line["brands_none_bought_theme"])
    elif kind == "brands":
        said = _brands(p, topic or topics.own_topic(mind), trait=trait, rng=rng, named=brands)
    elif kind == "experience":
        said = _experience(p, topic or topics.own_topic(mind), affinity=affinity, rng=rng)
    elif kind == "usage":
        said = next(
            Said(s.format(field=field), theme)
            for low, (theme, s) in zip((POSITIVE, NEGATIVE, 0.0), p.usage, strict=True)
            if affinity >= low
        )
        said = Said(p.line["plain"].format(reason=said.text), said.theme)
    else:
        said = _reasoned(p, kind, trait=trait, affinity=affinity, field=field)
    return Said(_who(p, mind, role_phrase, said.text, trait), said.theme)


def _reasoned(p: Phrases, kind: str, *, trait: str, affinity: float, field: str) -> Said:
    line = p.line
    if kind == "intent":
        theme, reason = p.reasons["why"][trait]
        lead = (
            line["intent_yes"]
            if affinity > POSITIVE
            else line["intent_maybe"]
            if affinity > NEGATIVE
            else line["intent_no"]
        )
        return Said(line["intent"].format(lead=lead, reason=reason.format(field=field)), theme)
    theme, reason = p.reasons[kind][trait]
    reason = reason.format(field=field)
    if kind == "switch":
        easy = affinity > POSITIVE and trait != "brandLoyalty"  # a loyal Mind never "switches quite easily"
        lead = line["switch_easy"] if easy else line["switch_hard"] if affinity < NEGATIVE else ""
        return Said(line["switch"].format(lead=lead, reason=reason), theme)
    if kind == "credibility":
        lead = (
            line["credibility_yes"]
            if affinity > POSITIVE
            else line["credibility_some"]
            if affinity > NEGATIVE
            else line["credibility_no"]
        )
        return Said(line["credibility"].format(lead=lead, reason=reason), theme)
    if kind == "barrier":
        return Said(line["barrier_little" if affinity > POSITIVE else "barrier"].format(reason=reason), theme)
    if kind == "reaction":
        opener = (
            line["reaction_yes"]
            if affinity > POSITIVE
            else line["reaction_open"]
            if affinity > NEGATIVE
            else line["reaction_no"]
        )
        return Said(line["reaction"].format(opener=opener, reason=reason), theme)
    return Said(line["plain"].format(reason=reason), theme)


def _price(
    p: Phrases,
    question: str,
    *,
    topic: Topic | None,
    wtp_eur: float | None,
    trait: str,
    paid: bool = False,
    currency: str | None = None,
) -> Said:
    """What the Mind would pay, in the currency the question uses; the price the question names quoted exactly as
    it names it, judged against what this Mind says it would pay (``topics.accepts``)."""
    line, lang = p.line, p.lang
    tested = topics.tested_price(question, topic)
    currency = tested.currency if tested else currency or ("USD" if topic and topic.name == "software" else "EUR")
    if wtp_eur is None:
        return Said(line["price_unknown"], line["price_unknown_theme"])
    mine = answer_language.money(wtp_eur, currency, lang)
    spent = answer_language.money(wtp_eur * 0.9, currency, lang) if paid or asks_paid(question) else None
    if spent is not None and tested is None:
        return Said(
            line["price_paid"].format(paid=spent, field=field_of(topic, lang)), _band(p, wtp_eur, topic, currency)
        )
    if tested is not None:
        accepted = topics.accepts(tested, wtp_eur)  # at or below the amount it says, exactly
        verdict = line["verdict_fine"] if accepted else line["verdict_more"]
        asked = answer_language.quoted(question, tested, lang)
        if tested.extra_eur is not None:  # "20 EUR more": more than what the category usually costs
            extra = answer_language.quoted_extra(question, tested, lang)
            usual = answer_language.money(tested.eur - tested.extra_eur, tested.currency, lang)
            asked = line["price_extra"].format(extra=extra, usual=usual)
        theme = line["theme_asked_or_more" if accepted else "theme_less_than_asked"]
        if spent is not None:  # what it paid last time, and how the price asked compares
            compared = line["price_paid_compared"]
            return Said(compared.format(paid=spent, field=field_of(topic, lang), asked=asked, verdict=verdict), theme)
        return Said(line["price_tested"].format(mine=mine, asked=asked, verdict=verdict), theme)
    reason = line["because_compare"] if trait == "priceSensitivity" else line["because_use"]
    return Said(line["price_fair"].format(mine=mine, reason=reason), _band(p, wtp_eur, topic, currency))


def _band(p: Phrases, wtp_eur: float, topic: Topic | None, currency: str) -> str:
    reference = topic.reference_eur if topic else wtp_eur
    low = answer_language.money(0.8 * reference, currency, p.lang)
    high = answer_language.money(1.2 * reference, currency, p.lang)
    if wtp_eur < 0.8 * reference:
        return p.line["band_under"].format(low=low)
    if wtp_eur > 1.2 * reference:
        return p.line["band_over"].format(high=high)
    return p.line["band"].format(low=low, high=high)


def _experience(p: Phrases, topic: Topic | None, *, affinity: float, rng: random.Random) -> Said:
    """What the Mind used before, and how this compares, by how it leans."""
    line = p.line
    if topic:
        used = line["had_brand"].format(brand=rng.choice(topic.brands), field=field_of(topic, p.lang))
    else:
        used = line["had_unknown"]
    key = "had_better" if affinity > POSITIVE else "had_same" if affinity > NEGATIVE else "had_rather"
    return Said(line[key].format(used=used), line[f"{key}_theme"])


def _brands(
    p: Phrases, topic: Topic | None, *, trait: str, rng: random.Random, named: tuple[str, ...] | None = None
) -> Said:
    if topic is None:
        return Said(p.line["brands_none"], p.line["brands_none_theme"])
    first, second = named if named and len(named) >= 2 else rng.sample(topic.brands, 2)
    return Said(p.line["brands"].format(first=first, second=second, habit=p.brand_habit[trait]), first)


def _not_my_field(
    p: Phrases,
    *,
    question: str,
    mind: dict[str, Any],
    topic: Topic | None,
    wtp_eur: float | None,
    role_phrase: str,
    method: dict[str, Any] | None = None,
) -> Said:
    """Short, honest and unexpert: the topic is someone else's field."""
    line, lang = p.line, p.lang
    field = field_of(topic, lang)
    own = topics.own_topic(mind)
    kind = kind_of(question, method)
    if kind == "price" and wtp_eur is not None and topic is not None:
        guess = answer_language.money(wtp_eur, "EUR", lang)  # respondents lowers it for a field not the Mind's own
        view = line["unfit_price"].format(field=field, guess=guess)
    elif kind == "brands":
        view = line["unfit_brands"].format(field=field)
    else:
        view = line["unfit"].format(field=field)
    role, city = _role(p, mind, role_phrase), mind["persona"]["location"]
    if own:
        text = line["unfit_who_spends"].format(view=view, role=role, city=city, own=field_of(own, lang), field=field)
    else:
        text = line["unfit_who"].format(view=view, role=role, city=city)
    return Said(text, line["unfit_theme"])


# ---------------------------------------------------------------- chat


def chat_reply(
    *,
    mind: dict[str, Any],
    message: str,
    rng: random.Random,
    role_phrase: str,
    earlier: tuple[str, ...] = (),
    language: str | None = None,
) -> str:
    """A reply that answers the message, in ``language`` (else the message's own): brands for a brands question, a
    price for a price question, a reason for a why, and otherwise the Mind's view on what was asked — about the
    topic of the message, else of the chat's ``earlier`` messages (latest first), else the Mind's own field."""
    p = answer_language.phrases_for(language or answer_language.language_of(None, message))
    asked = next((t for t in map(topics.topic_of, (message, *reversed(earlier))) if t is not None), None)
    topic = asked or topics.own_topic(mind)
    if asked is not None and topics.own_topic(mind) is not None and not topics.fits(mind, asked):
        return _not_my_field(p, question=message, mind=mind, topic=asked, wtp_eur=None, role_phrase=role_phrase).text
    traits = mind["persona"]["traits"]
    trait = driver(traits, rng)
    kind = kind_of(message)
    if kind == "brands":
        said = _brands(p, topics.own_topic(mind) if asked in (None, *_related(mind)) else asked, trait=trait, rng=rng)
        return _who(p, mind, role_phrase, said.text, trait)
    if kind == "price":
        reference = topics.reference_eur(topic, topics.tested_price(message, topic))
        sensitivity = traits.get("priceSensitivity", 0.5)
        wtp = (
            topics.willingness_to_pay(reference=reference, sensitivity=sensitivity, noise=0.0)
            if reference is not None
            else None
        )
        return _price(p, message, topic=topic, wtp_eur=wtp, trait=trait).text
    affinity = 0.5 + 0.3 * (traits.get("noveltySeeking", 0.5) - traits.get("skepticism", 0.5))
    said = _reasoned(
        p,
        kind if kind in (*p.reasons, "intent") else "opinion",
        trait=trait,
        affinity=affinity,
        field=field_of(topic, p.lang),
    )
    return _who(p, mind, role_phrase, said.text, trait)


def chat_unknown(who: str, language: str) -> str:
    """The reply of a Mind with no persona: it would need to know more."""
    return answer_language.phrases_for(language).line["chat_unknown"].format(who=who)


def _related(mind: dict[str, Any]) -> list[Topic]:
    own = topics.mind_topics(mind)
    return [t for t in topics.TOPICS if t.name in own or any(r in own for r in t.related)]
