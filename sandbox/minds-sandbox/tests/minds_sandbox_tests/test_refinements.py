"""Revise… in the sandbox: a refinement is applied to the plan's questions — added, removed, reworded, cut to a
count — in English, German, Spanish, Chinese and Korean, several instructions at once, with new questions in the
Study language; what cannot be applied is said in the revision and changes nothing."""

from __future__ import annotations

import copy
from typing import Any

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minds_sandbox import planner, refinements
from minds_sandbox.planner import AudienceRef, PlanInputError
from minds_sandbox.refinements import Subject
from minds_sandbox_tests.helpers import LAUNCH_STUDY, planned_revision
from minds_sandbox_tests.helpers import plan as preview

SHOE = Subject(topic="the new running shoe", price="140 EUR")
QUESTIONS = [
    {"id": "q1", "text": "Have you bought running shoes in the past year?"},
    {"id": "q2", "text": "How would you rate the price of the shoe at 140 EUR? (1 = too expensive, 5 = good value)",
     "response": {"type": "scale", "scaleRange": [1, 5]}},
    {"id": "q3", "text": "Which best describes the price? (A bargain / About right / Too expensive)"},
    {"id": "q4", "text": "What would stop you from buying it?"},
    {"id": "q5", "text": "You bought running shoes recently. What did you pay?",
     "askIf": {"questionId": "q1", "answerIn": ["Yes"]}},
]  # fmt: skip
WHY = {
    "en": "Why would you, or would you not, buy the new running shoe at 140 EUR?",
    "de": "Warum würden Sie „the new running shoe“ für 140 EUR kaufen – oder warum nicht?",
    "es": "¿Por qué comprarías, o no, the new running shoe a 140 EUR?",
    "zh": "您为什么会（或不会）以140 EUR的价格购买the new running shoe？",
    "ko": "140 EUR에 the new running shoe 구매를 원하시거나 원하지 않으시는 이유는 무엇인가요?",
}


def plan(locale: str = "en") -> dict[str, Any]:
    return planner.fixed_plan(
        questions=copy.deepcopy(QUESTIONS), audiences=[AudienceRef("a1", "Runners")], locale=locale, objective="Price"
    )


def revise(refinement: str, *, locale: str = "en", subject: Subject = SHOE, content: dict | None = None) -> dict:
    revised = copy.deepcopy(content or plan(locale))
    refinements.apply(revised, refinement, subject=subject)
    return revised


def texts(content: dict) -> list[tuple[str, str]]:
    return [(q["id"], q["text"]) for q in content["questions"]]


def kept(content: dict, *ids: str) -> list[tuple[str, str]]:
    original = dict(texts(plan()))
    return [(i, original[i]) for i in ids]


def test_the_issue_refinement_adds_a_why_question_and_a_preference_question_and_nothing_else() -> None:
    revised = revise("Add an open question asking why, and ask which of three claims they prefer")
    assert texts(revised) == [
        *kept(revised, "q1", "q2", "q3", "q4", "q5"),
        ("q6", "Why would you, or would you not, buy the new running shoe at 140 EUR?"),
        ("q7", "Which of these claims do you prefer?"),
    ]
    assert revised["questions"][5]["response"] == {"type": "qualitative"}
    assert revised["questions"][6]["response"] == {
        "type": "categorical",
        "categoricalOptions": ["Claim 1", "Claim 2", "Claim 3"],
    }
    asked = revised["confirmationQuestions"][-1]
    assert asked == {
        "id": "cq_q7_options",
        "text": "Which 3 claims should respondents choose between in Q7? "
        "List them separated by semicolons or on separate lines.",
    }
    assert revised["objective"] == "Price" and "plannerNotes" not in revised
    assert revised["modules"][-1]["questionIds"][-2:] == ["q6", "q7"]


