"""How the sandbox planner reads a brief written in German, Spanish, Chinese or Korean (English is read by
``instruments``), and the parts every language shares: the brief's language, a price with its currency, a
question count the brief asks for, and a stimulus description it gives (never its own research question).

Owns: ``brief_language`` and ``read_foreign`` (topic, who is asked, options compared; the study type is read by
``study_types``). Topics keep the brief's own words with the article the Study language's templates expect
(German accusative "den neuen Laufschuh", Spanish "las nuevas zapatillas de running"); Chinese and Korean topics
are the noun phrase the brief names ("新跑鞋", "새 러닝화", "새 광고 메시지"). Who is asked is read as the
subject ("junge Familien" from "bei jungen Familien", "20대 직장인" from "20대 직장인에게"). Pure functions over
strings.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

TOPIC_MAX_WORDS = 7
TOPIC_MAX_CHARS = 60
WHO_MAX_CHARS = 60

PRICE = re.compile(
    r"(?P<cur>[€$£¥₩])\s?(?P<num>\d+(?:[.,]\d{1,2})?)"
    r"|(?P<num2>\d+(?:[.,]\d{1,2})?)\s?(?P<cur2>euros?|eur|usd|dollars?|dólares|dolares|gbp|pounds?|pfund|libras?"
    r"|欧元|美元|英镑|人民币|元|유로|달러|파운드|원|rmb|cny|krw|€|\$|£)(?![A-Za-z])",
    re.IGNORECASE,
)
_CURRENCIES = (
    ("EUR", ("€", "eur", "欧元", "유로")),
    ("USD", ("$", "usd", "dollar", "dólar", "dolar", "美元", "달러")),
    ("GBP", ("£", "gbp", "pound", "pfund", "libra", "英镑", "파운드")),
    ("CNY", ("¥", "元", "人民币", "rmb", "cny")),
    ("KRW", ("₩", "원", "krw")),
)
_COUNT = re.compile(
    r"\b(?P<a>[3-8])\s*(?:questions|fragen|preguntas)\b|(?P<b>[3-8])\s*(?:个问题|道题|개\s*질문|개의\s*질문|문항)"
    r"|질문\s*(?P<c>[3-8])\s*개",
    re.IGNORECASE,
)
_RESEARCH_QUESTION = re.compile(  # words that make the text after a colon a research question, in each language
    r"^(?:how|what|which|why|whether|would|do|does|are|is|can|will|find out|understand|learn|wie|was|welche\w*|"
    r"warum|ob|würden|kommt|finden|cómo|qué|cuál\w*|por qué|si|saber|entender|averiguar)\b"
    r"|如何|怎么|怎样|是否|会不会|吗$|什么|어떻게|무엇|어떤|는지|ㄴ지|을지|알고\s*싶",
    re.I,
)
_DESCRIPTION = re.compile(r"[:：]\s*(?P<d>[^:：]{12,400})$")
_QUOTED = re.compile(r"[\"“„«‘「'](?P<q>[^\"”“«»’'」]{3,80})[\"”“»’」']")

_STOPWORDS = {
    "en": {"the", "and", "for", "of", "our", "how", "do", "what", "would", "is", "are", "to", "with", "feel"},
    "de": set(
        [
            "der",
            "die",
            "das",
            "und",
            "wie",
            "für",
            "unser",
            "unseren",
            "unsere",
            "einen",
            "ist",
            "mit",
            "finden",
            "sie",
            "ein",
            "eine",
            "den",
            "von",
            "preis",
            "nicht",
            "zu",
            "oder",
            "wir",
            "bevorzugen",
            "kennen",
            "welche",
            "würden",
            "sind",
            "haben",
            "sich",
            "bei",
            "über",
            "neuen",
            "neue",
            "neues",
            "junge",
            "testen",
        ]
    ),
    "es": set(
        [
            "el",
            "la",
            "los",
            "las",
            "de",
            "del",
            "para",
            "qué",
            "cómo",
            "nuestro",
            "nuestra",
            "nuestros",
            "nuestras",
            "un",
            "una",
            "por",
            "precio",
            "y",
            "en",
            "opinan",
            "o",
            "prefieren",
            "conocen",
            "nuevo",
            "nueva",
            "nuevas",
            "nuevos",
            "jóvenes",
            "probar",
        ]
    ),
}


def brief_language(text: str) -> str:
    """The language a brief is written in: Korean and Chinese by their script, German, Spanish or English by
    their commonest words."""
    if any("\uac00" <= c <= "\ud7a3" for c in text):
        return "ko"
    if any("\u4e00" <= c <= "\u9fff" for c in text):
        return "zh"
    words = re.findall(r"[a-zäöüßñáéíóú¿]+", text.lower())
    scores = {lang: sum(w in stop for w in words) for lang, stop in _STOPWORDS.items()}
    scores["de"] += 2 * sum(c in "äöüß" for c in text.lower())
    scores["es"] += 2 * sum(c in "¿ñ" for c in text.lower())
    best = max(scores, key=lambda lang: scores[lang])
    return best if scores[best] > scores["en"] else "en"


def price_of(text: str) -> str | None:
    """ "140 EUR" for "140 EUR", "€140", "140 Euro", "140欧元" or "140유로"."""
    match = PRICE.search(text)
    if match is None:
        return None
    number = match["num"] or match["num2"]
    said = (match["cur"] or match["cur2"]).lower()
    code = next((c for c, marks in _CURRENCIES if any(said.startswith(m) for m in marks)), "EUR")
    return f"{number} {code}"


def without_count(text: str) -> str:
    """The brief without the question count it names ("… in 5 questions"), so the count is not read as topic."""
    return re.sub(r"\s*(?:\b(?:in|with|using|mit|in|en|con)\s+)?(?:" + _COUNT.pattern + ")", "", text, flags=re.I)


def count_asked(text: str) -> int | None:
    """A question count the brief names ("in 5 questions", "5 Fragen", "5个问题", "질문 5개"), within 3–8."""
    match = _COUNT.search(text)
    return int(match["a"] or match["b"] or match["c"]) if match else None


def description_of(text: str) -> str | None:
    """The stimulus as the brief describes it: the words after a colon, when they are a phrase of a few words
    that describes something — never a research question ("Concept test: how do young parents react to …?",
    "Konzepttest: Wie kommt … an?"), which is the requester's question, not what respondents are shown."""
    match = _DESCRIPTION.search(text.strip())
    if match is None:
        return None
    said = match["d"].strip()
    description = said.rstrip("?？")
    if said.endswith(("?", "？")) or _RESEARCH_QUESTION.search(description):
        return None
    return description if len(description.split()) >= 4 or (len(description) >= 12 and " " not in description) else None


