"""The sandbox planner's words in the five Study languages it writes: English, German, Spanish, Chinese and Korean.

Owns: ``phrase(locale, key, **values)``, the one way to say a wording entry in a Study language, ``choices`` (an
option list), and the plan-level tables (objectives, options, module titles, confirmation questions); the
questions and their scale anchors are in ``question_wording`` and ``study_wording``. Each language is written as
that language says it, not word for word: German and Spanish templates use the topic only where its article fits
(accusative after "für"; "de el" contracted to "del"), Korean picks its particles (을/를, 이/가, 과/와, 은/는) from
the word before them. A Study language the tables do not hold (fr, ja, tr, ar) gets English. Pure data and string
functions.

Other sandbox modules (a refinement that adds a question, say) call ``phrase`` with a key of either table, e.g.
``phrase("de", "why_generic")`` → "Warum sagen Sie das? Bitte erklären Sie es in Ihren eigenen Worten." and
``phrase("ko", "recommend", topic="새 러닝화")`` → "새 러닝화를 친구나 동료에게 추천할 가능성은 얼마나 됩니까?".
"""

from __future__ import annotations

import re

from minds_sandbox.question_wording import QUESTION_TEXT
from minds_sandbox.study_wording import STUDY_OPTIONS, STUDY_TEXT

LANGUAGES = ("en", "de", "es", "zh", "ko")
DEFAULT_LANGUAGE = "en"


def language(locale: str | None) -> str:
    """The table language for a Study locale ("de-DE" → "de"); English for one the tables do not hold."""
    base = (locale or DEFAULT_LANGUAGE).split("-")[0].split("_")[0].lower()
    return base if base in LANGUAGES else DEFAULT_LANGUAGE


def phrase(locale: str | None, key: str, **values: object) -> str:
    """Table entry ``key`` in the Study language of ``locale``, with ``values`` filled in and the language's
    contractions and particles applied. Unknown keys raise ``KeyError`` (a missing word is a bug)."""
    lang = language(locale)
    entry = TEXT[key]
    text = entry.get(lang) or entry[DEFAULT_LANGUAGE]
    return polish(lang, text.format(**values))


def choices(locale: str | None, key: str, **values: object) -> list[str]:
    """Option list ``key`` in the Study language of ``locale``."""
    lang = language(locale)
    entry = OPTIONS[key]
    return [polish(lang, o.format(**values)) for o in (entry.get(lang) or entry[DEFAULT_LANGUAGE])]


_ES_CONTRACTIONS = ((re.compile(r"\bde el\b"), "del"), (re.compile(r"\ba el\b"), "al"))
# Korean particle pairs written "을(를)": the first after a final consonant (batchim), the second after a vowel.
_KO_PARTICLE = re.compile(r"(?P<prev>.)(?P<close>[’”\"')\]]?)(?P<after>을|은|이|과|으로)\((?P<vowel>를|는|가|와|로)\)")


def polish(lang: str, text: str) -> str:
    if lang == "es":
        for pattern, replacement in _ES_CONTRACTIONS:
            text = pattern.sub(replacement, text)
    if lang == "ko":
        text = _KO_PARTICLE.sub(_particle, text)
    return text


def _particle(match: re.Match[str]) -> str:
    """The particle the word before it takes (a closing quote is looked through: ‘더 멀리’를)."""
    prev, before = match["prev"], match["prev"] + match["close"]
    code = ord(prev) - 0xAC00
    if 0 <= code < 11172:
        batchim = code % 28
        if match["after"] == "으로":
            second = batchim == 0 or batchim == 8  # ㄹ takes 로
            return before + (match["vowel"] if second else "으로")
        return before + (match["after"] if batchim else match["vowel"])
    if prev.isdigit():  # read aloud: 0 영, 1 일, 3 삼, 6 육, 7 칠, 8 팔 end in a consonant
        return before + (match["after"] if prev in "013678" else match["vowel"])
    return before + match["vowel"]  # a Latin letter: the vowel form reads naturally


def has_hangul(text: str) -> bool:
    return any("\uac00" <= c <= "\ud7a3" for c in text)


# ---------------------------------------------------------------- the tables

T = dict[str, dict[str, str]]

