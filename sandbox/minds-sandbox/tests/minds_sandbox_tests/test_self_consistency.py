"""Each Mind agrees with itself across a run (issue #36: run 1 had 74 contradicting answer pairs across 11 of 12
Minds; "would pay 220 USD, so it's a stretch to pay 190 USD"): one willingness to pay per Mind and category behind
every price it names or judges, habits and brands that agree with each other, a preference that stays, a purchase
intent that follows the appeal — and the run's consistency check finds a contradiction when there is one."""

from __future__ import annotations

from typing import Any

import pytest

from minds_sandbox import consistency, planner, respondents, seed, topics
from minds_sandbox.clock import ManualClock
from minds_sandbox.config import Faults, SandboxConfig
from minds_sandbox.engine import Engine
from minds_sandbox.plans import study_audiences
from minds_sandbox.state import Record

SEED = 7
GEN_Z = "Gen Z sneaker buyers in Germany"
KOREA = "Korean skincare enthusiasts"
US_IT = "US IT procurement leads"
VW_REQUEST = "What would Gen Z sneaker buyers pay for our new running shoe at 140 EUR? Use Van Westendorp"
CONCEPT_REQUEST = "Concept test of our recycled-material running shoe"
YES_NO = ["Yes", "No"]
LIKELY = ["Definitely would buy", "Probably would buy", "Might or might not", "Probably would not", "Definitely not"]


def closed(qid: str, text: str, options: list[str], kind: str = "categorical", **extra: Any) -> Record:
    return {"id": qid, "text": text, "response": {"type": kind, "categoricalOptions": options}, **extra}


def scale(qid: str, text: str, low: int = 1, high: int = 5) -> Record:
    return {"id": qid, "text": text, "response": {"type": "scale", "scaleRange": [low, high]}}


def open_q(qid: str, text: str, **extra: Any) -> Record:
    return {"id": qid, "text": text, "response": {"type": "qualitative"}, **extra}


# An awareness-and-usage questionnaire with prices and a concept, in English and German.
A_AND_U = [
    open_q("unaided", "Which brands come to mind when you think of running shoes?"),
    closed(
        "aided",
        "Which of these running shoe brands have you heard of?",
        ["Nike", "Adidas", "New Balance", "Asics", "On", "Hoka", "Veja", "None of these"],
        "multiselect",
    ),
    closed("bought", "Have you bought running shoes in the past 12 months?", YES_NO),
    closed(
        "often",
        "How often do you buy new running shoes?",
        ["Never", "Less than once a year", "Once a year", "Twice a year", "More than twice a year"],
    ),
    closed(
        "used",
        "Which running shoe brands do you buy?",
        ["Nike", "Adidas", "New Balance", "Asics", "On", "Hoka", "Veja", "None"],
        "multiselect",
    ),
    closed("heard_nike", "Have you heard of Nike running shoes?", YES_NO),
    open_q("most", "What is the most you would pay for a pair of running shoes? Please give an amount in EUR."),
    closed("at_99", "Would you buy our recycled running shoe at 99,90 EUR?", YES_NO),
    closed("at_129", "Would you buy our recycled running shoe at 129 EUR?", LIKELY),
    scale("value_149", "How would you rate the value for money of our running shoe at 149 EUR? (1-5)"),
    open_q("why_129", "Would you buy our recycled running shoe at 129 EUR? Why or why not?"),
    open_q("paid", "What did you pay for your last pair of running shoes?"),
    closed("prefer_1", "Which do you prefer?", ["Recycled upper", "Carbon-neutral sole", "No preference"]),
    scale("appeal", "How appealing is a running shoe made from recycled materials? (1-5)"),
    closed("intent", "How likely are you to buy a running shoe made from recycled materials?", LIKELY),
    closed("prefer_2", "Which would you rather prefer now?", ["Carbon-neutral sole", "Recycled upper"]),
    scale("recommend", "How likely are you to recommend it to a friend? (0-10)", 0, 10),
    open_q("reaction", "What is your first reaction to the recycled running shoe?"),
]
A_AND_U_DE = [
    open_q("unaided", "Welche Marken für Laufschuhe fallen Ihnen ein?"),
    closed(
        "aided",
        "Welche dieser Laufschuhmarken kennen Sie?",
        ["Nike", "Adidas", "Asics", "On", "Hoka", "Keine davon"],
        "multiselect",
    ),
    closed("bought", "Haben Sie in den letzten 12 Monaten Laufschuhe gekauft?", ["Ja", "Nein"]),
    closed("often", "Wie oft kaufen Sie neue Laufschuhe?", ["Nie", "Seltener als einmal im Jahr", "Einmal im Jahr"]),
    closed(
        "used", "Welche Laufschuhmarken kaufen Sie?", ["Nike", "Adidas", "Asics", "On", "Hoka", "Keine"], "multiselect"
    ),
    open_q("most", "Wie viel würden Sie höchstens für Laufschuhe bezahlen? Bitte nennen Sie einen Betrag in EUR."),
    closed("at_120", "Würden Sie unsere Laufschuhe für 120 EUR kaufen?", ["Ja", "Vielleicht", "Nein"]),
    scale("appeal", "Wie ansprechend finden Sie einen Laufschuh aus recyceltem Material? (1-5)"),
    closed("intent", "Würden Sie einen Laufschuh aus recyceltem Material kaufen?", ["Ja", "Vielleicht", "Nein"]),
]