@dataclass(frozen=True)
class ForeignBrief:
    topic: str
    who: str | None
    options: tuple[str, ...]


# ---------------------------------------------------------------- German


_DE_WHO = re.compile(
    r"^(?:(?:wie|was|welche\w*)\s+(?:viel\s+)?)?(?:finden|sehen|bewerten|beurteilen|denken|halten|kennen|würden|"
    r"reagieren|bevorzugen|empfinden|zahlen)\s+(?P<who>[^,?]+?)\s+(?:einen|eine|ein|den|die|das|dem|der|unser\w*|"
    r"über|auf|von|vom|zu|zum|für|ihr\w*)\s",
    re.I,
)
_DE_AMONG = re.compile(  # "… bei jungen Familien an?", "… unter Studierenden in Berlin"
    r"\b(?:bei|unter)\s+(?P<who>(?:[a-zäöüß]+en\s+)?[A-ZÄÖÜ][\w-]+(?:\s+in\s+[A-ZÄÖÜ]\w+)?)", re.U
)
_DE_PREFER = re.compile(r"^(?:bevorzugen|mögen|wählen|kaufen)\s+(?P<who>.+?)\s+(?P<a>\S+)\s+oder\s+(?P<b>.+)$", re.I)
_DE_DET = r"(?:unser|unsere|unseren|unserem|unserer|unseres|den|die|das|dem|einen|eine|ein|einem)"
_DE_TOPIC = (
    re.compile(rf"\bfür\s+(?P<x>{_DE_DET}\s+.+)$", re.I),
    re.compile(rf"\b(?:über|auf|an|testen|teste|prüfen|kennen)\s+(?P<x>{_DE_DET}\s+.+)$", re.I),
    re.compile(r"\b(?P<x>unser\w*\s+.+)$", re.I),
)
_DE_ACCUSATIVE = {
    "unser": "das",
    "unsere": "die",
    "unseren": "den",
    "unserem": "den",
    "unserer": "die",
    "unseres": "das",
    "einen": "den",
    "eine": "die",
    "ein": "das",
    "einem": "den",
    "dem": "den",
}
_DE_CUT = re.compile(
    r"[,;:()!?.…]|\s(?:und|oder|bei|mit|unter|in|im|wenn|weil|als|zu|zum|für)\s"
    r"|\s(?:überzeugend|einprägsam|ansprechend|glaubwürdig)\b"
    r"|\s(?:zahlen|bezahlen|kaufen|finden|bewerten|beurteilen|sehen|kennen|nutzen|ausgeben|würden|wären)\b",
    re.I,
)
_DE_NOUNS = {
    "slogan": "den Slogan",
    "claim": "den Claim",
    "name": "den Namen",
    "namen": "den Namen",
    "botschaft": "die Botschaft",
    "idee": "die Idee",
    "konzept": "das Konzept",
    "kampagne": "die Kampagne",
}

