"""Wire shapes of sandbox records, as the Minds OpenAPI and CONTRACT.md declare them.

Owns: turning state records into response bodies. Pure functions; must not mutate state or touch HTTP.
"""

from __future__ import annotations

from typing import Any

from minds_sandbox.clock import iso
from minds_sandbox.grounding import active_distributions, grounding_sources, review_distributions
from minds_sandbox.ids import stable_id
from minds_sandbox.state import Record, SandboxState

RESEARCH_METHODS = (
    {
        "id": "survey",
        "version": 1,
        "complexity": "basic",
        "requiredConfiguration": [],
        "name": "Survey questionnaire",
        "executable": True,
        "advanced": False,
        "availability": "available",
        "outputTypes": ["categorical", "multiselect", "scale", "qualitative"],
    },
    {
        "id": "maxdiff",
        "version": 1,
        "complexity": "intermediate",
        "requiredConfiguration": ["items (4–30)"],
        "name": "MaxDiff",
        "executable": True,
        "advanced": True,
        "availability": "available",
        "outputTypes": ["ranking"],
    },
    {
        "id": "nps",
        "version": 1,
        "complexity": "basic",
        "requiredConfiguration": [],
        "name": "Net Promoter Score",
        "executable": True,
        "advanced": True,
        "availability": "available",
        "outputTypes": ["scale"],
    },
    {
        "id": "conjoint",
        "version": 1,
        "complexity": "advanced",
        "requiredConfiguration": ["attributes with levels"],
        "name": "Conjoint",
        "executable": False,
        "advanced": True,
        "availability": "planned",
        "fallbackMethodId": "maxdiff",
        "outputTypes": ["utilities"],
    },
    {
        "id": "turf",
        "version": 1,
        "complexity": "high",
        "requiredConfiguration": ["items"],
        "configurationSchema": {"type": "object", "required": ["items"]},
        "name": "TURF analysis",
        "executable": True,
        "advanced": True,
        "availability": "available",
        "outputTypes": ["reach"],
    },
    {
        "id": "gabor-granger",
        "version": 1,
        "complexity": "intermediate",
        "requiredConfiguration": ["price points", "currency"],
        "configurationSchema": {"type": "object", "required": ["pricePoints", "currency"]},
        "name": "Gabor-Granger pricing",
        "executable": True,
        "advanced": True,
        "availability": "available",
        "outputTypes": ["demand_curve"],
    },
    {
        "id": "van-westendorp",
        "version": 1,
        "complexity": "intermediate",
        "requiredConfiguration": ["product description", "currency"],
        "name": "Van Westendorp price sensitivity",
        "executable": True,
        "advanced": True,
        "availability": "available",
        "outputTypes": ["price_range"],
    },
    {
        "id": "kano",
        "version": 1,
        "complexity": "intermediate",
        "requiredConfiguration": ["features (2–20)"],
        "name": "Kano",
        "executable": True,
        "advanced": True,
        "availability": "available",
        "outputTypes": ["feature_classes"],
    },
    {
        "id": "recommendation-synthesis",
        "version": 1,
        "complexity": "advanced",
        "requiredConfiguration": [],
        "name": "Recommendation synthesis",
        "executable": False,
        "advanced": True,
        "availability": "experimental",
        "outputTypes": ["recommendations"],
    },
    {
        "id": "visual-asset-analysis",
        "version": 1,
        "complexity": "advanced",
        "requiredConfiguration": ["an image or video asset on a Study question"],
        "name": "Visual asset analysis",
        "executable": False,
        "advanced": True,
        "availability": "experimental",
        "outputTypes": ["heatmap"],
    },
)


def mind_ref(mind: Record) -> dict[str, Any]:
    return {"id": mind["id"], "name": mind["name"], "discipline": mind["discipline"], "profileImageUrl": None}


def mind_summary(mind: Record) -> dict[str, Any]:
    return {
        "id": mind["id"],
        "name": mind["name"],
        "description": mind["description"],
        "type": mind["type"],
        "discipline": mind["discipline"],
        "sourcePolicy": "auto",
        "tags": list(mind["tags"]),
        "profileImageUrl": mind.get("profileImageUrl"),
        "createdAt": iso(mind["createdAt"]),
        "updatedAt": iso(mind["updatedAt"]),
    }


