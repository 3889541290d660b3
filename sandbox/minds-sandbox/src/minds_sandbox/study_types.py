"""Which study a brief asks for, read the same way in English, German, Spanish, Chinese and Korean.

Owns: ``study_type`` (concept test, message test, awareness and usage, preference between options, pricing, NPS
or open reactions — by the words a researcher writes in each language, an explicitly named study type first),
``price_method`` (Van Westendorp or Gabor-Granger named in any wording: "use Van Westendorp to …",
"Van-Westendorp-Methode", "반 웨스텐도르프", "范韦斯特恩多普", "PSM 价格敏感度", "Gabor Granger", "가보-그레인저"),
``asks_recommend`` (NPS, "Net Promoter", "Weiterempfehlung", "recomendarías", "推荐意愿", "추천 의향" …),
``names_nps`` (the method itself is named), ``asks_price`` (a concept, message or usage brief that also asks about
price) and ``without_methods`` (the brief with the method names taken out, so "use Van Westendorp to find the
acceptable price" is never read as the thing tested). Pure functions over strings.
"""

from __future__ import annotations

import re

_VAN_WESTENDORP = re.compile(
    r"van[\s-]*westendorp|westendorp|웨스텐도르프|웨스텐도프|范\s*[·・]?\s*韦斯|韦斯特恩多普|韦斯滕多普|价格敏感度|"
    r"(?<![a-z])psm(?![a-z])|price sensitivity meter|preissensitivit\w*",
    re.I,
)
_GABOR_GRANGER = re.compile(r"gabor[\s-]*granger|가보\s*-?\s*그레인저|加博|盖博|格兰杰", re.I)
_NPS = re.compile(r"(?<![a-z])nps(?![a-z])|net[\s-]*promoter|净推荐|순\s*추천\s*지수|순추천", re.I)
_RECOMMEND = re.compile(r"recommend|(?<![a-z])nps(?![a-z])|net[\s-]*promoter|empfehl|recomend|推荐|추천", re.I)
_METHOD_PHRASE = re.compile(
    r"(?:\b(?:use|using|with|via|by|run|mit|per|con|usando|utilizando|mediante)\s+)?"
    r"(?:\b(?:the|an?|der|die|das|eine?|el|la|un|una)\s+)?"
    r"(?:" + _VAN_WESTENDORP.pattern + "|" + _GABOR_GRANGER.pattern + r"|(?<![a-z])nps(?![a-z])|net[\s-]*promoter"
    r"(?:\s+score)?)"
    r"(?:[\s-]*(?:method|methode|método|metodo|analysis|analyse|análisis|approach|study|studie|estudio|model|"
    r"questions?|fragen|preguntas|score|방식|방법|분석|기법|测试|方法|模型|法))*"
    r"(?:\s+(?:to|um|para)\b)?",
    re.I,
)

# Words that name a study type outright ("concept test", "Konzepttest", "메시지 테스트").
_NAMED_CONCEPT = re.compile(
    r"concept\s*test|konzepttest|konzept-test|prueba de concepto|test de concepto|概念测试|概念测评|"
    r"(?:콘셉트|컨셉)\s*(?:테스트|조사)",
    re.I,
)
_NAMED_MESSAGE = re.compile(
    r"message\s*test|ad\s*test|copy\s*test|botschaftstest|werbemitteltest|anzeigentest|prueba de mensaje|"
    r"test de mensaje|广告测试|信息测试|문구\s*테스트|메시지\s*테스트|광고\s*테스트",
    re.I,
)
_NAMED_USAGE = re.compile(
    r"a\s*&\s*u\b|awareness\s*(?:and|&)\s*usage|usage\s*(?:and|&)\s*attitude|bekanntheit\s*und\s*nutzung|"
    r"conocimiento\s*y\s*uso|认知(?:和|与)使用|인지(?:도)?\s*(?:및|와)\s*사용",
    re.I,
)