# ---------------------------------------------------------------- Spanish

_ES_WHO = re.compile(
    r"^¿?\s*(?:qué|cómo|cuánto)\s+(?:\w+\s+)?(?:opinan|valoran|ven|perciben|piensan|reaccionan|juzgan|pagarían|"
    r"prefieren|conocen)\s+(?P<who>[^,?]+?)\s+(?:de|del|sobre|ante|a|al|por)\s+(?:un|una|unos|unas|nuestr\w*|"
    r"est[ea]s?|sus?|precio)\b",
    re.I,
)
_ES_WHO_FIRST = re.compile(
    r"^¿?\s*(?:conocen|saben|prefieren|pagarían|comprarían|valoran)\s+(?P<who>[^,?]+?)\s+(?:nuestr\w*|un|una|el|la)\s",
    re.I,
)
_ES_TOPIC = (
    re.compile(r"\b(?P<x>nuestr[oa]s?\s+.+)$", re.I),
    re.compile(r"\b(?:para|sobre|ante|probar|evaluar)\s+(?P<x>(?:un|una|unos|unas|el|la|los|las)\s+.+)$", re.I),
)
_ES_ARTICLE = {
    "nuestro": "el",
    "nuestra": "la",
    "nuestros": "los",
    "nuestras": "las",
    "un": "el",
    "una": "la",
    "unos": "los",
    "unas": "las",
}
_ES_CUT = re.compile(r"[,;:()!?¿¡.…]|\s(?:y|o|con|entre|en|que|por|para|a|al|si|cuando)\s", re.I)
_ES_NOUNS = {
    "eslogan": "el eslogan",
    "lema": "el lema",
    "nombre": "el nombre",
    "mensaje": "el mensaje",
    "idea": "la idea",
    "concepto": "el concepto",
    "campaña": "la campaña",
}

# ---------------------------------------------------------------- Chinese and Korean

