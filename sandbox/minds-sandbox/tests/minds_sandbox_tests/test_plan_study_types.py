"""Issue 36: every study type is planned as such in all five Study languages — a concept test, a message test,
awareness and usage, preference between options, pricing (with and without Van Westendorp or Gabor-Granger named in
any wording) and NPS — each with its own questions (their kinds, as the instrument names them, and the words a
respondent reads in that language), no price question where the brief does not ask about price, a topic that is a
short noun phrase and never the request, and the same plan for the same request."""

from __future__ import annotations

import pytest

from minds_sandbox import instruments, planner
from minds_sandbox.planner import AudienceRef

ONE = [AudienceRef(id="a1", name="Young professionals in Seoul")]
LANGS = ("en", "de", "es", "zh", "ko")

CONCEPT = {
    "en": "Concept test: how do young parents react to our new oat cereal 'Morning Joy'?",
    "de": "Konzepttest: Wie kommt unser neues Hafer-Müsli 'Morgenglück' bei jungen Familien an?",
    "es": "Prueba de concepto: ¿qué opinan las familias jóvenes de nuestros nuevos cereales de avena?",
    "zh": "概念测试：年轻家庭对我们的新燕麦麦片有什么反应？",
    "ko": "콘셉트 테스트: 젊은 가족들은 우리 새 귀리 시리얼을 어떻게 생각할까요?",
}
MESSAGE = {
    "en": "Message test: is our new ad message persuasive and memorable for young professionals?",
    "de": "Ist unsere neue Werbebotschaft für junge Berufstätige überzeugend und einprägsam?",
    "es": "¿Es convincente y fácil de recordar nuestro nuevo mensaje publicitario para jóvenes profesionales?",
    "zh": "我们的新广告语对年轻上班族是否有说服力、是否令人难忘？",
    "ko": "새 광고 메시지가 20대 직장인에게 설득력 있고 기억에 남는지 알고 싶습니다",
}
USAGE = {
    "en": "Awareness and usage of our oat milk among students",
    "de": "Wie bekannt ist unsere Hafermilch bei Studierenden und wie oft nutzen sie sie?",
    "es": "¿Conocen los estudiantes nuestra leche de avena y con qué frecuencia la usan?",
    "zh": "大学生知道我们的燕麦奶吗？他们多久使用一次？",
    "ko": "대학생들은 우리 귀리 우유를 알고 있을까요? 얼마나 자주 사용하나요?",
}
PREFERENCE = {
    "en": ("Would families prefer oat milk or almond milk?", ("oat milk", "almond milk")),
    "de": ("Bevorzugen junge Familien Hafermilch oder Mandelmilch?", ("Hafermilch", "Mandelmilch")),
    "es": (
        "¿Prefieren las familias jóvenes la leche de avena o la leche de almendra?",
        ("la leche de avena", "la leche de almendra"),
    ),
    "zh": ("年轻家庭更喜欢燕麦奶还是杏仁奶？", ("燕麦奶", "杏仁奶")),
    "ko": ("젊은 가족들은 두유와 우유 중 무엇을 더 좋아할까요?", ("두유", "우유")),
}
PRICING = {
    "en": "How do Gen Z sneaker buyers in Germany feel about a 140 EUR price for our new running shoe?",
    "de": "Wie finden Gen-Z-Sneakerkäufer in Deutschland einen Preis von 140 EUR für unseren neuen Laufschuh?",
    "es": "¿Qué opinan los jóvenes de la Generación Z de un precio de 140 EUR para nuestras nuevas zapatillas de "
    "running?",
    "zh": "德国的Z世代运动鞋买家如何看待我们新跑鞋140欧元的定价？",
    "ko": "독일의 Z세대 운동화 구매자들은 우리 새 러닝화의 140유로 가격을 어떻게 생각할까요?",
}
VAN_WESTENDORP = {
    "en": "use Van Westendorp to find the acceptable price",
    "de": "Mit der Van-Westendorp-Methode den akzeptablen Preis für unseren neuen Laufschuh finden",
    "es": "Usa el método Van Westendorp para encontrar el precio aceptable de nuestras nuevas zapatillas de running",
    "zh": "用范韦斯特恩多普（PSM 价格敏感度）测试找出我们新跑鞋的可接受价格",
    "ko": "반 웨스텐도르프 방식으로 우리 새 러닝화의 적정 가격을 찾고 싶습니다",
}
GABOR_GRANGER = {
    "en": "Gabor Granger test of a 90 EUR price for our new running shoe",
    "de": "Gabor-Granger-Studie zum Preis von 90 EUR für unseren neuen Laufschuh",
    "es": "Estudio Gabor-Granger del precio de 90 EUR para nuestras nuevas zapatillas de running",
    "zh": "用加博-格兰杰方法测试我们新跑鞋90欧元的价格",
    "ko": "가보-그레인저 방식으로 우리 새 러닝화의 90유로 가격을 검증하고 싶습니다",
}
NPS = {
    "en": "NPS for our banking app among young professionals",
    "de": "Wie hoch ist die Weiterempfehlung unserer Banking-App bei jungen Berufstätigen?",
    "es": "¿Recomendarías nuestra app bancaria? Queremos medir el NPS entre jóvenes profesionales",
    "zh": "我们的银行应用在年轻上班族中的推荐意愿（NPS）如何？",
    "ko": "젊은 직장인들의 우리 뱅킹 앱 추천 의향(NPS)을 알고 싶습니다",
}

