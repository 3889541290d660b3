"""The sandbox planner's question wording in the five Study languages: every question a bank plans (price,
concept, awareness, preference, open reactions, Van Westendorp and Gabor-Granger price points), its scale anchors,
and generic follow-ups a refinement may add. Read through ``wording.phrase``; see ``wording`` for how each language
is written (articles, contractions, Korean particles written "을(를)").
"""

from __future__ import annotations

QUESTION_TEXT: dict[str, dict[str, str]] = {
    # ---- price
    "price_screen": {
        "en": "In the past 12 months, have you bought anything like {topic}?",
        "de": "Haben Sie in den letzten 12 Monaten etwas Ähnliches wie {topic} gekauft?",
        "es": "En los últimos 12 meses, ¿has comprado algo parecido a {topic}?",
        "zh": "在过去12个月里，您买过类似{topic}的产品吗？",
        "ko": "지난 12개월 동안 {topic}과(와) 비슷한 제품을 구매한 적이 있습니까?",
    },
    "price_paid": {
        "en": "You bought something similar recently. What did you pay, and how does {price} compare?",
        "de": "Sie haben kürzlich etwas Ähnliches gekauft. Wie viel haben Sie bezahlt, und wie schneiden {price} "
        "im Vergleich ab?",
        "es": "Has comprado algo parecido hace poco. ¿Cuánto pagaste y cómo se compara con {price}?",
        "zh": "您最近买过类似的产品。当时花了多少钱？与{price}相比如何？",
        "ko": "최근에 비슷한 제품을 구매하셨습니다. 얼마를 지불하셨고, {price} 가격과 비교하면 어떻습니까?",
    },
    "price_paid_open": {
        "en": "You bought something similar recently. What did you pay, and was it worth it?",
        "de": "Sie haben kürzlich etwas Ähnliches gekauft. Wie viel haben Sie bezahlt, und war es das wert?",
        "es": "Has comprado algo parecido hace poco. ¿Cuánto pagaste y valió la pena?",
        "zh": "您最近买过类似的产品。当时花了多少钱？值得吗？",
        "ko": "최근에 비슷한 제품을 구매하셨습니다. 얼마를 지불하셨고, 그만한 가치가 있었습니까?",
    },
    "price_rate": {
        "en": "How would you rate the value for money of {topic}{at}?",
        "de": "Wie bewerten Sie {topic}{at} im Hinblick auf das Preis-Leistungs-Verhältnis?",
        "es": "¿Cómo valoras la relación calidad-precio de {topic}{at}?",
        "zh": "您如何评价{at}{topic}的性价比？",
        "ko": "{at}{topic}의 가격 대비 가치를 어떻게 평가하십니까?",
    },
    "price_rate_low": {
        "en": "far too expensive",
        "de": "viel zu teuer",
        "es": "demasiado caro",
        "zh": "太贵了",
        "ko": "너무 비싸다",
    },
    "price_rate_high": {
        "en": "very good value",
        "de": "sehr preiswert",
        "es": "muy buena relación calidad-precio",
        "zh": "非常超值",
        "ko": "매우 합리적이다",
    },
    "price_wtp": {
        "en": "What is the most you would pay for {topic}? Please give an amount in {currency}.",
        "de": "Wie viel würden Sie höchstens für {topic} bezahlen? Bitte nennen Sie einen Betrag in {currency}.",
        "es": "¿Cuánto es lo máximo que pagarías por {topic}? Indica un importe en {currency}.",
        "zh": "您最多愿意为{topic}支付多少钱？请给出一个以{currency}计的金额。",
        "ko": "{topic}에 최대 얼마까지 지불하시겠습니까? {currency} 기준 금액으로 답해 주십시오.",
    },
    # Van Westendorp's four price points and Gabor-Granger's price ladder (when the request names the method)
    "vw_too_cheap": {
        "en": "At what price would {topic} be so cheap that you would doubt its quality? Please give an amount in "
        "{currency}.",
        "de": "Ab welchem Preis würden Sie {topic} für so billig halten, dass Sie an der Qualität zweifeln würden? "
        "Bitte nennen Sie einen Betrag in {currency}.",
        "es": "¿Por debajo de qué precio dudarías de la calidad de {topic}? Indica un importe en {currency}.",
        "zh": "{topic}价格低到多少时，您会怀疑它的质量？请给出一个以{currency}计的金额。",
        "ko": "{topic}의 가격이 얼마일 때 너무 싸서 품질이 의심되겠습니까? {currency} 기준 금액으로 답해 주십시오.",
    },
    "vw_cheap": {
        "en": "At what price would {topic} be a bargain, a great buy for the money? Please give an amount in "
        "{currency}.",
        "de": "Zu welchem Preis würden Sie {topic} als Schnäppchen ansehen, also als guten Kauf für das Geld? Bitte "
        "nennen Sie einen Betrag in {currency}.",
        "es": "¿A qué precio comprar {topic} sería una ganga, una gran compra por el dinero? Indica un importe en "
        "{currency}.",
        "zh": "{topic}价格为多少时，您会觉得很划算、物超所值？请给出一个以{currency}计的金额。",
        "ko": "{topic}의 가격이 얼마일 때 돈값을 하는 좋은 구매라고 느끼겠습니까? {currency} 기준 금액으로 답해 "
        "주십시오.",
    },
    "vw_expensive": {
        "en": "At what price would {topic} start to seem expensive, though you would still consider buying it? "
        "Please give an amount in {currency}.",
        "de": "Ab welchem Preis würden Sie {topic} als teuer empfinden, einen Kauf aber noch in Betracht ziehen? "
        "Bitte nennen Sie einen Betrag in {currency}.",
        "es": "¿A partir de qué precio comprar {topic} te parecería caro, aunque aún te lo plantearías? Indica un "
        "importe en {currency}.",
        "zh": "{topic}价格高到多少时，您会觉得贵，但仍会考虑购买？请给出一个以{currency}计的金额。",
        "ko": "{topic}의 가격이 얼마부터 비싸다고 느끼지만 여전히 구매를 고려하겠습니까? {currency} 기준 금액으로 "
        "답해 주십시오.",
    },
    "vw_too_expensive": {
        "en": "At what price would {topic} be too expensive for you to consider at all? Please give an amount in "
        "{currency}.",
        "de": "Ab welchem Preis würden Sie {topic} für zu teuer halten, um einen Kauf überhaupt in Betracht zu "
        "ziehen? Bitte nennen Sie einen Betrag in {currency}.",
        "es": "¿A partir de qué precio comprar {topic} sería demasiado caro como para planteártelo? Indica un "
        "importe en {currency}.",
        "zh": "{topic}价格高到多少时，您会觉得太贵而完全不考虑？请给出一个以{currency}计的金额。",
        "ko": "{topic}의 가격이 얼마부터 너무 비싸서 아예 고려하지 않겠습니까? {currency} 기준 금액으로 답해 주십시오.",
    },
    "gg_buy": {
        "en": "Would you buy {topic} at {price}?",
        "de": "Würden Sie {topic} für {price} kaufen?",
        "es": "¿Comprarías {topic} a {price}?",
        "zh": "如果{topic}售价{price}，您会购买吗？",
        "ko": "{topic}이(가) {price}라면 구매하시겠습니까?",
    },
    "price_why": {
        "en": "Why that amount? What makes {topic} worth paying for, or not, to you?",
        "de": "Warum dieser Betrag? Was spricht für Sie dafür, für {topic} zu bezahlen, und was dagegen?",
        "es": "¿Por qué esa cantidad? ¿Qué te convence y qué no a la hora de pagar por {topic}?",
        "zh": "为什么是这个金额？{topic}有哪些地方值得花钱、哪些地方不值得？",
        "ko": "왜 그 금액입니까? {topic}의 어떤 점이 돈을 낼 만하고 어떤 점이 그렇지 않은지 말씀해 주십시오.",
    },
    "price_why_points": {
        "en": "What makes {topic} worth its price to you, or not? Please explain why.",
        "de": "Was spricht aus Ihrer Sicht dafür, für {topic} zu bezahlen, und was dagegen? Bitte erklären Sie, warum.",
        "es": "¿Qué te convence y qué no a la hora de pagar por {topic}? Explica por qué.",
        "zh": "{topic}有哪些地方值得花钱、哪些地方不值得？请说明原因。",
        "ko": "{topic}의 어떤 점이 돈을 낼 만하고 어떤 점이 그렇지 않습니까? 이유를 말씀해 주십시오.",
    },
    "price_likely": {
        "en": "How likely would you be to buy {topic}{at}?",
        "de": "Wie wahrscheinlich würden Sie {topic}{at} kaufen?",
        "es": "¿Qué probabilidad hay de que compres {topic}{at}?",
        "zh": "您购买{at}{topic}的可能性有多大？",
        "ko": "{at}{topic}을(를) 구매할 가능성은 얼마나 됩니까?",
    },
    "likely_low": {
        "en": "definitely would not",
        "de": "auf keinen Fall",
        "es": "seguro que no",
        "zh": "肯定不会",
        "ko": "절대 아니다",
    },
    "likely_high": {
        "en": "definitely would",
        "de": "auf jeden Fall",
        "es": "seguro que sí",
        "zh": "肯定会",
        "ko": "반드시 그렇다",
    },
    "price_describe": {
        "en": "Which best describes the price of {topic}{at}?",
        "de": "Was beschreibt Ihre Sicht auf {topic}{at} am besten?",
        "es": "¿Qué describe mejor el precio de {topic}{at}?",
        "zh": "以下哪项最能描述{at}{topic}的价格？",
        "ko": "{at}{topic}의 가격을 가장 잘 설명하는 것은 무엇입니까?",
    },
    "price_worth": {
        "en": "Which of these would make {topic} worth its price to you?",
        "de": "Was davon wäre für Sie ein Grund, für {topic} diesen Preis zu zahlen?",
        "es": "¿Cuáles de estos aspectos te harían pagar ese precio por {topic}?",
        "zh": "以下哪些因素会让您觉得{topic}物有所值？",
        "ko": "다음 중 {topic}이(가) 그 가격만큼의 가치가 있다고 느끼게 하는 것은 무엇입니까?",
    },
    "price_barrier": {
        "en": "What, if anything, would stop you from buying {topic}{at}?",
        "de": "Was würde Sie gegebenenfalls davon abhalten, {topic}{at} zu kaufen?",
        "es": "¿Qué te impediría, si acaso, comprar {topic}{at}?",
        "zh": "如果有的话，什么会让您不购买{at}{topic}？",
        "ko": "{at}{topic}을(를) 구매하지 않을 이유가 있다면 무엇입니까?",
    },
    "recommend": {
        "en": "How likely are you to recommend {topic} to a friend or colleague?",
        "de": "Wie wahrscheinlich ist es, dass Sie {topic} einem Freund oder Kollegen empfehlen?",
        "es": "¿Qué probabilidad hay de que recomiendes {topic} a un amigo o colega?",
        "zh": "您向朋友或同事推荐{topic}的可能性有多大？",
        "ko": "{topic}을(를) 친구나 동료에게 추천할 가능성은 얼마나 됩니까?",
    },
    # ---- concept
    "concept_shown": {
        "en": 'Please read this description of {topic}: "{description}". In a sentence or two, what is your first '
        "reaction?",
        "de": "Lesen Sie diese Beschreibung: „{description}“. Was ist Ihr erster Eindruck, in ein oder zwei Sätzen?",
        "es": "Lee esta descripción: «{description}». En una o dos frases, ¿cuál es tu primera reacción?",
        "zh": "以下是对{topic}的描述：“{description}”。请用一两句话说说您的第一反应。",
        "ko": "{topic}에 대한 설명입니다: “{description}”. 첫 반응을 한두 문장으로 말씀해 주십시오.",
    },
    "concept_reaction": {
        "en": "In a sentence or two, what is your first reaction to {topic}?",
        "de": "Was denken Sie spontan über {topic}? Bitte antworten Sie in ein oder zwei Sätzen.",
        "es": "En una o dos frases, ¿cuál es tu primera reacción ante {topic}?",
        "zh": "请用一两句话说说您对{topic}的第一反应。",
        "ko": "{topic}에 대한 첫 반응을 한두 문장으로 말씀해 주십시오.",
    },
    "concept_appeal": {
        "en": "How appealing do you find {topic}?",
        "de": "Wie ansprechend finden Sie {topic}?",
        "es": "¿Cuánto interés sientes por {topic}?",
        "zh": "{topic}对您有多大吸引力？",
        "ko": "{topic}은(는) 얼마나 매력적입니까?",
    },
    "appeal_low": {
        "en": "not at all appealing",
        "de": "überhaupt nicht ansprechend",
        "es": "ningún interés",
        "zh": "毫无吸引力",
        "ko": "전혀 매력적이지 않다",
    },
    "appeal_high": {
        "en": "very appealing",
        "de": "sehr ansprechend",
        "es": "mucho interés",
        "zh": "非常有吸引力",
        "ko": "매우 매력적이다",
    },
    "concept_why": {
        "en": "Why do you find {topic} appealing, or not? Please explain in your own words.",
        "de": "Warum finden Sie {topic} ansprechend oder nicht? Bitte erklären Sie es in Ihren eigenen Worten.",
        "es": "¿Qué te atrae y qué no de {topic}? Explícalo con tus propias palabras.",
        "zh": "您为什么觉得{topic}有吸引力或没有吸引力？请用自己的话说明。",
        "ko": "{topic}이(가) 매력적이거나 그렇지 않은 이유는 무엇입니까? 직접 설명해 주십시오.",
    },
    "concept_consider": {
        "en": "Would you consider {topic} for yourself?",
        "de": "Würden Sie {topic} für sich persönlich in Betracht ziehen?",
        "es": "¿Te plantearías {topic} para ti?",
        "zh": "您会考虑为自己选择{topic}吗？",
        "ko": "{topic}을(를) 본인을 위해 고려하시겠습니까?",
    },
    "concept_use": {
        "en": "You would consider {topic}. What would you use it for first?",
        "de": "Sie würden {topic} in Betracht ziehen. Wofür würden Sie es zuerst nutzen?",
        "es": "Te plantearías {topic}. ¿Cuál sería su primer uso para ti?",
        "zh": "您会考虑{topic}。您最先会把它用在什么场合？",
        "ko": "{topic}을(를) 고려하신다고 하셨습니다. 가장 먼저 어디에 사용하시겠습니까?",
    },
    "concept_believe": {
        "en": "How believable do you find {topic}?",
        "de": "Wie glaubwürdig finden Sie {topic}?",
        "es": "¿Qué tan creíbles te parecen las promesas de {topic}?",
        "zh": "您觉得{topic}有多可信？",
        "ko": "{topic}은(는) 얼마나 믿을 만합니까?",
    },
    "believe_low": {
        "en": "not at all believable",
        "de": "überhaupt nicht glaubwürdig",
        "es": "nada creíble",
        "zh": "完全不可信",
        "ko": "전혀 믿을 수 없다",
    },
    "believe_high": {
        "en": "completely believable",
        "de": "völlig glaubwürdig",
        "es": "totalmente creíble",
        "zh": "完全可信",
        "ko": "완전히 믿을 수 있다",
    },
    "concept_different": {
        "en": "How different do you find {topic} from what is available today?",
        "de": "Wie unterschiedlich finden Sie {topic} im Vergleich zu dem, was es heute gibt?",
        "es": "¿Cuánta diferencia ves entre {topic} y lo que hay hoy?",
        "zh": "{topic}与现有产品有多大不同？",
        "ko": "{topic}은(는) 현재 나와 있는 것과 얼마나 다릅니까?",
    },
    "concept_barrier": {
        "en": "What, if anything, would put you off {topic}?",
        "de": "Was spricht aus Ihrer Sicht gegen {topic}?",
        "es": "¿Qué te echaría para atrás de {topic}, si acaso?",
        "zh": "如果有的话，{topic}有什么地方会让您却步？",
        "ko": "{topic}에서 망설이게 하는 점이 있다면 무엇입니까?",
    },
    "influence": {
        "en": "Which of these would most influence whether you choose {topic}?",
        "de": "Was davon würde am stärksten beeinflussen, ob Sie sich für {topic} entscheiden?",
        "es": "¿Cuáles de estos aspectos influirían más en que elijas {topic}?",
        "zh": "以下哪些因素最能影响您是否选择{topic}？",
        "ko": "다음 중 {topic}의 선택에 가장 큰 영향을 주는 것은 무엇입니까?",
    },
    # ---- awareness
    "aware_heard": {
        "en": "Before today, had you heard of {topic}?",
        "de": "Kannten Sie {topic} schon vor heute?",
        "es": "Antes de hoy, ¿habías oído hablar de {topic}?",
        "zh": "在今天之前，您听说过{topic}吗？",
        "ko": "오늘 이전에 {topic}에 대해 들어 본 적이 있습니까?",
    },
    "aware_where": {
        "en": "You had heard of {topic}. Where did you first come across it, and what do you know about it?",
        "de": "Sie kannten {topic} schon. Wo sind Sie zum ersten Mal darauf gestoßen, und was wissen Sie darüber?",
        "es": "Habías oído hablar de {topic}. ¿Dónde oíste hablar de ello por primera vez y qué sabes al respecto?",
        "zh": "您听说过{topic}。您最早是在哪里了解到的？您对它了解多少？",
        "ko": "{topic}에 대해 들어 보셨다고 하셨습니다. 처음 어디에서 접하셨고, 무엇을 알고 계십니까?",
    },
    "aware_assoc": {
        "en": "What comes to mind when you think of {topic}, and why?",
        "de": "Woran denken Sie, wenn Sie an {topic} denken, und warum?",
        "es": "¿Qué te viene a la mente cuando piensas en {topic}, y por qué?",
        "zh": "想到{topic}时，您会联想到什么？为什么？",
        "ko": "{topic} 하면 무엇이 떠오르며, 그 이유는 무엇입니까?",
    },
    "aware_impression": {
        "en": "What is your overall impression of {topic}?",
        "de": "Wie beurteilen Sie {topic} insgesamt?",
        "es": "¿Cuál es tu impresión general de {topic}?",
        "zh": "您对{topic}的总体印象如何？",
        "ko": "{topic}에 대한 전반적인 인상은 어떻습니까?",
    },
    "negative": {
        "en": "very negative",
        "de": "sehr negativ",
        "es": "muy negativa",
        "zh": "非常负面",
        "ko": "매우 부정적",
    },
    "positive": {
        "en": "very positive",
        "de": "sehr positiv",
        "es": "muy positiva",
        "zh": "非常正面",
        "ko": "매우 긍정적",
    },
    "aware_familiar": {
        "en": "How familiar are you with {topic}?",
        "de": "Wie gut kennen Sie {topic}?",
        "es": "¿Cuánto conoces {topic}?",
        "zh": "您对{topic}有多熟悉？",
        "ko": "{topic}에 대해 얼마나 잘 알고 계십니까?",
    },
    "aware_channels": {
        "en": "Where do you usually hear about new products like this?",
        "de": "Wo erfahren Sie normalerweise von neuen Produkten wie diesem?",
        "es": "¿Dónde sueles enterarte de productos nuevos como este?",
        "zh": "您通常从哪里了解到这类新产品？",
        "ko": "이와 같은 신제품 소식은 주로 어디에서 접하십니까?",
    },
    # ---- preference
    "pref_choice": {
        "en": "Which do you prefer: {first} or {second}?",
        "de": "Was bevorzugen Sie: {first} oder {second}?",
        "es": "¿Qué prefieres: {first} o {second}?",
        "zh": "您更喜欢哪一个：{first}还是{second}？",
        "ko": "{first}과(와) {second} 중 무엇을 더 선호하십니까?",
    },
    "pref_why": {
        "en": "Why do you prefer it? What is the main reason for your choice?",
        "de": "Warum bevorzugen Sie es? Was ist der wichtigste Grund für Ihre Wahl?",
        "es": "¿Por qué lo prefieres? ¿Cuál es el motivo principal de tu elección?",
        "zh": "您为什么更喜欢它？做出这个选择的主要原因是什么？",
        "ko": "왜 그것을 더 선호하십니까? 선택한 주된 이유는 무엇입니까?",
    },
    "pref_strength": {
        "en": "How strongly do you prefer your choice?",
        "de": "Wie stark bevorzugen Sie Ihre Wahl?",
        "es": "¿Con qué fuerza prefieres tu elección?",
        "zh": "您对自己的选择有多强烈的偏好？",
        "ko": "선택하신 것을 얼마나 강하게 선호하십니까?",
    },
    "pref_low": {"en": "only slightly", "de": "nur leicht", "es": "solo un poco", "zh": "略微偏好", "ko": "약간"},
    "pref_high": {"en": "very strongly", "de": "sehr stark", "es": "muchísimo", "zh": "非常强烈", "ko": "매우 강하게"},
    "pref_none": {
        "en": "You had no preference. What would make you choose one over the other?",
        "de": "Sie hatten keine Präferenz. Was würde Sie dazu bringen, sich für eine der beiden Optionen zu "
        "entscheiden?",
        "es": "No tenías preferencia. ¿Qué haría que eligieras una opción en lugar de la otra?",
        "zh": "您没有偏好。什么会让您选择其中一个？",
        "ko": "선호가 없다고 하셨습니다. 어떤 점이 있으면 둘 중 하나를 선택하시겠습니까?",
    },
    "pref_appeal": {
        "en": "How appealing do you find {option}?",
        "de": "Wie ansprechend finden Sie {option}?",
        "es": "¿Cuánto interés sientes por {option}?",
        "zh": "{option}对您有多大吸引力？",
        "ko": "{option}은(는) 얼마나 매력적입니까?",
    },
    # ---- open reactions
    "open_used": {
        "en": "Have you used anything like {topic} before?",
        "de": "Haben Sie schon einmal etwas Ähnliches wie {topic} genutzt?",
        "es": "¿Has usado antes algo parecido a {topic}?",
        "zh": "您以前用过类似{topic}的东西吗？",
        "ko": "이전에 {topic}과(와) 비슷한 것을 사용해 본 적이 있습니까?",
    },
    "open_compare": {
        "en": "You have used something similar. What was it, and how did it compare?",
        "de": "Sie haben schon etwas Ähnliches genutzt. Was war es, und wie schneidet es im Vergleich ab?",
        "es": "Ya has usado algo parecido. ¿Qué era y cómo se compara?",
        "zh": "您用过类似的东西。那是什么？相比之下如何？",
        "ko": "비슷한 것을 사용해 보셨습니다. 무엇이었고, 비교하면 어떻습니까?",
    },
    "open_feel": {
        "en": "Overall, how do you feel about {topic}?",
        "de": "Wie finden Sie {topic} insgesamt?",
        "es": "En general, ¿qué opinas de {topic}?",
        "zh": "总体而言，您对{topic}感觉如何？",
        "ko": "전반적으로 {topic}에 대해 어떻게 생각하십니까?",
    },
    "open_why": {
        "en": "What do you like most about {topic}, and what would put you off? Please say why.",
        "de": "Was gefällt Ihnen am meisten, wenn Sie an {topic} denken, und was schreckt Sie ab? "
        "Bitte sagen Sie, warum.",
        "es": "¿Qué es lo que más te gusta de {topic} y qué te echaría para atrás? Explica por qué.",
        "zh": "您最喜欢{topic}的哪一点？什么会让您却步？请说明原因。",
        "ko": "{topic}에서 가장 마음에 드는 점과 망설이게 하는 점은 무엇입니까? 이유도 말씀해 주십시오.",
    },
    # ---- generic follow-ups (for questions a refinement adds; no topic needed)
    "why_generic": {
        "en": "Why do you say that? Please explain in your own words.",
        "de": "Warum sagen Sie das? Bitte erklären Sie es in Ihren eigenen Worten.",
        "es": "¿Por qué lo dices? Explícalo con tus propias palabras.",
        "zh": "您为什么这么说？请用自己的话说明。",
        "ko": "왜 그렇게 생각하십니까? 직접 설명해 주십시오.",
    },
    "prefer_among": {
        "en": "Which of these do you prefer?",
        "de": "Welche dieser Optionen bevorzugen Sie?",
        "es": "¿Cuál de estas opciones prefieres?",
        "zh": "在这些选项中，您更喜欢哪一个？",
        "ko": "다음 중 어느 것을 더 선호하십니까?",
    },
}