PLAN_TEXT: T = {
    # who answers when the brief does not say
    "who_default": {"en": "the Minds", "de": "die Minds", "es": "los Minds", "zh": "Minds", "ko": "Minds"},
    "topic_default": {"en": "the idea", "de": "die Idee", "es": "la idea", "zh": "这个想法", "ko": "이 아이디어"},
    # how a price stands next to the topic ("… at 140 EUR")
    "at_price": {
        "en": " at {price}",
        "de": " zum Preis von {price}",
        "es": " a un precio de {price}",
        "zh": "售价{price}的",
        "ko": "{price}에 판매되는 ",
    },
    "scale_ends": {
        "en": "{text} (1 = {low}, 5 = {high})",
        "de": "{text} (1 = {low}, 5 = {high})",
        "es": "{text} (1 = {low}, 5 = {high})",
        "zh": "{text}（1 = {low}，5 = {high}）",
        "ko": "{text} (1 = {low}, 5 = {high})",
    },
    # ---- objectives
    "objective_price": {
        "en": "Find out how {who} judge a price of {price} for {topic}, what they would be willing to pay, and why.",
        "de": "Herausfinden, wie {who} einen Preis von {price} für {topic} beurteilen, wie viel sie zu zahlen "
        "bereit wären und warum.",
        "es": "Averiguar cómo valoran {who} un precio de {price} para {topic}, cuánto estarían dispuestos a pagar "
        "y por qué.",
        "zh": "了解{who}如何看待{topic}{price}的定价、愿意支付多少钱以及原因。",
        "ko": "{who}이(가) {topic}의 {price} 가격을 어떻게 평가하는지, 얼마까지 지불할 의향이 있는지, 그 이유는 "
        "무엇인지 알아봅니다.",
    },
    "objective_price_open": {
        "en": "Find out how {who} judge the price of {topic}, what they would be willing to pay, and why.",
        "de": "Herausfinden, wie {who} den Preis für {topic} beurteilen, wie viel sie zu zahlen bereit wären und "
        "warum.",
        "es": "Averiguar cómo valoran {who} el precio de {topic}, cuánto estarían dispuestos a pagar y por qué.",
        "zh": "了解{who}如何看待{topic}的价格、愿意支付多少钱以及原因。",
        "ko": "{who}이(가) {topic}의 가격을 어떻게 평가하는지, 얼마까지 지불할 의향이 있는지, 그 이유는 무엇인지 "
        "알아봅니다.",
    },
    "objective_preference": {
        "en": "Find out whether {who} prefer {first} or {second}, and why.",
        "de": "Herausfinden, ob {who} {first} oder {second} bevorzugen und warum.",
        "es": "Averiguar si {who} prefieren {first} o {second}, y por qué.",
        "zh": "了解{who}更喜欢{first}还是{second}，以及原因。",
        "ko": "{who}이(가) {first}과(와) {second} 중 무엇을 더 선호하는지, 그 이유는 무엇인지 알아봅니다.",
    },
    "objective_awareness": {
        "en": "Measure how well {who} know {topic}, and what they associate with it.",
        "de": "Messen, wie gut {who} {topic} kennen und was sie damit verbinden.",
        "es": "Medir cuánto conocen {who} {topic} y qué asocian con ello.",
        "zh": "衡量{who}对{topic}的了解程度，以及他们由此产生的联想。",
        "ko": "{who}이(가) {topic}을(를) 얼마나 잘 알고 있는지, 무엇을 연상하는지 측정합니다.",
    },
    "objective_concept": {
        "en": "Test how appealing {who} find {topic}, why, and what would put them off.",
        "de": "Testen, wie ansprechend {who} {topic} finden, warum, und was aus ihrer Sicht dagegen spricht.",
        "es": "Comprobar el atractivo de {topic} entre {who}, sus motivos y qué les echaría para atrás.",
        "zh": "测试{who}认为{topic}有多大吸引力、原因何在，以及哪些地方会让他们却步。",
        "ko": "{who}이(가) {topic}을(를) 얼마나 매력적으로 느끼는지, 그 이유와 망설이게 하는 점을 알아봅니다.",
    },
    "objective_open": {
        "en": "Understand how {who} react to {topic}: first impressions, likes and what would put them off.",
        "de": "Verstehen, wie {who} auf {topic} reagieren: erster Eindruck, was gefällt und was abschreckt.",
        "es": "Entender cómo reaccionan {who} ante {topic}: primera impresión, lo que les gusta y lo que les "
        "echaría para atrás.",
        "zh": "了解{who}对{topic}的反应：第一印象、喜欢之处以及令人却步的因素。",
        "ko": "{who}이(가) {topic}에 어떻게 반응하는지 알아봅니다: 첫인상, 좋은 점, 망설이게 하는 점.",
    },
    # ---- module titles and purposes
    "module_habits": {
        "en": "Buying habits",
        "de": "Kaufverhalten",
        "es": "Hábitos de compra",
        "zh": "购买习惯",
        "ko": "구매 습관",
    },
    "module_price": {
        "en": "Price and value",
        "de": "Preis und Wert",
        "es": "Precio y valor",
        "zh": "价格与价值",
        "ko": "가격과 가치",
    },
    "module_intent": {
        "en": "Purchase intent",
        "de": "Kaufabsicht",
        "es": "Intención de compra",
        "zh": "购买意向",
        "ko": "구매 의향",
    },
    "module_reaction": {
        "en": "First reaction",
        "de": "Erster Eindruck",
        "es": "Primera reacción",
        "zh": "第一印象",
        "ko": "첫인상",
    },
    "module_appeal": {
        "en": "Appeal and credibility",
        "de": "Attraktivität und Glaubwürdigkeit",
        "es": "Atractivo y credibilidad",
        "zh": "吸引力与可信度",
        "ko": "매력도와 신뢰도",
    },
    "module_consider": {
        "en": "Consideration and barriers",
        "de": "Kaufbereitschaft und Hürden",
        "es": "Consideración y barreras",
        "zh": "考虑意向与顾虑",
        "ko": "고려 의향과 장벽",
    },
    "module_awareness": {"en": "Awareness", "de": "Bekanntheit", "es": "Conocimiento", "zh": "认知度", "ko": "인지도"},
    "module_image": {
        "en": "Image and associations",
        "de": "Image und Assoziationen",
        "es": "Imagen y asociaciones",
        "zh": "印象与联想",
        "ko": "이미지와 연상",
    },
    "module_sources": {
        "en": "Information sources",
        "de": "Informationsquellen",
        "es": "Fuentes de información",
        "zh": "信息来源",
        "ko": "정보 출처",
    },
    "module_choice": {"en": "Preference", "de": "Präferenz", "es": "Preferencia", "zh": "偏好", "ko": "선호"},
    "module_reasons": {"en": "Reasons", "de": "Gründe", "es": "Motivos", "zh": "原因", "ko": "이유"},
    "module_options": {
        "en": "Each option",
        "de": "Die Optionen im Einzelnen",
        "es": "Cada opción",
        "zh": "各选项评价",
        "ko": "선택지별 평가",
    },
    "module_experience": {
        "en": "Experience",
        "de": "Erfahrung",
        "es": "Experiencia",
        "zh": "使用经验",
        "ko": "사용 경험",
    },
    "module_likes": {
        "en": "Likes and drawbacks",
        "de": "Was gefällt und was stört",
        "es": "Lo que gusta y lo que no",
        "zh": "喜欢与顾虑",
        "ko": "장점과 단점",
    },
    "module_question": {
        "en": "Question {number}",
        "de": "Frage {number}",
        "es": "Pregunta {number}",
        "zh": "第{number}题",
        "ko": "{number}번 문항",
    },
    "module_questions": {
        "en": "Questions {first}–{last}",
        "de": "Fragen {first}–{last}",
        "es": "Preguntas {first}–{last}",
        "zh": "第{first}–{last}题",
        "ko": "{first}–{last}번 문항",
    },
    "purpose_one": {"en": "1 question", "de": "1 Frage", "es": "1 pregunta", "zh": "1个问题", "ko": "질문 1개"},
    "purpose_many": {
        "en": "{count} questions, asked in order",
        "de": "{count} Fragen, in dieser Reihenfolge gestellt",
        "es": "{count} preguntas, en este orden",
        "zh": "{count}个问题，按顺序提问",
        "ko": "질문 {count}개, 순서대로 질문",
    },
    # ---- confirmation questions (asked of the requester)
    "confirm_price": {
        "en": "Is {price} the final shelf price of {topic}, including {tax}?",
        "de": "Sind {price} der endgültige Ladenpreis für {topic}, inklusive {tax}?",
        "es": "¿{price} es el precio final de venta de {topic}, {tax} incluido?",
        "zh": "{price}是{topic}含{tax}的最终零售价吗？",
        "ko": "{price}이(가) {tax} 포함 {topic}의 최종 판매가입니까?",
    },
    "tax_vat": {"en": "VAT", "de": "MwSt.", "es": "IVA", "zh": "增值税", "ko": "부가세"},
    "tax_any": {"en": "tax", "de": "Steuern", "es": "impuestos", "zh": "税", "ko": "세금"},
    "confirm_price_open": {
        "en": "Is the price of {topic} still open, so the plan should find what buyers would pay rather than test a "
        "set price?",
        "de": "Ist der Preis für {topic} noch offen, sodass der Plan herausfinden soll, was Käufer zahlen würden, "
        "statt einen festen Preis zu testen?",
        "es": "¿Está aún por decidir el precio de {topic}, de modo que el plan deba averiguar cuánto pagarían en "
        "lugar de probar un precio fijo?",
        "zh": "{topic}的价格是否尚未确定，因此方案应了解买家愿意支付多少，而不是测试一个固定价格？",
        "ko": "{topic}의 가격이 아직 정해지지 않아, 정해진 가격을 검증하기보다 구매자가 얼마를 낼지 알아봐야 합니까?",
    },
    "confirm_concept": {
        "en": "Will {topic} carry your brand name when buyers first see it?",
        "de": "Sehen Käufer {topic} beim ersten Kontakt mit Ihrem Markennamen?",
        "es": "¿Verán los compradores el nombre de tu marca la primera vez que vean {topic}?",
        "zh": "买家第一次看到{topic}时，上面会有您的品牌名称吗？",
        "ko": "구매자가 {topic}을(를) 처음 볼 때 귀사의 브랜드명이 표시됩니까?",
    },
    "confirm_describe": {
        "en": "How would you describe {topic} in a sentence or two? The Minds read your description before they "
        "answer.",
        "de": "Wie würden Sie {topic} in ein oder zwei Sätzen beschreiben? Die Minds lesen Ihre Beschreibung, "
        "bevor sie antworten.",
        "es": "¿Cómo describirías {topic} en una o dos frases? Los Minds leerán tu descripción antes de responder.",
        "zh": "您会如何用一两句话描述{topic}？Minds 会在回答前阅读您的描述。",
        "ko": "{topic}을(를) 한두 문장으로 어떻게 설명하시겠습니까? Minds는 답하기 전에 이 설명을 읽습니다.",
    },
    "confirm_awareness": {
        "en": "Do you already sell {topic} under this name?",
        "de": "Bieten Sie {topic} unter diesem Namen schon an?",
        "es": "¿Vendes ya {topic} con este nombre?",
        "zh": "{topic}是否已经以这个名称上市？",
        "ko": "{topic}은(는) 이미 이 이름으로 출시되어 있습니까?",
    },
    "confirm_preference": {
        "en": "Do you want {first} and {second} shown in a random order, so neither is always seen first?",
        "de": "Sollen {first} und {second} in zufälliger Reihenfolge gezeigt werden, damit keine Option immer "
        "zuerst erscheint?",
        "es": "¿Quieres que {first} y {second} se muestren en orden aleatorio, para que ninguna opción aparezca "
        "siempre primero?",
        "zh": "是否要以随机顺序展示{first}和{second}，以免某一项总是先出现？",
        "ko": "어느 한쪽이 항상 먼저 보이지 않도록 {first}과(와) {second}을(를) 무작위 순서로 보여 드릴까요?",
    },
    "confirm_open": {
        "en": "Can people already buy {topic}?",
        "de": "Kann man {topic} bereits kaufen?",
        "es": "¿Ya es posible comprar {topic}?",
        "zh": "{topic}已经可以购买了吗？",
        "ko": "{topic}은(는) 이미 구매할 수 있습니까?",
    },
    "confirm_audiences": {
        "en": "Which Audiences should answer this plan?",
        "de": "Welche Audiences sollen diesen Plan beantworten?",
        "es": "¿Qué Audiences deben responder a este plan?",
        "zh": "哪些 Audience 应回答这个方案？",
        "ko": "어떤 Audience가 이 계획에 답해야 합니까?",
    },
}