@pytest.mark.parametrize(
    ("locale", "refinement"),
    [
        ("en", "add an open why question"),
        ("de", "Fügen Sie eine offene Warum-Frage hinzu"),
        ("es", "Añade una pregunta abierta de por qué"),
        ("zh", "加一个问为什么的开放式问题"),
        ("ko", "왜 그런지 묻는 질문을 추가해 주세요"),
    ],
)
def test_an_open_why_question_is_added_in_the_study_language(locale: str, refinement: str) -> None:
    revised = revise(refinement, locale=locale)
    assert texts(revised)[-1] == ("q6", WHY[locale])
    assert revised["questions"][-1]["response"] == {"type": "qualitative"}
    assert len(revised["questions"]) == 6


def test_a_refinement_in_one_language_writes_the_question_in_the_study_language() -> None:
    assert texts(revise("add an open why question", locale="de"))[-1] == ("q6", WHY["de"])
    assert texts(revise("Fügen Sie eine offene Warum-Frage hinzu", locale="en"))[-1] == ("q6", WHY["en"])


def test_a_korean_why_question_uses_the_right_object_particle() -> None:
    revised = revise(
        "왜 그런지 묻는 질문을 추가해 주세요", locale="ko", subject=Subject(topic="새 러닝화", price="140 EUR")
    )
    assert texts(revised)[-1][1] == "140 EUR에 새 러닝화를 구매하시거나 구매하지 않으시는 이유는 무엇인가요?"
    revised = revise(
        "왜 그런지 묻는 질문을 추가해 주세요", locale="ko", subject=Subject(topic="새 신발", price="140 EUR")
    )
    assert texts(revised)[-1][1] == "140 EUR에 새 신발을 구매하시거나 구매하지 않으시는 이유는 무엇인가요?"


def test_a_topic_already_quoted_is_not_quoted_twice_in_german() -> None:
    revised = revise("add an open why question", locale="de", subject=Subject(topic="„neuer Laufschuh“"))
    assert texts(revised)[-1][1] == (
        "Warum denken Sie so über „neuer Laufschuh“? Bitte erklären Sie es in Ihren eigenen Worten."
    )


def test_a_question_the_plan_already_asks_is_not_added_twice() -> None:
    once = revise("add an open why question")
    twice = revise("add an open why question", content=once)
    assert twice["questions"] == once["questions"]
    assert twice["plannerNotes"] == [f'Not added: Q6 already asks "{WHY["en"]}".']


def test_without_a_known_topic_the_why_question_still_asks_why() -> None:
    revised = revise("add an open why question", subject=Subject())
    assert texts(revised)[-1] == ("q6", "Why did you answer the way you did? Please explain in your own words.")


@pytest.mark.parametrize(
    ("locale", "refinement", "question", "options"),
    [
        ("en", 'Ask which tagline they prefer: "Run further", "Made to move" or "Light as air"',
         "Which of these taglines do you prefer?", ["Run further", "Made to move", "Light as air", "No preference"]),
        ("en", "ask which name they prefer: Stride, Pace or Glide", "Which of these names do you prefer?",
         ["Stride", "Pace", "Glide", "No preference"]),
        ("de", "Fragen Sie, welche Aussage sie bevorzugen: „Leicht wie Luft“, „Weiter laufen“",
         "Welche dieser Aussagen bevorzugen Sie?", ["Leicht wie Luft", "Weiter laufen", "Keine Präferenz"]),
        ("es", "Pregunta qué eslogan prefieren: «Corre más», «Ligero como el aire»",
         "¿Cuál de estos eslóganes prefieres?", ["Corre más", "Ligero como el aire", "Sin preferencia"]),
        ("zh", "问他们更喜欢哪个口号：“跑得更远”、“轻如空气”", "以下口号中，您更喜欢哪一个？",
         ["跑得更远", "轻如空气", "没有偏好"]),
        ("ko", '어떤 슬로건을 선호하는지 물어봐 주세요: "더 멀리", "공기처럼 가볍게"',
         "다음 슬로건 중 어느 것을 가장 선호하시나요?", ["더 멀리", "공기처럼 가볍게", "선호 없음"]),
    ],
)  # fmt: skip
def test_a_preference_question_offers_the_options_the_refinement_names(
    locale: str, refinement: str, question: str, options: list[str]
) -> None:
    revised = revise(refinement, locale=locale)
    added = revised["questions"][-1]
    assert (added["id"], added["text"]) == ("q6", question)
    assert added["response"] == {"type": "categorical", "categoricalOptions": options}
    assert [c["id"] for c in revised["confirmationQuestions"]] == ["cq1"]  # nothing to ask the requester