# Words a brief about each study type uses, by language.
MESSAGE_WORDS = {
    "en": r"\b(?:messages?|messaging|taglines?|slogans?|claims?|headlines?|ads?|adverts?|advertisements?|"
    r"advertising|campaigns?|commercials?|copy|persuasive|memorable|names?)\b",
    "de": r"botschaft|slogan|claim|\bwerb(?:ung|e)|werbespot|anzeige|kampagne|überzeugend|einpräg|headline|tagline|"
    r"\bnamen?\b",
    "es": r"mensaje|eslogan|lema|anuncio|publicidad|campaña|persuasiv|convincente|memorable|titular",
    "zh": r"广告|口号|标语|文案|宣传语|说服力|记住|难忘|印象深刻",
    "ko": r"메시지|광고|슬로건|문구|카피|캠페인|설득력|기억에\s*남|기억에\s*남는",
}
CONCEPT_NOUNS = {
    "en": r"\bconcepts?\b",
    "de": r"konzept",
    "es": r"concepto",
    "zh": r"概念",
    "ko": r"콘셉트|컨셉",
}
CONCEPT_WORDS = {
    "en": r"\b(?:ideas?|packaging|designs?|launch|launching|features?|pitch|prototypes?|new products?)\b",
    "de": r"\bidee|verpackung|design|einführung|markteinführung|neues produkt|produktidee|prototyp",
    "es": r"\bidea|envase|diseño|lanzamiento|nuevo producto|prototipo",
    "zh": r"创意|新品|新产品|包装|设计|上市|原型",
    "ko": r"아이디어|신제품|패키지|디자인|출시|시제품",
}
USAGE_WORDS = {
    "en": r"\b(?:aware|awareness|heard of|recogni[sz]e|recognition|familiar|know about|usage|how often|"
    r"brands? (?:they|people) use)\b",
    "de": r"\b(?:bekannt\w*|bekanntheit|kennen|kennt|gehört|nutzung\w*|verwendung\w*|wie oft)\b",
    "es": r"\b(?:conoc\w*|oído|notoriedad|reconoc\w*|uso|usan|utilizan|frecuencia)\b",
    "zh": r"知道|听说|知名度|认知|使用频率|用过|使用习惯",
    "ko": r"알고\s*있|인지|들어\s?본|아는지|사용\s*빈도|이용\s*빈도|사용\s*습관",
}
PRICE_WORDS = {
    "en": r"\b(?:pric(?:e|es|ed|ing)|pay|willing(?:ness)? to pay|wtp|cost|costs|value for money|afford)\b",
    "de": r"\b(?:preis\w*|kost\w*|zahl(?:en|t|ungs\w*)|bezahl\w*|zahlungsbereitschaft)\b",
    "es": r"\b(?:precio\w*|pagar\w*|pagarían|cuest\w*|cost\w*)\b",
    "zh": r"价格|价钱|定价|售价|多少钱|支付|付费|愿意付|价位",
    "ko": r"가격|지불|비용|얼마(?!나)|값",
}


def _found(table: dict[str, str], lang: str, text: str) -> bool:
    """A word of the brief's language (and of English, which briefs in every language borrow) is in the text."""
    patterns = {table[lang], table["en"]}
    return any(re.search(pattern, text, re.I) for pattern in patterns)


def price_method(text: str) -> str | None:
    """The pricing method a brief names, by the catalogue's id, in any wording of the five languages."""
    if _VAN_WESTENDORP.search(text):
        return "van-westendorp"
    if _GABOR_GRANGER.search(text):
        return "gabor-granger"
    return None


def names_nps(text: str) -> bool:
    """The brief names the NPS method itself ("NPS", "Net Promoter", "净推荐值", "순추천지수")."""
    return bool(_NPS.search(text))


def asks_recommend(text: str) -> bool:
    """The brief asks whether they would recommend it, or names NPS, in any of the five languages."""
    return bool(_RECOMMEND.search(text))


def asks_price(text: str, lang: str) -> bool:
    return _found(PRICE_WORDS, lang, text)


def without_methods(text: str) -> str:
    """The brief with the research methods and study types it names taken out ("use Van Westendorp to find …" →
    "find …", "Konzepttest: Wie kommt …" → "Wie kommt …"), so what is left names the thing studied."""
    for named in (_NAMED_CONCEPT, _NAMED_MESSAGE, _NAMED_USAGE):
        text = re.sub(r"(?:" + named.pattern + r")\w*\s*[:：]?", " ", text, flags=re.I)
    text = re.sub(r"[(（]\s*[)）]", " ", _METHOD_PHRASE.sub(" ", text))  # "추천 의향(NPS)" leaves no "( )"
    text = re.sub(r"^\s*(?:of|for|about|von|zur?|zum|de|del|sobre)\s+", "", text.strip(), flags=re.I)  # "of our …"
    return re.sub(r"\s{2,}", " ", text).strip()


def study_type(text: str, lang: str, *, options: int, price: bool) -> str:
    """The study a brief asks for: preference, price, concept, message, awareness (and usage), nps or open.

    Options to choose between make a preference study; a named pricing method a pricing study; a study type named
    outright wins over the words that merely occur ("Konzepttest: …"); then a tested amount ("140 EUR"), a message
    (ads, slogans, claims), a concept, price asked about, awareness or usage, other new-product words, NPS alone;
    else open reactions."""
    if options >= 2:
        return "preference"
    if price_method(text):
        return "price"
    if _NAMED_CONCEPT.search(text):
        return "concept"
    if _NAMED_MESSAGE.search(text):
        return "message"
    if _NAMED_USAGE.search(text):
        return "awareness"
    if price:  # a tested amount ("140 EUR") makes a pricing study unless a study type is named
        return "price"
    core = without_methods(text)
    if _found(MESSAGE_WORDS, lang, core):
        return "message"
    if _found(CONCEPT_NOUNS, lang, core):
        return "concept"
    if asks_price(core, lang):
        return "price"
    if _found(USAGE_WORDS, lang, core):
        return "awareness"
    if _found(CONCEPT_WORDS, lang, core):
        return "concept"
    if names_nps(text) or asks_recommend(text):
        return "nps" if names_nps(text) else "open"
    return "open"