TEXT: T = {**PLAN_TEXT, **QUESTION_TEXT, **STUDY_TEXT}

OPTIONS: dict[str, dict[str, list[str]]] = {
    "yes_no": {
        "en": ["Yes", "No"],
        "de": ["Ja", "Nein"],
        "es": ["Sí", "No"],
        "zh": ["是", "否"],
        "ko": ["예", "아니요"],
    },
    "yes_maybe_no": {
        "en": ["Yes", "Maybe", "No"],
        "de": ["Ja", "Vielleicht", "Nein"],
        "es": ["Sí", "Quizás", "No"],
        "zh": ["是", "也许", "否"],
        "ko": ["예", "아마도", "아니요"],
    },
    "all_audiences": {
        "en": ["All attached Audiences"],
        "de": ["Alle verknüpften Audiences"],
        "es": ["Todas las Audiences vinculadas"],
        "zh": ["所有已关联的 Audience"],
        "ko": ["연결된 모든 Audience"],
    },
    "no_preference": {
        "en": ["No preference"],
        "de": ["Keine Präferenz"],
        "es": ["Sin preferencia"],
        "zh": ["没有偏好"],
        "ko": ["선호 없음"],
    },
    "price_describe": {
        "en": ["A bargain", "About right", "Expensive but worth it", "Too expensive"],
        "de": ["Ein Schnäppchen", "Angemessen", "Teuer, aber es wert", "Zu teuer"],
        "es": ["Una ganga", "Razonable", "Caro, pero vale la pena", "Demasiado caro"],
        "zh": ["很划算", "价格合理", "贵但值得", "太贵了"],
        "ko": ["매우 저렴하다", "적당하다", "비싸지만 그만한 가치가 있다", "너무 비싸다"],
    },
    "buy_likelihood": {
        "en": ["Definitely would buy", "Probably would buy", "Probably would not buy", "Definitely would not buy"],
        "de": [
            "Würde ich sicher kaufen",
            "Würde ich wahrscheinlich kaufen",
            "Würde ich eher nicht kaufen",
            "Würde ich sicher nicht kaufen",
        ],
        "es": [
            "Seguro que lo compraría",
            "Probablemente lo compraría",
            "Probablemente no lo compraría",
            "Seguro que no lo compraría",
        ],
        "zh": ["肯定会买", "可能会买", "可能不会买", "肯定不会买"],
        "ko": ["반드시 구매한다", "아마 구매한다", "아마 구매하지 않는다", "절대 구매하지 않는다"],
    },
    "influences": {
        "en": ["Quality", "Brand reputation", "Sustainability", "Recommendations", "Price"],
        "de": ["Qualität", "Ruf der Marke", "Nachhaltigkeit", "Empfehlungen", "Preis"],
        "es": ["Calidad", "Reputación de la marca", "Sostenibilidad", "Recomendaciones", "Precio"],
        "zh": ["质量", "品牌声誉", "可持续性", "他人推荐", "价格"],
        "ko": ["품질", "브랜드 평판", "지속 가능성", "추천", "가격"],
    },
    "different": {
        "en": ["Very different", "Somewhat different", "Slightly different", "Not different"],
        "de": ["Sehr unterschiedlich", "Etwas unterschiedlich", "Kaum unterschiedlich", "Nicht unterschiedlich"],
        "es": ["Muy diferente", "Algo diferente", "Apenas diferente", "Nada diferente"],
        "zh": ["非常不同", "有些不同", "略有不同", "没有不同"],
        "ko": ["매우 다르다", "다소 다르다", "약간 다르다", "다르지 않다"],
    },
    "familiar": {
        "en": ["I know it well", "I know a little", "I know the name only", "Not at all"],
        "de": ["Ich kenne es gut", "Ich kenne es ein wenig", "Ich kenne nur den Namen", "Gar nicht"],
        "es": ["Lo conozco bien", "Lo conozco un poco", "Solo conozco el nombre", "Nada"],
        "zh": ["非常了解", "有些了解", "只听过名字", "完全不了解"],
        "ko": ["잘 안다", "조금 안다", "이름만 안다", "전혀 모른다"],
    },
    "channels": {
        "en": ["Friends and family", "Social media", "Online reviews", "In stores", "Advertising"],
        "de": ["Freunde und Familie", "Soziale Medien", "Online-Bewertungen", "Im Geschäft", "Werbung"],
        "es": ["Amigos y familia", "Redes sociales", "Reseñas en línea", "En tiendas", "Publicidad"],
        "zh": ["亲友", "社交媒体", "网上评论", "实体店", "广告"],
        "ko": ["친구와 가족", "소셜 미디어", "온라인 리뷰", "매장", "광고"],
    },
}
OPTIONS.update(STUDY_OPTIONS)