# What a respondent reads about price, in each language: none of it may appear where price was not asked.
PRICE_WORDS = {
    "en": ("price", "pay", "cost"),
    "de": ("Preis", "zahlen", "kosten"),
    "es": ("precio", "pagar", "cuesta"),
    "zh": ("价格", "支付", "多少钱"),
    "ko": ("가격", "지불", "비용"),
}
PRICE_KINDS = {"price_screen", "price_paid", "price_rate", "price_wtp", "price_why", "price_why_points", "gg_buy"}
PRICE_KINDS |= {"price_describe", "price_worth", "price_likely", "price_barrier", "vw_too_cheap", "vw_cheap"}
PRICE_KINDS |= {"vw_expensive", "vw_too_expensive"}


def make(request: str, locale: str, audiences: list[AudienceRef] = ONE) -> dict:
    return planner.plan_from_request(request=request, audiences=audiences, locale=locale)


def kinds(body: dict) -> list[str]:
    """What each question asks, as the planner's instrument names it (kept with the revision, never shown)."""
    return [body["plannerBrief"]["kinds"][q["id"]] for q in body["questions"]]


def texts(body: dict) -> list[str]:
    return [q["text"] for q in body["questions"]]


def asked(body: dict, kind: str) -> dict:
    return next(q for q in body["questions"] if body["plannerBrief"]["kinds"][q["id"]] == kind)


def assert_no_price(body: dict, locale: str) -> None:
    assert not PRICE_KINDS & set(kinds(body)), kinds(body)
    written = " ".join(texts(body)).lower()
    assert not [w for w in PRICE_WORDS[locale] if w.lower() in written], texts(body)


# ---------------------------------------------------------------- concept test


CONCEPT_WORDS = {
    "en": ("How appealing do you find", "How believable do you find", "like least", "from what is available today"),
    "de": ("Wie ansprechend finden Sie", "Wie glaubwürdig finden Sie", "am wenigsten", "für Ihre Bedürfnisse"),
    "es": ("¿Cuánto interés sientes por", "creíbles", "lo que menos", "con tus necesidades"),
    "zh": ("吸引力", "可信", "最不喜欢", "符合您的需求"),
    "ko": ("매력적입니까", "믿을 만합니까", "마음에 들지 않는 점", "필요에 얼마나 잘 맞습니까"),
}