_ZH_WHO = re.compile(r"^(?P<who>[^，。？！]+?)(?:会如何|如何|怎么|怎样|是否|会不会|愿意|更喜欢|知道|听说过|对)")
_ZH_TOPIC = (
    re.compile(r"我们(?:的)?(?P<x>[^，。？！、\d的]+?)(?=对|在|有什么|怎么样|如何|是否|会|吗|的|，|。|？|！|\d|$)"),
    re.compile(r"对(?P<x>[^，。？！\d]+?)的(?:看法|反应|评价|印象)"),
)
_KO_STOP = ("대해", "대한", "에", '"', "”", "’", "?", "？", ",")
_KO_NOUNS = ("슬로건", "문구", "광고", "이름", "콘셉트", "컨셉", "메시지", "카피", "아이디어")
_ZH_NOUNS = ("口号", "标语", "广告语", "名称", "概念", "理念", "广告")
_KO_TOPIC = (
    re.compile(r"우리(?:의)?\s+(?P<x>[^\d?？.,]+?)(?:의|에\s*대한|을|를|은|는|에)(?:\s|$)"),
    re.compile(r"(?P<x>[^\s\d?？.,]+?)(?:에\s*대해|에\s*대한)"),
    # the thing studied, named by a noun a study is about ("새 광고 메시지가 …", "새 러닝화의 적정 가격")
    re.compile(
        r"(?:^|\s)(?P<x>(?:[^\s\d?？.,]+\s){0,2}[^\s\d?？.,]*?(?:메시지|광고|슬로건|문구|카피|콘셉트|컨셉|캠페인|"
        r"아이디어|제품|서비스|앱|브랜드))(?:이|가|은|는|을|를|의|에|도)?(?:\s|$)"
    ),
    re.compile(r"(?:^|\s)(?P<x>(?:[^\s\d?？.,]+\s)?[^\s\d?？.,]+?)의\s+(?:[^\s]+\s+)?(?:가격|값|인지도)"),
)
_KO_PARTICLE_END = ("은", "는", "이", "가", "을", "를", "에게", "에서", "으로", "로", "도", "의", "고", "면")
_KO_MEASURES = ("추천", "의향", "가격", "적정", "인지도", "만족도", "사용", "빈도")
_KO_WHOSE = re.compile(r"(?:^|\s)(?P<who>(?:[^\s?？.,]+\s)?[^\s?？.,]+들)의\s")  # "젊은 직장인들의 …"
_KO_TO_WHOM = re.compile(r"(?P<who>(?:[^\s?？.,]+\s)?[^\s?？.,]+?)(?:에게|한테)(?:\s|$)")
_ZH_PREFER = re.compile(r"(?:喜欢|选择|偏好)(?P<a>[^，。？！]+?)还是(?P<b>[^，。？！]+)")
_KO_PREFER = re.compile(r"(?P<a>[^\s,]+?)(?:과|와)\s+(?P<b>[^\s,]+?)\s*(?:중|가운데)")
_VERSUS = re.compile(r"\s+(?:vs\.?|versus)\s+", re.I)


def read_foreign(text: str, lang: str) -> ForeignBrief:
    """The brief a German, Spanish, Chinese or Korean request states."""
    reader = {"de": _read_de, "es": _read_es, "zh": _read_zh, "ko": _read_ko}[lang]
    return reader(text)


def _cut(phrase: str, cut: re.Pattern[str]) -> str:
    match = cut.search(phrase)
    kept = (phrase[: match.start()] if match else phrase).split()[:TOPIC_MAX_WORDS]
    words: list[str] = []
    for word in kept:
        if len(" ".join([*words, word])) > TOPIC_MAX_CHARS:
            break
        words.append(word)
    return " ".join(words).strip(" \"'.,")


def _quoted(text: str, nouns: dict[str, str], open_q: str, close_q: str) -> str:
    match = _QUOTED.search(text)
    if match is None or len(match["q"].split()) < 2:
        return ""
    before = text[: match.start()].split()
    noun = nouns.get(before[-1].lower()) if before else None
    quoted = f"{open_q}{match['q'].strip()}{close_q}"
    return f"{noun} {quoted}" if noun else quoted


def _two(a: str, b: str) -> tuple[str, ...]:
    a, b = a.strip(" \"'.,?？"), b.strip(" \"'.,?？")
    return (a, b) if a and b and a.lower() != b.lower() else ()


