"""A Mind consistent with itself across a run: what a question asks about the Mind (in any of the five languages),
what the Mind has already said in the run, and the check that finds two of its answers that contradict each other.

Owns: ``aspect`` (what a question asks: a price to judge, an amount to name, what one paid, having bought or used
the category, how often, the brands one uses, brands one knows — named unaided or picked from a list —, a
preference between options, or how one leans towards the thing asked about), the Mind's habits in a category
(``usage``: never … very often, and the brands it knows, both fixed per Mind and category for the seed), and
``flags``: the contradicting answer pairs of a run, per item. What counts as a contradiction:
- a tested price judged acceptable above the amount the Mind said it would pay, or too expensive at or below it;
  two different amounts named as the most it would pay; Van Westendorp's four amounts not rising, or what it
  would pay outside them; buying at a higher Gabor-Granger price but not at a lower one; having paid more than it
  would pay;
- never buying or using the category, and then a frequency other than never, or brands it uses; a brand named
  unaided (or used) but not picked from the list of brands it knows, or "not heard of" it;
- two different options preferred between the same options;
- a positive and a negative answer on how it leans towards the same thing (appeal, intent, recommending, its
  reaction), price questions apart (liking a product and finding its price too high is no contradiction).
Pure functions over plain data; deterministic. Must not touch state, clocks or I/O.
"""

from __future__ import annotations

import functools
import hashlib
import random
import re
from typing import Any

from minds_sandbox import topics

LEANS = 0.3  # sentiment beyond which an answer counts as positive or negative (as ``reasons.direction`` reads it)
USAGE_LEVELS = 5  # never, rarely, now and then, often, very often
HABITS = frozenset({"uses", "frequency", "brands_used", "aware_unaided", "aware_aided"})  # about the category

_PATTERNS = (
    (
        "paid",
        r"did you pay|have you paid|you paid|bezahlt(?: haben)?\b|pagaste|pagó|has pagado|付了|花了多少|"
        r"지불하셨|내셨|주고 사",
    ),
    (
        "price_point",
        r"most you would pay|how much would you|what price|willing to pay|how much (?:is|are) .* worth|fair price|"
        r"wie viel würden|höchstens|welche[nr]? preis|bereit\w* .*zu (?:be)?zahlen|fairer preis|"
        r"cuánto pagarías|cuánto estarías|qué precio|lo máximo|precio justo|"
        r"最多|愿意.*支付|愿意.*付|多少钱|什么价格|"
        r"얼마까지|얼마를 지불|얼마면|최대 얼마|적정 가격|얼마가",
    ),
    (
        "frequency",
        r"how often|how frequently|how many|wie oft|wie häufig|wie viele|con qué frecuencia|cada cuánto|cuánt[oa]s|"
        r"多久|多常|频率|多少次|几次|자주|몇 번|몇 개|몇 켤레",
    ),
    (
        "brands_used",
        r"brands? (?:\w+ ){0,4}(?:use|buy|bought|wear|own|purchase)|"
        r"welche marken? (?:\w+ ){0,4}(?:nutzen|kaufen|gekauft|verwenden|tragen)|"
        r"marcas? (?:\w+ ){0,4}(?:usas|compras|compraste|utilizas)|"
        r"(?:用|买|使用|购买)(?:过)?哪些品牌|哪些品牌.*(?:用|买)|어떤 브랜드를 .*(?:사용|구매|구입)",
    ),
    (
        "uses",
        r"have you (?:ever )?(?:bought|used|tried|purchased)|did you (?:buy|use|purchase)|do you (?:own|use|buy)\b|"
        r"gekauft|verwendet|benutzt|genutzt|has comprado|has usado|compraste|usaste|"
        r"买过|用过|购买过|使用过|구매한 적|사용한 적|구입한 적|써 본|사용하십니까|구매하십니까",
    ),
    (
        "aware",
        r"heard of|aware of|familiar with|come to mind|comes to mind|know of|recogni[sz]e|"
        r"gehört|kennen sie|bekannt|fallen ihnen|oído hablar|conoces|conoce|vienen a la mente|"
        r"听说过|知道哪些|想到哪些|了解哪些|들어 본|알고 계신|아시는|떠오르",
    ),
    ("prefer", r"prefer|rather have|bevorzug|lieber|prefier|更喜欢|偏好|更倾向|선호|더 좋"),
    (
        "stance",
        r"appeal|interest|\blike\b|impression|reaction|feel about|opinion|recommend|\bbuy\b|purchase|\btry\b|"
        r"ansprechend|interess|eindruck|reaktion|meinung|empfehl|kaufen|gefällt|ausprobieren|"
        r"atractiv|interés|interesa|impresión|opinión|recomend|comprar|probar|gusta|"
        r"吸引|兴趣|印象|看法|推荐|购买|会买|喜欢|尝试|"
        r"매력|관심|인상|생각|추천|구매|구입|마음에|사용해",
    ),
)
_ASPECTS = tuple((name, re.compile(pattern, re.IGNORECASE)) for name, pattern in _PATTERNS)
_NONE_OPTION = re.compile(
    r"^(?:none|no brand|keine|keiner|ningun|ninguna|nada|没有|都没有|无|없음|없다|사용하지 않)", re.IGNORECASE
)
_NEVER = re.compile(r"^(?:never|none|nie|niemals|keine|nunca|ninguno|从不|从来没有|没有|전혀|없음|안 |0(?!\d))", re.I)