@pytest.mark.parametrize(
    ("locale", "refinement", "placeholders", "asked"),
    [
        ("de", "Fragen Sie, welche der drei Aussagen sie bevorzugen", ["Aussage 1", "Aussage 2", "Aussage 3"],
         "Zwischen welchen 3 Aussagen sollen die Befragten in Frage 6 wählen? "
         "Bitte nennen Sie sie durch Semikolons getrennt oder je in einer Zeile."),
        ("es", "Pregunta cuál de las dos afirmaciones prefieren", ["Afirmación 1", "Afirmación 2"],
         "¿Entre qué 2 opciones (afirmaciones) deben elegir los encuestados en la pregunta 6? "
         "Escríbelas separadas por punto y coma o en líneas distintas."),
        ("zh", "问他们更喜欢三个宣传语中的哪一个", ["宣传语 1", "宣传语 2", "宣传语 3"],
         "在第6题中，受访者应在哪3个宣传语之间选择？请用分号分隔或每行写一个。"),
        ("ko", "세 가지 문구 중 어느 것을 선호하는지 물어봐 주세요", ["문구 1", "문구 2", "문구 3"],
         "6번 질문에서 응답자가 고를 문구 3개는 무엇인가요? 세미콜론이나 줄바꿈으로 구분해 적어 주세요."),
    ],
)  # fmt: skip
def test_unnamed_options_are_asked_of_the_requester(
    locale: str, refinement: str, placeholders: list[str], asked: str
) -> None:
    revised = revise(refinement, locale=locale)
    assert revised["questions"][-1]["response"]["categoricalOptions"] == placeholders
    assert revised["confirmationQuestions"][-1] == {"id": "cq_q6_options", "text": asked}


def test_the_requesters_answer_becomes_the_options() -> None:
    revised = revise("ask which of three claims they prefer")
    refinements.answered(revised, "cq_q6_options", "Lightest in its class; Made in Germany; Runs 1,000 km")
    assert revised["questions"][-1]["response"] == {
        "type": "categorical",
        "categoricalOptions": ["Lightest in its class", "Made in Germany", "Runs 1,000 km", "No preference"],
    }
    with pytest.raises(PlanInputError):
        refinements.answered(revised, "cq_q6_options", "Only one claim")
    refinements.answered(revised, "cq1", "Yes")  # any other confirmation answer is left alone


@pytest.mark.parametrize(
    ("refinement", "left"),
    [
        ("remove question 3", ["q1", "q2", "q4", "q5"]),
        ("Drop Q3 and Q4", ["q1", "q2", "q5"]),
        ("delete questions 2 and 4", ["q1", "q3", "q5"]),
        ("drop the last question", ["q1", "q2", "q3", "q4"]),
        ("remove the second question", ["q1", "q3", "q4", "q5"]),
        ("Streichen Sie Frage 3", ["q1", "q2", "q4", "q5"]),
        ("Entfernen Sie die letzte Frage", ["q1", "q2", "q3", "q4"]),
        ("Elimina la pregunta 3", ["q1", "q2", "q4", "q5"]),
        ("Quita la primera pregunta", ["q2", "q3", "q4", "q5"]),
        ("删除第3题", ["q1", "q2", "q4", "q5"]),
        ("去掉最后一题", ["q1", "q2", "q3", "q4"]),
        ("3번 질문을 삭제해 주세요", ["q1", "q2", "q4", "q5"]),
        ("세 번째 질문은 빼 주세요", ["q1", "q2", "q4", "q5"]),
    ],
)
def test_remove_takes_out_the_named_questions_by_the_number_shown(refinement: str, left: list[str]) -> None:
    revised = revise(refinement)
    assert [q["id"] for q in revised["questions"]] == left
    assert [qid for m in revised["modules"] for qid in m["questionIds"]] == left