def mind_detail(mind: Record) -> dict[str, Any]:
    """A seeded Mind has finished training (no ``training`` record); a created one reports its own."""
    training = mind.get("training") or {"status": "completed"}
    return {
        **mind_summary(mind),
        "isPublic": False,
        "isLinkSharingEnabled": False,
        "publicShareId": None,
        "knowledgeItemCount": len(mind.get("knowledge", [])),
        "trainingStatus": training["status"],
        "readyToChat": training["status"] == "completed",
        "persona": mind["persona"],
    }


def _members(state: SandboxState, audience: Record) -> list[Record]:
    return sorted((state.minds[m] for m in audience["mindIds"] if m in state.minds), key=lambda m: m["name"])


def audience_summary(state: SandboxState, audience: Record) -> dict[str, Any]:
    return {
        "id": audience["id"],
        "name": audience["name"],
        "mindCount": len(audience["mindIds"]),
        "minds": [mind_ref(m) for m in _members(state, audience)],
        "currentMemberRole": "owner",
        "createdAt": iso(audience["createdAt"]),
        "updatedAt": iso(audience["updatedAt"]),
    }


def audience_update(state: SandboxState, audience: Record) -> dict[str, Any]:
    """``PUT /audiences/{id}``'s reply."""
    return {
        **audience_summary(state, audience),
        "isPublic": audience.get("isPublic", False),
        "isSharedWithTeam": audience.get("isSharedWithTeam", False),
        "isLinkSharingEnabled": audience["isLinkSharingEnabled"],
        "publicShareId": audience["publicShareId"],
    }


def audience_detail(state: SandboxState, audience: Record, *, now: float | None = None) -> dict[str, Any]:
    members = [
        {**mind_ref(m), "createdAt": iso(m["createdAt"]), "cohortProfile": None} for m in _members(state, audience)
    ]
    brief = {
        "id": stable_id("source", audience["id"]),
        "kind": "brief",
        "text": audience.get("brief"),
        "url": None,
        "filename": None,
        "createdAt": iso(audience["createdAt"]),
    }
    return {
        "id": audience["id"],
        "name": audience["name"],
        "mindCount": len(members),
        "minds": members,
        "createdAt": iso(audience["createdAt"]),
        "updatedAt": iso(audience["updatedAt"]),
        "isPublic": audience.get("isPublic", False),
        "currentMemberRole": "owner",
        "isSharedWithTeam": audience.get("isSharedWithTeam", False),
        "isLinkSharingEnabled": audience["isLinkSharingEnabled"],
        "publicShareId": audience["publicShareId"],
        "sources": [brief, *_adjustments(audience), *_extra_sources(audience), *_files(audience)],
        "calibration": _calibration(audience, now=now),
        "grounding": _grounding(audience),
    }


def _adjustments(audience: Record) -> list[dict[str, Any]]:
    return [
        {
            "id": stable_id("source", audience["id"], "adjustment", i),
            "kind": "adjustment",
            "text": adjustment["text"],
            "url": None,
            "filename": None,
            "createdAt": iso(adjustment["createdAt"]),
        }
        for i, adjustment in enumerate(audience.get("adjustments", []))
    ]


def _extra_sources(audience: Record) -> list[dict[str, Any]]:
    """Keywords and links a recalibration added to the source bundle (``sourceExtras``: kind and value)."""
    return [
        {
            "id": stable_id("source", audience["id"], "extra", i),
            "kind": extra["kind"],
            "text": extra["value"] if extra["kind"] == "keyword" else None,
            "url": extra["value"] if extra["kind"] == "link" else None,
            "filename": None,
            "createdAt": iso(extra["createdAt"]),
        }
        for i, extra in enumerate(audience.get("sourceExtras", []))
    ]


def _files(audience: Record) -> list[dict[str, Any]]:
    return [
        {
            "id": stable_id("source", audience["id"], "file", i),
            "kind": "file",
            "text": None,
            "url": item.get("url"),
            "filename": item.get("name"),
            "createdAt": iso(audience["createdAt"]),
        }
        for i, item in enumerate(audience.get("files", []))
    ]