def aspect(question: dict[str, Any]) -> str | None:
    """What the question asks of the Mind (see the module's docstring), None when nothing the check compares."""
    response = question.get("response") or {}
    method = (question.get("methodInput") or {}).get("methodId")
    options = tuple(response.get("categoricalOptions") or ())
    return _aspect(question["text"], response.get("type"), method, options)


@functools.lru_cache(maxsize=8192)
def _aspect(text: str, kind: str | None, method: str | None, options: tuple[str, ...]) -> str | None:
    # read once per question: the check asks it for every pair of a Mind's answers
    if method == "van-westendorp":
        return "van_westendorp"
    if method == "gabor-granger" or (
        kind != "multiselect" and topics.tested_price(text, topics.topic_of(" ".join([text, *options])))
    ):
        return "price_judged"
    found = next((name for name, pattern in _ASPECTS if pattern.search(text)), None)
    if found in ("paid", "price_point") and kind != "qualitative":
        return None
    if found == "aware":
        return "aware_unaided" if kind == "qualitative" else "aware_aided"
    if found == "prefer" and kind != "categorical":
        return None
    return found


# ---------------------------------------------------------------- habits


def _rng(*parts: object) -> random.Random:
    return random.Random(int(hashlib.sha256("|".join(map(str, parts)).encode()).hexdigest()[:16], 16))


def usage(*, seed: int, mind: dict[str, Any], topic: topics.Topic | None) -> int:
    """How often this Mind buys or uses the category: 0 never … 4 very often; the same for every question of the
    category (a Mind whose field it is not buys it rarely, if at all)."""
    traits = mind["persona"]["traits"]
    score = 0.55 + 0.3 * (traits.get("noveltySeeking", 0.5) - 0.5) - 0.2 * (traits.get("priceSensitivity", 0.5) - 0.5)
    score += _rng(seed, mind["id"], "usage", topic.name if topic else "-").uniform(-0.35, 0.35)
    if not topics.fits(mind, topic):  # someone else's field: now and then at most
        return 0 if score < 0.3 else 1 if score < 0.7 else 2
    never = 0.2 if topic else 0.4  # something the sandbox knows nothing of (owning a car): fewer have it
    return 0 if score < never else 1 if score < 0.4 else 2 if score < 0.6 else 3 if score < 0.8 else 4


def knows(*, seed: int, mind: dict[str, Any], brand: str, topic: topics.Topic | None, used: int) -> bool:
    """Whether this Mind knows a brand: the category's two brands it ranks first always (it names them unaided);
    others more likely the more it buys the category."""
    if topic is not None and brand in familiar(seed=seed, mind=mind, topic=topic):
        return True
    leading = 0.45 if topic is not None and brand in topic.brands[:3] else 0.0  # the category's best-known names
    return _rng(seed, mind["id"], "knows", brand.strip().lower()).random() < 0.15 + 0.15 * used + leading


def familiar(*, seed: int, mind: dict[str, Any], topic: topics.Topic) -> tuple[str, ...]:
    """The category's brands this Mind knows best, first the two it would name unaided."""
    order = sorted(topic.brands, key=lambda b: _rng(seed, mind["id"], "brand order", b).random())
    return tuple(order[:2])


def is_none_option(option: str) -> bool:
    return bool(_NONE_OPTION.match(option.strip()))


def is_never_option(option: str) -> bool:
    return bool(_NEVER.match(option.strip()))


# ---------------------------------------------------------------- the check


def direction(sentiment: float | None) -> str:
    if sentiment is None:
        return "neutral"
    return "positive" if sentiment > LEANS else "negative" if sentiment < -LEANS else "neutral"


def _amount(answer: dict[str, Any], question: dict[str, Any]) -> topics.Price | None:
    """The amount an open answer names (not the question's own price)."""
    asked = {(p.amount, p.currency) for p in topics.prices_in(question["text"])}
    named = [p for p in topics.prices_in(str(answer.get("text") or "")) if (p.amount, p.currency) not in asked]
    return named[0] if named else None


