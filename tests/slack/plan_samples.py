"""Plan and run payloads shaped as CONTRACT.md describes them, for rendering and listener tests."""

from __future__ import annotations

from typing import Any

from minds_bot.minds import ResearchMethod, ResearchPlan, ResearchRun
from minds_bot.render.plan import PlanContext
from minds_bot.render.plan_gate import AudienceInfo
from tests.fakes.minds_http import FakeMindsAPI, ok, raw

Q2_TEXT = "How likely are you to buy a *reusable* cup at <€5 & up? :coffee:"


def plan_data(*, revision: int = 1, questions: int = 3, advanced: bool = False, **extra: Any) -> dict[str, Any]:
    items: list[dict[str, Any]] = [
        {
            "id": "q1",
            "moduleId": "m1",
            "text": "Do you drink coffee on the go?",
            "response": {"type": "categorical", "categoricalOptions": ["Yes", "No"]},
        },
        {
            "id": "q2",
            "moduleId": "m1",
            "text": Q2_TEXT,
            "response": {"type": "scale", "scaleRange": [1, 5]},
            "askIf": {"questionId": "q1", "answerIn": ["Yes"]},
        },
        {"id": "q3", "moduleId": "m2", "text": "What would make you switch?", "response": {"type": "qualitative"}},
    ]
    for n in range(4, questions + 1):
        items.append(
            {
                "id": f"q{n}",
                "moduleId": "m2",
                "text": f"Extra question number {n}?",
                "response": {"type": "qualitative"},
            }
        )
    data: dict[str, Any] = {
        "draftPlanId": "draft-1",
        "revision": revision,
        "objective": "Decide the launch message",
        "modules": [
            {"id": "m1", "title": "Habits", "purpose": "How people drink coffee", "questionIds": ["q1", "q2"]},
            {"id": "m2", "title": "Switching", "questionIds": [q["id"] for q in items[2:]]},
        ],
        "questions": items[:questions],
        "methods": [{"id": "maxdiff", "name": "MaxDiff", "executable": True, "advanced": advanced}],
        "confirmationQuestions": [
            {"id": "cq1", "text": "Should the Minds see the price?", "options": ["Yes", "No"]},
            "Anything the Minds should know about the brand?",
        ],
        "framingWarnings": ["Question 2 leads the respondent"],
    }
    data.update(extra)
    return data


METHODS = [
    {"id": "survey", "name": "Survey questionnaire", "executable": True, "advanced": False},
    {"id": "maxdiff", "name": "MaxDiff", "executable": True, "advanced": True, "availability": "available"},
    {
        "id": "conjoint",
        "name": "Conjoint",
        "executable": False,
        "advanced": True,
        "availability": "planned",
        "fallbackMethodId": "maxdiff",
    },
]


def catalogue() -> dict[str, ResearchMethod]:
    """Minds' method catalogue as the bot keeps it (by id)."""
    return {m["id"]: ResearchMethod.model_validate(m) for m in METHODS}


def plan(**kwargs: Any) -> ResearchPlan:
    return ResearchPlan.model_validate(plan_data(**kwargs))


CONTEXT = PlanContext(
    study_name="Reusable cups",
    requester_id="UREQ",
    audiences=(AudienceInfo("Commuters", 8), AudienceInfo("Students", 4)),
)


def study_data(study_id: str = "11111111-1111-4111-8111-111111111111") -> dict[str, Any]:
    return {
        "id": study_id,
        "name": "Reusable cups",
        "createdAt": "2026-11-01T09:00:00Z",
        "updatedAt": "2026-11-02T09:00:00Z",
        "audiences": [
            {"id": "a1", "name": "Commuters", "minds": [], "mindCount": 8},
            {"id": "a2", "name": "Students", "minds": [], "mindCount": 4},
        ],
        "messages": [],
    }


def categorical_output() -> dict[str, Any]:
    return {
        "title": "Do you drink coffee on the go?",
        "type": "categorical",
        "classification": {"type": "categorical", "options": ["Yes", "No"]},
        "audiences": [
            {
                "audience": "Commuters",
                "value": "Mostly yes",
                "answers": [
                    {"value": "Yes", "persona": "Ana", "message": "Every day."},
                    {"value": "Yes", "persona": "Ben", "message": "On the train."},
                    {"value": "No", "persona": "Cy", "message": "At home."},
                ],
            },
            {
                "audience": "Students",
                "value": "Split",
                "answers": [
                    {"value": "Yes", "persona": "Di", "message": "Sometimes."},
                    {"value": "No", "persona": "Ed", "message": "Never."},
                ],
            },
        ],
        "responseCoverage": {"expected": 5, "received": 5, "missing": []},
    }


def run_data(status: str, **extra: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "runId": "run-1",
        "status": status,
        "progress": {"total": 3, "settled": 3, "failed": 0, "partial": 0, "skipped": 1, "pct": 100},
        "artifacts": [
            {"index": 0, "questionId": "q1", "kind": "response", "outputData": categorical_output()},
            {
                "index": 1,
                "questionId": "q2",
                "kind": "not_asked",
                "routing": {
                    "questionId": "q2",
                    "gateQuestionId": "q1",
                    "answerIn": ["Yes"],
                    "askedCount": 0,
                    "notAskedCount": 5,
                },
            },
            {
                "index": 2,
                "questionId": "q3",
                "kind": "response",
                "outputData": {
                    "title": "What would make you switch?",
                    "type": "qualitative",
                    "categoryCodebook": [{"label": "Price", "originalLabels": [], "count": 3}],
                    "audiences": [
                        {
                            "audience": "Commuters",
                            "value": "Price",
                            "answers": [{"value": "x", "persona": "Ana", "message": "A lower price."}],
                        }
                    ],
                },
            },
        ],
    }
    data.update(extra)
    return data


def run(status: str, **extra: Any) -> ResearchRun:
    return ResearchRun.model_validate(run_data(status, **extra))


def serve_approvable_plan(api: FakeMindsAPI, *, study_id: str = "11111111-1111-4111-8111-111111111111") -> FakeMindsAPI:
    """Route a fake Minds so that revision 1 of ``draft-1`` reads back answered and runnable (Approve's checks)."""
    api.on("POST", f"/studies/{study_id}/research-plans/preview", ok(plan_data(confirmationQuestions=[])))
    api.on("GET", "/research-methods", raw({"data": METHODS}))
    return api