@pytest.mark.parametrize("locale", LANGS)
def test_a_concept_test_asks_appeal_credibility_uniqueness_relevance_intent_and_likes(locale: str) -> None:
    body = make(CONCEPT[locale], locale)
    assert instruments.read_brief(CONCEPT[locale]).intent == "concept"
    for kind in ("concept_shown", "concept_appeal", "concept_believe", "concept_likes", "concept_different"):
        assert kind in kinds(body)
    assert {"concept_relevance", "concept_intent"} <= set(kinds(body))
    assert asked(body, "concept_appeal")["response"] == {"type": "scale", "scaleRange": [1, 5]}
    assert asked(body, "concept_different")["response"]["type"] == "categorical"
    written = " ".join(texts(body))
    for words in CONCEPT_WORDS[locale]:
        assert words in written, (words, texts(body))
    assert_no_price(body, locale)


@pytest.mark.parametrize("locale", LANGS)
def test_a_concept_test_without_a_described_concept_asks_the_requester_for_it(locale: str) -> None:
    body = make(CONCEPT[locale], locale)
    [describe] = body["confirmationQuestions"]
    assert describe["id"] == "describe" and "options" not in describe
    assert body["plannerBrief"]["shownQuestionId"] == body["questions"][0]["id"]
    two = make(CONCEPT[locale], locale, [*ONE, AudienceRef(id="a2", name="Parents in Berlin")])
    assert [c["id"] for c in two["confirmationQuestions"]] == ["cq1", "describe"]


def test_the_german_concept_test_of_the_issue_asks_appeal_and_credibility_and_the_concept() -> None:
    body = make(CONCEPT["de"], "de")
    assert texts(body)[:3] == [
        "Was denken Sie spontan über das neue Hafer-Müsli „Morgenglück“? Bitte antworten Sie in ein oder zwei Sätzen.",
        "Wie ansprechend finden Sie das neue Hafer-Müsli „Morgenglück“? (1 = überhaupt nicht ansprechend, "
        "5 = sehr ansprechend)",
        "Wie glaubwürdig finden Sie das neue Hafer-Müsli „Morgenglück“? (1 = überhaupt nicht glaubwürdig, "
        "5 = völlig glaubwürdig)",
    ]
    assert body["confirmationQuestions"] == [
        {
            "id": "describe",
            "text": "Wie würden Sie das neue Hafer-Müsli „Morgenglück“ in ein oder zwei Sätzen beschreiben? Die Minds "
            "lesen Ihre Beschreibung, bevor sie antworten.",
        }
    ]
    assert body["objective"].startswith("Testen, wie ansprechend junge Familien das neue Hafer-Müsli „Morgenglück“")


def test_the_requesters_description_becomes_the_concept_shown() -> None:
    body = make(CONCEPT["de"], "de")
    planner.apply_answer(
        body, "describe", "Knuspriges Hafer-Müsli mit Apfel, ohne Zuckerzusatz, in der Nachfüllpackung"
    )
    assert texts(body)[0] == (
        "Lesen Sie diese Beschreibung: „Knuspriges Hafer-Müsli mit Apfel, ohne Zuckerzusatz, in der "
        "Nachfüllpackung“. "
        "Was ist Ihr erster Eindruck, in ein oder zwei Sätzen?"
    )


@pytest.mark.parametrize(
    "request_text",
    [
        "Concept test: how do young parents react to our new oat cereal?",
        "Concept test: would young parents buy our new oat cereal?",
        "Konzepttest: Wie kommt unser neues Hafer-Müsli bei jungen Familien an?",
    ],
)
def test_a_research_question_after_a_colon_is_never_shown_as_the_concept(request_text: str) -> None:
    body = make(request_text, "de" if "Konzept" in request_text else "en")
    question = request_text.split(":", 1)[1].strip().rstrip("?")
    assert not any(question in t or question.lower() in t.lower() for t in texts(body)), texts(body)
    assert body["confirmationQuestions"][0]["id"] == "describe"  # the concept itself is asked of the requester


