"""Saved research-plan drafts and their revisions.

Owns: creating drafts and revisions from planner output, reading the latest revision and shaping the preview
body. Must not touch HTTP or the planner's rules (see ``planner``).
"""

from __future__ import annotations

import copy
from typing import Any

from minds_sandbox.planner import BRIEF_KEY, AudienceRef
from minds_sandbox.state import Record, SandboxState


def study_audiences(state: SandboxState, study: Record) -> list[AudienceRef]:
    return [AudienceRef(id=a, name=state.audiences[a]["name"]) for a in study["audienceIds"] if a in state.audiences]


def new_plan(state: SandboxState, *, study: Record, body: dict[str, Any], now: float) -> Record:
    plan = {"id": state.new_id("plan"), "studyId": study["id"], "revisions": [], "confirmed": {}}
    state.plans[plan["id"]] = plan
    return add_revision(state, plan=plan, body=body, now=now)


def add_revision(state: SandboxState, *, plan: Record, body: dict[str, Any], now: float) -> Record:
    revision = {
        **copy.deepcopy(body),
        "draftPlanId": plan["id"],
        "revision": len(plan["revisions"]) + 1,
        "createdAt": now,
    }
    revision.setdefault("confirmationAnswers", {})
    plan["revisions"].append(revision)
    state.touch()
    return revision


def latest(plan: Record) -> Record:
    return plan["revisions"][-1]


def revision_view(state: SandboxState, revision: Record, *, replayed: bool) -> dict[str, Any]:
    """The 200 preview body: the saved revision exactly as stored, its answered confirmation questions
    (``answeredConfirmations``: question id → answer) and, when an answer narrowed who answers, the Audiences a
    run of this revision asks (``audienceIds``; absent: every Audience attached to the Study)."""
    hidden = ("createdAt", "confirmationAnswers", BRIEF_KEY)  # the planner's own notes are not Minds' words
    view = {k: copy.deepcopy(v) for k, v in revision.items() if k not in hidden}
    view["replayed"] = replayed
    view["answeredConfirmations"] = dict(revision["confirmationAnswers"])
    study = state.studies.get(state.plans[revision["draftPlanId"]]["studyId"])
    if study is not None:
        selected = _named_audiences(state, study=study, revision=revision)
        if selected:
            view["audienceIds"] = selected
    return view


def run_audience_ids(state: SandboxState, *, study: Record, revision: Record) -> list[str]:
    """Audiences the confirmed plan asks: all attached, unless a confirmation answer named one of them."""
    return _named_audiences(state, study=study, revision=revision) or list(study["audienceIds"])


def _named_audiences(state: SandboxState, *, study: Record, revision: Record) -> list[str]:
    chosen = revision["confirmationAnswers"].get("cq1")
    return [a for a in study["audienceIds"] if a in state.audiences and state.audiences[a]["name"] == chosen]