@pytest.mark.parametrize(
    "refinement",
    [
        "drop the screener",
        "Filterfrage entfernen",
        "Elimina la pregunta filtro",
        "删除筛选题",
        "스크리너 질문을 삭제해 주세요",
    ],
)
def test_dropping_the_screener_asks_its_follow_up_of_everyone_and_says_so(refinement: str) -> None:
    revised = revise(refinement)
    assert [q["id"] for q in revised["questions"]] == ["q2", "q3", "q4", "q5"]
    assert "askIf" not in revised["questions"][-1]
    assert revised["plannerNotes"] == [
        "Q4 was asked only after certain answers to a question that was removed; it is now asked of everyone."
    ]
    assert planner.condition_issues(revised["questions"]) == []


def test_rewording_a_screener_so_it_no_longer_routes_asks_its_follow_up_of_everyone() -> None:
    revised = revise("reword Q1 to: Why do you run?")
    assert revised["questions"][0]["response"] == {"type": "qualitative"}
    assert "askIf" not in revised["questions"][4]
    assert revised["plannerNotes"] == [
        "Q5 was asked only after certain answers to Q1, which no longer offers them; it is now asked of everyone."
    ]


@pytest.mark.parametrize(
    ("refinement", "text"),
    [
        ("reword Q2 to How fair is 140 EUR for the new running shoe?", "How fair is 140 EUR for the new running shoe?"),
        ('Change question 2 to "How fair is 140 EUR?"', "How fair is 140 EUR?"),
        ("Formulieren Sie Frage 2 um: Wie fair finden Sie 140 EUR?", "Wie fair finden Sie 140 EUR?"),
        ("Ändern Sie Frage 2 zu „Wie fair finden Sie 140 EUR?“", "Wie fair finden Sie 140 EUR?"),
        ("Cambia la pregunta 2 por: ¿Te parece justo el precio?", "¿Te parece justo el precio?"),
        ("把第2题改成：您觉得这个价格公平吗？", "您觉得这个价格公平吗？"),
        ('2번 질문을 "이 가격이 공정하다고 생각하시나요?"로 바꿔 주세요', "이 가격이 공정하다고 생각하시나요?"),
    ],
)  # fmt: skip
def test_reword_changes_only_the_named_questions_wording(refinement: str, text: str) -> None:
    revised = revise(refinement)
    assert texts(revised) == [*kept(revised, "q1"), ("q2", text), *kept(revised, "q3", "q4", "q5")]
    assert revised["questions"][1]["response"] == {"type": "scale", "scaleRange": [1, 5]}  # its format is kept


def test_a_reword_that_implies_another_format_gets_it() -> None:
    revised = revise('Change Q3 to "Is 140 EUR a fair price? (Yes / No / Not sure)"; reword Q2 to: Why is that?')
    assert revised["questions"][2]["response"] == {
        "type": "categorical",
        "categoricalOptions": ["Yes", "No", "Not sure"],
    }
    assert revised["questions"][1]["response"] == {"type": "qualitative"}


@pytest.mark.parametrize(
    "refinement",
    [
        "only 3 questions",
        "Just 3 questions, please",
        "Nur 3 Fragen",
        "Solo 3 preguntas",
        "只保留3个问题",
        "질문 3개만 남겨 주세요",
    ],
)
def test_a_count_keeps_the_first_questions(refinement: str) -> None:
    assert [q["id"] for q in revise(refinement)["questions"]] == ["q1", "q2", "q3"]


def test_a_count_keeps_the_questions_added_in_the_same_refinement() -> None:
    revised = revise("Add an open why question and only 3 questions")
    assert [q["id"] for q in revised["questions"]] == ["q1", "q2", "q6"]