def test_a_concept_the_brief_describes_is_what_respondents_read() -> None:
    body = make("Concept test: a crunchy oat cereal with apple pieces and no added sugar, in a refill pack", "en")
    assert texts(body)[0] == (
        'Please read this description of the crunchy oat cereal: "a crunchy oat cereal with apple pieces and no added '
        'sugar, in a refill pack". In a sentence or two, what is your first reaction?'
    )
    assert body["confirmationQuestions"][0]["id"] == "cq1"


def test_a_concept_test_that_asks_about_price_asks_the_price_point() -> None:
    body = make("Concept test of our new oat cereal: what would young families pay for it?", "en")
    assert "price_wtp" in kinds(body) and "concept_appeal" in kinds(body)


# ---------------------------------------------------------------- message test


MESSAGE_WORDS = {
    "en": ("main message", "How persuasive", "How memorable", "fit the brand", "How believable"),
    "de": ("Hauptaussage", "Wie überzeugend", "Wie einprägsam", "für die Marke", "Wie glaubwürdig"),
    "es": ("mensaje principal", "convincente", "fácil de recordar", "con la marca", "creíbles"),
    "zh": ("主要信息", "说服力", "记住", "品牌", "可信"),
    "ko": ("핵심적으로 전달", "설득력", "기억에 남습니까", "브랜드와", "믿을 만합니까"),
}


@pytest.mark.parametrize("locale", LANGS)
def test_a_message_test_asks_takeaway_persuasion_memorability_brand_fit_and_credibility(locale: str) -> None:
    body = make(MESSAGE[locale], locale)
    assert instruments.read_brief(MESSAGE[locale]).intent == "message"
    assert kinds(body)[:6] == [
        "message_shown",
        "msg_takeaway",
        "msg_persuasive",
        "msg_memorable",
        "concept_believe",
        "msg_brand_fit",
    ]
    written = " ".join(texts(body))
    for words in MESSAGE_WORDS[locale]:
        assert words in written, (words, texts(body))
    assert_no_price(body, locale)


def test_the_korean_message_test_of_the_issue_is_planned_as_a_message_test_without_price() -> None:
    body = make(MESSAGE["ko"], "ko")
    assert texts(body) == [
        "새 광고 메시지에 대한 첫 반응을 한두 문장으로 말씀해 주십시오.",
        "새 광고 메시지에서 가장 핵심적으로 전달되는 내용은 무엇이라고 이해하셨습니까? 직접 말씀해 주십시오.",
        "새 광고 메시지는 얼마나 설득력이 있습니까? (1 = 전혀 설득력이 없다, 5 = 매우 설득력이 있다)",
        "새 광고 메시지는 얼마나 기억에 남습니까? (1 = 전혀 기억에 남지 않는다, 5 = 매우 기억에 남는다)",
        "새 광고 메시지는 얼마나 믿을 만합니까? (1 = 전혀 믿을 수 없다, 5 = 완전히 믿을 수 있다)",
        "새 광고 메시지는 이를 전하는 브랜드와 얼마나 잘 맞습니까? (1 = 전혀 맞지 않는다, 5 = 매우 잘 맞는다)",
        "새 광고 메시지에서 설득력 있게 느껴지는 점과 그렇지 않은 점은 무엇입니까? 이유도 말씀해 주십시오.",
        "새 광고 메시지를 본 뒤 해당 브랜드에 대해 더 알아보고 싶은 마음이 얼마나 듭니까? "
        "(1 = 전혀 없다, 5 = 매우 크다)",
    ]
    assert body["objective"].startswith("20대 직장인이 새 광고 메시지를 어떻게 이해하는지")
    assert [m["id"] for m in body["methods"]] == ["survey"]


def test_a_quoted_slogan_is_its_own_message_and_nothing_is_asked_of_the_requester() -> None:
    body = make('Test our new tagline "Run further, waste less" with young runners', "en")
    assert body["confirmationQuestions"][0]["id"] == "cq1"
    assert asked(body, "msg_persuasive")["text"].startswith('How persuasive do you find the tagline "Run further')