def _chosen(answer: dict[str, Any]) -> list[str]:
    value = answer.get("value")
    return [str(v) for v in value] if isinstance(value, list) else [str(value)]


def flags(items: list[dict[str, Any]], questions: dict[str, dict[str, Any]]) -> dict[int, list[dict[str, Any]]]:
    """Contradicting answer pairs per run item index; each pair is flagged on both items. ``questions`` by id."""
    by_mind: dict[str, list[tuple[int, dict[str, Any], dict[str, Any]]]] = {}
    for item in items:
        question = questions.get(item.get("questionId", ""))
        if question is None:
            continue
        for answer in item.get("answers", []):
            by_mind.setdefault(answer["mindId"], []).append((item["index"], question, answer))
    found: dict[int, list[dict[str, Any]]] = {}
    for mind_id, answered in by_mind.items():
        for pos, first in enumerate(answered):
            for second in answered[pos + 1 :]:
                reason = contradiction(first[1:], second[1:])
                if reason is None:
                    continue
                (i, _, one), (j, _, other) = first, second
                said = f'"{str(one["text"])[:60]}" on item {i} contradicts "{str(other["text"])[:60]}": {reason}'
                found.setdefault(i, []).append({"mindId": mind_id, "withItem": j, "reason": said})
                found.setdefault(j, []).append({"mindId": mind_id, "withItem": i, "reason": said})
    return found


Said = tuple[dict[str, Any], dict[str, Any]]  # (question, answer)


def contradiction(first: Said, second: Said) -> str | None:
    """Why two answers of one Mind contradict each other (English, for the check's flag), None when they agree."""
    for one, other in ((first, second), (second, first)):
        for rule in _RULES:
            reason = rule(one, other)
            if reason:
                return reason
    return None


def _stated(said: Said) -> topics.Price | None:
    question, answer = said
    if aspect(question) == "price_point":
        return _amount(answer, question)
    if aspect(question) == "van_westendorp" and (question.get("methodInput") or {}).get("role") == "expensive":
        return _amount(answer, question)
    return None


def _judged(said: Said) -> tuple[topics.Price, str] | None:
    question, answer = said
    if aspect(question) != "price_judged":
        return None
    method = question.get("methodInput") or {}
    if method.get("methodId") == "gabor-granger":
        step = topics.Price(float(method["price"]), str(method.get("currency") or "EUR"))
        way = "positive" if answer.get("value") in (method.get("wouldBuy") or []) else "negative"
        return step, way
    price = topics.tested_price(question["text"], topics.question_topic(question))
    return (price, direction(answer.get("sentiment"))) if price else None


def _price_rule(one: Said, other: Said) -> str | None:
    stated, judged = _stated(one), _judged(other)
    if stated is None or judged is None or stated.currency != judged[0].currency:
        return None
    price, way = judged
    if way == "positive" and price.amount > stated.amount + 1e-9:
        return f"accepts {price.amount:g} {price.currency} above the {stated.amount:g} it would pay"
    if way == "negative" and price.amount <= stated.amount + 1e-9:
        return f"rejects {price.amount:g} {price.currency}, not above the {stated.amount:g} it would pay"
    return None


def _two_amounts(one: Said, other: Said) -> str | None:
    if aspect(one[0]) != "price_point" or aspect(other[0]) != "price_point":
        return None
    a, b = _amount(one[1], one[0]), _amount(other[1], other[0])
    if a and b and a.currency == b.currency and abs(a.amount - b.amount) > 1e-9:
        return f"would pay at most {a.amount:g} and at most {b.amount:g} {a.currency}"
    return None


_VW_ORDER = ("tooCheap", "cheap", "expensive", "tooExpensive")


def _van_westendorp(one: Said, other: Said) -> str | None:
    (q1, a1), (q2, a2) = one, other
    r1, r2 = (q1.get("methodInput") or {}).get("role"), (q2.get("methodInput") or {}).get("role")
    p1, p2 = _amount(a1, q1), _amount(a2, q2)
    if p1 is None or p2 is None or p1.currency != p2.currency:
        return None
    both = aspect(q1) == aspect(q2) == "van_westendorp" and r1 in _VW_ORDER and r2 in _VW_ORDER
    if both and _VW_ORDER.index(r1) < _VW_ORDER.index(r2) and p1.amount >= p2.amount:
        return f"the {r1} price {p1.amount:g} is not below the {r2} price {p2.amount:g}"
    outside = (r2 in ("tooCheap", "cheap") and p1.amount <= p2.amount) or (
        r2 == "tooExpensive" and p1.amount >= p2.amount
    )
    if aspect(q1) == "price_point" and aspect(q2) == "van_westendorp" and outside:
        return f"would pay {p1.amount:g}, outside its {r2} price {p2.amount:g}"
    if aspect(q1) == "paid" and aspect(q2) == "van_westendorp" and r2 == "tooExpensive" and p1.amount >= p2.amount:
        return f"paid {p1.amount:g}, at or above its too-expensive price {p2.amount:g}"
    if aspect(q1) == "paid" and aspect(q2) == "price_point" and p1.amount > p2.amount + 1e-9:
        return f"paid {p1.amount:g}, more than the {p2.amount:g} it would pay"
    return None


