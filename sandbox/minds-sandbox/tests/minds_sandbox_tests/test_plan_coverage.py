"""Issue 25, "Plans that a researcher would approve": each brief type's plan covers its objective even at four
questions (pricing: the tested price judged, an open price point, an open why; a concept test shows the concept,
asked of the requester when the brief does not describe it), screeners route a follow-up with askIf, modules are
titled for their questions, and the confirmation question speaks to the requester."""

from __future__ import annotations

import uuid

import httpx
import pytest

from minds_sandbox import instruments, planner
from minds_sandbox.planner import AudienceRef
from minds_sandbox_tests.helpers import LAUNCH_STUDY, PRICING_STUDY, plan, planned_revision

ONE = [AudienceRef(id="a1", name="Gen Z sneaker buyers in Germany")]
TWO = [*ONE, AudienceRef(id="a2", name="Korean skincare enthusiasts")]
README_PRICING = (
    "How do Gen Z sneaker buyers in Germany feel about a 140 EUR price for our new running shoe? "
    "Would they recommend it to a friend?"
)
WTP = "What is the most you would pay for the new running shoe? Please give an amount in EUR."
WHY = "Why that amount? What makes the new running shoe worth paying for, or not, to you?"
BRIEFS = {
    "price": "How do Gen Z sneaker buyers in Germany feel about a 140 EUR price for our new running shoe?",
    "concept": "Test our concept: a running shoe made from recycled ocean plastic that lasts twice as long",
    "awareness": "Are IT directors aware of our compliance audit service?",
    "preference": "Would families prefer oat milk or almond milk?",
    "open": "Understand how students feel about a refillable water bottle",
}


def make(request: str, audiences: list[AudienceRef] = ONE, locale: str = "en") -> dict:
    return planner.plan_from_request(request=request, audiences=audiences, locale=locale)


def texts(body: dict) -> list[str]:
    return [q["text"] for q in body["questions"]]


def test_the_readme_pricing_example_measures_willingness_to_pay_and_asks_why() -> None:
    body = make(README_PRICING, TWO)
    assert texts(body) == [
        "How would you rate the value for money of the new running shoe at 140 EUR? "
        "(1 = far too expensive, 5 = very good value)",
        WTP,
        WHY,
        "How likely are you to recommend the new running shoe to a friend or colleague?",
    ]
    assert [q["response"]["type"] for q in body["questions"]] == ["scale", "qualitative", "qualitative", "scale"]
    assert body["questions"][3]["response"]["scaleRange"] == [0, 10]
    assert [(m["title"], m["purpose"]) for m in body["modules"]] == [
        ("Price and value", "3 questions, asked in order"),
        ("Purchase intent", "1 question"),
    ]
    assert body["objective"] == (
        "Find out how Gen Z sneaker buyers in Germany judge a price of 140 EUR for the new running shoe, "
        "what they would be willing to pay, and why."
    )


@pytest.mark.parametrize("count", [4, 5, 6, 7, 8])
def test_every_pricing_plan_keeps_the_price_judgement_the_price_point_and_the_why(count: int) -> None:
    body = make(f"{BRIEFS['price']} In {count} questions")
    assert len(body["questions"]) == count
    assert WTP in texts(body) and WHY in texts(body)
    assert any(t.startswith("How would you rate the value for money") for t in texts(body))
    price_module = next(m for m in body["modules"] if m["title"] == "Price and value")
    wtp_id = next(q["id"] for q in body["questions"] if q["text"] == WTP)
    assert wtp_id in price_module["questionIds"]
    assert all(m["title"] != "First impressions" for m in body["modules"])


@pytest.mark.parametrize(
    ("intent", "covering"),
    [
        # issue 36: a concept test asks credibility and likes/dislikes before "why appealing"; awareness and usage
        # asks unaided and aided awareness, then how often they use it and which brands
        ("concept", ["Please read this description of the concept", "How appealing", "How believable", "like least"]),
        ("awareness", ["come to mind first", "had you heard of", "How often do you use", "in the past 3 months"]),
        ("preference", ["Which do you prefer: oat milk or almond milk?", "Why do you prefer it?"]),
        ("open", ["first reaction", "Overall, how do you feel", "what would put you off"]),
    ],
)
def test_four_questions_cover_each_objective(intent: str, covering: list[str]) -> None:
    body = make(f"{BRIEFS[intent]} in 4 questions")
    assert instruments.read_brief(BRIEFS[intent]).intent == intent
    assert len(body["questions"]) == 4
    for words in covering:
        assert any(words in t for t in texts(body)), (words, texts(body))


def test_a_concept_the_brief_describes_is_shown_to_the_minds() -> None:
    body = make(BRIEFS["concept"])
    assert body["questions"][0]["text"] == (
        'Please read this description of the concept: "a running shoe made from recycled ocean plastic that lasts '
        'twice as long". In a sentence or two, what is your first reaction?'
    )
    assert (
        body["confirmationQuestions"][0]["text"] == "Will the concept carry your brand name when buyers first see it?"
    )


async def test_a_concept_without_description_asks_the_requester_and_the_next_revision_shows_it(
    client: httpx.AsyncClient,
) -> None:
    first = await planned_revision(client, LAUNCH_STUDY, "Test three taglines for our new running shoe")
    asked = {c["id"]: c for c in first["confirmationQuestions"]}
    assert asked["cq1"]["text"] == "Which Audiences should answer this plan?"  # two Audiences: who answers, too
    assert asked["describe"] == {
        "id": "describe",
        "text": "How would you describe the three taglines for the new running shoe in a sentence or two? "
        "The Minds read your description before they answer.",
    }
    assert "plannerBrief" not in first  # the sandbox's own notes are never shown
    description = "Run further. / Made to last. / Light on the planet."
    body = {"draftPlanId": first["draftPlanId"], "revision": 1, "answers": {"describe": description}}
    second = (await plan(client, LAUNCH_STUDY, body, key=str(uuid.uuid4()))).json()["data"]
    assert second["questions"][0]["text"] == (
        f'Please read this description of the three taglines for the new running shoe: "{description}". '
        "In a sentence or two, what is your first reaction?"
    )
    assert second["answeredConfirmations"] == {"describe": description}
    assert [c["id"] for c in second["confirmationQuestions"]] == ["cq1"]


