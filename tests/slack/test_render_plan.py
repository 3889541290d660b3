"""The plan message shows the exact questionnaire, one primary button and an honest confirm dialog; big plans
are paged with the whole questionnaire attached, never cut."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minds_bot.minds import ResearchPlan
from minds_bot.render import MAX_BLOCKS_PER_MESSAGE, MAX_SECTION_TEXT
from minds_bot.render.plan import (
    BLOCK_OPT_IN,
    approval_gate,
    confirm_text,
    freeze,
    questionnaire_markdown,
    render_plan,
    render_preparing,
)
from minds_bot.render.plan_dialogs import answer_all_modal
from tests.slack.plan_samples import CONTEXT, Q2_TEXT, catalogue, plan, plan_data


def _dicts(message) -> list[dict]:
    return [b.to_dict() for b in message.blocks]


def _texts(blocks: list[dict]) -> list[str]:
    out = []
    for block in blocks:
        text = block.get("text") or {}
        if text.get("text"):
            out.append(text["text"])
        for element in block.get("elements") or []:
            if isinstance(element.get("text"), str):
                out.append(element["text"])
    return out


def _buttons(blocks: list[dict]) -> list[dict]:
    return [e for b in blocks if b["type"] == "actions" for e in b["elements"] if e["type"] == "button"]


def test_questions_are_shown_in_their_exact_text_with_numbers_response_types_and_routing() -> None:
    blocks = _dicts(render_plan(plan(), CONTEXT, catalogue=catalogue()).message)
    question = next(b for b in blocks if b["type"] == "section" and Q2_TEXT in b["text"]["text"])
    assert question["text"] == {
        "type": "plain_text",
        "text": f"Q2. {Q2_TEXT}\n(Scale 1–5 · asked if Q1 = Yes)",
        "emoji": False,
    }
    texts = "\n".join(_texts(blocks))
    assert "Q1. Do you drink coffee on the go?\n(One of: Yes · No)" in texts
    assert "Q3. What would make you switch?\n(Open answer)" in texts
    assert "*Habits* — How people drink coffee" in texts


def test_framing_warnings_come_before_the_questions_and_methods_flag_advanced_ones() -> None:
    texts = _texts(_dicts(render_plan(plan(advanced=True), CONTEXT, catalogue=catalogue()).message))
    warning = next(i for i, t in enumerate(texts) if "Framing warnings" in t)
    first_question = next(i for i, t in enumerate(texts) if t.startswith("Q1."))
    assert warning < first_question and "Question 2 leads the respondent" in texts[warning]
    assert any("MaxDiff" in t and "advanced: needs an explicit opt-in" in t for t in texts)


def test_confirmation_questions_get_one_button_per_option_or_an_answer_button() -> None:
    buttons = _buttons(_dicts(render_plan(plan(revision=4), CONTEXT, catalogue=catalogue()).message))
    labels = [b["text"]["text"] for b in buttons]
    assert labels == [
        "Yes",
        "No",
        "Answer…",
        "Revise…",
        "Discard",
        "Save as draft",
        "Save as template",
    ]  # Approve waits for the answers
    assert json.loads(buttons[0]["value"]) == {"r": 4, "q": "cq1", "a": "Yes"}
    assert json.loads(buttons[2]["value"]) == {"r": 4, "q": "2"}  # a bare-string question's id is its position


def test_approve_is_the_only_primary_button_and_its_dialog_gives_the_counts() -> None:
    answered = plan(confirmationQuestions=[])
    buttons = _buttons(_dicts(render_plan(answered, CONTEXT, catalogue=catalogue()).message))
    primary = [b for b in buttons if b.get("style") == "primary"]
    assert [b["text"]["text"] for b in primary] == ["Approve & run"]
    dialog = primary[0]["confirm"]["text"]["text"]
    assert dialog == (
        "Run 3 questions of revision 1 with 2 Audiences (Commuters, Students): 12 Minds, up to 36 responses "
        "(3 questions × 12 Minds). Responses count toward your Minds plan."
    )  # "up to": Q2 is asked only to those who answer Q1 with Yes


def test_an_advanced_plan_asks_for_an_explicit_opt_in() -> None:
    message = render_plan(plan(advanced=True), CONTEXT, catalogue=catalogue()).message
    blocks = _dicts(message)
    assert any(b.get("block_id") == BLOCK_OPT_IN for b in blocks)
    assert "You opt in to the advanced methods: MaxDiff." in confirm_text(plan(advanced=True), CONTEXT)
    assert not any(
        b.get("block_id") == BLOCK_OPT_IN for b in _dicts(render_plan(plan(), CONTEXT, catalogue=catalogue()).message)
    )


def test_a_big_plan_is_paged_into_the_thread_with_the_full_questionnaire_attached() -> None:
    big = plan(questions=45, confirmationQuestions=[])
    rendered = render_plan(big, CONTEXT, catalogue=catalogue())
    main_texts = "\n".join(_texts(_dicts(rendered.message)))
    assert "Questions 21–40, Questions 41–45 follow in the thread" in main_texts
    assert [p.text.split(" ·")[0] for p in rendered.pages] == ["Questions 21–40", "Questions 41–45"]
    shown = [t for m in [rendered.message, *rendered.pages] for t in _texts(_dicts(m)) if re.match(r"Q\d+\. ", t)]
    assert [int(t.split(".")[0][1:]) for t in shown] == list(range(1, 46))  # every question once, in order
    assert rendered.questionnaire is not None
    assert "45. Extra question number 45?" in rendered.questionnaire
    assert f"2. {Q2_TEXT}" in rendered.questionnaire and "asked if 1 = Yes" not in rendered.questionnaire
    assert len(rendered.message.blocks) <= MAX_BLOCKS_PER_MESSAGE
    assert sum(1 for b in _buttons(_dicts(rendered.message)) if b.get("style") == "primary") == 1


def test_a_small_plan_is_not_paged() -> None:
    rendered = render_plan(plan(), CONTEXT, catalogue=catalogue())
    assert rendered.pages == [] and rendered.questionnaire is None


@settings(max_examples=40, deadline=None)
@given(
    lengths=st.lists(st.integers(min_value=1, max_value=7000), min_size=1, max_size=30),
)
def test_no_question_text_is_ever_cut(lengths: list[int]) -> None:
    data = plan().model_dump(by_alias=True)
    data["questions"] = [
        {"id": f"q{i}", "text": ("word " * n)[:n], "response": {"type": "qualitative"}} for i, n in enumerate(lengths)
    ]
    data["modules"] = []
    from minds_bot.minds import ResearchPlan

    big = ResearchPlan.model_validate(data)
    rendered = render_plan(big, CONTEXT, catalogue=catalogue())
    sections = [b for m in [rendered.message, *rendered.pages] for b in _dicts(m) if b["type"] == "section"]
    assert all(len(s["text"]["text"]) <= MAX_SECTION_TEXT for s in sections)
    joined = "".join(s["text"]["text"] for s in sections if s["text"]["type"] == "plain_text")
    for question in big.questions:
        assert question.text.replace(" ", "") in joined.replace(" ", "").replace("\n", "")


def test_freezing_removes_every_button_and_says_who_approved() -> None:
    message = render_plan(plan(advanced=True), CONTEXT, catalogue=catalogue()).message
    frozen = freeze(_dicts(message), "Approved by <@U1>: revision 1 is running.")
    assert _buttons(_dicts(frozen)) == [] and not any(b["type"] == "actions" for b in _dicts(frozen))
    assert _texts(_dicts(frozen))[-1] == "Approved by <@U1>: revision 1 is running."


@pytest.mark.parametrize(
    ("stage", "expected"),
    [(None, "Preparing the plan for Cups…"), ("drafting", "Preparing the plan for Cups… (stage: drafting)")],
)
def test_preparing_says_accepted_not_finished(stage: str | None, expected: str) -> None:
    message = render_preparing("Cups", stage=stage)
    assert message.text == expected
    assert "nothing runs until someone approves" in "\n".join(_texts(_dicts(message)))


def test_markdown_questionnaire_keeps_every_piece() -> None:
    text = questionnaire_markdown(plan(), CONTEXT)
    assert "## Framing warnings" in text and "- Question 2 leads the respondent" in text
    assert "- Should the Minds see the price? (Yes / No)" in text
    assert "   - asked if Q1 = Yes" in text


def test_open_confirmation_questions_replace_approve_with_how_many_are_left() -> None:
    blocks = _dicts(render_plan(plan(), CONTEXT, catalogue=catalogue()).message)
    assert "Approve & run" not in [b["text"]["text"] for b in _buttons(blocks)]
    assert any("Answer 2 more questions to approve." in t for t in _texts(blocks))
    one = plan(confirmationQuestions=["Anything else?"])
    assert approval_gate(one, catalogue()).reasons() == ["Answer 1 more question to approve."]
    assert not approval_gate(plan(confirmationQuestions=[]), catalogue()).blocked


def test_a_method_is_judged_by_the_catalogue_and_its_fallback_offered_only_when_executable() -> None:
    conjoint = plan(confirmationQuestions=[], methods=[{"id": "conjoint", "executable": True}])
    (problem,) = approval_gate(conjoint, catalogue()).problems
    assert problem.fallback is not None and problem.fallback.id == "maxdiff"  # the catalogue wins over the plan
    without = {k: v for k, v in catalogue().items() if k != "maxdiff"}
    (orphan,) = approval_gate(conjoint, without).problems
    assert orphan.fallback is None and orphan.reason.endswith("Revise the plan.")
    denied = plan(confirmationQuestions=[], methods=[{"id": "maxdiff", "executable": False}])
    assert approval_gate(denied, catalogue()).blocked, "a plan entry marked not executable is not run either"


def test_too_many_confirmation_questions_become_one_dialog_and_the_questionnaire_is_attached() -> None:
    many = [{"id": f"cq{i}", "text": f"Question {i}?", "options": ["Yes", "No"]} for i in range(60)]
    rendered = render_plan(plan(confirmationQuestions=many), CONTEXT, catalogue=catalogue())
    blocks = _dicts(rendered.message)
    assert len(blocks) <= MAX_BLOCKS_PER_MESSAGE
    labels = [b["text"]["text"] for b in _buttons(blocks)]
    assert labels == ["Answer all 60 questions…", "Revise…", "Discard", "Save as draft", "Save as template"]
    assert rendered.questionnaire is not None and "- Question 59? (Yes / No)" in rendered.questionnaire
    modal = answer_all_modal(metadata="{}", plan=plan(confirmationQuestions=many)).to_dict()
    assert [b["block_id"] for b in modal["blocks"] if b["type"] == "input"] == [f"cq_{i}" for i in range(60)]


def test_a_question_shows_the_stimulus_minds_assigned_to_it_and_only_that_question() -> None:
    data = plan_data()
    data["attachments"] = [{"id": "att-1", "name": "cup <v2>.png", "type": "image/png"}]
    data["questions"][0]["attachmentIds"] = ["att-1"]
    data["questions"][1]["attachmentIds"] = ["att-unknown"]  # not on the plan: nothing is guessed
    shown = ResearchPlan.model_validate(data)
    texts = _texts(_dicts(render_plan(shown, CONTEXT, catalogue=catalogue()).message))
    q1 = next(t for t in texts if t.startswith("Q1."))
    q2 = next(t for t in texts if t.startswith("Q2."))
    assert q1.endswith(")\nStimulus: cup <v2>.png")  # plain_text: the name as it is, nothing to escape
    assert "Stimulus" not in q2
    assert "   - Stimulus: cup <v2>.png" in questionnaire_markdown(shown, CONTEXT)