A_AND_U_KO = [
    open_q("unaided", "운동화 하면 어떤 브랜드가 떠오르십니까?"),
    closed(
        "aided",
        "다음 운동화 브랜드 중 들어 본 브랜드를 모두 고르십시오.",
        ["Nike", "Adidas", "New Balance", "Asics", "Hoka", "없음"],
        "multiselect",
    ),
    closed("bought", "지난 12개월 동안 운동화를 구매한 적이 있습니까?", ["예", "아니요"]),
    closed(
        "often", "얼마나 자주 운동화를 구매하십니까?", ["전혀 안 함", "1년에 1번 미만", "1년에 1번", "1년에 2번 이상"]
    ),
    closed(
        "used",
        "어떤 브랜드를 주로 구매하십니까?",
        ["Nike", "Adidas", "New Balance", "Asics", "Hoka", "없음"],
        "multiselect",
    ),
    open_q("most", "운동화에 최대 얼마까지 지불하시겠습니까? 원 기준 금액으로 답해 주십시오."),
    closed("at_price", "저희 운동화를 139,000원에 구매하시겠습니까?", ["예", "아니요"]),
    scale("appeal", "재활용 소재로 만든 운동화는 얼마나 매력적입니까? (1-5)"),
    closed("intent", "재활용 소재로 만든 운동화를 구매하시겠습니까?", ["예", "아마도", "아니요"]),
]


def finished_run(
    *,
    audience: str = GEN_Z,
    request: str | None = None,
    questions: list[Record] | None = None,
    locale: str = "en",
) -> Record:
    """A research run through the sandbox's engine to its end and its consistency check."""
    state = seed.build_demo_state(SEED)
    audience_id = next(a for a, record in state.audiences.items() if record["name"] == audience)
    clock = ManualClock(seed.SEED_EPOCH + 10 * 86_400)
    study = seed.new_study(state, name="Consistency", audience_ids=[audience_id], now=clock.now())
    methods: list[Record] = []
    if request is not None:
        body = planner.plan_from_request(request=request, audiences=study_audiences(state, study), locale=locale)
        questions, methods = body["questions"], body.get("methods", [])
    engine = Engine(
        state=state, clock=clock, config=SandboxConfig(), faults=Faults(), build_audience=seed.build_audience
    )
    minds = [state.minds[m] for m in state.audiences[audience_id]["mindIds"]]
    run = engine.create_run(
        study=study, kind="research", questions=questions or [], minds=minds, key_fp=None, extra={"methods": methods}
    )
    for _ in range(60):
        clock.advance(engine.step)
        engine.tick()
        if run["answerConsistency"] is not None:
            return run
    raise AssertionError("the run did not finish")


def by_mind(run: Record) -> dict[str, dict[str, Record]]:
    """Each Mind's answers by question id."""
    said: dict[str, dict[str, Record]] = {}
    for item in run["items"]:
        for answer in item["answers"]:
            said.setdefault(answer["mindId"], {})[item["questionId"]] = answer
    return said


def named_amount(answer: Record) -> topics.Price:
    named = topics.prices_in(answer["text"])
    assert named, answer["text"]
    return named[0]


def assert_no_contradictions(run: Record) -> None:
    check = run["answerConsistency"]
    flagged = [f for item in run["items"] for f in item.get("answerConsistency", {}).get("flags", [])]
    assert (check["flaggedMinds"], check["flagCount"]) == (0, 0), flagged[:4]
    assert check["checkedMinds"] == len(run["minds"])


# ---------------------------------------------------------------- whole runs