@pytest.mark.parametrize("intent", sorted(BRIEFS))
@pytest.mark.parametrize("count", [3, 4, 5, 6, 7, 8])
def test_a_planned_screener_always_routes_a_follow_up(intent: str, count: int) -> None:
    body = make(f"{BRIEFS[intent]} in {count} questions")
    assert len(body["questions"]) <= count and len(body["questions"]) >= min(count, 3)
    assert planner.condition_issues(body["questions"]) == []
    routed = {q["askIf"]["questionId"] for q in body["questions"] if q.get("askIf")}
    by_id = {q["id"]: q for q in body["questions"]}
    for gate_id in routed:
        assert by_id[gate_id]["response"]["type"] == "categorical"
    screeners = [q for q in body["questions"] if q["text"].startswith(("In the past 12 months", "Before today"))]
    assert all(s["id"] in routed for s in screeners)


def test_the_pricing_screener_asks_its_follow_up_only_of_buyers() -> None:
    body = make(f"{BRIEFS['price']} in 8 questions")
    screener, follow_up = body["questions"][:2]
    assert screener["text"] == "In the past 12 months, have you bought anything like the new running shoe?"
    assert follow_up == {
        "id": "q2",
        "moduleId": "m1",
        "text": "You bought something similar recently. What did you pay, and how does 140 EUR compare?",
        "response": {"type": "qualitative"},
        "askIf": {"questionId": "q1", "answerIn": ["Yes"]},
    }
    assert body["modules"][0]["title"] == "Buying habits"


@pytest.mark.parametrize(
    ("intent", "question"),
    [
        ("price", "Is 140 EUR the final shelf price of the new running shoe, including VAT?"),
        ("awareness", "Do you already sell the compliance audit service under this name?"),
        (
            "preference",
            "Do you want oat milk and almond milk shown in a random order, so neither is always seen first?",
        ),
        ("open", "Can people already buy the refillable water bottle?"),
    ],
)
def test_the_confirmation_question_speaks_to_the_requester(intent: str, question: str) -> None:
    [asked] = make(BRIEFS[intent])["confirmationQuestions"]
    assert asked == {"id": "cq1", "text": question, "options": ["Yes", "No"]}
    assert "Should the Minds" not in asked["text"]


def test_a_price_in_dollars_asks_about_tax_not_vat() -> None:
    [asked] = make("What would parents pay for a $25 monthly snack box subscription?")["confirmationQuestions"]
    assert asked["text"] == "Is 25 USD the final shelf price of the monthly snack box subscription, including tax?"


def test_the_question_count_follows_the_request_within_three_to_eight() -> None:
    assert len(make(f"{BRIEFS['open']} in 3 questions")["questions"]) == 3
    assert len(make(f"{BRIEFS['price']} with 6 questions")["questions"]) == 6
    for request in BRIEFS.values():
        assert 4 <= len(make(request)["questions"]) <= 8  # no count asked: enough to cover the objective


async def test_the_pricing_pulse_plan_over_http_measures_willingness_to_pay(client: httpx.AsyncClient) -> None:
    revision = await planned_revision(client, PRICING_STUDY, "How do IT buyers judge a 140 EUR price for our dock?")
    assert "What is the most you would pay for the dock? Please give an amount in EUR." in texts(revision)
    assert [c["text"] for c in revision["confirmationQuestions"]] == [
        "Is 140 EUR the final shelf price of the dock, including VAT?"
    ]


def test_a_brief_naming_van_westendorp_asks_its_four_price_points_and_runs_the_method() -> None:
    body = make("What would US IT procurement leads pay for our new laptop dock? Use Van Westendorp")
    asked = texts(body)
    for start in (
        "At what price would the new laptop dock be so cheap that you would doubt its quality?",
        "At what price would the new laptop dock be a bargain, a great buy for the money?",
        "At what price would the new laptop dock start to seem expensive, though you would still consider buying it?",
        "At what price would the new laptop dock be too expensive for you to consider at all?",
    ):
        assert f"{start} Please give an amount in USD." in asked
    assert "What makes the new laptop dock worth its price to you, or not? Please explain why." in asked
    assert [m["id"] for m in body["methods"]] == ["survey", "van-westendorp"]
    assert body["methods"][1]["executable"] is True


def test_a_brief_naming_gabor_granger_asks_a_price_ladder_around_the_tested_price() -> None:
    body = make("A Gabor-Granger study of a 140 EUR price for our new running shoe")
    ladder = [q for q in body["questions"] if q["text"].startswith("Would you buy the new running shoe at")]
    assert [q["text"] for q in ladder] == [
        "Would you buy the new running shoe at 119 EUR?",
        "Would you buy the new running shoe at 140 EUR?",
        "Would you buy the new running shoe at 161 EUR?",
    ]
    assert ladder[0]["response"]["categoricalOptions"] == [
        "Definitely would buy",
        "Probably would buy",
        "Probably would not buy",
        "Definitely would not buy",
    ]
    assert "gabor-granger" in [m["id"] for m in body["methods"]]