def _calibration(audience: Record, *, now: float | None) -> dict[str, Any]:
    until = audience.get("calibratingUntil", 0.0)
    active = now is not None and now < until
    started = until - 1 if active else None
    return {"active": active, "startedAt": iso(started) if started is not None else None}


# The standard dimensions every Audience of people carries, with how the sandbox grounds them.
COVERAGE = (
    ("age", "sourced"),
    ("gender identity", "sourced"),
    ("geography", "sourced"),
    ("income", "proxy"),
    ("education", "assumed"),
    ("household size", "missing"),
)


def _grounding(audience: Record) -> dict[str, Any]:
    """A small grounding with the research coverage the seeds describe (sourced, proxy, assumed, missing)."""
    return {
        "snapshotId": stable_id("snapshot", audience["id"]),
        "distributions": active_distributions(audience),
        "reviewDistributions": review_distributions(audience),
        "sources": grounding_sources(audience),
        "summary": f"Grounding for {audience['name']}",
        "confidence": 0.6,
        "appliedToPersonas": True,
        "createdAt": iso(audience["createdAt"]),
        "research": {
            "phase": "complete",
            "dimensionCoverage": {
                "dimensions": [{"name": name, "status": status, "reason": None} for name, status in COVERAGE]
            },
        },
    }


def audience_from_brief_result(state: SandboxState, audience: Record, *, replayed: bool) -> dict[str, Any]:
    result = {
        **audience_summary(state, audience),
        "isPublic": False,
        "isSharedWithTeam": False,
        "isLinkSharingEnabled": bool(audience.get("isLinkSharingEnabled")),
        "publicShareId": audience.get("publicShareId"),
        "grounding": None,
        "audienceCreationMode": audience.get("creationMode") or "balanced",
        "memberTraining": {
            "enqueued": False,
            "queuedMemberCount": 0,
            "pollUrlTemplate": "/api/v1/minds/{mindId}/training",
        },
    }
    if replayed:
        result["replayed"] = True
        result["memberTraining"] = None
    return result


def _study_audiences(state: SandboxState, study: Record) -> list[dict[str, Any]]:
    out = []
    for audience_id in study["audienceIds"]:
        audience = state.audiences.get(audience_id)
        if audience:
            minds = [mind_ref(m) for m in _members(state, audience)]
            out.append({"id": audience_id, "name": audience["name"], "mindCount": len(minds), "minds": minds})
    return out


def _study_base(study: Record) -> dict[str, Any]:
    return {
        "id": study["id"],
        "name": study["name"],
        "studyMode": "study",
        "flowMode": "study",
        "createdAt": iso(study["createdAt"]),
        "updatedAt": iso(study["updatedAt"]),
        "isPublic": study["isLinkSharingEnabled"],
        "isLinkSharingEnabled": study["isLinkSharingEnabled"],
        "publicShareId": study["publicShareId"],
    }


def study_summary(state: SandboxState, study: Record) -> dict[str, Any]:
    return {
        **_study_base(study),
        "messageCount": len(study["messages"]),
        # Not declared by the OpenAPI (StudySummary has messageCount only): the questions people asked.
        "questionCount": question_count(state, study),
        "audiences": _study_audiences(state, study),
    }


def question_count(state: SandboxState, study: Record) -> int:
    """The questions asked in a Study, as Minds counts them: a standalone question is one, a research run counts
    every question of its plan (its message lists them all)."""
    count = 0
    for message in study["messages"]:
        if message["role"] != "user":
            continue
        run = state.runs.get((message.get("metadata") or {}).get("runId", ""))
        count += len(run["questions"]) if run is not None and run.get("kind") == "research" else 1
    return count


def study_created(state: SandboxState, study: Record) -> dict[str, Any]:
    base = _study_base(study)
    base.pop("updatedAt")
    return {**base, "audiences": _study_audiences(state, study)}


def study_detail(state: SandboxState, study: Record) -> dict[str, Any]:
    return {
        **_study_base(study),
        "audiences": _study_audiences(state, study),
        "messages": study["messages"],
        "questionCount": question_count(state, study),  # assumed, as in the Study list
    }


