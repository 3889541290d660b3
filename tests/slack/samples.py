"""Minds payloads for the Slack surface tests (camelCase wire shapes; ids are UUIDs)."""

from __future__ import annotations

import uuid
from typing import Any

TS = "2026-11-02T10:00:00Z"


def uid(n: int) -> str:
    return str(uuid.UUID(int=n))


STUDY_ID = uid(1)
RUN_ID = uid(5)
MESSAGE_ID = "cmsg0000000000000000001"


def audience_ref(n: int, name: str, minds: int) -> dict[str, Any]:
    return {
        "id": uid(2000 + n),
        "name": name,
        "mindCount": minds,
        "minds": [{"id": uid(3000 + n * 100 + i), "name": f"Mind {i}"} for i in range(minds)],
    }


def study(n: int, name: str | None = None, *, audiences: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {
        "id": uid(1000 + n),
        "name": name or f"Study {n}",
        "createdAt": TS,
        "updatedAt": TS,
        "messageCount": 4,
        "isPublic": False,
        "isLinkSharingEnabled": False,
        "audiences": audiences if audiences is not None else [audience_ref(1, "Parents", 12)],
    }


def study_detail(name: str = "Launch positioning", *, questions: int = 2, shared: bool = False) -> dict[str, Any]:
    s = study(0, name, audiences=[audience_ref(1, "Parents", 12), audience_ref(2, "Students", 8)])
    s["id"] = STUDY_ID
    s["isLinkSharingEnabled"] = shared
    s["messages"] = [
        {"id": f"m{i}", "role": "user", "content": f"Question number {i}?", "metadata": {}, "createdAt": TS}
        for i in range(questions)
    ] + [{"id": "a1", "role": "assistant", "content": "…", "metadata": {}, "createdAt": TS}]
    s["questionCount"] = questions  # Minds' count (each sample message asks one question)
    return s


def audience(n: int, name: str | None = None, minds: int = 5) -> dict[str, Any]:
    return {
        "id": uid(2000 + n),
        "name": name or f"Audience {n}",
        "mindCount": minds,
        "minds": [],
        "currentMemberRole": "owner",
    }


def mind(n: int, name: str | None = None) -> dict[str, Any]:
    return {"id": uid(3000 + n), "name": name or f"Mind {n}", "discipline": "Design", "tags": ["urban"]}


def agent_run(status: str, *, run_id: str = RUN_ID, message_id: str | None = None) -> dict[str, Any]:
    run: dict[str, Any] = {"runId": run_id, "status": status}
    if message_id:
        run["messageId"] = message_id
    return run


def output_data(kind: str = "categorical") -> dict[str, Any]:
    def answers(prefix: str, values: list[str]) -> list[dict[str, Any]]:
        return [
            {"value": v, "persona": f"{prefix} {i}", "message": f"{prefix} {i} says {v} because it fits my week."}
            for i, v in enumerate(values)
        ]

    if kind == "qualitative":
        return {
            "title": "What frustrates you about delivery?",
            "type": "qualitative",
            "audiences": [
                {
                    "audience": "Parents",
                    "value": "Themes: late arrivals, missing items.",
                    "answers": answers("P", ["x"] * 3),
                },
                {"audience": "Students", "value": "Themes: fees.", "answers": answers("S", ["y"] * 2)},
            ],
        }
    return {
        "title": "Would you pay $5 a month for faster delivery?",
        "type": kind,
        "audiences": [
            {"audience": "Parents", "value": "Yes", "answers": answers("P", ["Yes", "Yes", "No", "Yes"])},
            {"audience": "Students", "value": "No", "answers": answers("S", ["No", "No", "Yes"])},
        ],
    }
