"""The words of the study types' own questions in the five Study languages: the concept test (likes and
dislikes, relevance to one's needs, purchase intent), the message test (main takeaway, persuasion, memorability,
fit with the brand, what convinces, interest), awareness and usage (unaided awareness, how often, brands used,
satisfaction), NPS's why, their scale anchors, module titles, objectives and confirmation questions. Read through
``wording.phrase`` and ``wording.choices``; written as ``wording`` describes (German "Sie" with the topic in the
accusative, Spanish "tú", Korean particles written "을(를)").
"""

from __future__ import annotations

STUDY_TEXT: dict[str, dict[str, str]] = {
    # ---- concept test
    "concept_likes": {
        "en": "What do you like most about {topic}, and what do you like least? Please say why.",
        "de": "Was gefällt Ihnen am meisten, wenn Sie an {topic} denken, und was am wenigsten? Bitte sagen Sie, "
        "warum.",
        "es": "¿Qué es lo que más te gusta de {topic} y qué es lo que menos? Explica por qué.",
        "zh": "您最喜欢{topic}的哪一点？最不喜欢哪一点？请说明原因。",
        "ko": "{topic}에서 가장 마음에 드는 점과 가장 마음에 들지 않는 점은 무엇입니까? 이유도 말씀해 주십시오.",
    },
    "concept_relevance": {
        "en": "How well does {topic} fit your needs?",
        "de": "Wie passend finden Sie {topic} für Ihre Bedürfnisse?",
        "es": "¿Cómo valoras el encaje de {topic} con tus necesidades?",
        "zh": "{topic}有多符合您的需求？",
        "ko": "{topic}은(는) 귀하의 필요에 얼마나 잘 맞습니까?",
    },
    "concept_intent": {
        "en": "If {topic} were available, how likely would you be to buy or use it?",
        "de": "Wie wahrscheinlich würden Sie {topic} kaufen oder nutzen, wenn es erhältlich wäre?",
        "es": "Si tuvieras la opción, ¿qué probabilidad hay de que compres o uses {topic}?",
        "zh": "如果{topic}上市，您购买或使用它的可能性有多大？",
        "ko": "{topic}이(가) 출시된다면 구매하거나 사용할 가능성은 얼마나 됩니까?",
    },
    "fit_low": {
        "en": "not at all",
        "de": "überhaupt nicht passend",
        "es": "nada",
        "zh": "完全不符合",
        "ko": "전혀 맞지 않는다",
    },
    "fit_high": {"en": "very well", "de": "sehr passend", "es": "muy bien", "zh": "非常符合", "ko": "매우 잘 맞는다"},
    # ---- message test
    "msg_takeaway": {
        "en": "In your own words, what is the main message {topic} gets across to you?",
        "de": "Welche Hauptaussage nehmen Sie mit, wenn Sie {topic} sehen? Bitte antworten Sie in Ihren eigenen "
        "Worten.",
        "es": "Con tus propias palabras, ¿cuál es el mensaje principal que te transmite {topic}?",
        "zh": "用您自己的话说，{topic}想要向您传达的主要信息是什么？",
        "ko": "{topic}에서 가장 핵심적으로 전달되는 내용은 무엇이라고 이해하셨습니까? 직접 말씀해 주십시오.",
    },
    "msg_persuasive": {
        "en": "How persuasive do you find {topic}?",
        "de": "Wie überzeugend finden Sie {topic}?",
        "es": "¿Qué tan convincente te parece {topic}?",
        "zh": "您觉得{topic}有多大说服力？",
        "ko": "{topic}은(는) 얼마나 설득력이 있습니까?",
    },
    "persuasive_low": {
        "en": "not at all persuasive",
        "de": "überhaupt nicht überzeugend",
        "es": "nada convincente",
        "zh": "毫无说服力",
        "ko": "전혀 설득력이 없다",
    },
    "persuasive_high": {
        "en": "very persuasive",
        "de": "sehr überzeugend",
        "es": "muy convincente",
        "zh": "非常有说服力",
        "ko": "매우 설득력이 있다",
    },
    "msg_memorable": {
        "en": "How memorable do you find {topic}?",
        "de": "Wie einprägsam finden Sie {topic}?",
        "es": "¿Qué tan fácil de recordar te parece {topic}?",
        "zh": "您觉得{topic}有多容易让人记住？",
        "ko": "{topic}은(는) 얼마나 기억에 남습니까?",
    },
    "memorable_low": {
        "en": "easily forgotten",
        "de": "schnell vergessen",
        "es": "se olvida enseguida",
        "zh": "很快就会忘记",
        "ko": "전혀 기억에 남지 않는다",
    },
    "memorable_high": {
        "en": "very memorable",
        "de": "sehr einprägsam",
        "es": "muy fácil de recordar",
        "zh": "非常难忘",
        "ko": "매우 기억에 남는다",
    },
    "msg_brand_fit": {
        "en": "How well does {topic} fit the brand behind it?",
        "de": "Wie passend finden Sie {topic} für die Marke, die dahintersteht?",
        "es": "¿Qué tan bien encaja {topic} con la marca que lo firma?",
        "zh": "{topic}与其背后的品牌有多相符？",
        "ko": "{topic}은(는) 이를 전하는 브랜드와 얼마나 잘 맞습니까?",
    },
    "msg_why": {
        "en": "What in {topic} convinces you, and what does not? Please say why.",
        "de": "Was überzeugt Sie, wenn Sie an {topic} denken, und was nicht? Bitte sagen Sie, warum.",
        "es": "¿Qué te convence de {topic} y qué no? Explica por qué.",
        "zh": "{topic}中有哪些地方让您信服，哪些地方没有？请说明原因。",
        "ko": "{topic}에서 설득력 있게 느껴지는 점과 그렇지 않은 점은 무엇입니까? 이유도 말씀해 주십시오.",
    },
    "msg_interest": {
        "en": "After seeing {topic}, how interested are you in finding out more about the brand?",
        "de": "Wie sehr möchten Sie mehr über die Marke erfahren, nachdem Sie {topic} gesehen haben?",
        "es": "Después de ver {topic}, ¿cuánto interés tienes en saber más sobre la marca?",
        "zh": "看到{topic}后，您有多想进一步了解这个品牌？",
        "ko": "{topic}을(를) 본 뒤 해당 브랜드에 대해 더 알아보고 싶은 마음이 얼마나 듭니까?",
    },
    "interest_low": {
        "en": "not at all interested",
        "de": "überhaupt nicht",
        "es": "ningún interés",
        "zh": "完全不想",
        "ko": "전혀 없다",
    },
    "interest_high": {
        "en": "very interested",
        "de": "sehr stark",
        "es": "mucho interés",
        "zh": "非常想",
        "ko": "매우 크다",
    },
    # ---- NPS
    "nps_why": {
        "en": "What is the main reason for your score? Why would you, or wouldn't you, recommend {topic}?",
        "de": "Was ist der wichtigste Grund für Ihre Bewertung? Warum würden Sie {topic} weiterempfehlen oder "
        "nicht?",
        "es": "¿Cuál es el motivo principal de tu puntuación? ¿Por qué recomendarías {topic}, o por qué no?",
        "zh": "您给出这个分数的主要原因是什么？您为什么会或不会推荐{topic}？",
        "ko": "그 점수를 주신 가장 큰 이유는 무엇입니까? {topic}을(를) 추천하거나 추천하지 않으실 이유를 말씀해 "
        "주십시오.",
    },
    # ---- awareness and usage
    "aware_unaided": {
        "en": "Which brands come to mind first when you think of products like {topic}?",
        "de": "Welche Marken fallen Ihnen als Erstes ein, wenn Sie an Produkte wie {topic} denken?",
        "es": "¿Qué marcas te vienen primero a la mente cuando piensas en productos como {topic}?",
        "zh": "想到类似{topic}的产品时，您首先想到哪些品牌？",
        "ko": "{topic}과(와) 같은 제품을 떠올릴 때 가장 먼저 생각나는 브랜드는 무엇입니까?",
    },
    "usage_frequency": {
        "en": "How often do you use {topic}?",
        "de": "Wie oft nutzen Sie {topic}?",
        "es": "¿Con qué frecuencia usas {topic}?",
        "zh": "您多久使用一次{topic}？",
        "ko": "{topic}을(를) 얼마나 자주 사용하십니까?",
    },
    "usage_brands": {
        "en": "Which brands of products like {topic} have you used in the past 3 months?",
        "de": "Welche Marken von Produkten wie {topic} haben Sie in den letzten 3 Monaten genutzt?",
        "es": "¿Qué marcas de productos como {topic} has usado en los últimos 3 meses?",
        "zh": "过去3个月里，您用过哪些类似{topic}的产品品牌？",
        "ko": "지난 3개월 동안 {topic}과(와) 같은 제품 중 어떤 브랜드를 사용해 보셨습니까?",
    },
    "usage_satisfaction": {
        "en": "How satisfied are you with the products of this kind you use today?",
        "de": "Wie zufrieden sind Sie mit den Produkten dieser Art, die Sie heute nutzen?",
        "es": "¿Qué tan satisfecho estás con los productos de este tipo que usas hoy?",
        "zh": "您对目前使用的同类产品有多满意？",
        "ko": "현재 사용하시는 같은 종류의 제품에 얼마나 만족하십니까?",
    },
    "satisfied_low": {
        "en": "very dissatisfied",
        "de": "sehr unzufrieden",
        "es": "muy insatisfecho",
        "zh": "非常不满意",
        "ko": "매우 불만족",
    },
    "satisfied_high": {
        "en": "very satisfied",
        "de": "sehr zufrieden",
        "es": "muy satisfecho",
        "zh": "非常满意",
        "ko": "매우 만족",
    },
    "usage_satisfaction_why": {
        "en": "Why do you feel that way? What would make you more satisfied?",
        "de": "Warum sehen Sie das so? Was würde Sie zufriedener machen?",
        "es": "¿Por qué lo ves así? ¿Qué haría que estuvieras más satisfecho?",
        "zh": "您为什么这样觉得？怎样才能让您更满意？",
        "ko": "그렇게 느끼시는 이유는 무엇입니까? 무엇이 있으면 더 만족하시겠습니까?",
    },
    # ---- module titles
    "module_fit": {
        "en": "Fit and intent",
        "de": "Passung und Kaufabsicht",
        "es": "Encaje e intención",
        "zh": "契合度与意向",
        "ko": "적합성과 의향",
    },
    "module_understanding": {
        "en": "Understanding",
        "de": "Verständnis",
        "es": "Comprensión",
        "zh": "理解",
        "ko": "이해도",
    },
    "module_impact": {
        "en": "Persuasion and memorability",
        "de": "Überzeugungskraft und Erinnerung",
        "es": "Persuasión y recuerdo",
        "zh": "说服力与记忆度",
        "ko": "설득력과 기억도",
    },
    "module_brand": {
        "en": "Brand fit",
        "de": "Passung zur Marke",
        "es": "Encaje con la marca",
        "zh": "品牌契合度",
        "ko": "브랜드 적합성",
    },
    "module_usage": {
        "en": "Usage and satisfaction",
        "de": "Nutzung und Zufriedenheit",
        "es": "Uso y satisfacción",
        "zh": "使用与满意度",
        "ko": "사용과 만족도",
    },
    # ---- objectives and confirmation questions
    "objective_message": {
        "en": "Test what {who} take from {topic}: how persuasive, memorable and believable they find it, and how "
        "well it fits the brand.",
        "de": "Testen, wie {who} {topic} verstehen, wie überzeugend, einprägsam und glaubwürdig sie es finden und "
        "wie gut es zur Marke passt.",
        "es": "Comprobar qué entienden {who} de {topic}: cuán convincente, fácil de recordar y creíble les parece, "
        "y cómo encaja con la marca.",
        "zh": "测试{who}从{topic}中获得了什么信息：它的说服力、记忆度、可信度，以及与品牌的契合度。",
        "ko": "{who}이(가) {topic}을(를) 어떻게 이해하는지, 얼마나 설득력 있고 기억에 남으며 믿을 만하다고 "
        "느끼는지, 브랜드와 얼마나 잘 맞는지 알아봅니다.",
    },
    "objective_nps": {
        "en": "Find out how likely {who} are to recommend {topic}, and why.",
        "de": "Herausfinden, wie wahrscheinlich {who} {topic} weiterempfehlen würden und warum.",
        "es": "Averiguar con qué probabilidad recomendarían {who} {topic}, y por qué.",
        "zh": "了解{who}推荐{topic}的可能性有多大，以及原因。",
        "ko": "{who}이(가) {topic}을(를) 추천할 가능성이 얼마나 되는지, 그 이유는 무엇인지 알아봅니다.",
    },
    "confirm_message": {
        "en": "Will people see {topic} together with your brand name?",
        "de": "Sehen die Befragten {topic} zusammen mit Ihrem Markennamen?",
        "es": "¿Verán las personas {topic} junto con el nombre de tu marca?",
        "zh": "人们看到{topic}时，会同时看到您的品牌名称吗？",
        "ko": "사람들이 {topic}을(를) 볼 때 귀사의 브랜드명이 함께 표시됩니까?",
    },
    "confirm_nps": {
        "en": "Can people already buy {topic}?",
        "de": "Kann man {topic} bereits kaufen?",
        "es": "¿Ya es posible comprar {topic}?",
        "zh": "{topic}已经可以购买了吗？",
        "ko": "{topic}은(는) 이미 구매할 수 있습니까?",
    },
    "topic_product": {"en": "the product", "de": "das Produkt", "es": "el producto", "zh": "这款产品", "ko": "이 제품"},
}

STUDY_OPTIONS: dict[str, dict[str, list[str]]] = {
    "frequency": {
        "en": ["Daily", "Weekly", "Monthly", "Less often", "Never"],
        "de": ["Täglich", "Wöchentlich", "Monatlich", "Seltener", "Nie"],
        "es": ["A diario", "Cada semana", "Cada mes", "Con menos frecuencia", "Nunca"],
        "zh": ["每天", "每周", "每月", "更少", "从不"],
        "ko": ["매일", "매주", "매달", "그보다 드물게", "사용하지 않음"],
    },
}