def test_a_message_test_that_asks_about_price_may_ask_it() -> None:
    body = make("Is our new price message persuasive, and what would young professionals pay?", "en")
    assert "msg_persuasive" in kinds(body) and "price_wtp" in kinds(body)


# ---------------------------------------------------------------- awareness and usage


USAGE_WORDS = {
    "en": ("come to mind first", "had you heard of", "How often do you use", "past 3 months", "How satisfied"),
    "de": ("als Erstes ein", "schon vor heute", "Wie oft nutzen Sie", "letzten 3 Monaten", "Wie zufrieden"),
    "es": ("primero a la mente", "habías oído hablar", "Con qué frecuencia", "últimos 3 meses", "satisfecho"),
    "zh": ("首先想到哪些品牌", "听说过", "多久使用一次", "过去3个月", "满意"),
    "ko": ("가장 먼저 생각나는 브랜드", "들어 본 적이", "얼마나 자주 사용", "지난 3개월", "만족하십니까"),
}


@pytest.mark.parametrize("locale", LANGS)
def test_awareness_and_usage_asks_unaided_and_aided_awareness_usage_brands_and_satisfaction(locale: str) -> None:
    body = make(USAGE[locale], locale)
    assert instruments.read_brief(USAGE[locale]).intent == "awareness"
    assert kinds(body)[:6] == [
        "aware_unaided",
        "aware_heard",
        "usage_frequency",
        "usage_brands",
        "usage_satisfaction",
        "usage_satisfaction_why",
    ]
    aided, frequency = asked(body, "aware_heard"), asked(body, "usage_frequency")
    assert frequency["askIf"] == {"questionId": aided["id"], "answerIn": [aided["response"]["categoricalOptions"][0]]}
    assert len(frequency["response"]["categoricalOptions"]) == 5
    written = " ".join(texts(body))
    for words in USAGE_WORDS[locale]:
        assert words in written, (words, texts(body))
    assert_no_price(body, locale)


# ---------------------------------------------------------------- preference


@pytest.mark.parametrize("locale", LANGS)
def test_a_preference_between_two_options_offers_both_and_asks_why(locale: str) -> None:
    request_text, options = PREFERENCE[locale]
    body = make(request_text, locale)
    assert kinds(body)[0] == "pref_choice" and "pref_why" in kinds(body)
    assert asked(body, "pref_choice")["response"]["categoricalOptions"][:2] == list(options)
    assert all(option in texts(body)[0] for option in options)
    assert_no_price(body, locale)


# ---------------------------------------------------------------- pricing


PRICE_POINT = {
    "en": "What is the most you would pay for the new running shoe? Please give an amount in EUR.",
    "de": "Wie viel würden Sie höchstens für den neuen Laufschuh bezahlen? Bitte nennen Sie einen Betrag in EUR.",
    "es": "¿Cuánto es lo máximo que pagarías por las nuevas zapatillas de running? Indica un importe en EUR.",
    "zh": "您最多愿意为新跑鞋支付多少钱？请给出一个以欧元计的金额。",
    "ko": "새 러닝화에 최대 얼마까지 지불하시겠습니까? 유로 기준 금액으로 답해 주십시오.",
}


@pytest.mark.parametrize("locale", LANGS)
def test_a_pricing_study_judges_the_tested_price_asks_a_price_point_in_the_currency_and_why(locale: str) -> None:
    body = make(PRICING[locale], locale)
    assert {"price_rate", "price_wtp", "price_why"} <= set(kinds(body))
    assert asked(body, "price_wtp")["text"] == PRICE_POINT[locale]
    assert "140 EUR" in asked(body, "price_rate")["text"]
    assert [m["id"] for m in body["methods"]] == ["survey"]


