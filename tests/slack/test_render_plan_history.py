"""The plan header says who answers (Audiences and Mind counts, the revision's selection when Minds narrowed
it), the Approve dialog counts exactly what the run sends, answered confirmation questions stay on the plan with
who answered them, and a revision says which questions changed since the one shown before."""

from __future__ import annotations

import dataclasses
import json

from minds_bot.minds.models import QuestionResponse
from minds_bot.render.plan import confirm_text, freeze, questionnaire_markdown, render_plan
from minds_bot.render.plan_gate import AudienceInfo
from minds_bot.render.plan_history import AnsweredBy, PreviousRevision
from tests.slack.plan_samples import CONTEXT, catalogue, plan

NARROWED = dataclasses.replace(CONTEXT, audiences=(AudienceInfo("Students", 4),), narrowed=True)


def _shown(message) -> str:
    return json.dumps([b.to_dict() for b in message.blocks], ensure_ascii=False)


def test_the_header_names_every_audience_with_its_minds() -> None:
    shown = _shown(render_plan(plan(), CONTEXT, catalogue=catalogue()).message)
    assert "Who answers: Commuters (8 Minds), Students (4 Minds) — 12 Minds in total" in shown


def test_a_narrowed_revision_names_only_its_audience_in_the_header_and_the_dialog() -> None:
    answered = plan(confirmationQuestions=[])
    shown = _shown(render_plan(answered, NARROWED, catalogue=catalogue()).message)
    assert "Who answers: Students (4 Minds) (chosen for this revision)" in shown
    assert "Commuters" not in shown
    assert confirm_text(answered, NARROWED) == (
        "Run 3 questions of revision 1 with 1 Audience (Students): 4 Minds, up to 12 responses "
        "(3 questions × 4 Minds). Responses count toward your Minds plan."
    )


def test_an_unknown_mind_count_is_said_never_guessed() -> None:
    unknown = dataclasses.replace(CONTEXT, audiences=(AudienceInfo("Commuters", None),))
    answered = plan(confirmationQuestions=[])
    assert "Who answers: Commuters (Mind count unknown)" in _shown(
        render_plan(answered, unknown, catalogue=catalogue()).message
    )
    assert confirm_text(answered, unknown).startswith(
        "Run 3 questions of revision 1 with 1 Audience (Commuters): Mind count unknown."
    )


def test_answered_questions_stay_on_the_plan_with_who_answered_also_after_approval() -> None:
    answered = plan(revision=2, confirmationQuestions=[], answeredConfirmations={"cq1": "Yes"})
    context = dataclasses.replace(
        CONTEXT, answered_by={"cq1": AnsweredBy(question="Is 140 EUR the final shelf price?", user_id="UADA")}
    )
    message = render_plan(answered, context, catalogue=catalogue()).message
    line = "Answered by <@UADA>: Is 140 EUR the final shelf price? — Yes"
    assert line in _shown(message)
    frozen = freeze([b.to_dict() for b in message.blocks], "approved")
    assert line in _shown(frozen)
    assert "- Answered by <@UADA>: Is 140 EUR the final shelf price? — Yes" in questionnaire_markdown(answered, context)


def test_an_answer_not_given_here_is_shown_without_a_name() -> None:
    answered = plan(confirmationQuestions=[], answeredConfirmations={"cq1": "No"})
    assert "Answered outside this message: cq1 — No" in _shown(
        render_plan(answered, CONTEXT, catalogue=catalogue()).message
    )


def test_a_revision_lists_the_questions_added_removed_and_reworded() -> None:
    previous = PreviousRevision(
        1, (("q1", "Do you drink coffee on the go?"), ("q2", "An older wording?"), ("q9", "Gone question?"))
    )
    context = dataclasses.replace(CONTEXT, previous=previous)
    shown = _shown(render_plan(plan(revision=2), context, catalogue=catalogue()).message)
    # each named by the number a reader sees: in this revision, or for a removed one in revision 1
    assert "*Changed since revision 1:*\\n• Added Q3: What would make you switch?" in shown
    assert "• Removed Q3: Gone question?" in shown
    assert "• Reworded Q2: “An older wording?” → “How likely are you to buy a *reusable* cup" in shown
    assert "q9" not in shown