def _read_de(text: str) -> ForeignBrief:
    options: tuple[str, ...] = ()
    parts = _VERSUS.split(text)
    if len(parts) == 2:
        options = _two(parts[0].split()[-1] if parts[0].split() else "", _cut(parts[1], _DE_CUT))
    between = re.search(r"\bzwischen\s+(?P<a>.+?)\s+und\s+(?P<b>.+)$", text, re.I)
    if not options and between:
        options = _two(_cut(between["a"], _DE_CUT), _cut(between["b"], _DE_CUT))
    prefer = _DE_PREFER.match(text)
    if not options and prefer:  # "Bevorzugen junge Familien Hafermilch oder Mandelmilch?"
        options = _two(prefer["a"], _cut(prefer["b"], _DE_CUT))
    topic = _quoted(text, _DE_NOUNS, "„", "“")
    if not topic:
        for pattern in _DE_TOPIC:
            match = pattern.search(text)
            if match:
                topic = _cut(match["x"], _DE_CUT)
                break
        words = topic.split()
        if len(words) >= 2 and words[0].lower() in _DE_ACCUSATIVE:
            article = _DE_ACCUSATIVE[words[0].lower()]
            rest = words[1:]
            for index, word in enumerate(rest):  # "unser neues Konzept" → "das neue Konzept"
                if article != "das" or not word.islower() or not word.endswith("es"):
                    break
                rest[index] = word[:-1]
            topic = " ".join([article, *rest])
        elif words and words[0].lower() in ("den", "die", "das"):
            topic = " ".join([words[0].lower(), *words[1:]])
    who = _DE_WHO.match(text) or prefer
    among = None if who else _DE_AMONG.search(text)
    topic = _requote(topic, "„", "“")
    return ForeignBrief(
        topic=topic if len(topic.split()) >= 1 and topic.lower() not in _DE_ACCUSATIVE.values() else "",
        who=_who(who["who"] if who else _de_nominative(among["who"]) if among else None),
        options=options,
    )


def _de_nominative(dative: str) -> str:
    """ "jungen Familien" → "junge Familien", "jungen Läufern" → "junge Läufer" (who is asked, as a subject)."""
    words = dative.split()
    if len(words) == 1 and words[0].endswith(("renden", "lichen", "tätigen", "senen")):
        return words[0][:-1]  # "Studierenden" → "Studierende"
    if len(words) >= 2 and words[0].islower() and words[0].endswith("en"):
        words[0] = words[0][:-1]
    if len(words) >= 2 and words[1].endswith(("ern", "eln", "renden", "lichen", "tätigen", "senen")):
        words[1] = words[1][:-1]  # "Läufern" → "Läufer", "Berufstätigen" → "Berufstätige"
    return " ".join(words)


def _requote(topic: str, open_q: str, close_q: str) -> str:
    """A name in the topic quoted with the language's marks ("das Müsli 'Morgenglück" → "das Müsli „Morgenglück“")."""
    return re.sub(r"['\"‚‘“„](?P<q>[^'\"‚‘’“”„]{2,80})['\"’”“]?$", lambda m: f"{open_q}{m['q']}{close_q}", topic)


def _read_es(text: str) -> ForeignBrief:
    options: tuple[str, ...] = ()
    between = re.search(r"\bentre\s+(?P<a>.+?)\s+y\s+(?P<b>.+)$", text, re.I)
    if between:
        options = _two(_cut(between["a"], _ES_CUT), _cut(between["b"], _ES_CUT))
    prefer = re.search(r"\bprefieren\s+(?P<a>.+?)\s+o\s+(?P<b>.+)$", text, re.I)
    prefer_who = None
    if not options and prefer:  # "¿Prefieren las familias jóvenes la leche de avena o la de almendra?"
        first = prefer["a"]
        split = list(re.finditer(r"\s(?=(?:el|la|los|las|un|una)\s)", first, re.I))
        if split:  # who comes first, the option from its own article on
            prefer_who, first = first[: split[-1].start()], first[split[-1].end() :]
        options = _two(_cut(first, _ES_CUT), _cut(prefer["b"], _ES_CUT))
    topic = _quoted(text, _ES_NOUNS, "«", "»")
    if not topic:
        for pattern in _ES_TOPIC:
            match = pattern.search(text)
            if match:
                topic = _cut(match["x"], _ES_CUT)
                break
        words = topic.split()
        if len(words) >= 2 and words[0].lower() in _ES_ARTICLE:
            topic = " ".join([_ES_ARTICLE[words[0].lower()], *words[1:]])
    who = _ES_WHO.match(text) or _ES_WHO_FIRST.match(text)
    return ForeignBrief(
        topic=topic if len(topic.split()) >= 2 or (topic and topic[0] in '«"') else "",
        who=_who(prefer_who or (who["who"] if who else None)),
        options=options,
    )