@pytest.mark.parametrize("locale", LANGS)
def test_van_westendorp_named_in_any_wording_asks_its_four_price_points(locale: str) -> None:
    body = make(VAN_WESTENDORP[locale], locale)
    points = [q for q in body["questions"] if q.get("methodInput", {}).get("methodId") == "van-westendorp"]
    assert [q["methodInput"]["role"] for q in points] == ["tooCheap", "cheap", "expensive", "tooExpensive"]
    assert "van-westendorp" in [m["id"] for m in body["methods"]]
    for method_word in ("Westendorp", "westendorp", "웨스텐도르프", "范韦斯特恩多普", "PSM", "use "):
        assert not any(method_word in t for t in [*texts(body), body["objective"]]), texts(body)


def test_use_van_westendorp_to_find_the_acceptable_price_has_a_clean_topic() -> None:
    body = make(VAN_WESTENDORP["en"], "en")
    assert instruments.read_brief(VAN_WESTENDORP["en"]).topic == ""
    assert [q["text"] for q in body["questions"] if q.get("methodInput")] == [
        "At what price would the product be so cheap that you would doubt its quality? Please give an amount in USD.",
        "At what price would the product be a bargain, a great buy for the money? Please give an amount in USD.",
        "At what price would the product start to seem expensive, though you would still consider buying it? "
        "Please give an amount in USD.",
        "At what price would the product be too expensive for you to consider at all? Please give an amount in USD.",
    ]
    assert body["objective"] == (
        "Find out how the Minds judge the price of the product, what they would be willing to pay, and why."
    )


@pytest.mark.parametrize(
    "request_text",
    [
        "Use Van Westendorp to find the acceptable price of our new laptop dock for US IT procurement leads",
        "What would US IT procurement leads pay for our new laptop dock? Use Van Westendorp",
    ],
)
def test_who_is_asked_is_no_part_of_the_topic_wherever_the_brief_names_them(request_text: str) -> None:
    brief = instruments.read_brief(request_text)
    assert (brief.topic, brief.who) == ("the new laptop dock", "US IT procurement leads")
    assert next(q["text"] for q in make(request_text, "en")["questions"] if q.get("methodInput")) == (
        "At what price would the new laptop dock be so cheap that you would doubt its quality? Please give an amount "
        "in USD."
    )


@pytest.mark.parametrize(
    ("wording", "method"),
    [
        ("Use the Van-Westendorp-Methode for our new running shoe", "van-westendorp"),
        ("van westendorp pricing for our new running shoe", "van-westendorp"),
        ("A PSM price sensitivity study of our new running shoe", "van-westendorp"),
        ("Gabor Granger at 90 EUR for our new running shoe", "gabor-granger"),
        ("우리 새 러닝화 90유로 가보 그레인저 조사", "gabor-granger"),
    ],
)
def test_a_pricing_method_is_found_in_any_wording(wording: str, method: str) -> None:
    assert instruments.read_brief(wording).price_method == method
    assert method in [m["id"] for m in make(wording, "en")["methods"]]


@pytest.mark.parametrize("locale", LANGS)
def test_gabor_granger_named_in_any_language_asks_its_price_ladder(locale: str) -> None:
    body = make(GABOR_GRANGER[locale], locale)
    ladder = [q["methodInput"]["price"] for q in body["questions"] if q.get("methodInput")]
    assert ladder == [76, 90, 103]
    assert "gabor-granger" in [m["id"] for m in body["methods"]]


# ---------------------------------------------------------------- NPS


NPS_WORDS = {
    "en": ("recommend the banking app", "main reason for your score"),
    "de": ("die Banking-App einem Freund oder Kollegen empfehlen", "weiterempfehlen"),
    "es": ("recomiendes la app bancaria", "motivo principal de tu puntuación"),
    "zh": ("推荐银行应用的可能性", "这个分数的主要原因"),
    "ko": ("뱅킹 앱을 친구나 동료에게 추천할 가능성", "그 점수를 주신 가장 큰 이유"),
}