def test_a_count_above_the_plan_says_nothing_was_added() -> None:
    revised = revise("only 8 questions")
    assert len(revised["questions"]) == 5
    assert revised["plannerNotes"] == [
        "The plan has 5 questions, fewer than 8; name the questions to add and the sandbox planner adds them."
    ]


@pytest.mark.parametrize(
    ("locale", "refinement"),
    [
        ("en", "Add an open why question, drop question 3 and reword Q2 to: How fair is the price?"),
        ("de", "Fügen Sie eine offene Warum-Frage hinzu, streichen Sie Frage 3 "
               "und ändern Sie Frage 2 zu: Wie fair ist der Preis?"),
        ("es", "Añade una pregunta abierta de por qué, elimina la pregunta 3 "
               "y cambia la pregunta 2 por: ¿Es justo el precio?"),
        ("zh", "加一个问为什么的开放式问题，删除第3题，并把第2题改成：价格公平吗？"),
        ("ko", "왜 그런지 묻는 질문을 추가하고 3번 질문은 삭제하고 2번 질문을 \"가격이 공정한가요?\"로 바꿔 주세요"),
    ],
)  # fmt: skip
def test_several_instructions_are_all_applied(locale: str, refinement: str) -> None:
    revised = revise(refinement, locale=locale)
    assert [q["id"] for q in revised["questions"]] == ["q1", "q2", "q4", "q5", "q6"]
    assert revised["questions"][1]["text"] != QUESTIONS[1]["text"]
    assert revised["questions"][-1]["text"] == WHY[locale]
    assert "plannerNotes" not in revised


def test_numbers_name_the_questions_as_shown_before_this_refinement() -> None:
    revised = revise("remove question 1 and reword Q2 to: How fair is the price?")
    assert texts(revised)[0] == ("q2", "How fair is the price?")


def test_an_added_question_never_reuses_an_id_the_plan_had() -> None:
    revised = revise("remove question 5, add an open why question")
    assert [q["id"] for q in revised["questions"]] == ["q1", "q2", "q3", "q4", "q6"]


def test_a_question_given_word_for_word_is_added_as_written() -> None:
    assert texts(revise("Would you queue overnight for it?"))[-1] == ("q6", "Would you queue overnight for it?")
    assert texts(revise("Add a question: Where do you buy running shoes?"))[-1] == (
        "q6",
        "Where do you buy running shoes?",
    )
    assert texts(revise("add a question about delivery times"))[-1] == ("q6", "What do you think about delivery times?")
    assert texts(revise("Add a question: Why do you run?"))[-1] == ("q6", "Why do you run?")
    asked = revise("ask which they prefer: Stride, Pace or Glide?")["questions"][-1]
    assert asked["response"]["categoricalOptions"] == ["Stride", "Pace", "Glide", "No preference"]


def test_what_cannot_be_applied_is_said_and_changes_nothing() -> None:
    original = plan()
    revised = revise("Make it more fun")
    assert revised["questions"] == original["questions"] and revised["objective"] == "Price"
    assert revised["plannerNotes"] == [
        'Not applied to the questions: "Make it more fun". The sandbox planner applies instructions that add, '
        "remove or reword a question or keep a number of questions; this one changed nothing."
    ]


def test_what_can_be_applied_is_applied_and_the_rest_is_named() -> None:
    revised = revise("add an open why question and make it more fun")
    assert texts(revised)[-1] == ("q6", WHY["en"])
    assert revised["plannerNotes"][0].startswith('Not applied to the questions: "make it more fun".')


def test_removing_every_question_is_refused_in_a_note() -> None:
    revised = revise("only 0 questions; remove questions 1, 2, 3, 4 and 5")
    assert revised["questions"] == plan()["questions"]
    assert (
        revised["plannerNotes"][-1] == "Not applied: the plan would have no question left; the questions are unchanged."
    )