def _named_quote(text: str, nouns: tuple[str, ...], open_q: str, close_q: str) -> str:
    """A quoted slogan or name with the noun before it ("슬로건 ‘더 멀리, 더 적게’", "口号“跑得更远”")."""
    match = _QUOTED.search(text)
    if match is None:
        return ""
    before = text[: match.start()].rstrip()
    noun = next((n for n in nouns if before.endswith(n)), "")
    joiner = " " if noun and open_q == "‘" else ""
    return f"{noun}{joiner}{open_q}{match['q'].strip()}{close_q}"


def _read_zh(text: str) -> ForeignBrief:
    prefer = _ZH_PREFER.search(text)
    options = _two(prefer["a"], prefer["b"]) if prefer else ()
    topic = _named_quote(text, _ZH_NOUNS, "“", "”")
    for pattern in _ZH_TOPIC if not topic else ():
        match = pattern.search(text)
        if match:
            topic = match["x"].strip()[:20]
            break
    who = _ZH_WHO.match(text)
    found = who["who"] if who and "我们" not in who["who"] else None
    return ForeignBrief(
        topic=topic,
        who=_who(found),
        options=options,
    )


def _read_ko(text: str) -> ForeignBrief:
    prefer = _KO_PREFER.search(text)
    options = _two(prefer["a"], prefer["b"]) if prefer else ()
    topic = _named_quote(text, _KO_NOUNS, "‘", "’")
    for pattern in _KO_TOPIC if not topic else ():
        match = pattern.search(text)
        if match:
            words = _cut(match["x"], re.compile(r"[,?？.]")).split()
            while len(words) > 1 and words[0].endswith(_KO_PARTICLE_END):  # "방식으로 새 러닝화" → "새 러닝화"
                words.pop(0)
            while len(words) > 1 and words[-1] in _KO_MEASURES:  # "뱅킹 앱 추천 의향" → "뱅킹 앱"
                words.pop()
            topic = " ".join(words)
            break
    return ForeignBrief(
        topic=topic,
        who=_who(_ko_named_who(text)),
        options=options,
    )


def _ko_named_who(text: str) -> str | None:
    """Who is asked: the people a brief speaks to ("20대 직장인에게"), whose view it asks ("젊은 직장인들의"), or
    the subject before the first topic particle."""
    found = _KO_TO_WHOM.search(text) or _KO_WHOSE.search(text)
    return found["who"] if found else _ko_who(text)


def _ko_who(text: str) -> str | None:
    """The words before the first topic particle (은/는), up to four words:
    "독일의 Z세대 운동화 구매자들은" → "독일의 Z세대 운동화 구매자들"."""
    tokens = text.split()
    for index, token in enumerate(tokens):
        later = tokens[index + 1] if index + 1 < len(tokens) else ""
        if len(later) > 1 and later[-1] in "은는" and "우리" not in later:
            continue  # "젊은 가족들은": the first is an adjective of the second
        if len(token) > 1 and token[-1] in "은는" and "우리" not in token and not token.endswith(_KO_STOP):
            words = [token[:-1]]
            for earlier in reversed(tokens[max(0, index - 3) : index]):
                if earlier.endswith(_KO_STOP) or "우리" in earlier:
                    break
                words.insert(0, earlier)
            return " ".join(words)
    return None


def _who(found: str | None) -> str | None:
    if not found:
        return None
    found = found.strip()
    return found if 0 < len(found) <= WHO_MAX_CHARS else None