@pytest.mark.parametrize("locale", LANGS)
def test_nps_named_in_any_language_asks_the_0_to_10_recommend_question_and_why(locale: str) -> None:
    body = make(NPS[locale], locale)
    recommend = asked(body, "recommend")
    assert recommend["response"] == {"type": "scale", "scaleRange": [0, 10]}
    position = kinds(body).index("recommend")
    assert kinds(body)[position + 1] == "nps_why"
    written = " ".join(texts(body))
    for words in NPS_WORDS[locale]:
        assert words in written, (words, texts(body))
    assert_no_price(body, locale)
    assert sum(q["response"].get("scaleRange") == [0, 10] for q in body["questions"]) == 1


def test_a_korean_brief_naming_van_westendorp_and_nps_plans_both() -> None:
    body = make("반 웨스텐도르프 방식으로 새 러닝화의 적정 가격을 찾고 NPS도 알고 싶습니다", "ko")
    assert [q["methodInput"]["role"] for q in body["questions"] if q.get("methodInput")] == [
        "tooCheap",
        "cheap",
        "expensive",
        "tooExpensive",
    ]
    assert kinds(body)[-2:] == ["recommend", "nps_why"]
    assert asked(body, "recommend")["text"] == "새 러닝화를 친구나 동료에게 추천할 가능성은 얼마나 됩니까?"
    assert {"van-westendorp", "nps"} <= {m["id"] for m in body["methods"]}


# ---------------------------------------------------------------- every study type


ALL = [CONCEPT, MESSAGE, USAGE, PRICING, VAN_WESTENDORP, GABOR_GRANGER, NPS]


@pytest.mark.parametrize("locale", LANGS)
@pytest.mark.parametrize("briefs", ALL, ids=["concept", "message", "usage", "price", "vw", "gg", "nps"])
def test_the_topic_is_a_short_phrase_and_the_request_is_never_pasted(briefs: dict[str, str], locale: str) -> None:
    request_text = briefs[locale]
    brief = instruments.read_brief(request_text)
    assert len(brief.topic) <= instruments.TOPIC_MAX_CHARS
    assert brief.topic != request_text.rstrip("?？")
    body = make(request_text, locale)
    written = [body["objective"], *texts(body), *(c["text"] for c in body["confirmationQuestions"])]
    assert not any(request_text.rstrip("?？") in text for text in written)
    assert 3 <= len(body["questions"]) <= planner.MAX_PLANNED_QUESTIONS
    assert planner.condition_issues(body["questions"]) == []


@pytest.mark.parametrize("locale", LANGS)
@pytest.mark.parametrize("briefs", ALL, ids=["concept", "message", "usage", "price", "vw", "gg", "nps"])
def test_the_same_request_always_gives_the_same_plan(briefs: dict[str, str], locale: str) -> None:
    assert make(briefs[locale], locale) == make(briefs[locale], locale)


@pytest.mark.parametrize("count", [3, 4, 5, 6])
def test_a_message_test_keeps_persuasion_and_memorability_at_any_count(count: int) -> None:
    body = make(f"{MESSAGE['en']} In {count} questions", "en")
    assert len(body["questions"]) == count
    assert "msg_persuasive" in kinds(body) and (count < 4 or "msg_memorable" in kinds(body))


@pytest.mark.parametrize(
    ("request_text", "intent"),
    [
        ("Wie überzeugend finden Kunden einen Preis von 140 EUR für unseren Laufschuh?", "price"),
        ("새 러닝화는 얼마나 매력적인가요?", "open"),  # 얼마나 ("how") asks no price
        ("Konzepttest unseres Hafer-Müslis zum Preis von 3,49 EUR", "concept"),  # a named study type wins
        ("¿Qué tan convincente es nuestro nuevo eslogan?", "message"),
    ],
)
def test_the_study_type_a_brief_names_or_implies(request_text: str, intent: str) -> None:
    assert instruments.read_brief(request_text).intent == intent