def test_a_van_westendorp_pricing_study_of_twelve_minds_has_no_contradicting_pair() -> None:
    run = finished_run(request=VW_REQUEST)
    assert len(run["minds"]) == 12
    assert_no_contradictions(run)
    roles = {q["id"]: (q.get("methodInput") or {}).get("role") for q in run["questions"]}
    value_question = next(q for q in run["questions"] if "140 EUR" in q["text"])
    for said in by_mind(run).values():
        amounts = {roles[qid]: named_amount(a).amount for qid, a in said.items() if roles[qid]}
        four = [amounts[r] for r in ("tooCheap", "cheap", "expensive", "tooExpensive")]
        assert four == sorted(set(four)), four  # four different amounts, rising
        would_pay = amounts["expensive"]
        judged = said[value_question["id"]]
        # 140 EUR is judged against the very amount the Mind says it would pay
        assert (judged["value"] >= 4) == (would_pay >= 140) and (judged["value"] <= 2) == (would_pay < 140)
        assert f"I would pay about {topics.format_amount(would_pay, 'EUR')}" in judged["text"], judged["text"]
    calculation = next(c for c in run["calculations"] if c["methodId"] == "van-westendorp")
    assert calculation["status"] == "completed" and calculation["n"] == 12


def test_van_westendorp_on_a_category_the_sandbox_does_not_know_still_gets_an_amount_from_every_mind() -> None:
    # "the new laptop dock" is no topic of the sandbox's lexicon and the brief names no price: asked for amounts,
    # every Mind still names four rising ones (never "I would need to see it" from all twelve, an empty method)
    run = finished_run(request="Use Van Westendorp to find the acceptable price of our new laptop dock")
    assert_no_contradictions(run)
    roles = {q["id"]: (q.get("methodInput") or {}).get("role") for q in run["questions"]}
    for said in by_mind(run).values():
        four = [named_amount(a).amount for qid, a in said.items() if roles[qid]]
        assert len(four) == 4 and four == sorted(set(four)), four
    calculation = next(c for c in run["calculations"] if c["methodId"] == "van-westendorp")
    assert calculation["status"] == "completed" and calculation["n"] == 12


def test_a_concept_test_has_no_contradicting_pair() -> None:
    run = finished_run(request=CONCEPT_REQUEST)
    assert len(run["questions"]) >= 4
    assert_no_contradictions(run)


@pytest.mark.parametrize(
    ("audience", "questions"),
    [(GEN_Z, A_AND_U), (KOREA, A_AND_U), (GEN_Z, A_AND_U_DE), (GEN_Z, A_AND_U_KO), (KOREA, A_AND_U_KO)],
)
def test_an_awareness_and_usage_questionnaire_has_no_contradicting_pair(audience: str, questions: list[Record]) -> None:
    run = finished_run(audience=audience, questions=questions)
    assert_no_contradictions(run)


def test_awareness_usage_and_prices_agree_answer_by_answer() -> None:
    run = finished_run(questions=A_AND_U)
    never_seen = 0
    for said in by_mind(run).values():
        unaided = set(consistency.brands_in(said["unaided"]["text"], topics.topic_named("footwear").brands))
        listed = set(A_AND_U[1]["response"]["categoricalOptions"])
        assert len(unaided) >= 2 and unaided & listed <= set(said["aided"]["value"])
        assert set(said["used"]["value"]) <= set(said["aided"]["value"]) | {"None"}
        assert said["heard_nike"]["value"] == ("Yes" if "Nike" in said["aided"]["value"] else "No")
        never = said["bought"]["value"] == "No"
        never_seen += never
        assert (said["often"]["value"] == "Never") == never
        assert (said["used"]["value"] == ["None"]) == never
        most = named_amount(said["most"])
        assert most.currency == "EUR"
        assert (said["at_99"]["value"] == "Yes") == (most.amount >= 99.90)
        assert (said["at_129"]["value"] in LIKELY[:2]) == (most.amount >= 129)
        assert (said["value_149"]["value"] >= 4) == (most.amount >= 149)
        assert named_amount(said["paid"]).amount <= most.amount
        assert said["prefer_2"]["value"] == said["prefer_1"]["value"] or said["prefer_1"]["value"] == "No preference"
        appeal, intent = said["appeal"]["sentiment"], said["intent"]["sentiment"]
        assert not (appeal > 0.3 and intent < -0.3) and not (appeal < -0.3 and intent > 0.3)
    assert 0 <= never_seen < 12


LACES = [
    closed("at_2", "Würden Sie unsere Schnürsenkel für 2,49 EUR kaufen?", ["Ja", "Nein"]),
    open_q(
        "most", "Wie viel würden Sie höchstens für unsere Schnürsenkel bezahlen? Bitte nennen Sie einen Betrag in EUR."
    ),
    closed("at_3", "Und für 2.99 €?", ["Ja", "Nein"]),
]