WORDS = [
    "add",
    "remove",
    "drop",
    "reword",
    "change",
    "to",
    "only",
    "just",
    "questions",
    "question",
    "Q1",
    "Q2",
    "Q9",
    "3",
    "three",
    "the",
    "screener",
    "last",
    "why",
    "prefer",
    "which",
    "claims",
    ":",
    ",",
    "and",
    ";",
    "?",
    '"',
    "Frage",
    "2",
    "streichen",
    "nur",
    "Fragen",
    "warum",
    "pregunta",
    "elimina",
    "solo",
    "第2题",
    "删除",
    "只保留",
    "个问题",
    "为什么",
    "2번",
    "질문",
    "삭제",
    "질문",
    "개만",
    "왜",
    "추가하고",
    "선호",
    "options",
    "0",
    "10",
    "eines",
]


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(st.text(max_size=200), st.lists(st.sampled_from(WORDS), max_size=14).map(" ".join)),
    st.sampled_from(["en", "de", "es", "zh", "ko"]),
)
def test_any_refinement_leaves_a_plan_that_can_run(refinement: str, locale: str) -> None:
    revised = revise(refinement, locale=locale)
    assert revised["questions"] and planner.condition_issues(copy.deepcopy(revised["questions"])) == []
    ids = [q["id"] for q in revised["questions"]]
    assert len(set(ids)) == len(ids)
    assert [qid for m in revised["modules"] for qid in m["questionIds"]] == ids
    assert all(len(q["response"].get("categoricalOptions", [1, 2])) >= 2 for q in revised["questions"])
    assert revised["objective"] == "Price"


def test_an_added_leading_question_gets_a_framing_warning() -> None:
    revised = revise("Don't you agree the shoe is great?")
    assert revised["framingWarnings"] == ['Question 6 leads the respondent ("don\'t you agree")']


README_REQUEST = "How do Gen Z sneaker buyers in Germany feel about a 140 EUR price for our new running shoe?"


async def _revise(client: httpx.AsyncClient, revision: dict, **body: Any) -> dict:
    response = await preview(
        client, LAUNCH_STUDY, {"draftPlanId": revision["draftPlanId"], "revision": revision["revision"], **body}
    )
    assert response.status_code == 200, response.text
    return response.json()["data"]


async def test_revise_through_the_api_adds_the_why_question_about_the_requests_topic(client: httpx.AsyncClient) -> None:
    first = await planned_revision(client, LAUNCH_STUDY, README_REQUEST)
    second = await _revise(client, first, refinement="add an open why question")
    assert [q["id"] for q in second["questions"][:-1]] == [q["id"] for q in first["questions"]]
    added = second["questions"][-1]
    assert added["text"] == "Why would you, or would you not, buy the new running shoe at 140 EUR?"
    assert added["response"] == {"type": "qualitative"} and added["moduleId"] == second["modules"][-1]["id"]
    assert added["id"] in second["modules"][-1]["questionIds"]
    assert second["objective"] == first["objective"] and "plannerNotes" not in second

    third = await _revise(client, second, refinement="Make it more fun")
    assert third["questions"] == second["questions"] and third["objective"] == first["objective"]
    assert third["plannerNotes"][0].startswith('Not applied to the questions: "Make it more fun".')
    fourth = await _revise(client, third, refinement="only 3 questions")
    assert len(fourth["questions"]) == 3 and "plannerNotes" not in fourth  # a note belongs to its revision


async def test_the_requesters_options_fill_the_added_preference_question(client: httpx.AsyncClient) -> None:
    first = await planned_revision(client, LAUNCH_STUDY, README_REQUEST)
    second = await _revise(client, first, refinement="ask which of three claims they prefer")
    asked = second["confirmationQuestions"][-1]
    question_id = second["questions"][-1]["id"]
    assert asked["id"] == f"cq_{question_id}_options" and "options" not in asked
    third = await _revise(
        client, second, answers={asked["id"]: "Lightest in its class\nMade in Germany\nRuns 1,000 km"}
    )
    assert third["questions"][-1]["response"]["categoricalOptions"] == [
        "Lightest in its class",
        "Made in Germany",
        "Runs 1,000 km",
        "No preference",
    ]
    assert asked["id"] not in [c["id"] for c in third["confirmationQuestions"]]
