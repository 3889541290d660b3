"""Realistic Minds v1 payloads for the client tests (ids are UUIDs so the OpenAPI formats hold)."""

from __future__ import annotations

import uuid
from typing import Any


def uid(n: int) -> str:
    return str(uuid.UUID(int=n))


STUDY_ID = uid(1)
AUDIENCE_ID = uid(2)
MIND_ID = uid(3)
PLAN_ID = uid(4)
RUN_ID = uid(5)
TS = "2025-01-02T03:04:05Z"


def study(n: int, name: str | None = None) -> dict[str, Any]:
    return {
        "id": uid(1000 + n),
        "name": name or f"Study {n}",
        "flowMode": "study",
        "studyMode": "study",
        "createdAt": TS,
        "updatedAt": TS,
        "messageCount": 2,
        "isLinkSharingEnabled": False,
        "publicShareId": None,
        "audiences": [
            {"id": AUDIENCE_ID, "name": "Parents", "mindCount": 1, "minds": [{"id": MIND_ID, "name": "Ana"}]}
        ],
    }


def study_detail() -> dict[str, Any]:
    s = study(0, "Launch positioning")
    s["id"] = STUDY_ID
    s["messages"] = [{"id": "m1", "role": "user", "content": "Hi", "metadata": {}, "createdAt": TS}]
    return s


def audience(n: int, name: str | None = None) -> dict[str, Any]:
    return {
        "id": uid(2000 + n),
        "name": name or f"Audience {n}",
        "mindCount": 1,
        "minds": [{"id": MIND_ID, "name": "Ana"}],
        "currentMemberRole": "owner",
    }


def mind(n: int, name: str | None = None) -> dict[str, Any]:
    return {
        "id": uid(3000 + n),
        "name": name or f"Mind {n}",
        "description": "",
        "type": "user",
        "tags": [],
        "createdAt": TS,
        "updatedAt": TS,
    }


def plan(revision: int = 1, **extra: Any) -> dict[str, Any]:
    return {
        "draftPlanId": PLAN_ID,
        "revision": revision,
        "replayed": False,
        "objective": "Decide the launch message",
        "studyLocale": "en",
        "modules": [{"id": "m1", "title": "Awareness", "purpose": "Baseline", "questionIds": ["q1", "q2"]}],
        "questions": [
            {
                "id": "q1",
                "moduleId": "m1",
                "text": "Have you heard of us?",
                "response": {"type": "categorical", "categoricalOptions": ["Yes", "No"]},
            },
            {
                "id": "q2",
                "moduleId": "m1",
                "text": "How much do you like it?",
                "response": {"type": "scale", "scaleRange": [1, 5]},
                "askIf": {"questionId": "q1", "answerIn": ["Yes"]},
            },
        ],
        "methods": [{"id": "maxdiff", "name": "MaxDiff", "executable": True, "advanced": True}],
        "confirmationQuestions": [{"id": "cq1", "text": "Should the Minds see the price?", "options": ["Yes", "No"]}],
        "framingWarnings": ["Question 3 leads the respondent"],
        **extra,
    }


def receipt(request_id: str = "plan-reusable-cup-01", stage: str | None = "drafting") -> dict[str, Any]:
    r = {"status": "pending", "accepted": True, "operationId": uid(77), "requestId": request_id}
    if stage:
        r["stage"] = stage
    return r


def research_run(status: str = "partial") -> dict[str, Any]:
    return {
        "runId": RUN_ID,
        "status": status,
        "progress": {"total": 3, "settled": 3, "failed": 0, "partial": 1, "skipped": 0, "pct": 100},
        "completedQuestions": 3,
        "artifacts": [
            {
                "index": 0,
                "questionId": "q1",
                "messageId": uid(90),
                "kind": "response",
                "outputData": {
                    "title": "Heard of us",
                    "type": "categorical",
                    "responseCoverage": {
                        "expected": 8,
                        "received": 7,
                        "missing": [{"audienceId": AUDIENCE_ID, "mindId": MIND_ID}],
                    },
                },
                "answerConsistency": {"flags": [{"mindId": MIND_ID, "withItem": 2, "reason": "contradicts"}]},
            },
            {
                "index": 1,
                "questionId": "q2",
                "kind": "not_asked",
                "routing": {
                    "questionId": "q2",
                    "gateQuestionId": "q1",
                    "answerIn": ["Yes"],
                    "askedCount": 0,
                    "notAskedCount": 8,
                    "notAskedMindIds": [MIND_ID],
                    "gateUnavailable": False,
                },
            },
        ],
        "answerConsistency": {
            "status": "checked",
            "checkedMinds": 8,
            "flaggedMinds": 1,
            "flagCount": 1,
            "uncheckedMinds": 0,
        },
    }