def _gabor_granger(one: Said, other: Said) -> str | None:
    j1, j2 = _judged(one), _judged(other)
    if j1 is None or j2 is None or j1[0].currency != j2[0].currency:
        return None
    (low, way_low), (high, way_high) = j1, j2
    if low.amount < high.amount and way_low == "negative" and way_high == "positive":
        return f"accepts {high.amount:g} but not the lower {low.amount:g} {low.currency}"
    return None


def _never(said: Said) -> bool:
    question, answer = said
    kind = aspect(question)
    if kind == "uses":
        return direction(answer.get("sentiment")) == "negative"
    if kind == "frequency":
        return any(is_never_option(c) for c in _chosen(answer))
    return False


def _brands_named(said: Said, names: list[str]) -> set[str]:
    """The brands of ``names`` an answer names: chosen options, or named in an open answer's words."""
    question, answer = said
    if (question.get("response") or {}).get("type") == "qualitative":
        return set(brands_in(str(answer.get("text") or ""), names))
    return {c for c in _chosen(answer) if c in names}


def brands_in(text: str, names: list[str] | tuple[str, ...]) -> list[str]:
    """The brand names a text names, as written (a brand is a name: "On" the brand, not "on" the word)."""
    return [n for n in names if re.search(rf"(?<!\w){re.escape(n)}(?!\w)", text)]


def _habits(one: Said, other: Said) -> str | None:
    if not _never(one):
        return None
    question, answer = other
    kind = aspect(question)
    if kind == "frequency" and not _never(other):
        return "never buys or uses it, then says how often it does"
    if kind == "uses" and direction(answer.get("sentiment")) == "positive":
        return "never buys or uses it, then says it has"
    if kind == "brands_used":
        chosen = [c for c in _chosen(answer) if c and not is_none_option(c)]
        open_brands = _brands_named(other, _category_brands(question))
        if (question.get("response") or {}).get("type") != "qualitative" and chosen or open_brands:
            return "never buys or uses it, then names brands it uses"
    return None


def _category_brands(question: dict[str, Any]) -> list[str]:
    topic = topics.question_topic(question)
    options = [o for o in (question.get("response") or {}).get("categoricalOptions") or [] if not is_none_option(o)]
    return list(dict.fromkeys([*options, *(topic.brands if topic else ())]))


def _awareness(one: Said, other: Said) -> str | None:
    q1, (q2, a2) = one[0], other
    if aspect(q2) != "aware_aided" or aspect(q1) not in ("aware_unaided", "brands_used"):
        return None
    options = [o for o in (q2.get("response") or {}).get("categoricalOptions") or [] if not is_none_option(o)]
    if (q2.get("response") or {}).get("type") == "multiselect":
        missing = _brands_named(one, options) - set(_chosen(a2))
        return f"names {', '.join(sorted(missing))} but does not pick it as known" if missing else None
    named = brands_in(q2["text"], _category_brands(q2))
    if named and direction(a2.get("sentiment")) == "negative" and _brands_named(one, named):
        return f"names {named[0]} but says it has not heard of it"
    return None


def _preference(one: Said, other: Said) -> str | None:
    (q1, a1), (q2, a2) = one, other
    if aspect(q1) != "prefer" or aspect(q2) != "prefer":
        return None
    c1, c2 = str(a1.get("value")), str(a2.get("value"))
    shared = set(q1["response"].get("categoricalOptions") or []) & set(q2["response"].get("categoricalOptions") or [])
    if c1 != c2 and {c1, c2} <= shared:
        return f"prefers {c1}, then {c2} between the same options"
    return None


def _stance(one: Said, other: Said) -> str | None:
    if aspect(one[0]) != "stance" or aspect(other[0]) != "stance":
        return None
    ways = {direction(one[1].get("sentiment")), direction(other[1].get("sentiment"))}
    return "leans for it in one answer and against it in the other" if ways == {"positive", "negative"} else None


_RULES = (_price_rule, _two_amounts, _van_westendorp, _gabor_granger, _habits, _awareness, _preference, _stance)