def gabor_granger(price: float) -> Record:
    method = {"methodId": "gabor-granger", "role": "buy", "price": price, "currency": "EUR", "wouldBuy": LIKELY[:2]}
    text = f"Would you buy the new running shoe at {price:g} EUR?"
    return closed(f"gg_{price:g}", text, LIKELY, methodInput=method)


def test_gabor_granger_buys_exactly_up_to_what_the_mind_would_pay() -> None:
    most = open_q("most", "What is the most you would pay for the new running shoe? Please give an amount in EUR.")
    run = finished_run(questions=[gabor_granger(119), gabor_granger(140), most, gabor_granger(161)])
    assert_no_contradictions(run)
    buyers = 0
    for said in by_mind(run).values():
        would_pay = named_amount(said["most"]).amount
        for price in (119, 140, 161):
            buys = said[f"gg_{price}"]["value"] in LIKELY[:2]
            assert buys == (price <= would_pay), (price, would_pay, said[f"gg_{price}"]["value"])
            buyers += buys
    assert 0 < buyers < 36


def test_a_price_in_won_is_judged_against_an_amount_in_won() -> None:
    run = finished_run(questions=A_AND_U_KO)
    for said in by_mind(run).values():
        most = named_amount(said["most"])
        assert most.currency == "KRW" and most.amount == round(most.amount) and most.amount >= 10_000
        assert (said["at_price"]["value"] == "예") == (most.amount >= 139_000)
        assert (said["often"]["value"] == "전혀 안 함") == (said["bought"]["value"] == "아니요")


def test_a_price_with_decimals_is_read_exactly_and_judged_against_an_amount_with_decimals() -> None:
    run = finished_run(questions=LACES)
    assert_no_contradictions(run)
    assert topics.tested_price(LACES[0]["text"], None) == topics.Price(2.49, "EUR")
    assert topics.tested_price(LACES[2]["text"], None) == topics.Price(2.99, "EUR")
    stated = []
    for said in by_mind(run).values():
        most = named_amount(said["most"])
        stated.append(most.amount)
        assert (said["at_2"]["value"] == "Ja") == (most.amount >= 2.49)
        assert (said["at_3"]["value"] == "Ja") == (most.amount >= 2.99)
        assert topics.Price(2.49, "EUR") in topics.prices_in(said["at_2"]["text"]), said["at_2"]["text"]
    assert any(amount != round(amount) for amount in stated), stated  # never rounded to whole euros
    assert {a["value"] for said in by_mind(run).values() for a in (said["at_2"], said["at_3"])} == {"Ja", "Nein"}


@pytest.mark.parametrize(
    ("written", "amount", "currency"),
    [
        ("2,49 EUR", 2.49, "EUR"),
        ("2.49 €", 2.49, "EUR"),
        ("189 USD", 189, "USD"),
        ("$189", 189, "USD"),
        ("USD 1,299", 1299, "USD"),
        ("1.299,50 EUR", 1299.5, "EUR"),
        ("15,000원", 15000, "KRW"),
        ("99元", 99, "CNY"),
    ],
)
def test_a_written_price_is_read_exactly(written: str, amount: float, currency: str) -> None:
    assert topics.prices_in(f"Would you buy it at {written}?") == [topics.Price(amount, currency)]


@pytest.mark.parametrize(
    ("amount", "currency", "locale", "written"),
    [
        (2.49, "EUR", "de", "2,49 EUR"),
        (2.49, "EUR", "es", "2,49 EUR"),
        (2.49, "EUR", "en", "2.49 EUR"),
        (2.5, "EUR", "zh", "2.50 EUR"),
        (189, "USD", "en", "189 USD"),
        (1299.5, "EUR", "de", "1.299,50 EUR"),
        (15000, "KRW", "ko", "15,000 KRW"),
        (15000.4, "KRW", "de", "15.000 KRW"),
    ],
)
def test_an_amount_is_written_exactly_in_the_locale(amount: float, currency: str, locale: str, written: str) -> None:
    assert topics.format_amount(amount, currency, locale) == written


def test_what_a_mind_would_pay_keeps_the_decimals_of_the_category() -> None:
    assert topics.price_point(2.58, "EUR") == 2.6 and topics.format_price(2.58, "EUR", "de") == "2,60 EUR"
    assert topics.format_price(189 * 0.95, "USD") == "190 USD"  # what a Mind says, rounded the way shops price
    assert topics.accepts(topics.Price(189, "USD"), 189 * 0.95) and not topics.accepts(
        topics.Price(191, "USD"), 189 * 0.95
    )