def test_a_reworded_question_that_moved_says_its_earlier_number() -> None:
    now = plan(revision=2)
    first, second, third = ((q.id, q.text) for q in now.questions)
    previous = PreviousRevision(1, (("q0", "Do you own a car?"), first, (second[0], "An older wording?"), third))
    shown = _shown(render_plan(now, dataclasses.replace(CONTEXT, previous=previous), catalogue=catalogue()).message)
    assert "• Removed Q1: Do you own a car?" in shown
    assert "• Reworded Q2 (was Q3): “An older wording?” → “" in shown
    assert "Added" not in shown


def test_a_question_answered_differently_says_how_before_and_now() -> None:
    now = plan(revision=2)
    previous = PreviousRevision(
        1,
        tuple((q.id, q.text) for q in now.questions),
        responses={
            "q1": QuestionResponse(type="categorical", categorical_options=["Claim 1", "Claim 2"]),
            "q3": now.questions[2].response,
        },
    )
    shown = _shown(render_plan(now, dataclasses.replace(CONTEXT, previous=previous), catalogue=catalogue()).message)
    assert (
        "*Changed since revision 1:*\\n• Changed how Q1 is answered: One of: Claim 1 · Claim 2 → One of: Yes · No"
        in shown
    )
    assert "Q3 is answered" not in shown and "No question changed" not in shown


def test_minds_notes_on_a_revision_are_shown_escaped() -> None:
    noted = plan(revision=2, plannerNotes=['Not applied to the questions: "make it <!channel> fun".'])
    shown = _shown(render_plan(noted, CONTEXT, catalogue=catalogue()).message)
    assert (
        ":information_source: *Notes from Minds on this revision*\\n"
        '• Not applied to the questions: \\"make it &lt;!channel&gt; fun\\".'
    ) in shown
    assert "## Notes from Minds on this revision\n\n- Not applied to the questions" in questionnaire_markdown(
        noted, CONTEXT
    )
    assert "Notes from Minds" not in _shown(render_plan(plan(), CONTEXT, catalogue=catalogue()).message)


def test_a_revision_without_question_changes_says_so() -> None:
    same = PreviousRevision(1, tuple((q.id, q.text) for q in plan().questions))
    shown = _shown(
        render_plan(plan(revision=2), dataclasses.replace(CONTEXT, previous=same), catalogue=catalogue()).message
    )
    assert "*Changed since revision 1:* No question changed." in shown
    assert "Changed since" not in _shown(render_plan(plan(), CONTEXT, catalogue=catalogue()).message)


def test_minds_words_in_the_answered_and_changed_lines_are_inert() -> None:
    hostile = "<!channel> *bold* <https://evil.example|click> & :boom:"
    answered = plan(revision=2, confirmationQuestions=[], answeredConfirmations={"cq1": hostile})
    context = dataclasses.replace(
        CONTEXT,
        audiences=(AudienceInfo(hostile, 3),),
        answered_by={"cq1": AnsweredBy(question=hostile, user_id="UADA")},
        previous=PreviousRevision(
            1,
            (("q1", hostile),),
            responses={"q1": QuestionResponse(type="categorical", categorical_options=[hostile, "x"])},
        ),
    )
    shown = _shown(render_plan(answered, context, catalogue=catalogue()).message)
    assert "<!channel>" not in shown and "<https://evil.example" not in shown
    assert "&lt;!channel&gt;" in shown
    assert "• Changed how Q1 is answered: One of: &lt;!channel&gt;" in shown


def test_a_revision_that_changed_many_questions_lists_them_by_number_and_still_fits() -> None:
    many = plan(revision=2, questions=60)
    previous = PreviousRevision(
        1,
        tuple((q.id, f"An older and much longer wording of {q.text} " * 3) for q in many.questions),
        responses={
            "q1": QuestionResponse(type="qualitative"),
            "q3": QuestionResponse(type="scale", scale_range=[1, 5]),
        },
    )
    message = render_plan(many, dataclasses.replace(CONTEXT, previous=previous), catalogue=catalogue()).message
    shown = _shown(message)
    numbers = ", ".join(f"Q{n}" for n in range(1, 61))
    assert f"*Changed since revision 1:*\\n• Reworded: {numbers}\\n• Answer format changed: Q1, Q3" in shown
    assert len(message.blocks) <= 50