def progress(run: Record) -> dict[str, int]:
    total, items = len(run["questions"]), run["items"]
    return {
        "total": total,
        "settled": len(items),
        "failed": 0,
        "partial": sum(1 for i in items if i.get("partial")),
        "skipped": sum(1 for i in items if i["kind"] == "not_asked"),
        "pct": round(100 * len(items) / total) if total else 100,
    }


def _artifact(item: Record) -> dict[str, Any]:
    artifact: dict[str, Any] = {
        k: item[k]
        for k in ("index", "questionId", "kind", "messageId", "outputData", "routing", "answerConsistency")
        if k in item
    }
    return artifact


def research_run(run: Record) -> dict[str, Any]:
    body = {
        "runId": run["id"],
        "id": run["id"],
        "studyId": run["studyId"],
        "status": run["status"],
        "draftPlanId": run.get("draftPlanId"),
        "revision": run.get("revision"),
        "questionCount": len(run["questions"]),
        "progress": progress(run),
        "completedQuestions": sum(1 for i in run["items"] if i["kind"] == "response"),
        "artifacts": [_artifact(i) for i in run["items"]],
        "respondentStimulusDelivery": {
            "channel": "none",
            "verification": "configuration_only",
            "description": "No stimulus was configured for this run.",
        },
        "respondentMediaEvidence": {"version": "respondent-media-evidence-v1", "status": "not_applicable"},
        "questionAttachments": [],
        "calculations": run.get("calculations", []),  # set when a research run finishes (``calculations``)
        "createdAt": iso(run["createdAt"]),
        "completedAt": iso(run["completedAt"]) if run["completedAt"] else None,
    }
    if run["answerConsistency"] is not None:
        body["answerConsistency"] = run["answerConsistency"]
    return body


def agent_run(run: Record) -> dict[str, Any]:
    """``/runs/{id}`` and ``/studies/{id}/runs`` shape: the durable run without per-item detail."""
    body = {
        "runId": run["id"],
        "id": run["id"],
        "studyId": run["studyId"],
        "kind": run["kind"],
        "status": run["status"],
        "createdAt": iso(run["createdAt"]),
        "completedAt": iso(run["completedAt"]) if run["completedAt"] else None,
        "progress": progress(run),
    }
    if run.get("clientRequestId"):
        body["clientRequestId"] = run["clientRequestId"]
    if run["kind"] == "direct":
        body["question"] = run["questions"][0]["text"]
    if run.get("messageId"):
        body["messageId"] = run["messageId"]
    return body


def sharing(study: Record, *, origin: str) -> dict[str, Any]:
    active = study["isLinkSharingEnabled"]
    body = {"isPublic": active, "isLinkSharingEnabled": active, "publicShareId": study["publicShareId"]}
    if active and study["publicShareId"]:
        body["sharedStudyUrl"] = f"{origin}/share/studies/{study['publicShareId']}"
    return body


def export_status(job: Record, *, download_url: str | None) -> dict[str, Any]:
    body = {
        "status": job["status"],
        "progress": job["progress"],
        "kind": job["kind"],
        "format": job["format"],
        "filename": job["filename"],
        "mimeType": job["mimeType"],
        "generatedAt": job.get("generatedAt"),
        "jobId": job["id"],
        "sourceVersion": str(job["sourceVersion"]),
    }
    if job["status"] == "failed":
        body["error"] = job["error"]
        body["errorCode"] = "EXPORT_FAILED"
    if download_url and job["status"] == "completed":
        body["downloadUrl"] = download_url
    return body


def summary(study: Record) -> dict[str, Any]:
    saved = study.get("summary") or {}
    generation = study.get("summaryGeneration")
    return {
        "summary": saved.get("summary", ""),
        "blocks": saved.get("blocks", []),
        "revision": saved.get("revision", 0),
        "isGenerating": bool(generation),
        "generatedAt": saved.get("generatedAt"),
        "length": saved.get("length", "standard"),
        "coverage": {
            "coveredMessageCount": saved.get("coveredMessageCount", 0),
            "messageCount": len(study["messages"]),
        },
        "stale": saved.get("coveredMessageCount", 0) != len(study["messages"]),
    }