# ---------------------------------------------------------------- the check finds contradictions


def answer(question: Record, value: Any, text: str = "", mind_id: str = "m1") -> Record:
    response = question["response"]
    way = (
        None
        if response["type"] in ("multiselect", "qualitative")
        else respondents.sentiment(response, value, affinity=0.5)
    )
    return {
        "mindId": mind_id,
        "questionId": question["id"],
        "value": value,
        "text": text or str(value),
        "sentiment": way,
    }


def check(*pairs: tuple[Record, Record]) -> dict[int, list[Record]]:
    items = [{"index": i, "questionId": q["id"], "answers": [a]} for i, (q, a) in enumerate(pairs)]
    return respondents.consistency_flags(items, [q for q, _ in pairs])


MOST = open_q("most", "What is the most you would pay for running shoes? Please give an amount in USD.")
AT_190 = closed("at_190", "Would you buy our running shoe at 190 USD?", YES_NO)


@pytest.mark.parametrize(
    ("pairs", "contradicts"),
    [
        # "would pay 220 USD, so it's a stretch to pay 190 USD": a price below what it would pay, refused
        ([(MOST, "About 220 USD would feel fair to me."), (AT_190, "No")], True),
        ([(MOST, "About 220 USD would feel fair to me."), (AT_190, "Yes")], False),
        ([(MOST, "About 180 USD would feel fair to me."), (AT_190, "Yes")], True),
        ([(MOST, "About 180 USD would feel fair to me."), (AT_190, "No")], False),
        ([(MOST, "About 180 USD."), (dict(MOST, id="most2"), "About 200 USD.")], True),
        (
            [
                (closed("b", "Have you bought running shoes in the past 12 months?", YES_NO), "No"),
                (
                    closed("u", "Which running shoe brands do you buy?", ["Nike", "Asics", "None"], "multiselect"),
                    ["Nike"],
                ),
            ],
            True,
        ),
        (
            [
                (closed("b", "Have you bought running shoes in the past 12 months?", YES_NO), "No"),
                (
                    closed("u", "Which running shoe brands do you buy?", ["Nike", "Asics", "None"], "multiselect"),
                    ["None"],
                ),
            ],
            False,
        ),
        (
            [
                (closed("b", "Have you bought running shoes in the past 12 months?", YES_NO), "No"),
                (closed("f", "How often do you buy running shoes?", ["Never", "Once a year", "Monthly"]), "Monthly"),
            ],
            True,
        ),
        (
            [
                (open_q("un", "Which brands come to mind for running shoes?"), "Mostly Nike and Asics."),
                (
                    closed("ai", "Which of these brands have you heard of?", ["Nike", "Asics", "Hoka"], "multiselect"),
                    ["Nike"],
                ),
            ],
            True,
        ),
        (
            [
                (closed("p1", "Which do you prefer?", ["Recycled upper", "Carbon-neutral sole"]), "Recycled upper"),
                (
                    closed("p2", "Which do you prefer?", ["Carbon-neutral sole", "Recycled upper"]),
                    "Carbon-neutral sole",
                ),
            ],
            True,
        ),
        (
            [
                (scale("ap", "How appealing is this concept? (1-5)"), 5),
                (closed("in", "How likely are you to buy it?", LIKELY), "Definitely not"),
            ],
            True,
        ),
        (
            [
                (scale("ap", "How appealing is this concept? (1-5)"), 5),
                (closed("in", "How likely are you to buy it at 190 USD?", LIKELY), "Definitely not"),
            ],
            False,
        ),  # liking it and finding the price too high is no contradiction
    ],
)
def test_the_check_flags_a_contradicting_pair_and_only_that(pairs: list[tuple[Record, Any]], contradicts: bool) -> None:
    given = [(q, answer(q, v, v if isinstance(v, str) else "")) for q, v in pairs]
    flags = check(*given)
    assert bool(flags) == contradicts, flags
    if contradicts:
        assert flags[0][0]["withItem"] == 1 and flags[1][0]["withItem"] == 0


def test_what_a_question_asks_is_read_in_every_language() -> None:
    asked = {
        "What is the most you would pay for it? Please give an amount in EUR.": "price_point",
        "Wie viel würden Sie höchstens dafür bezahlen?": "price_point",
        "¿Cuánto es lo máximo que pagarías por ello?": "price_point",
        "您最多愿意为它支付多少钱？": "price_point",
        "최대 얼마까지 지불하시겠습니까?": "price_point",
    }
    for text, aspect in asked.items():
        assert consistency.aspect(open_q("q", text)) == aspect, text
